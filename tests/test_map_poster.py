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
def poster_page(letter):
    """The poster page with each halo's stroked copy of a name folded into its name."""
    with pdfplumber.open(letter / "map.pdf") as pdf:
        yield pdf.pages[0].dedupe_chars()


@pytest.fixture(scope="module")
def poster_words(poster_page) -> list[dict]:
    return poster_page.extract_words(use_text_flow=True, keep_blank_chars=False)


@pytest.fixture(scope="module")
def poster_text(poster_page) -> str:
    return poster_page.extract_text()


@pytest.fixture(scope="module")
def poster_image(letter):
    """The poster rendered at 40 dpi, and how many pixels a millimetre is."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(letter / "map.pdf")
    image = document[0].render(scale=40 / 72).to_pil().convert("RGB")
    document.close()
    return image, 40 / 25.4


@pytest.fixture(scope="module")
def plan(spies):
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    return plan_poster(spies, spies.layout, register_fonts(spies.layout.fonts, spies.folder))


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


MARGIN_PT = 10.0 / MM_PER_PT  # the default layout's page margin: each sheet shows its window of the poster inside it
FOOTER_SIZE = 7.0


def shown(page):
    """What a tile sheet shows whole of the poster: the poster is one form placed on every sheet and clipped to
    the sheet's window, and text extraction ignores clipping."""
    return page.within_bbox((MARGIN_PT, MARGIN_PT, float(page.width) - MARGIN_PT, float(page.height) - MARGIN_PT))


def footer(page) -> str:
    """A sheet's footer: the line of small type in its bottom margin (the clipped poster's text there is not shown)."""
    band = page.crop((0, float(page.height) - MARGIN_PT, float(page.width), float(page.height)))
    chars = [c for c in band.chars if c["size"] == pytest.approx(FOOTER_SIZE) and "Bold" not in c["fontname"]]
    line = max({round(c["bottom"]) for c in chars}, key=lambda b: sum(round(c["bottom"]) == b for c in chars))
    return "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]) if round(c["bottom"]) == line)


@pytest.mark.parametrize("paper, size", [("letter", (215.9, 279.4)), ("a4", (210.0, 297.0))])
def test_tiles_are_on_the_chosen_paper(request, paper, size):
    folder = request.getfixturevalue(paper)
    pages = sheet_pages(folder / "map-tiles.pdf")
    assert len(pages) > 2
    for page in pages:
        assert sorted(page_size_mm(page)) == pytest.approx(sorted(size), abs=0.3)


def test_tiles_index_and_sheet_labels(letter):
    with pdfplumber.open(letter / "map-tiles.pdf") as pdf:
        index = pdf.pages[0].crop(pdf.pages[0].bbox).extract_text()
        footers = [footer(page) for page in pdf.pages[1:]]
    assert "how the sheets fit" in index and "Print at actual size" in index
    for n, text in enumerate(footers, start=1):
        assert re.search(rf"sheet {n} of {len(footers)}\b", text), (n, text)


def test_neighbouring_sheets_overlap_and_align(letter):
    """Names shown whole on two side-by-side sheets sit on both at one and the same shift: the sheets overlap
    and line up."""
    from generators.map.poster_sheets import plan_tiles

    tiles = plan_tiles((22 * 25.4, 34 * 25.4), (215.9, 279.4), 10.0)
    with pdfplumber.open(letter / "map-tiles.pdf") as pdf:
        width = float(pdf.pages[1].width)
        words = [shown(page).extract_words() for page in pdf.pages[1:]]

    def once(found):  # names printed once on the sheet
        counts = defaultdict(list)
        for w in found:
            if len(w["text"]) > 3:
                counts[w["text"]].append(w)
        return {text: hits[0] for text, hits in counts.items() if len(hits) == 1}

    shifts = []
    for sheet in tiles.sheets:
        right = tiles.sheet(sheet.row, sheet.column + 1)
        if right is not None:
            a, b = once(words[sheet.number - 1]), once(words[right.number - 1])
            shifts += [round(a[t]["x0"] - b[t]["x0"], 1) for t in set(a) & set(b) if abs(a[t]["top"] - b[t]["top"]) < 0.2]
    assert len(shifts) >= 3, "too few names appear on two sheets"
    assert len(set(shifts)) == 1, shifts
    assert shifts[0] == pytest.approx(tiles.step[0] / MM_PER_PT, abs=0.2) and 0 < shifts[0] < width


