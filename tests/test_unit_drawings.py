"""A picture drawn once and placed many times (a poster on its tile sheets), in both backends."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pypdf
import pytest

from generators.printing.painter import Clip, Drawing, PdfPainter, SvgPainter

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def fonts(spies):
    from generators.printing.fonts import register_fonts

    return register_fonts(spies.layout.fonts, spies.folder)


def poster(painter) -> None:
    painter.rect(0, 0, 100, 50, fill="#336699")
    painter.text(10, 20, "Poster", painter.fonts.regular, 12)


def test_a_pdf_holds_a_picture_once_however_often_it_is_placed(fonts):
    painter = PdfPainter(fonts)
    picture = Drawing(100, 50, poster, key="poster")
    for n in range(3):
        painter.new_page(60, 60)
        painter.place(picture, -n * 20, 5, clip=Clip(5, 5, 50, 50))
    reader = pypdf.PdfReader(io.BytesIO(painter.pdf_bytes()))
    names = [set(page["/Resources"]["/XObject"]) for page in reader.pages]
    assert len(reader.pages) == 3 and names[0] == names[1] == names[2] and len(names[0]) == 1
    assert "Poster" in reader.pages[0].extract_text()


def test_a_picture_is_placed_scaled_with_its_top_left_corner_where_asked(fonts):
    import pdfplumber

    painter = PdfPainter(fonts)
    painter.new_page(200, 200)
    painter.place(Drawing(100, 50, poster, key="poster"), 40, 30, scale=0.5)
    with pdfplumber.open(io.BytesIO(painter.pdf_bytes())) as pdf:
        (char, *_) = pdf.pages[0].chars
    mm = 72 / 25.4
    assert char["x0"] == pytest.approx((40 + 10 * 0.5) * mm, abs=0.2) and char["size"] == pytest.approx(6.0, abs=0.01)


def test_an_svg_defines_a_picture_once_and_uses_it_clipped(fonts):
    painter = SvgPainter(fonts)
    picture = Drawing(100, 50, poster, key="poster")
    painter.new_page(60, 60)
    painter.place(picture, 0, 0, clip=Clip(5, 5, 50, 50))
    painter.place(picture, -40, 0, clip=Clip(5, 5, 50, 50))
    root = ET.fromstring(painter.svg_pages()[0])
    assert len(root.findall(f"{SVG}defs/{SVG}g")) == 1 and len(root.findall(f".//{SVG}use")) == 2
    assert len(root.findall(f"{SVG}defs/{SVG}clipPath")) == 2
    assert [t.text for t in root.iter(f"{SVG}text")] == ["Poster"]
