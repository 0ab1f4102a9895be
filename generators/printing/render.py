"""Writing what a generator drew: the PDF, one SVG per page, PNG previews; each file written atomically.

Drawing happens entirely in memory first, so a refusal while drawing (text that cannot fit,
an unknown symbol) leaves every earlier file as it was. Inside `held_writes()` (a whole build)
the files wait in memory until every product has been drawn, so a refusal at the last product
leaves no file of the earlier ones either.
"""

from __future__ import annotations

import gc
import io
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from ..core.atomic import write_bytes, write_text
from ..core.errors import DossierError, display_path
from .fonts import FontSet
from .painter import Painter, PdfPainter, SvgPainter

PREVIEW_DPI = 100


class OutputError(DossierError):
    """A file that could not be written (no space, no permission); nothing half-written is left."""


_held: ContextVar[list[Callable[[], None]] | None] = ContextVar("held_writes", default=None)


@contextmanager
def held_writes() -> Iterator[None]:
    """Write the files of the block only once all of it has succeeded (an inner hold joins the outer one)."""
    if _held.get() is not None:
        yield
        return
    pending: list[Callable[[], None]] = []
    token = _held.set(pending)
    try:
        yield
    finally:
        _held.reset(token)
    for write in pending:
        write()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a document is laid out and drawn.

    A build makes many small objects that live until the document is written; the collector
    would rescan all of them again and again, which makes large builds grow faster than linearly.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def render_pdf(draw: Callable[[Painter], None], fonts: FontSet, title: str = "", advice: str = "") -> bytes:
    """The PDF `draw` makes, as bytes, with how to print it (`advice`) in its document information."""
    with collector_paused():
        painter = PdfPainter(fonts, title=title, advice=advice)
        draw(painter)
        return painter.pdf_bytes()


def render_svg(draw: Callable[[Painter], None], fonts: FontSet) -> list[str]:
    """One SVG document per page `draw` makes."""
    with collector_paused():
        painter = SvgPainter(fonts)
        draw(painter)
        return painter.svg_pages()


def png_pages(pdf: bytes, dpi: int = PREVIEW_DPI) -> list[bytes]:
    """Each page of `pdf` rendered to PNG at `dpi`."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    images = []
    try:
        for page in document:
            buffer = io.BytesIO()
            page.render(scale=dpi / 72).to_pil().save(buffer, format="PNG", optimize=False)
            images.append(buffer.getvalue())
            page.close()
    finally:
        document.close()
    return images


def page_files(stem: Path, suffix: str, count: int) -> list[Path]:
    """The per-page files of `stem`: counters-1.svg, counters-2.svg, ..."""
    return [stem.with_name(f"{stem.name}-{n}{suffix}") for n in range(1, count + 1)]


def _remove_stale(stem: Path, suffix: str, keep: int) -> None:
    """Delete per-page files left by an earlier build that had more pages."""
    pattern = re.compile(rf"^{re.escape(stem.name)}-(\d+){re.escape(suffix)}$")
    if not stem.parent.is_dir():
        return
    for file in stem.parent.iterdir():
        match = pattern.match(file.name)
        if match and int(match.group(1)) > keep:
            file.unlink(missing_ok=True)


def write_outputs(pdf_path: Path, draw: Callable[[Painter], None], fonts: FontSet,
                  formats: Iterable[str] = ("pdf",), title: str = "", dpi: int = PREVIEW_DPI,
                  advice: str = "") -> list[Path]:
    """Draw once per backend needed, then write the PDF, per-page SVGs and PNGs asked for in `formats`.

    Returns the files written. PNG previews are rendered from the PDF, so they show exactly what prints.
    `advice` says how to print it (paper, scale, duplex); the PDF carries it as its subject.
    """
    formats = tuple(formats)
    pdf_path = Path(pdf_path)
    stem = pdf_path.with_suffix("")
    pdf = render_pdf(draw, fonts, title, advice) if {"pdf", "png"} & set(formats) else None
    svgs = render_svg(draw, fonts) if "svg" in formats else []
    pngs = png_pages(pdf, dpi) if "png" in formats and pdf is not None else []
    outputs: list[tuple[Path, bytes | str]] = [(pdf_path, pdf)] if "pdf" in formats and pdf is not None else []
    outputs += list(zip(page_files(stem, ".svg", len(svgs)), svgs))
    outputs += list(zip(page_files(stem, ".png", len(pngs)), pngs))

    def write() -> None:
        for path, data in outputs:
            try:
                write_text(path, data) if isinstance(data, str) else write_bytes(path, data)
            except OSError as exc:
                raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None
        if "svg" in formats:
            _remove_stale(stem, ".svg", len(svgs))
        if "png" in formats:
            _remove_stale(stem, ".png", len(pngs))

    pending = _held.get()
    if pending is None:
        write()
    else:
        pending.append(write)
    return [path for path, _ in outputs]
