"""A card's sections as paragraphs ready for text fitting, set the same way on cards and on the player aid.

Each item is one line group: a bullet, the variant label in bold (when the item holds for one
game only) and the text, running on from each other. Citations are quiet: after each heading, in
small light-grey type behind a section sign (§ 3.4), one short tag (cards.yaml `citation_tags`) for
the rule its items cite most, once per side. A variant shared by every item of a section is printed
once, before the heading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.card_models import Item, Side
from ..core.cards import variant_label
from .fonts import FontSet, text_width
from .textfit import SWATCH, Paragraph

if TYPE_CHECKING:
    from ..core.game import Game
    from .settings import PrintSettings

BULLET = "•"
SYMBOL_INDENT = 3.2  # an item led by a drawn symbol hangs this many bullets' widths in
CITATION_SCALE = 0.85
NOTE_INK = "#555555"  # footers and notes: quieter than the rules they go with
SECTION_SIGN = "§\u00a0"  # what leads every citation a sheet prints, kept to its tag by the no-break space
CITATION_INK = "#707070"  # a section's rule tag: lighter still, so it never reads as part of the rule (4.9:1 on white)
HEADING_SPACE = 0.45  # room above a section heading, as a multiple of the text size


@dataclass(frozen=True)
class CardInk:
    """Fonts and colours a card is set in, and the hanging indent of its items (mm)."""

    fonts: FontSet
    heading: str
    variants: dict[str, str]
    indent: float
    swatches: dict[str, str] = field(default_factory=dict)  # the layout's colours by name: an item's swatch fill


def card_ink(game: "Game", settings: "PrintSettings", fonts: FontSet, largest: float) -> CardInk:
    """The ink for `game`'s cards: headings in the layout's card colour, variant labels in `variant-<id>`."""
    layout = settings.layout
    variants = {v: layout.colour(f"variant-{v}").fill if f"variant-{v}" in layout.colours else "#000000"
                for v in game.info.variants}
    heading = layout.colour("card").fill if "card" in layout.colours else "#000000"
    indent = text_width(BULLET + " ", fonts.regular, largest)
    return CardInk(fonts, heading, variants, indent, {name: c.fill for name, c in layout.colours.items()})


def citation_text(rules: list[str]) -> str:
    """How a section's citations print: "§ Searching, 3.4", a section sign and no brackets (brackets after every
    heading read as clutter), each tag kept on one line (a tag broken after its heading's last word reads as two)."""
    return SECTION_SIGN + ", ".join(rule.replace(" ", "\u00a0") for rule in rules)


def cite_as_printed(cite: str) -> str:
    """A data file's `cite` ("[3.1], [3.12]"; "How to Begin the Game; [2.1]-[2.8]") as sheets print it: behind a
    section sign with its brackets dropped, as citation_text sets a card's tags."""
    import re

    return SECTION_SIGN + re.sub(r"\[([^\]]+)\]", r"\1", cite)


def citation_tag(game: "Game", rule: str) -> str:
    """The short tag cards print for citation `rule`: its `citation_tags` entry, else the citation itself."""
    tags = game.cards.citation_tags if game.cards else {}
    return tags.get(rule, rule)


def section_tags(game: "Game", items: list[Item], cited: set[str]) -> list[str]:
    """One short tag for a section: the rule its items cite most (the first such on a tie), unless `cited` (the
    side's earlier sections) has printed it; adds it to `cited`. The full citations stay in the data."""
    counts: dict[str, int] = {}
    for item in items:
        for rule in item.rules:
            tag = citation_tag(game, rule)
            counts[tag] = counts.get(tag, 0) + 1
    if not counts:
        return []
    tag = max(counts, key=counts.get)
    if tag in cited:
        return []
    cited.add(tag)
    return [tag]


def _label(game: "Game", variant: str | None, ink: CardInk, indent: float, leads: bool = False) -> list[Paragraph]:
    """The variant's label in bold; running on from the bullet, or (`leads`) opening a section heading."""
    label = variant_label(game, variant)
    if not label:
        return []
    return [Paragraph(f"{label}:", ink.fonts.bold, indent=indent, run_in=not leads, colour=ink.variants.get(variant),
                      space_before=HEADING_SPACE if leads else 0.0)]


def item_paragraphs(game: "Game", item: Item, ink: CardInk, labelled: bool = True, bullet: bool = True) -> list[Paragraph]:
    """Bullet (unless the item is a numbered step; the item's symbol, drawn, when it has one), variant label (when
    `labelled`) and text of one item, each running on."""
    swatch = ink.swatches.get(item.swatch) if item.swatch else None
    led = bool(item.symbol or swatch)
    indent = ink.indent * (SYMBOL_INDENT if led else 1.0) if bullet else 0.0
    mark = SWATCH if swatch else item.symbol
    paragraphs = [Paragraph(BULLET, ink.fonts.regular, space_before=0.15, symbol=mark,
                            colour=swatch or (ink.heading if led else None))] if bullet else []
    if labelled:
        paragraphs += _label(game, item.variant, ink, indent)
        if not bullet and paragraphs:
            paragraphs[0] = Paragraph(paragraphs[0].text, paragraphs[0].font, colour=paragraphs[0].colour, space_before=0.15)
    paragraphs.append(Paragraph(item.text, ink.fonts.regular, indent=indent, run_in=bool(paragraphs),
                                space_before=0.0 if paragraphs else 0.15))
    return paragraphs


def _shared(values: list) -> bool:
    return len(values) > 1 and values[0] and all(v == values[0] for v in values)


def heading_paragraphs(game: "Game", heading: str, items: list[Item], ink: CardInk, cited: set[str]) -> list[Paragraph]:
    """A section's heading in bold, led by the variant its items share, followed by its citation tags
    (but the one the heading itself is)."""
    shared_variant = _shared([item.variant for item in items])
    paragraphs = _label(game, items[0].variant, ink, 0.0, leads=True) if shared_variant else []
    paragraphs.append(Paragraph(heading, ink.fonts.bold, colour=ink.heading, space_before=HEADING_SPACE, run_in=bool(paragraphs)))
    tags = [tag for tag in section_tags(game, items, cited) if tag != heading]  # a heading that is its rule's name cites it
    if tags:
        paragraphs.append(Paragraph(citation_text(tags), ink.fonts.regular, CITATION_SCALE, run_in=True, colour=CITATION_INK))
    return paragraphs


def section_paragraphs(game: "Game", heading: str, items: list[Item], ink: CardInk, cited: set[str],
                       steps: bool = False) -> list[Paragraph]:
    """A section's heading (see heading_paragraphs), then its items (numbered `steps` go without
    bullets); `cited` holds the tags the side has printed."""
    paragraphs = heading_paragraphs(game, heading, items, ink, cited)
    labelled = not _shared([item.variant for item in items])
    for item in items:
        paragraphs += item_paragraphs(game, item, ink, labelled=labelled, bullet=not steps)
    return paragraphs


def side_paragraphs(game: "Game", side: Side, ink: CardInk) -> list[Paragraph]:
    """Every section of one side of a (resolved) card."""
    paragraphs: list[Paragraph] = []
    cited: set[str] = set()
    for section in side.sections:
        paragraphs += section_paragraphs(game, section.heading, list(section.items), ink, cited, section.show == "steps")
    return paragraphs
