"""Hostile pictures: every one is refused by `dossier validate` (and so by `build`) with exit 2, naming the
data file, the field and the reason, in bounded time and memory; nothing from outside the game folder
reaches a PDF."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_helpers import write_game
from test_hostile import PEAK_CHILD

from generators.printing.art import read_picture

FIELD = "tiny/pieces.yaml: pieces[0].art: "
SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" {size}>{body}</svg>'


@pytest.fixture
def game(tmp_path) -> Path:
    folder = write_game(tmp_path / "tiny")
    (folder / "art").mkdir()
    pieces = folder / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace('strength: 1}', 'strength: 1, art: art/picture.svg}'),
                      encoding="utf-8")
    return folder


def svg(folder: Path, body: str = '<rect width="10" height="10"/>', size: str = 'width="10" height="10"') -> Path:
    path = folder / "art" / "picture.svg"
    path.write_text(SVG.format(size=size, body=body), encoding="utf-8")
    return path


def refused(cli, folder: Path, *needles: str, out: Path | None = None) -> str:
    result = cli("validate", "--game", folder)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr
    if out is not None:  # build refuses the same, and writes nothing
        built = cli("build", "--game", folder, "--only", "counters", "--out", out)
        assert built.code == 2 and "Traceback" not in built.stderr and needles[-1] in built.stderr, built.stderr
        assert not (out / "tiny" / "counters.pdf").exists()
    return result.stderr


def test_a_plain_picture_and_one_using_its_own_parts_build(cli, game, tmp_path):
    svg(game, '<defs><g id="g"><rect width="4" height="4"/></g></defs><use xlink:href="#g"/><use href="#g" x="5"/>')
    assert cli("validate", "--game", game).code == 0
    assert cli("build", "--game", game, "--only", "counters", "--out", tmp_path / "out").code == 0


def test_a_reference_to_another_file_is_refused_and_never_drawn(cli, game, tmp_path):
    secret = tmp_path / "secret.svg"
    secret.write_text(SVG.format(size='width="10" height="10"', body='<g id="g"><text>SECRET LINE</text></g>'), encoding="utf-8")
    picture = svg(game, '<use xlink:href="../../secret.svg#g"/>')
    refused(cli, game, FIELD + "art/picture.svg: <use> refers to '../../secret.svg#g', outside this file", out=tmp_path / "out")
    with pytest.raises(Exception, match="outside this file"):
        read_picture(picture)  # drawing checks the same bytes it draws


def test_a_reference_within_the_game_folder_is_refused_too(cli, game, tmp_path):
    (game / "art" / "other.svg").write_text(SVG.format(size='width="1" height="1"', body='<g id="g"/>'), encoding="utf-8")
    svg(game, '<use href="other.svg#g"/>')
    refused(cli, game, FIELD + "art/picture.svg: <use> refers to 'other.svg#g', outside this file")


@pytest.mark.parametrize("body", [
    '<image width="4" height="4" xlink:href="data:image/png;base64,iVBORw0KGgo="/>',
    '<image width="4" height="4" href="#self"/>',
])
def test_an_image_inside_an_svg_is_refused(cli, game, tmp_path, body):
    svg(game, body)
    refused(cli, game, FIELD + "art/picture.svg: holds an <image>", out=tmp_path / "out")


@pytest.mark.parametrize("size, message", [
    ('width="1.2.3" height="10"', "width='1.2.3' is not a length"),
    ('viewBox="0 0 a b"', "viewBox='0 0 a b' is not four numbers"),
    ('viewBox="0 0 1e300 1e300"', "its viewBox width 1e+300 is outside 0.001 to 1e+06"),
    ('width="1e308" height="10"', "width 1e+308 is outside 0.001 to 1e+06"),
    ('viewBox="0 0 nan nan"', "its viewBox width nan is outside"),
    ('width="0" height="10"', "width 0 is outside"),
    ('width="-5" height="10"', "width='-5' is not a length"),
    ('width="10" height="10" viewBox="0 0 10"', "viewBox='0 0 10' is not four numbers"),
])
def test_an_svg_size_that_is_no_size_is_refused(cli, game, tmp_path, size, message):
    svg(game, size=size)
    refused(cli, game, FIELD + "art/picture.svg: cannot read SVG: " + message, out=tmp_path / "out")


def test_a_fifo_named_as_a_picture_is_refused_unopened(cli, game):
    (game / "art" / "picture.svg").unlink(missing_ok=True)
    os.mkfifo(game / "art" / "picture.svg")
    start = time.monotonic()
    refused(cli, game, FIELD + "art/picture.svg: is a FIFO (named pipe), not a regular file")
    assert time.monotonic() - start < 60  # opening the FIFO would wait for ever; a loaded machine may take seconds


def test_a_folder_named_as_a_picture_is_named_as_a_folder(cli, game):
    (game / "art" / "picture.svg").mkdir()
    refused(cli, game, FIELD + "art/picture.svg: is a folder, not a regular file")


def test_an_svg_referring_to_a_fifo_beside_it_is_refused_unopened(cli, game):
    os.mkfifo(game / "art" / "pipe.svg")
    svg(game, '<use href="pipe.svg#g"/>')
    refused(cli, game, FIELD + "art/picture.svg: <use> refers to 'pipe.svg#g', outside this file")


def test_a_truncated_png_is_refused_by_validate_naming_file_and_field(cli, game, tmp_path):
    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise((64, 64), 60).convert("RGB").save(buffer, "PNG")
    (game / "art" / "picture.png").write_bytes(buffer.getvalue()[:len(buffer.getvalue()) // 2])
    pieces = game / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace("art/picture.svg", "art/picture.png"), encoding="utf-8")
    refused(cli, game, "tiny/pieces.yaml: pieces[0].art: art/picture.png: cannot read PNG: image file is truncated",
            out=tmp_path / "out")


def _measured(args: list[str], root: Path) -> tuple[int, str, float, int]:
    """Run dossier ARGS in a child: its exit code, error text, processor seconds and peak memory in bytes."""
    peak = root / "peak"
    child = subprocess.Popen([sys.executable, "-c", PEAK_CHILD, str(peak), *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        err = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
    finally:
        child.stderr.close()
    return os.waitstatus_to_exitcode(status), err, usage.ru_utime + usage.ru_stime, int(peak.read_text()) * 1024


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_nested_uses_that_would_draw_billions_of_shapes_are_refused_within_3_seconds_and_200_mb(game, tmp_path):
    defs = '<g id="u0"><rect width="1" height="1"/></g>' + "".join(
        f'<g id="u{i}">' + f'<use href="#u{i - 1}"/>' * 10 + "</g>" for i in range(1, 10))
    svg(game, f"<defs>{defs}</defs><use href=\"#u9\"/>")
    code, err, seconds, peak = _measured(["build", "--game", str(game), "--only", "counters", "--out", str(tmp_path / "out")],
                                         tmp_path)
    assert code == 2 and "Traceback" not in err
    assert FIELD + "art/picture.svg: its <use> elements draw more than 200,000 elements" in err
    assert seconds < 3.0 and peak < 200 * 2**20
    assert not (tmp_path / "out" / "tiny" / "counters.pdf").exists()


def test_a_use_that_holds_itself_is_refused(cli, game):
    svg(game, '<g id="a"><use href="#a"/></g>')
    refused(cli, game, FIELD + "art/picture.svg: an SVG <use> draws an element that holds it")


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_huge_images_inside_an_svg_cost_nothing_to_refuse(game, tmp_path):
    from PIL import Image
    import base64

    buffer = io.BytesIO()
    Image.new("1", (12000, 12000)).save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    svg(game, "".join(f'<image width="10" height="10" xlink:href="data:image/png;base64,{data}"/>' for _ in range(3)))
    code, err, seconds, peak = _measured(["validate", "--game", str(game)], tmp_path)
    assert code == 2 and FIELD + "art/picture.svg: holds an <image>" in err
    assert seconds < 3.0 and peak < 200 * 2**20
