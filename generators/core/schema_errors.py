"""Turning pydantic's validation errors into Problems a person can act on."""

from __future__ import annotations

import difflib
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import Problem
from .limits import shown

KEY = "[key]"  # pydantic's last step in a location when a mapping's key, not its value, is wrong
COLOUR_PATTERN = r"^#[0-9a-fA-F]{6}$"  # how every colour in the data is written


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
    if kind == "too_long":
        return f"{ctx.get('actual_length', 0):,} entries; at most {ctx.get('max_length', 0):,} are allowed here"
    if kind in ("list_type", "dict_type", "model_type", "model_attributes_type"):
        wanted = {"list_type": "a list", "dict_type": "a mapping"}.get(kind, "a mapping")
        return f"expected {wanted}, got {got}"
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == COLOUR_PATTERN:
        return f"{got} is not a colour: write #rrggbb, like #d55e00"
    message = error["msg"]
    if message.startswith("Value error, "):
        return message[len("Value error, "):]
    message = message[0].lower() + message[1:]
    raw = error.get("input")
    return f"{message}, got {got}" if raw is not None and not isinstance(raw, dict) else message


def unwrapped(kind: Any) -> list[Any]:
    """The types a field of type `kind` may hold: Optional and unions opened, Annotated's extras dropped."""
    origin = typing.get_origin(kind)
    if origin is typing.Annotated:
        return unwrapped(typing.get_args(kind)[0])
    if origin in (typing.Union, types.UnionType):
        return [t for arg in typing.get_args(kind) if arg is not type(None) for t in unwrapped(arg)]
    return [kind]


def _model_at(model: Any, loc: tuple) -> type[BaseModel] | None:
    """The record type found at `loc` inside `model`: fields followed, list items and mapping values stepped into."""
    kinds = [model]
    for part in loc:
        following = []
        for kind in (t for k in kinds for t in unwrapped(k)):
            origin, args = typing.get_origin(kind), typing.get_args(kind)
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                field = kind.model_fields.get(part) if isinstance(part, str) else None
                if field is not None:
                    following.append(field.annotation)
            elif origin in (list, tuple) and args:
                following.append(args[0])
            elif origin is dict and len(args) == 2:
                following.append(args[1])
        kinds = following
    models = [t for k in kinds for t in unwrapped(k) if isinstance(t, type) and issubclass(t, BaseModel)]
    return models[0] if models else None


def closest_field(model: type[BaseModel] | None, loc: tuple) -> str | None:
    """The field of the record at loc[:-1] nearest in spelling to the unknown field loc[-1], if one is near."""
    record = _model_at(model, loc[:-1]) if model is not None and loc and isinstance(loc[-1], str) else None
    if record is None:
        return None
    known = [name for name in record.model_fields if name != "assumed"]
    close = difflib.get_close_matches(loc[-1], known, n=1, cutoff=0.6)
    return close[0] if close else None


def problems_from_validation(exc: ValidationError, file: Path, prefix: tuple = (),
                             model: type[BaseModel] | None = None) -> list[Problem]:
    """One Problem per error in `exc`, each naming `file` and the field path; an unknown field of `model`
    suggests the field nearest in spelling."""
    problems = []
    for error in exc.errors():
        loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        message = _message(error)
        if loc and loc[-1] == KEY:
            message = f"as a key, {message}"
        if error["type"] == "extra_forbidden":
            near = closest_field(model, loc)
            if near:
                message = f"{message}; did you mean {near!r}?"
        problems.append(Problem(Path(file), field_path(prefix + loc), message, error["type"]))
    return problems
