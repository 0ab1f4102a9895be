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
    assert {p["kind"] for p in pieces} == {"spy", "police", "secret", "counterspy", "chit", "bank", "year", "sanctioned"}
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
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    rows = cli("assumptions", "--json").json()
    missing = [r for r in rows if f"| {r['subject'] or r['where']} | {r['field']} | {r['reason']} |" not in readme]
    assert not missing, f"README assumptions table is missing {len(missing)} rows; regenerate it with `dossier assumptions --markdown`"


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


README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_refusal_example_is_what_validate_prints(cli, game_copy, tmp_path, monkeypatch):
    import yaml

    shown = re.search(r"^\$ dossier validate --game \./my-spies\n(.+)$", README.read_text(encoding="utf-8"), re.M)
    assert shown, "the README shows a refusal of ./my-spies"
    folder = game_copy("spies").rename(tmp_path / "my-spies")
    tiles = yaml.safe_load((folder / "tiles.yaml").read_text(encoding="utf-8"))
    tiles["tiles"][12]["awards"][1]["kind"] = "f"
    (folder / "tiles.yaml").write_text(yaml.safe_dump(tiles, allow_unicode=True), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("validate", "--game", "./my-spies")
    assert result.code == 2 and result.stderr.strip() == shown.group(1)


@pytest.mark.parametrize("size", re.findall(r"`--card-size ([^`]+)`", README.read_text(encoding="utf-8")))
def test_readme_card_sizes_build(cli, tmp_path, size):
    assert cli("build", "--game", "spies", "--only", "cards", "--card-size", size, "--out", tmp_path).code == 0
