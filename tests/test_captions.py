"""Each sheet's caption (what it is, how to print it) stays clear of the pieces and their crop marks."""

from __future__ import annotations

import pdfplumber
import pytest

from generators.validation import load_game


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_captions_never_touch_a_crop_mark_or_a_piece(cli, tmp_path, duplex):
    # Spion & Spion's large cards fill the front pages, so short-edge backs reach the top margin
    result = cli("build", "--game", "spion-und-spion", "--only", "counters", "--duplex", duplex, "--out", tmp_path)
    assert result.code == 0, result.stderr
    with pdfplumber.open(tmp_path / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages:
            # the caption: level at its 7 pt in a margin, or turned up the left margin where the pieces fill the height
            caption = [c for c in page.chars if abs(c["size"] - 7) < 0.01 or not c["upright"]]
            assert caption, f"page {page.page_number} has no caption"
            words = [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in caption]
            drawn = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in page.lines + page.rects]
            clashes = [(w, d) for w in words for d in drawn if overlaps(w, d)]
            assert not clashes, f"page {page.page_number}: caption crosses {clashes[:2]}"


def test_a_sheet_whose_fronts_print_a_readings_mark_says_what_the_mark_means(cli, tmp_path):
    """Web of Spies' named assets carry symbols read from the examples: the fronts' sheets holding one explain the *;
    the mats' sheet (nothing marked) and every back say nothing of it."""
    import pypdfium2

    assert cli("build", "--game", "web-of-spies", "--only", "counters", "--out", tmp_path).code == 0
    document = pypdfium2.PdfDocument(tmp_path / "web-of-spies" / "counters.pdf")
    texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    noted = [i for i, text in enumerate(texts) if "* this edition's reading of the rules" in text]
    read = {piece.name for piece in load_game("web-of-spies").pieces if {"icons", "marks", "kind"} & set(piece.assumed or {})}
    marked = [i for i, text in enumerate(texts) if i % 2 == 0 and any(name in text for name in read)]
    assert noted and noted == marked
    assert "reading" not in texts[0]  # the mats' sheet: nothing marked, no note


def test_a_sheet_holding_a_piece_whose_colour_means_something_says_what(cli, tmp_path):
    """The Spies! Long Game chits are ringed in red; the front's caption says so, its back's does not repeat it."""
    import pypdfium2

    means = load_game("spies").layout.colour("chit-long").means
    assert means and cli("build", "--game", "spies", "--only", "counters", "--out", tmp_path).code == 0
    document = pypdfium2.PdfDocument(tmp_path / "spies" / "counters.pdf")
    front, back = (document[i].get_textpage().get_text_range() for i in (0, 1))
    assert means in front and means not in back
