"""Which game folders' Python may run: the trust model for a game's `referee.py`.

A game's referee is code, and code runs with the user's full rights. The games shipped with
Dossier are trusted as Dossier itself is. A game folder from anywhere else (a path given to
`--game`, or a data folder named by DOSSIER_DATA) is refused until the user has read its code
and run `dossier trust DIR`, which records a fingerprint of every Python file in the folder.
Any later change to those files (an edit, a new module) withdraws the trust until it is
given again, so a folder that was safe when read cannot quietly become something else.

The record is a small JSON file in the user's configuration folder
($XDG_CONFIG_HOME/dossier/trusted.json, else ~/.config/dossier/trusted.json).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..core import paths
from ..core.atomic import write_text
from ..core.errors import DossierError, display_path


class UntrustedCodeError(DossierError, PermissionError):
    """A game folder from outside Dossier whose Python the user has not trusted (or has changed since)."""


def trust_file() -> Path:
    """Where the fingerprints of trusted game folders are kept."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config).expanduser() / "dossier" / "trusted.json"


def shipped_components() -> Path:
    """The game folders that come with Dossier: the wheel's bundled copy, else the checkout's."""
    bundled = paths.PACKAGE_DIR / "_data" / "components"
    return (bundled if bundled.is_dir() else paths.PACKAGE_DIR.parent / "components").resolve()


def is_shipped(folder: Path) -> bool:
    """True for a game folder that came with Dossier (DOSSIER_DATA pointing elsewhere does not count)."""
    return Path(folder).resolve().parent == shipped_components()


def code_files(folder: Path) -> list[Path]:
    """The Python files a game folder could run, sorted; caches left out."""
    folder = Path(folder)
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.relative_to(folder).parts and p.is_file())


def fingerprint(folder: Path) -> str:
    """SHA-256 over the names and contents of the folder's Python files."""
    digest = hashlib.sha256()
    folder = Path(folder)
    for file in code_files(folder):
        digest.update(file.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def _records() -> dict[str, str]:
    file = trust_file()
    try:
        found = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
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


def require_trust(folder: Path, file: Path) -> None:
    """Let `file`, the Python of game folder `folder`, run only if Dossier shipped it or the user trusted it as it is now."""
    folder = Path(folder).resolve()
    if is_shipped(folder):
        return
    recorded = _records().get(str(folder))
    how = f"read it, then run `dossier trust {display_path(folder)}` to let it run"
    if recorded is None:
        raise UntrustedCodeError(f"{display_path(file)}: this game folder is not one Dossier ships, and its Python runs with "
                                 f"your rights; {how}")
    if recorded != fingerprint(folder):
        raise UntrustedCodeError(f"{display_path(file)}: the Python in this game folder has changed since you trusted it; {how} again")
