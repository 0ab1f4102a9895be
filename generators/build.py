"""What `dossier build` makes: a list of products, each a function that writes some files for a game.

A product takes (game, layout, options) and returns the files it wrote, or [] when the game
has nothing for it (no tiles, no map...). Products write atomically (see atomic.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from .errors import OptionError
from .units import parse_length, parse_offset

if TYPE_CHECKING:
    from .layouts import Layout
    from .loader import Game

T = TypeVar("T")

FORMATS = ("pdf", "svg", "png")
DUPLEX = ("long-edge", "short-edge")

# name -> "module:function"; each product is imported only when a build runs.
PRODUCTS: dict[str, str] = {
    "counters": "generators.counters:build_counters",
    "tiles": "generators.tiles:build_tiles",
    "cards": "generators.card_sheets:build_cards",
    "player-aid": "generators.player_aid:build_player_aid",
    "map": "generators.poster:build_map",
}


@dataclass(frozen=True)
class BuildOptions:
    """Choices a user makes on the command line; None means "as the layout says"."""

    out: Path = Path("output")
    paper: str | None = None
    formats: tuple[str, ...] = ("pdf",)
    duplex: str = "long-edge"
    fold: bool = False
    piece_size: tuple[float, float] | None = None
    card_size: tuple[float, float] | None = None
    bleed: float | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    only: tuple[str, ...] = field(default_factory=tuple)

    def game_dir(self, game: "Game") -> Path:
        """The folder this build writes the game's files into: OUT/<game>."""
        return self.out / game.name


def parse_formats(text: str) -> tuple[str, ...]:
    """("pdf", "svg") from "pdf,svg"; unknown formats raise OptionError."""
    chosen = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown or not chosen:
        raise OptionError(f"unknown format {', '.join(unknown) or repr(text)}; choose from {', '.join(FORMATS)}")
    return chosen


def parse_size(text: str) -> tuple[float, float]:
    """(width, height) in mm from "16mm", "5/8in" (square) or "63x88mm", "2.5inx3.5in"."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 1:
        side = parse_length(parts[0])
        size = (side, side)
    elif len(parts) == 2:
        unit = next((u for u in ("mm", "cm", "in", "pt") if parts[1].strip().endswith(u)), "mm")
        first = parts[0] if any(parts[0].strip().endswith(u) for u in ("mm", "cm", "in", "pt")) else parts[0] + unit
        size = (parse_length(first), parse_length(parts[1]))
    else:
        raise OptionError(f"cannot read {text!r} as a size; write it like 16mm, 5/8in or 63x88mm")
    if min(size) <= 0:
        raise OptionError(f"size {text!r} must be larger than zero")
    return size


def _read(option: str, parse: Callable[[str], T], text: str) -> T:
    """parse(text), a refusal naming the option the text came from."""
    try:
        return parse(text)
    except OptionError as exc:
        raise OptionError(f"{option}: {exc}") from None


def make_options(out: Path, paper: str | None = None, formats: str = "pdf", duplex: str = "long-edge",
                 fold: bool = False, piece_size: str | None = None, card_size: str | None = None,
                 bleed: str | None = None, back_offset: str | None = None,
                 only: tuple[str, ...] = ()) -> BuildOptions:
    """BuildOptions from command-line text; anything unreadable raises OptionError before a file is written."""
    if duplex not in DUPLEX:
        raise OptionError(f"unknown duplex {duplex!r}; choose long-edge or short-edge")
    bleed_mm = _read("--bleed", parse_length, bleed) if bleed is not None else None
    if bleed_mm is not None and bleed_mm < 0:
        raise OptionError("--bleed: cannot be negative")
    unknown = [p for p in only if p not in PRODUCTS]
    if unknown:
        raise OptionError(f"unknown product {', '.join(unknown)}; choose from {', '.join(PRODUCTS)}")
    return BuildOptions(
        out=Path(out), paper=paper, formats=_read("--format", parse_formats, formats), duplex=duplex, fold=fold,
        piece_size=_read("--piece-size", parse_size, piece_size) if piece_size else None,
        card_size=_read("--card-size", parse_size, card_size) if card_size else None,
        bleed=bleed_mm, back_offset=_read("--back-offset", parse_offset, back_offset) if back_offset else (0.0, 0.0),
        only=tuple(only),
    )


def product(name: str) -> Callable[["Game", "Layout", BuildOptions], list[Path]]:
    """The function that builds product `name`."""
    module, function = PRODUCTS[name].split(":")
    return getattr(importlib.import_module(module), function)


def build_game(game: "Game", options: BuildOptions, on_step: Callable[[str], None] | None = None) -> list[Path]:
    """Every product (or those in options.only) for `game`; returns the files written."""
    from .export import held_writes

    layout = game.layout
    layout.paper_size(options.paper)  # an unknown paper is refused before anything is written
    written: list[Path] = []
    with held_writes():  # a product refused late leaves no file of the earlier ones
        for name in options.only or tuple(PRODUCTS):
            if on_step:
                on_step(name)
            written += product(name)(game, layout, options)
    return written
