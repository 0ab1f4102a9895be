"""The Spies! map as a board counters are played on, measured from `dossier map show --json` and the printed
poster: spaces big enough for a stack and apart, names within reach of their spaces, land under every city
and sea under no inland one, Russia drawn whole, the frame most of the sheet, and the boxes the rules name
printed, aligned and legible."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from conftest import delta_e, grey, rgb

from generators.cli import main
from generators.printing.settings import PrintSettings

MM_PER_PT = 25.4 / 72
COUNTER = 12.7  # mm: a half-inch counter


@pytest.fixture(scope="module")
def shown():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["map", "show", "--game", "spies", "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def poster(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    assert main(["build", "--game", "spies", "--only", "map", "--out", str(out)]) == 0
    return out / "spies" / "map.pdf"


@pytest.fixture(scope="module")
def page(poster):
    import pdfplumber

    with pdfplumber.open(poster) as pdf:
        yield pdf.pages[0]


@pytest.fixture(scope="module")
def image(poster):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(poster)
    rendered = document[0].render(scale=60 / 72).to_pil().convert("RGB")
    document.close()
    return rendered, 60 / 25.4


@pytest.fixture(scope="module")
def plan(spies):
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    return plan_poster(spies, PrintSettings.of_layout(spies.layout), register_fonts(spies.layout.fonts, spies.folder))


@pytest.fixture(scope="module")
def places(spies):
    from generators.map.spaces import poster_places

    return poster_places(spies)


def test_every_city_has_a_space_a_counter_fits_on(shown, spies):
    spaces = {c["name"]: c["space"] for c in shown["cities"]}
    assert set(spaces) == {c.name for c in spies.map.cities}
    assert all(s["diameter_mm"] >= 14.0 and s["diameter_mm"] >= COUNTER + 1 for s in spaces.values())


def test_no_two_spaces_come_within_2_mm(shown):
    spaces = [c["space"] for c in shown["cities"]]
    gaps = [math.dist((a["x_mm"], a["y_mm"]), (b["x_mm"], b["y_mm"])) - (a["diameter_mm"] + b["diameter_mm"]) / 2
            for a, b in itertools.combinations(spaces, 2)]
    assert min(gaps) >= 2.0


def test_spaces_are_measured_on_the_sheet_where_they_are_printed(shown, page):
    """A space's centre from --json lies inside the frame and on the sheet, and its name is printed within
    reach of it (beside the space, or at the end of a leader no longer than 14 mm)."""
    width, height = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
    words = page.extract_words(y_tolerance=1)  # a badge set just under a name must not be read into it
    for city in shown["cities"]:
        s = city["space"]
        assert 0 < s["x_mm"] < width and 0 < s["y_mm"] < height
        parts = city["name"].split()
        near = [w for w in words if any(p in w["text"] or "".join(ch * 2 for ch in p) in w["text"] for p in parts) and  # haloed: read twice
                _gap((w["x0"] * MM_PER_PT, w["top"] * MM_PER_PT, w["x1"] * MM_PER_PT, w["bottom"] * MM_PER_PT), s) <= 14.0 + 2.0]
        assert near, city["name"]


def _gap(rect, space) -> float:
    x0, y0, x1, y1 = rect
    dx = max(x0 - space["x_mm"], 0, space["x_mm"] - x1)
    dy = max(y0 - space["y_mm"], 0, space["y_mm"] - y1)
    return math.hypot(dx, dy) - space["diameter_mm"] / 2


def _colour_at(image, x: float, y: float):
    """The colour at (x, y) mm: each channel's median over the pixel and two above and below it, so the sea's thin
    level rules (a pixel's width, 2 mm apart) leave the sea's own colour."""
    picture, px = image
    column = [picture.getpixel((int(x * px), min(max(int(y * px) + dy, 0), picture.height - 1))) for dy in range(-2, 3)]
    return tuple(sorted(channel)[2] for channel in zip(*column))


def _is_sea(colour, spies) -> bool:
    sea = tuple(int(spies.layout.colour("map-sea").fill[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= 8 for a, b in zip(colour, sea))


def test_no_inland_city_touches_the_sea_and_every_port_does(shown, spies, image, places):
    """Sampled on the render just outside each space's rim (and any port's ring): an inland city has no sea
    round it; every port has sea within 4 mm of its ring."""
    touching, dry = [], []
    for city in shown["cities"]:
        s, record = city["space"], spies.map.city(city["name"])
        if not record.port:
            continue
        r = s["diameter_mm"] / 2 + 1.5
        around = [_colour_at(image, s["x_mm"] + (r + k) * math.cos(a), s["y_mm"] + (r + k) * math.sin(a))
                  for a in [i * math.pi / 18 for i in range(36)] for k in range(0, 4)]
        if not any(_is_sea(c, spies) for c in around):
            dry.append(city["name"])
    assert not dry
    for city in shown["cities"]:
        s, record = city["space"], spies.map.city(city["name"])
        if record.port:
            continue
        r = s["diameter_mm"] / 2 + 0.8
        rim = [_colour_at(image, s["x_mm"] + r * math.cos(a), s["y_mm"] + r * math.sin(a)) for a in [i * math.pi / 18 for i in range(36)]]
        if sum(_is_sea(c, spies) for c in rim) > 2:  # a sample or two may fall on a lake
            touching.append(city["name"])
    # Rome, 25 km from the sea, is nearer it than its own space's radius at the poster's scale: the coast is drawn
    # kept off its space (coasts.coast_kept_off), as mapmakers bend a coast round a symbol
    assert not touching, touching


def test_every_city_stands_on_its_own_country_after_the_warp(places, spies):
    """On the land as drawn: warped, and where an island is too small for its port, enlarged."""
    from shapely.geometry import Point

    shapes = {r.country: r.shape for r in places.regions}
    off = [c.name for c in spies.map.cities if not shapes[c.country].contains(Point(places.at[c.name]))]
    assert not off


def test_no_space_stands_mostly_over_the_sea_not_even_on_a_small_island(places, spies):
    """A port's space reaches the sea but stands on its land: two fifths of it at least are land everywhere, and an
    island smaller than a space (Malta, Rhodes at this scale) is drawn larger so that its port's space stands
    mostly on it."""
    from shapely.geometry import Point

    from generators.map.land import union_of

    land = union_of([r.shape for r in places.regions])
    share = {}
    for city in spies.map.cities:
        space = Point(places.at[city.name]).buffer(places.spaces[city.name].diameter_mm / 2)
        share[city.name] = space.intersection(land).area / space.area
    assert not [(name, round(part, 2)) for name, part in share.items() if part < 0.4]  # Ostend's once 0.34
    assert all(share[name] > 0.5 for name in ("Malta", "Rhodes")), share


def test_an_enlarged_island_keeps_clear_of_other_land_and_of_other_places(places, spies):
    from shapely.geometry import Point

    from generators.map.land import land_regions, read_geography
    from shapely.geometry import box

    f = places.frame
    true = {r.country: r.shape for r in land_regions(read_geography(spies.file(spies.map.geography)), spies.map,
                                                     places.project, box(f.x, f.y, f.right, f.bottom))}
    drawn = {r.country: r.shape for r in places.regions}
    for country in ("Malta (British)", "Dodecanese (Italian)"):
        grown = drawn[country].difference(true[country].buffer(1e-6))  # not the hairline slivers rounding leaves
        assert grown.area > 1.0, country  # drawn larger than the land itself
        others = [shape for name, shape in drawn.items() if name != country]
        assert all(grown.distance(shape) >= 0.99 for shape in others), country
        own = {c.name for c in spies.map.cities if c.country == country}
        assert all(grown.distance(Point(places.at[n])) >= places.spaces[n].diameter_mm / 2 + 0.99
                   for n in places.spaces if n not in own), country


def test_cities_move_only_as_far_as_spacing_needs(places):
    """The warp (and a slide by the coast) keeps most cities near their true place: half move less than 8 mm,
    none more than 35 mm."""
    moved = sorted(places.displacements())
    assert moved[len(moved) // 2] < 8.0 and moved[-1] < 35.0


def _rgb(hex_colour: str):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def _covered(plan, x: float, y: float) -> bool:
    """Whether page point (x, y) is under something drawn over the land: an aid, a space, a name."""
    boxes = [(bx, by, bx + laid.width, by + laid.height) for laid, bx, by in plan.aids]
    boxes += [(p.rect.x, p.rect.y, p.rect.right, p.rect.bottom) for p in plan.placed.values()]
    near_space = any(math.dist((x, y), at) < plan.radius(name) + 2.0 for name, at in plan.at.items() if name in plan.city_labels)
    return near_space or any(x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1 for x0, y0, x1, y1 in boxes)


def test_russia_is_land_from_moscow_to_the_frames_east_edge(places, plan, image, spies):
    """Sampled on the render every half degree from Moscow's meridian to the frame's east edge, between 48 N (north
    of the Caspian and the Aral) and 62 N (south of the White Sea): no sample is sea or neutral land, and the
    samples reach the frame's edge (a geography that ends short of the frame once cut Russia off along the 62nd
    meridian, a straight diagonal from the Bank Track to the Caspian)."""
    import numpy as np

    from generators.map.land import country_powers
    from generators.map.poster import Palette

    palette = Palette.from_layout(spies.layout, [f.id for f in spies.info.factions], spies.map)
    russia = _rgb(palette.shade(country_powers(spies.map)["Soviet Union"]))
    neutral = _rgb(palette.shade(None))
    lons, lats = np.meshgrid(np.arange(38.0, 120.0, 0.5), np.arange(48.0, 62.01, 0.5))
    xs, ys = places.project(lons.ravel(), lats.ravel())
    f = places.frame
    inside = (xs > f.x + 1) & (xs < f.right - 1) & (ys > f.y + 1) & (ys < f.bottom - 1)
    wrong, russian, east = [], 0, 0.0
    for lon, lat, x, y in zip(lons.ravel()[inside], lats.ravel()[inside], xs[inside], ys[inside]):
        if _covered(plan, float(x), float(y)):
            continue
        colour = _colour_at(image, float(x), float(y))
        if _is_sea(colour, spies) or all(abs(a - b) <= 8 for a, b in zip(colour, neutral)):
            wrong.append((float(lat), float(lon)))
        elif all(abs(a - b) <= 8 for a, b in zip(colour, russia)):
            russian += 1
            east = max(east, float(x))
    assert not wrong, wrong[:10]
    assert russian > 300 and east > f.right - 5  # Russia's own land, painted out to the frame


def test_the_caspian_and_the_aral_are_water(places, image, spies):
    for lat, lon in ((42.0, 50.5), (45.0, 60.0)):  # the middle of the Caspian, and of the Aral Sea as it was in 1933
        xs, ys = places.project([lon], [lat])
        assert _is_sea(_colour_at(image, float(xs[0]), float(ys[0])), spies), (lat, lon)


def test_the_geography_holds_land_for_the_whole_frame(places, spies):
    from shapely.geometry import box

    from generators.map.land import frame_beyond_extent, read_geography

    f = places.frame
    assert frame_beyond_extent(read_geography(spies.file(spies.map.geography)), places.project, box(f.x, f.y, f.right, f.bottom)) == 0.0


def test_no_route_crosses_a_space_it_does_not_join(shown, spies):
    """No rail or air line comes onto a space it does not end, not even onto a port's ring: a line grazing a
    space's rim reads as a stop there (Moscow-Voronezh once grazed Tula, London-Brussels Dover)."""
    from shapely.geometry import LineString, Point

    ring = spies.layout.poster.port_ring
    spaces = {c["name"]: c["space"] for c in shown["cities"]}
    reach = {n: s["diameter_mm"] / 2 + (ring if spies.map.city(n).port else 0.0) for n, s in spaces.items()}
    crossing = []
    for route in shown["routes"]:
        a, b = spaces[route["from"]], spaces[route["to"]]
        line = LineString([(a["x_mm"], a["y_mm"]), (b["x_mm"], b["y_mm"])])
        crossing += [(route["from"], route["to"], n, round(line.distance(Point(s["x_mm"], s["y_mm"])) - reach[n], 2))
                     for n, s in spaces.items() if n not in (route["from"], route["to"])
                     and line.distance(Point(s["x_mm"], s["y_mm"])) < reach[n]]
    assert not crossing


