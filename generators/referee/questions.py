"""A question's declaration read from its plain Python: each value's type, default and help (`Param`),
its verdicts and result fields (the Enum and the Facts dataclass in its return annotation), its summary, help and worked example (its docstring).

Reading it here, once, lets the CLI build options from it without the game's module ever
importing the command-line library, and lets a module that breaks the contract be refused
with one message naming the question, before any of its code answers.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

from .rulings import Facts, Ruling, variants_of

SCALARS = (int, float, str, bool)
RESERVED_PARAMETERS = ("ctx", "game_choice", "as_json")
RESERVED_QUESTIONS = ("position", "game")
EXAMPLE = re.compile(r"^\s*Example:\s*(?P<command>dossier referee .+?)\s*$", re.M)


@dataclass(frozen=True)
class Param:
    """How a question's value is asked: its help, and the flag of an option (None: a positional argument)."""

    help: str
    flag: str | None = None
    metavar: str | None = None


@dataclass(frozen=True)
class Value:
    """One value a question takes: its name, its type (a scalar or an Enum), whether it repeats,
    whether None is allowed, its default (`inspect.Parameter.empty` when required) and how it is asked."""

    name: str
    type: type
    many: bool
    optional: bool
    default: Any
    param: Param

    @property
    def is_option(self) -> bool:
        return self.param.flag is not None

    @property
    def choices(self) -> tuple[str, ...]:
        """The values an Enum accepts, as typed on the command line; () for other types."""
        return tuple(str(m.value) for m in self.type) if issubclass(self.type, Enum) else ()


@dataclass(frozen=True)
class Question:
    """A question as declared: its command name, the function answering it, its values, its verdicts,
    its result fields (None when it has none), its summary, further help and worked example, and the
    variants it is limited to."""

    name: str
    function: Callable[..., Ruling]
    values: tuple[Value, ...]
    verdicts: type[Enum]
    facts: type[Facts] | None
    summary: str
    details: str
    example: str
    variants: tuple[str, ...]


class DeclarationError(ValueError):
    """A question whose declaration breaks the contract (see `rulings`); the message says what to fix."""


def _unwrap(annotation: Any) -> tuple[type, bool, bool]:
    """(scalar or Enum type, repeats, None allowed) of a declared type, or DeclarationError."""
    optional = False
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        members = [a for a in get_args(annotation) if a is not type(None)]
        if len(members) != 1 or len(get_args(annotation)) != 2:
            raise DeclarationError(f"type {annotation!r}: only Optional[X] of one type is supported")
        optional, annotation, origin = True, members[0], get_origin(members[0])
    many = origin is list
    if many:
        (annotation,) = get_args(annotation) or (str,)
    if not (annotation in SCALARS or (isinstance(annotation, type) and issubclass(annotation, Enum))):
        raise DeclarationError(f"type {annotation!r} is not supported: use int, float, str, bool, an Enum, or a list of one")
    return annotation, many, optional


def _value(parameter: inspect.Parameter, hint: Any) -> Value:
    where = f"parameter {parameter.name!r}"
    if parameter.name in RESERVED_PARAMETERS:
        raise DeclarationError(f"{where}: the name is reserved for the options every question shares")
    if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
        raise DeclarationError(f"{where}: *args and **kwargs cannot be asked on the command line")
    if get_origin(hint) is not Annotated:
        raise DeclarationError(f"{where}: declare it as Annotated[type, Param(help=...)]")
    base, *extras = get_args(hint)
    params = [e for e in extras if isinstance(e, Param)]
    if len(params) != 1:
        raise DeclarationError(f"{where}: give exactly one Param(help=...) in its Annotated[...]")
    param = params[0]
    try:
        kind, many, optional = _unwrap(base)
    except DeclarationError as exc:
        raise DeclarationError(f"{where}: {exc}") from None
    if kind is bool and param.flag is None:
        raise DeclarationError(f"{where}: a bool is an option; give its Param a flag")
    if param.flag is not None and not param.flag.startswith("--"):
        raise DeclarationError(f"{where}: the flag {param.flag!r} must start with --")
    if parameter.default is None and not optional and not many:
        raise DeclarationError(f"{where}: a default of None needs the type Optional[...]")
    return Value(parameter.name, kind, many, optional, parameter.default, param)


def _verdicts(hint: Any) -> tuple[type[Enum], type[Facts] | None]:
    """(the verdicts' Enum, the result fields' dataclass or None) of a return annotation Ruling[Verdict, Fields]."""
    args = get_args(hint) if get_origin(hint) is Ruling else ()
    if len(args) != 2 or not (isinstance(args[0], type) and issubclass(args[0], Enum)):
        raise DeclarationError("its return annotation must be Ruling[Verdict, Fields]: Verdict the Enum of its verdicts "
                               "(Allowed for a \"may I\" question), Fields its Facts dataclass or None")
    facts = None if args[1] in (None, type(None)) else args[1]
    if facts is not None and not (isinstance(facts, type) and issubclass(facts, Facts)):
        raise DeclarationError(f"its result fields {facts!r} must be a dataclass subclassing Facts, or None")
    return args[0], facts


def _help(function: Callable[..., Any]) -> tuple[str, str, str]:
    """(summary, further help without the example, example command) from the docstring."""
    doc = inspect.cleandoc(function.__doc__ or "")
    summary, _, rest = doc.partition("\n")
    if not summary.strip():
        raise DeclarationError("its docstring must open with a one-line summary")
    found = EXAMPLE.search(rest)
    if found is None:
        raise DeclarationError("its docstring must show a worked example: a line 'Example: dossier referee ...'")
    details = (rest[:found.start()] + rest[found.end():]).strip()
    return summary.strip(), details, found["command"]


def describe(name: str, function: Callable[..., Any]) -> Question:
    """The declaration of question `name` answered by `function`; DeclarationError when it breaks the contract."""
    if name in RESERVED_QUESTIONS:
        raise DeclarationError(f"the question name {name!r} is taken by the command of that name")
    if not callable(function):
        raise DeclarationError("is not a function")
    try:
        signature = inspect.signature(function)
        hints = get_type_hints(function, include_extras=True)
    except (TypeError, ValueError, NameError, AttributeError) as exc:
        raise DeclarationError(f"its signature cannot be read: {exc}") from None
    parameters = list(signature.parameters.values())
    if not parameters or parameters[0].kind not in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
        raise DeclarationError("its first parameter must take the Table")
    values = tuple(_value(p, hints.get(p.name, p.annotation)) for p in parameters[1:])
    summary, details, example = _help(function)
    verdicts, facts = _verdicts(hints.get("return"))
    return Question(name, function, values, verdicts, facts, summary, details, example, variants_of(function))
