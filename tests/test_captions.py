"""Each sheet's caption (what it is, how to print it) stays clear of the pieces and their crop marks."""

from __future__ import annotations

import pdfplumber
import pytest


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
