"""The boards an export lays pieces on: the map poster, and any other board listed in BOARDS.

Each entry names a function(game, layout, fonts) -> Picture | None that draws the board as one
page with the printing code (None: this game has no such board). Tabletop Simulator gets a
custom board per entry, VASSAL a map window per entry, in this order; the first is the main map.
Another board (the game's display) joins with one entry and a function like poster_picture.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from .raster import Picture

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.fonts import FontSet

# board name -> "module:function"
BOARDS: dict[str, str] = {
    "map": "generators.export.boards:poster_picture",
}


@dataclass(frozen=True)
class Board:
    """A board of the game: its name in BOARDS, its title ("Europe map") and its picture."""

    name: str
    title: str
    picture: Picture


def poster_picture(game: "Game", layout: "Layout", fonts: "FontSet") -> Picture | None:
    """The map poster, as `dossier build` prints it in map.pdf."""
    from ..map.poster import draw_poster, plan_poster

    if game.map is None:
        return None
    plan = plan_poster(game, layout, fonts)
    return Picture(plan.width, plan.height, partial(draw_poster, plan=plan))


def board_source(name: str) -> Callable[["Game", "Layout", "FontSet"], Picture | None]:
    """The function that draws board `name`."""
    module, function = BOARDS[name].split(":")
    return getattr(importlib.import_module(module), function)


def game_boards(game: "Game", layout: "Layout", fonts: "FontSet") -> list[Board]:
    """The boards `game` has, main map first."""
    boards = []
    for name in BOARDS:
        picture = board_source(name)(game, layout, fonts)
        if picture is not None:
            boards.append(Board(name, f"{game.info.title} {name}", picture))
    return boards