def test_every_ports_space_reaches_each_of_its_sea_zones(shown, spies, plan):
    """The 14 mm space itself (not only its ring) overlaps the water of every sea zone the port is on, as the
    sea zones are drawn (London's space once stopped 1.65 mm short of the North Sea)."""
    from shapely.geometry import Point

    short = []
    for city in shown["cities"]:
        record = spies.map.city(city["name"])
        s = city["space"]
        disc = Point(s["x_mm"], s["y_mm"]).buffer(s["diameter_mm"] / 2, 64)
        for zone in record.sea_zones if record.port else ():
            if disc.intersection(plan.sea_zones[zone]).area < 0.5:
                short.append((city["name"], zone, round(disc.distance(plan.sea_zones[zone]), 2)))
    assert not short


def test_the_readme_and_the_posters_page_state_the_displacement_the_map_has(places, shown):
    """The largest and median distance a city's space moved from its true place, the least gap between two
    spaces and the frame's share of the sheet, as README.md and docs/map.md state them, are the poster's own."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    moved = sorted(places.displacements())
    median = (moved[(len(moved) - 1) // 2] + moved[len(moved) // 2]) / 2
    spaces = [c["space"] for c in shown["cities"]]
    gap = min(math.dist((a["x_mm"], a["y_mm"]), (b["x_mm"], b["y_mm"])) - (a["diameter_mm"] + b["diameter_mm"]) / 2
              for a, b in itertools.combinations(spaces, 2))
    f = places.frame
    share = 100 * f.width * f.height / (places.width * places.height)
    for page in ("README.md", "docs/map.md"):
        text = " ".join((root / page).read_text(encoding="utf-8").split())
        stated = re.search(r"by at most ([\d.]+) mm, median ([\d.]+) mm", text)
        assert stated, page
        assert (float(stated[1]), float(stated[2])) == (round(moved[-1], 1), round(median, 1)), (page, moved[-1], median)
    text = " ".join((root / "docs/map.md").read_text(encoding="utf-8").split())
    assert f"the least gap between two spaces is {gap:.1f} mm" in text and f"covers {share:.1f} % of the sheet" in text, (gap, share)


def test_the_map_frame_covers_70_percent_of_the_sheet(places):
    f = places.frame
    assert f.width * f.height >= 0.70 * places.width * places.height


def test_every_box_the_rules_name_is_printed_and_titled(page):
    text = " ".join(page.extract_text().split())
    for title in ("Bank Track", "Time and Victory Record", "Spies Captured in Neutral Countries", "Sanctioned Spies Box",
                  "Game Year", "Turn Order", "Starting Set-Up", "Action Chit Summary"):
        assert title in text, title


def _poster_words(poster) -> str:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(poster)
    text = " ".join(document[0].get_textpage().get_text_range().split())
    document.close()
    return text


def test_the_set_up_reads_as_a_finished_aid_with_one_footnote_on_what_is_assumed(poster, spies):
    from generators.core.tables import resolved_table

    text = _poster_words(poster)
    assert "Germany 4 7 3" in text  # values as plain values, no marks after them
    assert "*" not in text and "Assumed, not printed" not in text and "tables.yaml" not in text
    assert "This edition's reading, not in the rulebook: Spies (standard), Secrets, Action chits." in text
    assert "This edition's reading, not in the rulebook: What it does (Recruit, Sanction, Cover)." in text
    assert "dossier" not in text.lower()  # a player at the table has the sheet, not the command
    assert "This edition's reading, not in the rulebook: the boxes' values (×3," in text  # the record's multiples (it wraps)
    assert "×3 ×3 ×2 ×2 ×2 ×1 ×1" in text  # printed plainly, as the tables' values are
    table = resolved_table(spies, "starting-setup")
    assert all(cell.assumed for row in table.rows for cell in row[1:])  # every number of the set-up is an assumption
    chits = resolved_table(spies, "action-chits")
    assumed = {row[0].text for row in chits.rows if row[3].assumed}
    assert assumed == {"Recruit", "Sanction", "Cover"}
    assert all(row[1].assumed is None for row in chits.rows)  # the costs are printed in the rulebook


def test_the_time_and_victory_record_has_no_blanks_and_names_its_years_in_the_marker_row(poster, page):
    text = _poster_words(poster)
    assert "×_" not in text and "Write the printed" not in text
    words = page.extract_words()
    years = [w for w in words if w["text"] in {str(y) for y in range(1933, 1940)}]
    in_row = max(([w for w in years if abs(w["top"] - v["top"]) < 0.5] for v in years), key=len)
    assert sorted(w["text"] for w in in_row) == [str(y) for y in range(1933, 1940)]  # the seven years in one row
    marker = [w for w in words if w["text"] == "Game" and abs(w["top"] - in_row[0]["top"]) < 14.7 / 25.4 * 72 / 2]
    assert marker  # in the Game Year row's own boxes, not a heading above it


def test_aids_line_up_on_one_grid(plan):
    """Each box's corner is on the poster's 2 mm grid or on another box's edge, and boxes whose edges come near
    each other (left, right, top or bottom, within the layout's aid_align) share that edge to 0.3 mm (the Spies Captured box
    once sat 1.5 mm left of the Sanctioned Spies box)."""
    import itertools

    GRID, ALIGN = plan.style.aid_grid, plan.style.aid_align

    edges = [(x, x + laid.width, y, y + laid.height) for laid, x, y in plan.aids]

    def on_grid(v: float) -> bool:
        return abs(v / GRID - round(v / GRID)) * GRID <= 0.3

    for i, (left, right, top, bottom) in enumerate(edges):
        others = [e for j, e in enumerate(edges) if j != i]
        assert on_grid(left) or any(abs(left - o[0]) <= 0.3 or abs(right - o[1]) <= 0.3 for o in others)
        assert on_grid(top) or any(abs(top - o[2]) <= 0.3 or abs(bottom - o[3]) <= 0.3 for o in others)
    for a, b in itertools.combinations(edges, 2):
        for k in range(4):
            assert abs(a[k] - b[k]) <= 0.3 or abs(a[k] - b[k]) > ALIGN, (a, b, k)
    lefts = {plan.aids[i][0].aid.id: e[0] for i, e in enumerate(edges)}
    assert abs(lefts["captured-neutral"] - lefts["sanctioned"]) <= 0.3


def test_nothing_on_the_poster_is_set_under_5_pt(page):
    assert min(c["size"] for c in page.chars) >= 5.0 - 1e-6


def test_one_type_size_per_role_in_the_key_and_the_city_names(page, spies):
    layout = spies.layout.poster
    sizes = {round(c["size"], 2) for c in page.chars if c["x0"] * MM_PER_PT > page.width * MM_PER_PT - layout.margin - layout.key_width}
    assert sizes <= {round(layout.key_size, 2), round(layout.heading_size, 2), round(layout.tag_size, 2), round(layout.credit_size, 2),
                     round(layout.grid_size, 2), 6.5}  # 6.5: a legend badge's letter
    frame_right = page.width * MM_PER_PT - layout.margin - layout.key_width - layout.key_gap
    words = page.extract_words(extra_attrs=["size"])
    names = {c.name for c in spies.map.cities if not c.capital and " " not in c.name}
    names |= {"".join(ch * 2 for ch in n) for n in names}
    city_sizes = {round(w["size"], 2) for w in words if w["text"] in names and w["x1"] * MM_PER_PT < frame_right}
    assert city_sizes == {round(layout.city_size, 2)}


def test_the_powers_names_in_a_track_share_one_size(page, plan, spies):
    """In the Turn Order box every power's name is set at one size (Germany was smaller than the rest), and so
    are the five names in the Bank Track's starting box, none under 5 pt."""
    powers = {f.name for f in spies.info.factions}
    words = page.extract_words(extra_attrs=["size"])
    for laid, x, y in plan.aids:
        if laid.aid.id not in ("turn-order", "bank"):
            continue
        inside = [w for w in words if w["text"] in powers and x <= w["x0"] * MM_PER_PT and w["x1"] * MM_PER_PT <= x + laid.width
                  and y <= w["top"] * MM_PER_PT and w["bottom"] * MM_PER_PT <= y + laid.height]
        sizes = {round(w["size"], 2) for w in inside}
        assert len(inside) == 5 and len(sizes) == 1 and min(sizes) >= 5.0, (laid.aid.id, sizes)


