"""Referee mode: rules questions answered from a game's data, each ruling citing the rule that decides it.

The rules themselves belong to the game, so each game answers through its own module,
`components/<game>/referee.py`, which Dossier loads by path. The generators never change
when a game adds or changes a question.

The contract a game's referee module follows
--------------------------------------------
It exports `QUESTIONS`, a dict from each question's command name ("search", "cash-in") to a
plain function that answers it:

- The first parameter receives the `Table`: the loaded `Game` and the variant in play
  (`table.variant`, one of the game's `variants`, or None for a game without variants).
- Every other parameter is one of the question's arguments or options, annotated for the
  command line as `Annotated[type, typer.Argument(help=...)]` or
  `Annotated[type, typer.Option("--name", help=...)]`, with its default given by `=`.
  The names `game_choice`, `as_json` and `ctx` are taken by the options every question shares.
- The docstring's first line is the question's one-line help; the rest its full help.
- It returns a `Ruling`. A question that cannot be asked (an unknown name, an impossible
  number) raises `QuestionError`, `UnknownNameError` or another `DossierError`: the CLI then
  exits 2 with the message, closest names included.
- A question that exists only in some variants is decorated `@only_in("long")`: asked with
  no variant named it is answered for the first variant listed, asked for another it is refused.
- Heavy libraries (graphs, drawing) are imported inside the question that needs them, since
  the whole module is imported for every `dossier referee` call.

So `search(table, police=[2, 3], spy=4)` is an ordinary call in Python, and
`dossier referee search --police 2 --police 3 --spy 4` is the same question on the command line.

A minimal module:

    from typing import Annotated
    import typer
    from generators.referee import QuestionError, Ruling, Table

    def zoff(table: Table, attacker: Annotated[int, typer.Option("--attacker", help="...")]) -> Ruling:
        \"\"\"Who wins a ZOFF.\"\"\"
        if attacker < 1:
            raise QuestionError("--attacker: a strength is at least 1")
        return Ruling("zoff", "attacker wins", "...", rules=("4.2",))

    QUESTIONS = {"zoff": zoff}
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from ..core.errors import DataError, DossierError, Problem
from ..core.game import Game

MODULE_FILE = "referee.py"


class QuestionError(DossierError, ValueError):
    """A question that cannot be asked: a number the game never allows, options that contradict."""


@dataclass(frozen=True)
class Table:
    """The game being played: its data and the variant in play (None for a game without variants)."""

    game: Game
    variant: str | None


@dataclass(frozen=True)
class Ruling:
    """The answer to one question: a short ruling, whether it is allowed (for "may I" questions),
    the reason in plain words, the rules that decide it, and the question's own fields."""

    question: str
    ruling: str
    explanation: str
    rules: tuple[str, ...]
    allowed: bool | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.rules:
            raise ValueError(f"ruling on {self.question!r} cites no rule")

    def to_json(self) -> dict[str, Any]:
        """The ruling as one JSON object: the common fields, then the question's own."""
        return {"question": self.question, "ruling": self.ruling, "allowed": self.allowed,
                "explanation": self.explanation, "rules": list(self.rules), **self.extra}

    def to_text(self) -> str:
        """The answer line, the reason and the citations, one paragraph each."""
        answer = self.ruling[:1].upper() + self.ruling[1:]
        return f"{answer}.\n{self.explanation}\nRules: {'; '.join(self.rules)}"


def only_in(*variants: str) -> Callable[[Callable[..., Ruling]], Callable[..., Ruling]]:
    """Mark a question as asked in these variants only; the first is used when none is named."""

    def mark(function: Callable[..., Ruling]) -> Callable[..., Ruling]:
        function.variants = variants  # type: ignore[attr-defined]
        return function

    return mark


def variants_of(question: Callable[..., Ruling]) -> tuple[str, ...]:
    """The variants a question is limited to; () when it is asked in every variant."""
    return getattr(question, "variants", ())


def table_for(game: Game, question: str, function: Callable[..., Ruling], variant: str | None) -> Table:
    """The table a question is answered at: the variant named, else the question's or the game's first."""
    limited = variants_of(function)
    if variant is None:
        variant = (limited or tuple(game.info.variants) or (None,))[0]
    elif limited and variant not in limited:
        names = " or ".join(limited)
        raise QuestionError(f"{question!r} is a question about the {names} game only; "
                            f"ask it with --game {limited[0]} (or {game.name}:{limited[0]})")
    return Table(game, variant)


def module_path(game: Game) -> Path:
    """Where the game's referee module lives."""
    return game.folder / MODULE_FILE


def load_questions(game: Game) -> dict[str, Callable[..., Ruling]]:
    """The questions the game's referee module answers; DataError when it has none or breaks the contract."""
    path = module_path(game)
    if not path.is_file():
        raise DataError([Problem(path, "", f"{game.info.title} has no referee yet (no {MODULE_FILE} in its folder)", "no-referee")])
    module = _import(path)
    questions = getattr(module, "QUESTIONS", None)
    if not isinstance(questions, dict) or not questions:
        raise DataError([Problem(path, "QUESTIONS", "expected a dict from question names to the functions answering them", "bad-referee")])
    for name, function in questions.items():
        if not callable(function):
            raise DataError([Problem(path, f"QUESTIONS[{name!r}]", "is not a function", "bad-referee")])
    return dict(questions)


def _import(path: Path) -> ModuleType:
    # A name of its own per folder, so two copies of one game never share a module.
    name = "dossier_referee_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise DataError([Problem(path, "", "cannot be imported as a Python module", "bad-referee")])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        del sys.modules[name]
        # the game's own code failed as it loaded: say where, as for a broken data file
        if isinstance(exc, SyntaxError):
            raise DataError([Problem(path, f"line {exc.lineno}", f"cannot be read as Python: {exc.msg}", "bad-referee")]) from None
        if isinstance(exc, Exception) and not isinstance(exc, DossierError):
            raise DataError([Problem(path, "", f"cannot be imported: {type(exc).__name__}: {exc}", "bad-referee")]) from None
        raise
    return module
