"""The display: a sheet of playing aids beside the map (display.pdf, on the paper display.yaml names, and
display-pages.pdf, its panels laid out afresh on pages of the chosen home-printer paper, each panel whole),
drawn from display.yaml.

Aids flow down the sheet in the order listed: one spanning every column starts a new band across the
sheet; the others share the band's columns, each column keeping the designer's order, split so that the
tallest column is as short as it can be. Every panel is as wide as the columns it spans, so their edges
line up on one grid; the type is the layout's (`display:`, one size per role, as the map's panels are
set), boxes the size of the game's counters; a column shorter than its band spaces out its tables' rows
and its lists' items and lines to write on, so every column reaches the bottom margin.
`draw_display` draws the whole sheet onto any painter page (a PDF, an SVG, a board image).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from ..core.errors import DataError, Problem
from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, register_fonts
from ..printing.imposition import scale_advice
from ..printing.painter import Anchor, Drawing, Painter
from ..printing.render import draw_document
from ..printing.textfit import FittedText, Paragraph, fit_text
from .aids import TEXT_SIZE, TITLE_SIZE, Ink, Laid, draw_aid, lay_out
from .poster_sheets import sheet_advice, whole_and_tiled

if TYPE_CHECKING:
    from ..core.board_models import Aid
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.render import Document
    from ..printing.settings import PrintSettings

ASSUMED_FOOT = "This edition's reading of the rules."
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
    note_size: float
    colour: str  # of the title


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


def _split(order: list[int], heights: dict[int, float], columns: int, gap: float) -> list[list[int]]:
    """`order` (aids one column wide) dealt into `columns` columns, each in the order given, so that the tallest
    column is as short as it can be: every way is tried for a handful of aids, else each goes to the shortest."""
    if columns ** len(order) > TRIES:
        split: list[list[int]] = [[] for _ in range(columns)]
        for i in order:
            min(split, key=lambda column: sum(heights[j] + gap for j in column)).append(i)
        return split
    best, best_height = None, float("inf")
    for owners in itertools.product(range(columns), repeat=len(order)):
        split = [[i for i, owner in zip(order, owners) if owner == c] for c in range(columns)]
        tallest = max(_column_height(column, heights, gap) for column in split)
        if tallest < best_height - 1e-9:
            best, best_height = split, tallest
    return best or [[] for _ in range(columns)]


def _column_height(column: list[int], heights: dict[int, float], gap: float) -> float:
    return sum(heights[i] for i in column) + gap * max(0, len(column) - 1)


def plan_display(game: "Game", settings: "PrintSettings", fonts: FontSet) -> DisplayPlan:
    """Where each of the display's aids goes on its sheet, in the layout's type sizes (`display:`), every panel as
    wide as its columns and every column reaching the sheet's bottom margin; DataError naming display.yaml when
    they do not fit."""
    layout = settings.layout
    display = game.display
    paper = layout.paper_size(display.sheet.paper)
    plan = _plan(game, layout, fonts, (paper.width, paper.height), display.sheet.columns, list(range(len(display.aids))),
                 sheet_advice(display.sheet.paper, (paper.width, paper.height)), with_note=True)
    if isinstance(plan, Problem):
        raise DataError([plan])
    return plan


def plan_pages(game: "Game", layout: "Layout", fonts: FontSet, paper: tuple[float, float], paper_name: str) -> list[DisplayPlan] | None:
    """The display's panels laid out afresh on pages of `paper` (each panel whole, in the sheet's order, as many to
    a page as fit, in as many of the sheet's columns as the paper is wide enough for), or None when a panel
    is too large for the paper."""
    display, gap = game.display, layout.display.gap
    sheet = layout.paper_size(display.sheet.paper)
    sheet_column = (sheet.width - 2 * layout.margin - (display.sheet.columns - 1) * gap) / display.sheet.columns
    columns = max(1, min(display.sheet.columns, int((paper[0] - 2 * layout.margin + gap) // (sheet_column + gap))))
    pages: list[list[int]] = []
    for i in range(len(display.aids)):
        if pages and not isinstance(_plan(game, layout, fonts, paper, columns, pages[-1] + [i], "", with_note=len(pages) == 1), Problem):
            pages[-1].append(i)
        elif isinstance(_plan(game, layout, fonts, paper, columns, [i], "", with_note=not pages), Problem):
            return None
        else:
            pages.append([i])
    advice = scale_advice(paper_name) + " (no fit to page), one-sided"
    return [_plan(game, layout, fonts, paper, columns, order, f"{advice}; page {n} of {len(pages)}", with_note=n == 1)
            for n, order in enumerate(pages, 1)]


def _plan(game: "Game", layout: "Layout", fonts: FontSet, paper: tuple[float, float], columns: int, order: list[int],
          advice: str, with_note: bool) -> DisplayPlan | Problem:
    """The aids `order` (indexes into display.yaml's aids) on one page of `paper` in `columns` columns, or the
    Problem naming the aid that does not fit."""
    display, style = game.display, layout.display
    file = game.file("display.yaml")
    (width, height), m, gap = paper, layout.margin, style.gap
    inner = width - 2 * m
    column_w = (inner - (columns - 1) * gap) / columns
    band, tint = layout.colour(style.band), layout.colour(style.tint)
    ink = replace(Ink.of(game, layout, fonts), band=(band.fill, band.ink), tint=tint.fill, line=band.fill,
                  assumed_foot=ASSUMED_FOOT, note_size=style.note_size, box_size=style.heading_size)
    counter = layout.sizes.get("counter")
    ink = replace(ink, cell=max(counter.width, counter.height) + style.box_room if counter else ink.cell, cell_most=style.box_most)
    ink = ink.at(style.text_size / TEXT_SIZE, style.heading_size / TITLE_SIZE)
    aids = [display.aids[i] for i in order]
    bands = _bands(aids, columns)
    rooms = [column_w * min(a.span, columns) + gap * (min(a.span, columns) - 1) for a in aids]

    def laid_out(k: int, tall: float | None = None) -> Laid:
        return lay_out(aids[k], game, replace(ink, room=rooms[k]), rooms[k], file, f"aids[{order[k]}]", height=tall)

    note = None
    if display.note and with_note:
        note = fit_text(Paragraph(display.note, fonts.regular), inner, 40, largest=style.note_size, smallest=style.note_size,
                        what="the display's note")
    top = m + pt_to_mm(style.title_size) * 1.1 + (note.height + 2 if note else 0) + gap
    laid = [laid_out(k) for k in range(len(aids))]
    heights = {k: item.height for k, item in enumerate(laid)}
    split = [band.columns if band.across else _split(band.columns[0], heights, columns, gap) for band in bands]
    used = sum(max(_column_height(column, heights, gap) for column in band) for band in split) + gap * (len(bands) - 1)
    wide = [k for k, item in enumerate(laid) if item.width > rooms[k] + 0.01]
    if wide or top + used > height - m:
        worst = wide[0] if wide else max(range(len(laid)), key=lambda k: laid[k].height)
        return Problem(file, f"aids[{order[worst]}]", f"{laid[worst].aid.title!r} ({laid[worst].width:.0f} x {laid[worst].height:.0f} mm) "
                       f"and the rest do not fit the {display.sheet.paper} sheet; shorten them, give them fewer boxes or "
                       "set the layout's display text_size smaller", "invalid")
    return DisplayPlan(width, height, display.title, style.title_size, note,
                       _fill(split, laid, heights, rooms, top, height - m - top - used, m, column_w, gap, laid_out),
                       fonts, m, advice, style.note_size, band.fill)


def _fill(split, laid, heights, rooms, top, spare, margin, column_w, gap, stretch) -> list[tuple[Laid, float, float]]:
    """Each aid's place, the sheet filled: the height to spare goes to the last band; in each band, a column
    shorter than the band gives the room to its tables and its lists with lines to write on (`stretch` lays one
    out taller: rows further apart, more lines to write on), in proportion to their height, else spreads its aids
    apart; a list of printed text keeps its natural height, as its items spaced out read only as gaps. Room a
    last band of lists and tracks cannot take goes between the bands."""
    placed: list[tuple[Laid, float, float]] = []
    y = top
    last, band_gap = split[-1], gap
    if len(split) > 1 and not any(_takes_room(laid[i]) for column in last for i in column) and all(len(c) < 2 for c in last):
        band_gap, spare = gap + spare / (len(split) - 1), 0.0  # the last band cannot use the room: it goes between the bands
    for b, band in enumerate(split):
        band_height = max(_column_height(column, heights, gap) for column in band) + (spare if b == len(split) - 1 else 0.0)
        for c, column in enumerate(band):
            slack = band_height - _column_height(column, heights, gap)
            items = {i: laid[i] for i in column}
            flexible = [i for i in column if _takes_room(laid[i])]
            if flexible and slack > 0.05:
                share = sum(heights[i] for i in flexible)
                items |= {i: stretch(i, heights[i] + slack * heights[i] / share) for i in flexible}
                slack = band_height - sum(item.height for item in items.values()) - gap * (len(column) - 1)
            between = max(0.0, slack) / (len(column) - 1) if len(column) > 1 else 0.0
            x, cy = margin + c * (column_w + gap), y
            for i in column:
                item = items[i]
                placed.append((item, x, cy))
                cy += item.height + gap + between
        y += band_height + band_gap
    return placed


def _takes_room(item: Laid) -> bool:
    """Whether room to spare on the sheet is worth giving to the aid: a table, or anything with lines to write on."""
    return item.writable or item.aid.kind == "table"


def draw_display(painter: Painter, plan: DisplayPlan) -> None:
    """The whole display on the painter's current page (its page coordinates)."""
    m, fonts = plan.margin, plan.fonts
    painter.text(m, m + pt_to_mm(plan.title_size) * 0.8, plan.title, fonts.bold, plan.title_size, colour=plan.colour)
    if plan.note is not None:
        painter.text_block(plan.note, m, m + pt_to_mm(plan.title_size) * 1.1, plan.width - 2 * m, colour="#333333", anchor=Anchor.START)
    advice = plan.advice[:1].upper() + plan.advice[1:] + "."
    painter.text(plan.width - m, m + pt_to_mm(plan.title_size) * 0.8, advice, fonts.regular, plan.note_size, colour="#555555", anchor=Anchor.END)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)


