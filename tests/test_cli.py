"""The data commands through the CLI: validate, list, paths, games, assumptions, version, help."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generators import __version__


def test_validate_shipped_data(cli):
    result = cli("validate", "--game", "spies")
    assert result.code == 0
    assert "spies: valid (200 pieces, 50 tiles)" in result.stdout


def test_version(cli):
    result = cli("--version")
    assert result.code == 0 and result.stdout.strip() == f"dossier {__version__}"


def test_help_lists_commands(cli):
    result = cli("--help")
    assert result.code == 0
    for command in ("build", "validate", "list", "paths"):
        assert command in result.stdout


def test_list_tiles_json(cli):
    result = cli("list", "tiles", "--json")
    assert result.code == 0
    tiles = result.json()
    assert len(tiles) == 50
    ge1 = next(t for t in tiles if t["id"] == "Ge 1")
    assert ge1["years"] == [1937, 1938, 1939]
    assert ge1["event"] == "Czech Crisis!"
    assert ge1["special"] is True
    assert ge1["awards"][0] == {"amount": 3, "kind": "c", "cities": ["Berlin", "Prague"]}
    assert ge1["awards"][2] == {"amount": 2, "kind": "£", "cities": ["Budapest", "Vienna", "Bratislava"]}


def test_list_pieces_json(cli):
    pieces = cli("list", "pieces", "--json").json()
    assert sum(p["count"] for p in pieces) == 200
    assert {p["kind"] for p in pieces} == {"spy", "police", "secret", "counterspy", "chit", "bank", "year",
                                            "action-points", "sanctioned"}
    piccolo = next(p for p in pieces if p["name"] == "Piccolo")
    assert piccolo == {"kind": "spy", "name": "Piccolo", "nation": "italy", "count": 1, "strength": 1}
    drop = next(p for p in pieces if p["name"] == "Drop")
    assert drop["cost"] == "20–30£" and drop["nation"] is None
    bomb = next(p for p in pieces if p["name"] == "Atomic Bomb")
    assert bomb["value"] == 5


def test_list_secrets(cli):
    secrets = cli("list", "secrets", "--json").json()
    assert len(secrets) == 40
    table = cli("list", "secrets")
    assert table.code == 0 and "Atomic Bomb" in table.stdout


def test_list_unknown_listing(cli):
    result = cli("list", "spies")
    assert result.code == 2
    assert "tiles" in result.stderr


def test_paths_json(cli):
    found = cli("paths", "--json").json()
    assert Path(found["components"], "spies", "game.yaml").is_file()
    assert Path(found["layouts"], "default.yaml").is_file()
    assert "spies" in found["games"]


def test_games_lists_spies(cli):
    rows = cli("games", "--json").json()
    assert any(r["name"] == "spies" and r["title"] == "Spies!" for r in rows)


def test_assumptions_include_chit_counts_and_sizes(cli):
    rows = cli("assumptions", "--game", "spies", "--json").json()
    fields = {(r["subject"], r["field"]) for r in rows}
    assert ("Discovery", "count") in fields
    assert ("Sanctioned Spy", "count") in fields
    assert ("counter", "width") in fields and ("tile", "width") in fields


def test_readme_lists_every_assumption(cli):
    readme = (Path(__file__).resolve().parents[1] / "docs" / "assumptions.md").read_text(encoding="utf-8")
    rows = cli("assumptions", "--json").json()
    missing = [r for r in rows if f"| {r['subject'] or r['where']} | {r['field']} | {r['reason']} |" not in readme]
    assert not missing, f"docs/assumptions.md's table is missing {len(missing)} rows; regenerate it with `dossier assumptions --markdown`"


def test_installed_script_runs_from_another_folder(tmp_path):
    """The real `dossier` entry point, outside the checkout: the data travels with the package."""
    script = Path(sys.executable).with_name("dossier")
    result = subprocess.run([str(script), "list", "tiles", "--json"], cwd=tmp_path, capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "120"})
    assert result.returncode == 0, result.stderr
    assert '"Ge 1"' in result.stdout


def test_bad_input_has_no_traceback_through_the_script(tmp_path):
    script = Path(sys.executable).with_name("dossier")
    result = subprocess.run([str(script), "validate", "--game", "nosuchgame"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "unknown game 'nosuchgame'" in result.stderr


@pytest.mark.parametrize("option, value, message", [
    ("--piece-size", "0mm", "--piece-size: size '0mm' must be larger than zero"),
    ("--piece-size", "abc", "--piece-size: cannot read 'abc' as a length"),
    ("--card-size", "5/0in", "--card-size: cannot read '5/0in' as a length: division by zero"),
    ("--back-offset", "abc", "--back-offset: cannot read 'abc' as a length"),
    ("--back-offset", "1mm,2mm,3mm", "--back-offset: cannot read '1mm,2mm,3mm' as an offset"),
    ("--back-offset", "500mm,0", "--back-offset 500,0 mm: a shift beyond the 7 mm margin"),
    ("--bleed", "-1mm", "--bleed: cannot be negative"),
    ("--format", "pdf,xyz", "--format: unknown format xyz"),
])
def test_build_option_refusals_name_the_option(cli, tmp_path, option, value, message):
    result = cli("build", "--game", "spies", "--only", "counters", "--out", tmp_path, option, value)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert message in result.stderr
    assert not list(tmp_path.rglob("*.pdf"))


DOCS = Path(__file__).resolve().parents[1] / "docs"
COMMANDS_PAGE = DOCS / "commands.md"


def test_readme_refusal_example_is_what_validate_prints(cli, game_copy, tmp_path, monkeypatch):
    import yaml

    shown = re.search(r"^\$ dossier validate --game \./my-spies\n(.+)$", COMMANDS_PAGE.read_text(encoding="utf-8"), re.M)
    assert shown, "docs/commands.md shows a refusal of ./my-spies"
    folder = game_copy("spies").rename(tmp_path / "my-spies")
    tiles = yaml.safe_load((folder / "tiles.yaml").read_text(encoding="utf-8"))
    tiles["tiles"][12]["awards"][1]["kind"] = "f"
    (folder / "tiles.yaml").write_text(yaml.safe_dump(tiles, allow_unicode=True), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("validate", "--game", "./my-spies")
    assert result.code == 2 and result.stderr.strip() == shown.group(1)


@pytest.mark.parametrize("size", re.findall(r"`--card-size ([^`]+)`", "".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md")))))
def test_readme_card_sizes_build(cli, tmp_path, size):
    assert cli("build", "--game", "spies", "--only", "cards", "--card-size", size, "--out", tmp_path).code == 0


COMMANDS_WITH_HELP = ["", "build", "new", "watch", "validate", "games", "list", "assumptions", "paths", "replace",
                      "calibrate", "map", "map route", "map check", "referee", "referee move", "rules", "rules search"]


@pytest.mark.parametrize("command", COMMANDS_WITH_HELP)
def test_every_command_takes_dash_h(cli, command):
    short, long = cli(*command.split(), "-h"), cli(*command.split(), "--help")
    assert short.code == 0 and short.stdout.startswith("Usage: dossier")
    assert short.stdout == long.stdout


def test_build_help_lists_the_products_the_units_and_what_has_no_svg(cli):
    text = " ".join(cli("build", "-h").stdout.split())
    assert "--only PRODUCT[,PRODUCT]" in text and "comma-separated or repeated: counters, tiles, cards, player-aid, map" in text
    assert "with its unit (mm, cm, in, pt)" in text
    assert "Every product has SVG pages except map-tiles" in text


def test_root_help_names_every_environment_variable(cli):
    from generators.core.paths import ENVIRONMENT

    text = " ".join(cli("-h").stdout.split())
    readme = COMMANDS_PAGE.read_text(encoding="utf-8")
    for name in ENVIRONMENT:
        assert f"{name}:" in text
        assert f"`{name}`" in readme, f"docs/commands.md does not document {name}"


def test_only_takes_commas_and_builds_just_those(cli, tmp_path):
    assert cli("new", "courier", "--to", tmp_path).code == 0
    out = tmp_path / "out"
    result = cli("build", "--game", tmp_path / "courier", "--only", "cards,player-aid", "--out", out)
    assert result.code == 0, result.stderr
    assert sorted(p.name for p in (out / "courier").iterdir() if not p.name.startswith(".")) == ["cards.pdf", "player-aid.pdf"]


def test_games_prints_whole_names_at_any_width(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "20")
    lines = cli("games").stdout.splitlines()
    names = cli("games", "--json").json()
    assert [line.split()[0] for line in lines] == [r["name"] for r in names]
    assert "special-action-tokens" in [r["name"] for r in names]


def test_games_json_says_where_each_game_is(cli):
    spies = next(r for r in cli("games", "--json").json() if r["name"] == "spies")
    assert Path(spies["folder"], "game.yaml").is_file() and spies["pieces"] == 200 and spies["tiles"] == 50


def test_validate_says_which_folder_it_read(cli):
    from generators.core import paths

    result = cli("validate", "--game", "spies")
    assert f"read from {paths.components_dir() / 'spies'}" in result.stdout


def test_paths_says_which_copy_of_the_data_it_reads(cli, tmp_path, monkeypatch):
    from generators.core import paths

    installed = paths.data_root() == paths.BUNDLED  # `pip install .` (as CI runs) or `pip install -e .`
    source = ("the copy installed with the package; edits to a checkout's components/ are not read (install with pip install -e .)"
              if installed else "this checkout, installed for editing")
    shown = cli("paths").stdout
    assert shown.startswith("data ") and f"({source})" in shown
    found = cli("paths", "--json").json()
    assert found["data_source"] == source
    (tmp_path / "components").mkdir()
    monkeypatch.setenv("DOSSIER_DATA", str(tmp_path))
    found = cli("paths", "--json").json()
    assert found["data"] == str(tmp_path) and found["data_source"] == "named by DOSSIER_DATA" and found["games"] == {}


@pytest.mark.parametrize("variable, value, message", [
    ("DOSSIER_PATH", "/no/such/folder", "DOSSIER_PATH: '/no/such/folder' is not a folder"),
    ("DOSSIER_DATA", "/no/such/folder", "DOSSIER_DATA: '/no/such/folder' is not a folder holding components/"),
    ("SOURCE_DATE_EPOCH", "yesterday", "SOURCE_DATE_EPOCH: 'yesterday' is not a whole number of seconds since 1970"),
])
def test_a_bad_environment_variable_is_one_message(cli, monkeypatch, variable, value, message):
    monkeypatch.setenv(variable, value)
    result = cli("games")
    assert result.code == 2 and result.stderr.strip() == f"dossier: error: {message}"
