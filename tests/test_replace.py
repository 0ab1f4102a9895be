"""`dossier replace` and `dossier calibrate`, through the CLI, measured in the PDFs they write."""

from __future__ import annotations

from collections import Counter

import pdfplumber
from conftest import MM, TOL, cut_boxes, filled_boxes, has_box, mirrored, text_in, words_of


def _pages(path):
    with pdfplumber.open(path) as pdf:
        return [(p.width, p.height, cut_boxes(p), filled_boxes(p), words_of(p), p.lines) for p in pdf.pages]


def _fronts(pages):
    return Counter(text_in(words, box) for _, _, boxes, _, words, _ in pages for box in boxes)


def test_named_pieces_and_a_tile_on_one_sheet(cli, tmp_path, spies):
    out = tmp_path / "lost.pdf"
    result = cli("replace", "Ge 1", "Piccolo", "Atomic Bomb", "--out", out)
    assert result.code == 0, result.stderr
    pages = _pages(out)
    assert len(pages) == 2  # one front page and its back
    fronts = _fronts(pages)
    assert fronts["Piccolo 1"] == 1 and fronts["Atomic Bomb 5"] == 1
    tile = next(t for t in fronts if t.startswith("Ge 1*"))
    assert "Czech Crisis!" in tile and "1937–39" in tile
    assert sum(fronts.values()) == 3
    width, _, boxes, _, words, _ = pages[0]
    back_words, back_fills = pages[1][4], pages[1][3]
    for box in boxes:
        if text_in(words, box) == "Piccolo 1":
            assert text_in(back_words, mirrored(box, width)) == "ITALY"
            x0, top, x1, bottom = mirrored(box, width)
            bleed = spies.layout.size("counter").bleed * MM  # the back's colour carried past its cut
            assert has_box(back_fills, (x0 - bleed, top - bleed, x1 + bleed, bottom + bleed))
        if text_in(words, box) == "Atomic Bomb 5":
            assert text_in(back_words, mirrored(box, width)) == "SECRET"
    sizes = sorted(round((x1 - x0) / MM, 1) for x0, _, x1, _ in boxes)
    assert sizes == [12.7, 12.7, 38.1]


def test_kind_and_nation_pick_every_matching_piece(cli, tmp_path):
    out = tmp_path / "police.pdf"
    assert cli("replace", "--kind", "police", "--nation", "Italy", "--out", out).code == 0
    fronts = _fronts(_pages(out))
    # Italy's six RRCC police as printed in the roster: strengths 1, 2, 2, 3, 3, 4
    assert fronts == Counter({"RRCC 1": 1, "RRCC 2": 2, "RRCC 3": 2, "RRCC 4": 1})


def test_copies(cli, tmp_path):
    out = tmp_path / "papers.pdf"
    assert cli("replace", "Papers", "sofia", "--copies", "3", "--out", out).code != 0  # Sofia is a city, not a piece
    assert cli("replace", "papers", "--copies", "3", "--out", out).code == 0
    assert _fronts(_pages(out)) == Counter({"Papers 2£": 3})


def test_a_name_shared_across_nations_narrowed_by_nation(cli, tmp_path):
    out = tmp_path / "cousin.pdf"
    assert cli("replace", "Cousin", "--nation", "Britain", "--out", out).code == 0
    pages = _pages(out)
    assert _fronts(pages) == Counter({"Cousin 4": 1})
    width, _, boxes, _, _, _ = pages[0]
    assert text_in(pages[1][4], mirrored(boxes[0], width)) == "BRITAIN"


def test_unknown_selector_is_refused_with_closest_names(cli, tmp_path):
    out = tmp_path / "never.pdf"
    result = cli("replace", "Piccolo", "Atomic Bomm", "--out", out)
    assert result.code == 2
    assert "Atomic Bomm" in result.stderr and "Atomic Bomb" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists() and not list(tmp_path.iterdir())


def test_unknown_tile_id_suggests_tiles(cli, tmp_path):
    result = cli("replace", "Ge 99", "--out", tmp_path / "x.pdf")
    assert result.code == 2 and "Ge 9" in result.stderr


def test_unknown_nation_and_empty_choice_are_refused(cli, tmp_path):
    out = tmp_path / "x.pdf"
    assert cli("replace", "--kind", "police", "--nation", "Narnia", "--out", out).code == 2
    result = cli("replace", "Piccolo", "--nation", "Russia", "--out", out)
    assert result.code == 2 and "Piccolo" in result.stderr
    assert cli("replace", "--out", out).code == 2
    assert not out.exists()


def _zero_labels(path, page: int) -> list[float]:
    """Centres (x, pt) of the "0" labels of a calibration page's scales."""
    with pdfplumber.open(path) as pdf:
        return sorted((c["x0"] + c["x1"]) / 2 for c in pdf.pages[page].chars if c["text"] == "0")


