"""Writing what a generator drew: the PDF, one SVG per page, PNG previews; each file written atomically.

Drawing happens entirely in memory first, so a refusal while drawing (text that cannot fit,
an unknown symbol) leaves every earlier file as it was. Inside `held_writes(out)` (a whole build)
the files wait in memory until every product has been drawn; then each folder's files are
written as one set, swapped in whole (core/atomic.py), so a refusal, a full disk or a kill
leaves the earlier set as it was. Every file must land under the output folder the command
writes into: a path that would leave it is refused, whatever made it.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from ..core.atomic import (
    clear_leftovers,
    folder_lock,
    make_folder,
    record_written,
    refuse_unless_replaceable,
    staged_folder,
    write_bytes,
    write_text,
    written_here,
)
from ..core.collector import collector_paused
from ..core.errors import OutputError, display_path
from ..core.files import Kind, kind_of
from .fonts import FontSet
from .painter import Painter, PdfPainter, SvgPainter

PREVIEW_DPI = 100
PNG_LEVEL = 1  # previews are for looking at: zlib's fastest level encodes them quicker, for about 7 % more bytes


@dataclass
class _Files:
    """What one write_outputs call makes: files by name in one folder, and the per-page series among them."""

    folder: Path
    files: list[tuple[str, bytes | str]]
    pages: list[tuple[str, str, int]] = field(default_factory=list)  # (stem, suffix, pages written)

    def is_stale(self, name: str) -> bool:
        """True for a page of these series beyond the pages written now ("counters-7.svg" after 2 pages)."""
        for stem, suffix, count in self.pages:
            found = re.fullmatch(rf"{re.escape(stem)}-(\d+){re.escape(suffix)}", name)
            if found and int(found.group(1)) > count:
                return True
        return False


_held: ContextVar[list[_Files] | None] = ContextVar("held_writes", default=None)
_root: ContextVar[Path | None] = ContextVar("output_folder", default=None)


def _normal(path: Path) -> Path:
    """`path` made absolute with "." and ".." taken out, links not followed."""
    return Path(os.path.normpath(os.path.abspath(path)))


def _inside(path: Path, root: Path) -> Path:
    """`path` made absolute; OutputError unless it lies inside `root` through folders, not links."""
    path = _normal(path)
    if root not in path.parents:
        raise OutputError(f"refusing to write {display_path(path)}: it is outside the output folder {display_path(root)}")
    for folder in reversed(path.parents[: path.parents.index(root)]):
        kind = kind_of(folder, follow=False)
        if kind not in (Kind.FOLDER, Kind.MISSING):
            raise OutputError(f"refusing to write {display_path(path)}: {display_path(folder)} is {kind}, "
                              f"so the file could land outside the output folder {display_path(root)}")
    return path


@contextmanager
def output_folder(root: Path) -> Iterator[Path]:
    """Every file written in the block must lie inside `root`, the folder the command writes into."""
    folder = _normal(root)
    token = _root.set(folder)
    try:
        yield folder
    finally:
        _root.reset(token)


@contextmanager
def held_writes(out: Path) -> Iterator[None]:
    """Write the block's files only once all of it has succeeded, each folder's files swapped in as one set.

    `out` is the output folder every file must lie inside (an inner hold joins the outer one).
    Every path is checked before any set is written.
    """
    if _held.get() is not None:
        yield
        return
    pending: list[_Files] = []
    token = _held.set(pending)
    try:
        yield
    finally:
        _held.reset(token)
    if not pending:
        return
    with output_folder(out) as root:
        make_folder(root)
        sets: dict[Path, list[_Files]] = {}
        for made in pending:
            if made.files:
                folder = _inside(made.folder / made.files[0][0], root).parent
                if folder == root:
                    raise OutputError(f"refusing to write a set of files into the output folder itself "
                                      f"({display_path(root)}); each goes into a folder inside it")
                sets.setdefault(folder, []).append(made)
        for folder, made_there in sets.items():
            _write_set(folder, made_there)


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
            page.render(scale=dpi / 72).to_pil().save(buffer, format="PNG", compress_level=PNG_LEVEL)
            images.append(buffer.getvalue())
            page.close()
    finally:
        document.close()
    return images


def page_files(stem: Path, suffix: str, count: int) -> list[Path]:
    """The per-page files of `stem`: counters-1.svg, counters-2.svg, ..."""
    return [stem.with_name(f"{stem.name}-{n}{suffix}") for n in range(1, count + 1)]


def inside_output(path: Path) -> Path:
    """`path` made absolute and checked to lie inside the output folder of the block (see output_folder)."""
    root = _root.get()
    return _inside(path, root) if root else Path(path)


def write_loose(folder: Path, files: dict[str, bytes]) -> None:
    """Write `files` into `folder` one by one, each atomically, under the folder's lock (a file or two
    that share their folder with others, such as a module beside the PDFs)."""
    _write_files(_Files(folder, list(files.items())))


def _write(path: Path, data: bytes | str) -> None:
    try:
        write_text(path, data) if isinstance(data, str) else write_bytes(path, data)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None


def _write_set(folder: Path, made: list[_Files]) -> None:
    """Write every file of `made` (all in `folder`) as one set that replaces the folder's earlier one."""
    try:
        with staged_folder(folder, drop=lambda name: any(m.is_stale(name) for m in made)) as staging:
            for each in made:
                for name, data in each.files:
                    _write(staging / name, data)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None


def _write_files(made: _Files) -> None:
    """Write `made` file by file (each atomically) into its folder, outside a build."""
    root = _root.get()
    if not made.files:
        return
    folder = _inside(made.folder / made.files[0][0], root).parent if root else made.folder
    new_folder = kind_of(folder) is Kind.MISSING
    make_folder(folder)
    try:
        with folder_lock(folder):
            clear_leftovers(folder)
            for name, _ in made.files:
                refuse_unless_replaceable(folder / name)
            for name, data in made.files:
                _write(folder / name, data)
            ours = written_here(folder)
            stale = {name for name in ours if made.is_stale(name)}
            for name in stale:
                (folder / name).unlink(missing_ok=True)
            if ours or new_folder:  # a folder Dossier made, or one it keeps a record in
                record_written(folder, (ours - stale) | {name for name, _ in made.files})
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None


def write_outputs(pdf_path: Path, draw: Callable[[Painter], None], fonts: FontSet,
                  formats: Iterable[str] = ("pdf",), title: str = "", dpi: int = PREVIEW_DPI,
                  advice: str = "") -> list[Path]:
    """Draw once per backend needed, then write the PDF, per-page SVGs and PNGs asked for in `formats`.

    Returns the files written. PNG previews are rendered from the PDF, so they show exactly what prints.
    `advice` says how to print it (paper, scale, duplex); the PDF carries it as its subject.
    Pages of an earlier run beyond those written now are removed, when Dossier wrote them.
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
    pages = [(stem.name, suffix, count) for suffix, count, wanted in ((".svg", len(svgs), "svg"), (".png", len(pngs), "png"))
             if wanted in formats]
    made = _Files(_normal(pdf_path.parent), [(path.name, data) for path, data in outputs], pages)
    pending = _held.get()
    if pending is None:
        _write_files(made)
    else:
        pending.append(made)
    return [path for path, _ in outputs]
