"""Poster tiling on its own: which sheets cover the page, how they overlap, and where the marks that join them fall."""

from __future__ import annotations

import pytest
from conftest import Recorder

from generators.core.errors import OptionError
from generators.map.poster_sheets import OVERLAP, _draw_sheet, plan_tiles
from generators.printing.painter import Clip, Drawing

POSTER = (558.8, 863.6)  # 22 x 34 inches
LETTER = (215.9, 279.4)
MARGIN = 10.0
POSTER_DRAWING = Drawing(*POSTER, lambda painter: None, key="poster")


def covers(plan) -> bool:
    """True when every point of the page lies on some sheet's window (checked on a 7 mm grid)."""
    width, height = plan.page
    return all(any(s.window.x <= x <= s.window.right and s.window.y <= y <= s.window.bottom for s in plan.sheets)
               for x in range(0, int(width) + 1, 7) for y in range(0, int(height) + 1, 7))


def test_of_two_ways_up_that_take_as_many_sheets_the_one_whose_seams_part_no_space_is_printed():
    """A square page takes four sheets either way up; upright, the seam across has no paper to spare and must cut
    the space at x 78-92 mm; turned, it passes beside it."""
    from generators.map.poster_sheets import seams
    from generators.printing.geometry import Box

    space = Box(78.0, 20.0, 14.0, 10.0)
    plan = plan_tiles((180.0, 180.0), (100.0, 150.0), 0.0, avoid=[space])
    across, down = seams(plan)
    assert len(plan.sheets) == 4 and plan.paper == (150.0, 100.0)
    assert not any(space.x < x < space.right for x in across) and not any(space.y < y < space.bottom for y in down)


def test_a_page_inside_the_printable_area_takes_one_sheet():
    plan = plan_tiles((150.0, 200.0), LETTER, MARGIN)
    assert (plan.rows, plan.columns, len(plan.sheets)) == (1, 1, 1)


def test_a_page_whose_content_fits_a_sheet_takes_one_though_its_own_border_would_not():
    """A tabloid page with a 10 mm border of its own, over tabloid paper with 10 mm margins: the border needs no paper."""
    tabloid = (279.4, 431.8)
    assert len(plan_tiles(tabloid, tabloid, MARGIN).sheets) > 1
    plan = plan_tiles(tabloid, tabloid, MARGIN, inset=10.0)
    assert len(plan.sheets) == 1
    [sheet] = plan.sheets
    assert (sheet.window.x, sheet.window.y) == pytest.approx((10.0, 10.0))


def test_the_covered_part_of_a_page_leaves_off_its_border_only():
    plan = plan_tiles(POSTER, LETTER, MARGIN, inset=12.7)
    inside = [(x, y) for x in range(13, int(POSTER[0] - 12.7), 7) for y in range(13, int(POSTER[1] - 12.7), 7)]
    assert all(any(s.window.x <= x <= s.window.right and s.window.y <= y <= s.window.bottom for s in plan.sheets)
               for x, y in inside)


def test_the_poster_is_covered_by_sheets_numbered_row_by_row_from_the_top_left():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    assert len(plan.sheets) == plan.rows * plan.columns
    assert [(s.number, s.row, s.column) for s in plan.sheets] == [
        (r * plan.columns + c + 1, r, c) for r in range(plan.rows) for c in range(plan.columns)]
    assert covers(plan)


def test_neighbouring_sheets_repeat_exactly_the_overlap():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    for sheet in plan.sheets:
        right, below = plan.sheet(sheet.row, sheet.column + 1), plan.sheet(sheet.row + 1, sheet.column)
        if right:
            assert sheet.window.right - right.window.x == pytest.approx(OVERLAP)
        if below:
            assert sheet.window.bottom - below.window.y == pytest.approx(OVERLAP)


def test_each_window_is_the_paper_inside_its_margins():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    paper_w, paper_h = plan.paper
    assert all((s.window.width, s.window.height) == (paper_w - 2 * MARGIN, paper_h - 2 * MARGIN) for s in plan.sheets)