def test_calibration_scales_sit_behind_the_targets(cli, tmp_path):
    out = tmp_path / "cal.pdf"
    assert cli("calibrate", "--out", out).code == 0
    front, back = _pages(out)
    width = front[0]
    verticals = [ln for ln in front[5] if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["bottom"] - ln["top"] > 20 * MM]
    assert len(verticals) == 5  # centre and four corners
    zeros = _zero_labels(out, 1)
    for line in verticals:
        # the x scale's zero is centred behind the front's vertical line (mirrored for a long-edge flip)
        assert any(abs(x - (width - line["x0"])) < 0.3 * MM for x in zeros)


def test_calibration_with_an_offset_moves_the_scales(cli, tmp_path):
    plain, shifted = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert cli("calibrate", "--out", plain).code == 0
    assert cli("calibrate", "--out", shifted, "--back-offset", "1mm,0mm").code == 0
    before, after = _zero_labels(plain, 1), _zero_labels(shifted, 1)
    assert len(before) == len(after) == 10
    assert all(abs((b - a) - MM) < TOL for a, b in zip(before, after))


def test_an_unknown_kind_with_nothing_close_lists_the_game_s_kinds(cli, tmp_path):
    result = cli("replace", "--kind", "police", "--game", "spion-und-spion", "--out", tmp_path / "x.pdf")
    assert result.code == 2
    assert "unknown piece kind 'police'; did you mean" in result.stderr and "'pass-card'" in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_a_piece_named_by_its_printed_number(cli, tmp_path):
    out = tmp_path / "ge3.pdf"
    result = cli("replace", "Kurt", "Gestapo:3", "Ge 1", "--paper", "a4", "--out", out)
    assert result.code == 0, result.stderr
    fronts = _fronts(_pages(out))
    assert fronts["Gestapo 3"] == 1 and fronts["Kurt 3"] == 1
    assert sum(fronts.values()) == 3  # one Gestapo of strength 3, not all seven
    assert "1 × Gestapo (Germany, Police, strength 3)" in result.stdout


def test_a_piece_named_by_its_faction(cli, tmp_path):
    out = tmp_path / "cousin.pdf"
    result = cli("replace", "Cousin@germany", "--out", out)
    assert result.code == 0, result.stderr
    pages = _pages(out)
    width, _, boxes, _, _, _ = pages[0]
    assert _fronts(pages) == Counter({"Cousin 4": 1})
    assert text_in(pages[1][4], mirrored(boxes[0], width)) == "GERMANY"


def test_a_name_several_nations_share_is_refused_with_the_selectors_that_tell_them_apart(cli, tmp_path):
    out = tmp_path / "never.pdf"
    result = cli("replace", "Cousin", "--out", out)
    assert result.code == 2
    assert "'Cousin' names 5 different pieces" in result.stderr
    assert "Cousin@germany" in result.stderr and "--all" in result.stderr
    assert not list(tmp_path.iterdir())


def test_police_of_several_strengths_are_refused_with_their_counts(cli, tmp_path):
    result = cli("replace", "Gestapo", "--out", tmp_path / "never.pdf")
    assert result.code == 2
    assert "Gestapo:2 (3 on the sheet), Gestapo:3 (3 on the sheet), Gestapo:4 (1 on the sheet)" in result.stderr


def test_all_prints_one_of_each_piece_a_name_fits(cli, tmp_path):
    out = tmp_path / "cousins.pdf"
    assert cli("replace", "Cousin", "--all", "--out", out).code == 0
    assert _fronts(_pages(out)) == Counter({"Cousin 4": 5})


def test_strength_and_nation_filters_combine(cli, tmp_path):
    out = tmp_path / "rrcc.pdf"
    result = cli("replace", "--kind", "police", "--nation", "italy", "--strength", "2", "--out", out)
    assert result.code == 0, result.stderr
    assert _fronts(_pages(out)) == Counter({"RRCC 2": 2})  # the roster's two RRCC of strength 2


def test_identical_entries_print_once(cli, tmp_path):
    out = tmp_path / "ge2.pdf"
    assert cli("replace", "Gestapo:2", "--out", out).code == 0  # three entries on the sheet, one piece lost
    assert _fronts(_pages(out)) == Counter({"Gestapo 2": 1})


def test_a_number_no_such_piece_shows_is_refused_with_what_the_roster_has(cli, tmp_path):
    result = cli("replace", "Gestapo:9", "--out", tmp_path / "x.pdf")
    assert result.code == 2
    assert "'Gestapo:9' picks no piece" in result.stderr and "Gestapo:4" in result.stderr
    result = cli("replace", "Gestapo:x", "--out", tmp_path / "x.pdf")
    assert result.code == 2 and "after ':' comes the number" in result.stderr


def test_what_was_printed_is_listed_and_written_beside_the_pdf(cli, tmp_path):
    out = tmp_path / "lost.pdf"
    result = cli("replace", "Papers", "Gestapo:4", "--copies", "2", "--out", out)
    assert result.code == 0, result.stderr
    listed = (tmp_path / "lost.txt").read_text(encoding="utf-8")
    assert listed.splitlines()[0] == "lost.pdf: 4 pieces of Spies!"
    assert "2 × Gestapo (Germany, Police, strength 4)" in listed and "2 × Papers" in listed
    assert listed in result.stdout
