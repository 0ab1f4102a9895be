"""Redraw the pictures of the README's "Print it" sections from a fresh Spies! build.

Run from the repository root after the look of a product changes:

    python docs/print/pictures.py

Each picture is a corner of a product's first page at 150 dpi, as it prints, so a reader sees the
caption that says how to print it, the crop marks and the pieces at their real proportions.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

HERE = Path(__file__).resolve().parent
DPI = 150
# product -> (file built, page, crop as left, top, right, bottom in mm from the page's top-left corner)
PICTURES = {
    "counters": ("counters.pdf", 0, (5, 5, 211, 60)),
    "tiles": ("tiles.pdf", 0, (5, 5, 211, 72)),
    "cards": ("cards.pdf", 0, (5, 5, 211, 110)),
    "player-aid": ("player-aid.pdf", 0, (5, 5, 211, 70)),
    "map": ("map-tiles.pdf", 0, (0, 0, 215.9, 279.4)),
    "display": ("display.pdf", 0, (0, 0, 279.4, 431.8)),
}


def main() -> None:
    sys.path.insert(0, str(HERE.parents[1]))
    from generators.cli import main as dossier

    with tempfile.TemporaryDirectory() as out:
        if dossier(["build", "--game", "spies", "--out", out]) != 0:
            raise SystemExit("the build failed")
        for name, (file, page_number, (left, top, right, bottom)) in PICTURES.items():
            document = pdfium.PdfDocument(Path(out, "spies", file))
            image = document[page_number].render(scale=DPI / 72).to_pil()
            px = DPI / 25.4
            picture = image.crop((round(left * px), round(top * px), round(right * px), round(bottom * px)))
            if name in ("map", "display"):  # the whole page, smaller
                picture = picture.resize((picture.width // 2, picture.height // 2))
            picture.convert("RGB").quantize(colors=64).save(HERE / f"{name}.png", optimize=True)
            document.close()
            print(HERE / f"{name}.png")


if __name__ == "__main__":
    main()
