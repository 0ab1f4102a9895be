"""Where an export lands, and writing it so that a reader never finds half of one.

An export is drawn entirely in memory first (a `Bundle`); only then is it written, as a build's
files are: a bundle that owns its folder (`tts/`, `images/`) is staged and swapped in whole, so
stale files of an earlier export go with it while a user's own files stay; a bundle of loose
files (the .vmod) replaces each file atomically. A write that fails leaves what was there before.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import DossierError, OutputError, display_path
from ..printing.render import Document
from ..printing.render import publish as publish_documents


class ExportError(DossierError):
    """An export that cannot be written: the out folder is a file, or a write was refused."""


class Bundle(Document):
    """What one export of one game writes: `files` (path relative to `folder` -> content).

    `owns_folder` says the folder holds nothing but this export, so it is replaced as a whole;
    without it the files are loose in a folder shared with others (the .vmod beside the PDFs).
    """

    def __init__(self, folder: Path, files: dict[str, bytes], owns_folder: bool = True):
        super().__init__(Path(folder), files, owns_folder=owns_folder, shares_folder=not owns_folder)

    def summary(self) -> str:
        """One line saying what was written: the file to open, and how many files came with it."""
        first, others = self.paths()[0], len(self.files) - 1
        return display_path(first) + (f" (and {others} more in {display_path(self.folder)})" if others else "")


def check_out(out: Path) -> None:
    """Refuse an out folder that cannot hold an export before anything is drawn: a file, or a place
    the user may not write into."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ExportError(f"--out {display_path(out)} is a file, not a folder")
    existing = next(p for p in (out, *out.parents) if p.exists())
    if not existing.is_dir():
        raise ExportError(f"--out {display_path(out)}: {display_path(existing)} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ExportError(f"--out {display_path(out)}: no permission to write into {display_path(existing)}")


def publish(bundle: Bundle, out: Path) -> list[Path]:
    """Write `bundle` inside the output folder `out` through the one writer (printing/render.py);
    returns the files written. A write that fails raises and leaves the old files."""
    try:
        return publish_documents([bundle], out)
    except OutputError as exc:
        raise ExportError(str(exc)) from None
