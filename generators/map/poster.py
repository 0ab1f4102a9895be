"""The map poster: a game's map on one large page (map.pdf, the layout's 22 x 34 inch poster paper, for
a print shop), the same page tiled over home-printer paper (map-tiles.pdf, see tiling.py), and SVG.

Everything drawn comes from the map data and the layout: land shaded per power, shaped from the
cities (territories.py); rail lines solid, air lines dashed; sea zones as ships joined by sea lanes;
cities marked as capital and port and with the marks the map declares (badges and tags, with their
legend wording); names set as real text clear of each
other (label_placement.py); a lettered grid with an index of places; a legend; the title and, when the map
says it is one, the note that it is a reconstruction.
"""

from __future__ import annotations

import string
from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from ..core.errors import DataError, Problem
from ..core.map_models import MapFile
from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, register_fonts, text_width
from ..printing.geometry import Box
from ..printing.painter import Anchor, Drawing, Painter
from ..printing.textfit import Paragraph, fit_text
from .aid_placement import place_aids
from .aids import Ink, Laid, draw_aid, lay_out
from .geography import projection
from .label_placement import LabelRequest, PlacedLabel, place_labels
from .land import land_regions, read_geography, sea_zone_borders, union_of
from .marker_spread import spread_markers
from .poster_sheets import sheet_advice, whole_and_tiled
from .sea_lanes import route_lanes
from .territories import Region, Site, polygons, shape_territories, typical_spacing
from .water import Water

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.render import Document
    from ..printing.settings import PrintSettings

POSTER_PAPER = "poster-22x34"
MARGIN = 12.7  # mm around everything printed
TITLE_BAND = 50.0  # mm of the page above the map
FRAME_PAD = 14.0  # mm inside the map frame around the outermost places
BORDER = 7.0  # mm band around the map frame holding the grid letters and numbers
GRID_CELL = 45.0  # mm: the grid's squares are about this size
INDEX_COLUMN = 55.0  # mm: the narrowest a column of the index of places gets
LEGEND_WIDTH = 150.0  # mm
SEA_TABLE_COLUMNS = 3
REACH = 1.2  # land reaches this many typical city spacings beyond a country's cities
PORT_TO_SEA = 0.6  # how far out from a port towards its ship the sea is sure to be
TINT = 0.6  # share of a power's colour in the shade of its land
ZONE_REACH = 30.0  # mm: a sea zone's water lies within this of its ship or its ports
AID_WIDTH = 110.0  # mm: the width of a table or list printed on the map
AID_GAP = 6.0  # mm between aids set at the foot of the page
HALO = ("#ffffff", 1.1)  # the halo round map names: colour, width (pt)
CREDIT_SIZE = 8.0

# Text sizes (pt)
TITLE_SIZE, SUBTITLE_SIZE, NOTE_SIZE = 54.0, 22.0, 11.0
CITY_SIZE, CAPITAL_SIZE, SEA_SIZE, TAG_SIZE = 8.5, 10.0, 10.5, 6.5
GRID_SIZE, LEGEND_SIZE, INDEX_SIZE, HEADING_SIZE = 10.0, 13.0, 10.0, 16.0
# Marks (mm) and lines (pt; dashes in mm)
CITY_R, CAPITAL_R, PORT_RING, BADGE_R, SHIP, SHIP_RING = 1.6, 2.7, 0.9, 1.8, 8.0, 5.0
BADGE_SIZE = 6.5  # pt: a badge's letter; its capital letters stand 1.7 mm tall
# Where a city's badge may sit, as (x, y) directions from its centre (y down), in the order tried: lower left
# first (names take that spot last), then the other corners, then the sides.
BADGE_SPOTS = ((-1, 1), (1, 1), (-1, -1), (1, -1), (-1.4, 0), (1.4, 0), (0, 1.4), (0, -1.4))
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

    @classmethod
    def from_layout(cls, layout: "Layout", powers: list[str]) -> "Palette":
        sea, land = layout.colour("map-sea"), layout.colour("map-land")
        return cls(sea=sea.fill, sea_ink=sea.ink, land=land.fill, border=land.ink,
                   rail=layout.colour("map-rail").fill, air=layout.colour("map-air").fill,
                   powers={p: layout.colour(p).fill for p in powers}, power_inks={p: layout.colour(p).ink for p in powers})

    def shade(self, power: str | None) -> str:
        """The fill of land: the power's colour lightened, or the neutral land colour."""
        return mix(self.powers[power], "#ffffff", TINT) if power in self.powers else self.land


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


