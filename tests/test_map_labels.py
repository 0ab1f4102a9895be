"""Names on both maps read as their own space's, measured on the printed PDF: each city's name, as printed, sits
beside its own space and nearer it than any other, never in the gap between its space and a neighbour (Leipzig's
and Nurnberg's once did, and Web of Spies' Budapest and Vienna), or hangs on a leader line drawn from its own
space; each map region's title lies on its own region's land, clear of every space, name and flight."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import pytest

from generators.cli import main
from generators.printing.settings import PrintSettings

MM_PER_PT = 25.4 / 72
GAMES = ("spies", "web-of-spies")
BESIDE = 2.2  # mm: a name beside its space, with no leader, keeps this near it...
NEARER = 0.2  # ...and nearer it than any other space by this share of its radius (0.6 mm at least)


@pytest.fixture(scope="module", params=GAMES)
def printed(request, tmp_path_factory):
    """A game's built map: its plan (where the spaces are drawn) and the poster's PDF page."""
    import pdfplumber

    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts
    from generators.validation import load_game

    out = tmp_path_factory.mktemp(request.param)
    assert main(["build", "--game", request.param, "--only", "map", "--out", str(out)]) == 0
    game = load_game(request.param)
    plan = plan_poster(game, PrintSettings.of_layout(game.layout), register_fonts(game.layout.fonts, game.folder))
    with pdfplumber.open(out / request.param / "map.pdf") as pdf:
        yield plan, pdf.pages[0]


def _runs(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The page's text as runs of characters set on one baseline in one size, split where they leave a gap, each
    with its box in mm (a halo's stroked copy of a name folded into the name)."""
    lines = defaultdict(dict)
    for c in page.chars:
        lines[(round(c["top"], 1), round(c["size"], 2))].setdefault(round(c["x0"], 1), c)
    runs = []
    for (_, size), chars in lines.items():
        run = []
        for c in (chars[x] for x in sorted(chars)):
            if run and c["x0"] - run[-1]["x1"] > 0.4 * size:
                runs.append(run)
                run = []
            run.append(c)
        runs.append(run)
    return [("".join(c["text"] for c in run).strip(),
             (min(c["x0"] for c in run) * MM_PER_PT, min(c["top"] for c in run) * MM_PER_PT,
              max(c["x1"] for c in run) * MM_PER_PT, max(c["bottom"] for c in run) * MM_PER_PT)) for run in runs]


def _inside(box, frame) -> bool:
    return box[0] >= frame.x and box[2] <= frame.right and box[1] >= frame.y and box[3] <= frame.bottom


def _printed_labels(plan, page) -> dict[str, tuple[float, float, float, float]]:
    """Each city's name on the map as printed, with the tags set under it: the box (mm) they take together."""
    runs = [(text, box) for text, box in _runs(page) if _inside(box, plan.frame)]
    tags = {t for label in plan.city_labels.values() for t in label.tags}
    found = {}
    for name, label in plan.city_labels.items():
        boxes = [box for text, box in runs if text == label.text]
        assert len(boxes) == 1, (name, boxes)
        x0, y0, x1, y1 = boxes[0]
        for text, (a0, b0, a1, b1) in runs:
            if text in tags and b0 >= y1 - 0.5 and b0 <= y1 + 2.5 * len(label.tags) * label.tag_height and a0 < x1 and a1 > x0:
                x0, y0, x1, y1 = min(x0, a0), min(y0, b0), max(x1, a1), max(y1, b1)
        found[name] = (x0, y0, x1, y1)
    return found


def _gap(box, at, radius) -> float:
    dx = max(box[0] - at[0], 0, at[0] - box[2])
    dy = max(box[1] - at[1], 0, at[1] - box[3])
    return math.hypot(dx, dy) - radius


def _leaders(page) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    return [((line["x0"] * MM_PER_PT, line["top"] * MM_PER_PT), (line["x1"] * MM_PER_PT, line["bottom"] * MM_PER_PT))
            for line in page.lines] + [
        ((line["x0"] * MM_PER_PT, line["bottom"] * MM_PER_PT), (line["x1"] * MM_PER_PT, line["top"] * MM_PER_PT))
        for line in page.lines]


def _has_leader(box, at, radius, leaders) -> bool:
    """A line drawn from the edge of the space at `at` to the name's box."""
    for a, b in leaders:
        for start, end in ((a, b), (b, a)):
            if abs(math.dist(start, at) - radius) <= 0.6 and _gap(box, end, 0) <= 1.0:
                return True
    return False


def _between(box, a, b, width) -> bool:
    """Whether the line from a to b passes within `width` of the box."""
    from shapely.geometry import LineString
    from shapely.geometry import box as rect

    return LineString([a, b]).distance(rect(*box)) <= width


def test_every_name_reads_as_its_own_space(printed):
    """A name beside its space keeps within 2.2 mm of it, nearer it than any other space by a fifth of a radius,
    and out of the gap between its space and any neighbour within a radius of it (within half a radius of the line
    joining their centres); any other name is joined to its space by a leader drawn from the space's edge."""
    plan, page = printed
    labels, leaders = _printed_labels(plan, page), _leaders(page)
    spaces = {name: (plan.at[name], plan.radius(name)) for name in plan.city_labels}
    unclear = []
    for name, box in labels.items():
        at, radius = spaces[name]
        if _has_leader(box, at, radius, leaders):
            continue
        own = _gap(box, at, radius)
        if own > BESIDE + 0.5:
            unclear.append((name, "far from its space, no leader", round(own, 1)))
            continue
        margin = max(0.6, NEARER * radius)
        for other, (there, r) in spaces.items():
            gap = _gap(box, there, r)
            if other == name:
                continue
            if gap < own + margin - 0.3:
                unclear.append((name, "as near", other, round(own, 1), round(gap, 1)))
            elif gap < radius - 0.3 and _between(box, at, there, min(radius, r) / 2 - 0.3):
                unclear.append((name, "between", other, round(own, 1), round(gap, 1)))
    assert not unclear


