"""The map's answers a game ships worked out (core.shipped): where the poster's places go, the sea zones' water
and where the names go, worked out afresh, to be compared with what the game ships or saved in its stead."""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any


def worked_out_afresh(folder: Path) -> dict[str, dict[str, Any]]:
    """Every answer the poster of the game in `folder` ships, worked out afresh (in a cache of its own, nothing
    shipped read), by design key. The poster is planned as a build that asks for nothing plans it."""
    from ..core.game_cache import designed_parts
    from ..printing.fonts import register_fonts
    from ..printing.settings import PrintSettings
    from ..validation import load_game
    from .poster import plan_poster

    previous = os.environ.get("DOSSIER_CACHE")
    with tempfile.TemporaryDirectory(prefix="dossier-fit-") as cache:
        os.environ["DOSSIER_CACHE"] = cache
        try:
            game = replace(load_game(folder))  # its own answers: none an earlier question worked out
            game.derived["shipped"] = {}
            if game.map is not None:
                plan_poster(game, PrintSettings.of_layout(game.layout), register_fonts(game.layout.fonts, game.folder))
            return designed_parts(Path(cache))
        finally:
            if previous is None:
                os.environ.pop("DOSSIER_CACHE", None)
            else:
                os.environ["DOSSIER_CACHE"] = previous