@dataclass(frozen=True)
class PosterPlan:
    """Where everything on the poster goes, worked out once and drawn by every backend and tile."""

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


def _tag_height() -> float:
    return pt_to_mm(TAG_SIZE) * 1.5


def _label_size(label: CityLabel) -> tuple[float, float]:
    widths = [text_width(label.name, label.font, label.size)] + [text_width(t, label.font, TAG_SIZE) + 1.6 for t in label.tags]
    return max(widths), pt_to_mm(label.size) * 1.15 + len(label.tags) * (_tag_height() + 0.4)


def plan_poster(game: "Game", layout: "Layout", fonts: FontSet) -> PosterPlan:
    """The poster laid out: page, frame, projected places, land and sea zones, the map's aids, grid and
    where each name goes."""
    game_map: MapFile = game.map
    paper = layout.paper_size(POSTER_PAPER)
    width, height = paper.width, paper.height
    flat = projection(game_map)
    frame, project = map_frame(game_map, width)
    pad = 0.0 if game_map.extent is not None else FRAME_PAD
    scale = (width - 2 * MARGIN - 2 * BORDER - 2 * pad) / ((flat.width or 1.0) if flat else 1.0)
    at = {}
    if flat is not None:
        places = {c.name: (c.lat, c.lon) for c in game_map.cities}
        places |= {z.name: (z.lat, z.lon) for z in game_map.sea_zones if z.lat is not None and z.lon is not None}
        for name, (lat, lon) in places.items():
            p = flat.point(lat, lon)
            at[name] = (frame.x + pad + p.x * scale, frame.y + pad + p.y * scale)
        for zone in game_map.sea_zones:  # a zone without a place: its ship sits amid its ports
            ports = [at[c.name] for c in game_map.cities if zone.name in c.sea_zones]
            if zone.name not in at and ports:
                at[zone.name] = (sum(x for x, _ in ports) / len(ports), sum(y for _, y in ports) / len(ports))
    at = _spread(game_map, at)
    grid = Grid(frame, max(1, round(frame.width / GRID_CELL)), max(1, round(frame.height / GRID_CELL)))

    powers = [f.id for f in game.info.factions]
    palette = Palette.from_layout(layout, powers)
    box = Polygon([(frame.x, frame.y), (frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom)])
    credit = ""
    if game_map.geography is not None:
        geography = read_geography(game.file(game_map.geography))
        regions = sorted(land_regions(geography, game_map, project, box), key=lambda r: -r.shape.area)
        credit = geography.credit
    else:
        regions = _regions(game_map, at, frame)
    land = union_of([r.shape for r in regions]) if regions else Polygon()
    water = box.difference(land)
    zone_edges = _zone_borders(game_map, at, water)

    labels = {}
    for city in game_map.cities:
        tags = tuple(mark.tag for name, mark in game_map.marks.items() if mark.tag and city.has_mark(name))
        labels[city.name] = CityLabel(city.name, fonts.bold if city.capital else fonts.regular,
                                      CAPITAL_SIZE if city.capital else CITY_SIZE, tags)
    badges = _place_badges(game_map, at)
    marks = _mark_boxes(game_map, at, badges)
    sea = Water(frame, land)
    lanes = route_lanes(sea, _lanes(game_map, at))
    lines = _route_lines(game_map, at) + lanes
    aids = _place_map_aids(game, layout, fonts, project, sea, marks, lines, width, height)
    badge_boxes = [Box(bx - BADGE_R, by - BADGE_R, 2 * BADGE_R, 2 * BADGE_R) for spots in badges.values() for _, bx, by in spots]
    placed = _place_names(game_map, at, frame, labels, fonts, badge_boxes + [Box(x, y, laid.width, laid.height) for laid, x, y in aids], lines)
    fills, edges = _land_drawing(regions, palette)
    return PosterPlan(width, height, game.info.title, game_map, {f.id: f.name for f in game.info.factions}, frame, grid,
                      at, badges, marks, regions, fills, edges, zone_edges, lanes, aids, credit,
                      sheet_advice(POSTER_PAPER, (width, height)), labels, placed, palette, fonts)


