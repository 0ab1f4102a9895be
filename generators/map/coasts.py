"""Spaces set right by the coast after the warp: a port's space stands on its own country's land with its
rim reaching the sea, an inland city's space stands clear of the sea. The warp moves land and cities
together, but a narrow cape or a small island (Cyprus, say) can be thinner than a space; such a city is
slid a little over its land, never further than NUDGE_MAX, never off its own country's land, never nearer
another space than the gap the map asks for; a space a rail or air line it does not end passes too
closely is slid off it too. A city that fits nowhere within that reach goes where it fits best.

Where the land itself is too small, the land is drawn larger, locally, as mapmakers enlarge an island
too small to show at the map's scale: a port's island smaller than its space (Malta, Rhodes) is scaled up
about its middle and joined with the ground under the space (`islands_enlarged`, before the slide), and an
inland space the coast still touches after the slide (a capital a few miles from the sea) has the coast
pushed back round it (`coast_kept_off`, after the slide), and a port the slide could not bring to open
water has an inlet cut to it (`sea_brought_to_ports`). None touches another country's land.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import shapely
from shapely.geometry.base import BaseGeometry

from ..core.map_models import MapFile

XY = tuple[float, float]

NUDGE_MAX = 10.0  # mm: the furthest a space is slid over its land
NUDGE_STEP = 0.5  # mm between the rings of places tried
BEARINGS = 32  # places tried on each ring
PORT_FOOTING = 1.5  # mm: a port's centre stands at least this far inside its land...
PORT_REACH = 1.0  # ...and its rim reaches at least this far past the coast, onto the sea...
OPEN_WATER = 1.0  # ...where the sea is at least twice this wide (a creek narrower holds no sea zone)
INLET = 4.0  # mm: the width of an inlet cut to a port the slide could not bring to the sea
INLAND_CLEARANCE = 0.5  # mm between an inland space's rim and the sea
LINE_CLEARANCE = 1.0  # mm between a slid space and a line it does not end
ISLAND_TRIGGER = 0.5  # an island is enlarged where less than this of its port's space stands on land...
ISLAND_SMALL = 1.0  # ...and the island is smaller than this share of the space (Cyprus at this scale)
ISLAND_AREA = 1.5  # times a space's area an island too small for its port is drawn
ISLAND_MOST = 3.0  # times across an island is enlarged at most
ISLAND_RIM = 1.5  # mm of a port's space left over the sea round an enlarged island's ground
ISLAND_STRAIT = 1.0  # mm of sea kept between an enlarged island and any other land
PASSES = 4  # times the cities are gone through
OFF_LAND = 1000.0  # what a centre off its own land weighs: before all else a space stands on its country
LINE_WEIGHT = 10.0  # a mm of line too near a space weighs as this many of misfit to the coast: lines come first
BETTER = 0.25  # mm: a space is slid only where it fits this much better (or fits), the best fit in reach where none fits


def _misfit(depth, port: bool, radius: float, offshore=None):
    """How far (mm) a centre `depth` mm inside its land (negative at sea) is from suiting a port or an inland space;
    a port's rim reaches open water, `offshore` mm from its centre (not a creek too narrow to hold its sea zone)."""
    import numpy as np

    if port:
        return np.maximum(PORT_FOOTING - depth, 0.0) + np.maximum(offshore - (radius - PORT_REACH), 0.0)
    return np.maximum(radius + INLAND_CLEARANCE - depth, 0.0)


def _depths(points, own: BaseGeometry, coast: BaseGeometry):
    """How far inside `own` land each point is from the coast (mm); at sea or on another country's land, minus
    its distance from its own land."""
    import numpy as np

    inside = shapely.contains_xy(own, *np.asarray(shapely.get_coordinates(points)).T)
    return np.where(inside, shapely.distance(coast, points), -shapely.distance(own, points))


