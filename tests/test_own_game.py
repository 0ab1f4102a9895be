"""Make your own game: a game written only as data (YAML, no Python) in a folder of its own
builds with `dossier build --game <path>`, and its mistakes are refused by `dossier validate`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

MM = 72 / 25.4

GAME = """\
name: courier-run
title: Courier Run
layout: courier
factions:
  - {id: red, name: Red Network}
  - {id: blue, name: Blue Network}
kinds:
  agent:
    label: Agent
    size: chip
    unique_by: [nation, name]
    front: {title: "{name}", value: "{strength}", colour: nation}
    back: {title: "{NATION}", colour: nation}
  dossier:
    label: Dossier
    size: dossier
    unique_by: [name]
    front: {title: "{name}", text: "{text}", value: "{value}", colour: paper}
    back: {title: "DOSSIER", colour: paper}
"""

PIECES = """\
pieces:
  - {kind: agent, nation: red, name: Fox, strength: 2}
  - {kind: agent, nation: red, name: Lynx, strength: 3}
  - {kind: agent, nation: blue, name: Heron, strength: 2}
  - {kind: agent, nation: blue, name: Crane, strength: 3, count: 2}
  - {kind: dossier, name: Harbour Plans, text: "Worth most in the capital.", value: 4}
  - {kind: dossier, name: Cipher Key, text: "Doubles one message.", value: 2}
"""

LAYOUT = """\
extends: default
paper: a4
sizes:
  chip: {width: 20mm, height: 20mm}
  dossier: {width: 50mm, height: 70mm}
colours:
  red: {fill: "#d55e00", ink: "#000000"}
  blue: {fill: "#0072b2", ink: "#ffffff"}
  paper: {fill: "#fffbe6", ink: "#000000"}
"""

CARDS = """\
citations: ["Moving", "Winning"]
cards:
  - id: summary
    title: Courier Run summary
    front:
      title: How to play
      sections:
        - heading: Moving
          items:
            - {text: "An agent moves one space a turn.", rules: ["Moving"]}
        - heading: Winning
          items:
            - {text: "Deliver two dossiers to your capital.", rules: ["Winning"]}
"""


def write_game(folder: Path, **replace: str) -> Path:
    """The small game above, as data only, with any file's text replaced."""
    files = {"game.yaml": GAME, "pieces.yaml": PIECES, "cards.yaml": CARDS, "layouts/courier.yaml": LAYOUT} | {
        k.replace("__", "/").replace("_yaml", ".yaml"): v for k, v in replace.items()}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def outlines(page) -> Counter:
    return Counter((round((r["x1"] - r["x0"]) / MM, 1), round((r["bottom"] - r["top"]) / MM, 1))
                   for r in page.rects if r["stroke"] and not r["fill"])


@pytest.fixture
def own(tmp_path) -> Path:
    return write_game(tmp_path / "courier-run")


