"""What a build remembers is keyed by what the files hold: a picture or font replaced is read again,
two games' same-named fonts stay apart, and a product's set of files is replaced whole."""

from __future__ import annotations

import os
from pathlib import Path

import reportlab

from generators.cli import main
from generators.printing.art import read_picture
from generators.printing.fonts import register_font

REPORTLAB_FONTS = Path(reportlab.__file__).parent / "fonts"


def _svg(path: Path, width: int, height: int) -> None:
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
                    f'<rect width="{width}" height="{height}" fill="#123456"/></svg>')


def test_a_picture_replaced_under_the_same_name_is_read_again(tmp_path):
    picture = tmp_path / "art.svg"
    _svg(picture, 10, 20)
    assert read_picture(picture).width / read_picture(picture).height == 0.5
    _svg(picture, 300, 20)
    os.utime(picture, ns=(1, 1))  # a new version, whatever the clock's resolution
    assert read_picture(picture).width / read_picture(picture).height == 15


def test_two_games_fonts_of_one_file_name_are_each_their_own(tmp_path):
    first, second = tmp_path / "one", tmp_path / "two"
    for folder, source in ((first, "Vera.ttf"), (second, "VeraBd.ttf")):
        (folder / "layouts").mkdir(parents=True)
        (folder / "layouts" / "Body.ttf").write_bytes((REPORTLAB_FONTS / source).read_bytes())
    from reportlab.pdfbase import pdfmetrics

    one, two = register_font("Body.ttf", first), register_font("Body.ttf", second)
    assert one != two and one.startswith("Body-") and two.startswith("Body-")
    assert pdfmetrics.stringWidth("Wide text", one, 10) != pdfmetrics.stringWidth("Wide text", two, 10)
    assert register_font("Body.ttf", first) == one  # the same bytes register once


def test_a_build_removes_the_previews_and_pages_it_no_longer_makes(tmp_path):
    out = tmp_path / "out"
    assert main(["build", "--game", "spies", "--only", "cards", "--out", str(out), "--format", "pdf,svg,png", "--dpi", "20"]) == 0
    folder = out / "spies"
    assert {p.suffix for p in folder.glob("cards*")} == {".pdf", ".svg", ".png"}
    (folder / "cards-notes.txt").write_text("mine")  # a user's own file is never Dossier's to remove
    assert main(["build", "--game", "spies", "--only", "cards", "--out", str(out)]) == 0
    assert sorted(p.name for p in folder.glob("cards*")) == ["cards-notes.txt", "cards.pdf"]
