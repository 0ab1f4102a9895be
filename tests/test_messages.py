"""A designer's mistakes, each answered through the CLI with the file, the line and column, the record as a person
calls it, and the nearest right spelling; exit code 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.core.paths import BUNDLED


@pytest.fixture
def mini(cli, tmp_path, monkeypatch) -> Path:
    """A fresh `dossier new` game in tmp_path, with the current folder there so messages name it relatively."""
    monkeypatch.chdir(tmp_path)
    assert cli("new", "mini", "--to", tmp_path).code == 0
    return tmp_path / "mini"


def edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {file}"
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused(cli, game: Path, out: Path) -> str:
    result = cli("build", "--game", game, "--out", out)
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists() or not any(out.rglob("*.pdf"))
    return result.stderr


def line_of(file: Path, text: str) -> int:
    return next(i for i, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# ---- item 4: lengths in a layout file take a unit

@pytest.mark.parametrize("written", ["20", "5/8", "0.625"])
def test_a_layout_length_without_a_unit_is_refused_naming_the_layout_file_and_field(cli, mini, tmp_path, written):
    layout = mini / "layouts" / "mini.yaml"
    edit(layout, "counter: {width: 5/8in", f"counter: {{width: {written}")
    err = refused(cli, mini, tmp_path / "out")
    assert f"mini/layouts/mini.yaml: sizes.counter.width: {written!r}" in err or f"sizes.counter.width: {written} has no unit" in err
    assert "has no unit" in err and "pieces.yaml" not in err
    assert f"line {line_of(layout, 'counter:')}" in err


def test_a_layout_length_with_a_unit_still_builds(cli, mini, tmp_path):
    edit(mini / "layouts" / "mini.yaml", "counter: {width: 5/8in, height: 5/8in}", "counter: {width: 16mm, height: 1.6cm}")
    assert cli("build", "--game", mini, "--only", "counters", "--out", tmp_path / "out").code == 0


def test_a_value_a_preset_inherits_is_blamed_on_the_file_that_sets_it(cli, mini, tmp_path):
    base = mini / "layouts" / "base.yaml"
    base.write_text("extends: default\nmargin: 12\n", encoding="utf-8")
    edit(mini / "layouts" / "mini.yaml", "extends: default", "extends: base")
    err = refused(cli, mini, tmp_path / "out")
    assert "mini/layouts/base.yaml: margin: 12 has no unit" in err and "(line 2, column 1)" in err


def test_every_shipped_layout_writes_its_lengths_with_units():
    from generators.core.layouts import load_layout

    for preset in sorted((BUNDLED / "layouts").glob("*.yaml")):
        if preset.stem not in ("paper", "print-services"):
            load_layout(preset.stem)


# ---- item 5: lines, record names, suggestions

def test_a_misspelt_piece_field_names_the_line_the_piece_and_the_field_meant(cli, mini, tmp_path):
    pieces = mini / "pieces.yaml"
    edit(pieces, "name: Lynx, strength: 3", "name: Lynx, strenght: 3")
    err = refused(cli, mini, tmp_path / "out")
    assert (f"mini/pieces.yaml: pieces[1].strenght: unknown field; did you mean 'strength'? "
            f"(Lynx, line {line_of(pieces, 'Lynx')}, column ") in err


def test_a_misspelt_city_suggests_the_city_on_the_map(cli, game_copy, tmp_path, monkeypatch):
    game = game_copy("spies")
    tiles = game / "tiles.yaml"
    edit(tiles, 'cities: ["Moscow", "Berlin"]', 'cities: ["Moscow", "Berlinn"]')
    err = cli("validate", "--game", game).stderr
    assert "tiles.yaml: tiles[1].awards[0].cities[1]: city 'Berlinn' is not on the map; did you mean 'Berlin'? (Rs 16, line" in err


def test_a_misspelt_route_end_suggests_the_city(cli, game_copy):
    game = game_copy("spies")
    edit(game / "map.yaml", "{from: Hamburg, to: Berlin, kind: rail}", "{from: Hamburg, to: Berlinn, kind: rail}")
    line = line_of(game / "map.yaml", "to: Berlinn")
    result = cli("map", "check", "--game", game)
    assert result.code == 1
    assert "'Berlinn' is not a city on the map; did you mean 'Berlin'? [routes[" in result.stdout
    assert f"line {line}, column" in result.stdout


def test_a_face_template_typo_is_reported_once_against_game_yaml(cli, mini, tmp_path):
    edit(mini / "game.yaml", 'front: {title: "{name}", value: "{strength}"', 'front: {title: "{nmae}", value: "{strength}"')
    err = refused(cli, mini, tmp_path / "out")
    assert "mini/game.yaml: kinds.agent.front.title: {nmae} is not a piece field; did you mean {name}?" in err
    assert "pieces.yaml" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_colour_written_as_a_word_is_refused_in_words(cli, mini, tmp_path):
    layout = mini / "layouts" / "mini.yaml"
    edit(layout, 'red: {fill: "#d55e00"', 'red: {fill: "red"')
    err = refused(cli, mini, tmp_path / "out")
    assert "mini/layouts/mini.yaml: colours.red.fill: 'red' is not a colour: write #rrggbb" in err
    assert f"line {line_of(layout, 'red: {fill')}, column" in err
    assert "pattern" not in err


def test_a_yaml_syntax_error_keeps_its_own_line(cli, mini, tmp_path):
    (mini / "pieces.yaml").write_text("pieces:\n  - {kind: agent, name: Fox\n", encoding="utf-8")
    err = refused(cli, mini, tmp_path / "out")
    assert "mini/pieces.yaml: line 3, column 1: YAML syntax error" in err and err.count("line ") == 1


def test_a_missing_field_points_at_its_record(cli, mini, tmp_path):
    pieces = mini / "pieces.yaml"
    edit(pieces, "{kind: agent, nation: blue, name: Heron, strength: 2}", "{kind: agent, nation: blue, strength: 2}")
    err = refused(cli, mini, tmp_path / "out")
    assert f"mini/pieces.yaml: pieces[2].name: required field is missing (line {line_of(pieces, 'nation: blue, strength: 2')}, column 5)" in err


# ---- item 8: a game with nothing to print

def test_a_game_without_a_roster_is_valid_but_warned_about(cli, mini):
    (mini / "pieces.yaml").unlink()
    result = cli("validate", "--game", mini)
    assert result.code == 0 and "valid (0 pieces, 0 tiles)" in result.stdout
    assert "warning: mini has nothing to cut out: there is no mini/pieces.yaml and the game has no tiles" in result.stderr


def test_a_build_without_a_roster_warns_and_prints_what_it_can(cli, mini, tmp_path):
    (mini / "pieces.yaml").write_text("pieces: []\n", encoding="utf-8")
    result = cli("build", "--game", mini, "--out", tmp_path / "out")
    assert result.code == 0 and "mini/pieces.yaml lists no pieces" in result.stderr
    assert sorted(p.name for p in (tmp_path / "out" / "mini").glob("*.pdf")) == ["cards.pdf", "player-aid.pdf"]


def test_a_build_with_nothing_at_all_to_print_is_refused(cli, mini, tmp_path):
    (mini / "pieces.yaml").unlink()
    (mini / "cards.yaml").unlink()
    result = cli("build", "--game", mini, "--out", tmp_path / "out")
    assert result.code == 2 and "nothing to build: mini has nothing to print" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_build_of_only_what_a_game_lacks_says_so(cli, tmp_path):
    result = cli("build", "--game", "global-1936-spies", "--only", "tiles", "--out", tmp_path / "out")
    assert result.code == 0 and "warning: nothing to build: global-1936-spies has nothing to print for --only tiles" in result.stderr
    assert not (tmp_path / "out").exists()
