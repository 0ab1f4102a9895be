"""Documents and the one writer that publishes them.

A product draws entirely in memory and returns `Document`s (values: each file's name and bytes, in
one folder); nothing is written while drawing, so a refusal anywhere (text that cannot fit, an
unknown symbol) leaves every earlier file as it was. `publish` then writes a command's documents
at once: each folder's documents as one set swapped in whole (core/atomic.py), so a refusal, a
full disk or a kill leaves the earlier set as it was. A document replaces its product's earlier
files whole: a page or preview of the last run that this one did not make goes (when Dossier
wrote it). Every file must land under the output folder the command writes into: a path that
would leave it is refused, whatever made it, before any file is written.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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
from .recording import record

PREVIEW_DPI = 100
PNG_LEVEL = 1  # previews are for looking at: zlib's fastest level encodes them quicker, for about 7 % more bytes


@dataclass(frozen=True)
class Document:
    """Files drawn and not yet written: content by name (a path relative to `folder`).

    `stems` name the product's files this set replaces whole: for stem "counters", counters.pdf
    and every counters-N.svg and counters-N.png. `owns_folder` says the folder holds nothing but
    this set, so whatever Dossier wrote there before goes. `shares_folder` says the folder is
    not Dossier's to swap (a sheet written beside a user's files), so each file is replaced on
    its own.
    """

    folder: Path
    files: dict[str, bytes | str]
    stems: tuple[str, ...] = ()
    owns_folder: bool = False
    shares_folder: bool = False

    def paths(self) -> list[Path]:
        """Where the files land, in the order drawn."""
        return [self.folder / name for name in self.files]

    def replaces(self, name: str) -> bool:
        """True for an earlier file called `name` that this set takes the place of."""
        if self.owns_folder:
            return True
        return any(re.fullmatch(rf"{re.escape(stem)}(\.pdf|-\d+\.svg|-\d+\.png)", name) for stem in self.stems)


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


def publish(documents: Iterable[Document], out: Path) -> list[Path]:
    """Write `documents` inside the output folder `out`, all paths checked before any is written;
    returns the files written. Documents sharing a folder land there as one set."""
    documents = [d for d in documents if d.files]
    if not documents:
        return []
    root = _normal(out)
    fresh = {_normal(d.folder) for d in documents if kind_of(d.folder) is Kind.MISSING}  # before any is made
    make_folder(root)
    sets: dict[Path, list[Document]] = {}
    for document in documents:
        for path in document.paths():
            _inside(path, root)
        folder = _normal(document.folder)
        if document.shares_folder:
            continue
        if folder == root:
            raise OutputError(f"refusing to write a set of files into the output folder itself "
                              f"({display_path(root)}); each goes into a folder inside it")
        sets.setdefault(folder, []).append(document)
    for folder, there in sets.items():
        _write_set(folder, there)
    for document in documents:
        if document.shares_folder:
            _write_files(document, _normal(document.folder) in fresh)
    return [path for document in documents for path in document.paths()]


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


def _write(path: Path, data: bytes | str) -> None:
    try:
        write_text(path, data) if isinstance(data, str) else write_bytes(path, data)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None


def _write_set(folder: Path, documents: list[Document]) -> None:
    """Write every file of `documents` (all in `folder`) as one set that replaces the folder's earlier one."""
    try:
        with staged_folder(folder, drop=lambda name: any(d.replaces(name) for d in documents)) as staging:
            for document in documents:
                for name, data in document.files.items():
                    _write(staging / name, data)
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None


def _write_files(document: Document, new_folder: bool) -> None:
    """Write `document` file by file (each atomically) into a folder it shares with files not Dossier's
    (`new_folder`: one this command made)."""
    folder = _normal(document.folder)
    make_folder(folder)
    try:
        with folder_lock(folder):
            clear_leftovers(folder)
            for name in document.files:
                refuse_unless_replaceable(folder / name)
            for name, data in document.files.items():
                _write(folder / name, data)
            ours = written_here(folder)
            stale = {name for name in ours if document.replaces(name) and name not in document.files}
            for name in stale:
                (folder / name).unlink(missing_ok=True)
            if ours or new_folder:  # a folder Dossier made, or one it keeps a record in
                record_written(folder, (ours - stale) | set(document.files))
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None


def draw_document(pdf_path: Path, draw: Callable[[Painter], None], fonts: FontSet,
                  formats: Iterable[str] = ("pdf",), title: str = "", dpi: int = PREVIEW_DPI,
                  advice: str = "") -> Document:
    """The PDF, per-page SVGs and PNGs asked for in `formats`, as a Document replacing every earlier file of
    `pdf_path`'s stem. `draw` runs once: for the PDF and the SVG pages both, what it draws is recorded and
    replayed into each backend (recording.py).

    PNG previews are rendered from the PDF, so they show exactly what prints. `advice` says how to
    print it (paper, scale, duplex); the PDF carries it as its subject.
    """
    formats = tuple(formats)
    pdf_path = Path(pdf_path)
    stem = pdf_path.with_suffix("")
    if {"pdf", "png"} & set(formats) and "svg" in formats:
        with collector_paused():
            draw = record(draw, fonts).replay
    pdf = render_pdf(draw, fonts, title, advice) if {"pdf", "png"} & set(formats) else None
    svgs = render_svg(draw, fonts) if "svg" in formats else []
    pngs = png_pages(pdf, dpi) if "png" in formats and pdf is not None else []
    files: dict[str, bytes | str] = {pdf_path.name: pdf} if "pdf" in formats and pdf is not None else {}
    files.update((path.name, data) for path, data in zip(page_files(stem, ".svg", len(svgs)), svgs))
    files.update((path.name, data) for path, data in zip(page_files(stem, ".png", len(pngs)), pngs))
    return Document(pdf_path.parent, files, stems=(stem.name,))