def test_neutral_land_stands_apart_from_the_sea(spies):
    """CIE76 delta E of at least 12 between neutral land and sea; the powers' land apart in greyscale."""
    layout = spies.layout
    assert delta_e(layout.colour("map-land").fill, layout.colour("map-sea").fill) >= 12


def test_each_powers_land_prints_25_grey_levels_from_every_other_and_from_neutral_land_and_sea(spies, page):
    """On a mono print a home territory decides every award: each power's land fill (as the poster prints it) keeps 25
    grey levels (ITU-R 601) from every other power's, from neutral land and from the sea."""
    printed = {tuple(round(v, 3) for v in o["non_stroking_color"]) for o in page.curves + page.rects
               if o.get("fill") and isinstance(o.get("non_stroking_color"), (tuple, list)) and len(o["non_stroking_color"]) == 3}
    layout = spies.layout
    lands = {power.id: layout.colour(f"map-{power.id}").fill for power in spies.info.factions}
    assert all(rgb(fill) in printed for fill in lands.values())
    greys = {name: round(grey(fill)) for name, fill in lands.items()}  # whole levels, as a printer's grey is
    others = {"neutral land": round(grey(layout.colour("map-land").fill)), "sea": round(grey(layout.colour("map-sea").fill))}
    names = sorted(greys)
    for i, one in enumerate(names):
        assert all(abs(greys[one] - greys[other]) >= 25 for other in names[i + 1:]), greys
        assert all(abs(greys[one] - level) >= 25 for level in others.values()), (one, greys[one], others)


