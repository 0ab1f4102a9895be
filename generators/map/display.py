"""The display: a sheet of playing aids beside the map (display.pdf, on the paper display.yaml names, and
display-tiles.pdf, the same sheet over the chosen home-printer paper), drawn from display.yaml.

Aids flow down the sheet in the order listed: one spanning every column starts a new band across
the sheet; the others go to the shortest column. `draw_display` draws the whole sheet onto any
painter page (a PDF, an SVG, a virtual table's board image).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import DataError, Problem
from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, register_fonts
from ..printing.painter import Anchor, Painter
from ..printing.render import write_outputs
from ..printing.textfit import Paragraph, fit_text
from .aids import Ink, Laid, draw_aid, lay_out
from .poster_sheets import draw_tiled, plan_tiles

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.options import BuildOptions

TITLE_SIZE, NOTE_SIZE = 22.0, 9.0
GAP = 6.0  # mm between aids


@dataclass(frozen=True)
class DisplayPlan:
    """The display laid out: page size, title and note, and each aid with its top-left corner."""

    width: float
    height: float
    title: str
    note: object
    aids: list[tuple[Laid, float, float]]
    fonts: FontSet
    margin: float


def plan_display(game: "Game", layout: "Layout", fonts: FontSet) -> DisplayPlan:
    """Where each of the display's aids goes; DataError naming display.yaml when they do not fit the sheet."""
    display = game.display
    file = game.file("display.yaml")
    paper = layout.paper_size(display.sheet.paper)
    width, height, m = paper.width, paper.height, layout.margin
    inner = width - 2 * m
    columns = display.sheet.columns
    column_w = (inner - (columns - 1) * GAP) / columns
    ink = Ink.of(game, layout, fonts)
    top = m + pt_to_mm(TITLE_SIZE) * 1.1
    note = None
    if display.note:
        note = fit_text(Paragraph(display.note, fonts.regular), inner, 30, largest=NOTE_SIZE, smallest=NOTE_SIZE - 2, what="the display's note")
        top += note.height + 2
    top += 4
    bottoms = [top] * columns
    placed = []
    for i, aid in enumerate(display.aids):
        span = min(aid.span, columns)
        laid = lay_out(aid, game, ink, column_w * span + GAP * (span - 1), file, f"aids[{i}]")
        if span == columns:
            y = max(bottoms)
            x = m + (inner - laid.width) / 2
            bottoms = [y + laid.height + GAP] * columns
        else:
            col = min(range(columns - span + 1), key=lambda c: max(bottoms[c:c + span]))
            y = max(bottoms[col:col + span])
            x = m + col * (column_w + GAP)
            for c in range(col, col + span):
                bottoms[c] = y + laid.height + GAP
        if laid.width > inner + 0.01 or y + laid.height > height - m:
            raise DataError([Problem(file, f"aids[{i}]", f"{aid.title!r} ({laid.width:.0f} x {laid.height:.0f} mm) does not fit the "
                                     f"{display.sheet.paper} sheet; shorten it or give it fewer boxes", "invalid")])
        placed.append((laid, x, y))
    return DisplayPlan(width, height, display.title, note, placed, fonts, m)


def draw_display(painter: Painter, plan: DisplayPlan) -> None:
    """The whole display on the painter's current page (its page coordinates)."""
    m, fonts = plan.margin, plan.fonts
    painter.text(m, m + pt_to_mm(TITLE_SIZE) * 0.8, plan.title, fonts.bold, TITLE_SIZE)
    if plan.note is not None:
        painter.text_block(plan.note, m, m + pt_to_mm(TITLE_SIZE) * 1.1, plan.width - 2 * m, colour="#333333", anchor=Anchor.START)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)


def build_display(game: "Game", layout: "Layout", options: "BuildOptions") -> list[Path]:
    """display.pdf (one sheet), display-tiles.pdf (that sheet over the chosen paper) and, asked for, SVG and PNG."""
    if game.display is None:
        return []
    fonts = register_fonts(layout.fonts, game.folder)
    plan = plan_display(game, layout, fonts)
    folder = options.game_dir(game)
    title = f"{game.info.title} display"

    def sheet(painter: Painter) -> None:
        painter.new_page(plan.width, plan.height)
        draw_display(painter, plan)

    written = write_outputs(folder / "display.pdf", sheet, fonts, options.formats, title=title)
    paper = layout.paper_size(options.paper)
    tiles = plan_tiles((plan.width, plan.height), (paper.width, paper.height), layout.margin)
    if len(tiles.sheets) > 1:
        tiled = partial(draw_tiled, plan=tiles, draw=partial(draw_display, plan=plan), fonts=fonts, title=title)
        written += write_outputs(folder / "display-tiles.pdf", tiled, fonts, [f for f in options.formats if f != "svg"],
                                 title=f"{title}, tiled")
    return written
