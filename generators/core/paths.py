"""Where Dossier finds game data and layout presets, and where builds land.

From a source checkout installed with `pip install -e .` the folders beside the package are
used; an installed wheel (`pip install .`) carries its own copies under `generators/_data`, so
edits to a checkout's `components/` do not reach it. DOSSIER_DATA points elsewhere, and the
folders in DOSSIER_PATH hold more games, searched before the shipped ones.

Which copy is read never depends on the current folder: a command run inside a checkout reads
the same data as anywhere else (the code installed and the data beside it are one version, and a
checkout's game code is not trusted just because it is near). But an edit must not be ignored
without a word: when the current folder is inside a Dossier checkout whose data differs from the
copy read, `unread_checkout` names the files that differ, and every command says so (and how to
read the checkout) before it runs.
"""

from __future__ import annotations

import os
import re
import time
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
    "DOSSIER_CACHE": "where what a validated game answers is kept between commands, keyed by the bytes of its files "
                     "(default: $XDG_CACHE_HOME/dossier, else ~/.cache/dossier); `off` keeps none",
    "SOURCE_DATE_EPOCH": "the build date written into every PDF and VASSAL module, in seconds since 1970 (for "
                         "reproducible builds; default: now)",
}


def environment_problems() -> list[str]:
    """What is wrong with the environment variables Dossier reads, one sentence each; [] when nothing is."""
    problems = []
    data = os.environ.get("DOSSIER_DATA")
    if data is not None and not data.strip():
        problems.append("DOSSIER_DATA is set but empty; unset it or name the folder holding components/ and layouts/")
    elif data and not (Path(data).expanduser() / "components").is_dir():
        problems.append(f"DOSSIER_DATA: {data[:200]!r} is not a folder holding components/")
    for entry in os.environ.get("DOSSIER_PATH", "").split(os.pathsep):
        if entry.strip() and not Path(entry).expanduser().is_dir():
            problems.append(f"DOSSIER_PATH: {entry[:200]!r} is not a folder")
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isascii() and epoch.isdigit() and len(epoch) <= 12):
        problems.append(f"SOURCE_DATE_EPOCH: {epoch[:40]!r} is not a whole number of seconds since 1970")
    return problems


def build_time() -> float:
    """When this build happened, in seconds since 1970: SOURCE_DATE_EPOCH when it is set (and valid), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isascii() and epoch.isdigit() and len(epoch) <= 12:
        return float(epoch)
    return time.time()


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


_PROJECT_NAME = re.compile(r'^name\s*=\s*"dossier"\s*$', re.MULTILINE)
DIFFERENCES_SHOWN = 3


def checkout_around(folder: Path | None = None) -> Path | None:
    """The Dossier source checkout `folder` (default: the current folder) lies in, or None: the nearest
    folder upward holding a pyproject.toml for dossier beside components/ and layouts/."""
    start = Path(folder or Path.cwd()).resolve()
    for candidate in (start, *start.parents):
        project = candidate / "pyproject.toml"
        if project.is_file() and (candidate / "components").is_dir() and (candidate / "layouts").is_dir():
            try:
                if _PROJECT_NAME.search(project.read_text(encoding="utf-8", errors="replace")[:20_000]):
                    return candidate
            except OSError:
                return None
    return None


def _data_files(root: Path) -> dict[str, Path]:
    found = {}
    for sub in ("components", "layouts"):
        for path in (root / sub).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                found[path.relative_to(root).as_posix()] = path
    return found


def _differ(one: Path, other: Path) -> bool:
    try:
        return one.stat().st_size != other.stat().st_size or one.read_bytes() != other.read_bytes()
    except OSError:
        return True


def checkout_not_read() -> Path | None:
    """The Dossier checkout around the current folder when its data is not the data read (and no DOSSIER_DATA says which)."""
    if os.environ.get("DOSSIER_DATA"):
        return None  # the user named the data to read
    checkout = checkout_around()
    return None if checkout is None or checkout.resolve() == data_root().resolve() else checkout


def how_to_read(checkout: Path) -> str:
    return f"to read the checkout, install it for editing (pip install -e {checkout}) or set DOSSIER_DATA={checkout}"


def unread_checkout() -> tuple[Path, list[str]] | None:
    """When the current folder is inside a Dossier checkout that is not the data read and whose
    components/ or layouts/ differ from it: the checkout and the files that differ (relative paths)."""
    checkout = checkout_not_read()
    if checkout is None:
        return None
    root = data_root()
    mine, read = _data_files(checkout), _data_files(root)
    differing = sorted(name for name in mine.keys() | read.keys()
                       if name not in mine or name not in read or _differ(mine[name], read[name]))
    return (checkout, differing) if differing else None


def unread_checkout_note() -> str | None:
    """The warning a command prints when this checkout's edits are not what it reads (see unread_checkout)."""
    found = unread_checkout()
    if found is None:
        return None
    checkout, differing = found
    shown = ", ".join(differing[:DIFFERENCES_SHOWN]) + (f" and {len(differing) - DIFFERENCES_SHOWN} more"
                                                        if len(differing) > DIFFERENCES_SHOWN else "")
    return (f"note: this checkout's data ({checkout}) differs from the copy read, {data_root()} "
            f"({shown}); {how_to_read(checkout)}")


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