def fitted_to_coasts(game_map: MapFile, at: dict[str, XY], radius: float, gap: float,
                     countries: dict[str, BaseGeometry], land: BaseGeometry,
                     zones: dict[str, BaseGeometry] | None = None, claim: float = 0.0) -> dict[str, XY]:
    """`at` with each city's space slid, where it needs to and can, onto land that suits it (see the module's
    docstring): `countries` are each country's land and `land` all of it (its outline is the coast: lakes
    count as sea), in the same page mm as `at`. A port's rim reaches its own sea zones' water where `zones` gives
    it (each zone's water, see sea_zones.py), and comes no nearer than it was to another zone's water within `claim` mm
    (how far a port's own zone reaches round it): a port slid there would join the two zones. A space a line it does not end passes too closely (or whose own
    lines pass another space) is slid off it as well: each place tried is scored by how far it is from suiting
    its coast plus (weighing far more) how far lines come within reach of it, and the space goes to the best, the nearest of equals.
    The cities are gone through PASSES times: a space slid may free the way for one gone through before it."""
    import numpy as np

    at = dict(at)
    coast_all = land.boundary
    routes = [(r.from_, r.to) for r in game_map.routes if r.from_ in at and r.to in at]
    rings = np.arange(NUDGE_STEP, NUDGE_MAX + 1e-9, NUDGE_STEP)
    angles = np.linspace(0, 2 * np.pi, BEARINGS, endpoint=False)
    offsets = np.concatenate([[[0.0, 0.0]], (rings[:, None, None] * np.stack([np.cos(angles), np.sin(angles)], -1)[None]).reshape(-1, 2)])
    kept = {}  # each port's open water near it, with where it was worked out for
    for _ in range(PASSES):
        for city in game_map.cities:
            if city.name not in at or city.country not in countries:
                continue
            x, y = at[city.name]
            window = shapely.box(x - NUDGE_MAX - 3 * radius, y - NUDGE_MAX - 3 * radius, x + NUDGE_MAX + 3 * radius, y + NUDGE_MAX + 3 * radius)
            own = countries[city.country].intersection(window)
            coast = coast_all.intersection(window)

            if city.port and not coast.is_empty and kept.get(city.name, (None,))[0] != (x, y):  # worked out again only once it moved
                kept[city.name] = ((x, y), _port_water(city, window, land, zones))
            near_sea = kept[city.name][1] if city.port and not coast.is_empty else None

            def misfit(points):
                if coast.is_empty:  # no sea near: it fits the coast wherever it is on its land
                    return np.where(shapely.contains_xy(own, points[:, 0], points[:, 1]), 0.0, OFF_LAND)
                points = shapely.points(points)
                offshore = shapely.distance(near_sea, points) if city.port else None
                depth = _depths(points, own, coast)
                return _misfit(depth, bool(city.port), radius, offshore) + np.where(depth > 0, 0.0, OFF_LAND)  # its centre on its own land first

            here = np.array([[x, y]])
            staying = misfit(here)[0]
            lines_here = _line_shortfall(city.name, here, at, routes, radius)[0]
            if staying <= BETTER and lines_here == 0.0:
                continue  # it fits where it is
            tried = here + offsets
            cost = misfit(tried)
            cost[0] = max(staying - BETTER, 0.0) + LINE_WEIGHT * lines_here  # staying put is as good as a slide fitting a little better
            others = np.array([at[n] for n in at if n != city.name], dtype=float)  # other spaces and the ships
            apart = np.hypot(*(tried[:, None, :] - others[None, :, :]).transpose(2, 0, 1)).min(axis=1)
            cost[apart < 2 * radius + gap] = np.inf
            if city.port and zones and claim:
                wide = shapely.box(*(np.array(window.bounds) + [-claim, -claim, claim, claim]))
                foreign = shapely.union_all([zones[z].intersection(wide) for z in zones if z not in city.sea_zones
                                             and shapely.intersects(shapely.envelope(zones[z]), wide)])
                if not foreign.is_empty:
                    nearness = np.maximum(claim - shapely.distance(foreign, shapely.points(tried)), 0.0)
                    cost += LINE_WEIGHT * np.maximum(nearness - nearness[0], 0.0)
            hopeful = np.flatnonzero(cost < cost[0])  # lines only add to a place's cost: those already worse are not measured
            hopeful = hopeful[hopeful > 0]
            cost[hopeful] += LINE_WEIGHT * _line_shortfall(city.name, tried[hopeful], at, routes, radius)
            best = int(np.argmin(cost))  # the first of equals: the nearest
            if cost[best] < cost[0] - 1e-6:
                at[city.name] = (float(tried[best, 0]), float(tried[best, 1]))
    return at


