"""The map poster: a game's map on one large page (map.pdf, the layout's 22 x 34 inch poster paper, for
a print shop), the same page tiled over home-printer paper (map-tiles.pdf, see tiling.py), and SVG.

Everything drawn comes from the map data and the layout: land shaded per power, shaped from the
cities (territories.py); rail lines solid, air lines dashed; sea zones as ships joined by sea lanes;
cities marked as capital and port and with the marks the map declares (badges and tags, with their
legend wording); names set as real text clear of each
other (label_placement.py); a lettered grid with an index of places; a legend; the title; in the small print under the
frame, when the map says it is one, the note that it is a reconstruction.
"""

from __future__ import annotations

import string
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from ..core.errors import DataError, Problem
from ..core.layouts import PosterStyle
from ..core.map_models import MapFile
from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, register_fonts, text_width
from ..printing.geometry import Box
from ..printing.painter import Anchor, Drawing, Painter
from ..printing.textfit import Paragraph, TextFitError, fit_text
from .aid_placement import place_aids
from .aids import Ink, Laid, draw_aid, lay_out
from .label_placement import LabelRequest, PlacedLabel, place_labels
from .land import read_geography, union_of
from .sea_zones import borders_between, sea_zone_regions
from .poster_sheets import sheet_advice, whole_and_tiled
from .spaces import poster_places
from .sea_lanes import route_lanes
from .territories import Region, Site, polygons, shape_territories, typical_spacing
from .water import Water

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.render import Document
    from ..printing.settings import PrintSettings

# The poster's sizes are the layout's (`poster:`, see layouts/default.yaml); these are the proportions of
# the drawing that follow from them.
INDEX_COLUMN = 52.0  # mm: the narrowest a column of the index of places gets
REACH = 1.2  # land reaches this many typical city spacings beyond a country's cities
PORT_TO_SEA = 0.6  # how far out from a port towards its ship the sea is sure to be
TINT = 0.6  # share of a power's colour in the shade of its land
PORT_WATER = 3.0  # mm: the water within this of a port's space is its sea zone's own
GRID = 2.0  # mm: aids' corners sit on this grid, so that boxes beside each other line up
NAME_LINE = 1.35  # a city name's line, in its size: room for the tags below it
HALO = ("#ffffff", 1.1)  # the halo round map names: colour, width (pt)
AREA_KEY, AREA_INK = "area:", "#333333"  # a map region's label: its key among the placed labels, its colour
# Marks (mm, as shares of a space's radius where they sit on it) and lines (pt; dashes in mm)
RIM = 0.2  # share of a space's radius its coloured rim takes: counters sit on the white inside
INSIDE = 0.15  # share of the rim's colour in a space's inside: pale, so counters and names read on it
PORT_RING = 0.9  # mm: the sea-coloured ring round a port's space
BADGE_R = 1.8
BADGE_SIZE = 6.5  # pt: a badge's letter; its capital letters stand 1.7 mm tall
# Where a city's badge may sit, as (x, y) directions from its centre (y down), in the order tried: on the
# rim at the sides, where a counter on the space leaves it visible, then the corners outside the rim.
BADGE_SPOTS = ((-1.15, 0), (1.15, 0), (0, 1.15), (0, -1.15), (-1, 1), (1, 1), (-1, -1), (1, -1))
# Tags are told apart by colour: the first kind of tag the map declares is black, the next in the sea's ink.
TAG_FILLS = ("#000000", None)
RAIL, AIR, LANE, COUNTRY_EDGE, POWER_EDGE, ZONE_EDGE, LEADER = 1.7, 1.1, 1.2, 0.5, 1.6, 0.8, 0.7
ZONE_DASH = (2.5, 1.5)
AIR_DASH, LANE_DASH = (3.2, 1.8), (0.7, 1.3)


@dataclass(frozen=True)
class Palette:
    """The poster's colours, from the layout: each power's own, and the map's sea, land and lines."""

    sea: str
    sea_ink: str
    land: str
    border: str
    rail: str
    air: str
    powers: dict[str, str]
    power_inks: dict[str, str]
    areas: dict[str, str] = field(default_factory=dict)  # map region name -> its colour, where it declares one

    @classmethod
    def from_layout(cls, layout: "Layout", powers: list[str], game_map: MapFile | None = None) -> "Palette":
        sea, land = layout.colour("map-sea"), layout.colour("map-land")
        areas = {r.name: r.colour if r.colour.startswith("#") else layout.colour(r.colour).fill
                 for r in (game_map.regions if game_map else []) if r.colour}
        return cls(sea=sea.fill, sea_ink=sea.ink, land=land.fill, border=land.ink,
                   rail=layout.colour("map-rail").fill, air=layout.colour("map-air").fill,
                   powers={p: layout.colour(p).fill for p in powers}, power_inks={p: layout.colour(p).ink for p in powers},
                   areas=areas)

    def shade(self, power: str | None, area: str | None = None) -> str:
        """The fill of land: the power's colour lightened, else its map region's, else the neutral land colour."""
        if power in self.powers:
            return mix(self.powers[power], "#ffffff", TINT)
        return mix(self.areas[area], "#ffffff", TINT) if area in self.areas else self.land


