"""Validating a game: every cross-check, listed once, run over the files as read.

`dossier validate`, and every command that loads a game, come through `load_game`: the game's
files are read into typed records (core.loader), then each check in CHECKS looks at them, and
every problem found is reported at once. Nothing downstream sees data that failed a check.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .core.cards import check_cards
from .core.checks import (
    check_aliases,
    check_info,
    check_layout,
    check_pieces,
    check_tiles,
)
from .core.errors import DataError, Problem
from .core.game import Game
from .core.loader import read_game
from .map.aid_content import check_aids
from .map.checks import check_game_map
from .printing.symbols import check_symbols

CHECKS: tuple[Callable[[Game], list[Problem]], ...] = (
    check_info,
    check_pieces,
    check_tiles,
    check_aliases,
    check_cards,
    check_layout,
    check_symbols,
    check_game_map,
    check_aids,
)


def problems(game: Game) -> list[Problem]:
    """Every problem CHECKS find in `game`; an empty list means the data is usable."""
    found: list[Problem] = []
    for check in CHECKS:
        found += check(game)
    return found


def load_game(game: str | Path | None = None) -> Game:
    """The game named (or the folder given), read and cross-checked; raises DataError listing every problem."""
    loaded = read_game(game)
    found = problems(loaded)
    if found:
        raise DataError(found)
    return loaded
