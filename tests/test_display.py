"""The display: display.pdf on one 11 x 17 inch sheet and tiled, built by `dossier build`; measured in the files."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generators.cli import main

MM_PER_PT = 25.4 / 72


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("display")
    assert main(["build", "--game", "spies", "--only", "display", "--out", str(out)]) == 0
    return out / "spies"


@pytest.fixture(scope="module")
def text(built) -> str:
    with pdfplumber.open(built / "display.pdf") as pdf:
        return " ".join(pdf.pages[0].extract_text().split())


def test_only_display_builds_just_the_display(built):
    assert sorted(p.name for p in built.iterdir() if not p.name.startswith(".")) == ["display-tiles.pdf", "display.pdf"]


def test_display_is_one_11_by_17_inch_sheet(built):
    pages = pypdf.PdfReader(built / "display.pdf").pages
    assert len(pages) == 1
    width, height = float(pages[0].mediabox.width) * MM_PER_PT, float(pages[0].mediabox.height) * MM_PER_PT
    assert abs(width - 11 * 25.4) <= 0.5 and abs(height - 17 * 25.4) <= 0.5


def test_action_point_track_runs_from_12_down_to_0(built):
    with pdfplumber.open(built / "display.pdf") as pdf:
        words = pdf.pages[0].extract_words()
    title = next(w for w in words if w["text"] == "Expenditure")
    row = [w for w in words if w["text"].isdigit() and 0 < w["top"] - title["bottom"] < 20]
    assert [int(w["text"]) for w in sorted(row, key=lambda w: w["x0"])] == list(range(12, -1, -1))


def test_every_special_tile_is_listed_with_its_event(text, spies):
    special = [t for t in spies.tiles if t.special]
    assert len(special) == 9  # the asterisked ids of the Event Tile Reference
    for tile in special:
        assert f"{tile.id}*" in text and tile.event.rstrip(".!") in text
    assert "does not say what their special effects are" in text and "write" in text


def test_chit_costs_of_both_games_and_sequence_of_play(text, spies):
    for chit in (p for p in spies.pieces if p.kind == "chit"):
        assert chit.name in text and chit.cost in text
    assert "Both games" in text and "Long Game" in text
    for words in ("Action Point Cost Summary", "Sequence of Play", "Event Tile:", "Police:", "Search:", "Move:"):
        assert words in text


def test_display_is_tiled_over_letter(built):
    pages = pypdf.PdfReader(built / "display-tiles.pdf").pages
    assert len(pages) >= 3  # the index page and at least two sheets
    for page in pages:
        size = sorted((float(page.mediabox.width) * MM_PER_PT, float(page.mediabox.height) * MM_PER_PT))
        assert size == pytest.approx([215.9, 279.4], abs=0.3)


def test_the_display_fills_its_sheet_inside_the_margins(built):
    """The sections reach down to the bottom margin and keep the layout's 10 mm margin all round."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        frames = [r for r in page.rects if r["stroke"] and r["width"] * MM_PER_PT > 60]
        words = page.extract_words()
        width, height = float(page.width), float(page.height)
    assert len(frames) == 5
    assert (height - max(r["bottom"] for r in frames)) * MM_PER_PT == pytest.approx(10.0, abs=0.5)
    for thing in frames + words:
        assert min(thing["x0"], thing["top"], width - thing["x1"], height - thing["bottom"]) * MM_PER_PT >= 9.9


def test_the_display_sets_its_type_for_the_table(built):
    """Titles of 14 pt and more, lists of 11 pt and more, and nothing under 8 pt, for a sheet read across the table."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        chars = pdf.pages[0].chars
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    assert min(c["size"] for c in chars) >= 8.0
    assert min(w["size"] for w in words if w["text"] in {"Summary", "Costs", "Sequence", "Expenditure"}) >= 14.0
    assert min(w["size"] for w in words if w["text"] in {"Anschluss!", "Czech"}) >= 11.0


def test_the_display_says_how_to_print_it(built):
    with pdfplumber.open(built / "display.pdf") as pdf:
        subject = pdf.metadata.get("Subject", "")
        text = " ".join(pdf.pages[0].extract_text().split())
    assert subject.startswith("Print at 100 % on Tabloid (11 × 17 in), one-sided")
    assert "Print at 100 % on Tabloid (11 × 17 in), one-sided" in text
    with pdfplumber.open(built / "display-tiles.pdf") as pdf:
        assert pdf.metadata.get("Subject", "").startswith("Print at 100 % on Letter (no fit to page), one-sided; trim each sheet")


@pytest.mark.parametrize("find, put, field", [
    ('section: "In this order"', 'section: "Nowhere"', "aids[4].from_card"),
    ("card: turn-sequence", "card: no-such-card", "aids[4].from_card"),
    ('item: "{id}*: {event}"', 'item: "{id}*: {no_such_field}"', "aids[1].from"),
    ("records: tiles", "records: no-such-records", "aids[1]"),
])
def test_validate_refuses_a_display_reference_the_game_lacks(cli, game_copy, find, put, field):
    folder = game_copy("spies")
    file = folder / "display.yaml"
    text = file.read_text(encoding="utf-8")
    assert find in text
    file.write_text(text.replace(find, put), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "display.yaml" in result.stderr and field in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_display_aid_naming_an_unknown_card_section_is_refused(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    file = folder / "display.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('section: "In this order"', 'section: "Nowhere"'), encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "display", "--out", tmp_path / "out")
    assert result.code == 2 and "display.yaml" in result.stderr and "Nowhere" in result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))
