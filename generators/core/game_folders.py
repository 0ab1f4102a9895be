"""Which folder a game named on the command line is: a path to a game folder, or an installed game's name.

Kept apart from the loader so a command can find a game's folder (and key a cache by its files) without
importing the records the loader reads the files into.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import paths
from .errors import DataError, Problem, UnknownNameError
from .files import Kind, kind_of, why_unreadable
from .names import NameIndex
from .yamlio import read_yaml


def default_game() -> str:
    """The game used when no --game is given: $DOSSIER_GAME, else `default` in components/games.yaml."""
    chosen = os.environ.get("DOSSIER_GAME")
    if chosen:
        return chosen
    settings = paths.components_dir() / "games.yaml"
    document = read_yaml(settings) if settings.is_file() else None
    if isinstance(document, dict) and document.get("default"):
        return str(document["default"])
    games = paths.installed_games()
    return games[0] if games else ""


def _unreadable_folder(folder: Path, why: str) -> DataError:
    return DataError([Problem(folder, "", f"cannot read the game folder: {why}", "unreadable")])


def resolve_game_folder(game: str | Path | None) -> Path:
    """The folder of `game`: a path to a folder holding game.yaml, or the name of an installed game."""
    text = str(game) if game is not None else default_game()
    candidate = Path(text).expanduser()
    looks_like_path = any(sep in text for sep in ("/", "\\")) or text.startswith(".")
    kind = kind_of(candidate)
    if kind is Kind.FOLDER:
        try:
            with os.scandir(candidate):
                pass
        except OSError as exc:
            raise _unreadable_folder(candidate, exc.strerror or str(exc)) from None
        if kind_of(candidate / "game.yaml") is not Kind.MISSING:  # read_yaml refuses anything but a file, by name
            return candidate.resolve()
        if looks_like_path:
            raise DataError([Problem(candidate / "game.yaml", "", "file not found: a game folder needs a game.yaml", "missing-file")])
    elif kind is Kind.UNREADABLE:
        raise _unreadable_folder(candidate, why_unreadable(candidate))
    elif kind is not Kind.MISSING and looks_like_path:
        raise DataError([Problem(candidate, "", f"is {kind}, not a game folder", "not-a-folder")])
    elif looks_like_path:
        raise DataError([Problem(candidate, "", "no such game folder", "missing-file")])
    installed = paths.game_folders()
    index = NameIndex("game", installed)
    found = index.find(text)
    if found is None:
        raise UnknownNameError("game", text, index.closest(text) or list(installed))
    return installed[found]
