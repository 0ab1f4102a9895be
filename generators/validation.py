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
    faction_problems,
)
from .core.collector import collector_paused
from .core.errors import DataError, Problem
from .core.game import Game
from .core.loader import read_game
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
)


def print_checks() -> tuple[Callable[[Game], list[Problem]], ...]:
    """The preflight checks: what a build would refuse (fonts, sizes, texts that cannot fit).

    Only commands that print (and `validate`) run them, so a map query never loads the drawing libraries.
    """
    from .printing.preflight import check_fonts, check_printable

    return (check_fonts, check_printable)


def problems(game: Game, for_print: bool = False) -> list[Problem]:
    """Every problem CHECKS (and, `for_print`, the preflight checks) find in `game`; none means usable.

    While the factions themselves are ambiguous, only game.yaml's problems are reported: every
    other check looks factions up and would repeat the one root problem once per record.
    """
    if faction_problems(game):
        return check_info(game)
    found: list[Problem] = []
    for check in CHECKS:
        found += check(game)
    if for_print and not found:
        for check in print_checks():
            found += check(game)
    return found


def load_game(game: str | Path | None = None, for_print: bool = False) -> Game:
    """The game named (or the folder given), read and cross-checked; raises DataError listing every problem.

    `for_print`: also refuse what a build would refuse (see `print_checks`).
    """
    with collector_paused():  # reading and checking make many small objects that all live on
        loaded = read_game(game)
        found = problems(loaded, for_print)
    if found:
        raise DataError(found)
    return loaded
