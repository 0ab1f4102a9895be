"""`cards.pdf`: the game's reference cards, double-sided, imposed on paper with crop marks.

Every card is set before anything is drawn, and the whole deck shares one body size and one
title size: the largest at which the fullest card fits (down to the layout's minimum), so type
never jumps from card to card. A card that cannot fit is refused by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.card_models import Card, Side
from ..core.cards import deck_cards
from ..core.models import ASSUMED_MARK
from ..core.units import mm_to_pt, pt_to_mm
from .card_text import NOTE_INK, card_ink, side_paragraphs
from .fonts import FontSet, ascent, fit_size, piece_fonts, text_width
from .geometry import Box
from .imposition import (
    READING_NOTE,
    Page,
    SheetSpec,
    caption_space,
    copies_note,
    copies_that_fit,
    draw_caption,
    draw_guides,
    impose,
    print_advice,
    sheet_spec,
)
from .imposition import Side as SheetSide
from .painter import Anchor, Painter
from .render import Document, draw_document
from .textfit import FittedText, TextFitError, set_text, shared_size

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from .settings import PrintSettings


@dataclass(frozen=True)
class CardGeometry:
    """Where things sit inside a card of `width` x `height` mm, relative to its top-left corner."""

    width: float
    height: float
    padding: float
    band: float  # height of the title band
    title_size: float
    footer_size: float

    @property
    def body(self) -> Box:
        top = self.band + self.padding * 0.6
        bottom = self.height - self.padding - pt_to_mm(self.footer_size) * 1.4
        return Box(self.padding, top, self.width - 2 * self.padding, bottom - top)


@dataclass(frozen=True)
class SetFace:
    """One side of a card, fitted: its title (and the size it fits at) and its body text."""

    title: str
    title_size: float
    body: FittedText | None


@dataclass(frozen=True)
class SetCard:
    """A card ready to draw: its number in the set and both fitted faces (back None when blank)."""

    card: Card
    number: int
    front: SetFace
    back: SetFace | None


def card_geometry(layout: "Layout", size: tuple[float, float]) -> CardGeometry:
    """The card's inner layout from the layout's card style, for a card of `size` mm."""
    style = layout.cards
    band = style.padding * 1.6 + pt_to_mm(style.title_size)
    return CardGeometry(size[0], size[1], style.padding, band, style.title_size, layout.min_text_size.card)


def _title_size(faces: list[tuple[Card, str, Side]], geometry: CardGeometry, fonts: FontSet, smallest: float) -> float:
    """The one size every side's title fits on one line at."""
    size = geometry.title_size
    for card, face, side in faces:
        fitted = fit_size(side.title, fonts.bold, mm_to_pt(geometry.body.width), size, smallest)
        if fitted is None:
            raise TextFitError(f"card {card.id!r} ({face}): title {side.title!r} does not fit on one line "
                               f"of {geometry.body.width:.1f} mm even at {smallest:g} pt")
        size = fitted
    return size


def set_cards(game: "Game", settings: "PrintSettings", cards: list[Card], fonts: FontSet,
              size: tuple[float, float]) -> list[SetCard]:
    """The game's (resolved) `cards` set at `size` in the deck's sizes; raises TextFitError naming the first card that cannot fit."""
    layout = settings.layout
    geometry = card_geometry(layout, size)
    largest, smallest = layout.cards.text_size, layout.min_text_size.card
    ink = card_ink(game, settings, fonts, largest)
    body = geometry.body
    faces = [(card, face, side) for card in cards for face, side in card.sides()]
    paragraphs = {(card.id, face): side_paragraphs(game, side, ink) for card, face, side in faces}
    blocks = sorted(((paragraphs[card.id, face], f"card {card.id!r} ({face})") for card, face, _ in faces),
                    key=lambda block: -sum(len(p.text) for p in block[0]))  # the fullest lowers the size first
    body_size = shared_size(blocks, body.width, body.height, largest=largest, smallest=smallest)
    title_size = _title_size(faces, geometry, fonts, smallest)
    result = []
    for number, card in enumerate(cards, start=1):
        set_faces = {}
        for face, side in card.sides():
            fitted = set_text(paragraphs[card.id, face], body.width, body.height, body_size)
            assert fitted is not None, "the deck's size was chosen so every face fits"
            set_faces[face] = SetFace(side.title, title_size, fitted)
        result.append(SetCard(card, number, set_faces["front"], set_faces.get("back")))
    return result


