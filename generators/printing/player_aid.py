"""`player-aid.pdf`: every card's content on both sides of one sheet of the chosen paper.

The sections flow in card order down the layout's columns, front side of the sheet first. All
text shares one size: the largest (from the layout's aid size down to the card minimum) at
which everything fits on the two sides; if nothing fits, the aid is refused, naming it.
Both sides, not one: the cards' full content does not fit one side at a legible size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.card_models import Card
from ..core.cards import resolve_cards, variant_label
from ..core.units import pt_to_mm
from .card_text import NOTE_INK, CardInk, card_ink, citation_text, section_paragraphs
from .fonts import register_fonts
from .geometry import Box
from .imposition import scale_advice
from .painter import Anchor, Painter
from .render import write_outputs
from .textfit import STEP, FittedText, Paragraph, TextFitError, fit_text

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from .options import BuildOptions

SIDES = 2
SECTION_GAP = 0.6  # space above a section, as a multiple of the text size
PANEL_GAP = 1.4  # space above a card side's title
UNBOUNDED = 1e6  # mm: measuring a block's natural height


@dataclass(frozen=True)
class Block:
    """A piece of the aid never split across columns: a section, with its card side's title when it opens the panel."""

    paragraphs: tuple[Paragraph, ...]
    opens_panel: bool


@dataclass(frozen=True)
class PlacedBlock:
    """A block fitted at the aid's size, at its place: side (0 or 1), column and top (mm within the column)."""

    fitted: FittedText
    side: int
    column: int
    top: float
    opens_panel: bool


def aid_panels(game: "Game", cards: list[Card], ink: CardInk) -> list[list[Block]]:
    """One panel per side of the (resolved) `cards`, in order: its sections as blocks, the side's title riding on the first."""
    panels = []
    for card in cards:
        for _, side in card.sides():
            blocks = []
            for i, section in enumerate(side.sections):
                paragraphs = section_paragraphs(game, section.heading, list(section.items), ink)
                if i == 0:
                    paragraphs = [Paragraph(side.title, ink.fonts.bold, 1.3, colour=ink.heading)] + paragraphs
                blocks.append(Block(tuple(paragraphs), i == 0))
            panels.append(blocks)
    return panels


def _place(panel: list[tuple[Block, FittedText]], size: float, height: float, slot: int, used: float):
    """Positions (slot, top) of a panel's blocks poured from `slot` with `used` mm taken; None if a block is taller than a column."""
    positions = []
    for block, fitted in panel:
        gap = pt_to_mm(size * (PANEL_GAP if block.opens_panel else SECTION_GAP))
        top = used + gap if used else 0.0
        if top + fitted.height > height:
            if fitted.height > height:
                return None
            slot, top = slot + 1, 0.0
        positions.append((slot, top))
        used = top + fitted.height
    return positions


def _pack(panels: list[list[Block]], size: float, width: float, height: float, columns: int) -> list[PlacedBlock] | None:
    """The panels set at `size` and poured into columns over both sides, or None when they overflow.

    A panel may go on in the next column but never onto the other side of the sheet; one that
    would is started afresh at the top of that side.
    """
    placed: list[PlacedBlock] = []
    slot, used = 0, 0.0
    for panel in panels:
        try:
            fitted = [(block, fit_text(list(block.paragraphs), width, UNBOUNDED, largest=size, smallest=size,
                                       what="player aid")) for block in panel]
        except TextFitError:
            return None
        positions = _place(fitted, size, height, slot, used)
        if positions and positions[0][0] // columns != positions[-1][0] // columns:
            positions = _place(fitted, size, height, positions[-1][0] // columns * columns, 0.0)
            if positions and positions[0][0] // columns != positions[-1][0] // columns:
                return None
        if positions is None or positions[-1][0] >= SIDES * columns:
            return None
        for (block, text), (at, top) in zip(fitted, positions):
            side, column = divmod(at, columns)
            placed.append(PlacedBlock(text, side, column, top, block.opens_panel))
        slot, used = positions[-1][0], positions[-1][1] + fitted[-1][1].height
    return placed


def legend(game: "Game") -> str:
    """What the marks on the aid mean, from the game's variants."""
    labels = [variant_label(game, v) for v in game.info.variants]
    marked = f"Items marked {' or '.join(labels)} hold for that game only; the rest for every game. " if len(labels) > 1 else ""
    return f"{marked}{citation_text(['…'])} names the rule an item rests on."


def build_player_aid(game: "Game", layout: "Layout", options: "BuildOptions") -> list[Path]:
    """Write OUT/<game>/player-aid.pdf (and SVG/PNG as asked): one sheet, both sides; [] when the game has no cards."""
    cards = resolve_cards(game)
    if not cards:
        return []
    style = layout.cards
    paper = layout.paper_size(options.paper)
    fonts = register_fonts(layout.fonts, game.folder)
    margin = layout.margin
    title_size = style.aid_text_size * 1.5
    note_size = layout.min_text_size.card
    header = pt_to_mm(title_size) * 1.2 + pt_to_mm(note_size) * 2.2
    area = Box(margin, margin + header, paper.width - 2 * margin, paper.height - 2 * margin - header)
    columns = style.aid_columns
    width = (area.width - (columns - 1) * style.aid_gap) / columns
    ink = card_ink(game, layout, fonts, style.aid_text_size)
    panels = aid_panels(game, cards, ink)

    size = style.aid_text_size
    placed = None
    while size >= layout.min_text_size.card - 1e-9 and placed is None:
        placed = _pack(panels, size, width, area.height, columns)
        size -= STEP
    if placed is None:
        raise TextFitError(f"player aid: the cards' text does not fit on both sides of one "
                           f"{paper.width:g} x {paper.height:g} mm sheet even at {layout.min_text_size.card:g} pt")

    advice = f"{scale_advice(options.paper or layout.paper)}, 2-sided"

    def draw(painter: Painter) -> None:
        for side in range(SIDES):
            painter.new_page(paper.width, paper.height)
            baseline = margin + pt_to_mm(title_size)
            painter.text(margin, baseline, f"{game.info.title} player aid", fonts.bold, title_size, ink.heading)
            painter.text(area.right, baseline, f"side {side + 1} of {SIDES} · {advice}",
                         fonts.regular, note_size, NOTE_INK, Anchor.END)
            painter.text(margin, baseline + pt_to_mm(note_size) * 2, legend(game), fonts.regular, note_size, NOTE_INK)
            for block in (b for b in placed if b.side == side):
                x = area.x + block.column * (width + style.aid_gap)
                y = area.y + block.top
                if block.opens_panel and block.top > 0:
                    rule = y - pt_to_mm(block.fitted.size * PANEL_GAP) / 2
                    painter.line(x, rule, x + width, rule, ink.heading, 0.5)
                painter.text_block(block.fitted, x, y, width, anchor=Anchor.START)

    return write_outputs(options.game_dir(game) / "player-aid.pdf", draw, fonts, options.formats,
                         title=f"{game.info.title} player aid", advice=advice)
