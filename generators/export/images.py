"""Images for print on demand: OUT/<game>/images/<kind>/<id>-front.png and -back.png for every distinct
piece, tile and card, and images.csv listing every file with its piece, side, copies, size in pixels
and mm, and the service product it is printed as.

Without a service (or with `generic`) each image is exactly its piece's size plus the bleed on every
side at the chosen resolution. With a service (print_services.py) a face its products fit is drawn at
that product's exact template size (the nearest product of its shape, scaled, when none is its own size;
the manifest names the scale): the face is drawn to fill the product's trim and its bleed is
drawn from the art around the cut line (the face is drawn larger, never padded with copied edge
pixels); a face no product fits keeps its own size, at the service's resolution and bleed.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from ..printing.fonts import register_fonts
from .output import Bundle
from .parts import Part, game_parts
from .print_services import GENERIC, Fit, service
from .raster import MM_PER_INCH, PngWriter, rasterise, side_drawing

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..core.game import Game
    from ..printing.painter import Drawing
    from .exports import ExportOptions

MANIFEST = "images.csv"
COLUMNS = ("file", "kind", "piece", "face", "copies", "width_px", "height_px", "width_mm", "height_mm",
           "trim_width_mm", "trim_height_mm", "bleed_mm", "dpi", "service", "product")
CUSTOM = "custom size (no product of this service fits)"


def product_picture(draw, part: Part, fit: Fit, dpi: int, bleed: float) -> tuple["Drawing", float, tuple[int, int]]:
    """How to draw one side of `part` as `fit`'s product: the picture with its bleed (mm on the part's scale),
    the resolution that makes its trim fill the product's trim, and the product's pixel size."""
    width, height = fit.product.pixels[::-1] if fit.turned else fit.product.pixels
    bleed_px = bleed / MM_PER_INCH * dpi
    scale = max((width - 2 * bleed_px) / part.size[0], (height - 2 * bleed_px) / part.size[1])  # pixels per mm
    drawn_dpi = scale * MM_PER_INCH
    return side_drawing(draw, part.size, bleed_px / scale, drawn_dpi), drawn_dpi, (width, height)


def export_images(game: "Game", options: "ExportOptions") -> Bundle:
    """Both sides of every part of `game`, sized for options.service (or options.dpi with options.bleed), and the manifest."""
    from PIL import Image

    layout = game.layout
    fonts = register_fonts(layout.fonts, game.folder)
    parts = game_parts(game, layout)
    chosen = service(options.service)
    bleed, dpi = options.bleed, options.dpi
    sides = [(part, face, draw) for part in parts for face, draw in (("front", part.front), ("back", part.back))]
    plans = []  # (picture, resolution drawn at, exact pixel size or None, product name, trim in mm)
    for part, _, draw in sides:
        fit = chosen.product_for(part.size) if options.service != GENERIC else None
        if fit is None:
            plans.append((side_drawing(draw, part.size, bleed, dpi), float(dpi), None,
                          CUSTOM if options.service != GENERIC else "", part.size))
        else:
            picture, drawn_dpi, size = product_picture(draw, part, fit, dpi, bleed)
            plans.append((picture, drawn_dpi, size, fit.label, fit.trim))
    drawn: dict[int, "Image"] = {}
    for resolution in dict.fromkeys(plan[1] for plan in plans):
        chosen_ones = [i for i, plan in enumerate(plans) if plan[1] == resolution]
        for i, image in zip(chosen_ones, rasterise([plans[i][0] for i in chosen_ones], fonts, resolution)):
            size = plans[i][2]
            drawn[i] = image if size is None or image.size == size else image.resize(size, Image.LANCZOS)
    pngs = PngWriter()
    manifest = io.StringIO()
    writer = csv.writer(manifest, lineterminator="\n")
    writer.writerow(COLUMNS)
    for i, (part, face, _) in enumerate(sides):
        image, product, trim = drawn[i], plans[i][3], plans[i][4]
        name = f"{part.kind}/{part.id}-{face}.png"
        pngs.add(name, image, dpi)
        writer.writerow([name, part.kind, part.label, face, part.copies, *image.size,
                         f"{trim[0] + 2 * bleed:.2f}", f"{trim[1] + 2 * bleed:.2f}", f"{trim[0]:.2f}", f"{trim[1]:.2f}",
                         f"{bleed:.2f}", dpi,
                         chosen.label if options.service != GENERIC else "", product])
    return Bundle(options.game_dir(game) / "images", {MANIFEST: manifest.getvalue().encode("utf-8"), **pngs.files()})