def test_a_game_written_only_as_data_validates_and_builds(cli, own, tmp_path):
    assert not list(own.rglob("*.py"))
    assert cli("validate", "--game", own).code == 0
    out = tmp_path / "out"
    result = cli("build", "--game", own, "--out", out)
    assert result.code == 0, result.stderr
    built = out / "courier-run"
    assert sorted(p.name for p in built.iterdir()) == ["cards.pdf", "counters.pdf", "player-aid.pdf"]
    with pdfplumber.open(built / "counters.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        assert (round(front.width / MM), round(front.height / MM)) == (210, 297)  # the preset's A4
        assert outlines(front) == {(20.0, 20.0): 5, (50.0, 70.0): 2}
        text = front.extract_text()
        for word in ("Fox", "Lynx", "Heron", "Crane", "Harbour", "Cipher"):
            assert word in text
        words = Counter(w["text"] for w in back.extract_words())
        assert (words["RED"], words["BLUE"], words["NETWORK"], words["DOSSIER"]) == (2, 3, 5, 2)
    with pdfplumber.open(built / "cards.pdf") as pdf:
        text = " ".join(" ".join(p.extract_text().split()) for p in pdf.pages)
        assert "How to play" in text and "An agent moves one space a turn." in text


def test_the_command_line_still_sets_the_sizes(cli, own, tmp_path):
    assert cli("build", "--game", own, "--out", tmp_path, "--only", "counters", "--paper", "letter", "--piece-size", "16mm").code == 0
    with pdfplumber.open(tmp_path / "courier-run" / "counters.pdf") as pdf:
        assert round(pdf.pages[0].width / MM, 1) == 215.9
        assert outlines(pdf.pages[0]) == {(16.0, 16.0): 5, (50.0, 70.0): 2}


@pytest.mark.parametrize("replace, where", [
    ({"game_yaml": GAME.replace("size: chip", "size: chp")}, "kinds.agent.size: size 'chp' is not in layout preset courier.yaml"),
    ({"game_yaml": GAME.replace("colour: paper}", "colour: papr}", 1)}, "kinds.dossier.front.colour: colour 'papr'"),
    ({"game_yaml": GAME.replace("layout: courier", "layout: couriers")}, "layout: unknown layout preset 'couriers'"),
    ({"layouts__courier_yaml": LAYOUT.replace("20mm, height", "twenty, height")}, "courier.yaml: sizes.chip.width"),
    ({"pieces_yaml": PIECES.replace("kind: dossier, name: Cipher", "kind: dosier, name: Cipher")}, "pieces[5].kind: unknown kind 'dosier'"),
])
def test_mistakes_in_an_own_game_are_refused_by_file_and_field(cli, tmp_path, replace, where):
    folder = write_game(tmp_path / "courier-run", **replace)
    result = cli("validate", "--game", folder)
    assert result.code == 2 and where in result.stderr, result.stderr
    out = tmp_path / "out"
    assert cli("build", "--game", folder, "--out", out).code == 2
    assert not out.exists()


# ---------------------------------------------------------------- a designer's own copy, through `dossier new`

def _files(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_a_copied_game_is_edited_validated_and_built_into_its_own_folder(cli, tmp_path, monkeypatch):
    import shlex

    from generators.core import paths

    monkeypatch.chdir(tmp_path)
    shipped = _files(paths.components_dir() / "spies")

    made = cli("new", "my-spies", "--from", "spies")
    assert made.code == 0, made.stderr
    copy = tmp_path / "my-spies"
    assert (copy / "layouts" / "my-spies.yaml").is_file()
    assert "name: my-spies" in (copy / "game.yaml").read_text(encoding="utf-8")
    pieces = copy / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace('name: "Piccolo"', 'name: "Pinocchio"'), encoding="utf-8")

    printed = [line.split("#")[0].split() for line in made.stdout.splitlines() if line.strip().startswith("dossier ")]
    assert [args[:2] for args in printed] == [["dossier", "validate"], ["dossier", "build"]]
    validated = cli(*shlex.split(" ".join(printed[0]))[1:])
    assert validated.code == 0 and f"read from {copy}" in validated.stdout
    built = cli(*shlex.split(" ".join(printed[1]))[1:], "--only", "counters")
    assert built.code == 0, built.stderr
    assert built.stdout.split() == ["output/my-spies/counters.pdf"]

    with pdfplumber.open(tmp_path / "output" / "my-spies" / "counters.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Pinocchio" in text and "Piccolo" not in text
    assert [p.name for p in (tmp_path / "output").iterdir()] == ["my-spies"]  # nothing in output/spies
    assert _files(paths.components_dir() / "spies") == shipped


def test_a_folder_copied_by_hand_builds_under_its_folder_name_not_its_game_name(cli, game_copy, tmp_path):
    folder = game_copy("spies").rename(tmp_path / "my-spies")  # game.yaml still says name: spies
    out = tmp_path / "out"
    assert cli("build", "--game", folder, "--only", "tiles", "--out", out).code == 0
    assert [p.relative_to(out).as_posix() for p in out.rglob("*.pdf")] == ["my-spies/tiles.pdf"]


def test_dossier_path_finds_a_game_by_name(cli, tmp_path, monkeypatch):
    games = tmp_path / "games"
    games.mkdir()
    assert cli("new", "courier", "--to", games).code == 0
    monkeypatch.setenv("DOSSIER_PATH", str(games))
    listed = {r["name"]: r["folder"] for r in cli("games", "--json").json()}
    assert listed["courier"] == str(games / "courier") and "spies" in listed
    assert cli("validate", "--game", "courier").code == 0
    assert cli("build", "--game", "courier", "--only", "counters", "--out", tmp_path / "out").code == 0
    assert (tmp_path / "out" / "courier" / "counters.pdf").is_file()
    assert str(games) in cli("paths").stdout


def test_two_games_that_would_share_an_output_folder_are_refused(cli, game_copy, tmp_path):
    elsewhere = game_copy("spies")  # a folder named spies, like the shipped game's
    out = tmp_path / "out"
    result = cli("build", "--game", "spies", "--game", elsewhere, "--only", "counters", "--out", out)
    assert result.code == 2
    assert f"and {elsewhere} would both write into {out / 'spies'}" in result.stderr
    assert not out.exists()


def test_the_example_game_validates_and_builds_every_product_it_has(cli, tmp_path):
    made = cli("new", "courier", "--to", tmp_path)
    assert made.code == 0 and "a small example game" in made.stdout
    folder = tmp_path / "courier"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "cards.yaml", "game.yaml", "layouts/courier.yaml", "pieces.yaml"]
    assert cli("validate", "--game", folder).code == 0
    assert cli("build", "--game", folder, "--out", tmp_path / "out").code == 0
    assert sorted(p.name for p in (tmp_path / "out" / "courier").iterdir()) == ["cards.pdf", "counters.pdf", "player-aid.pdf"]


@pytest.mark.parametrize("args, message", [
    (["../escape"], "NAME: '../escape' is not a plain folder name"),
    ([".hidden"], "NAME: '.hidden' is not a plain folder name"),
    (["x" * 65], "is not a plain folder name"),
    (["spies"], "NAME: a game named 'spies' is already found in"),
    (["Spies"], "NAME: a game named 'Spies' is already found in"),
    (["default"], "NAME: 'default' is the name of the shared layout preset"),
    (["mine", "--from", "nosuch"], "unknown game 'nosuch'"),
    (["mine", "--to", "missing"], "--to: missing is not a folder"),
])
def test_new_refuses_what_it_cannot_make(cli, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = cli("new", *args)
    assert result.code == 2 and message in result.stderr, result.stderr
    assert not list(tmp_path.iterdir())


def test_new_never_writes_into_an_existing_folder(cli, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine", encoding="utf-8")
    result = cli("new", "mine", "--to", tmp_path)
    assert result.code == 2 and "mine already exists" in result.stderr
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
