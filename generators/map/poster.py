"""The map poster: a game's map on one large page (map.pdf, the layout's 22 x 34 inch poster paper, for
a print shop), the same page tiled over home-printer paper (map-tiles.pdf, see poster_sheets.py), and SVG.

This module plans it: `plan_poster` works out, once, where everything goes (places spaced and the
drawing warped with them, spaces.py; land shaded per power and shaped from the cities, territories.py;
sea zones and the lanes joining their ships; each city's marks; the map's aids; names set clear of each
other, label_placement.py; the lettered grid and the key's room). poster_drawing.py draws that plan on
any backend; poster_sheets.py composes the whole page and its tiles.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
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
from ..printing.painter import Drawing
from ..printing.recording import Recording
from .aid_placement import place_aids
from .aids import Ink, Laid, kept_whole, lay_out
from .label_placement import LABEL_GAP, LabelRequest, PlacedLabel, place_labels
from .land import read_geography, union_of
from .poster_drawing import column_name, draw_poster, mix, recorded_key
from .sea_zones import borders_between, map_sea_zones
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

# The poster's sizes, line widths and dashes are the layout's (`poster:`, see layouts/default.yaml); these
# are the proportions of the plan that follow from them, and how land is shaped round the cities.
REACH = 1.2  # land reaches this many typical city spacings beyond a country's cities
PORT_TO_SEA = 0.6  # how far out from a port towards its ship the sea is sure to be
AREA_KEY = "area:"  # a map region's label: its key among the placed labels
AREA_PIECE = "#"  # the label of a further piece of a map region's land: "area:NAME#2"
COUNTRY_KEY = "country:"  # a country's name: its key among the placed labels
# Where a city's badge may sit, as (x, y) directions from its centre (y down), in the order tried: on the
# rim at the sides, where a counter on the space leaves it visible, then the corners outside the rim.
BADGE_SPOTS = ((-1.15, 0), (1.15, 0), (0, 1.15), (0, -1.15), (-1, 1), (1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True)
class Palette:
    """The poster's colours, from the layout: each power's own, and the map's sea (its fill, ink and rules), land
    and lines."""

    sea: str
    sea_ink: str
    sea_rule: str
    land: str
    border: str
    rail: str
    air: str
    powers: dict[str, str]
    power_inks: dict[str, str]
    areas: dict[str, str] = field(default_factory=dict)  # map region name -> its colour, where it declares one
    lands: dict[str, str] = field(default_factory=dict)  # power -> its land's own fill, where the layout names one
    tint: float = 0.6  # share of a power's or region's colour in its land's fill (the layout's poster.tint)

    @classmethod
    def from_layout(cls, layout: "Layout", powers: list[str], game_map: MapFile | None = None) -> "Palette":
        sea, land = layout.colour("map-sea"), layout.colour("map-land")
        areas = {r.name: r.colour if r.colour.startswith("#") else layout.colour(r.colour).fill
                 for r in (game_map.regions if game_map else []) if r.colour}
        return cls(sea=sea.fill, sea_ink=sea.ink, sea_rule=layout.colour("map-sea-rule").fill, land=land.fill, border=land.ink,
                   rail=layout.colour("map-rail").fill, air=layout.colour("map-air").fill,
                   powers={p: layout.colour(p).fill for p in powers}, power_inks={p: layout.colour(p).ink for p in powers},
                   areas=areas, lands={p: layout.colours[f"map-{p}"].fill for p in powers if f"map-{p}" in layout.colours},
                   tint=layout.poster.tint)

    def shade(self, power: str | None, area: str | None = None) -> str:
        """The fill of land: the power's land colour (`map-<power>` in the layout), else the power's colour lightened,
        else its map region's, else the neutral land colour."""
        if power in self.lands:
            return self.lands[power]
        if power in self.powers:
            return mix(self.powers[power], "#ffffff", self.tint)
        return mix(self.areas[area], "#ffffff", self.tint) if area in self.areas else self.land



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



