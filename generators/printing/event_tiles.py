"""Tiles: every tile's front as `tiles.pdf` (tile backs are blank, so the sheets are single-sided).

What a tile prints is its game's declaration (game.yaml `tiles.front`): a band with its texts (the
first and the last in bold) in the band's colour; below it the heading in bold and the entries,
each in bold up to its first space, the heading `headline` times the entries' size. Every tile of a game
shares one band size and one body size:
the largest at which the longest tile fits (or the sizes the layout's `type.<kind>` sets: `header`,
`body`), never below the layout's minimum tile text size. Nothing comes closer to the cut than the
tile size's safe zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.tile_text import TileText, tile_text
from ..core.units import mm_to_pt, pt_to_mm
from .art import art_path, read_picture
from .fonts import FontSet, extent, piece_fonts, text_width, unit_width
from .geometry import Box
from .item_sheets import Item, print_items
from .painter import Anchor
from .render import collector_paused
from .textfit import FittedText, Paragraph, TextFitError, set_text, shared_size

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.models import Tile
    from .render import Document
    from .settings import PrintSettings
    from .painter import Painter

TILE_KIND = "tile"  # the kind whose size and colour tiles use when game.yaml's `tiles` names none in `kinds`
BAND_TEXT = 0.55  # the band's text is at most this share of the band's height


@dataclass(frozen=True)
class TileArt:
    """A tile laid out: its texts, the band's text size (pt) and baseline (mm), and the fitted body."""

    text: TileText
    band_size: float
    band_baseline: float
    body: FittedText
    picture: str | None


class TilePainter:
    """Lays out and draws the tile fronts of one game: one band size and one body size for all of them."""

    def __init__(self, game: "Game", fonts: FontSet, size: tuple[float, float]):
        layout = game.layout
        self.game, self.layout, self.fonts, self.size = game, layout, fonts, size
        kind = tile_kind(game)
        self.kind = kind
        self.colour = layout.colour((kind.front or kind.back).colour if kind else tile_kind_name(game))
        self.min_text = layout.min_text_size.tile
        self.style = layout.tiles
        self.safe = max(layout.safe(kind.size if kind else tile_kind_name(game)), self.style.padding)
        fixed = layout.type.get(tile_kind_name(game), {})
        texts = {tile.id: tile_text(game, tile) for tile in game.tiles}
        self.band_size = fixed.get("header") or self._band_size(texts)
        self.body_size = fixed.get("body") or self._body_size(texts)

    @property
    def band(self) -> float:
        return self.size[1] * self.style.band

    def _fonts(self, text: TileText) -> list[str]:
        """The band's fonts: its first and last texts bold, any between regular."""
        return [self.fonts.bold if i in (0, len(text.band) - 1) else self.fonts.regular for i in range(len(text.band))]

    def _parts(self, text: TileText) -> list[tuple[str, str]]:
        return [(t, f) for t, f in zip(text.band, self._fonts(text)) if t]

    def _band_size(self, texts: dict[str, TileText]) -> float:
        room = mm_to_pt(self.size[0] - 2 * self.safe)
        size = mm_to_pt(self.band) * BAND_TEXT
        for tile_id, text in texts.items():
            parts = self._parts(text)
            natural = sum(unit_width(t, f) for t, f in parts)
            size = min(size, (room - mm_to_pt(self.style.gap) * (len(parts) - 1)) / natural)
            if size < self.min_text:
                raise TextFitError(f"tile {tile_id}: the band's texts do not fit on one line "
                                   f"of {self.size[0] - 2 * self.safe:.1f} mm even at {self.min_text:g} pt")
        return size

    def _body_size(self, texts: dict[str, TileText]) -> float:
        """The largest body size every tile fits at, each in its own box (narrower beside a picture)."""
        size = self.style.text_size
        for with_picture in (False, True):
            blocks = sorted(((self._body(texts[tile.id]), f"tile {tile.id}") for tile in self.game.tiles
                             if bool(self.picture_name(tile)) == with_picture),
                            key=lambda block: -sum(len(p.text) for p in block[0]))  # the longest lowers the size first
            if blocks:
                box = self._body_box(with_picture)
                size = shared_size(blocks, box.width, box.height, largest=size, smallest=self.min_text)
        return size

    def _body(self, text: TileText) -> list[Paragraph]:
        paragraphs = [Paragraph(text.heading, self.fonts.bold, self.style.headline)] if text.heading else []
        for entry in text.entries:
            lead, _, rest = entry.partition(" ")
            paragraphs += [Paragraph(lead, self.fonts.bold)]
            if rest:
                paragraphs += [Paragraph(rest, self.fonts.regular, run_in=True)]
        return paragraphs

    def _body_box(self, with_picture: bool) -> Box:
        """Where the heading and entries go, relative to the tile's corner; beside a picture they take the rest of the width."""
        top = self.band + self.style.padding
        width = self.size[0] - 2 * self.safe
        if with_picture:
            width *= 1 - self.style.picture
        return Box(self.safe, top, width, self.size[1] - self.safe - top)

    def picture_name(self, tile: "Tile") -> str | None:
        """The tile's own picture, else the tile kind's."""
        kind_art = self.kind.front.art if self.kind and self.kind.front else None
        return tile.art or kind_art

    def art(self, tile: "Tile") -> TileArt:
        """`tile` laid out at the sheet's sizes; raises TextFitError naming the tile when its text cannot fit."""
        text = tile_text(self.game, tile)
        picture = self.picture_name(tile)
        box = self._body_box(bool(picture))
        body = set_text(self._body(text), box.width, box.height, self.body_size)
        if body is None:
            raise TextFitError(f"tile {tile.id}: text does not fit in {box.width:.1f} x {box.height:.1f} mm "
                               f"at the sheet's {self.body_size:g} pt")
        ascender = pt_to_mm(extent(self.fonts.bold)[0] * self.band_size)
        centred = (self.band + pt_to_mm(self.band_size) * 0.72) / 2
        return TileArt(text, self.band_size, max(centred, self.safe + ascender), body, picture)

    def draw(self, painter: "Painter", art: TileArt, box: Box, bleed: float) -> None:
        """Draw a laid-out tile with its cut line at `box`, its colours carried `bleed` past the cut, or half
        way into the tiles' gutter where that is more."""
        full = box.grown(max(bleed, self.style.gutter / 2))
        band = self.band
        painter.rect(full.x, full.y, full.width, full.height, fill=self.colour.fill)
        head = self.layout.colour(art.text.colour)
        painter.rect(full.x, full.y, full.width, band + (box.y - full.y), fill=head.fill)
        painter.line(box.x, box.y + band, box.right, box.y + band, self.colour.ink, 0.5)
        y = box.y + art.band_baseline
        left = box.x + self.safe
        band, fonts = art.text.band, self._fonts(art.text)
        x = left
        for text, font in zip(band[:-1] if len(band) > 1 else band, fonts):
            if text:
                painter.text(x, y, text, font, art.band_size, head.ink, Anchor.START)
                x += text_width(text, font, art.band_size) + self.style.gap
        if len(band) > 1:
            painter.text(box.right - self.safe, y, band[-1], fonts[-1], art.band_size, head.ink, Anchor.END)
        body = self._body_box(bool(art.picture))
        painter.text_block(art.body, box.x + body.x, box.y + body.y, body.width, self.colour.ink, Anchor.START)
        if art.picture:
            width = self.size[0] - 2 * self.safe - body.width
            painter.picture(read_picture(art_path(self.game, art.picture)), box.x + body.right, box.y + body.y,
                            width, body.height)


