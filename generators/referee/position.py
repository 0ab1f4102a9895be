"""Checking a whole position written as YAML against a game's rules, every problem at once, each with its rule.

The game says what a position holds and what makes one illegal (its referee module's
`check_position(table, position)`); this module does what every game needs: read the file
with the line of each value, refuse a file that cannot be read or has the wrong shape
naming the line (exit 2), and report the rule problems found, each with its line.

A position file may name its variant at the top (`variant: long`); `--game` may name it
too, and the two must agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from ..core.errors import DataError, Problem, display_path
from ..core.yamlio import StrictLoader, read_bounded_text
from ..core.game import Game
from ..core.names import NameIndex
from ..core.schema_errors import field_path, problems_from_validation
from .game_code import Referee, guarded
from .questions import RESERVED_QUESTIONS
from .rulings import QuestionError, Table

COMMAND = RESERVED_QUESTIONS[0]
LARGEST_FILE = 1_000_000  # bytes; a position is a page of YAML, not a data dump
DEEPEST = 50  # levels of nesting; a position is a few
M = TypeVar("M", bound=BaseModel)
Where = tuple[Any, ...]  # a path into the document: keys and list indexes, as pydantic's `loc`


@dataclass(frozen=True)
class Finding:
    """One way a position breaks the rules: where in the file, what is wrong, the rules it breaks, a stable code."""

    where: Where
    message: str
    rules: tuple[str, ...]
    code: str

    def __post_init__(self) -> None:
        if isinstance(self.rules, str) or not self.rules:
            raise ValueError(f"position problem {self.code!r} cites no rule")


@dataclass(frozen=True)
class Position:
    """A position file as read: its document, and the line each value starts on (keyed by its path)."""

    file: Path
    data: Any
    lines: Mapping[Where, int] = field(repr=False)

    def line(self, where: Where) -> int:
        """The line of the value at `where`, else of the nearest value that holds it."""
        where = tuple(where)
        while where and where not in self.lines:
            where = where[:-1]
        return self.lines.get(where, 1)

    def problem(self, where: Where, message: str, code: str = "invalid") -> Problem:
        """A refusal's problem at `where`, named by line and field ("line 12: powers.germany.money")."""
        path = field_path(tuple(where))
        return Problem(self.file, f"line {self.line(where)}" + (f": {path}" if path else ""), message, code)

    def parse(self, model: type[M], data: Any = None) -> M:
        """The document (or `data`) validated into `model`; a wrong shape is refused, every error with its line."""
        try:
            return model.model_validate(self.data if data is None else data)
        except ValidationError as exc:
            problems = []
            for problem, error in zip(problems_from_validation(exc, self.file), exc.errors()):
                loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
                problems.append(self.problem(loc, problem.message, problem.code))
            raise DataError(problems) from None