def test_the_sea_is_ruled_where_it_prints_as_light_a_grey_as_neutral_land(spies, page):
    """Sea and neutral land are both pale; on a mono print only the sea's level rules, `sea_rule` mm apart across
    the whole map frame under the land, tell them apart."""
    layout = spies.layout
    assert abs(round(grey(layout.colour("map-sea").fill)) - round(grey(layout.colour("map-land").fill))) < 25  # why the rules are needed
    rule = rgb(layout.colour("map-sea-rule").fill, places=None)
    ruled = [r for r in page.rects if r["fill"] and isinstance(r["non_stroking_color"], (tuple, list))
             and len(r["non_stroking_color"]) == 3 and all(abs(a - b) < 0.002 for a, b in zip(r["non_stroking_color"], rule))]
    across = sorted(r["top"] * MM_PER_PT for r in ruled if r["width"] * MM_PER_PT > 500)
    key = [r for r in ruled if r["width"] * MM_PER_PT <= layout.poster.legend_swatch + 0.01]
    assert len(across) > 100 and len(across) + len(key) == len(ruled)  # across the frame, or in the key's sea swatch
    assert all(abs((b - a) - layout.poster.sea_rule) < 0.01 for a, b in zip(across, across[1:]))
    assert all(abs(r["height"] * MM_PER_PT - layout.poster.lines.sea * 25.4 / 72) < 0.01 for r in ruled)
    assert key  # the key's swatch of sea is ruled as the sea is
