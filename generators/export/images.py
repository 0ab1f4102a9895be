"""Images for print on demand: OUT/<game>/images/<kind>/<id>-front.png and -back.png for every distinct
piece, tile and card, each exactly its size plus the bleed on every side at the chosen resolution,
and images.csv listing every file with its piece, side, copies and size in pixels and mm."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from ..printing.fonts import register_fonts
from .output import Bundle
from .parts import game_parts
from .raster import PngWriter, rasterise, side_drawing

if TYPE_CHECKING:
    from ..core.game import Game
    from .exports import ExportOptions

MANIFEST = "images.csv"
COLUMNS = ("file", "kind", "piece", "face", "copies", "width_px", "height_px", "width_mm", "height_mm",
           "trim_width_mm", "trim_height_mm", "bleed_mm", "dpi")


def export_images(game: "Game", options: "ExportOptions") -> Bundle:
    """Both sides of every part of `game` at options.dpi with options.bleed, and the manifest."""
    layout = game.layout
    fonts = register_fonts(layout.fonts, game.folder)
    parts = game_parts(game, layout)
    bleed, dpi = options.bleed, options.dpi
    sides = [(part, face, draw) for part in parts for face, draw in (("front", part.front), ("back", part.back))]
    drawn = rasterise([side_drawing(draw, part.size, bleed, dpi) for part, _, draw in sides], fonts, dpi)
    pngs = PngWriter()
    manifest = io.StringIO()
    writer = csv.writer(manifest, lineterminator="\n")
    writer.writerow(COLUMNS)
    for (part, face, _), image in zip(sides, drawn):
        name = f"{part.kind}/{part.id}-{face}.png"
        pngs.add(name, image, dpi)
        width, height = part.size
        writer.writerow([name, part.kind, part.label, face, part.copies, *image.size,
                         f"{width + 2 * bleed:.2f}", f"{height + 2 * bleed:.2f}", f"{width:.2f}", f"{height:.2f}",
                         f"{bleed:.2f}", dpi])
    return Bundle(options.game_dir(game) / "images", {MANIFEST: manifest.getvalue().encode("utf-8"), **pngs.files()})
