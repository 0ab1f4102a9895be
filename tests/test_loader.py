"""Broken copies of the Spies! data are refused with one clear line per problem, exit 2, no traceback."""

from __future__ import annotations

import pytest
import yaml


def edit(folder, name, old, new, count=1):
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def refused(cli, folder):
    result = cli("validate", "--game", folder)
    assert result.code == 2, result
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return result.stderr


@pytest.fixture
def broken(game_copy, monkeypatch, tmp_path):
    folder = game_copy("spies")
    monkeypatch.chdir(tmp_path)
    return folder


def test_award_kind_names_file_field_and_value(cli, broken):
    data = yaml.safe_load((broken / "tiles.yaml").read_text(encoding="utf-8"))
    assert data["tiles"][12]["awards"][1]["kind"] == "£"
    data["tiles"][12]["awards"][1]["kind"] = "f"
    (broken / "tiles.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    err = refused(cli, broken)
    assert "spies/tiles.yaml: tiles[12].awards[1].kind: expected 'c' or '£', got 'f'" in err


def test_missing_field(cli, broken):
    edit(broken, "tiles.yaml", '    event: "Czech Crisis!"\n', "")
    err = refused(cli, broken)
    assert "spies/tiles.yaml: tiles[7].event: required field is missing" in err


def test_unknown_field_is_a_typo_not_ignored(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Georgi\", strength: 1", "name: \"Georgi\", strenght: 1")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces[0].strenght: unknown field" in err


def test_wrong_type(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Georgi\", strength: 1", "name: \"Georgi\", strength: one")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces[0].strength: expected a whole number, got 'one'" in err


def test_impossible_numbers(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Georgi\", strength: 1", "name: \"Georgi\", strength: -3")
    edit(broken, "pieces.yaml", "name: \"Tactical Comm\", value: 3", "name: \"Tactical Comm\", value: -1")
    edit(broken, "pieces.yaml", "bonus: 100", "bonus: -100")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces[0].strength: input should be greater than or equal to 0, got -3" in err
    assert ".value: input should be greater than or equal to 0, got -1" in err
    assert ".bonus: input should be greater than or equal to 0, got -100" in err


def test_missing_roster_is_refused_when_the_sheet_has_a_total(cli, broken):
    (broken / "pieces.yaml").unlink()
    (broken / "aliases.yaml").unlink()  # its piece names would be reported too
    err = refused(cli, broken)
    assert "spies/pieces.yaml: file not found: game.yaml says the sheet holds 200 pieces" in err


def layout_copy(folder, old, new):
    """Give the copy its own edited copy of the Spies! layout preset (a game folder's layouts/ comes first)."""
    from generators.core import paths

    preset = folder / "layouts" / "spies.yaml"
    preset.parent.mkdir(exist_ok=True)
    text = (paths.layouts_dir() / "spies.yaml").read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in spies.yaml"
    preset.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("old, new, message", [
    ("counter: {width: 0.5in,", "counter: {width: 0mm,", "layouts/spies.yaml: sizes.counter.width: input should be greater than 0"),
    ("extends: default", "extends: default\nmargin: -5mm", "layouts/spies.yaml: margin: input should be greater than or equal to 0"),
    ("extends: default", "extends: default\nmin_text_size: {tile: 0pt}", "layouts/spies.yaml: min_text_size.tile: input should be greater than 0"),
    ("extends: default", "extends: default\npaper: foolscap", "layouts/spies.yaml: paper: unknown paper size 'foolscap'"),
    ("extends: default", "extends: defualt", "layouts/spies.yaml: extends: unknown layout preset 'defualt'; did you mean 'default'?"),
])
def test_impossible_layout_values(cli, broken, old, new, message):
    layout_copy(broken, old, new)
    assert message in refused(cli, broken)


def test_yaml_syntax_error_names_line(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Georgi\", strength: 1}", "name: \"Georgi\", strength: 1")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: line" in err and "YAML syntax error" in err


def test_duplicate_key_refused(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Georgi\", strength: 1", "name: \"Georgi\", name: \"Georgy\", strength: 1")
    err = refused(cli, broken)
    assert "key 'name' appears twice" in err


def test_duplicate_tile_id(cli, broken):
    edit(broken, "tiles.yaml", 'id: "Rs 16"', 'id: "Rs 15"')
    err = refused(cli, broken)
    assert "spies/tiles.yaml: tiles[0].id: id 'Rs 15' is used by more than one tile" in err
    assert "tiles[1].id: expected 'Rs 16' from this tile's fields, got 'Rs 15'" in err


def test_year_outside_the_game(cli, broken):
    edit(broken, "tiles.yaml", "years: [1936, 1937, 1938]\n    event: \"Soviet Black", "years: [1936, 1937, 1940]\n    event: \"Soviet Black")
    err = refused(cli, broken)
    assert "spies/tiles.yaml: tiles[0].years[2]: 1940 is outside 1933–1939" in err


def test_counts_must_fill_the_sheet(cli, broken):
    edit(broken, "pieces.yaml", "count: 10,", "count: 11,")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces: counts add up to 201, but the sheet holds 200" in err


def test_unknown_kind_and_faction(cli, broken):
    edit(broken, "pieces.yaml", "kind: spy, nation: russia, name: \"Georgi\"", "kind: spie, nation: russia, name: \"Georgi\"")
    edit(broken, "pieces.yaml", "kind: spy, nation: russia, name: \"Vanya\"", "kind: spy, nation: rusia, name: \"Vanya\"")
    err = refused(cli, broken)
    assert "pieces[0].kind: unknown kind 'spie'" in err
    assert "pieces[1].nation: unknown faction 'rusia'" in err


def test_every_problem_reported_at_once(cli, broken):
    edit(broken, "pieces.yaml", "name: \"Limpet Mine\"", "name: \"Tactical Comm\"")
    edit(broken, "tiles.yaml", "years: [1936, 1937, 1938]\n    event: \"Soviet Black", "years: [1938, 1937]\n    event: \"Soviet Black")
    err = refused(cli, broken)
    assert "duplicate secret 'Tactical Comm'" in err
    assert "tiles[0].years: expected values in order without repeats" in err


def test_template_naming_a_missing_value(cli, broken):
    edit(broken, "pieces.yaml", "{kind: police, nation: russia, name: \"NKVD\", strength: 2}", "{kind: police, nation: russia, name: \"NKVD\"}")
    err = refused(cli, broken)
    assert "pieces[5]: a face of kind 'police' names strength" in err


def test_assumed_must_name_a_field(cli, broken):
    edit(broken, "pieces.yaml", "assumed: {count:", "assumed: {cuont:")
    err = refused(cli, broken)
    assert "assumed names unknown field(s): cuont" in err


def test_top_level_not_a_mapping(cli, broken):
    (broken / "aliases.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    err = refused(cli, broken)
    assert "spies/aliases.yaml: expected a mapping at the top of the file, got list" in err


def test_alias_pointing_nowhere(cli, broken):
    edit(broken, "aliases.yaml", "Sofia: Sophia", "Sofia: Sofiya")
    err = refused(cli, broken)
    assert "spies/aliases.yaml: aliases.Sofia: points at 'Sofiya', which is not a name in this game" in err


def test_folder_without_game_yaml(cli, tmp_path):
    (tmp_path / "empty").mkdir()
    result = cli("validate", "--game", tmp_path / "empty")
    assert result.code == 2
    assert "game.yaml: file not found" in result.stderr


def test_unknown_game_suggests(cli):
    result = cli("validate", "--game", "spys")
    assert result.code == 2
    assert "unknown game 'spys'; did you mean 'spies'?" in result.stderr


def test_refused_build_writes_nothing(cli, broken, tmp_path):
    edit(broken, "pieces.yaml", "count: 10,", "count: 11,")
    out = tmp_path / "out"
    result = cli("build", "--game", broken, "--out", out)
    assert result.code == 2
    assert not out.exists()


def test_a_piece_field_the_game_does_not_declare_is_unknown(cli, broken):
    edit(broken, "game.yaml", "  cousin: {type: bool, default: false, label: Cousin}\n", "")
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces[4].cousin (also pieces[18].cousin, pieces[31].cousin, pieces[44].cousin and 1 more): unknown field" in err


def test_a_declared_piece_field_takes_only_its_type(cli, broken):
    edit(broken, "pieces.yaml", 'name: "Cousin", strength: 4, cousin: true', 'name: "Cousin", strength: 4, cousin: 7')
    err = refused(cli, broken)
    assert "spies/pieces.yaml: pieces[4].cousin: expected true or false, got 7" in err


def test_a_piece_field_may_not_redeclare_a_field_every_piece_has(cli, broken):
    edit(broken, "game.yaml", "  cousin: {type: bool", "  strength: {type: bool")
    err = refused(cli, broken)
    assert "spies/game.yaml: piece_fields: strength is a field every piece already has" in err


def test_award_kinds_come_from_the_game(cli, broken):
    edit(broken, "game.yaml", 'choices: {c: chits, "£": money}', 'choices: {c: chits, "£": money, f: favours}')
    data = yaml.safe_load((broken / "tiles.yaml").read_text(encoding="utf-8"))
    data["tiles"][12]["awards"][1]["kind"] = "f"
    (broken / "tiles.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert cli("validate", "--game", broken).code == 0
