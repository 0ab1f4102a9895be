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
- The return annotation is `Ruling[Verdict]`, Verdict being the question's own Enum of
  every verdict it can give; the ruling's `verdict` is one of them, its `explanation` the
  reason in plain words, its `rules` the rules that decide it (at least one).
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
    from generators.referee import Param, QuestionError, Ruling, Table

    class Duel(Enum):
        attacker_wins = "attacker wins"
        defender_wins = "defender wins"

    def duel(table: Table, attacker: Annotated[str, Param("The attacker's card.", flag="--attacker")],
             defender: Annotated[str, Param("The defender's card.", flag="--defender")]) -> Ruling[Duel]:
        \"\"\"Who wins a duel?

        Example: dossier referee --game my-game duel --attacker A --defender B
        \"\"\"
        if not attacker:
            raise QuestionError("--attacker: name a card")
        verdict = Duel.defender_wins if attacker == defender else Duel.attacker_wins
        return Ruling("duel", verdict, "A defender who guesses the card wins.", rules=("4.2",))

    QUESTIONS = {"duel": duel}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from ..core.errors import DossierError
from ..core.game import Game

V = TypeVar("V", bound=Enum)


class QuestionError(DossierError, ValueError):
    """A question that cannot be asked: a number the game never allows, options that contradict."""


@dataclass(frozen=True)
class Table:
    """The game being played: its data and the variant in play (None for a game without variants)."""

    game: Game
    variant: str | None


@dataclass(frozen=True)
class Ruling(Generic[V]):
    """The answer to one question: its typed verdict, the reason in plain words, the rules that decide it,
    whether it is allowed (for "may I" questions), a short answer when it says more than the verdict
    ("keep 7, return 1"), and the question's own fields."""

    question: str
    verdict: V
    explanation: str
    rules: tuple[str, ...]
    allowed: bool | None = None
    answer: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.verdict, Enum):
            raise TypeError(f"ruling on {self.question!r}: the verdict {self.verdict!r} is not a member of the question's Enum")
        if isinstance(self.rules, str) or not self.rules or not all(isinstance(r, str) and r.strip() for r in self.rules):
            raise ValueError(f"ruling on {self.question!r} cites no rule")

    @property
    def short(self) -> str:
        """The answer line: the short answer, else the verdict's value."""
        return self.answer or str(self.verdict.value)

    def to_json(self) -> dict[str, Any]:
        """The ruling as one JSON object: the common fields, then the question's own."""
        return {"question": self.question, "verdict": self.verdict.value, "ruling": self.short, "allowed": self.allowed,
                "explanation": self.explanation, "rules": list(self.rules), **self.extra}

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