def test_the_paper_is_turned_whichever_way_needs_fewer_sheets():
    wide = (860.0, 300.0)
    plan = plan_tiles(wide, LETTER, MARGIN)
    turned = [plan_tiles(wide, paper, MARGIN) for paper in (LETTER, (LETTER[1], LETTER[0]))]
    assert len(plan.sheets) == min(len(p.sheets) for p in turned)
    assert plan.paper == (LETTER[1], LETTER[0])  # landscape sheets for a wide page


def test_no_fewer_sheets_would_do():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    shown_w, shown_h = plan.paper[0] - 2 * MARGIN, plan.paper[1] - 2 * MARGIN
    assert (plan.columns - 1) * (shown_w - OVERLAP) + OVERLAP < POSTER[0]
    assert (plan.rows - 1) * (shown_h - OVERLAP) + OVERLAP < POSTER[1]


def test_a_sheet_outside_the_grid_is_none():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    assert plan.sheet(-1, 0) is None and plan.sheet(0, plan.columns) is None and plan.sheet(plan.rows, 0) is None


def test_paper_with_no_room_inside_its_margins_is_refused():
    with pytest.raises(OptionError, match="leaves no room"):
        plan_tiles(POSTER, (30.0, 30.0), 10.0)


def test_a_sheet_shows_its_window_of_the_poster_clipped_inside_its_margins():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    painter = Recorder()
    sheet = plan.sheet(1, 2)
    _draw_sheet(painter, plan, sheet, POSTER_DRAWING, painter.fonts, "Poster")
    [(_, drawing, x, y, scale, clip)] = painter.of("place")
    w = sheet.window
    assert drawing is POSTER_DRAWING and (x, y, scale) == (MARGIN - w.x, MARGIN - w.y, 1.0)
    assert clip == Clip(MARGIN, MARGIN, w.width, w.height)


def guides(painter, page) -> list[tuple]:
    """The guide lines of a page, solid and black (never dashed like an edge to trim), the length of the sheet:
    where the next sheet's trimmed edge is laid."""
    return [ln[1:5] for ln in painter.of("line", page)
            if ln[5] == "#000000" and not ln[6] and max(abs(ln[3] - ln[1]), abs(ln[4] - ln[2])) > 50]


def test_a_guide_names_the_sheet_laid_along_it_and_only_edges_to_trim_are_dashed():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    painter = Recorder()
    first = plan.sheets[0]
    _draw_sheet(painter, plan, first, POSTER_DRAWING, painter.fonts, "Poster")
    texts = [t[3] for t in painter.of("text", painter.pages)]
    right, below = plan.sheet(0, 1), plan.sheet(1, 0)
    assert f"sheet {right.number} lies over this strip: its dashed edge on this line" in texts
    assert f"sheet {below.number} lies over this strip: its dashed edge on this line" in texts
    dashed = [ln for ln in painter.of("line", painter.pages) if ln[6]]
    assert dashed == []  # the first sheet lies under its neighbours on every side it has one: nothing of it is trimmed


def test_the_guides_fall_where_the_next_sheets_window_begins():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    painter = Recorder()
    first = plan.sheets[0]
    _draw_sheet(painter, plan, first, POSTER_DRAWING, painter.fonts, "Poster")
    vertical = [x1 for x1, y1, x2, y2 in guides(painter, painter.pages) if x1 == x2]
    horizontal = [y1 for x1, y1, x2, y2 in guides(painter, painter.pages) if y1 == y2]
    to_poster_x, to_poster_y = first.window.x - MARGIN, first.window.y - MARGIN
    assert [x + to_poster_x for x in vertical] == pytest.approx([plan.sheet(0, 1).window.x])
    assert [y + to_poster_y for y in horizontal] == pytest.approx([plan.sheet(1, 0).window.y])
    last = plan.sheets[-1]
    _draw_sheet(painter, plan, last, POSTER_DRAWING, painter.fonts, "Poster")
    assert guides(painter, painter.pages) == []  # nothing follows it to the right or below


