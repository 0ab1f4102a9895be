"""Validating a game: every cross-check, listed once, run over the files as read.

`dossier validate`, and every command that loads a game, come through `load_game`: the game's
files are read into typed records (core.loader), then each check in CHECKS looks at them, and
every problem found is reported at once. Nothing downstream sees data that failed a check.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
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
from .core.errors import DataError, Problem, display_path
from .core.game import Game
from .core.game_cache import game_key, keep, recall
from .core.game_folders import resolve_game_folder
from .core.loader import read_game
from .core.tables import check_tables
from .map.aid_content import check_aids
from .map.checks import check_game_map
from .map.track import check_boards
from .printing.print_checks import check_card_print, check_type_sizes
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
    check_boards,
    check_type_sizes,
    check_card_print,
    check_aids,
    check_tables,
)


VALID = "valid"  # the game_cache part saying a game's files passed every check


class Preflight(Enum):
    """How much of what a build would refuse loading a game checks, beyond the data checks."""

    NONE = 0  # map queries, rules questions: nothing is printed
    QUICK = 1  # printing commands: fonts, glyphs, pictures and sizes, refused naming the file and field
    FULL = 2  # `dossier validate`: also every text laid out as the build lays it out


def preflight_checks(level: Preflight) -> tuple[Callable[[Game], list[Problem]], ...]:
    """The preflight checks for `level`; the drawing and font libraries load only when there are some."""
    if level is Preflight.NONE:
        return ()
    from .printing.art import check_art
    from .printing.glyphs import check_glyphs
    from .printing.preflight import check_fonts, check_sizes, check_texts

    return (check_fonts, check_glyphs, check_art, check_sizes) + ((check_texts,) if level is Preflight.FULL else ())


def problems(game: Game, preflight: Preflight = Preflight.NONE) -> list[Problem]:
    """Every problem CHECKS (then the preflight checks) find in `game`; none means the data is usable.

    While the factions themselves are ambiguous, only game.yaml's problems are reported: every
    other check looks factions up and would repeat the one root problem once per record.
    """
    if faction_problems(game):
        return check_info(game)
    found: list[Problem] = []
    for check in CHECKS:
        found += check(game)
    if not found:
        for check in preflight_checks(preflight):
            found += check(game)
    return found


def load_game(game: str | Path | None = None, preflight: Preflight = Preflight.NONE) -> Game:
    """The game named (or the folder given), read and cross-checked; raises DataError listing every problem.

    Without a preflight the checks are skipped for files byte for byte as they were when they last passed them
    (core.game_cache): a map or rules question does not check the whole game again.
    """
    folder = resolve_game_folder(game)
    key = game_key(folder) if preflight is Preflight.NONE else None
    with collector_paused():  # reading and checking make many small objects that all live on
        loaded = read_game(folder)
        if key is not None and recall(key, VALID) and game_key(folder) == key:
            return loaded
        found = problems(loaded, preflight)
    if found:
        raise DataError(found)
    if key is not None and game_key(folder) == key:
        keep(key, VALID, True)
    return loaded


def nothing_to_cut_out(game: Game) -> str | None:
    """A warning when `game` has no pieces and no tiles to print (its roster missing or empty), else None."""
    if game.count() or game.tiles:
        return None
    roster = game.file("pieces.yaml")
    why = f"{display_path(roster)} lists no pieces" if game.has_file("pieces.yaml") else f"there is no {display_path(roster)}"
    return (f"{game.name} has nothing to cut out: {why} and the game has no tiles, so no counter or tile sheet is "
            "printed; `dossier new` shows how a roster is written")
