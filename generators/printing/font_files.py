"""Where a layout's font files are: the game's layouts/ folder, then the shared layouts/ (and its
fonts/ folder), else reportlab's own fonts folder. Kept apart from fonts.py so that checking a
game's data finds its fonts without loading the drawing library."""

from __future__ import annotations

from pathlib import Path

from ..core import paths


def font_file(name: str, game_folder: Path | None = None) -> Path | None:
    """The file a layout's font `name` ("fonts/FiraSansCondensed-Bold.ttf", "Vera.ttf") refers to, or
    None when it is not in a layouts folder (reportlab then looks in its own fonts folder)."""
    folders = ([game_folder / "layouts"] if game_folder else []) + [paths.layouts_dir()]
    for folder in folders:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def reportlab_font_file(name: str) -> Path | None:
    """The file of one of reportlab's own fonts ("Vera.ttf") in its search path, or None. Found here, not by reportlab:
    given a bare name, it first tries it as a web address, which loads the HTTP and SSL libraries."""
    from reportlab import rl_config

    return next((Path(folder) / name for folder in rl_config.TTFSearchPath if (Path(folder) / name).is_file()), None)