def _port_water(city, window: BaseGeometry, land: BaseGeometry, zones: dict[str, BaseGeometry] | None) -> BaseGeometry:
    """The open water within `window` the port `city`'s rim should reach: its own sea zones' where `zones` gives
    them, else all the sea's; less creeks narrower than twice OPEN_WATER."""
    own = [zones[z].intersection(window) for z in city.sea_zones if z in zones] if zones else []
    water = shapely.union_all(own) if own else window.difference(land)
    return water.buffer(-OPEN_WATER).buffer(OPEN_WATER)


def _segment_distances(a, b, points):
    """Distances (lines x points) from segments a-b (n x 2 arrays) to points (m x 2)."""
    import numpy as np

    ab = b - a
    length2 = np.maximum((ab ** 2).sum(1), 1e-9)
    t = np.clip(((points[None, :, :] - a[:, None, :]) * ab[:, None, :]).sum(2) / length2[:, None], 0.0, 1.0)
    nearest = a[:, None, :] + t[..., None] * ab[:, None, :]
    return np.hypot(*(points[None, :, :] - nearest).transpose(2, 0, 1))


def _line_shortfall(name: str, tos, at: dict[str, XY], routes: Sequence[tuple[str, str]], radius: float):
    """For each place in `tos` (k x 2), how far (mm, summed over the lines) the space `name` moved there comes
    within LINE_CLEARANCE of the lines it does not end, and its own lines within it of every other space: 0
    where it keeps clear. Only what the move changes is measured: the moved space against the other lines, and
    its own lines against the other spaces."""
    import numpy as np

    reach = radius + LINE_CLEARANCE
    tos = np.asarray(tos, dtype=float).reshape(-1, 2)
    short = np.zeros(len(tos))
    others = [(a, b) for a, b in routes if name not in (a, b)]
    if others:
        a = np.array([at[x] for x, _ in others], dtype=float)
        b = np.array([at[y] for _, y in others], dtype=float)
        short += np.maximum(reach - _segment_distances(a, b, tos), 0.0).sum(axis=0)
    ends = [b if a == name else a for a, b in routes if name in (a, b)]
    if ends:
        spaces = [n for n in at if n != name]
        xy = np.array([at[n] for n in spaces], dtype=float)
        far = np.array([at[e] for e in ends], dtype=float)
        starts = np.repeat(tos, len(ends), axis=0)  # every place tried, with each of its lines
        distance = _segment_distances(starts, np.tile(far, (len(tos), 1)), xy)
        distance[np.arange(len(starts)), np.tile([spaces.index(e) for e in ends], len(tos))] = np.inf
        short += np.maximum(reach - distance, 0.0).sum(axis=1).reshape(len(tos), len(ends)).sum(axis=1)
    return short


class _Pieces:
    """Each country's polygons in one spatial index, so that the land near a place is found without
    measuring the whole map's coast for every city."""

    def __init__(self, countries: dict[str, BaseGeometry]):
        from .territories import polygons

        self.owners = [name for name, shape in countries.items() for _ in polygons(shape)]
        self.shapes = [piece for shape in countries.values() for piece in polygons(shape)]
        self.tree = shapely.STRtree(self.shapes)

    def near(self, area: BaseGeometry, besides: str | None = None) -> BaseGeometry:
        """The land whose pieces' boxes meet `area`'s, less the country `besides` when it is named."""
        found = [self.shapes[i] for i in sorted(self.tree.query(area).tolist()) if self.owners[i] != besides]
        return shapely.union_all(found) if found else shapely.Polygon()


