"""A document asked for as PDF and SVG is drawn once and rendered twice (printing/recording.py): the product's
drawing runs once, each backend replays what it drew, and the files are the files drawing into each would make."""

from __future__ import annotations

import pytest

from generators.printing.fonts import FontSet, register_font
from generators.printing.painter import Clip, Drawing
from generators.printing.recording import record
from generators.printing.render import draw_document, render_pdf, render_svg


@pytest.fixture(scope="module")
def fonts() -> FontSet:
    return FontSet(regular=register_font("Vera.ttf"), bold=register_font("VeraBd.ttf"))


def _product(calls: list[str]):
    """A small product of two pages: shapes, text, a symbol and one drawing placed twice."""
    def inset(painter) -> None:
        calls.append("inset")
        painter.rect(1, 1, 18, 8, fill="#ccddee", stroke="#000000")
        painter.text(10, 6, "inset", painter.fonts.regular, 7, anchor="middle")

    drawing = Drawing(20, 10, inset, key="inset")

    def draw(painter) -> None:
        calls.append("page")
        for page in range(2):
            painter.new_page(100, 60)
            painter.rect(5, 5, 90, 50, stroke="#333333", dash=(1, 1))
            painter.line(0, 30, 100, 30, stroke="#ff0000")
            painter.polygon([(10, 10), (20, 10), (15, 18)], fill="#00aa00")
            painter.circle(50, 30, 4, fill="#0000ff")
            painter.symbol("star", 70, 20, 6)
            painter.text(50, 50, f"page {page + 1}", painter.fonts.bold, 9, angle=10, halo=("#ffffff", 1.0))
            painter.place(drawing, 10 + page, 40, scale=0.8, clip=Clip(10, 40, 15, 8))
    return draw


def test_pdf_and_svg_are_one_drawing_rendered_twice(fonts, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    calls: list[str] = []
    document = draw_document(tmp_path / "product.pdf", _product(calls), fonts, ("pdf", "svg"), title="Product")
    assert calls == ["page", "inset"]  # the page drawn once, the placed drawing once for both backends
    alone: list[str] = []
    assert document.files["product.pdf"] == render_pdf(_product(alone), fonts, "Product")
    assert [document.files[f"product-{n}.svg"] for n in (1, 2)] == render_svg(_product(alone), fonts)
    assert alone.count("page") == 2 and alone.count("inset") >= 2  # drawn into each backend on its own


def test_a_recording_holds_what_was_drawn_in_order(fonts):
    recording = record(_product([]), fonts)
    assert [op.args[:2] for op in recording.of("new_page")] == [(100, 60), (100, 60)]
    assert [op.args[2] for op in recording.of("text")] == ["page 1", "page 2"]
    placed = recording.of("place")
    assert [op.args[1:3] for op in placed] == [(10, 40), (11, 40)]
    assert placed[0].args[0] is placed[1].args[0]  # one recorded drawing, placed twice