def tile_kind_name(game: "Game") -> str:
    """The kind game.yaml's `tiles` names ("tile" when it declares none)."""
    return game.info.tiles.kind if game.info.tiles else TILE_KIND


def tile_kind(game: "Game"):
    """The tiles' kind in game.yaml's `kinds` (their size and back), or None when `kinds` has none of that name."""
    return game.info.kinds.get(tile_kind_name(game))


def tile_size(game: "Game") -> tuple[float, float]:
    """The tile size (mm) from the layout: the tile kind's size name, else the size named as the kind."""
    kind = tile_kind(game)
    size = game.layout.size(kind.size if kind else tile_kind_name(game))
    return size.width, size.height


def tile_items(game: "Game", tiles: list["Tile"], fonts: FontSet, copies: int = 1) -> list[Item]:
    """An Item per printed copy of each tile; every tile is laid out (and refused if too long) first."""
    if not tiles:
        return []  # a game without tiles may have no tile size in its layout
    size = tile_size(game)
    painter = TilePainter(game, fonts, size)
    items = []
    for tile in tiles:
        art = painter.art(tile)

        def front(p, box, bleed, art=art):
            painter.draw(p, art, box, bleed)

        items += [Item(f"tile {tile.id}", tile_kind_name(game), size, front, None, game.layout.tiles.gutter)] * copies
    return items


def build_tiles(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """The `tiles` product: <game>/tiles.pdf with the front of every tile."""
    if not game.tiles:
        return []
    fonts = piece_fonts(game.layout.fonts, game.folder)
    with collector_paused():
        items = tile_items(game, game.tiles, fonts)
        return [print_items(items, settings.game_dir(game) / "tiles.pdf", settings=settings, fonts=fonts,
                            title=f"{game.info.title} {tile_kind(game).label.lower() + 's' if tile_kind(game) else 'tiles'}")]
