"""Event tiles: every tile's front as `tiles.pdf` (tile backs are blank, so the sheets are single-sided).

A tile shows a band with its id (with the asterisk of a special tile), its nationality and its
years, in the nation's colour; below it the event and the awards, wrapped and shrunk to fit,
never below the layout's minimum tile text size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.tile_text import TileText, tile_text
from ..core.units import mm_to_pt, pt_to_mm
from .fonts import FontSet, register_fonts, text_width, unit_width
from .item_sheets import Item, print_items
from .painter import Anchor
from .render import collector_paused
from .textfit import FittedText, Paragraph, TextFitError, fit_text

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..core.models import Tile
    from .geometry import Box
    from .options import BuildOptions
    from .painter import Painter

TILE_KIND = "tile"  # the kind in game.yaml whose size and colour tiles use, when the game defines it


@dataclass(frozen=True)
class TileArt:
    """A tile laid out: the band's text size (pt) and baseline (mm), and the fitted body."""

    text: TileText
    band_size: float
    band_baseline: float
    body: FittedText


class TilePainter:
    """Lays out and draws tile fronts for one layout."""

    def __init__(self, game: "Game", layout: "Layout", fonts: FontSet, size: tuple[float, float]):
        self.game, self.layout, self.fonts, self.size = game, layout, fonts, size
        kind = game.info.kinds.get(TILE_KIND)
        self.colour = layout.colour((kind.front or kind.back).colour if kind else TILE_KIND)
        self.min_text = layout.min_text_size.tile
        self.style = layout.tiles

    def art(self, tile: "Tile") -> TileArt:
        """`tile` laid out; raises TextFitError naming the tile when its text cannot fit."""
        text = tile_text(self.game, tile)
        style = self.style
        width, height = self.size
        inner = width - 2 * style.padding
        band = height * style.band
        parts = [(text.label, self.fonts.bold), (text.nation, self.fonts.regular), (text.years, self.fonts.bold)]
        natural = sum(unit_width(t, f) for t, f in parts if t)
        gaps = mm_to_pt(style.gap) * (sum(1 for t, _ in parts if t) - 1)
        band_size = min(mm_to_pt(band) * 0.55, (mm_to_pt(inner) - gaps) / natural)
        if band_size < self.min_text:
            raise TextFitError(f"tile {tile.id}: id, nationality and years do not fit on one line "
                               f"of {inner:.1f} mm even at {self.min_text:g} pt")
        body = fit_text([Paragraph(text.event, self.fonts.bold)] + [Paragraph(a, self.fonts.regular) for a in text.awards],
                        inner, height - band - 2 * style.padding * 0.75, largest=style.text_size, smallest=self.min_text,
                        what=f"tile {tile.id}")
        baseline = (band + pt_to_mm(band_size) * 0.72) / 2
        return TileArt(text, band_size, baseline, body)

    def draw(self, painter: "Painter", art: TileArt, box: "Box", bleed: float, nation: str | None) -> None:
        """Draw a laid-out tile with its cut line at `box`."""
        style = self.style
        full = box.grown(bleed)
        band = box.height * style.band
        painter.rect(full.x, full.y, full.width, full.height, fill=self.colour.fill)
        head = self.layout.colour(nation) if nation else self.colour
        painter.rect(full.x, full.y, full.width, band + (box.y - full.y), fill=head.fill)
        painter.line(box.x, box.y + band, box.right, box.y + band, self.colour.ink, 0.5)
        y = box.y + art.band_baseline
        painter.text(box.x + style.padding, y, art.text.label, self.fonts.bold, art.band_size, head.ink, Anchor.START)
        if art.text.nation:
            x = box.x + style.padding + style.gap + text_width(art.text.label, self.fonts.bold, art.band_size)
            painter.text(x, y, art.text.nation, self.fonts.regular, art.band_size, head.ink, Anchor.START)
        painter.text(box.right - style.padding, y, art.text.years, self.fonts.bold, art.band_size, head.ink, Anchor.END)
        painter.text_block(art.body, box.x + style.padding, box.y + band + style.padding * 0.75, box.width - 2 * style.padding,
                           self.colour.ink, Anchor.START)


def tile_size(game: "Game", layout: "Layout") -> tuple[float, float]:
    """The tile size (mm) from the layout: the tile kind's size name, else the size called "tile"."""
    kind = game.info.kinds.get(TILE_KIND)
    size = layout.size(kind.size if kind else TILE_KIND)
    return size.width, size.height


def tile_items(game: "Game", tiles: list["Tile"], layout: "Layout", fonts: FontSet, copies: int = 1) -> list[Item]:
    """An Item per printed copy of each tile; every tile is laid out (and refused if too long) first."""
    if not tiles:
        return []  # a game without tiles may have no tile size in its layout
    size = tile_size(game, layout)
    painter = TilePainter(game, layout, fonts, size)
    items = []
    for tile in tiles:
        art = painter.art(tile)

        def front(p, box, bleed, art=art, nation=tile.nation):
            painter.draw(p, art, box, bleed, nation)

        items += [Item(f"tile {tile.id}", TILE_KIND, size, front, None)] * copies
    return items


def build_tiles(game: "Game", layout: "Layout", options: "BuildOptions") -> list[Path]:
    """The `tiles` product: OUT/<game>/tiles.pdf with the front of every event tile."""
    if not game.tiles:
        return []
    fonts = register_fonts(layout.fonts, game.folder)
    with collector_paused():
        items = tile_items(game, game.tiles, layout, fonts)
        return print_items(items, options.game_dir(game) / "tiles.pdf", layout=layout, options=options,
                           fonts=fonts, title=f"{game.info.title} event tiles")