def draw_face(painter: Painter, box: Box, face: SetFace, footer: tuple[tuple[str, ...], str], geometry: CardGeometry,
              layout: "Layout", bleed: float) -> None:
    """One face of a card in `box` (its cut line): title band, body text, and a footer naming the card
    (the first of its labels that fits) and its number in the set."""
    colour = layout.colour("card")
    fonts = painter.fonts
    painter.rect(box.x - bleed, box.y - bleed, box.width + 2 * bleed, geometry.band + bleed, fill=colour.fill)
    baseline = box.y + (geometry.band + pt_to_mm(ascent(fonts.bold, face.title_size))) / 2
    painter.text(box.x + geometry.padding, baseline, face.title, fonts.bold, face.title_size, colour.ink)
    if face.body is not None:
        body = geometry.body
        painter.text_block(face.body, box.x + body.x, box.y + body.y, body.width, anchor=Anchor.START)
    labels, number = footer
    if is_marked(face):  # once cut out, a card's * is explained on the card itself, not only in the sheet's caption
        labels = (*(f"{READING_NOTE} · {label}" for label in labels), READING_NOTE)
    y = box.y + geometry.height - geometry.padding
    room = geometry.width - 2 * geometry.padding - text_width(f"  {number}", fonts.regular, geometry.footer_size)
    label = footer_label(labels, room, lambda text: text_width(text, fonts.regular, geometry.footer_size))
    painter.text(box.x + geometry.padding, y, label, fonts.regular, geometry.footer_size, NOTE_INK)
    painter.text(box.right - geometry.padding, y, number, fonts.regular, geometry.footer_size, NOTE_INK, Anchor.END)


def is_marked(face: SetFace) -> bool:
    """True when the face's text carries the mark of this edition's reading."""
    return face.body is not None and any(ASSUMED_MARK in line.text for line in face.body.lines)


def footer_label(choices: tuple[str, ...], room: float, width) -> str:
    """The first of `choices` (longest first) that fits `room` mm, else the last one shortened with an ellipsis."""
    for text in choices:
        if width(text) <= room:
            return text
    text = choices[-1]
    while text and width(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


def page_caption(game: "Game", page: Page, sheets: int, spec: SheetSpec, copies: int = 1, why: str = "",
                 own: Sequence[tuple[str, int, int]] = ()) -> str:
    """The line at the top of each page: what it is, how many copies of each card (and of each card `own` gives its
    own number, as (title, copies, its number in the deck)), which sheet and side, how to print it."""
    side = {SheetSide.FRONT: "fronts", SheetSide.BACK: "backs", None: "fronts and backs"}[page.side]
    if copies > 1:
        others = "".join(f", {n} of {title}" for title, n, _ in own)
    else:  # one of each: the cards printed more often, by their numbers (their titles would fill the line)
        by_count: dict[int, list[int]] = {}
        for _, n, number in own:
            by_count.setdefault(n, []).append(number)
        others = "".join(f" · {n} copies of cards {', '.join(map(str, numbers[:-1]))}{' and ' if len(numbers) > 1 else ''}"
                         f"{numbers[-1]}" for n, numbers in by_count.items())
    return (f"{game.info.title} reference cards{copies_note(copies, why)}{others} · sheet {page.sheet} of {sheets}, "
            f"{side} · {print_advice(spec)}")


def card_footer(game: "Game", set_card: SetCard, total: int) -> tuple[tuple[str, str], str]:
    """What a card's footer says: the game and card title (the title alone where room is short), and
    the card's number in the deck."""
    title = set_card.card.title
    return (f"{game.info.title} · {title}", title), f"{set_card.number}/{total}"


def build_cards(game: "Game", settings: "PrintSettings") -> list[Document]:
    """<game>/cards.pdf (and SVG/PNG as asked); [] when the game has no cards."""
    resolved = deck_cards(game)
    if not resolved:
        return []
    layout = settings.layout
    card = layout.size("card")
    size = settings.card_size or (card.width, card.height)
    fonts = piece_fonts(layout.fonts, game.folder)
    cards = set_cards(game, settings, resolved, fonts, size)
    geometry = card_geometry(layout, size)
    caption = layout.cards.text_size
    spec = sheet_spec(settings, size, backs=True, header=caption_space(layout, caption))

    def counts(k: int) -> list[int]:
        return [set_card.card.copies or k for set_card in cards]

    copies = copies_that_fit(layout.copies.cards, lambda k: impose(sum(counts(k)), spec, what="card"))
    ordered = [set_card for set_card, n in zip(cards, counts(copies)) for _ in range(n)]
    plan = impose(len(ordered), spec, what="card")
    sheets = plan.pages[-1].sheet
    own = [(c.card.title, c.card.copies, c.number) for c in cards if c.card.copies and c.card.copies != copies]

    def draw(painter: Painter) -> None:
        for page in plan.pages:
            painter.new_page(*spec.paper)
            marked = False
            for placed in page.items:
                set_card = ordered[placed.index]
                face = set_card.front if placed.side is SheetSide.FRONT else set_card.back
                if face is not None:
                    draw_face(painter, placed.box, face, card_footer(game, set_card, len(cards)), geometry, layout,
                              spec.bleed)
                    marked = marked or is_marked(face)
            draw_guides(painter, page, layout, spec)
            draw_caption(painter, page, spec, layout, page_caption(game, page, sheets, spec, copies, layout.copies.why.get("cards", ""), own), fonts.regular,
                         caption, notes=READING_NOTE if marked else "")

    return [draw_document(settings.game_dir(game) / "cards.pdf", draw, fonts, settings.formats,
                          title=f"{game.info.title} reference cards", advice=print_advice(spec), dpi=settings.dpi)]
