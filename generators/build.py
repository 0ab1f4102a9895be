"""What `dossier build` makes: a list of products, each a function that writes some files for a game.

A product takes (game, settings), the print settings resolved once for the game's layout
(printing/settings.py), and returns the documents it drew, or [] when the game has nothing for
it (no tiles, no map...). Nothing is written while drawing: the command publishes every game's
documents at once, each folder as one set swapped in whole, never outside the output folder
(see printing/render.py and core/atomic.py).

The products are independent, so on a machine with more than one core they are drawn side by side: this
process and one forked copy of it each take the next product as they get free, and the copy hands back
what it drew. The documents are the same bytes in the same order as when drawn one after another, and
a product that fails is drawn again here, so the build refuses exactly as it would one by one.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .core import paths
from .core.errors import OptionError
from .core.units import parse_offset
from .printing.options import (
    DUPLEX,
    BuildOptions,
    parse_bleed,
    parse_choices,
    parse_formats,
    parse_size,
    read_option,
)

if TYPE_CHECKING:
    from .core.game import Game
    from .printing.render import Document
    from .printing.settings import PrintSettings

# name -> "module:function"; each product is imported only when a build runs.
PRODUCTS: dict[str, str] = {
    "counters": "generators.printing.counters:build_counters",
    "tiles": "generators.printing.event_tiles:build_tiles",
    "cards": "generators.printing.card_sheets:build_cards",
    "player-aid": "generators.printing.player_aid:build_player_aid",
    "map": "generators.map.poster:build_map",
    "display": "generators.map.display:build_display",
    "boards": "generators.map.track_board:build_boards",
}


# What a player aid's sheet holds when the game's layout says `one_sheet`: built only when asked for by name.
ON_THE_AID = ("counters", "cards")


def products_of(game: "Game") -> tuple[str, ...]:
    """The products a build makes of `game` when --only names none."""
    held = ON_THE_AID if game.layout.one_sheet else ()
    return tuple(name for name in PRODUCTS if name not in held)


def make_options(out: Path = paths.OUTPUT, paper: str | None = None, formats: str = "pdf", duplex: str = "long-edge",
                 fold: bool = False, piece_size: str | None = None, card_size: str | None = None,
                 bleed: str | None = None, back_offset: str | None = None,
                 only: tuple[str, ...] = (), dpi: int = 150) -> BuildOptions:
    """BuildOptions from command-line text; anything unreadable raises OptionError before a file is written."""
    if duplex not in DUPLEX:
        raise OptionError(f"unknown duplex {duplex!r}; choose long-edge or short-edge")
    if not 10 <= dpi <= 1200:
        raise OptionError(f"--dpi: {dpi} is outside 10 to 1200")
    return BuildOptions(
        out=Path(out), paper=paper, formats=read_option("--format", parse_formats, formats), duplex=duplex, fold=fold,
        piece_size=read_option("--piece-size", parse_size, piece_size) if piece_size else None,
        card_size=read_option("--card-size", parse_size, card_size) if card_size else None,
        bleed=read_option("--bleed", parse_bleed, bleed) if bleed is not None else None,
        back_offset=read_option("--back-offset", parse_offset, back_offset) if back_offset else (0.0, 0.0),
        only=read_option("--only", lambda names: parse_choices(names, tuple(PRODUCTS), "product"), only) if only else (),
        dpi=dpi,
    )


def product(name: str) -> Callable[["Game", "PrintSettings"], list["Document"]]:
    """The function that builds product `name`."""
    module, function = PRODUCTS[name].split(":")
    return getattr(importlib.import_module(module), function)


# Started before the others when products are drawn side by side: the one that takes longest, so that both
# processes finish together.
FIRST = ("map",)


def build_game(game: "Game", settings: "PrintSettings", on_step: Callable[[str], None] | None = None) -> list["Document"]:
    """Every product (or those in settings.only) for `game`, drawn and not yet written."""
    return build_all([(game, settings)], None if on_step is None else lambda _, name: on_step(name))


def build_all(jobs: list[tuple["Game", "PrintSettings"]], on_step: Callable[["Game", str], None] | None = None,
              cores: int | None = None) -> list["Document"]:
    """Every product (or those in its settings.only) of every game in `jobs`, drawn and not yet written, in the
    order of `jobs` and PRODUCTS; on `cores` (all this process may use unless given) side by side when more than one.
    `on_step(game, product)` is told of each product drawn in this process."""
    from .printing.preflight import texts_refused_as_validate_does

    tasks = [(game, settings, name) for game, settings in jobs for name in settings.only or products_of(game)]

    def draw(i: int, report: bool = True) -> list["Document"]:
        game, settings, name = tasks[i]
        if on_step and report:
            on_step(game, name)
        with texts_refused_as_validate_does(game):
            return product(name)(game, settings)

    first = [i for i, (_, _, name) in enumerate(tasks) if name in FIRST]
    order = first + [i for i in range(len(tasks)) if i not in first]
    done = _side_by_side(draw, order, usable_cores() if cores is None else cores)
    documents: list["Document"] = []
    for i in range(len(tasks)):
        result = done.get(i)
        if isinstance(result, Exception):
            raise result
        documents += draw(i) if result is None else result  # not drawn yet, or failed in the copy: drawn here
    return documents


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _side_by_side(draw: Callable[..., list["Document"]], order: list[int], cores: int) -> dict[int, "list[Document] | Exception"]:
    """The tasks of `order` (at most 255) drawn by this process and a forked copy, each taking the next one in
    `order` as it gets free: by task, its documents or, drawn here, the exception it raised. A task the copy
    failed at (or never sent, had it died) is missing, to be drawn again here. Nothing is drawn side by side
    with one core, without fork, or while other threads run (a forked copy would hold their locks)."""
    import threading

    if cores < 2 or len(order) < 2 or not hasattr(os, "fork") or threading.active_count() > 1:
        return {}
    import gc
    import pickle
    import signal

    tickets, handed = os.pipe()  # one byte a task, in order: a read takes a task no other reader gets
    os.write(handed, bytes(order[:255]))
    os.close(handed)
    results, sent = os.pipe()
    gc.freeze()  # what exists now is the copy's too: its collector leaves it alone, so its pages stay shared
    pid = os.fork()
    if pid == 0:  # the copy: draws, sends what it drew, and leaves without running the parent's exit handlers
        status = 1
        try:
            os.close(results)
            finished = {}
            for i in _taken(tickets):
                try:
                    finished[i] = draw(i, report=False)
                except Exception:
                    _drain(tickets)  # what comes after a failure is not needed
            with os.fdopen(sent, "wb") as out:
                pickle.dump(finished, out, protocol=pickle.HIGHEST_PROTOCOL)
            status = 0
        finally:
            os._exit(status)
    gc.unfreeze()
    os.close(sent)
    done: dict[int, "list[Document] | Exception"] = {}
    reaped = False
    with os.fdopen(results, "rb") as received:
        try:
            for i in _taken(tickets):
                try:
                    done[i] = draw(i)
                except Exception as exc:
                    done[i] = exc
                    _drain(tickets)
            data = received.read()
            os.waitpid(pid, 0)
            reaped = True
        finally:
            os.close(tickets)
            if not reaped:  # interrupted here: the copy's work is not wanted
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    try:
        done.update((i, d) for i, d in pickle.loads(data).items() if i not in done)
    except Exception:  # the copy died before sending all it drew: its tasks are drawn again here
        pass
    return done


def _taken(tickets: int):
    """The tasks this process takes from the `tickets` pipe, one at a time, until none is left."""
    while True:
        ticket = os.read(tickets, 1)
        if not ticket:
            return
        yield ticket[0]


def _drain(tickets: int) -> None:
    while os.read(tickets, 4096):
        pass