@dataclass(frozen=True)
class CityLabel:
    """A city's label: its name, and the tags of its marks set below it."""

    name: str
    font: str
    size: float
    tags: tuple[str, ...]
    tag_size: float
    tag_pad: float  # paper beside a tag's text, both sides together
    line: float  # the name's line, as a share of its size: room for the tags below it
    number: int | None = None  # the city's face of the city die, printed before its name

    @property
    def text(self) -> str:
        return f"{self.number} · {self.name}" if self.number is not None else self.name

    @property
    def tag_height(self) -> float:
        return pt_to_mm(self.tag_size) * 1.5

    def tag_width(self, tag: str) -> float:
        return text_width(tag, self.font, self.tag_size) + self.tag_pad

    def size_mm(self) -> tuple[float, float]:
        widths = [text_width(self.text, self.font, self.size)] + [self.tag_width(t) for t in self.tags]
        return max(widths), pt_to_mm(self.size) * self.line + len(self.tags) * (self.tag_height + 0.4)


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
    country_labels: dict[str, str] = field(default_factory=dict)  # placed label key -> the country's name as printed
    sea_zones: dict[str, BaseGeometry] = field(default_factory=dict)  # each sea zone's water (sea_zones.py)
    key_drawing: Recording | None = None  # the key (legend, sea zones, index) as drawn when planned: a list with no room is refused then

    def radius(self, name: str) -> float:
        """The radius (mm) of the mark drawn for place `name`: a city's space (with a port's ring), or a sea zone's ship."""
        if name not in self.city_labels:
            return self.style.ship / 2
        return self.style.space / 2 + (self.style.port_ring if self.game_map.city(name).port else 0.0)


def plan_poster(game: "Game", settings: "PrintSettings", fonts: FontSet) -> PosterPlan:
    """The poster laid out: page, frame, places (spaced and the drawing warped with them, spaces.py), land
    and sea zones, the map's aids, grid, key and where each name goes."""
    layout = settings.layout
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
    sea = Water(frame, land)
    zones, zone_edges, lanes = _waters(game_map, places, land, box, sea, st)

    labels = {}
    for city in game_map.cities:
        tags = tuple(mark.tag for name, mark in game_map.marks.items() if mark.tag and city.has_mark(name))
        labels[city.name] = CityLabel(city.name, fonts.bold if city.capital else fonts.regular,
                                      st.capital_size if city.capital else st.city_size, tags, st.tag_size, st.tag_pad,
                                      st.name_line,
                                      city.number if game_map.dice is not None else None)
    badges = _place_badges(game_map, at, st)
    marks = _mark_boxes(game_map, at, badges, st)
    lines = _route_lines(game_map, at) + lanes
    aids = _place_map_aids(game, layout, fonts, project, sea, marks, lines, key, frame)
    badge_boxes = [Box(bx - st.badge / 2, by - st.badge / 2, st.badge, st.badge) for spots in badges.values() for _, bx, by in spots]
    lands = _lands(regions) if game_map.regions or st.country_size else None
    areas = _area_labels(game_map, at, lands) if game_map.regions else {}
    countries = _country_labels(game_map, lands) if st.country_size else {}
    placed = _place_names(game_map, at, frame, labels, fonts, badge_boxes + [Box(x, y, laid.width, laid.height) for laid, x, y in aids],
                          lines, st, areas, lands, places.shipped, countries, _foreign_lands(regions, game_map))
    countries = {key: text for key, text in countries.items() if key in placed}
    fills, edges = _land_drawing(regions, palette)
    plan = PosterPlan(st, width, height, game.info.title, game_map, {f.id: f.name for f in game.info.factions}, frame, grid,
                      at, badges, marks, regions, fills, edges, zone_edges, lanes, aids, credit,
                      sheet_advice(st.paper, (width, height)), labels, placed, palette, fonts, key,
                      game.file("map.yaml"), areas, countries, zones)
    return replace(plan, key_drawing=recorded_key(plan))


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


WATERS = "poster-waters"  # the game_cache part holding the sea zones' regions, their borders and the sea lanes


