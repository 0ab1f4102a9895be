"""Turning pydantic's validation errors into Problems a person can act on."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from .errors import Problem
from .limits import shown

KEY = "[key]"  # pydantic's last step in a location when a mapping's key, not its value, is wrong


def field_path(loc: tuple) -> str:
    """"tiles[12].entries[1].kind" from pydantic's ("tiles", 12, "entries", 1, "kind")."""
    text = ""
    for part in loc:
        if part == KEY:
            continue
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _message(error: dict) -> str:
    kind = error["type"]
    got = shown(error.get("input"))
    ctx = error.get("ctx") or {}
    if kind == "literal_error":
        return f"expected {ctx.get('expected')}, got {got}"
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {got}"
    if kind in ("float_parsing", "float_type"):
        return f"expected a number, got {got}"
    if kind in ("bool_parsing", "bool_type"):
        return f"expected true or false, got {got}"
    if kind in ("string_type",):
        return f"expected text, got {got}"
    if kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        wanted = {"list_type": "a list", "dict_type": "a mapping"}.get(kind, "a mapping")
        return f"expected {wanted}, got {got}"
    message = error["msg"]
    if message.startswith("Value error, "):
        return message[len("Value error, "):]
    message = message[0].lower() + message[1:]
    raw = error.get("input")
    return f"{message}, got {got}" if raw is not None and not isinstance(raw, dict) else message


def problems_from_validation(exc: ValidationError, file: Path, prefix: tuple = ()) -> list[Problem]:
    """One Problem per error in `exc`, each naming `file` and the field path."""
    problems = []
    for error in exc.errors():
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        message = _message(error)
        if loc and loc[-1] == KEY:
            message = f"as a key, {message}"
        problems.append(Problem(Path(file), field_path(prefix + loc), message, error["type"]))
    return problems
