"""The floor the print benchmark measures Dossier against: bare reportlab, nothing Dossier-specific.

It draws faces given as plain data (fill and ink colours, strings, whether the face is a front)
on one canvas: a filled square per face, a cut outline on fronts, each string centred on its own
line, in the same TrueType fonts. No layout, no fitting, no symbols, no captions or crop marks;
each colour is converted once. Run as a script it is the whole-process floor:

    python benchmarks/bare_counters.py FACES.json OUT.pdf

FACES.json: {"fonts": {"regular": FILE, "bold": FILE}, "size": POINTS,
             "faces": [[fill "#rrggbb", ink "#rrggbb", [string, ...], is_front], ...]}
"""

from __future__ import annotations

import json
import sys

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

PAGE = (612.0, 792.0)  # US Letter, in points
MARGIN = 36.0


def register(file: str) -> str:
    """Register a TrueType font file once; its name is the file's stem."""
    name = file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, file))
    return name


def draw(faces: list, size: float, regular: str, bold: str, path: str) -> None:
    """Every face of `faces` on a grid of `size`-point squares, as many pages as it takes, written to `path`."""
    rl_config.useA85 = 0  # the same binary streams as Dossier's PDFs
    colours = {hex_colour: HexColor(hex_colour) for face in faces for hex_colour in face[:2]}
    cut = HexColor("#999999")
    canvas = Canvas(path, pagesize=PAGE, pageCompression=1, invariant=1, initialFontName=regular)
    columns = int((PAGE[0] - 2 * MARGIN) // size)
    rows = int((PAGE[1] - 2 * MARGIN) // size)
    canvas.setStrokeColor(cut)
    for n, (fill, ink, strings, is_front) in enumerate(faces):
        slot = n % (columns * rows)
        if slot == 0 and n:
            canvas.showPage()
            canvas.setStrokeColor(cut)
        x = MARGIN + (slot % columns) * size
        y = PAGE[1] - MARGIN - (slot // columns + 1) * size
        canvas.setFillColor(colours[fill])
        canvas.rect(x, y, size, size, stroke=1 if is_front else 0, fill=1)
        canvas.setFillColor(colours[ink])
        canvas.setFont(bold, size / 6)
        for k, text in enumerate(strings):
            canvas.drawCentredString(x + size / 2, y + size * (0.75 - 0.25 * k), text)
    canvas.save()


def main(data_file: str, out: str) -> None:
    with open(data_file, encoding="utf-8") as handle:
        data = json.load(handle)
    regular, bold = register(data["fonts"]["regular"]), register(data["fonts"]["bold"])
    draw(data["faces"], data["size"], regular, bold, out)


if __name__ == "__main__":
    main(*sys.argv[1:3])