def test_names_set_off_are_few_and_their_leaders_short(printed):
    """Most names sit beside their spaces; those set off hang on leaders mostly a few millimetres long."""
    plan, page = printed
    far = {key: p for key, p in plan.placed.items() if key in plan.city_labels and p.far}
    assert len(far) <= len(plan.city_labels) * 0.4
    lengths = sorted(math.dist(*p.leader(plan.at[key], plan.radius(key))) for key, p in far.items())
    assert not lengths or lengths[len(lengths) // 2] <= 4.0


def test_leaders_are_dotted_lighter_and_thinner_than_rail_lines_so_they_never_read_as_one(printed):
    """A leader, as printed, is dotted, thinner than a rail line and not black (the review read cased black
    leaders in the Ruhr and the Low Countries as rail lines)."""
    plan, page = printed
    far = {key: p.leader(plan.at[key], plan.radius(key)) for key, p in plan.placed.items() if key in plan.city_labels and p.far}
    if not far:
        pytest.skip("this map sets no name off")
    rail = plan.style.lines.rail
    found = 0
    for line in page.lines:
        ends = {(round(line["x0"] * MM_PER_PT, 1), round(line["top"] * MM_PER_PT, 1)), (round(line["x1"] * MM_PER_PT, 1), round(line["bottom"] * MM_PER_PT, 1)),
                (round(line["x0"] * MM_PER_PT, 1), round(line["bottom"] * MM_PER_PT, 1)), (round(line["x1"] * MM_PER_PT, 1), round(line["top"] * MM_PER_PT, 1))}
        for start, end in far.values():
            if {(round(start[0], 1), round(start[1], 1)), (round(end[0], 1), round(end[1], 1))} <= ends and line["dash"] and line["dash"][0]:
                found += 1
                assert line["linewidth"] < rail * 0.5
                assert min(line["stroking_color"]) > 0.15 and max(line["stroking_color"]) < 0.5
    assert found == len(far)


def test_region_titles_lie_on_their_own_land_clear_of_everything(printed):
    """Each map region's title, as printed, lies wholly on its own region's land, and on no space, city name or
    flight (Eastern Europe's once lay in Western Europe over the London-Berlin flight, and Western Europe's on Paris's
    name); a region drawn in two pieces apart has its title on each (Africa and the Middle East once had it on
    its western piece only)."""
    from shapely.geometry import LineString, Point
    from shapely.geometry import box as rect

    from generators.map.poster import _lands, _route_lines
    from generators.map.territories import polygons

    plan, page = printed
    if not plan.area_labels:
        pytest.skip("this map declares no regions")
    runs = [(text, box) for text, box in _runs(page) if _inside(box, plan.frame)]
    lands = _lands(plan.regions)
    names = [rect(*box) for box in _printed_labels(plan, page).values()]
    lines = [LineString(line) for line in _route_lines(plan.game_map, plan.at) + plan.lanes]
    for key, title in plan.area_labels.items():
        boxes = [box for text, box in runs if text == title]
        assert len(boxes) == list(plan.area_labels.values()).count(title), title  # one on each piece of its land
        placed = plan.placed[key].rect
        box = min(boxes, key=lambda b: abs(b[0] - placed.x) + abs(b[1] - placed.y))
        shape = rect(*box)
        region = key.split(":", 1)[1].split("#")[0]
        assert lands[region].contains(shape), title
        assert all(not lands[other].intersects(shape) for other in lands if other != region), title
        assert all(_gap(box, plan.at[c], plan.radius(c)) > 0 for c in plan.city_labels), title
        assert not any(shape.intersects(n) for n in names), title
        assert not any(shape.intersects(line) for line in lines), title
    pieces = {region: sum(1 for poly in polygons(land) if any(poly.contains(Point(plan.at[c.name])) for c in plan.game_map.cities
                                                            if c.region == region))
              for region, land in lands.items()}
    for region, count in pieces.items():
        assert sum(1 for key in plan.area_labels if key.split(":", 1)[1].split("#")[0] == region) == count, region


def test_country_names_are_printed_on_their_own_land_clear_of_every_space_and_name(printed):
    """A layout's country_size names each country holding a city (the Spies! poster): in capitals on its own
    land, clear of every space and 1 mm from every other name; every country of three cities or more is named,
    so home and neutral ground read by name as well as by colour."""
    from shapely.geometry import box as rect

    from generators.map.poster import COUNTRY_KEY, _lands

    plan, page = printed
    if not plan.style.country_size:
        pytest.skip("this map names no countries")
    runs = [(text, box) for text, box in _runs(page) if _inside(box, plan.frame)]
    lands = _lands(plan.regions)
    names = [rect(*box) for box in _printed_labels(plan, page).values()]
    for key, title in plan.country_labels.items():
        boxes = [box for text, box in runs if text == title]
        assert len(boxes) == 1, title
        shape = rect(*boxes[0])
        assert lands[key[len(COUNTRY_KEY):]].contains(shape), title
        assert all(_gap(boxes[0], plan.at[c], plan.radius(c)) > 0 for c in plan.city_labels), title
        assert all(shape.distance(n) >= 1.0 - 1e-6 for n in names), title
    counts = Counter(c.country for c in plan.game_map.cities)
    assert {f"{COUNTRY_KEY}{country}" for country, n in counts.items() if n >= 3} <= set(plan.country_labels)
