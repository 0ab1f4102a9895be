"""Every value the data marks as assumed (not printed in the source), with its one-line reason; and every value a
reference table leaves to write in (`unprinted`), with why it is missing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .layouts import preset_chain
from .schema_errors import field_path

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Assumption:
    """One assumed value: the file, the record (with its name where it has one), the field and why."""

    file: Path
    where: str
    subject: str
    field: str
    reason: str


def _walk(document: Any, file: Path, loc: tuple = ()) -> list[Assumption]:
    found: list[Assumption] = []
    if isinstance(document, dict):
        # a bare list index names nothing; leave the subject empty so the record's path is shown
        subject = str(document.get("name") or document.get("id") or (loc[-1] if loc and not isinstance(loc[-1], int) else ""))
        for field, reason in (document.get("assumed") or {}).items():
            found.append(Assumption(file, field_path(loc) or "(file)", subject, str(field), str(reason)))
        unprinted = document.get("unprinted")
        for field, reason in (unprinted.items() if isinstance(unprinted, dict) else ()):
            found.append(Assumption(file, field_path(loc) or "(file)", subject, str(field), f"left blank to write in: {reason}"))
        for key, value in document.items():
            if key not in ("assumed", "unprinted"):
                found += _walk(value, file, loc + (key,))
    elif isinstance(document, list):
        for i, value in enumerate(document):
            found += _walk(value, file, loc + (i,))
    return found


def assumptions(game: "Game") -> list[Assumption]:
    """Every assumption in the game's files and in the layout presets it uses, in file order."""
    found: list[Assumption] = []
    for name, document in game.documents.items():
        found += _walk(document, game.file(name))
    for file, document in preset_chain(game.info.layout, game.folder):
        found += _walk(document, file)
    return found
