"""The tint a value set on stands out by: a chip behind a value that is this edition's reading rather than given
(marked "1*"), which a player may write over, and the field a value is written into."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..core.models import ASSUMED_MARK
from ..core.units import pt_to_mm
from .fonts import unit_width

if TYPE_CHECKING:
    from .painter import Painter
    from .textfit import FittedText

WRITE_TINT = "#fbeec4"  # the field a value is written into, and the chip behind a value assumed rather than given
ASSUMED_VALUE = re.compile(r"(?<!\S)[^\s*]{1,4}" + re.escape(ASSUMED_MARK))  # a short value marked assumed ("1*", "4*")


def draw_chip(painter: "Painter", x: float, baseline: float, width: float, size: float) -> None:
    """The chip behind a value `width` mm wide set at `size` pt from (x, baseline)."""
    cap = pt_to_mm(size)
    pad = cap * 0.18
    painter.rect(x - pad, baseline - cap * 0.82, width + 2 * pad, cap * 1.05, fill=WRITE_TINT)


def draw_line_chips(painter: "Painter", text: str, x: float, baseline: float, font: str, size: float) -> None:
    """A chip behind each short value marked assumed in one line of `text` set from (x, baseline), drawn before it."""
    for match in ASSUMED_VALUE.finditer(text):
        start = x + pt_to_mm(unit_width(text[:match.start()], font) * size)
        draw_chip(painter, start, baseline, pt_to_mm(unit_width(match.group(), font) * size), size)


def draw_assumed_chips(painter: "Painter", fitted: "FittedText", x: float, y: float) -> None:
    """A chip behind each short value marked assumed in a set block whose top-left is (x, y), so a value that is
    this edition's reading stands out from those given, and can be written over; drawn before the block."""
    for line in fitted.lines:
        if not line.symbol:
            draw_line_chips(painter, line.text, x + line.x, y + line.baseline, line.font, line.size)
