"""VASSAL's SequenceEncoder: how a module writes a list of values as one string (VASSAL.tools.SequenceEncoder).

Values are joined by a delimiter; a delimiter inside a value is escaped with a backslash, and a
value that ends with a backslash (which would escape the delimiter after it) or is wrapped in single
quotes is wrapped in single quotes once more, so that VASSAL's decoder gives back exactly what was
written (SequenceEncoder.append(String) in VASSAL 3.7).
"""

from __future__ import annotations

from collections.abc import Iterable

Value = str | int | float | bool | None


def encode(values: Iterable[Value], delimiter: str) -> str:
    """`values` as one string, the way VASSAL's SequenceEncoder(delimiter) appends them."""
    return delimiter.join(_token(value, delimiter) for value in values)


def _token(value: Value, delimiter: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, float):
        text = repr(value)  # 1.0, as Java's String.valueOf(double) writes it
    else:
        text = str(value)
    if not text:
        return ""
    escaped = text.replace(delimiter, "\\" + delimiter)
    if text.endswith("\\") or (text.startswith("'") and text.endswith("'")):
        return f"'{escaped}'"
    return escaped
