"""What a user chooses on the command line for printed sheets (paper, formats, duplex or fold, sizes,
bleed, back offset, products), read from text into BuildOptions before anything is drawn; the
layout fills in what is left unsaid once, in PrintSettings.resolve (settings.py).

Every length on the command line names its unit (mm, cm, in, pt; fractions such as 5/8in), so a
bare "5/8" is refused instead of read as millimetres; 0 alone needs none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..core import paths
from ..core.errors import OptionError
from ..core.units import parse_length

if TYPE_CHECKING:
    from ..core.game import Game

T = TypeVar("T")
S = TypeVar("S")

FORMATS = ("pdf", "svg", "png")
DUPLEX = ("long-edge", "short-edge")
UNITS = ("mm", "cm", "in", "pt", '"')


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


def refuse_shared_folders(games: Sequence["Game"], out: Path) -> None:
    """Refuse a run in which two games would write into one folder under `out` (names compared as a
    case-insensitive file system would), before either is built or exported."""
    seen: dict[str, "Game"] = {}
    for game in games:
        other = seen.setdefault(game.output_name.casefold(), game)
        if other.folder != game.folder:
            raise OptionError(f"{other.folder} and {game.folder} would both write into {out / game.output_name}; "
                              "build them one at a time with different --out folders, or rename one folder")


def parse_formats(text: str) -> tuple[str, ...]:
    """("pdf", "svg") from "pdf,svg"; unknown formats raise OptionError."""
    return parse_choices([text], FORMATS, "format")


def parse_choices(texts: Iterable[str], choices: Sequence[str], what: str) -> tuple[str, ...]:
    """The choices named in `texts`, each comma-separated and in any case ("cards,player-aid"), in order,
    each once; an unknown one raises OptionError listing them all."""
    chosen = tuple(dict.fromkeys(c.strip().lower() for text in texts for c in text.split(",") if c.strip()))
    unknown = [c for c in chosen if c not in choices]
    if unknown or not chosen:
        raise OptionError(f"unknown {what} {', '.join(unknown) or repr(','.join(texts))}; choose from {', '.join(choices)}")
    return chosen


def _has_unit(text: str) -> bool:
    return text.strip().endswith(UNITS)


def parse_size(text: str) -> tuple[float, float]:
    """(width, height) in mm from "16mm", "5/8in" (square) or "63x88mm", "2.5inx3.5in"; the unit after
    the second number also serves the first."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 1:
        side = parse_length(parts[0], None)
        size = (side, side)
    elif len(parts) == 2:
        unit = next((u for u in UNITS if parts[1].strip().endswith(u)), "")
        if not unit and not _has_unit(parts[0]):
            width, height = (p.strip() for p in parts)
            raise OptionError(f"{text!r} has no unit; write it like {width}x{height}mm or {width}x{height}in "
                              "(mm, cm, in or pt after the height serves both)")
        first = parts[0] if _has_unit(parts[0]) else parts[0] + unit
        size = (parse_length(first, None), parse_length(parts[1], None))
    else:
        raise OptionError(f"cannot read {text!r} as a size; write it like 16mm, 5/8in or 63x88mm")
    if min(size) <= 0:
        raise OptionError(f"size {text!r} must be larger than zero")
    return size


def parse_bleed(text: str) -> float:
    """The bleed in mm from "1mm" or "1/8in"; a negative bleed is refused."""
    bleed = parse_length(text, None)
    if bleed < 0:
        raise OptionError("cannot be negative")
    return bleed


def read_option(option: str, parse: Callable[[S], T], text: S) -> T:
    """parse(text), a refusal naming the option the text came from."""
    try:
        return parse(text)
    except OptionError as exc:
        raise OptionError(f"{option}: {exc}") from None
