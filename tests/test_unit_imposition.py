"""Imposition on its own: where items and their backs land on the paper, in mm, without drawing a PDF."""

from __future__ import annotations

import pytest
from conftest import Recorder

from generators.core.layouts import load_layout
from generators.printing.geometry import Box
from generators.printing.imposition import (
    Backs,
    SheetError,
    SheetSpec,
    Side,
    caption_space,
    draw_caption,
    draw_crop_marks,
    draw_guides,
    impose,
    impose_groups,
    print_advice,
)

LETTER = (215.9, 279.4)
COUNTER = (12.7, 12.7)


def spec(**changes) -> SheetSpec:
    return SheetSpec(**({"paper": LETTER, "item": COUNTER, "margin": 10.0} | changes))


def fronts_and_backs(plan, sheet: int = 1) -> tuple[dict, dict]:
    """Sheet `sheet`'s boxes by item index: fronts, backs."""
    pages = [p for p in plan.pages if p.sheet == sheet]
    fronts = {p.index: p.box for page in pages for p in page.items if p.side is Side.FRONT}
    backs = {p.index: p.box for page in pages for p in page.items if p.side is Side.BACK}
    return fronts, backs


def close(a: Box, b: Box) -> bool:
    return all(abs(u - v) < 1e-9 for u, v in zip((a.x, a.y, a.width, a.height), (b.x, b.y, b.width, b.height)))


def test_a_letter_sheet_holds_as_many_counters_as_fit_inside_the_margins():
    plan = impose(400, spec())
    assert (plan.columns, plan.rows) == (15, 20)  # (215.9 - 20) // 12.7, (279.4 - 20) // 12.7
    assert [len(p.items) for p in plan.pages] == [300, 300, 100, 100]
    assert [(p.number, p.sheet, p.side) for p in plan.pages] == [
        (1, 1, Side.FRONT), (2, 1, Side.BACK), (3, 2, Side.FRONT), (4, 2, Side.BACK)]


def test_items_are_numbered_in_reading_order_and_stay_inside_the_margins():
    plan = impose(300, spec())
    fronts, _ = fronts_and_backs(plan)
    ordered = [fronts[i] for i in range(300)]
    assert ordered == sorted(ordered, key=lambda b: (round(b.y, 6), b.x))
    assert all(b.x >= 10 and b.y >= 10 and b.right <= LETTER[0] - 10 and b.bottom <= LETTER[1] - 10 for b in ordered)


def test_a_short_row_is_centred_across_the_page():
    fronts, _ = fronts_and_backs(impose(3, spec()))
    row = sorted(fronts.values(), key=lambda b: b.x)
    assert abs(row[0].x - (LETTER[0] - row[-1].right)) < 1e-9


def test_long_edge_backs_are_mirrored_left_to_right_behind_their_fronts():
    fronts, backs = fronts_and_backs(impose(40, spec(backs=Backs.LONG_EDGE)))
    for i, front in fronts.items():
        assert close(backs[i], Box(LETTER[0] - front.right, front.y, front.width, front.height))


def test_short_edge_backs_are_mirrored_top_to_bottom_behind_their_fronts():
    fronts, backs = fronts_and_backs(impose(40, spec(backs=Backs.SHORT_EDGE)))
    for i, front in fronts.items():
        assert close(backs[i], Box(front.x, LETTER[1] - front.bottom, front.width, front.height))


def test_on_landscape_paper_the_long_edge_flip_mirrors_top_to_bottom():
    landscape = (LETTER[1], LETTER[0])
    fronts, backs = fronts_and_backs(impose(40, spec(paper=landscape)))
    for i, front in fronts.items():
        assert close(backs[i], Box(front.x, landscape[1] - front.bottom, front.width, front.height))


def test_a_back_offset_moves_every_back_right_and_up_as_the_back_is_seen():
    plain = fronts_and_backs(impose(40, spec()))[1]
    shifted = fronts_and_backs(impose(40, spec(back_offset=(0.4, 0.3))))[1]
    assert all(close(shifted[i], plain[i].shifted(0.4, -0.3)) for i in plain)


def test_a_back_offset_beyond_the_margin_is_refused():
    with pytest.raises(SheetError, match="--back-offset 11,0 mm"):
        spec(back_offset=(11.0, 0.0))


def test_fold_puts_fronts_on_one_half_and_their_backs_mirrored_about_the_fold():
    plan = impose(40, spec(backs=Backs.FOLD))
    page = plan.pages[0]
    assert page.side is None and page.fold == (LETTER[0] / 2, 0.0, LETTER[0] / 2, LETTER[1])
    fronts, backs = fronts_and_backs(plan)
    for i, front in fronts.items():
        assert front.right <= LETTER[0] / 2 - 5.0 + 1e-9  # half a margin from the fold
        assert close(backs[i], Box(LETTER[0] - front.right, front.y, front.width, front.height))


def test_without_backs_every_page_is_a_front():
    plan = impose(400, spec(backs=Backs.NONE))
    assert [p.side for p in plan.pages] == [Side.FRONT, Side.FRONT]
    assert not any(p.backs for p in plan.pages)


def test_neighbours_are_a_pitch_apart_the_gutter_or_twice_the_bleed():
    for changes, pitch in (({"gutter": 2.0}, 2.0), ({"bleed": 1.5}, 3.0), ({"gutter": 2.0, "bleed": 0.5}, 2.0)):
        fronts, _ = fronts_and_backs(impose(2, spec(**changes)))
        assert abs(fronts[1].x - fronts[0].right - pitch) < 1e-9, changes


