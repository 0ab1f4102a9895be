"""What a build prints with: the command line's choices over the layout's defaults, resolved once.

`PrintSettings.resolve(options, game.layout)` is the only place an option left unsaid ("as the
layout says") is filled in, and where a choice the paper cannot hold is refused, before anything
is drawn. Every product then takes `(game, settings)` and asks nothing more of the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import OptionError
from .options import BuildOptions

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout, Size


@dataclass(frozen=True)
class PrintSettings:
    """Every choice a product prints with, none left open.

    `paper_name` is the paper as the user or the layout names it (for the print advice);
    `backs` how backs print on cut sheets (long-edge, short-edge or fold); `piece_size` and
    `card_size` replace the layout's counter and card sizes when given (see counters.piece_size).
    """

    layout: "Layout"
    out: Path
    paper_name: str
    paper: "Size"
    formats: tuple[str, ...]
    duplex: str
    backs: str
    bleed: float
    back_offset: tuple[float, float]
    piece_size: tuple[float, float] | None
    card_size: tuple[float, float] | None
    only: tuple[str, ...]
    dpi: int

    @property
    def fold(self) -> bool:
        return self.backs == "fold"

    @classmethod
    def resolve(cls, options: BuildOptions, layout: "Layout") -> "PrintSettings":
        """The settings `options` make with `layout`; an unknown paper or a size or bleed the paper
        cannot hold raises (UnknownNameError, OptionError) before anything is drawn."""
        paper = layout.paper_size(options.paper)
        settings = cls(
            layout=layout, out=options.out, paper_name=options.paper or layout.paper, paper=paper,
            formats=options.formats, duplex=options.duplex, backs="fold" if options.fold else options.duplex,
            bleed=layout.bleed if options.bleed is None else options.bleed, back_offset=options.back_offset,
            piece_size=options.piece_size, card_size=options.card_size, only=options.only, dpi=options.dpi,
        )
        _refuse_misfits(settings, options.bleed)
        return settings

    @classmethod
    def of_layout(cls, layout: "Layout") -> "PrintSettings":
        """The settings of a build that asks for nothing: everything as `layout` says."""
        return cls.resolve(BuildOptions(), layout)

    def game_dir(self, game: "Game") -> Path:
        """The folder this build writes the game's files into: OUT/<the game folder's name>."""
        return self.out / game.output_name


def _refuse_misfits(settings: PrintSettings, bleed_asked: float | None) -> None:
    """Refuse, naming the option, a --piece-size or --card-size larger than the sheet prints and a
    --bleed wider than the sheet's margin."""
    margin = settings.layout.cut_sheet_margin  # pieces and cards print on cut sheets
    if bleed_asked is not None and bleed_asked > margin:
        raise OptionError(f"--bleed: {bleed_asked:g} mm is more than the sheet's {margin:g} mm margin "
                          "(layout `sheet_margin`); a bleed carries colour a millimetre or two past each cut, e.g. --bleed 1mm")
    paper_width, paper_height = settings.paper.width, settings.paper.height
    width, height = paper_width - 2 * margin, paper_height - 2 * margin
    if settings.fold:  # fronts on one half, backs on the other, half a margin each side of the fold
        if paper_width <= paper_height:
            width = paper_width / 2 - 1.5 * margin
        else:
            height = paper_height / 2 - 1.5 * margin
    bleed = settings.bleed
    room = (width - 2 * bleed, height - 2 * bleed)
    for option, size in (("--piece-size", settings.piece_size), ("--card-size", settings.card_size)):
        if size and (size[0] > room[0] + 1e-9 or size[1] > room[1] + 1e-9):
            sheet = f"{paper_width:g} x {paper_height:g} mm paper" + (" folded in half" if settings.fold else "")
            raise OptionError(f"{option}: {size[0]:g} x {size[1]:g} mm does not fit on {sheet}, which prints "
                              f"{max(room[0], 0):g} x {max(room[1], 0):g} mm inside its {margin:g} mm margins"
                              + (f" and {bleed:g} mm bleed" if bleed else ""))