def _land_drawing(regions: list[Region], palette: Palette):
    """The land as it is painted: each ring with its fill (holes in the sea's), and each power's outline."""
    fills = []
    for region in regions:
        for poly in polygons(region.shape):
            fills.append((palette.shade(region.power), list(poly.exterior.coords)[:-1]))
            fills += [(palette.sea, list(hole.coords)[:-1]) for hole in poly.interiors]
    by_power = defaultdict(list)
    for region in regions:
        if region.power in palette.powers:
            by_power[region.power].append(region.shape)
    edges = []
    for power, shapes in by_power.items():
        colour = mix(palette.powers[power], "#000000", 0.75)
        edges += [(colour, list(poly.exterior.coords)) for poly in polygons(union_of(shapes))]
    return fills, edges


def map_frame(game_map: MapFile, page_width: float):
    """The map's frame on a poster `page_width` mm wide, and the function taking arrays of longitudes and
    latitudes to page millimetres inside it."""
    flat = projection(game_map)
    pad = 0.0 if game_map.extent is not None else FRAME_PAD
    span_x, span_y = (flat.width or 1.0, flat.height or 1.0) if flat else (1.0, 1.0)
    scale = (page_width - 2 * MARGIN - 2 * BORDER - 2 * pad) / span_x
    frame = Box(MARGIN + BORDER, MARGIN + TITLE_BAND + BORDER, page_width - 2 * (MARGIN + BORDER), span_y * scale + 2 * pad)

    def project(lons, lats):
        xs, ys = flat.points(lons, lats)
        return frame.x + pad + xs * scale, frame.y + pad + ys * scale

    return frame, project


def _zone_borders(game_map: MapFile, at: dict[str, tuple[float, float]], water: BaseGeometry) -> list[list[tuple[float, float]]]:
    ships = {z.name: at[z.name] for z in game_map.sea_zones if z.name in at}
    ports: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for city in game_map.cities:
        if city.port and len(city.sea_zones) == 1 and city.name in at:
            ports[city.sea_zones[0]].append(at[city.name])
    return sea_zone_borders(ships, ports, water, ZONE_REACH)


def _mark_boxes(game_map: MapFile, at: dict[str, tuple[float, float]], badges: dict[str, list[tuple[str, float, float]]]) -> list[Box]:
    """The squares every city marker, badge and ship covers: nothing else may sit on them."""
    boxes = []
    for city in game_map.cities:
        r = _mark_radius(game_map, city.name)
        x, y = at[city.name]
        boxes.append(Box(x - r, y - r, 2 * r, 2 * r))
        boxes += [Box(bx - BADGE_R, by - BADGE_R, 2 * BADGE_R, 2 * BADGE_R) for _, bx, by in badges.get(city.name, ())]
    for zone in game_map.sea_zones:
        if zone.name in at:
            x, y = at[zone.name]
            boxes.append(Box(x - SHIP_RING, y - SHIP_RING, 2 * SHIP_RING, 2 * SHIP_RING))
    return boxes


def _route_lines(game_map: MapFile, at: dict[str, tuple[float, float]]) -> list[list[tuple[float, float]]]:
    return [[at[r.from_], at[r.to]] for r in game_map.routes if r.from_ in at and r.to in at]