def _waters(game_map: MapFile, places, land: BaseGeometry, box: Polygon, sea: Water, st: PosterStyle):
    """Each sea zone's water, the borders between zones and the sea lanes; kept on disk beside the places they
    are worked out from (under the same key: the code, the map, the layout and the geography)."""
    import base64

    import shapely

    from ..core.game_cache import keep

    kept = places.kept(WATERS)
    try:
        zones = {name: shapely.from_wkb(base64.b64decode(shape)) for name, shape in kept["zones"].items()}
        return zones, [[tuple(p) for p in edge] for edge in kept["edges"]], [[tuple(p) for p in lane] for lane in kept["lanes"]]
    except (KeyError, TypeError, ValueError, AttributeError, shapely.errors.GEOSException):
        pass
    zones = map_sea_zones(game_map, places.at, places.project, box.difference(land), st.space / 2 + st.port_water)
    edges = borders_between(zones, land)
    lanes = route_lanes(sea, _lanes(game_map, places.at))
    keep(places.key, WATERS, {"zones": {name: base64.b64encode(shapely.to_wkb(shape)).decode() for name, shape in zones.items()},
                              "edges": edges, "lanes": lanes}, places.design)
    return zones, edges, lanes


def _mark_boxes(game_map: MapFile, at: dict[str, tuple[float, float]], badges: dict[str, list[tuple[str, float, float]]],
                st: PosterStyle) -> list[Box]:
    """The squares every city's space, badge and ship covers: nothing else may sit on them."""
    boxes = []
    for city in game_map.cities:
        r = st.space / 2 + (st.port_ring if city.port else 0.0)
        x, y = at[city.name]
        boxes.append(Box(x - r, y - r, 2 * r, 2 * r))
        boxes += [Box(bx - st.badge / 2, by - st.badge / 2, st.badge, st.badge) for _, bx, by in badges.get(city.name, ())]
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
    ink = Ink.of(game, layout, fonts).at(st.aid_type)
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
    placed = [(item, *_on_grid(spot, st.aid_grid)) for item, spot in zip(laid, spots) if spot is not None]
    placed = _lined_up(placed, marks, lines, frame, st.aid_gap, st.aid_align)
    margin = [item for item, spot in zip(laid, spots) if spot is None]
    return placed + _foot_of_key(margin, key, st, file, game_map.aids)


def _on_grid(spot: tuple[float, float], grid: float) -> tuple[float, float]:
    """An aid's corner on the poster's layout grid (`grid` mm), so that aids beside each other line up."""
    return round(spot[0] / grid) * grid, round(spot[1] / grid) * grid


