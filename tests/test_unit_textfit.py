"""Text fitting on its own: wrap at words, shrink to the largest size that fits, never below the minimum."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.core.units import mm_to_pt
from generators.printing.fonts import register_font, unit_width
from generators.printing.textfit import LEADING, STEP, Paragraph, TextFitError, _set, _words, fit_text

REGULAR, BOLD = register_font("Vera.ttf"), register_font("VeraBd.ttf")
WORDS = ["Agent", "00042", "Sophia", "Strasberg", "Dneipropetrovsk", "HEAT", "AT", "Round", "a", "£", "1937–39", "Wil'y"]


def widest_line(fitted) -> float:
    """The longest set line, in pt."""
    return max(unit_width(line.text, line.font) * line.size + mm_to_pt(line.x) for line in fitted.lines)


def test_plain_text_needs_a_font():
    with pytest.raises(TypeError):
        fit_text("Fox", 10, 10, largest=12, smallest=4, what="x")


def test_text_with_room_to_spare_is_set_at_the_largest_size():
    fitted = fit_text("Fox", 100, 100, largest=12, smallest=4, what="x", font=BOLD)
    assert fitted.size == 12 and [line.text for line in fitted.lines] == ["Fox"]


def test_text_shrinks_until_it_fits_the_width_and_height():
    fitted = fit_text("Dneipropetrovsk", 30, 4.7, largest=12, smallest=4, what="x", font=BOLD)
    assert 4 <= fitted.size < 12
    assert widest_line(fitted) <= mm_to_pt(30) + 1e-6
    assert fitted.height <= 4.7 + 1e-6


def test_the_size_chosen_is_the_largest_that_fits():
    fitted = fit_text("Scotland Yard", 11.2, 4.7, largest=12, smallest=4, what="x", font=BOLD)
    one_step_up = fitted.size + STEP
    with pytest.raises(TextFitError):
        fit_text("Scotland Yard", 11.2, 4.7, largest=12, smallest=one_step_up, what="x", font=BOLD)


def test_text_wraps_at_word_boundaries_and_never_splits_a_word():
    fitted = fit_text("Soviet Black Sea Fleet sorties", 20, 20, largest=8, smallest=8, what="x", font=REGULAR)
    assert len(fitted.lines) > 1
    assert " ".join(line.text for line in fitted.lines) == "Soviet Black Sea Fleet sorties"


def test_a_no_break_space_keeps_two_words_on_one_line():
    text = "tiles: Br\u00a032 Ge\u00a01 Rs\u00a018 It\u00a08"
    fitted = fit_text(text, 12, 50, largest=8, smallest=8, what="x", font=REGULAR)
    assert all(not line.text.endswith(("Br", "Ge", "Rs", "It")) for line in fitted.lines)


def test_a_lone_sign_stays_with_the_word_before_it():
    assert _words("costs 20 £ · more") == ["costs", "20 £ ·", "more"]


def test_text_that_cannot_fit_at_the_smallest_size_names_what_it_belongs_to():
    with pytest.raises(TextFitError, match=r"Ge 1: event: text does not fit in 5\.0 x 2\.0 mm even at 5 pt"):
        fit_text("Czech Crisis!", 5, 2, largest=8, smallest=5, what="Ge 1: event", font=BOLD)


def test_a_remembered_refusal_still_names_the_new_item():
    for label in ("Ge 1: event", "Ge 2: event"):
        with pytest.raises(TextFitError, match=label):
            fit_text("Czech Crisis!", 5, 2, largest=8, smallest=5, what=label, font=BOLD)


def test_a_run_in_paragraph_continues_the_last_line():
    fitted = fit_text([Paragraph("Police:", BOLD), Paragraph("two per city", REGULAR, run_in=True)],
                      100, 20, largest=8, smallest=8, what="x")
    assert [line.text for line in fitted.lines] == ["Police:", " two per city"]  # a real space: copies as words
    label, rest = fitted.lines
    assert label.baseline == rest.baseline and rest.x > 0


def test_space_before_and_indent_move_a_paragraph():
    plain = fit_text([Paragraph("One", REGULAR), Paragraph("Two", REGULAR)], 50, 50, largest=8, smallest=8, what="x")
    moved = fit_text([Paragraph("One", REGULAR), Paragraph("Two", REGULAR, indent=3.0, space_before=0.5)],
                     50, 50, largest=8, smallest=8, what="x")
    assert moved.lines[1].baseline > plain.lines[1].baseline and moved.lines[1].x == 3.0


def test_a_scaled_paragraph_never_goes_below_the_smallest_size():
    fitted = fit_text([Paragraph("Title", BOLD), Paragraph("small print", REGULAR, scale=0.5)],
                      50, 50, largest=8, smallest=6, what="x")
    assert fitted.lines[1].size == 6


def _largest_by_scanning(paragraph: Paragraph, width: float, height: float, largest: float, smallest: float):
    """The largest size, trying every size from the top, at which the paragraph fits: what fit_text must find."""
    words = _words(paragraph.text)
    measured = [(words, [unit_width(w, paragraph.font) for w in words], unit_width(" ", paragraph.font))]
    count = int((largest - smallest) / STEP + 1e-9) + 1
    sizes = [largest - i * STEP for i in range(count)]
    if sizes[-1] > smallest + 1e-9:
        sizes.append(smallest)  # the smallest allowed size is always tried
    for size in sizes:
        fitted = _set([paragraph], measured, size, mm_to_pt(width), mm_to_pt(height), LEADING, smallest)
        if fitted is not None:
            return fitted
    return None


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), font=st.sampled_from([REGULAR, BOLD]),
       width=st.floats(3, 60), height=st.floats(1, 30), largest=st.floats(5, 20), floor=st.floats(0.2, 1.0))
def test_a_single_paragraph_gets_the_largest_size_that_fits(words, font, width, height, largest, floor):
    paragraph = Paragraph(" ".join(words), font)
    smallest = max(2.0, largest * floor)
    expected = _largest_by_scanning(paragraph, width, height, largest, smallest)
    try:
        fitted = fit_text(paragraph, width, height, largest=largest, smallest=smallest, what="x")
    except TextFitError:
        assert expected is None
    else:
        assert expected is not None and fitted.size == expected.size and fitted.lines == expected.lines
