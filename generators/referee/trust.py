"""Which game folders' Python may run: the trust model for a game's `referee.py`.

A game's referee is code, and code runs with the user's full rights. The games shipped with
Dossier (the folders named in the shipped components' `shipped-games.txt`, in that folder) are
trusted as Dossier itself is; a folder is never trusted for where it lies alone, so a game copied
or created beside them (`dossier new --to components`) needs trust like any other. A game folder
from anywhere else is refused until the user has read its code and run `dossier trust DIR`, which
records a fingerprint of every Python file in the folder. Any later change to those files (an edit,
a new module) withdraws the trust until it is given again, so a folder that was safe when read
cannot quietly become something else.

What runs is what was fingerprinted, byte for byte: the folder's `.py` files are read once into a
`GameCode`, its fingerprint is taken of those bytes, and the modules are made from those same bytes
(see `game_code`), never found by Python's import system. A folder holding anything else Python
could run instead (compiled `.pyc` files, `__pycache__`, extension modules) or reach through
(symbolic links) is refused, trusted or not, naming what to remove.

The record is a small JSON file in the user's configuration folder
($XDG_CONFIG_HOME/dossier/trusted.json when that is an absolute path, else ~/.config/dossier/trusted.json).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..core import paths
from ..core.atomic import write_text
from ..core.errors import DossierError, display_path

SHIPPED_LIST = "shipped-games.txt"
LARGEST_MODULE = 2 * 1024 * 1024  # bytes of one .py file; a referee is a few hundred lines
MOST_FILES = 10_000  # entries a game folder's tree may hold before its code is refused unread
LARGEST_RECORD = 1024 * 1024  # bytes of trusted.json
_COMPILED = (".pyc", ".pyo")
_EXTENSIONS = tuple(sorted({*importlib.machinery.EXTENSION_SUFFIXES, ".so", ".pyd", ".dll", ".dylib"}))


class UntrustedCodeError(DossierError, PermissionError):
    """A game folder from outside Dossier whose Python the user has not trusted (or has changed since)."""


@dataclass(frozen=True)
class GameCode:
    """A game folder's Python as read once: each module's source by its path in the folder, and their fingerprint."""

    folder: Path
    sources: dict[str, bytes]
    fingerprint: str

    def source(self, relative: str) -> bytes | None:
        return self.sources.get(relative)


def trust_file() -> Path:
    """Where the fingerprints of trusted game folders are kept (a relative XDG_CONFIG_HOME is ignored, as XDG says)."""
    config = os.environ.get("XDG_CONFIG_HOME", "")
    home = Path(config) if config and os.path.isabs(config) else Path.home() / ".config"
    return home / "dossier" / "trusted.json"


def shipped_components() -> Path:
    """The game folders that come with Dossier: the wheel's bundled copy, else the checkout's."""
    bundled = paths.PACKAGE_DIR / "_data" / "components"
    return (bundled if bundled.is_dir() else paths.PACKAGE_DIR.parent / "components").resolve()


def shipped_names() -> frozenset[str]:
    """The names of the game folders Dossier ships, from the list beside them."""
    try:
        text = (shipped_components() / SHIPPED_LIST).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def is_shipped(folder: Path) -> bool:
    """True for a game folder that came with Dossier: named in its list and in its place, neither alone enough."""
    folder = Path(folder)
    if folder.is_symlink():
        return False
    folder = folder.resolve()
    return folder.parent == shipped_components() and folder.name in shipped_names()


def _refusal(folder: Path, relative: str, what: str, fix: str) -> UntrustedCodeError:
    return UntrustedCodeError(f"{display_path(folder / relative)}: {what}; {fix}, so that the Python that runs is the "
                              f"Python that was read")


def _read_module(folder: Path, relative: str) -> bytes:
    """The bytes of one .py file, opened without following a link or waiting on a FIFO, and refused when it is not a file."""
    path = folder / relative
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _refusal(folder, relative, f"cannot be read ({exc.strerror or exc})", "make it a readable file") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise _refusal(folder, relative, "is not a regular file", "remove it")
        data = handle.read(LARGEST_MODULE + 1)
    if len(data) > LARGEST_MODULE:
        raise _refusal(folder, relative, f"is larger than {LARGEST_MODULE // 2**20} MB", "remove it")
    return data


def read_code(folder: Path, shipped: bool = False) -> GameCode:
    """The folder's Python, read once, with its fingerprint; refused when the folder holds code Python could run instead.

    A shipped folder's compiled caches (an installer writes them) are passed over, never read: what runs is its .py files."""
    folder = Path(folder).resolve()
    sources: dict[str, bytes] = {}
    seen = 0
    pending = [""]
    while pending:
        here = pending.pop()
        try:
            entries = sorted(os.scandir(folder / here), key=lambda e: e.name)
        except OSError as exc:
            raise _refusal(folder, here, f"cannot be listed ({exc.strerror or exc})", "make it readable") from None
        for entry in entries:
            seen += 1
            if seen > MOST_FILES:
                raise _refusal(folder, "", f"holds more than {MOST_FILES:,} files", "make the game folder smaller")
            relative = f"{here}/{entry.name}" if here else entry.name
            name = entry.name.lower()
            if shipped and (entry.is_symlink() or name == "__pycache__" or name.endswith(_COMPILED)):
                continue
            if entry.is_symlink():
                raise _refusal(folder, relative, "is a symbolic link, which could make code from elsewhere run",
                               "replace it with the file or folder itself")
            if entry.is_dir(follow_symlinks=False):
                if name == "__pycache__":
                    raise _refusal(folder, relative, "holds compiled Python, which could run instead of the .py files read",
                                   "delete the folder (Dossier never runs compiled Python)")
                pending.append(relative)
            elif name.endswith(_COMPILED):
                raise _refusal(folder, relative, "is compiled Python, which could run instead of the .py files read",
                               "delete it (Dossier never runs compiled Python)")
            elif name.endswith(_EXTENSIONS):
                raise _refusal(folder, relative, "is an extension module (machine code), which Dossier never runs",
                               "remove it")
            elif name.endswith(".py"):
                sources[relative] = _read_module(folder, relative)
    folders = {relative.rsplit("/", i)[0] for relative in sources for i in range(1, relative.count("/") + 1)}
    for relative in sources:
        if relative[:-3] in folders:
            raise _refusal(folder, relative, "has the name of a folder of modules beside it, so which one is imported "
                           "is unclear", "rename one of them")
    digest = hashlib.sha256()
    for relative in sorted(sources):
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(sources[relative] + b"\0")
    return GameCode(folder, sources, digest.hexdigest())


