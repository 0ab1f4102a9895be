"""What a user chooses on the command line for printed sheets (paper, formats, duplex or fold, sizes,
bleed, back offset), read from text into BuildOptions before anything is drawn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..core import paths
from ..core.errors import OptionError
from ..core.units import parse_length

if TYPE_CHECKING:
    from ..core.game import Game

T = TypeVar("T")

FORMATS = ("pdf", "svg", "png")
DUPLEX = ("long-edge", "short-edge")


@dataclass(frozen=True)
class BuildOptions:
    """Choices a user makes on the command line; None means "as the layout says"."""

    out: Path = paths.OUTPUT
    paper: str | None = None
    formats: tuple[str, ...] = ("pdf",)
    duplex: str = "long-edge"
    fold: bool = False
    piece_size: tuple[float, float] | None = None
    card_size: tuple[float, float] | None = None
    bleed: float | None = None
    back_offset: tuple[float, float] = (0.0, 0.0)
    only: tuple[str, ...] = field(default_factory=tuple)
    dpi: int = 150  # resolution of the PNG previews

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


def read_option(option: str, parse: Callable[[str], T], text: str) -> T:
    """parse(text), a refusal naming the option the text came from."""
    try:
        return parse(text)
    except OptionError as exc:
        raise OptionError(f"{option}: {exc}") from None


