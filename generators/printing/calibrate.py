"""A duplex alignment target: crosshairs on the front, scales behind them on the back.

Held against the light, each front crosshair's lines cross the back's scales at two numbers:
those are the x and y a user gives as `--back-offset x,y` (x to the right, y upwards, as the back
page is seen) so that backs land behind fronts on that printer. Targets sit at the centre and
near the corners, because many printers also skew or stretch the back a little.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .fonts import FontSet, register_fonts
from .geometry import Box
from .imposition import Backs, SheetSpec, back_box, print_advice
from .painter import Anchor
from .render import Document, draw_document

if TYPE_CHECKING:
    from ..core.game import Game
    from .settings import PrintSettings
    from .painter import Painter

REACH = 4.0  # mm either side of zero the scales read
TICK = 0.5  # mm between ticks
LABEL_EVERY = 4  # ticks between numbered ticks (every 2 mm: closer numbers would run together)
INSET = 30.0  # mm from the paper's edges to the corner targets
ARM = 14.0  # mm: half the length of a crosshair line


def targets(paper: tuple[float, float]) -> list[tuple[float, float]]:
    """Where the crosshairs go on the front: the centre and near each corner, in mm."""
    width, height = paper
    return [(width / 2, height / 2), (INSET, INSET), (width - INSET, INSET),
            (INSET, height - INSET), (width - INSET, height - INSET)]


def _front(painter: "Painter", spec: SheetSpec, fonts: FontSet) -> None:
    width, height = spec.paper
    painter.new_page(width, height)
    lines = [
        "Duplex alignment target · print this page double-sided at 100% (no \"fit to page\"),",
        f"flipping on the {spec.backs.value.replace('-', ' ')}. Hold the sheet against a light. At each target, read",
        "where the front's vertical line crosses the back's horizontal scale (x) and where its",
        "horizontal line crosses the back's vertical scale (y). Average the five readings and build with",
        "--back-offset x,y (in mm). Printed with back offset "
        f"{spec.back_offset[0]:g},{spec.back_offset[1]:g} mm: add your readings to it.",
    ]
    for i, line in enumerate(lines):
        painter.text(width / 2, height / 2 - 58 + i * 4.2, line, fonts.regular, 8, "#000000", Anchor.MIDDLE)
    for x, y in targets(spec.paper):
        painter.line(x - ARM, y, x + ARM, y, "#000000", 0.4)
        painter.line(x, y - ARM, x, y + ARM, "#000000", 0.4)
        painter.circle(x, y, 2.0, stroke="#000000", line_width=0.4)


def _scale_x(painter: "Painter", x: float, y: float, fonts: FontSet) -> None:
    """A horizontal scale centred on x at height y: value t sits t mm to the right."""
    steps = int(round(REACH / TICK))
    for k in range(-steps, steps + 1):
        t = k * TICK
        major = k % 2 == 0
        painter.line(x + t, y, x + t, y + (3.0 if major else 1.8), "#000000", 0.3 if major else 0.2)
        if k % LABEL_EVERY == 0:
            painter.text(x + t, y + 5.2, f"{t:+g}" if t else "0", fonts.regular, 4.5, "#000000", Anchor.MIDDLE)
    painter.line(x - REACH, y, x + REACH, y, "#000000", 0.3)
    painter.text(x + REACH + 1.5, y + 2.5, "x", fonts.bold, 6, "#000000", Anchor.START)


def _scale_y(painter: "Painter", x: float, y: float, fonts: FontSet) -> None:
    """A vertical scale centred on y at x: value v sits v mm above (y grows downwards on the page)."""
    steps = int(round(REACH / TICK))
    for k in range(-steps, steps + 1):
        v = k * TICK
        major = k % 2 == 0
        painter.line(x, y - v, x + (3.0 if major else 1.8), y - v, "#000000", 0.3 if major else 0.2)
        if k % LABEL_EVERY == 0:
            painter.text(x + 3.8, y - v + 0.6, f"{v:+g}" if v else "0", fonts.regular, 4.5, "#000000", Anchor.START)
    painter.line(x, y - REACH, x, y + REACH, "#000000", 0.3)
    painter.text(x, y - REACH - 1.5, "y", fonts.bold, 6, "#000000", Anchor.MIDDLE)


def _back(painter: "Painter", spec: SheetSpec, fonts: FontSet) -> None:
    width, height = spec.paper
    painter.new_page(width, height)
    painter.text(width / 2, height / 2 - 50, "Back of the alignment target: read the scales through the paper.",
                 fonts.regular, 8, "#000000", Anchor.MIDDLE)
    for x, y in targets(spec.paper):
        behind = back_box(Box(x, y, 0.0, 0.0), spec)
        # the x scale sits below the target's centre, the y scale to its right, clear of each other
        _scale_x(painter, behind.x, behind.y + 7.0, fonts)
        _scale_y(painter, behind.x + 7.0, behind.y, fonts)


def build_calibration(game: "Game", settings: "PrintSettings", path: Path) -> Document:
    """The two-page alignment target for the settings' paper, duplex edge and back offset, to go to `path`
    (beside a user's own files: each file is replaced on its own)."""
    paper = settings.paper
    spec = SheetSpec(paper=(paper.width, paper.height), item=(0.0, 0.0), margin=game.layout.margin,
                     backs=Backs(settings.duplex), back_offset=settings.back_offset, paper_name=settings.paper_name)
    fonts = register_fonts(game.layout.fonts, game.folder)

    def draw(painter: "Painter") -> None:
        _front(painter, spec, fonts)
        _back(painter, spec, fonts)

    document = draw_document(path, draw, fonts, settings.formats, title="Duplex alignment target",
                             advice=print_advice(spec), dpi=settings.dpi)
    return replace(document, shares_folder=True)
