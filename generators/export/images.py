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
from .output import Bundle, ExportError
from .parts import Part, export_settings, game_parts
from .print_services import GENERIC, Fit, service
from .raster import MM_PER_INCH, PngWriter, pixels, rasterise, side_drawing

if TYPE_CHECKING:
    from ..core.game import Game
    from ..printing.painter import Drawing
    from .exports import ExportOptions

MANIFEST = "images.csv"
COLUMNS = ("file", "kind", "piece", "face", "copies", "width_px", "height_px", "width_mm", "height_mm",
           "trim_width_mm", "trim_height_mm", "bleed_mm", "dpi", "service", "product")
CUSTOM = "custom size (no product of this service fits)"
# Pixels one export of images draws: the shipped games at 1200 dpi hold up to 1,118 million (Spion &
# Spion); the PNGs are held until the export is written whole, so a bound on pixels bounds time and memory.
MAX_MEGAPIXELS = 3_000


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

    settings = export_settings(game)
    fonts = register_fonts(settings.layout.fonts, game.folder)
    parts = game_parts(game, settings)
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
    names = [f"{part.kind}/{part.id}-{face}.png" for part, face, _ in sides]
    _check_pixels(plans)
    pngs = PngWriter()
    sizes: dict[int, tuple[int, int]] = {}
    for resolution in dict.fromkeys(plan[1] for plan in plans):
        chosen_ones = [i for i, plan in enumerate(plans) if plan[1] == resolution]
        for i, image in zip(chosen_ones, rasterise([plans[i][0] for i in chosen_ones], fonts, resolution)):
            size = plans[i][2]
            image = image if size is None or image.size == size else image.resize(size, Image.LANCZOS)
            sizes[i] = image.size
            pngs.add(names[i], image, dpi)  # encoded while the next is drawn, and let go of
    manifest = io.StringIO()
    writer = csv.writer(manifest, lineterminator="\n")
    writer.writerow(COLUMNS)
    for i, (part, face, _) in enumerate(sides):
        product, trim = plans[i][3], plans[i][4]
        writer.writerow([names[i], part.kind, part.label, face, part.copies, *sizes[i],
                         f"{trim[0] + 2 * bleed:.2f}", f"{trim[1] + 2 * bleed:.2f}", f"{trim[0]:.2f}", f"{trim[1]:.2f}",
                         f"{bleed:.2f}", dpi,
                         chosen.label if options.service != GENERIC else "", product])
    encoded = pngs.files()
    files = {name: encoded[name] for name in names}  # in the order of the manifest, whatever order they were drawn in
    return Bundle(options.game_dir(game) / "images", {MANIFEST: manifest.getvalue().encode("utf-8"), **files})


def _check_pixels(plans: list[tuple]) -> None:
    """Refuse, before anything is drawn, an export whose images together hold more than MAX_MEGAPIXELS."""
    total = sum((size[0] * size[1]) if size else pixels(picture.width, resolution) * pixels(picture.height, resolution)
                for picture, resolution, size, _, _ in plans)
    if total > MAX_MEGAPIXELS * 1_000_000:
        raise ExportError(f"the images would hold {total / 1e6:,.0f} million pixels, more than the {MAX_MEGAPIXELS:,} "
                          "million one export draws; choose a lower --dpi (half the resolution draws a quarter of the pixels)")
