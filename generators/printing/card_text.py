"""A card's sections as paragraphs ready for text fitting, set the same way on cards and on the player aid.

Each item is one line group: a bullet, the variant label in bold (when the item holds for one
game only), the text, then its citations in smaller grey type, all running on from each other.
A variant or citations shared by every item of a section are printed once, after the heading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.card_models import Item, Side
from ..core.cards import variant_label
from .fonts import FontSet, text_width
from .textfit import Paragraph

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout

BULLET = "•"
CITATION_SCALE = 0.85
NOTE_INK = "#555555"  # citations, footers and notes: quieter than the rules they go with
HEADING_SPACE = 0.45  # room above a section heading, as a multiple of the text size


@dataclass(frozen=True)
class CardInk:
    """Fonts and colours a card is set in, and the hanging indent of its items (mm)."""

    fonts: FontSet
    heading: str
    variants: dict[str, str]
    indent: float


def card_ink(game: "Game", layout: "Layout", fonts: FontSet, largest: float) -> CardInk:
    """The ink for `game`'s cards: headings in the layout's card colour, variant labels in `variant-<id>`."""
    variants = {v: layout.colour(f"variant-{v}").fill if f"variant-{v}" in layout.colours else "#000000"
                for v in game.info.variants}
    heading = layout.colour("card").fill if "card" in layout.colours else "#000000"
    indent = text_width(BULLET + " ", fonts.regular, largest)
    return CardInk(fonts, heading, variants, indent)


def citation_text(rules: list[str]) -> str:
    """How an item's citations print: "[Standard: Moving Your Spies; 3.6]"."""
    return "[" + "; ".join(rules) + "]"


def _citation(rules: list[str], ink: CardInk, indent: float) -> Paragraph:
    return Paragraph(citation_text(rules), ink.fonts.regular, CITATION_SCALE, indent=indent, run_in=True, colour=NOTE_INK)


def _label(game: "Game", variant: str | None, ink: CardInk, indent: float, leads: bool = False) -> list[Paragraph]:
    """The variant's label in bold; running on from the bullet, or (`leads`) opening a section heading."""
    label = variant_label(game, variant)
    if not label:
        return []
    return [Paragraph(f"{label}:", ink.fonts.bold, indent=indent, run_in=not leads, colour=ink.variants.get(variant),
                      space_before=HEADING_SPACE if leads else 0.0)]


def item_paragraphs(game: "Game", item: Item, ink: CardInk, cited: bool = True, labelled: bool = True) -> list[Paragraph]:
    """Bullet, variant label (when `labelled`), text and citations (when `cited`) of one item, each running on."""
    paragraphs = [Paragraph(BULLET, ink.fonts.regular, space_before=0.15)]
    if labelled:
        paragraphs += _label(game, item.variant, ink, ink.indent)
    paragraphs.append(Paragraph(item.text, ink.fonts.regular, indent=ink.indent, run_in=True))
    if cited and item.rules:
        paragraphs.append(_citation(item.rules, ink, ink.indent))
    return paragraphs


def _shared(values: list) -> bool:
    return len(values) > 1 and values[0] and all(v == values[0] for v in values)


def section_paragraphs(game: "Game", heading: str, items: list[Item], ink: CardInk) -> list[Paragraph]:
    """A section's heading in bold, then its items; a variant or citations that every item shares
    are printed once, after the heading, instead of on each item."""
    shared_variant = _shared([item.variant for item in items])
    shared_rules = _shared([item.rules for item in items])
    paragraphs = _label(game, items[0].variant, ink, 0.0, leads=True) if shared_variant else []
    paragraphs.append(Paragraph(heading, ink.fonts.bold, colour=ink.heading, space_before=HEADING_SPACE, run_in=bool(paragraphs)))
    if shared_rules:
        paragraphs.append(_citation(items[0].rules, ink, 0.0))
    for item in items:
        paragraphs += item_paragraphs(game, item, ink, cited=not shared_rules, labelled=not shared_variant)
    return paragraphs


def side_paragraphs(game: "Game", side: Side, ink: CardInk) -> list[Paragraph]:
    """Every section of one side of a (resolved) card."""
    paragraphs: list[Paragraph] = []
    for section in side.sections:
        paragraphs += section_paragraphs(game, section.heading, list(section.items), ink)
    return paragraphs
