"""Where Dossier finds game data and layout presets, and where builds land.

From a source checkout installed with `pip install -e .` the folders beside the package are
used; an installed wheel (`pip install .`) carries its own copies under `generators/_data`, so
edits to a checkout's `components/` do not reach it. DOSSIER_DATA points elsewhere, and the
folders in DOSSIER_PATH hold more games, searched before the shipped ones.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
BUNDLED = PACKAGE_DIR / "_data"
# Where every command writes unless --out says otherwise, relative to the current folder.
OUTPUT = Path("output")

# The environment variables Dossier reads, with what each does (the CLI's help and the README show them).
ENVIRONMENT = {
    "DOSSIER_PATH": "more folders where games are found, separated by ':' (';' on Windows), searched before "
                    "the shipped games; each is a folder of game folders, or one game folder",
    "DOSSIER_DATA": "a folder holding components/ and layouts/ to use instead of the shipped data",
    "DOSSIER_GAME": "the game a command uses when no --game is given (default: `default` in components/games.yaml)",
    "SOURCE_DATE_EPOCH": "the build date written into every PDF, in seconds since 1970 (for reproducible builds; "
                         "default: now)",
}


def environment_problems() -> list[str]:
    """What is wrong with the environment variables Dossier reads, one sentence each; [] when nothing is."""
    problems = []
    data = os.environ.get("DOSSIER_DATA")
    if data and not (Path(data).expanduser() / "components").is_dir():
        problems.append(f"DOSSIER_DATA: {data!r} is not a folder holding components/")
    for entry in os.environ.get("DOSSIER_PATH", "").split(os.pathsep):
        if entry.strip() and not Path(entry).expanduser().is_dir():
            problems.append(f"DOSSIER_PATH: {entry!r} is not a folder")
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isascii() and epoch.isdigit() and len(epoch) <= 12):
        problems.append(f"SOURCE_DATE_EPOCH: {epoch[:40]!r} is not a whole number of seconds since 1970")
    return problems


def data_root() -> Path:
    """The folder holding `components/` and `layouts/`."""
    override = os.environ.get("DOSSIER_DATA")
    if override:
        return Path(override).expanduser().resolve()
    if (BUNDLED / "components").is_dir():
        return BUNDLED
    return PACKAGE_DIR.parent


def data_source() -> str:
    """Which copy of the data `data_root()` is, in words: the one DOSSIER_DATA names, the package's own, or the checkout's."""
    if os.environ.get("DOSSIER_DATA"):
        return "named by DOSSIER_DATA"
    if data_root() == BUNDLED:
        return "the copy installed with the package; edits to a checkout's components/ are not read (install with pip install -e .)"
    return "this checkout, installed for editing"


def components_dir() -> Path:
    """The folder with one sub-folder of YAML per game."""
    return data_root() / "components"


def layouts_dir() -> Path:
    """The folder with the layout presets (paper, sizes, colours)."""
    return data_root() / "layouts"


def output_dir() -> Path:
    """Where builds land unless --out says otherwise, as a full path: OUTPUT in the current folder."""
    return Path.cwd() / OUTPUT


def search_path() -> list[Path]:
    """The folders where games are found, in order: each of DOSSIER_PATH, then the shipped components/."""
    extra = [Path(p).expanduser().resolve() for p in os.environ.get("DOSSIER_PATH", "").split(os.pathsep) if p.strip()]
    return [*extra, components_dir()]


def _games_in(folder: Path) -> list[Path]:
    """The game folders in `folder`: itself when it holds a game.yaml, else its sub-folders that do."""
    if (folder / "game.yaml").is_file():
        return [folder]
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / "game.yaml").is_file())


def game_folders() -> dict[str, Path]:
    """Every game found, by its folder's name, sorted; where two folders share a name, the one earlier
    on the search path is used (as a shell's PATH does)."""
    found: dict[str, Path] = {}
    for root in search_path():
        for folder in _games_in(root):
            found.setdefault(folder.name, folder)
    return dict(sorted(found.items()))


def installed_games() -> list[str]:
    """Names of the games found (see `game_folders`), sorted."""
    return list(game_folders())
