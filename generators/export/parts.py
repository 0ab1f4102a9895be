"""What an export shows: every distinct roster piece, tile and reference card of a game as a
`Part` with a front and a back, drawn by the same code as the printed sheets so that pieces look
the same on paper, in Tabletop Simulator, in VASSAL and at a print shop.

Roster entries that print the same two faces become one part with their copies counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.cards import deck_cards
from ..core.faces import NATION, faces
from ..core.tile_text import tile_text
from ..printing.card_sheets import card_footer, card_geometry, draw_face, set_cards
from ..printing.counters import FacePainter, piece_items
from ..printing.event_tiles import tile_items, tile_kind
from ..printing.fonts import piece_fonts
from ..printing.settings import PrintSettings

if TYPE_CHECKING:
    from ..core.game import Game
    from ..printing.fonts import FontSet
    from ..printing.geometry import Box
    from ..printing.painter import Painter

# Draws one side with its cut line at the box and its colour carried `bleed` mm beyond.
DrawSide = Callable[["Painter", "Box", float], None]

TILE = "tile"  # the image folder of tiles
CARD = "card"  # the image folder of reference cards
PAPER = "#ffffff"  # an unprinted side


@dataclass(frozen=True)
class Part:
    """One distinct two-sided piece of a game.

    `kind` and `id` name its files (`id` is unique within its kind); `name` is how a table calls
    it ("Georgi 1"), `label` the longer name of messages ("Georgi (spy, Russia)"); `group` is the
    palette or deck it belongs in, broadest first ("Spy", "Russia"); `size` is in mm; `text` is
    what it says, for a tooltip, and `back_name` what its back says (how a table calls it face down);
    `copies` is how many the game has; `owner` is the faction whose side holds it (None: no one's, or
    whoever draws it); `hidden` says the game keeps it face down, seen only by its owner, and `drawn`
    that players draw it at random from a shuffled pile; `starts` is the place on a board each of the
    first copies starts on (pieces.yaml's `start`), the other copies starting off the boards.
    """

    kind: str
    id: str
    name: str
    label: str
    group: tuple[str, ...]
    size: tuple[float, float]
    front: DrawSide
    back: DrawSide
    copies: int = 1
    text: str = ""
    back_name: str = ""
    owner: str | None = None
    hidden: bool = False
    drawn: bool = False
    starts: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The part's name among all the game's parts: "spy/russia-georgi-1"."""
        return f"{self.kind}/{self.id}"


def export_settings(game: "Game") -> PrintSettings:
    """What an export prints its parts and boards with: the layout's own sizes, no print option given."""
    return PrintSettings.of_layout(game.layout)


def game_parts(game: "Game", settings: PrintSettings) -> list[Part]:
    """The game's roster pieces, then its tiles, then its reference cards, as parts with unique ids,
    set in the faces the printed pieces use."""
    fonts = piece_fonts(settings.layout.fonts, game.folder)
    parts = piece_parts(game, settings, fonts) + tile_parts(game, settings, fonts) + card_parts(game, settings, fonts)
    return _unique_ids(parts)


def piece_parts(game: "Game", settings: PrintSettings, fonts: "FontSet") -> list[Part]:
    """One part per distinct roster piece (same kind, nation and faces), grouped by kind and nation."""
    pieces = list(game.pieces)
    items = piece_items(game, pieces, settings, FacePainter(game, fonts), copies=1)
    merged: dict[tuple, Part] = {}
    for piece, item in zip(pieces, items):
        front, back = faces(game, piece)
        key = (piece.kind, piece.nation, front, back, item.size)
        if key in merged:
            known = merged[key]
            merged[key] = replace(known, copies=known.copies + piece.count, starts=known.starts + piece.starts)
            continue
        kind = game.info.kinds[piece.kind]
        nation = game.faction(piece.nation).name if piece.nation else None
        name = " ".join(t for t in (piece.name, front.value) if t)
        merged[key] = Part(kind=piece.kind, id=slug(piece.nation or "", name), name=name, label=item.label,
                           group=(kind.label, nation) if nation else (kind.label,), size=item.size,
                           front=item.front, back=item.back or blank_side(PAPER), copies=piece.count,
                           text=_face_text(front), back_name=_face_text(back), owner=nation,
                           hidden=kind.hidden, drawn=kind.drawn, starts=piece.starts)
    return list(merged.values())


def tile_parts(game: "Game", settings: PrintSettings, fonts: "FontSet") -> list[Part]:
    """One part per tile, grouped as the game's `tiles.group` says, with the blank back in the colour
    the game gives its tile kind's back."""
    tiles = list(game.tiles)
    items = tile_items(game, tiles, fonts)
    kind = tile_kind(game)
    label = kind.label if kind else "Tile"
    back = blank_side(_tile_back_colour(game))
    parts = []
    for tile, item in zip(tiles, items):
        text = tile_text(game, tile)
        parts.append(Part(kind=TILE, id=slug(tile.id), name=text.label, label=item.label,
                          group=(label, text.group) if text.group else (label,), size=item.size, front=item.front,
                          back=back, text=" ".join(t for t in (*text.band[1:], text.heading, *text.entries) if t), back_name=label,
                          hidden=True, drawn=True))
    return parts


def card_parts(game: "Game", settings: PrintSettings, fonts: "FontSet") -> list[Part]:
    """One part per reference card, faces and footers as on the printed cards."""
    cards = deck_cards(game)
    if not cards:
        return []
    layout = settings.layout
    card = layout.size("card")
    size = (card.width, card.height)
    geometry = card_geometry(layout, size)
    parts = []
    for set_card in set_cards(game, settings, cards, fonts, size):
        title = set_card.card.title
        footer = card_footer(game, set_card, len(cards))

        def side(face, footer=footer) -> DrawSide:
            return lambda painter, box, bleed: draw_face(painter, box, face, footer, geometry, layout, bleed)

        parts.append(Part(kind=CARD, id=slug(set_card.card.id), name=title, label=f"card {title!r}",
                          group=("Reference card",), size=size, front=side(set_card.front),
                          back=side(set_card.back) if set_card.back else blank_side(PAPER),
                          back_name=set_card.back.title if set_card.back else ""))
    return parts


def blank_side(fill: str) -> DrawSide:
    """A side with nothing printed on it but its colour."""
    def draw(painter: "Painter", box: "Box", bleed: float) -> None:
        full = box.grown(bleed)
        painter.rect(full.x, full.y, full.width, full.height, fill=fill)

    return draw


def _tile_back_colour(game: "Game") -> str:
    kind = tile_kind(game)
    if kind is None or kind.back.colour == NATION:
        return PAPER
    return game.layout.colour(kind.back.colour).fill


def _face_text(face) -> str:
    return " · ".join(t for t in (face.title, face.value, face.text) if t and not face.blank)


def slug(*words: str) -> str:
    """A file-name-safe id from words: "Wil'y 2" -> "wil-y-2", "Ab 15" -> "ab-15"."""
    text = unicodedata.normalize("NFKD", " ".join(words)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "part"


def _unique_ids(parts: list[Part]) -> list[Part]:
    """The parts with a number added to any id already taken in its kind: "red-guard-2", then "red-guard-2-2"."""
    taken: set[str] = set()
    result = []
    for part in parts:
        candidate, n = part.id, 1
        while f"{part.kind}/{candidate}" in taken:
            n += 1
            candidate = f"{part.id}-{n}"
        taken.add(f"{part.kind}/{candidate}")
        result.append(part if candidate == part.id else replace(part, id=candidate))
    return result