def mix(colour: str, other: str, share: float) -> str:
    """`share` of `colour` over the rest of `other`, as #rrggbb."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b))


@dataclass(frozen=True)
class Grid:
    """The lettered columns and numbered rows over the map frame."""

    frame: Box
    columns: int
    rows: int

    def ref(self, x: float, y: float) -> str:
        """"C4" for a point in column C, row 4."""
        col = min(self.columns - 1, max(0, int((x - self.frame.x) / self.frame.width * self.columns)))
        row = min(self.rows - 1, max(0, int((y - self.frame.y) / self.frame.height * self.rows)))
        return f"{column_name(col)}{row + 1}"


def column_name(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... for 0, 1, ..."""
    letters = string.ascii_uppercase
    return letters[index] if index < 26 else column_name(index // 26 - 1) + letters[index % 26]


@dataclass(frozen=True)
class CityLabel:
    """A city's label: its name, and the tags of its marks set below it."""

    name: str
    font: str
    size: float
    tags: tuple[str, ...]
    tag_size: float
    number: int | None = None  # the city's face of the city die, printed before its name

    @property
    def text(self) -> str:
        return f"{self.number} · {self.name}" if self.number is not None else self.name

    @property
    def tag_height(self) -> float:
        return pt_to_mm(self.tag_size) * 1.5

    def size_mm(self) -> tuple[float, float]:
        widths = [text_width(self.text, self.font, self.size)] + [text_width(t, self.font, self.tag_size) + 1.6 for t in self.tags]
        return max(widths), pt_to_mm(self.size) * NAME_LINE + len(self.tags) * (self.tag_height + 0.4)


@dataclass(frozen=True)
class PosterPlan:
    """Where everything on the poster goes, worked out once and drawn by every backend and tile."""

    style: PosterStyle
    width: float
    height: float
    game_title: str
    game_map: MapFile
    factions: dict[str, str]
    frame: Box
    grid: Grid
    at: dict[str, tuple[float, float]]
    badges: dict[str, list[tuple[str, float, float]]]
    marks: list[Box]
    regions: list[Region]
    land: list[tuple[str, list[tuple[float, float]]]]
    power_edges: list[tuple[str, list[tuple[float, float]]]]
    zone_edges: list[list[tuple[float, float]]]
    lanes: list[list[tuple[float, float]]]
    aids: list[tuple[Laid, float, float]]
    credit: str
    advice: str  # how to print the poster, as its small print says
    city_labels: dict[str, CityLabel]
    placed: dict[str, PlacedLabel]
    palette: Palette
    fonts: FontSet
    key: Box  # where the legend, the index and the sea zones go
    map_file: Path  # the map's data file, named when the map cannot be drawn
    area_labels: dict[str, str] = field(default_factory=dict)  # placed label key -> the map region's name as printed
    sea_zones: dict[str, BaseGeometry] = field(default_factory=dict)  # each sea zone's water (sea_zones.py)

    def radius(self, name: str) -> float:
        """The radius (mm) of the mark drawn for place `name`: a city's space (with a port's ring), or a sea zone's ship."""
        if name not in self.city_labels:
            return self.style.ship / 2
        return self.style.space / 2 + (PORT_RING if self.game_map.city(name).port else 0.0)


def plan_poster(game: "Game", layout: "Layout", fonts: FontSet) -> PosterPlan:
    """The poster laid out: page, frame, places (spaced and the drawing warped with them, spaces.py), land
    and sea zones, the map's aids, grid, key and where each name goes."""
    game_map: MapFile = game.map
    st = layout.poster
    places = poster_places(game)
    width, height, frame, at, project = places.width, places.height, places.frame, places.at, places.project
    grid = Grid(frame, max(1, round(frame.width / st.grid_cell)), max(1, round(frame.height / st.grid_cell)))
    key = _key_box(st, frame, width, height)

    powers = [f.id for f in game.info.factions]
    palette = Palette.from_layout(layout, powers, game_map)
    box = Polygon([(frame.x, frame.y), (frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom)])
    credit = ""
    if game_map.geography is not None:
        regions = sorted(places.regions, key=lambda r: -r.shape.area)
        credit = read_geography(game.file(game_map.geography)).credit
    else:
        regions = _regions(game_map, at, frame)
    land = union_of([r.shape for r in regions]) if regions else Polygon()
    water = box.difference(land)
    zones = _sea_zones(game_map, at, project, water, st)
    zone_edges = borders_between(zones)

    labels = {}
    for city in game_map.cities:
        tags = tuple(mark.tag for name, mark in game_map.marks.items() if mark.tag and city.has_mark(name))
        labels[city.name] = CityLabel(city.name, fonts.bold if city.capital else fonts.regular,
                                      st.capital_size if city.capital else st.city_size, tags, st.tag_size,
                                      city.number if game_map.dice is not None else None)
    badges = _place_badges(game_map, at, st)
    marks = _mark_boxes(game_map, at, badges, st)
    sea = Water(frame, land)
    lanes = route_lanes(sea, _lanes(game_map, at))
    lines = _route_lines(game_map, at) + lanes
    aids = _place_map_aids(game, layout, fonts, project, sea, marks, lines, key, frame)
    badge_boxes = [Box(bx - BADGE_R, by - BADGE_R, 2 * BADGE_R, 2 * BADGE_R) for spots in badges.values() for _, bx, by in spots]
    areas = _area_labels(game_map)
    placed = _place_names(game_map, at, frame, labels, fonts, badge_boxes + [Box(x, y, laid.width, laid.height) for laid, x, y in aids],
                          lines, st, areas, _lands(regions) if areas else None)
    fills, edges = _land_drawing(regions, palette)
    return PosterPlan(st, width, height, game.info.title, game_map, {f.id: f.name for f in game.info.factions}, frame, grid,
                      at, badges, marks, regions, fills, edges, zone_edges, lanes, aids, credit,
                      sheet_advice(st.paper, (width, height)), labels, placed, palette, fonts, key,
                      game.file("map.yaml"), areas, zones)


def _key_box(st: PosterStyle, frame: Box, width: float, height: float) -> Box:
    """The key's room: the strip beside the map when the layout gives one, else the page below the map."""
    if st.key_width:
        left = frame.right + st.border + st.key_gap
        return Box(left, frame.y - st.border, width - st.margin - left, frame.height + 2 * st.border)
    top = frame.bottom + st.border + st.key_gap
    return Box(st.margin, top, width - 2 * st.margin, height - st.margin - top)


def _land_drawing(regions: list[Region], palette: Palette):
    """The land as it is painted: each ring with its fill (holes in the sea's), and each power's outline."""
    fills = []
    for region in regions:
        for poly in polygons(region.shape):
            fills.append((palette.shade(region.power, region.country), list(poly.exterior.coords)[:-1]))
            fills += [(palette.sea, list(hole.coords)[:-1]) for hole in poly.interiors]
    by_power = defaultdict(list)
    for region in regions:
        if region.power in palette.powers:
            by_power[region.power].append(region.shape)
    edges = []
    for power, shapes in by_power.items():
        colour = mix(palette.powers[power], "#000000", 0.75)
        edges += [(colour, list(ring.coords)) for poly in polygons(union_of(shapes)) for ring in (poly.exterior, *poly.interiors)]
    return fills, edges


def _sea_zones(game_map: MapFile, at: dict[str, tuple[float, float]], project, water: BaseGeometry,
               st: PosterStyle) -> dict[str, BaseGeometry]:
    """Each sea zone's water: nearer its ship, its other waters and its ports than any other zone's."""
    seeds = {}
    for zone in game_map.sea_zones:
        if zone.name in at:
            xs, ys = project([w.lon for w in zone.waters], [w.lat for w in zone.waters])
            seeds[zone.name] = [at[zone.name]] + [(float(x), float(y)) for x, y in zip(xs, ys)]
    ports = [(at[c.name], c.sea_zones) for c in game_map.cities if c.port and c.sea_zones and c.name in at]
    return sea_zone_regions(seeds, ports, water, st.space / 2 + PORT_WATER)


def _mark_boxes(game_map: MapFile, at: dict[str, tuple[float, float]], badges: dict[str, list[tuple[str, float, float]]],
                st: PosterStyle) -> list[Box]:
    """The squares every city's space, badge and ship covers: nothing else may sit on them."""
    boxes = []
    for city in game_map.cities:
        r = st.space / 2 + (PORT_RING if city.port else 0.0)
        x, y = at[city.name]
        boxes.append(Box(x - r, y - r, 2 * r, 2 * r))
        boxes += [Box(bx - BADGE_R, by - BADGE_R, 2 * BADGE_R, 2 * BADGE_R) for _, bx, by in badges.get(city.name, ())]
    for zone in game_map.sea_zones:
        if zone.name in at:
            x, y = at[zone.name]
            boxes.append(Box(x - st.ship / 2, y - st.ship / 2, st.ship, st.ship))
    return boxes


def _route_lines(game_map: MapFile, at: dict[str, tuple[float, float]]) -> list[list[tuple[float, float]]]:
    return [[at[r.from_], at[r.to]] for r in game_map.routes if r.from_ in at and r.to in at]


def _place_map_aids(game: "Game", layout: "Layout", fonts: FontSet, project, sea: Water,
                    marks: list[Box], lines: list, key: Box, frame: Box) -> list[tuple[Laid, float, float]]:
    """Each of the map's aids laid out and put in empty sea near where the map wants it, else on empty land,
    else at the foot of the key; aids whose edges nearly meet then lined up exactly."""
    game_map, st = game.map, layout.poster
    if not game_map.aids:
        return []
    ink = Ink.of(game, layout, fonts)
    file = game.file("map.yaml")
    laid = [lay_out(aid, game, ink, st.aid_width * aid.span, file, f"aids[{i}]") for i, aid in enumerate(game_map.aids)]
    near = []
    for aid in game_map.aids:
        if aid.near is None:
            near.append(None)
        else:
            xs, ys = project([aid.near.lon], [aid.near.lat])
            near.append((float(xs[0]), float(ys[0])))
    spots = place_aids([(item.width, item.height) for item in laid], near, sea, marks, lines)
    placed = [(item, *_on_grid(spot)) for item, spot in zip(laid, spots) if spot is not None]
    placed = _lined_up(placed, marks, lines, frame, st.aid_gap)
    margin = [item for item, spot in zip(laid, spots) if spot is None]
    return placed + _foot_of_key(margin, key, st, file, game_map.aids)


def _on_grid(spot: tuple[float, float]) -> tuple[float, float]:
    """An aid's corner on the poster's layout grid, so that aids beside each other line up."""
    return round(spot[0] / GRID) * GRID, round(spot[1] / GRID) * GRID


ALIGN = 6.0  # mm: aids whose edges come this near another aid's line them up with it exactly


def _lined_up(placed: list, marks: list[Box], lines: list, frame: Box, gap: float) -> list:
    """`placed` aids (laid, x, y) where an edge of one nearly meets the same edge of another (left, right, top
    or bottom, within ALIGN mm) moved so that they meet exactly, the one or else the other, where the move keeps
    the aid clear of cities, ships, lines, the frame and the other aids: boxes side by side or one above
    another share their edges."""
    import shapely
    from shapely.geometry import LineString, box

    from .aid_placement import CLEARANCE

    obstacles = [box(m.x, m.y, m.right, m.bottom) for m in marks] + [LineString(line) for line in lines if len(line) >= 2]
    tree = shapely.STRtree(obstacles) if obstacles else None
    out = list(placed)

    def hits(x: float, y: float, laid) -> set:
        grown = box(x - CLEARANCE, y - CLEARANCE, x + laid.width + CLEARANCE, y + laid.height + CLEARANCE)
        return set(tree.query(grown, predicate="intersects").tolist()) if tree is not None else set()

    def crowded(i: int, x: float, y: float) -> set:
        laid = out[i][0]
        near = box(x - gap, y - gap, x + laid.width + gap, y + laid.height + gap)
        return {j for j, (other, ox, oy) in enumerate(out) if j != i and near.intersects(box(ox, oy, ox + other.width, oy + other.height))}

    def moved(i: int, x: float, y: float) -> bool:
        laid, x0, y0 = out[i]
        if x < frame.x + 1 or y < frame.y + 1 or x + laid.width > frame.right - 1 or y + laid.height > frame.bottom - 1:
            return False
        if hits(x, y, laid) - hits(x0, y0, laid):
            return False
        if crowded(i, x, y) - crowded(i, x0, y0):  # nearer than the gap to an aid it kept the gap from before
            return False
        if any(box(x, y, x + laid.width, y + laid.height).intersection(box(ox, oy, ox + other.width, oy + other.height)).area > 0
               for j, (other, ox, oy) in enumerate(out) if j != i):
            return False
        out[i] = (laid, x, y)
        return True

    for i in range(len(out)):
        for j in range(i + 1, len(out)):
            for axis in (0, 1):
                for far_edge in (False, True):
                    (a, ax, ay), (b, bx, by) = out[i], out[j]
                    size_a, size_b = (a.width, b.width) if axis == 0 else (a.height, b.height)
                    u, v = ((ax, bx) if axis == 0 else (ay, by))
                    if far_edge:
                        u, v = u + size_a, v + size_b
                    if not 1e-6 < abs(u - v) <= ALIGN:
                        continue
                    for k, shift in ((j, u - v), (i, v - u)):
                        _, kx, ky = out[k]
                        if moved(k, kx + (shift if axis == 0 else 0.0), ky + (shift if axis == 1 else 0.0)):
                            break
    return out


def _foot_of_key(laid: list[Laid], key: Box, st: PosterStyle, file, aids) -> list[tuple[Laid, float, float]]:
    """Aids the map has no room for, stacked up from the foot of the key, left-aligned with it."""
    placed = []
    bottom = key.bottom
    for item in sorted(laid, key=lambda i: -i.height):
        if item.width > key.width:
            index = next(i for i, aid in enumerate(aids) if aid is item.aid)
            raise DataError([Problem(file, f"aids[{index}]", f"{item.aid.title!r} is {item.width:.0f} mm wide and finds no room on the map "
                                     f"nor in the key ({key.width:.0f} mm); give it fewer boxes a row", "invalid")])
        placed.append((item, key.x, bottom - item.height))
        bottom -= item.height + st.aid_gap
    return placed


def _sea_points(game_map: MapFile, at: dict[str, tuple[float, float]]) -> list[tuple[float, float]]:
    """Points that stay sea: each ship, and a point on the way out from each port to its ship."""
    points = [at[z.name] for z in game_map.sea_zones if z.name in at]
    for city in game_map.cities:
        for zone in city.sea_zones if city.port else ():
            if zone in at:
                (cx, cy), (zx, zy) = at[city.name], at[zone]
                points.append((cx + (zx - cx) * PORT_TO_SEA, cy + (zy - cy) * PORT_TO_SEA))
    return points


def _regions(game_map: MapFile, at: dict[str, tuple[float, float]], frame: Box) -> list[Region]:
    """The land drawn round the cities: one territory per map region when the map has regions, else per country."""
    by_region = bool(game_map.regions)
    sites = [Site(c.name, c.region if by_region and c.region else c.country, c.power, at[c.name]) for c in game_map.cities]
    reach = REACH * typical_spacing([s.at for s in sites])
    box = Polygon([(frame.x, frame.y), (frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom)])
    regions = shape_territories(sites, _sea_points(game_map, at), box, reach)
    return sorted(regions, key=lambda r: -r.shape.area)  # enclaves drawn over what surrounds them


def _area_labels(game_map: MapFile) -> dict[str, str]:
    """Each map region's label, keyed apart from the places' names: its number on the region die and its name."""
    return {f"{AREA_KEY}{r.name}": f"{r.number} · {r.name}" if r.number is not None else r.name for r in game_map.regions}


def _place_names(game_map: MapFile, at: dict[str, tuple[float, float]], frame: Box, labels: dict[str, CityLabel],
                 fonts: FontSet, obstacles: list[Box], lines: list, st: PosterStyle,
                 areas: dict[str, str] | None = None, lands: dict | None = None) -> dict[str, PlacedLabel]:
    """Where each sea zone's and city's name goes: sea zones first, then capitals, then the most crowded cities;
    then each map region's name, near the middle of its cities on its own land (`lands`: region -> its shape)."""
    near = _crowding(at, [c.name for c in game_map.cities])
    requests = []
    for zone in game_map.sea_zones:
        if zone.name in at:
            requests.append(LabelRequest(zone.name, at[zone.name], text_width(zone.name, fonts.regular, st.sea_size),
                                         pt_to_mm(st.sea_size) * 1.2, st.ship / 2, area=True))
    order = sorted(game_map.cities, key=lambda c: (not c.capital, -near[c.name], c.name))
    for city in order:
        w, h = labels[city.name].size_mm()
        requests.append(LabelRequest(city.name, at[city.name], w, h, st.space / 2 + (PORT_RING if city.port else 0.0)))
    for key, text in (areas or {}).items():
        members = [at[c.name] for c in game_map.cities if c.region == key[len(AREA_KEY):] and c.name in at]
        if members:
            middle = _middle_on_land(members, (lands or {}).get(key[len(AREA_KEY):]))
            requests.append(LabelRequest(key, middle, text_width(text, fonts.bold, st.region_size), pt_to_mm(st.region_size) * 1.2,
                                         0.5, area=True))
    inside = Box(frame.x + 1, frame.y + 1, frame.width - 2, frame.height - 2)
    return {p.key: p for p in place_labels(requests, inside, obstacles, lines)}


def _lands(regions: list[Region]) -> dict[str, BaseGeometry]:
    """Each territory's land, its pieces together."""
    shapes: dict[str, list[BaseGeometry]] = defaultdict(list)
    for region in regions:
        shapes[region.country].append(region.shape)
    return {name: union_of(parts) for name, parts in shapes.items()}


def _middle_on_land(members: list[tuple[float, float]], land) -> tuple[float, float]:
    """The middle of a region's cities, or, where that falls off its land (a region in two pieces), the middle of the
    cities on its largest piece, else a point inside that piece."""
    def mean(points):
        return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)

    middle = mean(members)
    if land is None or land.is_empty or land.contains(Point(middle)):
        return middle
    piece = max(polygons(land), key=lambda poly: poly.area)
    inside = [m for m in members if piece.contains(Point(m))]
    if inside and piece.contains(Point(mean(inside))):
        return mean(inside)
    point = piece.representative_point()
    return point.x, point.y