def _lined_up(placed: list, marks: list[Box], lines: list, frame: Box, gap: float, align: float) -> list:
    """`placed` aids (laid, x, y) where an edge of one nearly meets the same edge of another (left, right, top
    or bottom, within `align` mm) moved so that they meet exactly, the one or else the other, where the move keeps
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
                    if not 1e-6 < abs(u - v) <= align:
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


def _area_labels(game_map: MapFile, at: dict[str, tuple[float, float]], lands: dict | None) -> dict[str, str]:
    """Each map region's label, keyed apart from the places' names: its number on the region die and its name;
    a region whose land lies in pieces apart, each holding some of its cities, is labelled on each piece
    (_land_pieces: the largest first, the others keyed NAME#2, NAME#3...)."""
    found = {}
    for r in game_map.regions:
        text = f"{r.number} · {r.name}" if r.number is not None else r.name
        found[f"{AREA_KEY}{r.name}"] = text
        pieces = _land_pieces(game_map, at, r.name, (lands or {}).get(r.name))
        found.update({f"{AREA_KEY}{r.name}{AREA_PIECE}{k}": text for k in range(2, len(pieces) + 1)})
    return found


def _country_labels(game_map: MapFile, lands: dict | None) -> dict[str, str]:
    """Each country holding a city, keyed apart from the places' names, and its name as printed: in capitals,
    without what its status adds in brackets ("Algeria (French)": ALGERIA), as the land's colour says whose it is."""
    names = sorted({c.country for c in game_map.cities if c.country and c.country in (lands or {})})
    return {f"{COUNTRY_KEY}{name}": name.split(" (")[0].upper() for name in names}


def _land_pieces(game_map: MapFile, at: dict[str, tuple[float, float]], region: str, land) -> list:
    """The pieces of a region's `land` that hold any of its cities, the largest first."""
    if land is None or land.is_empty:
        return []
    cities = [Point(at[c.name]) for c in game_map.cities if c.region == region and c.name in at]
    return sorted((poly for poly in polygons(land) if any(poly.contains(p) for p in cities)), key=lambda poly: -poly.area)


def _place_names(game_map: MapFile, at: dict[str, tuple[float, float]], frame: Box, labels: dict[str, CityLabel],
                 fonts: FontSet, obstacles: list[Box], lines: list, st: PosterStyle,
                 areas: dict[str, str] | None = None, lands: dict | None = None, shipped: dict | None = None,
                 countries: dict[str, str] | None = None, foreign: dict | None = None) -> dict[str, PlacedLabel]:
    """Where each sea zone's and city's name goes: sea zones first, then capitals, then the most crowded cities,
    each rather off the land of another power than its own (`foreign`: a city's power, or None -> that land);
    then each map region's name, near the middle of its cities on its own land (`lands`: region -> its shape);
    then each country's (`countries`), on its own land, clear of them and of every mark, left off where it finds no room.
    `shipped`: what the game ships worked out (core.shipped)."""
    near = _crowding(at, [c.name for c in game_map.cities])
    requests = []
    for zone in game_map.sea_zones:
        if zone.name in at:
            requests.append(LabelRequest(zone.name, at[zone.name], text_width(zone.name, fonts.regular, st.sea_size),
                                         pt_to_mm(st.sea_size) * 1.2, st.ship / 2, area=True))
    order = sorted(game_map.cities, key=lambda c: (not c.capital, -near[c.name], c.name))
    for city in order:
        w, h = labels[city.name].size_mm()
        requests.append(LabelRequest(city.name, at[city.name], w, h, st.space / 2 + (st.port_ring if city.port else 0.0),
                                     avoid=(foreign or {}).get(city.power)))
    for key, text in (areas or {}).items():
        region, _, piece = key[len(AREA_KEY):].partition(AREA_PIECE)
        members = [at[c.name] for c in game_map.cities if c.region == region and c.name in at]
        land = (lands or {}).get(region)
        if piece:  # a further piece of the region's land: its own cities' middle on it
            land = _land_pieces(game_map, at, region, land)[int(piece) - 1]
            members = [m for m in members if land.contains(Point(m))]
        if members:
            middle = _middle_on_land(members, land)
            requests.append(LabelRequest(key, middle, text_width(text, fonts.bold, st.region_size), pt_to_mm(st.region_size) * 1.2,
                                         0.5, area=True, within=None if land is None else land.buffer(-st.region_inset)))
    inside = Box(frame.x + 1, frame.y + 1, frame.width - 2, frame.height - 2)
    placed = {p.key: p for p in _placed_labels(requests, inside, obstacles, lines, shipped or {})}
    if not countries:
        return placed
    # the countries' names go where the places' names and marks leave room, moving none of them
    gap = LABEL_GAP
    taken = obstacles + [Box(p.rect.x - gap, p.rect.y - gap, p.rect.width + 2 * gap, p.rect.height + 2 * gap) for p in placed.values()]
    taken += [Box(r.at[0] - r.mark, r.at[1] - r.mark, 2 * r.mark, 2 * r.mark) for r in requests]
    marks = {r.key: r for r in requests}
    for p in placed.values():  # a leader line, as the squares along it, so no country's name crosses it
        if p.far:
            (x0, y0), (x1, y1) = p.leader(marks[p.key].at, marks[p.key].mark)
            steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / gap))
            taken += [Box(x0 + (x1 - x0) * k / steps - gap / 2, y0 + (y1 - y0) * k / steps - gap / 2, gap, gap) for k in range(steps + 1)]
    named = []
    for key, text in countries.items():
        land = lands[key[len(COUNTRY_KEY):]]
        members = [at[c.name] for c in game_map.cities if c.country == key[len(COUNTRY_KEY):] and c.name in at]
        if members:
            named.append(LabelRequest(key, _middle_on_land(members, land), text_width(text, fonts.regular, st.country_size),
                                      pt_to_mm(st.country_size) * 1.2, 0.5, area=True, within=land.buffer(-st.region_inset)))
    found = _placed_labels(named, inside, taken, lines, shipped or {}, COUNTRY_LABELS)
    return placed | {p.key: p for p in found if not p.overlaps}  # haloed, a country's name may cross a line


