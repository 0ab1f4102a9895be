"""Every option refusal through the CLI: lengths without a unit, absurd or too long numbers, sizes too
large for the paper, a bleed wider than the margin, a lone back offset, unknown products, and an
--out that would replace a file Dossier did not write. Each names the option, exits 2 and writes nothing."""

from __future__ import annotations

import pytest

LONG = "1" * 5000  # more digits than Python's int() reads (4,300)


@pytest.mark.parametrize("option, value, message", [
    ("--piece-size", "5/8", "--piece-size: '5/8' has no unit; write it like 5/8mm or 5/8in"),
    ("--piece-size", "16", "--piece-size: '16' has no unit"),
    ("--bleed", "1", "--bleed: '1' has no unit"),
    ("--back-offset", "0.4,0.2", "--back-offset: '0.4' has no unit"),
    ("--card-size", "63x88", "--card-size: '63x88' has no unit; write it like 63x88mm"),
    ("--back-offset", "0.4mm", "--back-offset: '0.4mm' is one value; write both shifts as x,y: 0.4mm,0 shifts across only, "
                               "0.4mm,0.4mm shifts both"),
    ("--bleed", "50mm", "--bleed: 50 mm is more than the sheet's 7 mm margin"),
    ("--piece-size", "300mm", "--piece-size: 300 x 300 mm does not fit on 215.9 x 279.4 mm paper, which prints 201.9 x 265.4 mm"),
    ("--card-size", "200x300mm", "--card-size: 200 x 300 mm does not fit on 215.9 x 279.4 mm paper"),
    ("--bleed", LONG, "--bleed: '" + "1" * 40 + "…' is too long to be a length"),
    ("--piece-size", LONG + "mm", "--piece-size: '" + "1" * 40 + "…' is too long to be a length"),
    ("--card-size", LONG + "x2mm", "--card-size: '" + "1" * 40 + "…' is too long to be a length"),
    ("--back-offset", f"{LONG}mm,0", "--back-offset: '" + "1" * 40 + "…' is too long to be a length"),
    ("--piece-size", "9" * 30 + "mm", "is too large: a length is at most 10 m"),
    ("--bleed", "inf", "--bleed: cannot read 'inf' as a length"),
    ("--back-offset", "nan,0", "--back-offset: cannot read 'nan' as a length"),
    ("--only", "cards,nosuch", "--only: unknown product nosuch; choose from counters, tiles, cards, player-aid, map"),
])
def test_an_unreadable_or_impossible_option_is_refused_by_name(cli, tmp_path, option, value, message):
    result = cli("build", "--game", "spies", "--only", "counters", "--out", tmp_path, option, value)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert message in result.stderr, result.stderr
    assert len(result.stderr) < 400  # a 5,000-digit value is not repeated back
    assert not list(tmp_path.iterdir())


def test_a_piece_size_that_fits_only_unfolded_is_refused_when_folded(cli, tmp_path):
    assert cli("build", "--game", "spies", "--only", "counters", "--piece-size", "100mm", "--out", tmp_path).code == 0
    result = cli("build", "--game", "spies", "--only", "counters", "--piece-size", "100mm", "--fold", "--out", tmp_path / "f")
    assert result.code == 2 and "--piece-size: 100 x 100 mm does not fit on 215.9 x 279.4 mm paper folded in half" in result.stderr


def test_the_bleed_may_reach_the_margin(cli, tmp_path):
    assert cli("build", "--game", "spies", "--only", "tiles", "--bleed", "7mm", "--out", tmp_path).code == 0  # the sheet margin


def test_replace_refuses_its_option_refusals_too(cli, tmp_path):
    result = cli("replace", "Piccolo", "--piece-size", "5/8", "--out", tmp_path / "r.pdf")
    assert result.code == 2 and "--piece-size: '5/8' has no unit" in result.stderr
    result = cli("replace", "Piccolo", "--bleed", "50mm", "--out", tmp_path / "r.pdf")
    assert result.code == 2 and "--bleed: 50 mm is more than" in result.stderr
    assert not list(tmp_path.iterdir())


def test_replace_will_not_overwrite_a_file_it_did_not_write(cli, tmp_path):
    notes = tmp_path / "notes.pdf"
    notes.write_text("my own notes", encoding="utf-8")
    result = cli("replace", "Piccolo", "--out", notes)
    assert result.code == 2
    assert "--out: " in result.stderr and "notes.pdf exists and is not a PDF Dossier wrote" in result.stderr and "--force" in result.stderr
    assert notes.read_text(encoding="utf-8") == "my own notes"
    assert cli("replace", "Piccolo", "--out", notes, "--force").code == 0
    assert notes.read_bytes().startswith(b"%PDF")


def test_replace_overwrites_its_own_earlier_file(cli, tmp_path):
    out = tmp_path / "lost.pdf"
    assert cli("replace", "Piccolo", "--out", out).code == 0
    first = out.stat().st_mtime_ns
    assert cli("replace", "Atomic Bomb", "--out", out).code == 0
    assert out.stat().st_mtime_ns >= first and out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("name, message", [
    ("notes.txt", "notes.txt does not end in .pdf; name the PDF to write, e.g. notes.pdf"),
    ("folder.pdf", "folder.pdf is a folder; Dossier writes only over regular files"),
])
def test_replace_out_must_be_a_pdf_file(cli, tmp_path, name, message):
    target = tmp_path / name
    if name == "folder.pdf":
        target.mkdir()
    else:
        target.write_text("keep me", encoding="utf-8")
    result = cli("replace", "Piccolo", "--out", target, "--force")
    assert result.code == 2 and message in result.stderr
    assert target.is_dir() or target.read_text(encoding="utf-8") == "keep me"


def test_calibrate_will_not_overwrite_a_file_it_did_not_write(cli, tmp_path):
    mine = tmp_path / "cal.pdf"
    mine.write_bytes(b"%PDF-1.4 someone else's document")
    result = cli("calibrate", "--out", mine)
    assert result.code == 2 and "cal.pdf exists and is not a PDF Dossier wrote" in result.stderr
    assert mine.read_bytes() == b"%PDF-1.4 someone else's document"
