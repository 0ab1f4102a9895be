"""The printed map: map.pdf on one 22 x 34 inch page, map-tiles.pdf over Letter or A4, SVG; measured in the files."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from shapely.geometry import LineString, Point, box

from conftest import DICHROMATS, delta_e, grey, lab, rgb, squash

from generators.cli import main
from generators.printing.settings import PrintSettings

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
        page = pdf.pages[0]
        seen, kept = set(), set()
        for char in page.chars:  # as page.dedupe_chars() does, in a hundredth of its time on a page this full
            at = (char["text"], round(char["x0"], 1), round(char["top"], 1))
            if at not in seen:
                seen.add(at)
                kept.add(id(char))
        yield page.filter(lambda o: o.get("object_type") != "char" or id(o) in kept)


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

    return plan_poster(spies, PrintSettings.of_layout(spies.layout), register_fonts(spies.layout.fonts, spies.folder))


def page_size_mm(page) -> tuple[float, float]:
    return float(page.mediabox.width) * MM_PER_PT, float(page.mediabox.height) * MM_PER_PT


def test_poster_is_one_22_by_34_inch_page_turned_landscape(letter):
    reader = pypdf.PdfReader(letter / "map.pdf")
    assert len(reader.pages) == 1
    width, height = page_size_mm(reader.pages[0])
    assert width == pytest.approx(34 * 25.4, abs=0.3) and height == pytest.approx(22 * 25.4, abs=0.3)


def test_every_place_is_named_in_real_text(poster_page, plan, spies):
    """Each city's and sea zone's name is real text on the sheet, where its label was placed (read from the label's
    own rectangle: the page's text flattened runs close names on one line into each other)."""
    missing = []
    for place in spies.map.cities + spies.map.sea_zones:
        r = plan.placed[place.name].rect
        inside = poster_page.within_bbox(((r.x - 0.5) / MM_PER_PT, (r.y - 0.5) / MM_PER_PT, (r.right + 0.5) / MM_PER_PT,
                                          (r.bottom + 0.5) / MM_PER_PT)).extract_text()
        if place.name not in " ".join(inside.split()):
            missing.append(place.name)
    assert not missing


def test_reconstruction_is_said_in_the_small_print_not_as_a_caption(poster_text, poster_page, spies):
    flat = " ".join(poster_text.split())
    assert "not a transcription of the printed map" in flat and spies.info.title in flat
    assert "Reconstruction." not in flat  # no editorial caption under the title
    words = [w for w in poster_page.extract_words() if w["text"] == "transcription"]
    assert words and all(w["bottom"] > poster_page.height * 0.95 for w in words)  # in the small print at the foot of the sheet
    sizes = {round(c["size"], 2) for c in poster_page.chars if c["top"] > words[0]["top"] - 1 and c["bottom"] < words[0]["bottom"] + 1}
    assert sizes == {round(spies.layout.poster.credit_size, 2)}


def test_the_long_games_havens_and_cousins_are_said_to_be_the_long_games(poster_page):
    """Spy havens and Cousins are Long Game rules ([5.0]): the legend, the chit summary's note and the Sanctioned
    Spies Box say so, where they once read as rules of every game."""
    def panel_text(title: str) -> str:
        first = title.split()[0]
        word = next(w for w in poster_page.extract_words() if w["text"] == first
                    and squash(title) in squash(poster_page.crop((w["x0"], w["top"], min(w["x0"] + 300, poster_page.width),
                                                                  w["bottom"] + 1)).extract_text()))
        frames = [r for r in poster_page.rects if r["stroke"] and r["x0"] <= word["x0"] and r["x1"] >= word["x1"]
                  and r["top"] <= word["top"] and r["bottom"] >= word["bottom"]]
        frame = min(frames, key=lambda r: r["width"] * r["height"])
        return squash(poster_page.crop((frame["x0"], frame["top"], frame["x1"], frame["bottom"])).extract_text())

    assert squash("Spy haven (Long Game)") in squash(poster_page.extract_text())
    assert squash("Long Game: never Discovery, Drop or Sanction in a spy haven") in panel_text("Action Chit Summary")
    assert squash("Long Game: a spy killed trying to sanction a Cousin") in panel_text("Sanctioned Spies Box")


def test_marks_are_explained(poster_text, poster_words):
    flat = " ".join(poster_text.split())
    for words in ("Capital", "Port", "police", "SECRET", "SPY HAVEN", "Rail line", "Air line", "Sea zone", "Legend", "Index of places"):
        assert words in flat, words
    words = [w["text"] for w in poster_words]  # counted as words: the flattened text runs tags on one line together
    assert words.count("SECRET") >= 8 + 1  # each SECRET city's tag, and the legend's
    assert words.count("HAVEN") >= 3 + 1


def test_legend_text_clears_every_symbol_and_each_tag_holds_its_word(poster_page):
    """Each legend entry's words start clear of every swatch, space, tag and line drawn in the legend (the
    SPY HAVEN tag once ran into "Spy haven"), and a tag's white word lies inside its tag."""
    words = poster_page.extract_words(extra_attrs=["non_stroking_color"])
    heading = next(w for w in words if w["text"] == "Legend")
    end = next(w for w in words if w["text"] == "Moving" and w["top"] > heading["bottom"])
    inside = lambda o: o["x1"] > heading["x0"] and o["top"] >= heading["bottom"] and o["bottom"] <= end["top"]
    shapes = [s for s in poster_page.rects + poster_page.curves + poster_page.lines if inside(s)]
    meets = lambda a, b, pad=0.0: a["x0"] < b["x1"] + pad and b["x0"] < a["x1"] + pad and a["top"] < b["bottom"] and b["top"] < a["bottom"]
    legend = [w for w in words if inside(w)]
    assert len(legend) > 40 and len(shapes) > 20
    white = [w for w in legend if tuple(w["non_stroking_color"] or ()) == (1.0, 1.0, 1.0)]
    clashes = [(w["text"], round(s["x1"] - w["x0"], 1)) for w in legend if w not in white for s in shapes
               if meets(w, s, 1 / MM_PER_PT)]  # 1 mm of paper at least between a symbol and its text
    assert not clashes, clashes
    assert white and all(any(s["x0"] <= w["x0"] and w["x1"] <= s["x1"] for s in shapes if meets(w, s)) for w in white)


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
    assert root.get("width") == "863.6mm" and root.get("height") == "558.8mm"
    texts = {el.text for el in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {c.name for c in spies.map.cities} <= texts


def sheet_pages(path: Path) -> list:
    return pypdf.PdfReader(path).pages


MARGIN_PT = 10.0 / MM_PER_PT  # the default layout's page margin: each sheet shows its window of the poster inside it


@pytest.fixture(scope="module")
def sheets_only(letter):
    """map-tiles.pdf with the poster every page places emptied out, read with pdfplumber: what the sheets print
    themselves (index, footers, guides), without parsing the whole poster again for every page."""
    import io

    reader = pypdf.PdfReader(letter / "map-tiles.pdf")
    writer = pypdf.PdfWriter(clone_from=reader)
    for page in writer.pages:
        for form in page["/Resources"]["/XObject"].values():
            form = form.get_object()
            if form["/BBox"][2] > 1500:  # the poster (symbols are a few millimetres)
                form.set_data(b"")
    buffer = io.BytesIO()
    writer.write(buffer)
    with pdfplumber.open(buffer) as pdf:
        yield pdf


@pytest.fixture(scope="module")
def placements(letter) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """For each sheet (after the index page): the clip rectangle (x, y, w, h, pt from the bottom left) and the
    matrix the poster is placed with, read from the sheet's own content stream."""
    from pypdf.generic import ContentStream

    found = []
    reader = pypdf.PdfReader(letter / "map-tiles.pdf")
    for page in reader.pages[1:]:
        clip, matrix = None, None
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"re" and clip is None:
                clip = tuple(float(v) for v in operands)
            elif operator == b"cm" and clip is not None and matrix is None:
                matrix = tuple(float(v) for v in operands)
        found.append((clip, matrix))
    return found


def test_tiles_index_and_sheet_labels(sheets_only):
    index = " ".join(sheets_only.pages[0].extract_text().split())
    footers = [" ".join(page.crop((0, float(page.height) - MARGIN_PT, float(page.width), float(page.height))).extract_text().split())
               for page in sheets_only.pages[1:]]
    assert "how the sheets fit" in index and "Print at 100 % on Letter (no fit to page), one-sided; trim each sheet" in index
    for n, text in enumerate(footers, start=1):
        assert re.search(rf"sheet {n} of {len(footers)}\b", text), (n, text)


@pytest.fixture(scope="module")
def tiles(plan):
    """The tiling over Letter as the build plans it: cropped to the poster's ink, its seams off its boxes."""
    from functools import partial

    from generators.map.poster import draw_poster, poster_boxes
    from generators.map.poster_sheets import PageInk, plan_tiles
    from generators.printing.painter import Drawing

    page = Drawing(plan.width, plan.height, partial(draw_poster, plan=plan), key="poster")
    return plan_tiles((plan.width, plan.height), (215.9, 279.4), 10.0, avoid=poster_boxes(plan), ink=PageInk.of(page, plan.fonts))


def _windows(placements, plan) -> list[tuple[float, float]]:
    """Each sheet's window onto the poster (its top-left corner, poster mm), read from where the sheet places it."""
    height = 215.9 / MM_PER_PT  # Letter, landscape
    return [((MARGIN_PT - m[4]) * MM_PER_PT, plan.height - (height - MARGIN_PT - m[5]) * MM_PER_PT) for _, m in placements]


def test_each_sheet_shows_its_window_of_the_poster_inside_its_margins(placements, tiles):
    """Each sheet clips the poster to the paper inside its 10 mm margins and places it so that its window's
    corner lands on the margin's corner; side-by-side and stacked sheets are one step of the plan apart."""
    assert len(placements) == len(tiles.sheets)
    width, height = (v / MM_PER_PT for v in tiles.paper)
    for sheet, (clip, matrix) in zip(tiles.sheets, placements):
        assert clip == pytest.approx((MARGIN_PT, MARGIN_PT, width - 2 * MARGIN_PT, height - 2 * MARGIN_PT), abs=0.05)
        w = sheet.window
        # the poster's point (w.x, w.y), from its top left, lands at the margin's top-left corner
        assert matrix[4] == pytest.approx(MARGIN_PT - w.x / MM_PER_PT, abs=0.05)
        assert matrix[5] + (tiles.page[1] - w.y) / MM_PER_PT == pytest.approx(height - MARGIN_PT, abs=0.05)
    for sheet, (_, matrix) in zip(tiles.sheets, placements):
        right = tiles.sheet(sheet.row, sheet.column + 1)
        if right is not None:
            assert matrix[4] - placements[right.number - 1][1][4] == pytest.approx(tiles.step[0] / MM_PER_PT, abs=0.05)
        below = tiles.sheet(sheet.row + 1, sheet.column)
        if below is not None:
            assert placements[below.number - 1][1][5] - matrix[5] == pytest.approx(tiles.step[1] / MM_PER_PT, abs=0.05)


def test_no_map_no_map_files(tmp_path, game_copy):
    folder = game_copy("spies")
    (folder / "map.yaml").unlink()
    (folder / "aliases.yaml").unlink()  # some aliases name cities only the map holds
    assert main(["build", "--game", str(folder), "--only", "map", "--out", str(tmp_path / "out")]) == 0
    assert not list((tmp_path / "out").rglob("map*"))


@pytest.mark.slow
def test_a_games_preset_sets_the_posters_badges_lines_and_dashes(tmp_path, game_copy):
    """The poster's marks and lines are the layout's named sizes: a game's own preset that makes the badges
    5 mm, the rail lines 2.5 pt and the air lines' dashes 6 mm on, 2 mm off gets exactly those in map.pdf."""
    folder = game_copy("spies")
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "big-marks.yaml").write_text(
        "extends: spies\nposter: {badge: 5mm, lines: {rail: 2.5pt}, dashes: {air: [6mm, 2mm]}}\n", encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("layout: spies", "layout: big-marks"), encoding="utf-8")
    assert main(["build", "--game", str(folder), "--only", "map", "--out", str(tmp_path / "out")]) == 0
    with pdfplumber.open(tmp_path / "out" / "spies" / "map.pdf") as pdf:
        page = pdf.pages[0]
        widths = [round(line["linewidth"], 2) for line in page.lines]
        badges = [c for c in page.curves if c.get("non_stroking_color") == (0.0, 0.0, 0.0) and abs(c["width"] - c["height"]) < 0.01]
        dashes = {tuple(round(v * MM_PER_PT, 2) for v in line["dash"][0]) for line in page.lines if line.get("dash") and line["dash"][0]}
    assert widths.count(2.5) > 100 and 1.7 not in widths  # every rail line, and none at the default width
    assert len(badges) > 30 and all(abs(b["width"] * MM_PER_PT - 5.0) < 0.05 for b in badges)
    assert (6.0, 2.0) in dashes and (3.2, 1.8) not in dashes


def test_rail_and_air_lines_lie_on_a_white_edge_that_reads_across_germanys_dark_land(poster_page, spies):
    """Germany's land prints dark grey, on which the black rail lines and the purple air dashes once vanished: each
    line on the poster, and its swatch in the legend, lies on a white line wider by the preset's edge each side."""
    def fill(name: str) -> str:
        return spies.layout.colour(name).fill

    widths = spies.layout.poster.lines
    assert grey(fill("map-germany")) < 100 and widths.rail_casing > 0 and widths.air_casing > 0
    lines = [(tuple(round(v, 3) for v in line["stroking_color"]), round(line["linewidth"], 2), (round(line["x0"]), round(line["top"])))
             for line in poster_page.lines if line.get("stroking_color") and len(line["stroking_color"]) == 3]
    edges: dict[tuple[int, int], list[float]] = {}
    for colour, width, at in lines:
        if colour == (1, 1, 1):
            edges.setdefault(at, []).append(width)
    for kind in ("rail", "air"):
        drawn = [(width, at) for colour, width, at in lines if colour == rgb(fill(f"map-{kind}"))]
        wanted = getattr(widths, kind) + 2 * getattr(widths, f"{kind}_casing")
        assert len(drawn) == sum(r.kind == kind for r in spies.map.routes) + 1, kind  # and the legend's
        assert all(any(abs(e - wanted) < 0.02 for e in edges.get(at, [])) for _, at in drawn), kind


def test_each_ports_ring_has_a_white_edge_so_it_reads_on_dark_land(poster_page, spies):
    """Hamburg's and Stettin's sea-blue rings once vanished on Germany's dark land in greyscale: each port's ring,
    and the legend's, is edged in white as wide as the preset says, its outer edge where the ring ends."""
    sea_ink = rgb(spies.layout.colour("map-sea").ink)
    edge = spies.layout.poster.port_edge
    rings = [c for c in poster_page.curves if c.get("fill") and tuple(round(v, 3) for v in c["non_stroking_color"]) == sea_ink
             and c.get("stroke") and tuple(c["stroking_color"]) == (1, 1, 1)]
    assert edge > 0 and len(rings) == sum(c.port for c in spies.map.cities) + 1
    assert all(abs(c["linewidth"] - edge) < 0.01 for c in rings)
    outer = (spies.layout.poster.space / 2 + spies.layout.poster.port_ring) * 2 / MM_PER_PT
    assert all(abs(c["width"] + edge - outer) < 0.05 for c in rings[:-1])


# --- real geography ------------------------------------------------------------------------

def _is_sea(poster_image, spies, lat: float, lon: float) -> bool:
    """Whether the poster shows sea at (lat, lon): most pixels around the point are the sea's colour."""
    from generators.map.spaces import poster_places

    image, px = poster_image
    xs, ys = poster_places(spies).project([lon], [lat])
    sea = tuple(int(spies.layout.colour("map-sea").fill[i:i + 2], 16) for i in (1, 3, 5))
    around = [image.getpixel((int(xs[0] * px) + dx, int(ys[0] * px) + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    # 12 levels: a pixel a sea rule crosses in part still reads as sea; neutral land is 16 and more away
    return sum(all(abs(a - b) <= 12 for a, b in zip(p, sea)) for p in around) > len(around) / 2


@pytest.mark.parametrize("where, lat, lon, sea", [
    ("between Moscow and Kharkov", 53.0, 36.9, False),
    ("east of Moscow", 55.8, 41.0, False),
    ("between Oslo and Stockholm", 59.5, 14.4, False),
    ("the North Sea", 56.5, 4.0, True),
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


@pytest.mark.parametrize("vision", [None, *DICHROMATS])
def test_no_power_shade_reads_as_the_sea(plan, vision):
    """Every power's land differs from the sea by a clear step of lightness or colour (CIE76 ΔE over 20), for
    colour-blind players too (over 15 as protanopes and deuteranopes see them)."""
    pal = plan.palette
    for power in pal.powers:
        assert delta_e(pal.shade(power), pal.sea, vision) > (20 if vision is None else 15), power


def test_no_land_is_blue_like_water(plan):
    """Maps paint water blue, so no land is: every power's land and the neutral land has a CIELAB hue outside
    the blues and cyans (180° to 290°) or is all but grey (chroma under 8)."""
    import math

    pal = plan.palette
    for name, colour in [(p, pal.shade(p)) for p in pal.powers] + [("neutral", pal.land)]:
        _, a, b = lab(colour)
        hue, chroma = math.degrees(math.atan2(b, a)) % 360, math.hypot(a, b)
        assert chroma < 8 or not 180 <= hue <= 290, (name, colour, round(hue), round(chroma))


@pytest.mark.parametrize("vision", [None, *DICHROMATS])
def test_the_powers_colours_differ_from_each_other(plan, vision):
    """Each power's colour (on the map and on its pieces) is ΔE 15 or more from every other's, in colour-blind vision too."""
    import itertools

    colours = plan.palette.powers
    for a, b in itertools.combinations(colours, 2):
        assert delta_e(colours[a], colours[b], vision) >= 15, (a, b)


CORNER = 6.0  # mm: zones whose regions meet for no longer than this only touch at a corner


def _water(plan):
    from generators.map.land import union_of

    f = plan.frame
    land = union_of([r.shape for r in plan.regions])
    return box(f.x, f.y, f.right, f.bottom).difference(land), land


def test_every_sea_zone_is_a_region_of_water_and_no_two_overlap(plan):
    water, land = _water(plan)
    zones = plan.sea_zones
    assert set(zones) == {z.name for z in plan.game_map.sea_zones}
    assert all(region.intersection(land).area < 0.01 for region in zones.values())
    names = list(zones)
    assert all(zones[a].intersection(zones[b]).area < 0.01 for i, a in enumerate(names) for b in names[i + 1:])
    assert sum(r.area for r in zones.values()) > 0.9 * water.area  # the sea is the zones' (lakes and the far Caspian aside)


def test_zones_that_meet_on_the_poster_are_adjacent_in_the_data(plan):
    adjacent = {z.name: set(z.adjacent) for z in plan.game_map.sea_zones}
    zones = plan.sea_zones
    names = list(zones)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = zones[a].boundary.intersection(zones[b].boundary).length
            assert shared <= CORNER or b in adjacent[a] or a in adjacent[b], (a, b, shared)


def test_every_port_touches_each_of_its_sea_zones(plan):
    water, _ = _water(plan)
    for city in plan.game_map.cities:
        if city.port:
            centre = Point(plan.at[city.name])
            for zone in city.sea_zones:
                assert plan.sea_zones[zone].distance(centre) <= water.distance(centre) + CORNER, (city.name, zone)


def test_zone_borders_run_from_coast_to_coast_over_water_never_across_land(plan):
    water, land = _water(plan)
    f = plan.frame
    edge = box(f.x, f.y, f.right, f.bottom).boundary
    ends = [Point(b[0]) for b in plan.zone_edges] + [Point(b[-1]) for b in plan.zone_edges]
    assert len(plan.zone_edges) >= len(plan.game_map.sea_zones) - 1
    for end in ends:
        nearest_other = sorted(end.distance(other) for other in ends)[1]  # three zones' borders meet at a point
        assert min(land.boundary.distance(end), edge.distance(end), nearest_other) <= 2.0, end
    inland = land.buffer(-0.5)
    assert all(LineString(b).intersection(inland).length == 0 for b in plan.zone_edges)


def test_the_poster_and_its_tiles_say_how_to_print_them(letter, poster_text):
    advice = "Print at 100 % on Poster-22x34 (34 × 22 in), one-sided, at a print shop if need be"
    assert pypdf.PdfReader(letter / "map.pdf").metadata["/Subject"] == advice
    assert advice in " ".join(poster_text.split())
    subject = pypdf.PdfReader(letter / "map-tiles.pdf").metadata["/Subject"]
    assert subject == "Print at 100 % on Letter (no fit to page), one-sided; trim each sheet along its dashed edges and lay it 12 mm over its neighbours"


def test_the_tiles_hold_the_poster_once(letter):
    """Every sheet shows the same one drawing of the poster (a form), clipped to its window: the tiles file is no
    bigger than the poster's own file and a little more."""
    reader = pypdf.PdfReader(letter / "map-tiles.pdf")
    forms = set()
    for page in reader.pages[1:]:
        xobjects = page["/Resources"]["/XObject"]
        forms |= {xobjects[name].indirect_reference.idnum for name in xobjects if xobjects[name]["/BBox"][2] > 1500}
    assert len(forms) == 1
    assert (letter / "map-tiles.pdf").stat().st_size < 1.3 * (letter / "map.pdf").stat().st_size


def test_credit_line_names_the_source(poster_text):
    flat = " ".join(poster_text.split())
    assert "Natural Earth" in flat and "public domain" in flat and "1933 borders approximated" in flat


# --- legibility --------------------------------------------------------------------------------

def test_no_name_covers_a_marker_a_badge_or_another_name(plan):
    markers = list(_markers(plan).values()) + [((bx, by), plan.style.badge / 2) for spots in plan.badges.values() for _, bx, by in spots]
    rects = [p.rect for p in plan.placed.values()]
    for i, r in enumerate(rects):
        assert all(_gap(r, at, radius) >= 0 for at, radius in markers), plan.placed
        assert all(r.overlap(o) < 0.01 for o in rects[i + 1:])


def _markers(plan) -> dict[str, tuple[tuple[float, float], float]]:
    return {name: (at, plan.radius(name)) for name, at in plan.at.items()}


def _gap(rect, at, radius) -> float:
    """How far a label's rectangle keeps from a round marker."""
    dx = max(rect.x - at[0], 0, at[0] - rect.right)
    dy = max(rect.y - at[1], 0, at[1] - rect.bottom)
    return (dx * dx + dy * dy) ** 0.5 - radius


def test_city_names_keep_off_other_powers_land(plan, spies):
    """A name set on another power's land reads as that power's city (Stuttgart's and Munich's once lay on Italy):
    at most one city's name, Geneva's, hemmed in by France and Italy, lies mostly (its middle and three corners of
    four) on a power's land that is not its own city's."""
    import shapely

    onto = []
    others = {power: shapely.union_all([t.shape for t in plan.regions if t.power and t.power != power])
              for power in {c.power for c in spies.map.cities}}
    for city in spies.map.cities:
        r = plan.placed[city.name].rect
        other = others[city.power]
        points = [(r.x + r.width / 2, r.y + r.height / 2), (r.x, r.y), (r.right, r.y), (r.x, r.bottom), (r.right, r.bottom)]
        if sum(other.contains(Point(p)) for p in points) >= 4:
            onto.append(city.name)
    assert len(onto) <= 1, onto


def test_few_names_set_off_lie_nearer_another_city_than_their_own(plan, spies):
    """A name set off on a leader may lie nearer another city's space than its own, where Europe is crowded; such
    spots cost more, so at most 24 of the 139 do (29 before they did)."""
    def gap(rect, name):
        return _gap(rect, plan.at[name], plan.radius(name))

    names = [c.name for c in spies.map.cities]
    astray = [n for n in names if min(gap(plan.placed[n].rect, m) for m in names if m != n) < gap(plan.placed[n].rect, n)]
    assert len(astray) <= 24, astray


def test_no_marker_covers_another_marker_or_badge(plan):
    import math

    discs = [(name, at, r) for name, (at, r) in _markers(plan).items()]
    discs += [(name, (bx, by), plan.style.badge / 2) for name, spots in plan.badges.items() for _, bx, by in spots]
    clashes = [(a, b) for i, (a, pa, ra) in enumerate(discs) for b, pb, rb in discs[i + 1:]
               if a != b and math.dist(pa, pb) < ra + rb]
    assert not clashes


def test_route_lines_cross_no_city_name(plan):
    """Names keep off rail, air and sea lines; only the few cities with no clear spot at all (a twelfth at most,
    in the hubs) cross one, and no more than two."""
    from shapely.geometry import LineString, box

    from generators.map.poster import _route_lines

    import shapely

    lines = shapely.STRtree([LineString(line) for line in _route_lines(plan.game_map, plan.at) + plan.lanes])
    crossed = {key: len(lines.query(box(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom), predicate="intersects"))
               for key, p in plan.placed.items() if key in plan.city_labels}
    crossing = {key for key, n in crossed.items() if n}
    assert len(crossing) <= len(plan.city_labels) // 12, sorted(crossing)
    assert all(crossed[key] <= 2 for key in crossing), {key: crossed[key] for key in crossing}


def test_each_name_beside_its_city_is_nearer_its_marker_than_any_other(plan):
    """A name without a leader line sits within 2.2 mm of its own city's marker and nearer it than any other
    marker, by a fifth of the space's radius: a name in the gap between two spaces would read as either's."""
    from generators.map.label_placement import AMBIGUITY_MARGIN, AMBIGUITY_SHARE, NEAR_MAX

    markers = _markers(plan)
    for key, placed in plan.placed.items():
        if key in plan.city_labels and not placed.far:
            own = _gap(placed.rect, *markers[key])
            nearest = min(_gap(placed.rect, *m) for name, m in markers.items() if name != key)
            assert own <= NEAR_MAX + 0.3, (key, own)
            margin = max(AMBIGUITY_MARGIN, AMBIGUITY_SHARE * markers[key][1])
            assert margin >= 1.4 - 1e-6 and own + margin <= nearest + 1e-6, (key, own, nearest)


def test_no_two_names_run_together(plan):
    """Every two names on the map keep at least 1 mm apart (Dusseldorf and Rotterdam once touched)."""
    from shapely.geometry import box

    rects = [box(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom) for p in plan.placed.values()]
    closest = min(a.distance(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert closest >= 1.0 - 1e-6


def test_each_name_set_off_has_a_leader_from_its_own_marker_past_no_other(plan):
    """A name further off than that (where lines leave no room beside its city) is joined to its own marker by a
    leader line at most 14 mm long that passes no other marker, crosses no other name, and the name keeps 2 mm
    from every other marker."""
    from shapely.geometry import LineString, Point, box

    from generators.map.label_placement import FAR_CLEARANCE, FAR_MAX, LEADER_CLEARANCE

    markers = _markers(plan)
    names = {key: box(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom) for key, p in plan.placed.items()}
    far = [key for key, p in plan.placed.items() if key in plan.city_labels and p.far]
    assert far  # the crowded places (the Ruhr, the Low Countries) have no unambiguous spot beside their spaces
    for key in far:
        placed = plan.placed[key]
        at, radius = markers[key]
        start, end = placed.leader(at, radius)
        leader = LineString([start, end])
        assert _gap(placed.rect, at, radius) <= FAR_MAX + 1e-6, key
        assert leader.distance(Point(at)) <= radius + 0.5 and leader.distance(names[key]) < 1e-6, key
        for name, (other, r) in markers.items():
            if name != key:
                assert leader.distance(Point(other)) - r >= LEADER_CLEARANCE - 1e-6, (key, name)
                assert _gap(placed.rect, other, r) >= FAR_CLEARANCE - 1e-6, (key, name)
        assert not any(leader.intersects(names[name]) for name in names if name != key), key


def test_sea_lanes_keep_to_the_water(plan, spies):
    """Each port's lane leaves its coast by its own short way and then crosses no land (0.5 mm of coast
    tolerated); lanes between ships cross land only at the straits."""
    from shapely.geometry import LineString

    from generators.map.land import union_of
    from generators.map.sea_lanes import PORT_REACH

    land = union_of([r.shape for r in plan.regions]).buffer(-0.5)
    ports = [plan.at[c.name] for c in spies.map.cities if c.port for _ in c.sea_zones]
    lanes = {tuple(lane[0]): lane for lane in plan.lanes}
    assert len(plan.lanes) == len(ports) + sum(len(z.adjacent) for z in spies.map.sea_zones) // 2
    for lane in plan.lanes:
        if lane[0] in ports:
            assert ((lane[1][0] - lane[0][0]) ** 2 + (lane[1][1] - lane[0][1]) ** 2) ** 0.5 <= PORT_REACH
            assert LineString(lane[1:]).intersection(land).length <= 0.01, lane[0]
    assert lanes


def test_city_names_are_printed_on_the_map_itself(poster_words, plan, spies):
    """Each city's name appears inside the map frame, not only in the index of places beside it."""
    f = plan.frame
    inside = " ".join(w["text"] for w in poster_words if w["top"] * MM_PER_PT < f.bottom and w["bottom"] * MM_PER_PT > f.y
                      and w["x0"] * MM_PER_PT < f.right and w["x1"] * MM_PER_PT > f.x)
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
    """Nothing a player needs is under a box on the map: no space, badge, ship, route, sea lane or name (the Bank
    Track and the Time and Victory Record stand over northern Russia and Lapland, where no place is)."""
    from shapely.geometry import LineString, box

    from generators.map.poster import _route_lines

    lines = [LineString(line) for line in _route_lines(plan.game_map, plan.at) + plan.lanes]
    marks = plan.marks
    for laid, x, y in plan.aids:
        area = box(x, y, x + laid.width, y + laid.height)
        assert not any(area.intersects(line) for line in lines), laid.aid.id
        assert not any(area.intersects(box(m.x, m.y, m.right, m.bottom)) for m in marks), laid.aid.id
        assert not [name for name, p in plan.placed.items() if area.intersects(box(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom))]


def test_bank_track_names_each_power_in_its_starting_box(poster_text, spies):
    flat = " ".join(poster_text.split())
    for faction in spies.info.factions:
        assert faction.name in flat


# --- the tiles --------------------------------------------------------------------------------

def test_no_tile_sheet_is_mostly_blank(letter):
    from generators.map.poster_sheets import plan_tiles

    tiles = plan_tiles((34 * 25.4, 22 * 25.4), (215.9, 279.4), 10.0)
    for sheet in tiles.sheets:
        w = sheet.window
        shown = (min(w.right, tiles.page[0]) - max(w.x, 0)) * (min(w.bottom, tiles.page[1]) - max(w.y, 0))
        assert shown >= 0.5 * w.width * w.height, sheet.number


def test_the_tiles_take_twelve_sheets_and_each_prints_a_fair_share_of_the_poster(letter):
    """The poster's ink needs 4 columns by 3 rows of Letter whichever way it is shifted; cropped to the ink, the
    paper left over is shared so that no sheet is nearly blank margin: each shows, of the part no neighbour
    repeats, at least a quarter of the ink the average sheet does (the corner sheets once showed a twentieth)."""
    import numpy as np
    import pypdfium2 as pdfium

    from generators.map.poster_sheets import FAIR_SHARE, OVERLAP

    document = pdfium.PdfDocument(letter / "map-tiles.pdf")
    try:
        assert len(document) == 1 + 12
        own = []
        for i in range(1, len(document)):
            picture = document[i].render(scale=25.4 / 72).to_numpy()  # a pixel a mm
            keep = round(10.0 + OVERLAP)  # the margin and the strip a neighbour repeats (the footer lies outside)
            own.append(int((picture[keep:-keep, keep:-keep, :3] < 245).any(axis=2).sum()))
    finally:
        document.close()
    assert min(own) >= FAIR_SHARE * np.mean(own), own


def test_no_seam_runs_through_a_box_of_the_time_record_and_one_column_at_most_of_the_bank_track(placements, plan):
    """The Bank Track is wider than a sheet, so seams must cross it: they cut one column of its boxes at most,
    running along their edges elsewhere; the Time and Victory Record and the Turn Order fit a sheet and no seam crosses
    their boxes (both seams once ran through the Bank Track and one through the Time and Victory Record)."""
    windows = _windows(placements, plan)
    xs, ys = sorted({x for x, _ in windows})[1:], sorted({y for _, y in windows})[1:]

    def cut(laid, x, y) -> list[str]:
        return [r.label for r in laid.rooms if any(x + r.x + 0.1 < s < x + r.x + r.width - 0.1 for s in xs)
                or any(y + r.y + 0.1 < s < y + r.y + r.height - 0.1 for s in ys)]

    aids = {laid.aid.title.split(":")[0]: (laid, x, y) for laid, x, y in plan.aids}
    for name in ("Time and Victory Record", "Turn Order"):
        assert len(aids[name][0].rooms) > 1 and not cut(*aids[name]), name
    bank = aids["Bank Track"]
    rows = len({r.y for r in bank[0].rooms})
    assert len(cut(*bank)) <= rows  # one column of boxes at most


def test_tile_footers_stay_6_mm_from_the_edge(sheets_only):
    for page in sheets_only.pages[1:]:
        footer = [w for w in page.extract_words() if w["text"] == "sheet"]
        assert footer and all((float(page.height) - w["bottom"]) * MM_PER_PT >= 6.0 for w in footer)

def test_tiled_sheets_are_joined_off_as_many_spaces_and_boxes_as_the_paper_left_over_allows(plan, spies):
    """The seams of map-tiles.pdf cut fewer cities' spaces and boxes than sheets centred on the poster would, on as
    many sheets."""
    from generators.map.poster import poster_boxes
    from generators.map.poster_sheets import plan_tiles, seams

    boxes = poster_boxes(plan)
    assert len(boxes) >= len(plan.at) + len(plan.aids)

    def cut(tiles) -> int:
        xs, ys = seams(tiles)
        return sum(1 for b in boxes if any(b.x < x < b.right for x in xs) or any(b.y < y < b.bottom for y in ys))

    for paper in ((215.9, 279.4), (210.0, 297.0)):
        centred = plan_tiles((plan.width, plan.height), paper, spies.layout.margin)
        chosen = plan_tiles((plan.width, plan.height), paper, spies.layout.margin, avoid=boxes)
        assert len(chosen.sheets) == len(centred.sheets) and cut(chosen) < cut(centred)


def test_the_tiler_reads_the_posters_ink_from_map_pdf_as_from_the_page_drawn_afresh(letter, plan):
    """The sheets left out as blank are chosen from the ink of map.pdf's page, drawn once for both files: the same
    picture, pixel for pixel, as the poster drawn again on its own."""
    from functools import partial

    from generators.map.poster_drawing import draw_poster
    from generators.map.poster_sheets import PageInk
    from generators.printing.painter import Drawing

    page = Drawing(plan.width, plan.height, partial(draw_poster, plan=plan), key="poster")
    afresh, read = PageInk.of(page, plan.fonts), PageInk.of(page, plan.fonts, (letter / "map.pdf").read_bytes())
    assert afresh.mask.shape == read.mask.shape and (afresh.mask == read.mask).all() and afresh.mask.any()