def test_a_sheet_names_its_place_and_its_neighbours():
    plan = plan_tiles(POSTER, LETTER, MARGIN)
    painter = Recorder()
    sheet = plan.sheet(1, 1)
    _draw_sheet(painter, plan, sheet, POSTER_DRAWING, painter.fonts, "Poster")
    [label] = [t for _, _, _, t, *_ in painter.of("text") if t.startswith("Poster")]
    assert f"sheet {sheet.number} of {len(plan.sheets)}" in label and "row 2, column 2" in label
    for side, neighbour in (("left", plan.sheet(1, 0)), ("above", plan.sheet(0, 1)), ("right", plan.sheet(1, 2))):
        if neighbour:
            assert f"{side} {neighbour.number}" in label


def test_seams_keep_off_the_boxes_to_avoid_where_the_paper_left_over_allows():
    """A box where the centred sheets would be joined moves the seam off it (2 mm clear), within the paper left over;
    without boxes the sheets stay centred, sharing what is left over."""
    from generators.map.poster_sheets import SEAM_CLEARANCE, seams
    from generators.printing.geometry import Box

    page, paper = (300.0, 150.0), (200.0, 200.0)
    centred = plan_tiles(page, paper, 10.0)
    [x], _ = seams(centred)
    assert centred.sheets[0].window.x == pytest.approx(-(2 * (180 - OVERLAP) + OVERLAP - 300) / 2)
    box = Box(x - 10, 20, 20, 20)
    moved = plan_tiles(page, paper, 10.0, avoid=[box])
    [seam], _ = seams(moved)
    assert len(moved.sheets) == len(centred.sheets)
    assert seam <= box.x - SEAM_CLEARANCE or seam >= box.right + SEAM_CLEARANCE
    assert moved.sheets[0].window.x <= 0 and moved.sheets[-1].window.right >= page[0]  # the page still covered


def test_a_seam_that_cannot_miss_every_box_misses_the_most_it_can():
    from generators.map.poster_sheets import seams
    from generators.printing.geometry import Box

    page, paper = (300.0, 150.0), (200.0, 200.0)
    [x], _ = seams(plan_tiles(page, paper, 10.0))
    boxes = [Box(x - 5, 0, 10, 10), Box(x + 1, 20, 10, 10), Box(x + 20, 40, 10, 10)]  # the middle free between them
    [seam], _ = seams(plan_tiles(page, paper, 10.0, avoid=boxes))
    cut = [b for b in boxes if b.x - 2 < seam < b.right + 2]
    assert len(cut) <= 1


def _ink(page: tuple[float, float], inked: list[tuple[float, float, float, float]]):
    """A page's ink as the tiler reads it: a picture, one pixel a mm, inked in the rectangles given (mm)."""
    import numpy as np

    from generators.map.poster_sheets import INK_RESOLUTION, PageInk

    mask = np.zeros((round(page[1] * INK_RESOLUTION), round(page[0] * INK_RESOLUTION)), dtype=bool)
    for x0, y0, x1, y1 in inked:
        mask[round(y0 * INK_RESOLUTION):round(y1 * INK_RESOLUTION), round(x0 * INK_RESOLUTION):round(x1 * INK_RESOLUTION)] = True
    return PageInk(mask)


def test_a_sheet_that_would_print_only_blank_paper_is_left_out_and_its_neighbours_say_so():
    """The Web of Spies map printed a twelfth sheet of blank paper: a sheet with no ink of its own is not printed,
    the others are numbered on without it, and no sheet names it as a neighbour or guides an edge onto it."""
    page = (700.0, 500.0)
    full = plan_tiles(page, LETTER, MARGIN)
    ink = _ink(page, [(0.0, 0.0, 700.0, 250.0), (0.0, 250.0, 300.0, 500.0)])  # the lower right is blank
    plan = plan_tiles(page, LETTER, MARGIN, ink=ink)
    assert (plan.rows, plan.columns) == (full.rows, full.columns) and len(plan.sheets) < len(full.sheets)
    assert [s.number for s in plan.sheets] == list(range(1, len(plan.sheets) + 1))
    assert all(ink.inside(s.window.x, s.window.y, s.window.right, s.window.bottom) for s in plan.sheets)
    assert ink.uncovered([s.window for s in plan.sheets]) == 0  # every inked mm still prints
    for sheet in plan.sheets:
        for r, c in ((sheet.row, sheet.column + 1), (sheet.row + 1, sheet.column)):
            neighbour = plan.sheet(r, c)
            assert neighbour is None or neighbour in plan.sheets


