"""Track boards (boards.yaml): spaces in order, each side moving one way along them. Checked like a map (every
problem at once, each with a code and the field it sits in) and asked how far a move goes.

A move counts the spaces entered, whatever their kind: a space a whole group of pieces shares (a home, a
base) is still one space. A blocked space (say, a piece nobody may pass) stops a move on the space before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.board_models import TrackBoard
from ..core.errors import DossierError, Problem
from ..core.names import NameIndex
from .checks import MapProblem, _error, _repeated

if TYPE_CHECKING:
    from ..core.game import Game

CORNERS = 4


def check_board(board: TrackBoard, factions: Iterable[str], where: str = "") -> list[MapProblem]:
    """Every problem with one track board: repeated ids, unknown kinds and owners, a direction for a side the game
    lacks, corners that are not four. (Spaces in one order, each side moving one way along it, leave no space
    unreachable: a loop reaches every space from any, a line every space ahead.)"""
    at = f"{where}." if where else ""
    known = set(factions)
    problems = [_error("duplicate-space", f"space {name!r} appears {n} times on board {board.id!r}", [name], f"{at}spaces[{i}].id")
                for name, i, n in _repeated([s.id for s in board.spaces])]
    for i, space in enumerate(board.spaces):
        if space.kind is not None and space.kind not in board.kinds:
            listed = ", ".join(sorted(board.kinds)) or "none (the board declares no kinds)"
            problems.append(_error("unknown-kind", f"space {space.id!r} is of kind {space.kind!r}, which board {board.id!r} does not declare; "
                                   f"known: {listed}", [space.id], f"{at}spaces[{i}].kind"))
        if space.owner is not None and space.owner not in known:
            problems.append(_error("unknown-owner", f"space {space.id!r} belongs to {space.owner!r}, not a faction of the game; known: "
                                   f"{', '.join(sorted(known))}", [space.id], f"{at}spaces[{i}].owner"))
    for side in board.directions:
        if side not in known:
            problems.append(_error("unknown-side", f"board {board.id!r} gives a direction to {side!r}, not a faction of the game; known: "
                                   f"{', '.join(sorted(known))}", [side], f"{at}directions.{side}"))
    corners = [s.id for s in board.spaces if s.corner]
    if corners and len(corners) != CORNERS:
        problems.append(_error("corners", f"board {board.id!r} puts {len(corners)} spaces on corners ({', '.join(corners)}); a board has "
                               f"{CORNERS} corners", corners, f"{at}spaces"))
    ids = [a.id for a in board.aids]
    problems += [_error("duplicate-aid", f"aid {name!r} appears {n} times on board {board.id!r}", [name], f"{at}middle")
                 for name, _, n in _repeated(ids)]
    return problems


def check_boards(game: "Game") -> list[Problem]:
    """The errors of the game's boards.yaml as its loader reports them (file and field), plus boards for unknown variants."""
    if game.boards is None:
        return []
    file = game.file("boards.yaml")
    factions = [f.id for f in game.info.factions]
    found: list[Problem] = []
    for i, board in enumerate(game.boards.boards):
        found += [p.to_problem(file) for p in check_board(board, factions, f"boards[{i}]")]
        if board.variant is not None and board.variant not in game.info.variants:
            found.append(Problem(file, f"boards[{i}].variant", f"board {board.id!r} is for variant {board.variant!r}, which game.yaml does not "
                                 f"list; known: {', '.join(game.info.variants) or 'none'}", "unknown-variant"))
    found += [Problem(file, f"boards[{i}].id", f"board {name!r} appears {n} times", "duplicate-board")
              for name, i, n in _repeated([b.id for b in game.boards.boards])]
    return found


class BoardError(DossierError, ValueError):
    """A move asked of a board that the board cannot answer: an unknown board, space or side."""


def board_for(game: "Game", variant: str | None = None, board_id: str | None = None) -> TrackBoard:
    """The board `board_id` names, else the board for `variant`, else the game's first; BoardError when there is none."""
    boards = game.boards.boards if game.boards else []
    if not boards:
        raise BoardError(f"{game.name} has no track board (boards.yaml not found)")
    if board_id is not None:
        index = NameIndex("board", [b.id for b in boards])
        found = index.resolve(board_id)
        return next(b for b in boards if b.id == found)
    return next((b for b in boards if variant is not None and b.variant == variant), boards[0])


@dataclass(frozen=True)
class Advance:
    """Where a move of `spaces` spaces along a track ends: the spaces entered in order (`path`, the start left out),
    where it ends, and the blocked space that cut it short (None when it went the whole way)."""

    start: str
    spaces: int
    path: tuple[str, ...]
    blocked_by: str | None = None

    @property
    def end(self) -> str:
        return self.path[-1] if self.path else self.start

    @property
    def is_complete(self) -> bool:
        """True when the move went every space it was to go."""
        return len(self.path) == self.spaces


class Track:
    """One board's track, read once, answering how a side's move goes along it."""

    def __init__(self, board: TrackBoard):
        self.board = board
        self.order = [s.id for s in board.spaces]
        labels = {s.label: s.id for s in board.spaces if s.name}
        self.names = NameIndex("space", self.order, labels)

    def resolve(self, name: str) -> str:
        """The id of the space `name` names (its id or printed name, any case); UnknownNameError with the closest otherwise."""
        return self.names.resolve(name)

    def direction(self, side: str) -> str:
        """The way `side` moves along the track; BoardError for a side the board gives no direction."""
        try:
            return self.board.directions[side]
        except KeyError:
            raise BoardError(f"board {self.board.id!r} gives {side!r} no direction; sides: {', '.join(self.board.directions)}") from None

    def ahead(self, start: str, side: str) -> list[str]:
        """Every space ahead of `start` for `side`, in the order it enters them (once round a loop)."""
        i = self.order.index(start)
        n = len(self.order)
        step = 1 if self.direction(side) == "forward" else -1
        found = []
        for k in range(1, n if self.board.loop else n):
            j = i + step * k
            if not self.board.loop and not 0 <= j < n:
                break
            found.append(self.order[j % n])
        return found

    def advance(self, start: str, side: str, spaces: int, blocked: Iterable[str] = ()) -> Advance:
        """Where `side` ends moving `spaces` spaces from `start`, stopping before the first `blocked` space."""
        origin = self.resolve(start)
        stops = {self.resolve(b) for b in blocked}
        path: list[str] = []
        for space in self.ahead(origin, side)[:spaces]:
            if space in stops:
                return Advance(origin, spaces, tuple(path), blocked_by=space)
            path.append(space)
        return Advance(origin, spaces, tuple(path))

    def distance(self, start: str, end: str, side: str) -> int | None:
        """The spaces `side` moves from `start` to `end` going its own way; None when it never gets there."""
        origin, goal = self.resolve(start), self.resolve(end)
        ahead = self.ahead(origin, side)
        return ahead.index(goal) + 1 if goal in ahead else (0 if goal == origin else None)
