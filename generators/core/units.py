"""Lengths as people write them ("16mm", "5/8in", "1.5 cm", "36pt") read into millimetres, and back to points."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .errors import OptionError

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, '"': 25.4, "pt": 25.4 / 72}
UNITS = "mm, cm, in or pt"
# Longest text read as a length, and the largest length: ten metres is beyond any sheet or poster,
# and the caps keep a pasted run of digits from costing time or crashing int() (4,300 digits at most).
MAX_TEXT = 40
MAX_MM = 10_000.0
_LENGTH = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|\"|pt)?\s*$")


def _shown(text: object) -> str:
    """`text` as a message quotes it, cut to a readable length."""
    return repr(text) if len(str(text)) <= MAX_TEXT else repr(f"{str(text)[:MAX_TEXT]}…")


def _checked(mm: float, text: object) -> float:
    if not math.isfinite(mm) or abs(mm) > MAX_MM:
        raise OptionError(f"{_shown(text)} is too large: a length is at most {MAX_MM / 1000:g} m")
    return mm


def parse_length(text: str | float | int, default_unit: str | None = "mm") -> float:
    """Millimetres for a length such as "16mm", "5/8in", "1.5 cm" or "36pt".

    A bare number is in `default_unit`; with `default_unit=None` a bare number other than 0 is
    refused, so "5/8" is never read as 5/8 mm.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if default_unit is None and text != 0:
            raise OptionError(f"{_shown(text)} has no unit; write it like 12.7mm, 1.5cm, 5/8in or 36pt")
        try:
            return _checked(float(text) * MM_PER_UNIT[default_unit or "mm"], text)
        except OverflowError:
            raise OptionError(f"{_shown(text)} is too large: a length is at most {MAX_MM / 1000:g} m") from None
    if len(str(text)) > MAX_TEXT:
        raise OptionError(f"{_shown(text)} is too long to be a length; write it like 12.7mm, 1.5cm, 5/8in or 36pt")
    match = _LENGTH.match(str(text))
    if not match:
        raise OptionError(f"cannot read {_shown(text)} as a length; write it like 12.7mm, 1.5cm, 5/8in or 36pt")
    number, unit = match.groups()
    try:
        value = Fraction(number)
    except ZeroDivisionError:
        raise OptionError(f"cannot read {_shown(text)} as a length: division by zero") from None
    if unit is None and default_unit is None and value != 0:
        raise OptionError(f"{_shown(text)} has no unit; write it like {number}mm or {number}in ({UNITS})")
    return _checked(float(value) * MM_PER_UNIT[unit or default_unit or "mm"], text)


def parse_offset(text: str) -> tuple[float, float]:
    """An (x, y) shift in millimetres from "0.4mm,-0.2mm", units required; one value alone is refused
    (is it across, or both?), so a shift of both axes is written twice: "0.4mm,0.4mm"."""
    parts = str(text).split(",")
    if len(parts) == 1 and parts[0].strip():
        value = parts[0].strip()
        parse_length(value, None)  # an unreadable value says so first
        raise OptionError(f"{_shown(text)} is one value; write both shifts as x,y: {value},0 shifts across only, "
                          f"{value},{value} shifts both")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise OptionError(f"cannot read {_shown(text)} as an offset; write it as x,y like 0.4mm,-0.2mm")
    return parse_length(parts[0], None), parse_length(parts[1], None)


def mm_to_pt(mm: float) -> float:
    """PDF points (1/72 inch) for a length in millimetres."""
    return mm * 72 / 25.4


def pt_to_mm(pt: float) -> float:
    """Millimetres for a length in PDF points."""
    return pt * 25.4 / 72
