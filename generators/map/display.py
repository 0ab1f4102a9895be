"""The display: a sheet of playing aids beside the map (display.pdf, on the paper display.yaml names, and
display-tiles.pdf, the same sheet over the chosen home-printer paper), drawn from display.yaml.

Aids flow down the sheet in the order listed: one spanning every column starts a new band across the
sheet; the others share the band's columns, each column keeping the designer's order, split so that the
tallest column is as short as it can be. The type is then set as large as the sheet allows (up to MOST
times its size on the map, a table only as large as its column allows; boxes stay the size of the game's
counters), and a column shorter than its band spaces out its tables' rows and its lists' items and lines
to write on, so the sheet is filled to its bottom margin without a section growing beyond its content. `draw_display` draws the whole sheet onto any painter page (a PDF, an SVG, a board image).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..core.errors import DataError, Problem
from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, register_fonts
from ..printing.painter import Anchor, Drawing, Painter
from ..printing.textfit import FittedText, Paragraph, fit_text
from .aids import Ink, Laid, draw_aid, lay_out
from .poster_sheets import sheet_advice, whole_and_tiled

if TYPE_CHECKING:
    from ..core.board_models import Aid
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.render import Document
    from ..printing.settings import PrintSettings

TITLE_SIZE, NOTE_SIZE, ADVICE_SIZE = 24.0, 10.0, 8.0  # pt; the title and note grow a little with the aids
GAP = 6.0  # mm between aids, at least
MOST = 2.0  # the largest scale tried
STEPS = 7  # halvings of the search for the largest scale that fits (to within 1 %)
TRIES = 4096  # ways of splitting a band into columns worth trying one by one


@dataclass(frozen=True)
class DisplayPlan:
    """The display laid out: page size, title and note, each aid with its top-left corner, how to print it."""

    width: float
    height: float
    title: str
    title_size: float
    note: FittedText | None
    aids: list[tuple[Laid, float, float]]
    fonts: FontSet
    margin: float
    advice: str


@dataclass(frozen=True)
class _Band:
    """A row of the sheet: one aid across every column, or columns of aids (indexes into the aid list)."""

    columns: list[list[int]]
    across: bool


def _bands(aids: list["Aid"], columns: int) -> list[_Band]:
    bands: list[_Band] = []
    run: list[int] = []
    for i, aid in enumerate(aids):
        if min(aid.span, columns) == columns:
            if run:
                bands.append(_Band([run], False))
                run = []
            bands.append(_Band([[i]], True))
        else:
            run.append(i)
    if run:
        bands.append(_Band([run], False))
    return bands


def _split(order: list[int], heights: dict[int, float], columns: int) -> list[list[int]]:
    """`order` (aids one column wide) dealt into `columns` columns, each in the order given, so that the tallest
    column is as short as it can be: every way is tried for a handful of aids, else each goes to the shortest."""
    if columns ** len(order) > TRIES:
        split: list[list[int]] = [[] for _ in range(columns)]
        for i in order:
            min(split, key=lambda column: sum(heights[j] + GAP for j in column)).append(i)
        return split
    best, best_height = None, float("inf")
    for owners in itertools.product(range(columns), repeat=len(order)):
        split = [[i for i, owner in zip(order, owners) if owner == c] for c in range(columns)]
        tallest = max(sum(heights[i] for i in column) + GAP * max(0, len(column) - 1) for column in split)
        if tallest < best_height - 1e-9:
            best, best_height = split, tallest
    return best or [[] for _ in range(columns)]


def _column_height(column: list[int], heights: dict[int, float]) -> float:
    return sum(heights[i] for i in column) + GAP * max(0, len(column) - 1)


def plan_display(game: "Game", layout: "Layout", fonts: FontSet) -> DisplayPlan:
    """Where each of the display's aids goes, at the largest type that fits; DataError naming display.yaml when
    they do not fit the sheet even at their usual size."""
    display = game.display
    file = game.file("display.yaml")
    paper = layout.paper_size(display.sheet.paper)
    width, height, m = paper.width, paper.height, layout.margin
    inner = width - 2 * m
    columns = display.sheet.columns
    column_w = (inner - (columns - 1) * GAP) / columns
    ink = Ink.of(game, layout, fonts)
    bands = _bands(display.aids, columns)
    rooms = [column_w * min(a.span, columns) + GAP * (min(a.span, columns) - 1) for a in display.aids]

    def header(scale: float):
        title_size = TITLE_SIZE * min(scale, 1.5)
        note = None
        if display.note:
            size = NOTE_SIZE * min(scale, 1.4)
            note = fit_text(Paragraph(display.note, fonts.regular), inner, 40, largest=size, smallest=size - 2, what="the display's note")
        return title_size, note, m + pt_to_mm(title_size) * 1.1 + (note.height + 2 if note else 0) + GAP

    def widest(i: int) -> float:
        """The largest type scale (up to MOST) at which aid `i`'s boxes and columns stay inside its room."""
        low, high = 1.0, MOST
        if lay_out(display.aids[i], game, ink.at(high), rooms[i], file, f"aids[{i}]").width <= rooms[i] + 0.01:
            return high
        for _ in range(STEPS):
            middle = (low + high) / 2
            fits = lay_out(display.aids[i], game, ink.at(middle), rooms[i], file, f"aids[{i}]").width <= rooms[i] + 0.01
            low, high = (middle, high) if fits else (low, middle)
        return low

    caps = [widest(i) if aid.kind in ("track", "record", "table") else MOST for i, aid in enumerate(display.aids)]

    def arrange(scale: float):
        """The aids laid out with titles `scale` times their usual size and type as near that as fits, each band's
        columns, and how tall they stand."""
        laid = [lay_out(aid, game, ink.at(min(scale, caps[i]), scale), rooms[i], file, f"aids[{i}]")
                for i, aid in enumerate(display.aids)]
        heights = {i: item.height for i, item in enumerate(laid)}
        split = [band.columns if band.across else _split(band.columns[0], heights, columns) for band in bands]
        used = sum(max(_column_height(column, heights) for column in band) for band in split) + GAP * (len(bands) - 1)
        return laid, split, heights, used

    def fits(scale: float) -> bool:
        laid, _, _, used = arrange(scale)
        return header(scale)[2] + used <= height - m and all(item.width <= room + 0.01 for item, room in zip(laid, rooms))

    if not fits(1.0):
        laid, _, _, _ = arrange(1.0)
        worst = max(range(len(laid)), key=lambda i: (laid[i].width > rooms[i] + 0.01, laid[i].height))
        raise DataError([Problem(file, f"aids[{worst}]", f"{display.aids[worst].title!r} ({laid[worst].width:.0f} x "
                                 f"{laid[worst].height:.0f} mm) and the rest do not fit the {display.sheet.paper} sheet; "
                                 "shorten them or give them fewer boxes", "invalid")])
    low, high = 1.0, MOST
    for _ in range(STEPS):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    laid, split, heights, used = arrange(low)
    title_size, note, top = header(low)
    return DisplayPlan(width, height, display.title, title_size, note,
                       _fill(split, laid, heights, rooms, top, height - m - top - used, m, column_w,
                             lambda i, h: lay_out(display.aids[i], game, ink.at(min(low, caps[i]), low), rooms[i], file, f"aids[{i}]",
                                                  height=h)),
                       fonts, m, sheet_advice(display.sheet.paper, (width, height)))


