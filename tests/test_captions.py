"""Each sheet's caption (what it is, how to print it) stays clear of the pieces and their crop marks."""

from __future__ import annotations

import pdfplumber
import pytest

from generators.cli import main
from generators.validation import load_game


@pytest.fixture(scope="module")
def texts(tmp_path_factory) -> dict[tuple[str, str], list[str]]:
    """(game, product) -> each page's text, as pdfium reads it (a caption turned up the margin too): the counters and
    cards of the three games whose captions say what a mark, a colour or a kind means, built once."""
    import pypdfium2

    out = tmp_path_factory.mktemp("captioned")
    games = ("spies", "spion-und-spion", "web-of-spies")
    assert main(["build", *(a for g in games for a in ("--game", g)), "--only", "counters,cards", "--out", str(out)]) == 0
    return {(game, product): [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(out / game / f"{product}.pdf")]
            for game in games for product in ("counters", "cards")}


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_captions_never_touch_a_crop_mark_or_a_piece(cli, tmp_path, duplex):
    # Spion & Spion's large cards fill the front pages, so short-edge backs reach the top margin
    result = cli("build", "--game", "spion-und-spion", "--only", "counters", "--duplex", duplex, "--out", tmp_path)
    assert result.code == 0, result.stderr
    with pdfplumber.open(tmp_path / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages:
            # the caption: level in a margin at 7 pt or less (a long one shrinks to the line), or turned up the left
            # margin where the pieces fill the height; its size is that of its "·", which no piece prints
            dots = [c["size"] for c in page.chars if c["text"] == "·" and c["upright"] and c["size"] <= 7.01]
            caption = [c for c in page.chars if (dots and abs(c["size"] - dots[0]) < 0.01) or not c["upright"]]
            assert caption, f"page {page.page_number} has no caption"
            words = [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in caption]
            drawn = [(o["x0"], o["top"], o["x1"], o["bottom"]) for o in page.lines + page.rects]
            clashes = [(w, d) for w in words for d in drawn if overlaps(w, d)]
            assert not clashes, f"page {page.page_number}: caption crosses {clashes[:2]}"


def test_a_sheet_whose_fronts_print_a_readings_mark_says_what_the_mark_means(texts):
    """Web of Spies' named assets carry symbols read from the examples, and the mats' and blank cards' notes a count
    read: the fronts' sheets holding any of them explain the *, and those alone; no back says anything of it."""
    texts = texts["web-of-spies", "counters"]
    noted = [i for i, text in enumerate(texts) if "* this edition's reading of the rules" in text]
    game = load_game("web-of-spies")
    read = {piece.name for piece in game.pieces if {"icons", "marks", "kind"} & set(piece.assumed or {})}
    notes = [kind.note for kind in game.info.kinds.values() if kind.note and "*" in kind.note]  # a kind's own reading
    marked = [i for i, text in enumerate(texts) if i % 2 == 0 and any(name in text for name in read | set(notes))]
    assert notes and all(any(note in texts[i] for i in noted) for note in notes)
    assert noted and noted == marked
    assert not any("reading" in text for text in texts[1::2])  # no back's caption


def test_a_sheet_holding_a_piece_whose_colour_means_something_says_what(texts):
    """The Spies! Long Game chits are ringed in red; the front's caption says so, its back's does not repeat it."""
    means = load_game("spies").layout.colour("chit-long").means
    front, back = texts["spies", "counters"][:2]
    assert means and means in front and means not in back


def test_a_sheet_holding_a_kind_with_a_note_carries_it(texts):
    """Spion & Spion: the sheet with the Hot-Envelopes says there are four, one a player, a reading; the sheet with
    the die faces says how to make the die; sheets without either say neither."""
    kinds = load_game("spion-und-spion").info.kinds
    notes = [kinds["hot-envelope"].note, kinds["die-face"].note]
    texts = texts["spion-und-spion", "counters"]
    assert all(notes)
    for note in notes:
        holding = [i for i, text in enumerate(texts) if note in text]
        assert len(holding) == 1 and holding[0] % 2 == 0  # the fronts' sheet, once
        assert "* this edition's reading of the rules" in texts[holding[0]]
    assert not any(note in texts[0] for note in notes)


def test_a_card_sheet_whose_cards_print_a_readings_mark_says_what_it_means(texts):
    """Spion & Spion's cards star four readings: both sides of the sheet say what the * means; a sheet with no
    mark on it (Web of Spies' fronts) says nothing of it."""
    note = "* this edition's reading of the rules"
    assert all("*" in text and note in text for text in texts["spion-und-spion", "cards"])
    front = texts["web-of-spies", "cards"][0]
    assert "*" not in front and note not in front
