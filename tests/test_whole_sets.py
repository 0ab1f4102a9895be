"""A build lands whole or not at all: killed, interrupted, out of space or racing another build, the
output folder holds the whole old set or the whole new set, never a mix, and the next run cleans up."""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hostile_helpers import files_of, write_game

from generators.cli import main

OLD = ("--paper", "a4")  # the old set differs from the new one (letter) in every file


@pytest.fixture(scope="module", autouse=True)
def reproducible():
    """Builds dated alike, so the same build twice gives the same bytes and sets compare by content."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "946684800")
        yield


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return write_game(tmp_path_factory.mktemp("games") / "tiny")


def build(game: Path, out: Path, *options: str) -> int:
    return main(["build", "--game", str(game), "--out", str(out), *options])


@pytest.fixture(scope="module")
def built(game, tmp_path_factory):
    """The old and the new set, each built once."""
    root = tmp_path_factory.mktemp("sets")
    assert build(game, root / "old", *OLD) == 0 and build(game, root / "new") == 0
    return root


@pytest.fixture
def sets(built, tmp_path):
    """OUT holding the old set; the old and the new set's files (the new as a clean build makes it)."""
    out = tmp_path / "out"
    shutil.copytree(built / "old", out)
    old, new = files_of(out / "tiny"), files_of(built / "new" / "tiny")
    assert sorted(old) == sorted(new) == ["cards.pdf", "counters.pdf", "player-aid.pdf", "tiles.pdf"]
    assert not any(old[k] == new[k] for k in old)
    return out, old, new


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob("*") if ".dossier-" in p.name)


# The child process runs a real build and kills itself with SIGKILL at one point of the writing.
CHILD = """
import os, signal, sys
import generators.core.atomic as atomic
import generators.printing.render as render
from generators.cli import main

def die():
    os.kill(os.getpid(), signal.SIGKILL)

point = sys.argv[1]
if point.startswith("after-file-"):
    last, real, written = int(point.rsplit("-", 1)[1]), render._write, []
    def write(path, data):
        real(path, data)
        written.append(path)
        if len(written) == last:
            die()
    render._write = write
elif point == "after-swap":
    real = atomic._remove
    def remove(path):
        if ".dossier-new-" in path.name:
            die()
        real(path)
    atomic._remove = remove
elif point == "between-renames":
    atomic._exchange = lambda a, b: False  # a system without an atomic swap of two folders
    real = os.rename
    def rename(a, b):
        real(a, b)
        if ".dossier-old-" in str(b):
            die()
    atomic.os.rename = rename
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("point", ["after-file-3", "after-swap", "between-renames"])
def test_a_build_killed_at_any_point_leaves_a_whole_set_and_the_rerun_the_new_one(game, sets, point):
    out, old, new = sets
    child = subprocess.run([sys.executable, "-c", CHILD, point, "build", "--game", str(game), "--out", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -9, child.stderr
    if point == "after-swap":
        assert files_of(out / "tiny") == new
    elif point == "between-renames":  # the folder is gone for a moment; the whole old set waits beside it
        assert not (out / "tiny").exists()
        [kept] = [p for p in out.iterdir() if ".tiny.dossier-old-" in p.name]
        assert files_of(kept) == old
    else:
        assert files_of(out / "tiny") == old
    assert build(game, out) == 0
    assert files_of(out / "tiny") == new
    assert leftovers(out) == [".dossier-files"]


def test_a_full_disk_at_the_fourth_file_leaves_the_old_set(game, sets, monkeypatch, capsys):
    import generators.core.atomic

    out, old, _ = sets
    real, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        real(fd)

    monkeypatch.setattr(generators.core.atomic.os, "fsync", fsync)
    assert build(game, out) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert files_of(out / "tiny") == old
    assert leftovers(out) == [".dossier-files"]


def test_an_interrupted_build_leaves_the_old_set_and_no_staging(game, sets, monkeypatch):
    import generators.printing.render as render

    out, old, _ = sets
    real, written = render._write, []

    def write(path, data):
        real(path, data)
        written.append(path)
        if len(written) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(render, "_write", write)
    assert build(game, out) == 130
    assert files_of(out / "tiny") == old
    assert leftovers(out) == [".dossier-files"]


def _lock(folder: Path) -> int:
    """Take `folder`'s lock as another dossier command would; returns the descriptor that holds it."""
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


