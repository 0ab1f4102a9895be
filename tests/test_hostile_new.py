"""`dossier new --from` copies plain files only, names only what every system can hold, and a card
derived from a roster grown past any card is refused naming the derivation."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hostile_helpers import TINY, write_game

from generators.core import paths


@pytest.fixture
def source(tmp_path) -> Path:
    folder = tmp_path / "src"
    shutil.copytree(paths.components_dir() / "special-action-tokens", folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


@pytest.mark.parametrize("target", ["private", "/dev/zero", "/"])
def test_a_link_in_the_game_copied_is_refused_and_nothing_is_left(cli, tmp_path, source, target, monkeypatch):
    private = tmp_path / "private"
    private.write_text("password line\n", encoding="utf-8")
    (source / "notes.yaml").symlink_to(private if target == "private" else target)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "to").mkdir()
    result = cli("new", "mine", "--from", source, "--to", tmp_path / "to")
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "src/notes.yaml is a symbolic link" in result.stderr and "password" not in result.stderr
    assert os.listdir(tmp_path / "to") == []  # no copy, no half-made .mine.xxxx left behind


def test_a_fifo_in_the_game_copied_is_refused(cli, tmp_path, source):
    os.mkfifo(source / "pipe")
    (tmp_path / "to").mkdir()
    result = cli("new", "mine", "--from", source, "--to", tmp_path / "to")
    assert result.code == 2 and "src/pipe is a FIFO (named pipe), not a file to copy" in result.stderr
    assert os.listdir(tmp_path / "to") == []


@pytest.mark.parametrize("name, reason", [
    ("CON", "reserves for a device"), ("nul", "reserves for a device"), ("aux.txt", "reserves for a device"),
    ("com1.txt", "reserves for a device"), ("LPT9", "reserves for a device"), ("mine.", "ends with a dot"),
])
def test_a_name_windows_cannot_hold_is_refused(cli, tmp_path, name, reason):
    result = cli("new", name, "--to", tmp_path)
    assert result.code == 2 and f"NAME: {name!r}" in result.stderr and reason in result.stderr
    assert os.listdir(tmp_path) == []


def test_a_plain_copy_still_works(cli, tmp_path, source):
    result = cli("new", "mine", "--from", source, "--to", tmp_path)
    assert result.code == 0, result.stderr
    assert (tmp_path / "mine" / "game.yaml").is_file()


def test_a_card_listing_ten_thousand_records_is_refused_naming_the_derivation(cli, tmp_path):
    files = dict(TINY, **{
        "pieces.yaml": "pieces:\n" + "".join(f'  - {{kind: spy, nation: red, name: "Agent {i}", strength: 1}}\n'
                                               for i in range(10_000)),
        "aliases.yaml": "aliases: {}\n", "tiles.yaml": "tiles: []\n"})
    files["cards.yaml"] = files["cards.yaml"].replace('item: "{name} ({strength})"', 'item: "{name} ({strength})"\n    group_by: nation')
    game = write_game(tmp_path / "tiny", files)
    result = cli("validate", "--game", game)
    assert result.code == 2 and "Traceback" not in result.stderr and "ValidationError" not in result.stderr
    assert "tiny/cards.yaml: derived.spies: derives an item of 158,893 characters from 10,000 records, more than the 10,000" \
        in result.stderr
