"""`dossier watch` as a designer runs it, in its own process: it builds, rebuilds after an edit, shows a
broken file's problem without exiting while the last good files stay, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pdfplumber
import pytest

SCRIPT = Path(sys.executable).with_name("dossier")
TIMEOUT = 20.0  # seconds for any one step; a step normally takes well under one


def _as_a_terminal_starts_it() -> None:
    """Ctrl-C reaches a command run from a terminal: where the tests themselves run in the background (a shell's `&`
    starts a job with SIGINT ignored, and a child inherits that), the watcher gets SIGINT's default back."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Watcher:
    """A running `dossier watch` whose output (stdout and stderr, in order) is read line by line."""

    def __init__(self, *args: str, cwd: Path):
        self.process = subprocess.Popen([str(SCRIPT), "watch", *args], cwd=cwd, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                        preexec_fn=_as_a_terminal_starts_it)
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.seen: list[str] = []

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, start: str) -> list[str]:
        """The lines up to and including the first that starts with `start`."""
        deadline = time.monotonic() + TIMEOUT
        got: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                assert self.process.poll() is None, f"watch exited early: {self.seen + got}"
                continue
            got.append(line)
            if line.startswith(start):
                self.seen += got
                return got
        raise AssertionError(f"no line starting {start!r} within {TIMEOUT} s: {self.seen + got}")

    def stop(self, how: signal.Signals = signal.SIGINT) -> int:
        self.process.send_signal(how)
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.reader.join(timeout=TIMEOUT)


def edit(file: Path, old: str, new: str) -> None:
    """Replace `old` by `new` in `file` in one step, as editors save, so the watcher never sees half a file."""
    temporary = file.with_name(f".{file.name}.new")
    temporary.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    os.replace(temporary, file)


def _text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as document:
        return document.pages[0].extract_text()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT stands for Ctrl-C on POSIX only")
def test_watch_rebuilds_after_a_change_and_survives_a_broken_file(cli, tmp_path):
    assert cli("new", "courier", "--to", tmp_path).code == 0
    pieces = tmp_path / "courier" / "pieces.yaml"
    counters = tmp_path / "output" / "courier" / "counters.pdf"
    watcher = Watcher("--game", "./courier", "--only", "counters", cwd=tmp_path)
    try:
        watcher.wait_for("built counters.pdf in output/courier (")
        assert "Foxglove" not in _text(counters)

        edit(pieces, "name: Fox,", "name: Foxglove,")
        lines = watcher.wait_for("rebuilt counters.pdf")
        assert "changed: courier/pieces.yaml" in lines
        assert "Foxglove" in _text(counters)
        good = counters.read_bytes()

        edit(pieces, "strength: 3}", "strength: three}")
        lines = watcher.wait_for("not rebuilt: the last good files stay in place")
        assert any("pieces.yaml: pieces[1].strength: expected a whole number, got 'three'" in line for line in lines)
        assert counters.read_bytes() == good

        edit(pieces, "strength: three}", "strength: 3}")
        watcher.wait_for("rebuilt counters.pdf")
    finally:
        code = watcher.stop()
    assert code == 0
    assert "stopped watching" in list(watcher.lines.queue)


def _fills(pdf: Path) -> set[tuple]:
    with pdfplumber.open(pdf) as document:
        return {tuple(round(c, 3) for c in rect["non_stroking_color"]) for rect in document.pages[0].rects
                if rect.get("non_stroking_color")}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT stands for Ctrl-C on POSIX only")
def test_watch_draws_a_picture_replaced_by_one_of_the_same_size_and_time(cli, tmp_path):
    # an editor or a copy tool can leave a new picture with the old one's size and modification time:
    # the picture is remembered by what it holds, so the rebuild draws the new one
    assert cli("new", "courier", "--to", tmp_path).code == 0
    game = tmp_path / "courier"
    (game / "art").mkdir()
    picture = game / "art" / "seal.svg"
    seal = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#{}"/></svg>'
    picture.write_text(seal.format("102030"), encoding="utf-8")
    edit(game / "pieces.yaml", "name: Fox,", "name: Fox, art: art/seal.svg,")
    counters = tmp_path / "output" / "courier" / "counters.pdf"
    watcher = Watcher("--game", "./courier", "--only", "counters", cwd=tmp_path)
    try:
        watcher.wait_for("built counters.pdf in output/courier (")
        assert (0.063, 0.125, 0.188) in _fills(counters)
        before = picture.stat()
        picture.write_text(seal.format("302010"), encoding="utf-8")
        os.utime(picture, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert picture.stat().st_size == before.st_size and picture.stat().st_mtime_ns == before.st_mtime_ns
        watcher.wait_for("rebuilt counters.pdf")
        fills = _fills(counters)
        assert (0.188, 0.125, 0.063) in fills and (0.063, 0.125, 0.188) not in fills
    finally:
        code = watcher.stop()
    assert code == 0


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM stops a process cleanly on POSIX only")
def test_watch_stops_cleanly_when_told_to_terminate(cli, tmp_path):
    # a process manager or an editor's task runner ends a watch with SIGTERM, not Ctrl-C
    assert cli("new", "courier", "--to", tmp_path).code == 0
    watcher = Watcher("--game", "./courier", "--only", "counters", cwd=tmp_path)
    try:
        watcher.wait_for("built counters.pdf in output/courier (")
    finally:
        code = watcher.stop(signal.SIGTERM)
    assert code == 0
    assert "stopped watching" in list(watcher.lines.queue)
