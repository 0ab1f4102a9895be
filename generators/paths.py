"""Where Dossier finds game data and layout presets, and where builds land.

From a source checkout the folders beside the package are used; an installed wheel
carries its own copies under `generators/_data`. DOSSIER_DATA points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def data_root() -> Path:
    """The folder holding `components/` and `layouts/`."""
    override = os.environ.get("DOSSIER_DATA")
    if override:
        return Path(override).expanduser().resolve()
    bundled = PACKAGE_DIR / "_data"
    if (bundled / "components").is_dir():
        return bundled
    return PACKAGE_DIR.parent


def components_dir() -> Path:
    """The folder with one sub-folder of YAML per game."""
    return data_root() / "components"


def layouts_dir() -> Path:
    """The folder with the layout presets (paper, sizes, colours)."""
    return data_root() / "layouts"


def output_dir() -> Path:
    """Where `dossier build` writes unless told otherwise: ./output."""
    return Path.cwd() / "output"


def installed_games() -> list[str]:
    """Names of the game folders under components/, sorted."""
    root = components_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())


def default_game() -> str:
    """The game used when no --game is given: $DOSSIER_GAME, else `default` in components/games.yaml."""
    from .yamlio import read_yaml

    chosen = os.environ.get("DOSSIER_GAME")
    if chosen:
        return chosen
    settings = components_dir() / "games.yaml"
    document = read_yaml(settings) if settings.is_file() else None
    if isinstance(document, dict) and document.get("default"):
        return str(document["default"])
    games = installed_games()
    return games[0] if games else ""
