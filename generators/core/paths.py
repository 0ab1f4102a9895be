"""Where Dossier finds game data and layout presets, and where builds land.

From a source checkout the folders beside the package are used; an installed wheel
carries its own copies under `generators/_data`. DOSSIER_DATA points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
# Where every command writes unless --out says otherwise, relative to the current folder.
OUTPUT = Path("output")


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
    """Where builds land unless --out says otherwise, as a full path: OUTPUT in the current folder."""
    return Path.cwd() / OUTPUT


def installed_games() -> list[str]:
    """Names of the game folders under components/, sorted."""
    root = components_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "game.yaml").is_file())