def _fill(split, laid, heights, rooms, top, spare, margin, column_w, stretch) -> list[tuple[Laid, float, float]]:
    """Each aid's place, the sheet filled: the height to spare goes to the last band; in each band, a column
    shorter than the band gives the room to its tables and lists (`stretch` lays one out taller: more room
    between rows, items and lines to write on), in proportion to their height, else spreads its aids."""
    placed: list[tuple[Laid, float, float]] = []
    y = top
    for b, band in enumerate(split):
        band_height = max(_column_height(column, heights) for column in band) + (spare if b == len(split) - 1 else 0.0)
        for c, column in enumerate(band):
            slack = band_height - _column_height(column, heights)
            items = {i: laid[i] for i in column}
            flexible = [i for i in column if laid[i].aid.kind in ("table", "list")]
            if flexible and slack > 0.5:
                share = sum(heights[i] for i in flexible)
                items |= {i: stretch(i, heights[i] + slack * heights[i] / share) for i in flexible}
                slack = band_height - sum(item.height for item in items.values()) - GAP * (len(column) - 1)
            between = max(0.0, slack) / (len(column) - 1) if len(column) > 1 else 0.0
            x, cy = margin + c * (column_w + GAP), y
            for i in column:
                item = items[i]
                placed.append((item, x + (rooms[i] - item.width) / 2, cy))  # an aid narrower than its room (a track) is centred
                cy += item.height + GAP + between
        y += band_height + GAP
    return placed


def draw_display(painter: Painter, plan: DisplayPlan) -> None:
    """The whole display on the painter's current page (its page coordinates)."""
    m, fonts = plan.margin, plan.fonts
    painter.text(m, m + pt_to_mm(plan.title_size) * 0.8, plan.title, fonts.bold, plan.title_size)
    if plan.note is not None:
        painter.text_block(plan.note, m, m + pt_to_mm(plan.title_size) * 1.1, plan.width - 2 * m, colour="#333333", anchor=Anchor.START)
    advice = plan.advice[:1].upper() + plan.advice[1:] + "."
    painter.text(plan.width - m, m + pt_to_mm(plan.title_size) * 0.8, advice, fonts.regular, ADVICE_SIZE, colour="#555555", anchor=Anchor.END)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)


def build_display(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """display.pdf (one sheet), display-tiles.pdf (that sheet over the chosen paper) and, asked for, SVG and PNG."""
    if game.display is None:
        return []
    layout = game.layout
    fonts = register_fonts(layout.fonts, game.folder)
    plan = plan_display(game, layout, fonts)
    title = f"{game.info.title} display"
    page = Drawing(plan.width, plan.height, partial(draw_display, plan=plan), key=title)
    return whole_and_tiled(settings.game_dir(game), "display", page, plan.advice, fonts, settings, title)