def test_ink_only_in_the_overlap_a_neighbour_repeats_needs_no_sheet_of_its_own():
    page = (400.0, 250.0)
    full = plan_tiles(page, LETTER, MARGIN)
    last = full.sheets[-1].window
    plan = plan_tiles(page, LETTER, MARGIN, ink=_ink(page, [(0.0, 0.0, last.x + OVERLAP / 2, 250.0)]))
    assert len(plan.sheets) < len(full.sheets)


def test_the_sheets_cover_only_the_rectangle_that_holds_the_ink():
    """A poster's blank paper round its ink needs no sheet: ink in a 300 x 180 mm corner of a 700 x 500 mm page,
    which the sheets over the whole page would spread over 4, takes 2 of Letter, laid over the ink alone and
    centred on it, so the paper left over is shared by both sides."""
    page = (700.0, 500.0)
    ink = _ink(page, [(380.0, 250.0, 680.0, 430.0)])
    plan = plan_tiles(page, LETTER, MARGIN, ink=ink)
    assert len(plan.sheets) == 2
    assert ink.uncovered([s.window for s in plan.sheets]) == 0
    left, right = min(s.window.x for s in plan.sheets), max(s.window.right for s in plan.sheets)
    top, bottom = min(s.window.y for s in plan.sheets), max(s.window.bottom for s in plan.sheets)
    assert 380 - left == pytest.approx(right - 680, abs=1.5) and 250 - top == pytest.approx(bottom - 430, abs=1.5)


def test_a_seam_parts_boxes_side_by_side_along_their_shared_edge():
    """A track of 15 mm boxes wider than a sheet must be crossed: the seam runs along the edge two boxes share,
    cutting none, rather than through one."""
    from generators.map.poster_sheets import seams
    from generators.printing.geometry import Box

    page = (400.0, 150.0)
    boxes = [Box(40.0 + 15 * k, 50.0, 15.0, 15.0) for k in range(22)]  # 40 to 370 mm
    plan = plan_tiles(page, LETTER, MARGIN, avoid=boxes)
    [seam], _ = seams(plan)
    assert 40 < seam < 370
    assert (seam - 40) / 15 == pytest.approx(round((seam - 40) / 15), abs=1e-6)


def test_the_sheets_own_ink_is_read_alike_for_every_shift_at_once_and_one_by_one():
    """The tiler weighs every pair of shifts together (_own_inks_at); each sheet's own ink is the one _own_inks
    gives for that shift's sheets, shifts past the page's edges and sheets clipped to nothing included."""
    import random

    from generators.map.poster_sheets import _own_inks, _own_inks_at
    from generators.printing.geometry import Box

    rng = random.Random(7)
    page = (430.0, 290.0)
    ink = _ink(page, [(x0, y0, x0 + rng.uniform(1, 4), y0 + rng.uniform(1, 4))
                      for x0, y0 in ((rng.uniform(0, page[0]), rng.uniform(0, page[1])) for _ in range(15))])
    shown, overlap, rows, columns = (190.0, 250.0), OVERLAP, 2, 3
    step = (shown[0] - overlap, shown[1] - overlap)
    xs = [rng.uniform(-200.0, 20.0) for _ in range(40)] + [-1000.0, 500.0]
    ys = [rng.uniform(-250.0, 20.0) for _ in range(30)] + [400.0]
    own = _own_inks_at(ink, xs, ys, step, shown, rows, columns, overlap)
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            windows = [Box(x + c * step[0], y + r * step[1], *shown) for r in range(rows) for c in range(columns)]
            assert own[i, j].ravel().tolist() == _own_inks(ink, windows, rows, columns, overlap)
    assert len({int(n) for n in (own > 0).sum(axis=(2, 3)).flat}) > 2  # the shifts differ in what they leave out