def _place_map_aids(game: "Game", layout: "Layout", fonts: FontSet, project, sea: Water,
                    marks: list[Box], lines: list, page_width: float, page_height: float) -> list[tuple[Laid, float, float]]:
    """Each of the map's aids laid out and put in empty sea near where the map wants it, else on empty land,
    else at the foot of the page."""
    game_map = game.map
    if not game_map.aids:
        return []
    ink = Ink.of(game, layout, fonts)
    file = game.file("map.yaml")
    laid = [lay_out(aid, game, ink, AID_WIDTH, file, f"aids[{i}]") for i, aid in enumerate(game_map.aids)]
    near = []
    for aid in game_map.aids:
        if aid.near is None:
            near.append(None)
        else:
            xs, ys = project([aid.near.lon], [aid.near.lat])
            near.append((float(xs[0]), float(ys[0])))
    spots = place_aids([(item.width, item.height) for item in laid], near, sea, marks, lines)
    placed = [(item, *spot) for item, spot in zip(laid, spots) if spot is not None]
    margin = [item for item, spot in zip(laid, spots) if spot is None]
    return placed + _margin_band(margin, page_width, page_height, file, game_map.aids)


def _margin_band(laid: list[Laid], page_width: float, page_height: float, file, aids) -> list[tuple[Laid, float, float]]:
    """Aids the map has no room for, in rows along the foot of the page (below the key), right to left."""
    placed = []
    right, bottom = page_width - MARGIN, page_height - MARGIN
    row_height = 0.0
    for item in sorted(laid, key=lambda i: -i.height):
        if right - item.width < MARGIN:
            right, bottom = page_width - MARGIN, bottom - row_height - AID_GAP
            row_height = 0.0
        if item.width > page_width - 2 * MARGIN:
            index = next(i for i, aid in enumerate(aids) if aid is item.aid)
            raise DataError([Problem(file, f"aids[{index}]", f"{item.aid.title!r} is {item.width:.0f} mm wide, more than the page; "
                                     "give it fewer boxes a row", "invalid")])
        placed.append((item, right - item.width, bottom - item.height))
        right -= item.width + AID_GAP
        row_height = max(row_height, item.height)
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
    sites = [Site(c.name, c.country, c.power, at[c.name]) for c in game_map.cities]
    reach = REACH * typical_spacing([s.at for s in sites])
    box = Polygon([(frame.x, frame.y), (frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom)])
    regions = shape_territories(sites, _sea_points(game_map, at), box, reach)
    return sorted(regions, key=lambda r: -r.shape.area)  # enclaves drawn over what surrounds them