def test_bleed_stays_inside_the_margins():
    fronts, _ = fronts_and_backs(impose(300, spec(bleed=1.0)))
    grown = [b.grown(1.0) for b in fronts.values()]
    assert min(b.x for b in grown) >= 10 - 1e-9 and max(b.right for b in grown) <= LETTER[0] - 10 + 1e-9


def test_groups_of_other_sizes_share_a_page_tallest_first():
    plan = impose_groups([(COUNTER, 20), ((38.1, 25.4), 4)], spec(group_gap=12.0))
    counters = [p for p in plan.pages[0].items if p.side is Side.FRONT and p.group == 0]
    tiles = [p for p in plan.pages[0].items if p.side is Side.FRONT and p.group == 1]
    assert len(counters) == 20 and len(tiles) == 4
    assert sorted(p.index for p in tiles) == [20, 21, 22, 23]  # numbered across groups, in the order given
    assert min(p.box.y for p in counters) - max(p.box.bottom for p in tiles) == pytest.approx(12.0)


def test_a_group_alone_takes_sheets_of_its_own_and_others_none_of_them():
    plan = impose_groups([(COUNTER, 20), (COUNTER, 5), ((38.1, 25.4), 4)], spec(group_gap=12.0), alone=[False, True, False])
    fronts = [page for page in plan.pages if page.side is Side.FRONT]
    groups = [{p.group for p in page.items} for page in fronts]
    assert groups == [{0, 2}, {1}]  # the counters and tiles share the first sheet; the five alone take the second
    shared = impose_groups([(COUNTER, 20), (COUNTER, 5), ((38.1, 25.4), 4)], spec(group_gap=12.0))
    assert len([page for page in shared.pages if page.side is Side.FRONT]) == 1


def test_an_item_larger_than_the_paper_is_refused_naming_its_size():
    with pytest.raises(SheetError, match="a 300 x 100 mm card does not fit on 215.9 x 279.4 mm paper"):
        impose(1, spec(item=(300.0, 100.0)), what="card")


def test_crop_marks_line_up_with_every_cut_outside_the_group():
    layout = load_layout("default")
    marks = layout.crop_marks
    boxes = [Box(20.0 + 12.7 * c, 30.0 + 12.7 * r, 12.7, 12.7) for r in range(2) for c in range(3)]
    painter = Recorder()
    painter.new_page(*LETTER)
    draw_crop_marks(painter, boxes, layout)
    lines = painter.of("line")
    vertical = {round(x1, 4) for _, x1, y1, x2, y2, *_ in lines if x1 == x2}
    horizontal = {round(y1, 4) for _, x1, y1, x2, y2, *_ in lines if y1 == y2}
    assert vertical == {round(20.0 + 12.7 * c, 4) for c in range(4)}
    assert horizontal == {round(30.0 + 12.7 * r, 4) for r in range(3)}
    def spans(before: float, after: float) -> list[set[float]]:
        """The two marks on a cut: from `offset` outside the group's edge, `length` long, on either side."""
        near, far = marks.offset, marks.offset + marks.length
        return [{round(before - near, 6), round(before - far, 6)}, {round(after + near, 6), round(after + far, 6)}]

    for _, x1, y1, x2, y2, *_ in lines:
        if x1 == x2:
            assert {round(y1, 6), round(y2, 6)} in spans(30.0, 30.0 + 2 * 12.7)
        else:
            assert {round(x1, 6), round(x2, 6)} in spans(20.0, 20.0 + 3 * 12.7)


def test_guides_outline_fronts_only_and_mark_the_fold():
    layout = load_layout("default")
    folded = spec(backs=Backs.FOLD)
    plan = impose(4, folded)
    painter = Recorder()
    painter.new_page(*LETTER)
    draw_guides(painter, plan.pages[0], layout, folded)
    outlines = [r for r in painter.of("rect") if r[6] == layout.cut_line.colour]
    assert sorted((round(x, 6), round(y, 6)) for _, x, y, *_ in outlines) == sorted(
        (round(p.box.x, 6), round(p.box.y, 6)) for p in plan.pages[0].fronts)
    folds = [ln for ln in painter.of("line") if ln[6]]  # dashed
    assert [ln[1:5] for ln in folds] == [plan.pages[0].fold]


def test_the_caption_sits_in_the_header_unless_the_items_reach_into_it():
    layout = load_layout("default")
    roomy = spec(header=caption_space(layout, 7.0))
    painter = Recorder()
    page = impose(4, roomy).pages[0]
    draw_caption(painter, page, roomy, layout, "caption", painter.fonts.regular, 7.0)
    crowded = spec()  # no header kept: the items start at the top margin
    draw_caption(painter, impose(300, crowded, "counter").pages[0], crowded, layout, "caption", painter.fonts.regular, 7.0)
    (_, _, top_y, *_), (_, _, bottom_y, *_) = painter.of("text")
    assert top_y < 20 and bottom_y == pytest.approx(LETTER[1] - 10.0)


def test_print_advice_says_how_backs_land_behind_fronts():
    assert print_advice(spec()) == "print at 100 %, 2-sided, flip on long edge"
    assert print_advice(spec(backs=Backs.SHORT_EDGE)) == "print at 100 %, 2-sided, flip on short edge"
    assert print_advice(spec(backs=Backs.FOLD)) == "print at 100 %, one-sided; fold on the dashed line, glue, cut"
    assert print_advice(spec(backs=Backs.NONE)) == "print at 100 %, one-sided"