class _ReleaseWhenWaiting(logging.Handler):
    """Lets the other command go a moment after this one says it is waiting."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd, self.timer = fd, None

    def emit(self, record: logging.LogRecord) -> None:
        if self.timer is None and "waiting for another dossier command" in record.getMessage():
            self.timer = threading.Timer(0.1, os.close, [self.fd])
            self.timer.start()


def test_a_second_build_waits_for_the_first(game, sets, capsys):
    out, _, new = sets
    release = _ReleaseWhenWaiting(_lock(out))
    logging.getLogger("dossier").addHandler(release)
    try:
        assert build(game, out) == 0
    finally:
        logging.getLogger("dossier").removeHandler(release)
    assert release.timer is not None
    assert "dossier: waiting for another dossier command writing into" in capsys.readouterr().err
    assert files_of(out / "tiny") == new


def test_a_second_build_is_refused_after_waiting_with_a_clear_message(game, sets, monkeypatch, capsys):
    import generators.core.atomic

    out, old, _ = sets
    monkeypatch.setattr(generators.core.atomic, "LOCK_WAIT", 0.05)
    holder = _lock(out)
    try:
        assert build(game, out) == 2
    finally:
        os.close(holder)
    err = capsys.readouterr().err
    assert "another dossier command is writing into" in err and "waited 0.05 s, try again when it has finished" in err
    assert files_of(out / "tiny") == old


def test_leftovers_of_a_killed_run_are_cleared_by_the_next(game, sets):
    out, _, new = sets
    (out / ".tiny.dossier-new-k1ll3d").mkdir()
    (out / ".tiny.dossier-new-k1ll3d" / "counters.pdf").write_bytes(b"half")
    (out / "tiny" / ".counters.pdf.dossier-abc123.part").write_bytes(b"half")
    mine = out / ".tiny.dossier-notes"  # not a name Dossier makes
    mine.write_text("mine", encoding="utf-8")
    assert build(game, out) == 0
    assert files_of(out / "tiny") == new
    assert leftovers(out) == [".dossier-files", ".tiny.dossier-notes"]


def test_replace_writes_its_file_whole_or_not_at_all(game, tmp_path, monkeypatch, capsys):
    import generators.core.atomic

    target = tmp_path / "mine" / "lost.pdf"
    assert main(["replace", "Scarlet", "--game", str(game), "--out", str(target)]) == 0
    before, listed = target.read_bytes(), target.with_suffix(".txt").read_text()
    monkeypatch.setattr(generators.core.atomic.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    assert main(["replace", "Scarlet", "Agent B", "--game", str(game), "--out", str(target)]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert target.read_bytes() == before
    assert target.with_suffix(".txt").read_text() == listed  # the list still says what the PDF holds
    assert sorted(p.name for p in target.parent.iterdir()) == [".dossier-files", "lost.pdf", "lost.txt"]


# ---- the staged-set API other commands (exports) write through

def test_a_staged_folder_swaps_in_whole_and_keeps_what_it_did_not_write(tmp_path):
    from generators.core.atomic import staged_folder

    target = tmp_path / "out" / "deck"
    with staged_folder(target) as folder:
        (folder / "deck.json").write_text("1", encoding="utf-8")
        (folder / "images").mkdir()
        (folder / "images" / "a.png").write_bytes(b"a")
    (target / "notes.txt").write_text("mine", encoding="utf-8")
    old_json = target / "deck.json"
    kept = os.stat(old_json).st_ino
    with staged_folder(target) as folder:
        with open(folder / "deck.json", "w", encoding="utf-8") as handle:  # any way of writing
            handle.write("2")
    assert (target / "deck.json").read_text(encoding="utf-8") == "2"
    assert (target / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (target / "images" / "a.png").read_bytes() == b"a"
    assert os.stat(target / "deck.json").st_ino != kept
    with pytest.raises(RuntimeError), staged_folder(target) as folder:
        (folder / "deck.json").write_text("3", encoding="utf-8")
        raise RuntimeError("refused late")
    assert (target / "deck.json").read_text(encoding="utf-8") == "2"
    assert sorted(p.name for p in target.parent.iterdir()) == ["deck"]