def _spread(game_map: MapFile, at: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Every place where its marker is drawn: cities too close to another marker moved apart, ships kept
    where the map puts them."""
    names = list(at)
    zones = {z.name for z in game_map.sea_zones}
    radii = [SHIP_RING if n in zones else _mark_radius(game_map, n) for n in names]
    moved = spread_markers([at[n] for n in names], radii, fixed=[n in zones for n in names])
    return dict(zip(names, moved))


def _mark_radius(game_map: MapFile, name: str) -> float:
    city = game_map.city(name)
    return (CAPITAL_R if city.capital else CITY_R) + (PORT_RING if city.port else 0.0)


def _place_names(game_map: MapFile, at: dict[str, tuple[float, float]], frame: Box, labels: dict[str, CityLabel],
                 fonts: FontSet, obstacles: list[Box], lines: list) -> dict[str, PlacedLabel]:
    """Where each sea zone's and city's name goes: sea zones first, then capitals, then the most crowded cities."""
    near = _crowding(at, [c.name for c in game_map.cities])
    requests = []
    for zone in game_map.sea_zones:
        if zone.name in at:
            requests.append(LabelRequest(zone.name, at[zone.name], text_width(zone.name, fonts.regular, SEA_SIZE),
                                         pt_to_mm(SEA_SIZE) * 1.2, SHIP_RING, area=True))
    order = sorted(game_map.cities, key=lambda c: (not c.capital, -near[c.name], c.name))
    for city in order:
        w, h = _label_size(labels[city.name])
        requests.append(LabelRequest(city.name, at[city.name], w, h, _mark_radius(game_map, city.name)))
    inside = Box(frame.x + 1, frame.y + 1, frame.width - 2, frame.height - 2)
    return {p.key: p for p in place_labels(requests, inside, obstacles, lines)}


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
    game_map, f, pal = plan.game_map, plan.frame, plan.palette
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
            painter.circle(x, y, SHIP_RING, fill=pal.sea, stroke=pal.sea_ink, line_width=0.8)
            painter.symbol("ship", x, y, SHIP, ink=pal.sea_ink, paper=pal.sea)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)
    for key, placed in plan.placed.items():
        if placed.far:
            radius = SHIP_RING if key not in plan.city_labels else _mark_radius(game_map, key)
            start, end = placed.leader(plan.at[key], radius)
            painter.line(*start, *end, stroke=HALO[0], line_width=LEADER + 2 * HALO[1])  # cased, so it reads across lines
            painter.line(*start, *end, stroke="#000000", line_width=LEADER)
    for city in game_map.cities:
        _draw_city(painter, plan, city.name)
    for key, placed in plan.placed.items():
        if key in plan.city_labels:
            _draw_city_label(painter, plan, plan.city_labels[key], placed.rect)
        else:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, key, plan.fonts.regular, SEA_SIZE, colour=pal.sea_ink,
                         anchor=Anchor.MIDDLE, halo=(pal.sea, HALO[1]))
    _draw_frame(painter, plan)
    small_print = f.bottom + BORDER + pt_to_mm(CREDIT_SIZE) * 1.2
    painter.text(f.x - BORDER, small_print, plan.advice[:1].upper() + plan.advice[1:] + ".", plan.fonts.regular, CREDIT_SIZE,
                 colour="#333333")
    if plan.credit:
        painter.text(f.right + BORDER, small_print, plan.credit, plan.fonts.regular, CREDIT_SIZE, colour="#333333", anchor=Anchor.END)


def _draw_city(painter: Painter, plan: PosterPlan, name: str) -> None:
    city = plan.game_map.city(name)
    pal = plan.palette
    x, y = plan.at[name]
    fill = pal.powers.get(city.power, "#ffffff")
    ink = pal.power_inks.get(city.power, "#000000")
    if city.port:
        painter.circle(x, y, (CAPITAL_R if city.capital else CITY_R) + PORT_RING, fill="#ffffff", stroke=pal.sea_ink, line_width=1.4)
    if city.capital:
        painter.circle(x, y, CAPITAL_R, fill=fill, stroke="#000000", line_width=0.9)
        painter.symbol("star", x, y, CAPITAL_R * 1.6, ink=ink, paper=fill)
    else:
        painter.circle(x, y, CITY_R, fill=fill, stroke="#000000", line_width=0.8)
    for letter, bx, by in plan.badges.get(name, ()):
        _draw_badge(painter, plan.fonts, letter, bx, by)


def _badges(game_map: MapFile, city) -> list[str]:
    """The badge letters of the marks `city` carries, in the order the map declares its marks."""
    return [mark.badge for name, mark in game_map.marks.items() if mark.badge and city.has_mark(name)]


def _place_badges(game_map: MapFile, at: dict[str, tuple[float, float]]) -> dict[str, list[tuple[str, float, float]]]:
    """Each city's badges (letter, centre): at the lower left of its marker (the spot names take last), or
    at the first other spot round it where they cover no other city's marker, ship or badge; further badges
    of one city in a row outwards."""
    zones = {z.name for z in game_map.sea_zones}
    discs = [(x, y, SHIP_RING if name in zones else _mark_radius(game_map, name)) for name, (x, y) in at.items()]
    placed: dict[str, list[tuple[str, float, float]]] = {}
    for city in game_map.cities:
        letters = _badges(game_map, city)
        if not letters:
            continue
        x, y = at[city.name]
        r = _mark_radius(game_map, city.name)
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
    line = pt_to_mm(label.size) * 1.15
    painter.text(x, rect.y + line * 0.8, label.name, label.font, label.size, anchor=anchor, halo=HALO)
    top = rect.y + line + 0.2
    for tag in label.tags:
        w = text_width(tag, label.font, TAG_SIZE) + 1.6
        left = {Anchor.START: x, Anchor.END: x - w, Anchor.MIDDLE: x - w / 2}[anchor]
        painter.rect(left, top, w, _tag_height(), fill=_tag_fill(plan.game_map, tag, plan.palette))
        painter.text(left + w / 2, top + _tag_height() * 0.74, tag, plan.fonts.bold, TAG_SIZE, colour="#ffffff", anchor=Anchor.MIDDLE)
        top += _tag_height() + 0.4


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
    f, g, font = plan.frame, plan.grid, plan.fonts.bold
    painter.rect(f.x - BORDER, f.y - BORDER, f.width + 2 * BORDER, BORDER, fill="#ffffff")
    painter.rect(f.x - BORDER, f.bottom, f.width + 2 * BORDER, BORDER, fill="#ffffff")
    painter.rect(f.x - BORDER, f.y, BORDER, f.height, fill="#ffffff")
    painter.rect(f.right, f.y, BORDER, f.height, fill="#ffffff")
    painter.rect(f.x, f.y, f.width, f.height, stroke="#000000", line_width=1.2)
    painter.rect(f.x - BORDER, f.y - BORDER, f.width + 2 * BORDER, f.height + 2 * BORDER, stroke="#000000", line_width=0.6)
    baseline = pt_to_mm(GRID_SIZE) * 0.36
    for i in range(g.columns):
        x = f.x + f.width * (i + 0.5) / g.columns
        for y in (f.y - BORDER / 2 + baseline, f.bottom + BORDER / 2 + baseline):
            painter.text(x, y, column_name(i), font, GRID_SIZE, anchor=Anchor.MIDDLE)
    for j in range(g.rows):
        y = f.y + f.height * (j + 0.5) / g.rows + baseline
        for x in (f.x - BORDER / 2, f.right + BORDER / 2):
            painter.text(x, y, str(j + 1), font, GRID_SIZE, anchor=Anchor.MIDDLE)


def _draw_title(painter: Painter, plan: PosterPlan) -> None:
    x, y, fonts = MARGIN, MARGIN, plan.fonts
    painter.text(x, y + pt_to_mm(TITLE_SIZE) * 0.75, plan.game_title, fonts.bold, TITLE_SIZE)
    title_w = text_width(plan.game_title, fonts.bold, TITLE_SIZE)
    sub = plan.game_map.title or ""
    if sub:
        painter.text(x + title_w + 8, y + pt_to_mm(TITLE_SIZE) * 0.75, sub, fonts.regular, SUBTITLE_SIZE)
    if plan.game_map.reconstruction:
        width = plan.width - 2 * MARGIN
        top = y + pt_to_mm(TITLE_SIZE) * 0.75 + 4
        fitted = fit_text([Paragraph("Reconstruction. ", fonts.bold), Paragraph(plan.game_map.reconstruction, fonts.regular, run_in=True)],
                          width, TITLE_BAND - (top - y) - 2, largest=NOTE_SIZE * 1.3, smallest=NOTE_SIZE * 0.8, what="the map's reconstruction note")
        painter.text_block(fitted, x, top, width, anchor=Anchor.START)


def _draw_key(painter: Painter, plan: PosterPlan) -> None:
    """Below the map: the legend and the movement rules; the index of places with their grid squares;
    each sea zone with the zones it sails to and its ports (above any aids set at the foot of the page)."""
    top = plan.frame.bottom + BORDER + 8
    below_map = [y for _, _, y in plan.aids if y > plan.frame.bottom]
    bottom = min(below_map) - AID_GAP if below_map else plan.height - MARGIN
    _draw_legend(painter, plan, Box(MARGIN, top, LEGEND_WIDTH, bottom - top))
    right = Box(MARGIN + LEGEND_WIDTH + 10, top, plan.width - 2 * MARGIN - LEGEND_WIDTH - 10, bottom - top)
    below = _draw_index(painter, plan, right)
    if plan.game_map.sea_zones:
        _draw_sea_zones(painter, plan, Box(right.x, below + 6, right.width, bottom - below - 6))


def _draw_sea_zones(painter: Painter, plan: PosterPlan, area: Box) -> None:
    fonts, ink = plan.fonts, plan.palette.sea_ink
    painter.text(area.x, area.y + pt_to_mm(HEADING_SIZE), "Sea zones", fonts.bold, HEADING_SIZE)
    ports: dict[str, list[str]] = defaultdict(list)
    for city in plan.game_map.cities:
        for zone in city.sea_zones if city.port else ():
            ports[zone].append(city.name)
    entries = [[Paragraph(z.name, fonts.bold, colour=ink, space_before=0.4),
                Paragraph(f"sails to {', '.join(z.adjacent) or 'no other zone'}; ports: {', '.join(ports[z.name]) or 'none'}.",
                          fonts.regular, run_in=True)] for z in plan.game_map.sea_zones]
    columns = SEA_TABLE_COLUMNS
    per_column = -(-len(entries) // columns)
    width = (area.width - (columns - 1) * 8) / columns
    top = area.y + pt_to_mm(HEADING_SIZE) + 3
    for c in range(columns):
        chunk = [p for entry in entries[c * per_column:(c + 1) * per_column] for p in entry]
        if chunk:
            fitted = fit_text(chunk, width, area.bottom - top, largest=INDEX_SIZE, smallest=6.0, what="the poster's sea zone table")
            painter.text_block(fitted, area.x + c * (width + 8), top, width, anchor=Anchor.START)


def _draw_legend(painter: Painter, plan: PosterPlan, area: Box) -> None:
    fonts, pal, m = plan.fonts, plan.palette, plan.game_map
    painter.text(area.x, area.y + pt_to_mm(HEADING_SIZE), "Legend", fonts.bold, HEADING_SIZE)
    row = pt_to_mm(LEGEND_SIZE) * 1.9
    y = area.y + pt_to_mm(HEADING_SIZE) + row
    sx, tx = area.x + 8, area.x + 20

    def entry(text: str) -> None:
        nonlocal y
        painter.text(tx, y + pt_to_mm(LEGEND_SIZE) * 0.36, text, fonts.regular, LEGEND_SIZE)
        y += row

    used = {c.power for c in m.cities}
    for power, colour in pal.powers.items():
        if power in used:
            painter.rect(sx - 6, y - 3, 12, 6, fill=pal.shade(power), stroke=mix(colour, "#000000", 0.75), line_width=POWER_EDGE)
            painter.circle(sx, y, CITY_R, fill=colour, stroke="#000000", line_width=0.8)
            entry(f"{plan.factions.get(power, power)}: home territory and its cities")
    painter.rect(sx - 6, y - 3, 12, 6, fill=pal.land, stroke=pal.border, line_width=COUNTRY_EDGE)
    painter.circle(sx, y, CITY_R, fill="#ffffff", stroke="#000000", line_width=0.8)
    entry("Neutral country and city")
    painter.rect(sx - 6, y - 3, 12, 6, fill=pal.sea, stroke=pal.sea_ink, line_width=COUNTRY_EDGE)
    painter.line(sx - 6, y, sx + 6, y, stroke=pal.sea_ink, line_width=ZONE_EDGE, dash=ZONE_DASH)
    entry("Sea, and the border between two sea zones")
    painter.circle(sx, y, CAPITAL_R, fill="#ffffff", stroke="#000000", line_width=0.9)
    painter.symbol("star", sx, y, CAPITAL_R * 1.6)
    entry("Capital")
    painter.circle(sx, y, CITY_R + PORT_RING, fill="#ffffff", stroke=pal.sea_ink, line_width=1.4)
    painter.circle(sx, y, CITY_R, fill="#ffffff", stroke="#000000", line_width=0.8)
    entry("Port: sails to the ship of each sea zone it touches")
    for name, mark in m.marks.items():
        if not any(c.has_mark(name) for c in m.cities):
            continue
        if mark.badge:
            _draw_badge(painter, fonts, mark.badge, sx, y)
        else:
            w = text_width(mark.tag, fonts.bold, TAG_SIZE) + 1.6
            painter.rect(sx - w / 2, y - _tag_height() / 2, w, _tag_height(), fill=_tag_fill(m, mark.tag, pal))
            painter.text(sx, y + _tag_height() * 0.24, mark.tag, fonts.bold, TAG_SIZE, colour="#ffffff", anchor=Anchor.MIDDLE)
        entry(mark.legend)
    for kind, colour, width, dash in (("rail", pal.rail, RAIL, None), ("air", pal.air, AIR, AIR_DASH)):
        if any(r.kind == kind for r in m.routes):
            painter.line(sx - 7, y, sx + 7, y, stroke=colour, line_width=width, dash=dash)
            entry(f"{kind.capitalize()} line")
    if m.sea_zones:
        painter.symbol("ship", sx, y, SHIP * 0.8, ink=pal.sea_ink, paper=pal.sea)
        entry("Sea zone (its ship symbol)")
        painter.line(sx - 7, y, sx + 7, y, stroke=pal.sea_ink, line_width=LANE, dash=LANE_DASH)
        entry("Sea lane: port to ship, ship to ship")
    rules = m.rules
    y += row * 0.3
    painter.text(area.x, y, "Moving", fonts.bold, HEADING_SIZE)
    ends = " or ".join({"city": "a city", "sea": "a sea zone"}[k] for k in rules.move_ends_in)
    text = (f"Each city or sea zone entered is one space; at most {rules.spaces_per_turn} spaces a turn, "
            f"by any mix of rail, air and sea; a move ends in {ends}.")
    cite = rules.cite.get("spaces_per_turn")
    paragraphs = [Paragraph(text, fonts.regular)] + ([Paragraph(f"({cite.split(':')[0]})", fonts.regular, scale=0.85, run_in=True)] if cite else [])
    fitted = fit_text(paragraphs, area.width, area.bottom - y, largest=LEGEND_SIZE, smallest=7, what="the poster's movement note")
    painter.text_block(fitted, area.x, y + 2, area.width, anchor=Anchor.START)


def _draw_index(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """Every place with its grid square, in columns; returns where the index ends."""
    fonts = plan.fonts
    painter.text(area.x, area.y + pt_to_mm(HEADING_SIZE), "Index of places", fonts.bold, HEADING_SIZE)
    zones = {z.name for z in plan.game_map.sea_zones}
    names = sorted((n for n in plan.at), key=str.casefold)
    line = pt_to_mm(INDEX_SIZE) * 1.35
    top = area.y + pt_to_mm(HEADING_SIZE) + 4
    columns = max(1, int(area.width // INDEX_COLUMN))
    per_column = -(-len(names) // columns)
    bottom = top + per_column * line
    col_w = area.width / columns
    for i, name in enumerate(names):
        col, row = divmod(i, per_column)
        x, y = area.x + col * col_w, top + (row + 0.8) * line
        sea = name in zones
        painter.text(x, y, name, fonts.regular, INDEX_SIZE, colour=plan.palette.sea_ink if sea else "#000000")
        painter.text(x + col_w - 8, y, plan.grid.ref(*plan.at[name]), fonts.bold, INDEX_SIZE, anchor=Anchor.END)
    return bottom


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
