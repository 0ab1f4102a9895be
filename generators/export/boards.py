"""The boards an export lays pieces on: the map poster, and any other board listed in BOARDS.

Each entry names a function(game, layout, fonts) -> Picture | None that draws the board as one
page with the printing code, with the spaces pieces stand on (None: this game has no such board). Tabletop Simulator gets a
custom board per entry, VASSAL a map window per entry, in this order; the first is the main map.
Another board joins with one entry and a function like poster_drawing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..printing.painter import Drawing
from .spaces import Space, map_spaces

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.fonts import FontSet

# board name -> "module:function"
BOARDS: dict[str, str] = {
    "map": "generators.export.boards:poster_drawing",
    "display": "generators.export.boards:display_drawing",
}


@dataclass(frozen=True)
class Picture:
    """A board as drawn: the drawing, and the named spaces on it (mm on the drawing)."""

    drawing: Drawing
    spaces: tuple[Space, ...] = ()


@dataclass(frozen=True)
class Board:
    """A board of the game: its name in BOARDS, its title ("Europe map"), its drawing and its spaces."""

    name: str
    title: str
    drawing: Drawing
    spaces: tuple[Space, ...] = ()


def poster_drawing(game: "Game", layout: "Layout", fonts: "FontSet") -> Picture | None:
    """The map poster, as `dossier build` prints it in map.pdf, with a space on each city and sea zone."""
    from ..map.poster import draw_poster, plan_poster

    if game.map is None:
        return None
    plan = plan_poster(game, layout, fonts)
    return Picture(Drawing(plan.width, plan.height, partial(draw_poster, plan=plan)), tuple(map_spaces(game)))


def display_drawing(game: "Game", layout: "Layout", fonts: "FontSet") -> Picture | None:
    """The display sheet (tracks, summaries, tables), as `dossier build` prints it in display.pdf."""
    from ..map.display import draw_display, plan_display

    if game.display is None:
        return None
    plan = plan_display(game, layout, fonts)
    return Picture(Drawing(plan.width, plan.height, partial(draw_display, plan=plan)))


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
            boards.append(Board(name, f"{game.info.title} {name}", picture.drawing, picture.spaces))
    return boards
