"""Hostile names and options in the exports and on the console: a module reads back exactly what was
written, a text no XML file can hold is refused by validate naming file and field, a bad --image-url
or a path that is not text is refused with exit 2, and any console prints every message."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from hostile_helpers import edit, write_game
from test_export import decode, traits
from test_export_real_software import CHECK, needs_java

from generators.export.sequence import encode


@pytest.fixture
def game(tmp_path) -> Path:
    return write_game(tmp_path / "tiny")


@pytest.mark.parametrize("values", [["a\\", "b", "c"], ["\\", "'x'", "y;z\\", ""], ["a\\;b", "'", "\\\\"]])
def test_a_value_ending_in_a_backslash_does_not_swallow_the_next_delimiter(values):
    assert decode(encode(values, ";"), ";") == values


def test_a_piece_named_with_a_trailing_backslash_reads_back_as_written(cli, game, tmp_path):
    edit(game / "pieces.yaml", 'name: "Agent R"', 'name: "Agent R\\\\"')
    edit(game / "aliases.yaml", '"Agent R"', '"Agent R\\\\"')
    edit(game / "game.yaml", "name: Blue,", "name: Blue\\,")
    assert cli("validate", "--game", game).code == 0
    assert cli("export", "vassal", "--game", game, "--out", tmp_path / "out").code == 0
    with zipfile.ZipFile(tmp_path / "out" / "tiny" / "tiny.vmod") as archive:
        build = ET.fromstring(archive.read("buildFile.xml"))
    names, backs = [], []
    for slot in build.iter("VASSAL.build.widget.PieceSlot"):
        found = dict(traits(slot.text))
        piece = next(t for t in found if t.startswith("piece;"))
        fields = decode(piece[len("piece;"):], ";")
        assert len(fields) == 4
        names.append(fields[3])
        layer = decode(next(t for t in found if t.startswith("emb2;"))[len("emb2;"):], ";")
        assert len(layer) == 33
        backs.append(decode(decode(layer[16], ",")[0], "+")[0])
    assert "Agent R\\ 1" in names and "BLUE\\" in backs


@pytest.mark.slow
@needs_java
def test_vassal_itself_reads_back_a_module_whose_names_end_in_a_backslash(cli, game, tmp_path):
    # VASSAL's own engine decodes every piece slot and encodes it again: a value whose backslash swallowed
    # the delimiter after it decodes into fewer fields and comes back different
    edit(game / "pieces.yaml", 'name: "Agent R"', 'name: "Agent R\\\\"')
    edit(game / "aliases.yaml", '"Agent R"', '"Agent R\\\\"')
    edit(game / "game.yaml", "name: Blue,", "name: Blue\\,")
    assert cli("export", "vassal", "--game", game, "--out", tmp_path / "out").code == 0
    run = subprocess.run([str(CHECK), str(tmp_path / "out" / "tiny" / "tiny.vmod"), str(tmp_path / "check")],
                         capture_output=True, text=True, timeout=900)
    report = (tmp_path / "check" / "report.txt").read_text(encoding="utf-8")
    assert run.returncode == 0, report
    assert re.search(r"slots decoded: [1-9][0-9]*; re-encoded differently: 0", report), report


@pytest.mark.parametrize("file, old, new, where, code", [
    ("pieces.yaml", 'name: "Agent R"', 'name: "Agent\\vR"', "pieces[0].name", "000B"),
    ("pieces.yaml", 'name: "Agent R"', 'name: "Agent\\fR"', "pieces[0].name", "000C"),
    ("pieces.yaml", 'name: "Agent R"', 'name: "Agent\\x1cR"', "pieces[0].name", "001C"),
    ("pieces.yaml", 'name: "Agent R"', 'name: "Agent\\rR"', "pieces[0].name", "000D"),
    ("game.yaml", "label: Spy", 'label: "Spy\\x1f"', "kinds.spy.label", "001F"),
    ("game.yaml", "name: Red,", 'name: "Red\\x00",', "factions[0].name", "0000"),
])
def test_a_character_no_xml_file_can_hold_is_refused_by_validate(cli, game, file, old, new, where, code):
    edit(game / file, old, new)
    result = cli("validate", "--game", game)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert f"tiny/{file}: {where}: holds the control character U+{code}" in result.stderr, result.stderr


@pytest.mark.parametrize("url, message", [
    ("http://[::1", "not an address (Invalid IPv6 URL)"),
    ("http://example.org:99999/x", "not an address (Port out of range"),
    ("https://example.org/images\n/x", "holds a space, tab, newline or control character"),
    ("https://example.org/im\tages", "holds a space, tab, newline or control character"),
    ("https://example.org/images#top", "?query or #fragment"),
    ("https://example.org/images?v=1", "?query or #fragment"),
    ("ftp://example.org/images", "give the address the images will be served from"),
])
def test_a_bad_image_url_is_refused_before_anything_is_drawn(cli, game, tmp_path, url, message):
    result = cli("export", "tts", "--game", game, "--out", tmp_path / "out", "--image-url", url)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "--image-url" in result.stderr and message in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


def test_an_output_folder_whose_name_is_not_text_is_refused_for_a_tts_save(cli, game, tmp_path):
    out = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/out\xff"))
    result = cli("export", "tts", "--game", game, "--out", out)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "out\\xff/tiny/tts/" in result.stderr and "this path is not UTF-8 text" in result.stderr
    assert cli("export", "tts", "--game", game, "--out", out, "--image-url", "https://example.org/i").code == 0


RUN = "import sys; from generators.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.mark.parametrize("args, shown", [
    (["map", "route", "Paris", "Rome"], "Paris -> Rome"),
    (["referee", "move", "Paris", "Rome"], "-air->"),
    (["rules", "search", "capital"], " > "),
    (["list", "tiles"], "Spies!"),
])
def test_a_console_that_is_not_utf8_prints_every_answer(args, shown, tmp_path):
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    child = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, env=env, cwd=tmp_path,
                           timeout=120)
    assert child.returncode == 0, child.stderr.decode("latin-1")
    assert b"Traceback" not in child.stderr
    assert shown.encode("latin-1") in child.stdout
