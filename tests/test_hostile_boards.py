"""Playing aids and track boards at their limits: a track of millions of boxes, a box holding a hundred thousand
counters or a board of endless spaces was valid, then filled the memory or drew for minutes; each is now
refused by validate (and so by build) naming the file, the field and the limit."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from generators.core import paths


@pytest.fixture
def boards(tmp_path) -> Path:
    game = tmp_path / "board-game"
    shutil.copytree(paths.components_dir() / "spion-und-spion", game, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return game / "boards.yaml"


def _edit(file: Path, old: str, new: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def refused(cli, file: Path, message: str) -> None:
    start = time.thread_time()
    result = cli("validate", "--game", file.parent)
    spent = time.thread_time() - start
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"board-game/boards.yaml: {message}" in result.stderr, result.stderr
    assert spent < 10, f"{spent:.1f} s of processor time"
    built = cli("build", "--game", file.parent, "--only", "boards", "--out", file.parent.parent / "out")
    assert built.code == 2 and message in built.stderr
    assert not (file.parent.parent / "out").exists()


def test_a_track_of_two_hundred_million_boxes_is_refused(cli, boards):
    # the boxes were made as one list when drawn: 1.7 GB, then a MemoryError traceback
    _edit(boards, "    middle:\n", "    middle:\n      - {id: long, kind: track, title: Long, cells: {first: 1, last: 200000000}}\n")
    refused(cli, boards, "boards[0].middle[0]: cells: 200,000,000 boxes from 1 to 200,000,000; at most 1,000 are allowed here")


def test_a_box_holding_more_than_an_aid_may_is_refused(cli, boards):
    # holds: 100,000 drew for 155 s; ten million never finished
    _edit(boards, "holds: 4,", "holds: 100000,")  # the first box: the BLACK PRISON
    refused(cli, boards, "boards[0].middle[0].holds: input should be less than or equal to 1000, got 100000")


def test_a_board_of_more_spaces_than_a_board_may_have_is_refused(cli, boards):
    _edit(boards, '      - {id: "16"}\n', '      - {id: "16"}\n' + "".join(f'      - {{id: "x{i}"}}\n' for i in range(981)))
    refused(cli, boards, "boards[0].spaces: 1,001 entries; at most 1,000 are allowed here")


def test_a_list_of_more_items_than_an_aid_may_hold_is_refused(cli, boards):
    items = ", ".join(f'"item {i}"' for i in range(1_001))
    _edit(boards, "    middle:\n", f"    middle:\n      - {{id: many, kind: list, title: Many, items: [{items}]}}\n")
    refused(cli, boards, "boards[0].middle[0].items: 1,001 entries; at most 1,000 are allowed here")


def test_a_board_at_the_limits_builds_in_bounded_time(cli, boards, tmp_path):
    _edit(boards, '      - {id: "16"}\n', '      - {id: "16"}\n' + "".join(f'      - {{id: "x{i}"}}\n' for i in range(980)))  # 1,000 spaces
    _edit(boards, "holds: 4,", "holds: 1000,")
    start = time.thread_time()
    result = cli("build", "--game", boards.parent, "--only", "boards", "--out", tmp_path / "out")
    spent = time.thread_time() - start
    assert result.code == 0, result.stderr
    assert spent < 30, f"{spent:.1f} s of processor time"  # about 2 s here
