"""Exports at their limits, and a layouts folder handed over with the data (DOSSIER_DATA) is read as strictly as a game's own files:
a broken or hostile print-services.yaml is refused naming its field and line, before any image is drawn."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_helpers import write_game
from test_hostile import PEAK_CHILD

from generators.core import paths

SERVICES = "layouts/print-services.yaml: "


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    (folder / "components").mkdir(parents=True)
    shutil.copytree(paths.layouts_dir(), folder / "layouts")
    monkeypatch.setenv("DOSSIER_DATA", str(folder))
    return folder


def _services(data: Path, old: str, new: str) -> None:
    file = data / "layouts" / "print-services.yaml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("old, new, service, message", [
    ("pixels: [225, 225]", "pixels: [60000, 60000]", "thegamecrafter",  # drew 10 GB of pixels, then died
     "services.thegamecrafter.products[1].pixels[0] (also services.thegamecrafter.products[1].pixels[1]): "
     "input should be less than or equal to 10000, got 60000 (Small Square Chit, line 20"),
    ("pixels: [225, 225]", "pixels: [225]", "thegamecrafter",
     "services.thegamecrafter.products[1].pixels[1]: required field is missing (Small Square Chit, line 20"),
    ("dpi: 300", "dpi: abc", "thegamecrafter", "services.generic.dpi: expected a whole number, got 'abc' (line 11, column 5)"),
    ("dpi: 300", "dpi: 100000", "thegamecrafter", "services.generic.dpi: input should be less than or equal to 1200"),
    ("bleed: 1/8in", "bleed: -1in", "generic", "services.generic.bleed: input should be greater than or equal to 0"),
    ("label: The Game Crafter", "labl: x", "thegamecrafter", "services.thegamecrafter.labl: unknown field; did you mean 'label'?"),
    ("shape: 3%", "shape: abc", "thegamecrafter", "shape: 'abc' is not a percentage; write it like 3% (line 30, column 1)"),
    ("nearest: 125%", "nearest: 50%", "thegamecrafter", "nearest: input should be greater than or equal to 1"),
])
def test_a_broken_print_services_file_is_refused_naming_its_field_and_line(cli, tmp_path, data, old, new, service, message):
    game = write_game(tmp_path / "tiny")
    _services(data, old, new)
    result = cli("export", "images", "--game", game, "--service", service, "--out", tmp_path / "out")
    assert result.code == 2, result.stderr
    assert SERVICES + message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_print_services_file_that_is_no_mapping_is_refused(cli, tmp_path, data):
    game = write_game(tmp_path / "tiny")
    (data / "layouts" / "print-services.yaml").write_text("[1, 2]\n", encoding="utf-8")
    result = cli("export", "images", "--game", game, "--service", "generic", "--out", tmp_path / "out")
    assert result.code == 2 and SERVICES + "expected a mapping, got [1, 2]" in result.stderr, result.stderr


def test_the_shipped_print_services_file_is_read_whole(cli, tmp_path, data):
    game = write_game(tmp_path / "tiny")
    result = cli("export", "images", "--game", game, "--service", "thegamecrafter", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr


def _roster(game: Path, pieces: int) -> None:
    lines = [f'  - {{kind: spy, nation: red, name: "Agent {i}", strength: {i % 9 + 1}}}' for i in range(pieces)]
    (game / "pieces.yaml").write_text("pieces:\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (game / "aliases.yaml").unlink()
    (game / "cards.yaml").unlink()  # its card lists every spy


def test_images_holding_more_pixels_than_an_export_draws_are_refused_before_drawing(cli, tmp_path):
    game = write_game(tmp_path / "tiny")
    _roster(game, 5_000)  # 10,000 sides at 1200 dpi
    start = time.thread_time()
    result = cli("export", "images", "--game", game, "--dpi", "1200", "--out", tmp_path / "out")
    assert result.code == 2, result.stderr
    assert re.search(r"the images would hold [\d,]+ million pixels, more than the 3,000 million one export draws; "
                     r"choose a lower --dpi", result.stderr), result.stderr
    spent = time.thread_time() - start  # this thread's processor time: a busy machine does not inflate it
    assert spent < 30, f"{spent:.2f} s of processor time"  # refused from the plan, nothing drawn
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_images_are_encoded_as_they_are_drawn_not_all_held_at_once(tmp_path):
    # every image was held until the last was drawn: 1 GB here, and the shipped Spies! at 1200 dpi peaked
    # at 3 GB; now a few images are in memory at once, beside the PNGs (about 125 MB here)
    game = write_game(tmp_path / "tiny")
    _roster(game, 150)
    peak = tmp_path / "peak"
    child = subprocess.Popen([sys.executable, "-c", PEAK_CHILD, str(peak), "export", "images", "--game", str(game),
                              "--dpi", "1200", "--out", str(tmp_path / "out")], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    err = child.stderr.read()
    _, status, _ = os.wait4(child.pid, 0)
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 0, err
    assert len(list((tmp_path / "out" / "tiny" / "images").rglob("*.png"))) == 302  # and the tile
    assert int(peak.read_text()) * 1024 < 250 * 2**20, int(peak.read_text()) // 1024