def test_no_map_no_map_files(tmp_path, game_copy):
    folder = game_copy("spies")
    (folder / "map.yaml").unlink()
    (folder / "aliases.yaml").unlink()  # some aliases name cities only the map holds
    assert main(["build", "--game", str(folder), "--only", "map", "--out", str(tmp_path / "out")]) == 0
    assert not list((tmp_path / "out").rglob("map*"))


# --- real geography ------------------------------------------------------------------------

def _is_sea(poster_image, spies, lat: float, lon: float) -> bool:
    """Whether the poster shows sea at (lat, lon): most pixels around the point are the sea's colour."""
    from generators.map.poster import map_frame

    image, px = poster_image
    _, project = map_frame(spies.map, 22 * 25.4)
    xs, ys = project([lon], [lat])
    sea = tuple(int(spies.layout.colour("map-sea").fill[i:i + 2], 16) for i in (1, 3, 5))
    around = [image.getpixel((int(xs[0] * px) + dx, int(ys[0] * px) + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    return sum(all(abs(a - b) <= 6 for a, b in zip(p, sea)) for p in around) > len(around) / 2


@pytest.mark.parametrize("where, lat, lon, sea", [
    ("between Moscow and Kharkov", 53.0, 36.9, False),
    ("east of Moscow", 55.8, 41.0, False),
    ("between Oslo and Stockholm", 59.5, 14.4, False),
    ("the Skagerrak", 57.75, 7.6, True),
    ("between Algiers and Tunis", 36.5, 6.6, False),
    ("the Bay of Biscay", 44.6, -3.0, True),
    ("the Black Sea", 42.6, 31.0, True),
])
def test_land_is_land_and_sea_is_sea(poster_image, spies, where, lat, lon, sea):
    assert _is_sea(poster_image, spies, lat, lon) is sea, where


def test_every_city_stands_on_its_own_country(plan, spies):
    from shapely.geometry import Point

    shapes = {r.country: r.shape for r in plan.regions}
    off = [c.name for c in spies.map.cities if shapes[c.country].distance(Point(plan.at[c.name])) > 1.5]
    assert not off


def test_each_country_is_shaded_in_its_power_colour(plan, spies):
    for city in spies.map.cities:
        region = next(r for r in plan.regions if r.country == city.country)
        assert region.power == city.power, city.name


def test_no_power_shade_reads_as_the_sea(plan):
    """Every power's land differs from the sea by a clear step of lightness or colour (CIE76 ΔE over 20)."""
    pal = plan.palette
    for power in pal.powers:
        assert _delta_e(pal.shade(power), pal.sea) > 20, power


def _delta_e(a: str, b: str) -> float:
    def lab(colour):
        rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.9505
        y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.089
        f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
        return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])

    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5


def test_sea_zones_are_regions_with_drawn_borders(plan):
    assert len(plan.zone_edges) >= len(plan.game_map.sea_zones) - 2


def test_credit_line_names_the_source(poster_text):
    flat = " ".join(poster_text.split())
    assert "Natural Earth" in flat and "public domain" in flat and "1933 borders approximated" in flat


# --- legibility --------------------------------------------------------------------------------

def test_no_name_covers_a_marker_a_badge_or_another_name(plan):
    from generators.map.poster import _mark_boxes

    marks = _mark_boxes(plan.game_map, plan.at)
    rects = [p.rect for p in plan.placed.values()]
    for i, r in enumerate(rects):
        assert all(r.overlap(m) < 0.01 for m in marks), plan.placed
        assert all(r.overlap(o) < 0.01 for o in rects[i + 1:])


def test_route_lines_cross_few_city_names(plan):
    """Names keep off rail, air and sea lines wherever a spot allows; where the network is densest (the Ruhr,
    the Low Countries) a few still cross one, under the name's halo."""
    from shapely.geometry import LineString, box

    from generators.map.poster import _lanes, _route_lines

    lines = [LineString(line) for line in _route_lines(plan.game_map, plan.at) + _lanes(plan.game_map, plan.at)]
    crossed = [key for key, p in plan.placed.items() if key in plan.city_labels
               and any(line.intersects(box(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom)) for line in lines)]
    assert len(crossed) <= len(plan.city_labels) // 5, crossed  # 18 of 139 today


def test_city_names_are_printed_on_the_map_itself(poster_words, plan, spies):
    """Each city's name appears inside the map frame, not only in the index of places below it."""
    f = plan.frame
    inside = " ".join(w["text"] for w in poster_words if w["top"] * MM_PER_PT < f.bottom and w["bottom"] * MM_PER_PT > f.y)
    missing = [c.name for c in spies.map.cities if c.name not in inside]
    assert not missing


def test_badge_letters_stand_at_least_1_5_mm_tall(poster_page, spies):
    badges = [m.badge for m in spies.map.marks.values() if m.badge]
    letters = [c for c in poster_page.chars if c["text"] in badges and c.get("non_stroking_color") in ((1, 1, 1), [1, 1, 1], (1.0, 1.0, 1.0))]
    assert letters
    cap_height = 0.729  # of the bold face's size
    assert min(c["size"] for c in letters) * cap_height * MM_PER_PT >= 1.5


# --- the mapsheet's tracks and records -----------------------------------------------------------

def test_tracks_records_and_boxes_are_printed_as_text(poster_text, spies):
    flat = " ".join(poster_text.split())
    for words in ("Bank Track", "Time and Victory Record", "Game Year", "Spies Captured in Neutral Countries",
                  "Sanctioned Spies Box", "Turn Order", "×3"):
        assert words in flat, words
    for year in spies.info.years:
        assert str(year) in flat


def test_aids_on_the_map_cover_no_place_or_line(plan):
    from shapely.geometry import LineString, box

    from generators.map.poster import _lanes, _mark_boxes, _route_lines

    lines = [LineString(line) for line in _route_lines(plan.game_map, plan.at) + _lanes(plan.game_map, plan.at)]
    marks = _mark_boxes(plan.game_map, plan.at)
    for laid, x, y in plan.aids:
        area = box(x, y, x + laid.width, y + laid.height)
        assert not any(area.intersects(line) for line in lines), laid.aid.id
        assert not any(area.intersects(box(m.x, m.y, m.right, m.bottom)) for m in marks), laid.aid.id


def test_bank_track_names_each_power_in_its_starting_box(poster_text, spies):
    flat = " ".join(poster_text.split())
    for faction in spies.info.factions:
        assert faction.name in flat


# --- the tiles --------------------------------------------------------------------------------

def test_no_tile_sheet_is_mostly_blank(letter):
    from generators.map.poster_sheets import plan_tiles

    tiles = plan_tiles((22 * 25.4, 34 * 25.4), (215.9, 279.4), 10.0)
    for sheet in tiles.sheets:
        w = sheet.window
        shown = (min(w.right, tiles.page[0]) - max(w.x, 0)) * (min(w.bottom, tiles.page[1]) - max(w.y, 0))
        assert shown >= 0.5 * w.width * w.height, sheet.number


def test_tile_footers_stay_6_mm_from_the_edge(letter):
    with pdfplumber.open(letter / "map-tiles.pdf") as pdf:
        for page in pdf.pages[1:]:
            band = page.crop((0, float(page.height) - MARGIN_PT, float(page.width), float(page.height)))
            line = [c for c in band.chars if c["size"] == pytest.approx(FOOTER_SIZE) and "Bold" not in c["fontname"]]
            assert line and all((float(page.height) - c["bottom"]) * MM_PER_PT >= 6.0 for c in line)
