"""What `dossier build` makes: a list of products, each a function that writes some files for a game.

A product takes (game, settings), the print settings resolved once for the game's layout
(printing/settings.py), and returns the documents it drew, or [] when the game has nothing for
it (no tiles, no map...). Nothing is written while drawing: the command publishes every game's
documents at once, each folder as one set swapped in whole, never outside the output folder
(see printing/render.py and core/atomic.py).
"""

from __future__ import annotations

import importlib
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


def build_game(game: "Game", settings: "PrintSettings", on_step: Callable[[str], None] | None = None) -> list["Document"]:
    """Every product (or those in settings.only) for `game`, drawn and not yet written."""
    from .printing.preflight import texts_refused_as_validate_does

    documents: list["Document"] = []
    with texts_refused_as_validate_does(game):
        for name in settings.only or tuple(PRODUCTS):
            if on_step:
                on_step(name)
            documents += product(name)(game, settings)
    return documents