def build_display(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """display.pdf (one sheet) and display-pages.pdf (its panels on pages of the chosen paper, each panel whole;
    where a panel is too large for that paper, display-tiles.pdf instead: the sheet over that paper) and, asked
    for, SVG and PNG."""
    if game.display is None:
        return []
    layout = settings.layout
    fonts = register_fonts(layout.fonts, game.folder)
    plan = plan_display(game, settings, fonts)
    title = f"{game.info.title} display"
    page = Drawing(plan.width, plan.height, partial(draw_display, plan=plan), key=title)
    folder, paper = settings.game_dir(game), (settings.paper.width, settings.paper.height)
    whole = draw_document(folder / "display.pdf", partial(_draw_pages, plans=[plan]), fonts, settings.formats, title=title,
                          advice=plan.advice, dpi=settings.dpi)
    if plan.width <= paper[0] + 0.01 and plan.height <= paper[1] + 0.01:  # the chosen paper takes the sheet
        return [whole]
    pages = plan_pages(game, layout, fonts, paper, settings.paper_name)
    if pages is None:
        return whole_and_tiled(folder, "display", page, plan.advice, fonts, settings, title, page_margin=plan.margin)
    advice = pages[0].advice.rsplit(";", 1)[0]
    return [whole, draw_document(folder / "display-pages.pdf", partial(_draw_pages, plans=pages), fonts, settings.formats,
                                 title=f"{title}, on {settings.paper_name}", advice=advice, dpi=settings.dpi)]


def _draw_pages(painter: Painter, plans: list[DisplayPlan]) -> None:
    for plan in plans:
        painter.new_page(plan.width, plan.height)
        draw_display(painter, plan)