@dataclass(frozen=True)
class Report:
    """What a position check found: the file, the game and variant it was checked for, and each problem with its line."""

    file: Path
    game: Game
    variant: str | None
    findings: tuple[tuple[int, Finding], ...]

    @property
    def is_legal(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {"file": display_path(self.file), "game": self.game.name, "variant": self.variant, "legal": self.is_legal,
                "problems": [{"line": line, "field": field_path(f.where), "code": f.code, "message": f.message,
                              "rules": list(f.rules)} for line, f in self.findings]}

    def to_text(self) -> str:
        where = display_path(self.file)
        played = self.game.info.title + (f", {self.variant}" if self.variant else "")
        if self.is_legal:
            return f"{where}: a legal position ({played})."
        count = len(self.findings)
        lines = [f"{where}: {count} problem{'s' if count != 1 else ''} ({played})"]
        lines += [f"{where}:{line}: {f.message} [{'; '.join(f.rules)}]" for line, f in self.findings]
        return "\n".join(lines)


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _refuse(file: Path, line: int, message: str, code: str = "invalid") -> DataError:
    return DataError([Problem(file, f"line {line}", message, code)])


def read_position(file: Path) -> Position:
    """The position in `file`, each value's line kept; unreadable YAML, anchors, repeated keys are refused naming the line."""
    file = Path(file)
    # read as the game data is: a regular file only (never a FIFO or a device), bounded, UTF-8
    text = read_bounded_text(file, LARGEST_FILE, "a position file")
    try:
        loader = StrictLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _refuse(file, mark.line + 1 if mark else 1, f"YAML syntax error: {exc.problem or exc.context}", "yaml-syntax") from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(file, "", f"YAML error: {_first_line(exc)}", "yaml-syntax")]) from None
    except RecursionError:
        raise DataError([Problem(file, "", f"nested more than {DEEPEST} deep; a position is a few levels of YAML",
                                 "too-deep")]) from None
    if root is None:
        raise DataError([Problem(file, "", "the file is empty", "invalid")])
    lines: dict[Where, int] = {}
    seen: set[int] = set()

    def build(node: yaml.Node, where: Where) -> Any:
        if len(where) > DEEPEST:
            raise _refuse(file, node.start_mark.line + 1, f"nested more than {DEEPEST} deep; a position is a few levels of YAML",
                          "too-deep")
        if id(node) in seen:
            raise _refuse(file, node.start_mark.line + 1, "anchors and aliases (& and *) are not used in a position file", "alias")
        seen.add(id(node))
        lines[where] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            found: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _refuse(file, key_node.start_mark.line + 1, "a key must be a plain name or number")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise _refuse(file, key_node.start_mark.line + 1, "merge keys (<<) are not used in a position file; "
                                  "write the values out", "alias")
                key = str(scalar(key_node))
                if key in found:
                    raise _refuse(file, key_node.start_mark.line + 1, f"key {key!r} appears twice in one mapping", "duplicate")
                found[key] = build(value_node, (*where, key))
                lines.setdefault((*where, key), key_node.start_mark.line + 1)
            return found
        if isinstance(node, yaml.SequenceNode):
            return [build(item, (*where, i)) for i, item in enumerate(node.value)]
        return scalar(node)

    def scalar(node: yaml.Node) -> Any:
        try:
            return constructor.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            raise _refuse(file, node.start_mark.line + 1, f"cannot read this value: {exc.problem}") from None
        except yaml.YAMLError as exc:
            raise _refuse(file, node.start_mark.line + 1, f"cannot read this value: {_first_line(exc)}") from None

    constructor = StrictLoader("")

    return Position(file, build(root, ()), lines)


def _variant(game: Game, position: Position, named: str | None) -> str | None:
    """The variant the position is checked for: the file's `variant:`, --game's, or the game's first; the two must agree."""
    data = position.data
    written = data.get("variant") if isinstance(data, dict) else None
    if written is None:
        return named or (game.info.variants[0] if game.info.variants else None)
    if not game.info.variants:
        raise DataError([position.problem(("variant",), f"{game.info.title} has no variants")])
    found = NameIndex("variant", game.info.variants).find(str(written))
    if found is None:
        raise DataError([position.problem(("variant",), f"unknown variant {written!r}; {game.info.title} has {', '.join(game.info.variants)}",
                                          "unknown-name")])
    if named is not None and named != found:
        raise DataError([position.problem(("variant",), f"the file is a {found} position, but --game names {named}")])
    return found


def check_position_file(referee: Referee, game: Game, named_variant: str | None, file: Path) -> Report:
    """Every rule problem of the position in `file`, each with its line; DataError when the file cannot be used."""
    if referee.position_check is None:
        raise QuestionError(f"{game.info.title} has no position check ({display_path(referee.file)} defines no check_position)")
    position = read_position(file)
    if not isinstance(position.data, dict):
        raise DataError([position.problem((), "expected a mapping at the top of the file")])
    variant = _variant(game, position, named_variant)
    body = Position(position.file, {k: v for k, v in position.data.items() if k != "variant"}, position.lines)
    with guarded(referee.file, "check_position"):
        found = list(referee.position_check(Table(game, variant), body))
    if not all(isinstance(f, Finding) for f in found):
        raise DataError([Problem(referee.file, "check_position", "must return a list of Finding", "bad-referee")])
    ordered = sorted(((body.line(f.where), f) for f in found), key=lambda pair: pair[0])
    return Report(Path(file), game, variant, tuple(ordered))