def fingerprint(folder: Path) -> str:
    """SHA-256 over the names and contents of the folder's Python files (refused as `read_code` refuses)."""
    return read_code(folder).fingerprint


def _records() -> dict[str, str]:
    file = trust_file()
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise DossierError(f"{file}: cannot read the trusted game folders ({exc.strerror or exc}); "
                           "remove the file to start again") from None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ValueError("not a regular file")
            data = handle.read(LARGEST_RECORD + 1)
        if len(data) > LARGEST_RECORD:
            raise ValueError(f"larger than {LARGEST_RECORD // 2**20} MB")
        found = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise DossierError(f"{file}: cannot read the trusted game folders ({exc}); remove the file to start again") from None
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _write(records: dict[str, str]) -> None:
    write_text(trust_file(), json.dumps(dict(sorted(records.items())), indent=2) + "\n")


def trust(folder: Path) -> str:
    """Record the folder's current fingerprint as trusted; returns it."""
    folder = Path(folder).resolve()
    records = _records()
    records[str(folder)] = fingerprint(folder)
    _write(records)
    return records[str(folder)]


def forget(folder: Path) -> bool:
    """Withdraw trust from the folder; False when it was not trusted."""
    records = _records()
    removed = records.pop(str(Path(folder).resolve()), None)
    if removed is not None:
        _write(records)
    return removed is not None


def trusted_folders() -> dict[str, str]:
    """Every folder trusted so far, with the fingerprint recorded."""
    return _records()


def require_trust(folder: Path, file: Path) -> GameCode:
    """The Python of game folder `folder` (whose `file` is about to run), read once; refused unless Dossier shipped it
    or the user trusted exactly these bytes."""
    shipped = is_shipped(folder)
    folder = Path(folder).resolve()
    how = f"read it, then run `dossier trust {display_path(folder)}` to let it run"
    recorded = None if shipped else _records().get(str(folder))
    if not shipped and recorded is None:
        raise UntrustedCodeError(f"{display_path(file)}: this game folder is not one Dossier ships, and its Python runs with "
                                 f"your rights; {how}")
    code = read_code(folder, shipped)
    if not shipped and recorded != code.fingerprint:
        raise UntrustedCodeError(f"{display_path(file)}: the Python in this game folder has changed since you trusted it; {how} again")
    return code