def islands_enlarged(game_map: MapFile, at: dict[str, XY], radius: float,
                     countries: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """`countries` with each island too small for the port on it (under ISLAND_TRIGGER of its space on land, the island
    under ISLAND_SMALL of the space and touching no other land) drawn larger: scaled about its own middle to ISLAND_AREA
    times the space's area (at most ISLAND_MOST times across), joined with the ground under the space but its
    rim, and kept ISLAND_STRAIT clear of all other land and of every other place's mark."""
    import numpy as np
    from shapely import affinity

    from .territories import polygons

    countries = dict(countries)
    pieces = _Pieces(countries)
    places = shapely.points([at[n] for n in at])
    names = list(at)
    for city in game_map.cities:
        own = countries.get(city.country)
        if not city.port or city.name not in at or own is None:
            continue
        centre = shapely.Point(at[city.name])
        space = centre.buffer(radius)
        if space.intersection(pieces.near(space)).area / space.area >= ISLAND_TRIGGER:
            continue
        parts = polygons(own)
        island = parts[int(np.argmin(shapely.distance(parts, centre)))]  # its islets stay as they are
        if island.area >= space.area * ISLAND_SMALL or island.distance(pieces.near(island.buffer(0.05), city.country)) < 0.05:
            continue  # not a small island (or one joined to other land): the slide over its land does what can be done
        scale = min(ISLAND_MOST, (ISLAND_AREA * space.area / max(island.area, 1e-6)) ** 0.5)
        grown = affinity.scale(island, scale, scale, origin=island.centroid).union(centre.buffer(radius - ISLAND_RIM))
        reach = grown.buffer(radius + 2 * ISLAND_STRAIT)
        marks = [places[k].buffer(radius + ISLAND_STRAIT) for k in sorted(shapely.STRtree(places).query(reach).tolist())
                 if names[k] != city.name]
        grown = grown.difference(shapely.union_all([pieces.near(reach, city.country).buffer(ISLAND_STRAIT)] + marks))
        countries[city.country] = shapely.union_all([piece for piece in parts if piece is not island] + [grown])
        pieces = _Pieces(countries)
    return countries


def coast_kept_off(game_map: MapFile, at: dict[str, XY], radius: float,
                   countries: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """`countries` with the coast pushed back, on the city's own land, round every inland space it touches
    (to INLAND_CLEARANCE beyond the rim), where no other country's land is."""
    countries = dict(countries)
    pieces = _Pieces(countries)
    for city in game_map.cities:
        own = countries.get(city.country)
        if city.port or city.name not in at or own is None:
            continue
        disc = shapely.Point(at[city.name]).buffer(radius + INLAND_CLEARANCE)
        if disc.difference(pieces.near(disc)).area > 1e-6:
            countries[city.country] = own.union(disc.difference(pieces.near(disc, city.country)))
            pieces = _Pieces(countries)
    return countries


def sea_brought_to_ports(game_map: MapFile, at: dict[str, XY], radius: float,
                         countries: dict[str, BaseGeometry], zones: dict[str, BaseGeometry] | None = None) -> dict[str, BaseGeometry]:
    """`countries` with an inlet cut into its own land from the nearest open water (of its own sea zones, where
    `zones` gives them) to every port whose rim the
    slide could not bring to the sea (its lines or its neighbours held it back), as mapmakers widen an estuary:
    INLET wide, reaching PORT_REACH inside the rim, and kept INLAND_CLEARANCE off every other space."""
    from shapely.ops import nearest_points

    countries = dict(countries)
    land = shapely.union_all(list(countries.values()))  # an inlet cut for one port is not sea another needs
    reach = NUDGE_MAX + 4 * radius
    for city in game_map.cities:
        own = countries.get(city.country)
        if not city.port or city.name not in at or own is None:
            continue
        x, y = at[city.name]
        centre = shapely.Point(x, y)
        water = _port_water(city, shapely.box(x - reach, y - reach, x + reach, y + reach), land, zones)
        offshore = water.distance(centre)
        if water.is_empty or offshore <= radius - PORT_REACH + 1e-6:
            continue
        target = nearest_points(water, centre)[0]
        inward = radius - PORT_REACH + INLET / 2  # where the inlet's round head stops: PORT_REACH inside the rim
        start = shapely.Point(x + (target.x - x) * inward / offshore, y + (target.y - y) * inward / offshore)
        inlet = shapely.LineString([start, target]).buffer(INLET / 2)
        others = [shapely.Point(at[n]).buffer(radius + INLAND_CLEARANCE) for n in at
                  if n != city.name and math.dist(at[n], (x, y)) < offshore + 2 * radius + INLET]
        inlet = inlet.intersection(own).difference(shapely.union_all(others))
        countries[city.country] = own.difference(inlet)
    return countries
