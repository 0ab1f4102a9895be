"""Hostile position files (`dossier referee position`) are read as the game data is: a regular file only,
bounded, strict YAML; each is refused with exit 2 naming the file, the line and the reason, at once."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from generators.referee.position import DEEPEST


def refused(cli, file: Path, needle: str) -> None:
    start = time.thread_time()
    result = cli("referee", "position", str(file))
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert needle in result.stderr, result.stderr
    spent = time.thread_time() - start  # this thread's processor time: neither a busy machine nor another thread inflates it
    assert spent < 5, f"{spent:.2f} s of processor time"


@pytest.mark.parametrize("text, needle", [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "position.yaml: line 1: YAML syntax error: exceeded maximum nesting depth"),
    ("a: " + "[" * (DEEPEST + 5) + "]" * (DEEPEST + 5) + "\n", f"position.yaml: line 1: nested more than {DEEPEST} deep"),
    ('a: "x\0"\n', "position.yaml: YAML error: unacceptable character #x0000"),
    ("a: " + "9" * 5000 + "\n", "position.yaml: line 1: cannot read this value: a whole number of 5,000 characters is too long"),
    ("base: {x: 1}\nother:\n  <<: {x: 2}\n", "position.yaml: line 3: merge keys (<<) are not used in a position file"),
    ("a: .nan\n", "position.yaml: line 1: cannot read this value: '.nan' is not a finite number"),
])
def test_a_hostile_position_file_is_refused_naming_the_line(cli, tmp_path, text, needle):
    file = tmp_path / "position.yaml"
    file.write_text(text, encoding="utf-8")
    refused(cli, file, needle)


def test_a_device_is_refused_unread(cli):
    refused(cli, Path("/dev/zero"), "/dev/zero: is a device, not a regular file")


def test_a_fifo_is_refused_unopened(cli, tmp_path):
    os.mkfifo(tmp_path / "position.yaml")
    refused(cli, tmp_path / "position.yaml", "position.yaml: is a FIFO (named pipe), not a regular file")


def test_a_file_too_large_is_refused_unread(cli, tmp_path):
    file = tmp_path / "position.yaml"
    file.write_text("# x\n" * 300_000, encoding="utf-8")
    refused(cli, file, "position.yaml: is larger than 1000 kB, the most a position file may be")
