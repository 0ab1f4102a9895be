"""The cache of a validated game's answers (core.game_cache): a map or rules question asked again is answered
without reading or checking the game, and never from files that are not the files as they are now."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import generators.validation as validation
from generators.core import game_cache, paths
from generators.core.game_cache import game_key, recall
from generators.map.network import Network
from generators.validation import VALID, load_game

AIR_LINE = "  - {from: Hague, to: Berlin, kind: air}"
REPO = Path(__file__).resolve().parent.parent


def _entries() -> list[Path]:
    folder = game_cache.cache_folder()
    return sorted(folder.glob("*.json")) if folder and folder.is_dir() else []


def _edit_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    """Replace `old` by `new` (of the same length) in `path`, leaving its size and change time as they were."""
    assert len(old) == len(new)
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def _route(cli, folder: Path, *ends: str) -> dict:
    result = cli("map", "route", *ends, "--game", folder, "--json")
    assert result.code == 0, result.stderr
    return result.json()


def test_a_route_asked_again_is_answered_without_reading_the_game(game_copy, tmp_path):
    folder = game_copy()
    env = os.environ | {"DOSSIER_CACHE": str(tmp_path / "cache")}
    ask = ("import sys\nfrom generators.cli import main\ncode = main(['map', 'route', 'Berlin', 'London', '--game', sys.argv[1]])\n"
           "print(sorted(m for m in sys.modules if m.startswith('generators.core.') and m.endswith('models')))\n"
           "raise SystemExit(code)")
    runs = [subprocess.run([sys.executable, "-c", ask, str(folder)], capture_output=True, text=True, env=env, cwd=tmp_path)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    first, second = (r.stdout.rsplit("\n", 2)[0] for r in runs)
    assert first == second and "Berlin → London: 2 space(s)" in first
    assert "generators.core.map_models" in runs[0].stdout.splitlines()[-1]
    assert runs[1].stdout.splitlines()[-1] == "[]"  # no record class was even imported


def test_an_edit_keeping_size_and_time_gives_the_new_route(cli, game_copy):
    folder = game_copy()
    assert _route(cli, folder, "Berlin", "London")["path"] == ["Berlin", "Hague", "London"]
    assert _route(cli, folder, "Berlin", "London")["path"] == ["Berlin", "Hague", "London"]  # from the cache
    _edit_keeping_size_and_time(folder / "map.yaml", AIR_LINE, AIR_LINE.replace("  - ", "  # ", 1))
    assert "Hague" not in _route(cli, folder, "Berlin", "London")["path"]


def test_a_game_broken_after_its_answer_was_kept_is_refused_naming_the_file(cli, game_copy):
    folder = game_copy()
    _route(cli, folder, "Berlin", "London")
    _edit_keeping_size_and_time(folder / "map.yaml", AIR_LINE, AIR_LINE.replace("air}", "car}"))
    result = cli("map", "route", "Berlin", "London", "--game", folder)
    assert result.code == 2 and "map.yaml" in result.stderr and "car" in result.stderr, result.stderr


def test_a_new_file_in_the_game_folder_is_a_new_key(game_copy):
    folder = game_copy()
    before = game_key(folder)
    (folder / "pieces.csv").write_text("", encoding="utf-8")  # beside pieces.yaml: the loader refuses the pair
    assert game_key(folder) not in (None, before)
    (folder / "pieces.csv").unlink()
    assert game_key(folder) == before


def test_an_edited_preset_and_other_code_are_new_keys(game_copy, tmp_path, monkeypatch):
    folder = game_copy()
    before = game_key(folder)
    monkeypatch.setattr(game_cache, "code_version", lambda: "another version of Dossier")
    assert game_key(folder) != before
    monkeypatch.undo()
    data = tmp_path / "data"
    for sub in ("components", "layouts"):
        (data / sub).mkdir(parents=True)
    for preset in (REPO / "layouts").glob("*.yaml"):
        (data / "layouts" / preset.name).write_bytes(preset.read_bytes())
    monkeypatch.setenv("DOSSIER_DATA", str(data))
    copied = game_key(folder)
    preset = data / "layouts" / "default.yaml"
    preset.write_bytes(preset.read_bytes() + b"\n# an edit\n")
    assert game_key(folder) != copied


def test_the_checks_run_only_for_files_that_have_not_passed_them(game_copy, monkeypatch):
    folder = game_copy()
    checked = []
    check = validation.problems
    monkeypatch.setattr(validation, "problems", lambda game, *level: checked.append(game.folder) or check(game, *level))
    load_game(folder)
    load_game(folder)
    assert len(checked) == 1
    _edit_keeping_size_and_time(folder / "map.yaml", AIR_LINE, AIR_LINE.replace("  - ", "  # ", 1))
    load_game(folder)
    assert len(checked) == 2
    load_game(folder, validation.Preflight.QUICK)  # a printing command's preflight reads more than the key covers
    assert len(checked) == 3


def test_a_file_edited_while_the_game_is_read_is_not_kept(game_copy, monkeypatch):
    folder = game_copy()
    key = game_key(folder)
    read = validation.read_game

    def read_then_edit(game):
        found = read(game)
        (folder / "notes.txt").write_text("written while the game was read", encoding="utf-8")
        return found

    monkeypatch.setattr(validation, "read_game", read_then_edit)
    load_game(folder)
    assert recall(key, VALID) is None and recall(game_key(folder), VALID) is None


def test_a_damaged_entry_is_a_miss_and_is_replaced(cli, game_copy):
    folder = game_copy()
    expected = _route(cli, folder, "Sophia", "Lisbon")
    for entry in _entries():
        entry.write_text('{"key": "' + entry.stem + '", "parts": {"network": {"places": {"Sophia": 3}}, "valid": 1}}')
    assert _route(cli, folder, "Sophia", "Lisbon") == expected
    kept = [json.loads(e.read_text(encoding="utf-8")) for e in _entries()]
    assert any(isinstance(k["parts"].get("network", {}).get("neighbours"), dict) for k in kept)


def test_a_fifo_planted_as_an_entry_is_a_miss_not_a_hang(cli, game_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("DOSSIER_CACHE", str(tmp_path / "cache"))  # the planted FIFOs stay out of the session's cache
    folder = game_copy()
    expected = _route(cli, folder, "Sophia", "Lisbon")
    for entry in _entries():
        entry.unlink()
        os.mkfifo(entry)
    ask = [sys.executable, "-c", "import sys\nfrom generators.cli import main\nraise SystemExit(main(sys.argv[1:]))",
           "map", "route", "Sophia", "Lisbon", "--game", str(folder), "--json"]
    run = subprocess.run(ask, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == expected


def test_an_unwritable_cache_changes_no_answer(cli, game_copy, tmp_path, monkeypatch):
    folder = game_copy()
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("DOSSIER_CACHE", str(blocker / "cache"))
    assert _route(cli, folder, "Berlin", "London")["spaces"] == 2
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_off_keeps_nothing(cli, game_copy, tmp_path, monkeypatch):
    folder = game_copy()
    monkeypatch.setenv("DOSSIER_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _route(cli, folder, "Berlin", "London")["spaces"] == 2
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


def test_a_folder_linking_out_of_itself_is_never_kept(cli, game_copy, tmp_path):
    folder = game_copy()
    outside = tmp_path / "outside.txt"
    outside.write_text("read through a link", encoding="utf-8")
    (folder / "notes.txt").symlink_to(outside)
    assert game_key(folder) is None
    _route(cli, folder, "Berlin", "London")
    assert _entries() == [] or all(json.loads(e.read_text(encoding="utf-8"))["key"] != game_key(folder) for e in _entries())


def test_the_kept_network_answers_every_route_and_reach_as_the_map_does(spies):
    fresh = Network(spies.map, spies.aliases)
    kept = Network.from_data(json.loads(json.dumps(fresh.as_data())))
    ends = [name for name in fresh.names if fresh.may_end_in(name)]
    for origin in ends:
        assert kept.reachable(origin) == fresh.reachable(origin)
        for destination in ends:
            assert kept.route(origin, destination) == fresh.route(origin, destination)
    assert kept.resolve("Nürnberg") == fresh.resolve("Nürnberg")


@pytest.mark.parametrize("damage", [{}, {"places": []}, {"places": {"A": "city"}, "neighbours": {"A": [["B", ["rail"]]]},
                                                             "names": ["A"], "aliases": {}, "ends_in": ["city"], "spaces_per_turn": 5}])
def test_a_network_that_is_not_one_is_refused(damage):
    assert Network.from_data(damage) is None


def test_the_cache_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("DOSSIER_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert game_cache.cache_folder() == tmp_path / "dossier"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert game_cache.cache_folder() == tmp_path / "home" / ".cache" / "dossier"
    assert "DOSSIER_CACHE" in paths.ENVIRONMENT
