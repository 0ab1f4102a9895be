"""Lengths as people write them ("5/8in", "16mm", "0.4mm,-0.2mm"), converted to millimetres."""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import OptionError

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, '"': 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|\"|pt)?\s*$")


def parse_length(text: str | float | int, default_unit: str = "mm") -> float:
    """Millimetres for a length such as "16mm", "5/8in", "1.5 cm" or "36pt"; a bare number is in `default_unit`."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text) * MM_PER_UNIT[default_unit]
    match = _LENGTH.match(str(text))
    if not match:
        raise OptionError(f"cannot read {text!r} as a length; write it like 12.7mm, 1.5cm, 5/8in or 36pt")
    number, unit = match.groups()
    try:
        value = float(Fraction(number))
    except ZeroDivisionError:
        raise OptionError(f"cannot read {text!r} as a length: division by zero") from None
    return value * MM_PER_UNIT[unit or default_unit]


def parse_offset(text: str) -> tuple[float, float]:
    """An (x, y) shift in millimetres from "0.4mm,-0.2mm"; one value shifts x only."""
    parts = [p for p in str(text).split(",")]
    if len(parts) not in (1, 2) or not all(p.strip() for p in parts):
        raise OptionError(f"cannot read {text!r} as an offset; write it like 0.4mm,-0.2mm")
    x = parse_length(parts[0])
    y = parse_length(parts[1]) if len(parts) == 2 else 0.0
    return x, y


def mm_to_pt(mm: float) -> float:
    """PDF points (1/72 inch) for a length in millimetres."""
    return mm * 72 / 25.4


def pt_to_mm(pt: float) -> float:
    """Millimetres for a length in PDF points."""
    return pt * 25.4 / 72
