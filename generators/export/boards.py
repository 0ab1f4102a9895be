"""The boards an export lays pieces on: the map poster, the display, the track boards (boards.yaml), and any
other board listed in BOARDS.

Each entry names a function(game, settings, fonts) that draws the board as one page with the printing code,
with the spaces pieces stand on, and returns its Picture (None: this game has no such board), or a list of
Pictures for a kind of board a game may have several of (each then names itself). Tabletop Simulator gets a
custom board per picture, VASSAL a map window per picture, in this order; the first is the main map.
Another board joins with one entry and a function like poster_drawing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..printing.painter import Drawing
from .spaces import Space, aid_spaces, map_spaces, track_spaces

if TYPE_CHECKING:
    from ..core.game import Game
    from .parts import Part
    from ..printing.settings import PrintSettings
    from ..printing.fonts import FontSet

# board name -> "module:function"
BOARDS: dict[str, str] = {
    "map": "generators.export.boards:poster_drawing",
    "display": "generators.export.boards:display_drawing",
    "track": "generators.export.boards:track_drawings",
}


@dataclass(frozen=True)
class Picture:
    """A board as drawn: the drawing, and the named spaces on it (mm on the drawing); one of several boards of a
    kind gives its own `name` (a part of file names) and `title`."""

    drawing: Drawing
    spaces: tuple[Space, ...] = ()
    name: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Board:
    """A board of the game: its name in BOARDS, its title ("Europe map"), its drawing and its spaces."""

    name: str
    title: str
    drawing: Drawing
    spaces: tuple[Space, ...] = ()


def poster_drawing(game: "Game", settings: "PrintSettings", fonts: "FontSet") -> Picture | None:
    """The map poster, as `dossier build` prints it in map.pdf, with a space on each city and sea zone, then on
    each room of its aids (the Bank Track's boxes, the record's)."""
    from ..map.poster import plan_poster
    from ..map.poster_drawing import draw_poster

    if game.map is None:
        return None
    plan = plan_poster(game, settings, fonts)
    return Picture(Drawing(plan.width, plan.height, partial(draw_poster, plan=plan)),
                   tuple(map_spaces(game) + aid_spaces(plan.aids)))


def display_drawing(game: "Game", settings: "PrintSettings", fonts: "FontSet") -> Picture | None:
    """The display sheet (tracks, summaries, tables), as `dossier build` prints it in display.pdf."""
    from ..map.display import draw_display, plan_display

    if game.display is None:
        return None
    plan = plan_display(game, settings, fonts)
    return Picture(Drawing(plan.width, plan.height, partial(draw_display, plan=plan)))


def track_drawings(game: "Game", settings: "PrintSettings", fonts: "FontSet") -> list[Picture]:
    """Each track board of boards.yaml as `dossier build` prints it in board-ID.pdf, a space on each of its
    spaces and on each room of its boxes and card slots."""
    from ..map.track_board import draw_board, plan_board

    if game.boards is None:
        return []
    pictures = []
    for board in game.boards.boards:
        plan = plan_board(game, settings, board, fonts)
        pictures.append(Picture(Drawing(plan.width, plan.height, partial(draw_board, plan=plan)), tuple(track_spaces(plan)),
                                name=board.id, title=plan.title))
    return pictures


def board_source(name: str) -> Callable[["Game", "PrintSettings", "FontSet"], Picture | list[Picture] | None]:
    """The function that draws board `name`."""
    module, function = BOARDS[name].split(":")
    return getattr(importlib.import_module(module), function)


def game_boards(game: "Game", settings: "PrintSettings", fonts: "FontSet") -> list[Board]:
    """The boards `game` has, main map first."""
    boards: list[Board] = []
    for name in BOARDS:
        drawn = board_source(name)(game, settings, fonts)
        for picture in drawn if isinstance(drawn, list) else [drawn] if drawn is not None else []:
            own = picture.name or name
            taken = {b.name for b in boards}
            unique = own if own not in taken else next(f"{own}-{k}" for k in range(2, len(boards) + 2) if f"{own}-{k}" not in taken)
            boards.append(Board(unique, picture.title or f"{game.info.title} {name}", picture.drawing, picture.spaces))
    return boards


@dataclass(frozen=True)
class Start:
    """One copy of a part set on a board when a game begins: the board (its index among the game's boards), the
    space it stands on, the part, and which copy of it."""

    board: int
    space: Space
    part: "Part"
    copy: int


def board_starts(boards: list[Board], parts: list["Part"], first: int = 0) -> list[Start]:
    """Every copy with a start (pieces.yaml's `start`), on the first board that has its place, trying board
    `first` before the others (the board a game for its table size is played on)."""
    where: dict[str, tuple[int, Space]] = {}
    for i in sorted(range(len(boards)), key=lambda i: i != first):
        for space in boards[i].spaces:
            where.setdefault(space.name, (i, space))
    return [Start(*where[place], part, copy) for part in parts for copy, place in enumerate(part.starts) if place in where]


def starts_on_each_board(boards: list[Board], parts: list["Part"]) -> list[Start]:
    """Every copy with a start set up on each board that has its place: every board comes set up for its own
    game (the 2-player board for a 2-player game), with the copies whose places it has."""
    return [Start(i, space, part, copy) for i, board in enumerate(boards) for space in board.spaces
            for part in parts for copy, place in enumerate(part.starts) if place == space.name]


def set_up_boards(boards: list[Board], parts: list["Part"]) -> list[int]:
    """The boards some copy starts on, in board order."""
    return sorted({s.board for s in starts_on_each_board(boards, parts)})


def off_board(part: "Part", starts: list[Start]) -> int:
    """How many copies of `part` start off the boards."""
    return part.copies - sum(1 for s in starts if s.part.key == part.key)
