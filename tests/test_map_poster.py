"""The printed map: map.pdf on one 22 x 34 inch page, map-tiles.pdf over Letter or A4, SVG; measured in the files."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generators.cli import main

MM_PER_PT = 25.4 / 72


def build(out: Path, *args: str) -> Path:
    assert main(["build", "--game", "spies", "--only", "map", "--out", str(out), *args]) == 0
    return out / "spies"


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("letter"), "--format", "pdf,svg", "--paper", "letter")


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("a4"), "--paper", "a4")


@pytest.fixture(scope="module")
def poster_words(letter) -> list[dict]:
    with pdfplumber.open(letter / "map.pdf") as pdf:
        return pdf.pages[0].extract_words(use_text_flow=True, keep_blank_chars=False)


@pytest.fixture(scope="module")
def poster_text(letter) -> str:
    with pdfplumber.open(letter / "map.pdf") as pdf:
        return pdf.pages[0].extract_text()


def page_size_mm(page) -> tuple[float, float]:
    return float(page.mediabox.width) * MM_PER_PT, float(page.mediabox.height) * MM_PER_PT


def test_poster_is_one_22_by_34_inch_page(letter):
    reader = pypdf.PdfReader(letter / "map.pdf")
    assert len(reader.pages) == 1
    width, height = page_size_mm(reader.pages[0])
    assert width == pytest.approx(22 * 25.4, abs=0.3) and height == pytest.approx(34 * 25.4, abs=0.3)


def test_every_place_is_named_in_real_text(poster_text, spies):
    game_map = spies.map
    flat = " ".join(poster_text.split())
    missing = [p.name for p in game_map.cities + game_map.sea_zones if p.name not in flat]
    assert not missing


def test_reconstruction_is_said_on_the_poster(poster_text, spies):
    flat = " ".join(poster_text.split())
    assert "Reconstruction." in flat and "not a transcription of the printed map" in flat
    assert spies.info.title in flat


def test_marks_are_explained(poster_text):
    flat = " ".join(poster_text.split())
    for words in ("Capital", "Port", "police", "SECRET", "SPY HAVEN", "Rail line", "Air line", "Sea zone", "Legend", "Index of places"):
        assert words in flat, words
    assert flat.count("SECRET") >= 8 + 1  # each SECRET city's tag, and the legend's
    assert flat.count("SPY HAVEN") >= 3 + 1


def test_no_two_names_overlap(poster_words):
    boxes = [(w["x0"], w["top"], w["x1"], w["bottom"], w["text"]) for w in poster_words]
    clashes = []
    for i, (ax0, ay0, ax1, ay1, a) in enumerate(boxes):
        for bx0, by0, bx1, by1, b in boxes[i + 1:]:
            w, h = min(ax1, bx1) - max(ax0, bx0), min(ay1, by1) - max(ay0, by0)
            if w > 0.5 and h > 0.5:
                clashes.append((a, b))
    assert not clashes, clashes[:10]


def test_fonts_are_embedded(letter):
    reader = pypdf.PdfReader(letter / "map.pdf")
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for font in fonts.values():
        font = font.get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        assert "/FontFile2" in descendant["/FontDescriptor"].get_object(), font["/BaseFont"]


def test_svg_poster_holds_the_names(letter, spies):
    files = sorted(letter.glob("map*.svg"))
    assert [f.name for f in files] == ["map-1.svg"]  # the tiles are for printing, not SVG
    root = ET.parse(files[0]).getroot()
    assert root.get("width") == "558.8mm" and root.get("height") == "863.6mm"
    texts = {el.text for el in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {c.name for c in spies.map.cities} <= texts


def sheet_pages(path: Path) -> list:
    return pypdf.PdfReader(path).pages


@pytest.mark.parametrize("paper, size", [("letter", (215.9, 279.4)), ("a4", (210.0, 297.0))])
def test_tiles_are_on_the_chosen_paper(request, paper, size):
    folder = request.getfixturevalue(paper)
    pages = sheet_pages(folder / "map-tiles.pdf")
    assert len(pages) > 2
    for page in pages:
        assert sorted(page_size_mm(page)) == pytest.approx(sorted(size), abs=0.3)


def test_tiles_index_and_sheet_labels(letter):
    with pdfplumber.open(letter / "map-tiles.pdf") as pdf:
        texts = [page.extract_text() for page in pdf.pages]
    assert "how the sheets fit" in texts[0] and "Print at actual size" in texts[0]
    sheets = len(texts) - 1
    for n, text in enumerate(texts[1:], start=1):
        assert re.search(rf"sheet {n} of {sheets}\b", text), n


def test_neighbouring_sheets_overlap_and_align(letter):
    """Names shown on two side-by-side sheets sit on both at one and the same shift: the sheets overlap and line up."""
    with pdfplumber.open(letter / "map-tiles.pdf") as pdf:
        width, height = float(pdf.pages[1].width), float(pdf.pages[1].height)
        left, right = (pdf.pages[i].extract_words() for i in (1, 2))

    def once(words):  # names printed once on the sheet, above its footer
        counts = defaultdict(list)
        for w in words:
            if w["bottom"] < 0.95 * height and len(w["text"]) > 3:
                counts[w["text"]].append(w)
        return {text: found[0] for text, found in counts.items() if len(found) == 1}

    a, b = once(left), once(right)
    shifts = [round(a[t]["x0"] - b[t]["x0"], 1) for t in set(a) & set(b) if abs(a[t]["top"] - b[t]["top"]) < 0.2]
    assert len(shifts) >= 3, "too few names appear on both sheets"
    assert len(set(shifts)) == 1, shifts
    assert 0 < shifts[0] < width


def test_no_map_no_map_files(tmp_path, game_copy):
    folder = game_copy("spies")
    (folder / "map.yaml").unlink()
    (folder / "aliases.yaml").unlink()  # some aliases name cities only the map holds
    assert main(["build", "--game", str(folder), "--only", "map", "--out", str(tmp_path / "out")]) == 0
    assert not list((tmp_path / "out").rglob("map*"))