LABELS = "poster-labels"  # the game_cache part holding where the names went
COUNTRY_LABELS = "poster-country-labels"  # ...and where the countries' names went, around them


def _placed_labels(requests: list[LabelRequest], inside: Box, obstacles: list[Box], lines: list, shipped: dict,
                   part: str = LABELS) -> list[PlacedLabel]:
    """place_labels(...), kept on disk under the code and these very inputs (game_cache.inputs_key), or shipped
    with the game under their design key; what is kept is read back and compared before it is, so only what reads
    back exactly is."""
    from ..core.game_cache import DESIGN, as_plain, from_plain, inputs_key, keep
    from ..core.shipped import recalled

    key = inputs_key(part, requests, inside, obstacles, lines)
    design = inputs_key(part, requests, inside, obstacles, lines, code=DESIGN)
    types = {"PlacedLabel": PlacedLabel, "Box": Box}
    kept = recalled(key, design, shipped, part)
    if kept is not None:
        try:
            placed = from_plain(kept, types)
            if isinstance(placed, list) and len(placed) == len(requests) and all(type(p) is PlacedLabel for p in placed):
                return placed
        except ValueError:
            pass
    placed = place_labels(requests, inside, obstacles, lines)
    try:
        plain = as_plain(placed)
        if from_plain(plain, types) == placed:
            keep(key, part, plain, design)
    except ValueError:
        pass
    return placed


def _foreign_lands(regions: list[Region], game_map: MapFile) -> dict[str | None, BaseGeometry]:
    """For each power holding a city (None: a neutral city), the land of every other power: a name set there
    reads as that power's city."""
    held = {r.power for r in regions if r.power is not None}
    found = {power: [r.shape for r in regions if r.power in held - {power}] for power in held | {c.power for c in game_map.cities}}
    return {power: union_of(shapes) for power, shapes in found.items() if shapes}


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


def _badges(game_map: MapFile, city) -> list[str]:
    """The badges on `city`'s rim: its face of the city die, where the map has dice (read beside the counters on
    it), then the letters of the marks it carries, in the order the map declares its marks."""
    number = [str(city.number)] if city.number is not None else []
    return number + [mark.badge for name, mark in game_map.marks.items() if mark.badge and city.has_mark(name)]


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
        r, badge = st.space / 2, st.badge / 2
        own = (x, y, r)
        taken = [d for d in discs if d != own] + [(bx, by, badge) for spots in placed.values() for _, bx, by in spots]
        options = []
        for dx, dy in BADGE_SPOTS:
            row = [(x + dx * r * 0.8 + (-1 if dx <= 0 else 1) * i * 2.2 * badge, y + dy * r * 0.8) for i in range(len(letters))]
            clear = all((bx - tx) ** 2 + (by - ty) ** 2 >= (badge + tr + 0.2) ** 2 for bx, by in row for tx, ty, tr in taken)
            options.append((not clear, row))
        row = min(options, key=lambda o: o[0])[1]
        placed[city.name] = [(letter, bx, by) for letter, (bx, by) in zip(letters, row)]
    return placed


# --- the product -----------------------------------------------------------------------------

def build_map(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """map.pdf (one poster page), map-tiles.pdf (the poster over the chosen paper) and, asked for, SVG and PNG."""
    if game.map is None:
        return []
    fonts = register_fonts(settings.layout.fonts, game.folder)
    plan = plan_poster(game, settings, fonts)
    title = f"{game.info.title} map"
    page = Drawing(plan.width, plan.height, partial(draw_poster, plan=plan), key=title)
    return whole_and_tiled(settings.game_dir(game), "map", page, plan.advice, fonts, settings, title,
                           avoid=poster_boxes(plan))


def poster_boxes(plan: PosterPlan) -> list[Box]:
    """What a seam between tiled sheets should not cut (page mm): each place's space or ship, and the aids' boxes
    (kept_whole)."""
    marks = [Box(x - plan.radius(name), y - plan.radius(name), 2 * plan.radius(name), 2 * plan.radius(name))
             for name, (x, y) in plan.at.items()]
    return marks + kept_whole(plan.aids)
