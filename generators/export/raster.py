"""Images of what the exports show: each side or board is drawn by the printing code onto a PDF page
of its own and rasterised with pdfium, so an image shows exactly what prints, at an exact pixel size."""

from __future__ import annotations

import io
import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from ..printing.geometry import Box
from ..printing.painter import Drawing, PdfPainter
from ..printing.render import collector_paused

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..printing.fonts import FontSet
    from ..printing.painter import Painter
    from .parts import DrawSide

MM_PER_INCH = 25.4
PNG_LEVEL = 1  # zlib level: the default (6) makes a board about 2% smaller and takes twice as long


def pixels(length: float, dpi: float) -> int:
    """How many pixels `length` mm takes at `dpi`."""
    return round(length / MM_PER_INCH * dpi)


def side_drawing(side: "DrawSide", size: tuple[float, float], bleed: float, dpi: float) -> Drawing:
    """One side of a piece with `bleed` mm of its colour around the cut line."""
    width, height = size
    slack = MM_PER_INCH / dpi  # one pixel more colour, so that rounding to whole pixels never shows paper

    def draw(painter: "Painter") -> None:
        side(painter, Box(bleed, bleed, width, height), bleed + slack)

    return Drawing(width + 2 * bleed, height + 2 * bleed, draw)


def rasterise(pictures: Sequence[Drawing], fonts: "FontSet", dpi: float) -> Iterator["Image"]:
    """Each picture as an RGB image of exactly pixels(width) x pixels(height), drawn one at a time as
    they are taken, so that an export of many pieces never holds more than a few images at once."""
    import pypdfium2 as pdfium

    pad = MM_PER_INCH / dpi  # each page is a pixel larger than its picture, then cropped: pdfium rounds sizes up
    with collector_paused():
        painter = PdfPainter(fonts)
        for picture in pictures:
            painter.new_page(picture.width + pad, picture.height + pad)
            picture.draw(painter)
        document = pdfium.PdfDocument(painter.pdf_bytes())
    try:
        for picture, page in zip(pictures, document):
            image = page.render(scale=dpi / 72).to_pil()
            page.close()
            yield image.crop((0, 0, pixels(picture.width, dpi), pixels(picture.height, dpi))).convert("RGB")
    finally:
        document.close()


def png_bytes(image: "Image", dpi: float | None = None) -> bytes:
    """`image` as PNG, its resolution recorded when `dpi` is given (print shops read it)."""
    buffer = io.BytesIO()
    options = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(buffer, format="PNG", compress_level=PNG_LEVEL, **options)
    return buffer.getvalue()


class PngWriter:
    """Encodes images as PNG on every core while the next ones are drawn (Pillow lets go of the
    interpreter while it compresses); `files()` waits for them all. At most IN_FLIGHT images a core
    wait to be encoded: drawing waits for the encoder rather than piling images up in memory."""

    IN_FLIGHT = 2

    def __init__(self):
        workers = os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(max_workers=workers)
        self._pending: dict[str, Future] = {}
        self._unfinished: deque[Future] = deque()
        self._limit = self.IN_FLIGHT * workers

    def add(self, name: str, image: "Image", dpi: float | None = None) -> None:
        future = self._pool.submit(png_bytes, image, dpi)
        self._pending[name] = future
        self._unfinished.append(future)
        while len(self._unfinished) > self._limit:
            self._unfinished.popleft().result()
        while self._unfinished and self._unfinished[0].done():
            self._unfinished.popleft()

    def files(self) -> dict[str, bytes]:
        """Every image added, by name, as PNG bytes, in the order added."""
        try:
            return {name: future.result() for name, future in self._pending.items()}
        finally:
            self._pool.shutdown()
