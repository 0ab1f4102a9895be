"""A game's own referee code: declared in plain Python, trusted before it runs, and every way it can
go wrong reported as one message naming the file and the question (exit 2, no traceback)."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest

from generators.core import paths
from generators.referee import game_code
from generators.referee.trust import trust_file

TOY = '''
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional
from generators.referee import Facts, Param, QuestionError, Ruling, Table

class Double(Enum):
    doubled = "doubled"

@dataclass(frozen=True)
class Doubled(Facts):
    twice: int
    colour: Optional[str]

class Colour(str, Enum):
    red = "red"
    blue = "blue"

def double(table: Table, number: Annotated[int, Param("A number.", flag="--number")],
           colour: Annotated[Optional[Colour], Param("A colour.", flag="--colour")] = None) -> Ruling[Double, Doubled]:
    """Twice the number.

    Example: dossier referee double --number 4
    """
    if number < 0:
        raise QuestionError("--number: not below zero")
    return Ruling(Double.doubled, f"{table.game.info.title}, {table.variant}", rules=("1.0",), answer=str(2 * number),
                  facts=Doubled(twice=2 * number, colour=colour.value if colour else None))

QUESTIONS = {"double": double}
'''


def refused(cli, *args) -> str:
    result = cli("referee", *args)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    return result.stderr


@pytest.fixture
def own_game(game_copy, cli):
    """A copy of a small shipped game whose referee.py is `source`, trusted unless told not to; returns its folder."""

    def make(source: str = TOY, trusted: bool = True, game: str = "special-action-tokens") -> Path:
        folder = game_copy(game)
        (folder / "referee.py").write_text(textwrap.dedent(source), encoding="utf-8")
        if trusted:
            assert cli("trust", str(folder)).code == 0
        return folder

    return make


def question(body: str, signature: str = "number: Annotated[int, Param('A number.', flag='--number')] = 1",
             returns: str = "Ruling[Seven, None]", doc: str = "Seven.\n\n    Example: dossier referee seven") -> str:
    """A referee module with one question `seven` whose signature, return annotation, docstring and body are given."""
    return (f"from __future__ import annotations\nfrom dataclasses import dataclass\nfrom enum import Enum\nfrom typing import Annotated, Optional\nfrom generators.referee import Allowed, Facts, Param, Ruling, Table\n\n"
            f"class Seven(Enum):\n    seven = 'seven'\n\nclass Other(Enum):\n    other = 'other'\n\n"
            f"def seven(table: Table, {signature}) -> {returns}:\n    \"\"\"{doc}\n    \"\"\"\n{textwrap.indent(body, '    ')}\n\n"
            "QUESTIONS = {'seven': seven}\n")


# ---- a game's own questions ----------------------------------------------------------------------------

def test_a_game_ships_its_own_questions(cli, own_game):
    folder = own_game(game="spion-und-spion")
    result = cli("referee", "double", "--number", "4", "--game", str(folder), "--json")
    assert result.code == 0, result.stderr
    answer = result.json()
    assert (answer["verdict"], answer["ruling"], answer["twice"], answer["variant"]) == ("doubled", "8", 8, "four-player")
    again = cli("referee", "--game", f"{folder}:two-player", "double", "--number", "1", "--colour", "RED", "--json").json()
    assert (again["colour"], again["variant"]) == ("red", "two-player")
    assert "not below zero" in refused(cli, "double", "--number", "-1", "--game", str(folder))
    helped = cli("referee", "--game", str(folder), "double", "--help").stdout
    assert "Verdicts: doubled." in helped and "dossier referee double --number 4" in helped


def test_a_game_splits_its_rules_over_sibling_modules(cli, own_game, game_copy):
    folder = own_game(TOY.replace('f"{table.game.info.title}, {table.variant}"', "EXPLANATION")
                      .replace("from generators.referee import", "from .words import EXPLANATION\nfrom generators.referee import"),
                      trusted=False)
    (folder / "words.py").write_text('EXPLANATION = "from a sibling module"\n', encoding="utf-8")
    assert cli("trust", str(folder)).code == 0
    result = cli("referee", "--game", str(folder), "double", "--number", "2", "--json")
    assert result.code == 0, result.stderr
    assert result.json()["explanation"] == "from a sibling module"


def test_a_question_is_named_by_the_contract_and_a_may_i_answer_says_allowed(cli, own_game):
    folder = own_game(question("return Ruling(Allowed.not_allowed, 'x', ('1.0',))", returns="Ruling[Allowed, None]"))
    answer = cli("referee", "--game", str(folder), "seven", "--json").json()
    assert (answer["question"], answer["verdict"], answer["allowed"]) == ("seven", "not allowed", False)


def test_shipped_game_code_imports_only_the_referee_package_of_dossier():
    for file in sorted(paths.components_dir().glob("*/*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        modules = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        modules |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and not node.level}
        ours = {m for m in modules if m.split(".")[0] == "generators"}
        assert ours <= {"generators.referee"}, (file, ours)


def test_no_game_declares_its_own_allowed_verdicts():
    for file in sorted(paths.components_dir().glob("*/referee.py")):
        for node in ast.parse(file.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "Enum" for b in node.bases):
                values = sorted(s.value.value for s in node.body if isinstance(s, ast.Assign))
                assert values != ["allowed", "not allowed"], f"{file.parent.name}: {node.name} repeats Allowed"


def test_no_shipped_referee_imports_the_command_line_library():
    for file in sorted(paths.components_dir().glob("*/*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        names = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        names |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not names & {"typer", "click"}, file


# ---- trust ---------------------------------------------------------------------------------------------------

def test_a_folder_from_elsewhere_is_refused_until_trusted_even_for_help(cli, own_game):
    folder = own_game(trusted=False)
    for args in (("double", "--number", "1"), ("--help",)):
        message = refused(cli, "--game", str(folder), *args)
        assert "referee.py" in message and f"dossier trust {folder}" in message
    assert not trust_file().exists() or str(folder.resolve()) not in json.loads(trust_file().read_text())
    result = cli("trust", str(folder))
    assert result.code == 0 and "trusted as it is now" in result.stdout
    assert cli("referee", "--game", str(folder), "double", "--number", "1").code == 0


def test_changing_the_code_withdraws_the_trust(cli, own_game):
    folder = own_game()
    (folder / "referee.py").write_text(TOY.replace("2 * number", "3 * number"), encoding="utf-8")
    assert "has changed since you trusted it" in refused(cli, "--game", str(folder), "double", "--number", "1")
    (folder / "referee.py").write_text(TOY, encoding="utf-8")
    (folder / "extra.py").write_text("import os\n", encoding="utf-8")       # a new module is a change too
    assert "has changed since you trusted it" in refused(cli, "--game", str(folder), "double", "--number", "1")


def test_trust_can_be_listed_and_withdrawn(cli, own_game):
    folder = own_game()
    assert str(folder.resolve()) in cli("trust", "--list").stdout
    assert "no longer trusted" in cli("trust", str(folder), "--forget").stdout
    assert "dossier trust" in refused(cli, "--game", str(folder), "double", "--number", "1")
    assert "was not trusted" in cli("trust", str(folder), "--forget").stdout


def test_shipped_games_need_no_trust_and_trust_needs_a_game_folder(cli, tmp_path):
    assert not trust_file().exists() or "components" not in trust_file().read_text()
    assert "trusted already" in cli("trust", str(paths.components_dir() / "spies")).stdout
    result = cli("trust", str(tmp_path))
    assert result.code == 2 and "not a game folder" in result.stderr
    assert cli("trust").code == 2


@pytest.mark.parametrize("arguments, message", [
    ((), "name the game folder to trust"),
    (("--forget",), "name the game folder to trust"),
    (("{folder}", "--list"), "--list takes no DIR and no --forget"),
    (("--list", "--forget"), "--list takes no DIR and no --forget"),
    (("{file}",), "not a game folder (no game.yaml)"),
    (("{missing}",), "not a game folder (no game.yaml)"),
])
def test_trust_refuses_arguments_it_cannot_use(cli, own_game, tmp_path, arguments, message):
    names = {"folder": own_game(), "file": tmp_path / "notes.txt", "missing": tmp_path / "nowhere"}
    names["file"].write_text("not a game\n", encoding="utf-8")
    listed = cli("trust", "--list").stdout
    result = cli("trust", *(a.format(**names) for a in arguments))
    assert result.code == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == "" and cli("trust", "--list").stdout == listed  # nothing listed, trusted or withdrawn


# ---- a referee that breaks: one message naming the file and the question ---------------------------------------

@pytest.mark.parametrize("source, message", [
    ("def broken(:\n", "referee.py: cannot be read as Python: line 1: invalid syntax"),
    ("raise RuntimeError('boom')\n", "referee.py: raised RuntimeError: boom"),
    ("import sys\nsys.exit(4)\n", "referee.py: tried to exit the program (exit code 4)"),
    ("QUESTIONS = []\n", "referee.py: QUESTIONS: expected a dict"),
    ("QUESTIONS = {'x': 3}\n", "QUESTIONS['x']: is not a function"),
    ("QUESTIONS = {'x': print}\n", "QUESTIONS['x']: its first parameter must take the Table"),
    ("check_position = 3\n" + TOY, "check_position: is not a function"),
])
def test_a_module_that_fails_to_load_is_refused_naming_the_file(cli, own_game, source, message):
    folder = own_game(source)
    assert message in refused(cli, "--game", str(folder), "seven")


@pytest.mark.parametrize("kwargs, message", [
    ({"signature": "number: int = 1"}, "parameter 'number': declare it as Annotated[type, Param(help=...)]"),
    ({"signature": "number: Annotated[dict, Param('x', flag='--n')] = None"}, "is not supported"),
    ({"signature": "flag: Annotated[bool, Param('A flag.')] = False"}, "a bool is an option; give its Param a flag"),
    ({"signature": "n: Annotated[int, Param('x', flag='-n')] = 1"}, "must start with --"),
    ({"signature": "n: Annotated[int, Param('x', flag='--n')] = None"}, "needs the type Optional"),
    ({"signature": "as_json: Annotated[bool, Param('x', flag='--j')] = False"}, "reserved"),
    ({"signature": "*numbers: Annotated[int, Param('x', flag='--n')]"}, "*args"),
    ({"returns": "Ruling"}, "its return annotation must be Ruling[Verdict, Fields]"),
    ({"returns": "int"}, "its return annotation must be Ruling[Verdict, Fields]"),
    ({"returns": "Ruling[Seven]"}, "Too few arguments"),
    ({"returns": "Ruling[Seven, dict]"}, "must be a dataclass subclassing Facts, or None"),
    ({"doc": "Seven."}, "a line 'Example: dossier referee ...'"),
    ({"doc": ""}, "one-line summary"),
])
def test_a_question_declared_wrongly_is_refused_naming_it(cli, own_game, kwargs, message):
    folder = own_game(question("return Ruling(Seven.seven, 'x', ('1.0',))", **kwargs))
    found = refused(cli, "--game", str(folder), "seven")
    assert "referee.py: QUESTIONS['seven']: " in found and message in found


@pytest.mark.parametrize("body, message", [
    ("raise KeyError('lost')", "QUESTIONS['seven']: raised KeyError: 'lost'"),
    ("return 7", "QUESTIONS['seven']: returned int, not a Ruling"),
    ("return Ruling(Seven.seven, 'x', ())", "QUESTIONS['seven']: raised ValueError: the ruling 'seven' cites no rule"),
    ("return Ruling('seven', 'x', ('1.0',))", "is not a member of the question's Enum"),
    ("return Ruling(Other.other, 'x', ('1.0',))", "gave the verdict <Other.other: 'other'>, which is not one of its Seven"),
    ("return Ruling(Seven.seven, 'x', ('1.0',), facts={'n': 1})", "the ruling's facts dict are not a Facts dataclass"),
    ("@dataclass(frozen=True)\nclass Mine(Facts):\n    n: int\nreturn Ruling(Seven.seven, 'x', ('1.0',), facts=Mine(1))",
     "gave the fields Mine, not its declared NoneType"),
    ("return Ruling(Allowed.allowed, 'x', ('1.0',), allowed=False)", "says 'allowed' but allowed=False"),
    ("raise SystemExit(0)", "QUESTIONS['seven']: tried to exit the program (exit code 0)"),
    ("raise RuntimeError('x' * 5000)", "xxx…"),
])
def test_a_question_that_fails_is_refused_naming_the_file_and_the_question(cli, own_game, body, message):
    folder = own_game(question(body))
    found = refused(cli, "--game", str(folder), "seven")
    assert "referee.py: " in found and message in found
    assert len(found) < 600


def test_a_question_that_hangs_is_stopped(cli, own_game, monkeypatch):
    monkeypatch.setattr(game_code, "TIME_LIMIT", 0.2)
    folder = own_game(question("while True:\n    pass"))
    assert "QUESTIONS['seven']: took longer than 0.2 s of processor time (or 60 s in all) and was stopped" in refused(cli, "--game", str(folder), "seven")


def test_a_module_that_hangs_as_it_loads_is_stopped(cli, own_game, monkeypatch):
    monkeypatch.setattr(game_code, "TIME_LIMIT", 0.2)
    folder = own_game("while True:\n    pass\n")
    assert "referee.py: took longer than 0.2 s of processor time (or 60 s in all) and was stopped" in refused(cli, "--game", str(folder), "seven")


def test_a_question_that_swallows_every_exception_is_still_stopped(cli, own_game, monkeypatch):
    monkeypatch.setattr(game_code, "TIME_LIMIT", 0.2)
    folder = own_game(question("while True:\n    try:\n        pass\n    except Exception:\n        pass"))
    assert "took longer than 0.2 s of processor time" in refused(cli, "--game", str(folder), "seven")


def test_a_question_that_sleeps_is_stopped_by_the_clock(cli, own_game, monkeypatch):
    monkeypatch.setattr(game_code, "WALL_LIMIT", 0.5)
    folder = own_game(question("import time\ntime.sleep(30)"))
    assert "QUESTIONS['seven']: took longer than 5 s of processor time (or 0.5 s in all) and was stopped" in \
        refused(cli, "--game", str(folder), "seven")


def test_a_game_without_a_referee_or_a_position_check_says_so(cli, game_copy):
    folder = game_copy("special-action-tokens")
    (folder / "referee.py").unlink()
    assert "no referee" in refused(cli, "--game", str(folder), "play")
    assert "has no position check" in refused(cli, "--game", "web-of-spies", "position", "x.yaml")
    assert "position" not in cli("referee", "--game", "web-of-spies", "--help").stdout


def test_a_position_check_that_returns_something_else_is_refused(cli, own_game):
    folder = own_game(TOY + "\ndef check_position(table, position):\n    return [1]\n")
    position = folder / "p.yaml"
    position.write_text("year: 1936\n", encoding="utf-8")
    assert "check_position: must return a list of Finding" in refused(cli, "--game", str(folder), "position", str(position))


def test_a_question_may_not_take_the_position_commands_name(cli, own_game):
    folder = own_game(question("return 7").replace("{'seven': seven}", "{'position': seven}"))
    assert "QUESTIONS['position']: the question name 'position' is taken" in refused(cli, "--game", str(folder), "position")


def test_a_game_edited_between_two_questions_is_read_again(cli, game_copy):
    folder = game_copy("web-of-spies")
    assert cli("trust", str(folder)).code == 0
    ask = ("referee", "--game", str(folder), "setup", "2", "--json")
    assert cli(*ask).json()["agents"] == 5
    pieces = folder / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace('name: "Agent", count: 5', 'name: "Agent", count: 4'), encoding="utf-8")
    assert cli(*ask).json()["agents"] == 4


def test_games_in_a_data_folder_from_elsewhere_need_trust_too(cli, tmp_path, monkeypatch):
    import shutil

    root = tmp_path / "data"
    shutil.copytree(paths.components_dir() / "special-action-tokens", root / "components" / "special-action-tokens",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "layouts").symlink_to(paths.layouts_dir())
    monkeypatch.setenv("DOSSIER_DATA", str(root))
    assert "dossier trust" in refused(cli, "--game", "special-action-tokens", "play", "--token", "Move 2")
    assert cli("trust", str(root / "components" / "special-action-tokens")).code == 0
    assert cli("referee", "--game", "special-action-tokens", "play", "--token", "Move 2").code == 0
