"""Referee mode: rules questions answered from a game's data, each ruling citing the rule that decides it.

The rules themselves belong to the game, so each game answers through its own module,
`components/<game>/referee.py`, which Dossier loads by path (a folder from outside Dossier
only once trusted: see `trust`). The generators never change when a game adds or changes
a question, and a game's referee imports nothing from the command-line library.

The contract a game's referee module follows
--------------------------------------------
It exports `QUESTIONS`, a dict from each question's command name ("search", "cash-in") to a
plain function that answers it:

- The first parameter receives the `Table`: the loaded `Game` and the variant in play
  (`table.variant`, one of the game's `variants`, or None for a game without variants).
- Every other parameter is one of the question's values, declared in plain Python as
  `Annotated[type, Param(help=..., flag="--name")]` with its default given by `=`. The type
  is int, float, str, bool, an Enum (its values are the choices, in any case), a list of
  one of those (an option given again and again), or Optional[...] of one (default None).
  A `Param` without a flag is a positional argument; a bool is always an option, and its
  flag may name both sides ("--at-capital/--not-at-capital"). The names `game_choice`,
  `as_json` and `ctx`, and the question name `position`, are taken by the CLI.
- The return annotation is `Ruling[Verdict, Fields]`. Verdict is the Enum of every verdict
  the question can give: a "may I" question uses the shared `Allowed` (allowed / not allowed),
  any other its own Enum. Fields is the question's own result fields, a frozen dataclass
  subclassing `Facts` (or None when it has none); they are typed attributes in Python and
  fields of the `--json` object. The ruling's `verdict` is one of the verdicts, its
  `explanation` the reason in plain words, its `rules` the rules that decide it (at least
  one), its `facts` an instance of Fields. The question's name is filled in from `QUESTIONS`.
- The docstring's first line is the question's one-line summary; the rest its help, with
  one line `Example: dossier referee ...` that runs as written.
- A question that cannot be asked (an unknown name, an impossible number) raises
  `QuestionError`, `UnknownNameError` or another `DossierError`: the CLI then exits 2 with
  the message, closest names included. Anything else the code raises, a wrong return, or
  an answer slower than the time limit is reported as a fault of the module, naming it.
- A question that exists only in some variants is decorated `@only_in("long")`: asked with
  no variant named it is answered for the first variant listed, and the answer says so;
  asked for another it is refused.
- Heavy libraries (graphs, drawing) are imported inside the question that needs them, since
  the whole module is imported for every `dossier referee` call.
- Optionally, `check_position(table, position)` checks a whole position written as YAML
  (`dossier referee position FILE`); see `position`.

The module is imported as part of its folder, so it may split its rules over sibling
modules and import them relatively (`from .rules import ...`).

So `duel(table, attacker="A", defender="B")` is an ordinary call in Python, and
`dossier referee duel --attacker A --defender B` is the same question on the command line.

A minimal module:

    from enum import Enum
    from typing import Annotated
    from dataclasses import dataclass
    from generators.referee import Facts, Param, QuestionError, Ruling, Table

    class Duel(Enum):
        attacker_wins = "attacker wins"
        defender_wins = "defender wins"

    @dataclass(frozen=True)
    class DuelFacts(Facts):
        guessed: bool

    def duel(table: Table, attacker: Annotated[str, Param("The attacker's card.", flag="--attacker")],
             defender: Annotated[str, Param("The defender's card.", flag="--defender")]) -> Ruling[Duel, DuelFacts]:
        \"\"\"Who wins a duel?

        Example: dossier referee --game my-game duel --attacker A --defender B
        \"\"\"
        if not attacker:
            raise QuestionError("--attacker: name a card")
        guessed = attacker == defender
        verdict = Duel.defender_wins if guessed else Duel.attacker_wins
        return Ruling(verdict, "A defender who guesses the card wins.", rules=("4.2",), facts=DuelFacts(guessed))

    QUESTIONS = {"duel": duel}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import Enum
from typing import Any, Generic, TypeVar

from ..core.errors import DossierError
from ..core.game import Game

V = TypeVar("V", bound=Enum)
F = TypeVar("F")


class QuestionError(DossierError, ValueError):
    """A question that cannot be asked: a number the game never allows, options that contradict."""


class Allowed(Enum):
    """The verdicts of every "may I" question, in every game."""

    allowed = "allowed"
    not_allowed = "not allowed"

    @classmethod
    def of(cls, allowed: bool) -> "Allowed":
        return cls.allowed if allowed else cls.not_allowed


@dataclass(frozen=True)
class Facts:
    """A question's own result fields: subclass it as a frozen dataclass, one typed field a fact.

    A field named after a Python keyword takes a trailing underscore (`return_`), dropped in JSON."""

    def to_json(self) -> dict[str, Any]:
        return {f.name.rstrip("_"): _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Facts):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Table:
    """The game being played: its data and the variant in play (None for a game without variants)."""

    game: Game
    variant: str | None


@dataclass(frozen=True)
class Ruling(Generic[V, F]):
    """The answer to one question: its typed verdict, the reason in plain words, the rules that decide it,
    the question's own typed fields (`facts`), whether it is allowed (for "may I" questions; an `Allowed`
    verdict says so itself), a short answer when it says more than the verdict ("keep 7, return 1"),
    and the question's name, filled in by the contract from `QUESTIONS`."""

    verdict: V
    explanation: str
    rules: tuple[str, ...]
    facts: F | None = None
    allowed: bool | None = None
    answer: str | None = None
    question: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.verdict, Enum):
            raise TypeError(f"the verdict {self.verdict!r} is not a member of the question's Enum")
        if isinstance(self.rules, str) or not self.rules or not all(isinstance(r, str) and r.strip() for r in self.rules):
            raise ValueError(f"the ruling {self.verdict.value!r} cites no rule")
        if self.facts is not None and not (isinstance(self.facts, Facts) and is_dataclass(self.facts)):
            raise TypeError(f"the ruling's facts {type(self.facts).__name__} are not a Facts dataclass")
        if isinstance(self.verdict, Allowed):
            said = self.verdict is Allowed.allowed
            if self.allowed is not None and self.allowed != said:
                raise ValueError(f"the ruling says {self.verdict.value!r} but allowed={self.allowed}")
            object.__setattr__(self, "allowed", said)

    def named(self, question: str) -> "Ruling[V, F]":
        """The ruling with the question's name filled in."""
        return replace(self, question=question)

    @property
    def short(self) -> str:
        """The answer line: the short answer, else the verdict's value."""
        return self.answer or str(self.verdict.value)

    def to_json(self) -> dict[str, Any]:
        """The ruling as one JSON object: the common fields, then the question's own."""
        own = self.facts.to_json() if self.facts is not None else {}
        return {"question": self.question, "verdict": self.verdict.value, "ruling": self.short, "allowed": self.allowed,
                "explanation": self.explanation, "rules": list(self.rules), **own}

    def to_text(self) -> str:
        """The answer line, the reason and the citations, one paragraph each."""
        answer = self.short[:1].upper() + self.short[1:]
        return f"{answer}.\n{self.explanation}\nRules: {'; '.join(self.rules)}"


def only_in(*variants: str) -> Callable[[Callable[..., Ruling]], Callable[..., Ruling]]:
    """Mark a question as asked in these variants only; the first is used when none is named."""

    def mark(function: Callable[..., Ruling]) -> Callable[..., Ruling]:
        function.variants = variants  # type: ignore[attr-defined]
        return function

    return mark


def variants_of(question: Callable[..., Ruling]) -> tuple[str, ...]:
    """The variants a question is limited to; () when it is asked in every variant."""
    return tuple(getattr(question, "variants", ()))


def table_for(game: Game, question: str, function: Callable[..., Ruling], variant: str | None) -> Table:
    """The table a question is answered at: the variant named, else the question's or the game's first."""
    limited = variants_of(function)
    if variant is None:
        variant = (limited or tuple(game.info.variants) or (None,))[0]
    elif limited and variant not in limited:
        names = " or ".join(limited)
        raise QuestionError(f"{question!r} is a question about the {names} variant only; ask it with --game {game.name}:{limited[0]}")
    return Table(game, variant)
