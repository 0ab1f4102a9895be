"""Replaying a whole game record against a game's rules, action by action, as a neutral adjudicator.

A record is YAML: the starting position (`start:`, in the game's position format) and the
`actions:` in order, each with the power acting and, where the game is random, what was drawn
or rolled. The game's referee module says what an action is and whether it is legal
(`replay_game(table, record, until)`); this module reads the file through the same bounded
loader as a position, and reports: every action legal (the final position and the score), the
first illegal action (its number, the rule it breaks and the position before it), or a file that
cannot be used (naming the line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import yaml

from ..core.errors import DataError, Problem, display_path
from ..core.game import Game
from .game_code import Referee, guarded
from .position import Position, _variant, read_position
from .rulings import QuestionError, Table

COMMAND = "game"


@dataclass(frozen=True)
class Illegal:
    """The first action the rules refuse: its number (from 1), its line, what is wrong, the rules, a stable code,
    and the position before it (in the position file's format)."""

    number: int
    line: int
    message: str
    rules: tuple[str, ...]
    code: str
    before: dict[str, Any]


@dataclass(frozen=True)
class Replay:
    """What replaying a record found: the actions played, the position after the last, each power's score,
    the first illegal action, if any, and the winners once the game is over."""

    played: int
    position: dict[str, Any]
    score: dict[str, int]
    illegal: Optional[Illegal] = None
    winners: Optional[list[str]] = None

    @property
    def is_legal(self) -> bool:
        return self.illegal is None


@dataclass(frozen=True)
class GameReport:
    file: Path
    game: Game
    variant: str | None
    replay: Replay
    until: int | None

    def to_json(self) -> dict[str, Any]:
        found = self.replay
        out: dict[str, Any] = {"file": display_path(self.file), "game": self.game.name, "variant": self.variant,
                               "legal": found.is_legal, "played": found.played, "score": found.score, "position": found.position}
        if found.winners is not None:
            out["winners"] = found.winners
        if found.illegal is not None:
            bad = found.illegal
            out["illegal"] = {"action": bad.number, "line": bad.line, "code": bad.code, "message": bad.message,
                              "rules": list(bad.rules), "before": bad.before}
        return out

    def to_text(self) -> str:
        where = display_path(self.file)
        found = self.replay
        if found.illegal is not None:
            bad = found.illegal
            return (f"{where}:{bad.line}: action {bad.number} is illegal: {bad.message} [{'; '.join(bad.rules)}]\n"
                    f"Position before action {bad.number}:\n" + _yaml(bad.before))
        upto = f"after action {found.played}" if self.until is not None else f"all {found.played} actions legal"
        scores = ", ".join(f"{p} {n}" for p, n in found.score.items())
        won = f" The game is over: {' and '.join(found.winners)} {'wins' if len(found.winners) == 1 else 'share the win'}." if found.winners else ""
        return f"{where}: {upto}. Score: {scores}.{won}\n" + _yaml(found.position)


def _yaml(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120)


def replay_file(referee: Referee, game: Game, named_variant: str | None, file: Path, until: int | None = None) -> GameReport:
    """The record in `file` replayed; DataError when it cannot be read or names what the game does not have."""
    replay = getattr(referee, "game_replay", None)
    if replay is None:
        raise QuestionError(f"{game.info.title} has no game replay ({display_path(referee.file)} defines no replay_game)")
    record = read_position(file)
    if not isinstance(record.data, dict):
        raise DataError([record.problem((), "expected a mapping at the top of the file")])
    if until is not None and until < 0:
        raise QuestionError(f"--until {until}: give the number of an action, from 0 (the starting position)")
    variant = _variant(game, record, named_variant)
    body = Position(record.file, {k: v for k, v in record.data.items() if k != "variant"}, record.lines)
    with guarded(referee.file, "replay_game"):
        found = replay(Table(game, variant), body, until)
    if not isinstance(found, Replay):
        raise DataError([Problem(referee.file, "replay_game", "must return a Replay", "bad-referee")])
    return GameReport(Path(file), game, variant, found, until)