def _crowding(at: dict[str, tuple[float, float]], names: list[str], radius: float = 30.0) -> dict[str, int]:
    """How many other cities lie within `radius` mm of each: crowded names are placed first."""
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for n in names:
        cells[(int(at[n][0] // radius), int(at[n][1] // radius))].append(n)
    found = {}
    for n in names:
        (x, y), (cx, cy) = at[n], (int(at[n][0] // radius), int(at[n][1] // radius))
        found[n] = sum(1 for i in (-1, 0, 1) for j in (-1, 0, 1) for m in cells.get((cx + i, cy + j), ())
                       if m != n and (x - at[m][0]) ** 2 + (y - at[m][1]) ** 2 < radius ** 2)
    return found


def _lanes(game_map: MapFile, at: dict[str, tuple[float, float]]) -> list[tuple[tuple[float, float], bool, tuple[float, float]]]:
    """The sea lanes to route, each (from, whether it leaves a port, to a ship): ship to adjacent ship (each
    pair once), and port to the ship of each zone it touches."""
    lanes = []
    for zone in game_map.sea_zones:
        for other in zone.adjacent:
            if zone.name < other and zone.name in at and other in at:
                lanes.append((at[zone.name], False, at[other]))
    for city in game_map.cities:
        for zone in city.sea_zones if city.port else ():
            if zone in at:
                lanes.append((at[city.name], True, at[zone]))
    return lanes


# --- drawing ---------------------------------------------------------------------------------

def draw_poster(painter: Painter, plan: PosterPlan) -> None:
    """The whole poster on the painter's current page (page coordinates of the poster)."""
    _draw_map(painter, plan)
    _draw_title(painter, plan)
    _draw_key(painter, plan)


def _draw_map(painter: Painter, plan: PosterPlan) -> None:
    game_map, f, pal, st = plan.game_map, plan.frame, plan.palette, plan.style
    painter.rect(f.x, f.y, f.width, f.height, fill=pal.sea)
    for fill, ring in plan.land:
        painter.polygon(ring, fill=fill, stroke=pal.border, line_width=COUNTRY_EDGE)
    for colour, ring in plan.power_edges:
        painter.polyline(ring, stroke=colour, line_width=POWER_EDGE)
    for edge in plan.zone_edges:
        painter.polyline(edge, stroke=pal.sea_ink, line_width=ZONE_EDGE, dash=ZONE_DASH)
    _draw_grid_lines(painter, plan)
    for lane in plan.lanes:
        painter.polyline(lane, stroke=pal.sea_ink, line_width=LANE, dash=LANE_DASH)
    for line in game_map.routes:
        if line.kind == "air" and line.from_ in plan.at and line.to in plan.at:
            painter.line(*plan.at[line.from_], *plan.at[line.to], stroke=pal.air, line_width=AIR, dash=AIR_DASH)
    for line in game_map.routes:
        if line.kind == "rail" and line.from_ in plan.at and line.to in plan.at:
            painter.line(*plan.at[line.from_], *plan.at[line.to], stroke=pal.rail, line_width=RAIL)
    for zone in game_map.sea_zones:
        if zone.name in plan.at:
            x, y = plan.at[zone.name]
            painter.circle(x, y, st.ship / 2, fill=pal.sea, stroke=pal.sea_ink, line_width=0.8)
            painter.symbol("ship", x, y, st.ship * 0.8, ink=pal.sea_ink, paper=pal.sea)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)
    for key, placed in plan.placed.items():
        if placed.far and key in plan.at:
            start, end = placed.leader(plan.at[key], plan.radius(key))
            painter.line(*start, *end, stroke=HALO[0], line_width=LEADER + 2 * HALO[1])  # cased, so it reads across lines
            painter.line(*start, *end, stroke="#000000", line_width=LEADER)
    for city in game_map.cities:
        _draw_city(painter, plan, city.name)
    for key, placed in plan.placed.items():
        if key in plan.city_labels:
            _draw_city_label(painter, plan, plan.city_labels[key], placed.rect)
        elif key in plan.area_labels:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, plan.area_labels[key], plan.fonts.bold, st.region_size,
                         colour=AREA_INK, anchor=Anchor.MIDDLE, halo=HALO)
        else:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, key, plan.fonts.regular, st.sea_size, colour=pal.sea_ink,
                         anchor=Anchor.MIDDLE, halo=(pal.sea, HALO[1]))
    _draw_frame(painter, plan)
    small_print = f.bottom + st.border + pt_to_mm(st.credit_size) * 1.2
    painter.text(f.x - st.border, small_print, plan.advice[:1].upper() + plan.advice[1:] + ".", plan.fonts.regular, st.credit_size,
                 colour="#333333")
    credit = " ".join(t for t in (plan.game_map.reconstruction, plan.credit) if t)
    if credit:
        painter.text(f.right + st.border, small_print, credit, plan.fonts.regular, st.credit_size, colour="#333333", anchor=Anchor.END)


def draw_space(painter: Painter, x: float, y: float, radius: float, fill: str, ink: str, capital: bool, port: str | None) -> None:
    """A city's space: pale inside for the counters, a rim in its power's colour (white for a neutral city),
    a double black edge and a star on the rim for a capital, a ring in the sea's ink round a port."""
    if port:
        painter.circle(x, y, radius + PORT_RING, fill=port)
    painter.circle(x, y, radius, fill=fill, stroke="#000000", line_width=1.4 if capital else 0.7)
    painter.circle(x, y, radius * (1 - RIM), fill=mix(fill, "#ffffff", INSIDE), stroke="#000000" if capital else None, line_width=0.5)
    if capital:
        painter.symbol("star", x, y - radius * (1 - RIM / 2), radius * RIM * 1.6, ink=ink, paper=fill)


def _draw_city(painter: Painter, plan: PosterPlan, name: str) -> None:
    city = plan.game_map.city(name)
    pal = plan.palette
    x, y = plan.at[name]
    draw_space(painter, x, y, plan.style.space / 2, pal.powers.get(city.power, "#ffffff"), pal.power_inks.get(city.power, "#000000"),
               city.capital, pal.sea_ink if city.port else None)
    for letter, bx, by in plan.badges.get(name, ()):
        _draw_badge(painter, plan.fonts, letter, bx, by)


def _badges(game_map: MapFile, city) -> list[str]:
    """The badge letters of the marks `city` carries, in the order the map declares its marks."""
    return [mark.badge for name, mark in game_map.marks.items() if mark.badge and city.has_mark(name)]


def _place_badges(game_map: MapFile, at: dict[str, tuple[float, float]], st: PosterStyle) -> dict[str, list[tuple[str, float, float]]]:
    """Each city's badges (letter, centre): on the rim of its space at the first side where they cover no
    other city's space, ship or badge (a counter on the space leaves the sides of the rim showing); further
    badges of one city in a row outwards."""
    zones = {z.name for z in game_map.sea_zones}
    discs = [(x, y, st.ship / 2 if name in zones else st.space / 2) for name, (x, y) in at.items()]
    placed: dict[str, list[tuple[str, float, float]]] = {}
    for city in game_map.cities:
        letters = _badges(game_map, city)
        if not letters:
            continue
        x, y = at[city.name]
        r = st.space / 2
        own = (x, y, r)
        taken = [d for d in discs if d != own] + [(bx, by, BADGE_R) for spots in placed.values() for _, bx, by in spots]
        options = []
        for dx, dy in BADGE_SPOTS:
            row = [(x + dx * r * 0.8 + (-1 if dx <= 0 else 1) * i * 2.2 * BADGE_R, y + dy * r * 0.8) for i in range(len(letters))]
            clear = all((bx - tx) ** 2 + (by - ty) ** 2 >= (BADGE_R + tr + 0.2) ** 2 for bx, by in row for tx, ty, tr in taken)
            options.append((not clear, row))
        row = min(options, key=lambda o: o[0])[1]
        placed[city.name] = [(letter, bx, by) for letter, (bx, by) in zip(letters, row)]
    return placed


def _draw_badge(painter: Painter, fonts: FontSet, letter: str, x: float, y: float) -> None:
    painter.circle(x, y, BADGE_R, fill="#000000", stroke="#ffffff", line_width=0.6)
    size = BADGE_SIZE / max(1, len(letter)) ** 0.5
    painter.text(x, y + pt_to_mm(size) * 0.36, letter, fonts.bold, size, colour="#ffffff", anchor=Anchor.MIDDLE)


def _tag_fill(game_map: MapFile, tag: str, palette: "Palette") -> str:
    tags = [mark.tag for mark in game_map.marks.values() if mark.tag]
    return TAG_FILLS[tags.index(tag) % len(TAG_FILLS)] or palette.sea_ink


def _draw_city_label(painter: Painter, plan: PosterPlan, label: CityLabel, rect: Box) -> None:
    right_aligned = rect.x + rect.width <= plan.at[label.name][0]
    anchor = Anchor.END if right_aligned else Anchor.START if rect.x >= plan.at[label.name][0] else Anchor.MIDDLE
    x = {Anchor.START: rect.x, Anchor.END: rect.right, Anchor.MIDDLE: rect.x + rect.width / 2}[anchor]
    line = pt_to_mm(label.size) * NAME_LINE
    painter.text(x, rect.y + line * 0.7, label.text, label.font, label.size, anchor=anchor, halo=HALO)
    top = rect.y + line + 0.2
    for tag in label.tags:
        w = text_width(tag, label.font, label.tag_size) + 1.6
        left = {Anchor.START: x, Anchor.END: x - w, Anchor.MIDDLE: x - w / 2}[anchor]
        painter.rect(left, top, w, label.tag_height, fill=_tag_fill(plan.game_map, tag, plan.palette))
        painter.text(left + w / 2, top + label.tag_height * 0.74, tag, plan.fonts.bold, label.tag_size, colour="#ffffff", anchor=Anchor.MIDDLE)
        top += label.tag_height + 0.4


def _draw_grid_lines(painter: Painter, plan: PosterPlan) -> None:
    f, g = plan.frame, plan.grid
    colour = mix(plan.palette.sea_ink, "#ffffff", 0.25)
    for i in range(1, g.columns):
        x = f.x + f.width * i / g.columns
        painter.line(x, f.y, x, f.bottom, stroke=colour, line_width=0.3)
    for j in range(1, g.rows):
        y = f.y + f.height * j / g.rows
        painter.line(f.x, y, f.right, y, stroke=colour, line_width=0.3)


def _draw_frame(painter: Painter, plan: PosterPlan) -> None:
    st = plan.style
    f, g, font = plan.frame, plan.grid, plan.fonts.bold
    painter.rect(f.x - st.border, f.y - st.border, f.width + 2 * st.border, st.border, fill="#ffffff")
    painter.rect(f.x - st.border, f.bottom, f.width + 2 * st.border, st.border, fill="#ffffff")
    painter.rect(f.x - st.border, f.y, st.border, f.height, fill="#ffffff")
    painter.rect(f.right, f.y, st.border, f.height, fill="#ffffff")
    painter.rect(f.x, f.y, f.width, f.height, stroke="#000000", line_width=1.2)
    painter.rect(f.x - st.border, f.y - st.border, f.width + 2 * st.border, f.height + 2 * st.border, stroke="#000000", line_width=0.6)
    baseline = pt_to_mm(st.grid_size) * 0.36
    for i in range(g.columns):
        x = f.x + f.width * (i + 0.5) / g.columns
        for y in (f.y - st.border / 2 + baseline, f.bottom + st.border / 2 + baseline):
            painter.text(x, y, column_name(i), font, st.grid_size, anchor=Anchor.MIDDLE)
    for j in range(g.rows):
        y = f.y + f.height * (j + 0.5) / g.rows + baseline
        for x in (f.x - st.border / 2, f.right + st.border / 2):
            painter.text(x, y, str(j + 1), font, st.grid_size, anchor=Anchor.MIDDLE)


def _draw_title(painter: Painter, plan: PosterPlan) -> None:
    st = plan.style
    x, y, fonts = st.margin, st.margin, plan.fonts
    painter.text(x, y + pt_to_mm(st.title_size) * 0.75, plan.game_title, fonts.bold, st.title_size)
    title_w = text_width(plan.game_title, fonts.bold, st.title_size)
    sub = plan.game_map.title or ""
    if sub:
        painter.text(x + title_w + 8, y + pt_to_mm(st.title_size) * 0.75, sub, fonts.regular, st.subtitle_size)


def _draw_key(painter: Painter, plan: PosterPlan) -> None:
    """In the key's room (beside or below the map): the legend and the movement rules; each sea zone with
    the zones it sails to and its ports; the index of places with their grid squares; above any aids set
    at its foot."""
    st, key = plan.style, plan.key
    in_key = [y for laid, x, y in plan.aids if x >= key.x - 0.01 and y >= key.y]
    bottom = min(in_key) - st.aid_gap if in_key else key.bottom
    below = _draw_legend(painter, plan, Box(key.x, key.y, key.width, bottom - key.y))
    if plan.game_map.sea_zones:
        below = _draw_sea_zones(painter, plan, Box(key.x, below + st.key_gap, key.width, bottom - below - st.key_gap))
    _draw_index(painter, plan, Box(key.x, below + st.key_gap, key.width, bottom - below - st.key_gap))


def _heading(painter: Painter, plan: PosterPlan, x: float, y: float, text: str) -> float:
    """A heading of the key at (x, y), its top; returns where what follows it starts."""
    st = plan.style
    painter.text(x, y + pt_to_mm(st.heading_size) * 0.8, text, plan.fonts.bold, st.heading_size)
    return y + pt_to_mm(st.heading_size) * 1.3


def _draw_sea_zones(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """Each sea zone, the zones it sails to and its ports; returns where the list ends."""
    st, fonts, ink = plan.style, plan.fonts, plan.palette.sea_ink
    top = _heading(painter, plan, area.x, area.y, "Sea zones")
    ports: dict[str, list[str]] = defaultdict(list)
    for city in plan.game_map.cities:
        for zone in city.sea_zones if city.port else ():
            ports[zone].append(city.name)
    paragraphs = [p for z in plan.game_map.sea_zones for p in (
        Paragraph(z.name, fonts.bold, colour=ink, space_before=0.3),
        Paragraph(f"sails to {', '.join(z.adjacent) or 'no other zone'}; ports: {', '.join(ports[z.name]) or 'none'}.",
                  fonts.regular, run_in=True))]
    try:
        fitted = fit_text(paragraphs, area.width, area.bottom - top, largest=st.key_size, smallest=st.key_size,
                          what=f"the poster's key has no room for the list of {len(plan.game_map.sea_zones):,} sea zones")
    except TextFitError as exc:  # the zones are the map's: say so, and what gives the list room
        raise DataError([Problem(plan.map_file, "sea_zones",
                                 f"{exc}; shorten the zones' names, or give the key room in the layout "
                                 "(poster: key_width, key_size)", "no-room")]) from None
    painter.text_block(fitted, area.x, top, area.width, anchor=Anchor.START)
    return top + fitted.height


def _draw_legend(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """What each colour, space, mark and line means, and how far a move goes; returns where it ends."""
    st, fonts, pal, m = plan.style, plan.fonts, plan.palette, plan.game_map
    row = max(pt_to_mm(st.key_size) * 1.6, 7.0)
    y = _heading(painter, plan, area.x, area.y, "Legend") + row / 2
    r = 3.0  # mm: a space in the legend, drawn small
    sx, tx = area.x + 6, area.x + 14

    def entry(text: str) -> None:
        nonlocal y
        painter.text(tx, y + pt_to_mm(st.key_size) * 0.36, text, fonts.regular, st.key_size)
        y += row

    used = {c.power for c in m.cities}
    for power, colour in pal.powers.items():
        if power in used:
            painter.rect(sx - 6, y - 3, 12, 6, fill=pal.shade(power), stroke=mix(colour, "#000000", 0.75), line_width=POWER_EDGE)
            draw_space(painter, sx, y, r, colour, pal.power_inks[power], False, None)
            entry(f"{plan.factions.get(power, power)}: home territory and its cities")
    for part in m.regions:
        if part.name in pal.areas:
            painter.rect(sx - 6, y - 3, 12, 6, fill=pal.shade(None, part.name), stroke=pal.border, line_width=COUNTRY_EDGE)
            entry(f"{part.number} · {part.name}" if part.number is not None else part.name)
    if any(c.is_neutral for c in m.cities) and not (m.regions and all(r.name in pal.areas for r in m.regions)):
        painter.rect(sx - 6, y - 3, 12, 6, fill=pal.land, stroke=pal.border, line_width=COUNTRY_EDGE)
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, None)
        entry("Neutral country and city" if m.rules.home_territory else "Land and city")
    painter.rect(sx - 6, y - 3, 12, 6, fill=pal.sea, stroke=pal.sea_ink, line_width=COUNTRY_EDGE)
    if m.sea_zones:
        painter.line(sx - 6, y, sx + 6, y, stroke=pal.sea_ink, line_width=ZONE_EDGE, dash=ZONE_DASH)
    entry("Sea, and the border between two sea zones" if m.sea_zones else "Sea")
    if m.dice is not None and any(c.number is not None for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, None)
        entry(f"A city and its face of the {m.dice.city.name}, in its region (see the dice table)")
    if any(c.capital for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", True, None)
        entry("Capital (star on the rim, double edge, name in bold)")
    if any(c.port for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, pal.sea_ink)
        entry("Port: sails to the ship of each sea zone it touches")
    tag_h = pt_to_mm(st.tag_size) * 1.5
    for name, mark in m.marks.items():
        if not any(c.has_mark(name) for c in m.cities):
            continue
        if mark.badge:
            _draw_badge(painter, fonts, mark.badge, sx, y)
        else:
            w = text_width(mark.tag, fonts.bold, st.tag_size) + 1.6
            painter.rect(sx - w / 2, y - tag_h / 2, w, tag_h, fill=_tag_fill(m, mark.tag, pal))
            painter.text(sx, y + tag_h * 0.24, mark.tag, fonts.bold, st.tag_size, colour="#ffffff", anchor=Anchor.MIDDLE)
        entry(mark.legend)
    for kind, colour, width, dash in (("rail", pal.rail, RAIL, None), ("air", pal.air, AIR, AIR_DASH)):
        if any(r.kind == kind for r in m.routes):
            painter.line(sx - 6, y, sx + 6, y, stroke=colour, line_width=width, dash=dash)
            entry(f"{kind.capitalize()} line")
    if m.sea_zones:
        painter.symbol("ship", sx, y, st.ship * 0.6, ink=pal.sea_ink, paper=pal.sea)
        entry("Sea zone (its ship symbol)")
        painter.line(sx - 6, y, sx + 6, y, stroke=pal.sea_ink, line_width=LANE, dash=LANE_DASH)
        entry("Sea lane: port to ship, ship to ship")
    rules = m.rules
    y = _heading(painter, plan, area.x, y - row / 2 + 1, "Moving")
    ends = " or ".join({"city": "a city", "sea": "a sea zone"}[k] for k in rules.move_ends_in)
    ways = [kind for kind in ("rail", "air") if any(r.kind == kind for r in m.routes)] + (["sea"] if m.sea_zones else [])
    by = f"by any mix of {', '.join(ways[:-1])} and {ways[-1]}" if len(ways) > 1 else f"by {ways[0]}" if ways else ""
    if rules.note:
        text, cite = rules.note, rules.cite.get("note")
    else:
        text = (f"Each city{' or sea zone' if m.sea_zones else ''} entered is one space; at most {rules.spaces_per_turn} "
                f"spaces a turn{', ' + by if by else ''}; a move ends in {ends}.")
        cite = rules.cite.get("spaces_per_turn")
    paragraphs = [Paragraph(text + (f" ({cite.split(':')[0]})" if cite else ""), fonts.regular)]
    fitted = fit_text(paragraphs, area.width, area.bottom - y, largest=st.key_size, smallest=st.key_size, what="the poster's movement note")
    painter.text_block(fitted, area.x, y, area.width, anchor=Anchor.START)
    return y + fitted.height


def _draw_index(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """Every place with its grid square, in columns; returns where the index ends."""
    st, fonts = plan.style, plan.fonts
    top = _heading(painter, plan, area.x, area.y, "Index of places")
    zones = {z.name for z in plan.game_map.sea_zones}
    names = sorted((n for n in plan.at), key=str.casefold)
    line = pt_to_mm(st.key_size) * 1.3
    columns = max(1, int(area.width // INDEX_COLUMN))
    while top + -(-len(names) // columns) * line > area.bottom and columns < 6:  # short of room: narrower columns
        columns += 1
    per_column = -(-len(names) // columns)
    col_w = area.width / columns
    for i, name in enumerate(names):
        col, row = divmod(i, per_column)
        x, y = area.x + col * col_w, top + (row + 0.8) * line
        sea = name in zones
        painter.text(x, y, name, fonts.regular, st.key_size, colour=plan.palette.sea_ink if sea else "#000000")
        painter.text(x + col_w - 4, y, plan.grid.ref(*plan.at[name]), fonts.bold, st.key_size, anchor=Anchor.END)
    return top + per_column * line


# --- the product -----------------------------------------------------------------------------

def build_map(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """map.pdf (one poster page), map-tiles.pdf (the poster over the chosen paper) and, asked for, SVG and PNG."""
    if game.map is None:
        return []
    layout = game.layout
    fonts = register_fonts(layout.fonts, game.folder)
    plan = plan_poster(game, layout, fonts)
    title = f"{game.info.title} map"
    page = Drawing(plan.width, plan.height, partial(draw_poster, plan=plan), key=title)
    return whole_and_tiled(settings.game_dir(game), "map", page, plan.advice, fonts, settings, title)
