"""The sea divided into the map's sea zones as regions: each zone is the water nearer, by way of the water
(never across land), to its ship or its own ports than to any other zone's, so that zones are bounded by
the coasts and by borders between zones, which run from coast to coast across the water where two zones
meet (a strait, a gulf's mouth) and out to the frame's edge only in open ocean. Water no zone reaches
(a lake, a sea that holds no ship and no port) belongs to none, and no border crosses it.

The water is measured on a grid of small square cells (8 neighbours each, diagonals at their length); each
zone's region is its cells, cut to the water's exact coast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import shapely
from shapely.geometry import LineString, MultiLineString
from shapely.geometry.base import BaseGeometry

XY = tuple[float, float]

CELL = 2.0  # mm: the side of a grid cell
COAST_CELLS = 2  # cells of land next to the water that take their zone too, so that a region reaches the coast
REACH_IN = 3  # cells into the water a port's own water reaches at least, however far its space stands from it
SMOOTH = 2.5  # mm: a border's steps from cell to cell straightened to within this
SHORTEST = 2.0  # mm: shorter pieces of border are left out
LAND_TOLERANCE = 0.25  # mm: a straightened border may run this far over a coast
NEIGHBOURS = [(dy, dx, (dy * dy + dx * dx) ** 0.5) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx]


def _nearest(sources: Mapping[int, int], passable, shape: tuple[int, int], limit: float):
    """Each cell's zone by the shortest way through `passable` cells (a boolean grid of `shape`, flattened)
    from `sources` (cell -> zone), no further than `limit` cells; -1 where none reaches. The ways are relaxed
    from the cells that changed, all of them at once, until none changes."""
    import numpy as np

    rows, columns = shape
    zone = np.full(rows * columns, -1, dtype=int)
    distance = np.full(rows * columns, np.inf)
    front = np.fromiter(sources, dtype=int, count=len(sources))
    distance[front] = 0.0
    zone[front] = np.fromiter(sources.values(), dtype=int, count=len(sources))
    while len(front):
        row, col = np.divmod(front, columns)
        reached, via, cost = [], [], []
        for dy, dx, step in NEIGHBOURS:
            r, c = row + dy, col + dx
            inside = (r >= 0) & (r < rows) & (c >= 0) & (c < columns)
            reached.append(r[inside] * columns + c[inside])
            via.append(front[inside])
            cost.append(distance[front[inside]] + step)
        reached, via, cost = np.concatenate(reached), np.concatenate(via), np.concatenate(cost)
        better = passable[reached] & (cost < distance[reached] - 1e-9) & (cost <= limit)
        reached, via, cost = reached[better], via[better], cost[better]
        order = np.lexsort((cost, reached))  # for each cell reached, its cheapest way first
        reached, via, cost = reached[order], via[order], cost[order]
        first = np.ones(len(reached), dtype=bool)
        first[1:] = reached[1:] != reached[:-1]
        reached, via, cost = reached[first], via[first], cost[first]
        distance[reached], zone[reached] = cost, zone[via]
        front = reached
    return zone


def _cells_shape(mask, x0: float, y0: float, cell: float, columns: int):
    """The union of the grid's cells where `mask` (flattened) holds, built from each row's runs of cells."""
    import numpy as np

    grid = mask.reshape(-1, columns)
    padded = np.zeros((grid.shape[0], columns + 2), dtype=np.int8)
    padded[:, 1:-1] = grid
    edges = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    runs = shapely.box(x0 + starts * cell, y0 + rows * cell, x0 + ends * cell, y0 + (rows + 1) * cell)
    return shapely.coverage_union_all(runs) if len(runs) else shapely.Polygon()


def sea_zone_regions(zones: Mapping[str, Sequence[XY]], ports: Sequence[tuple[XY, Sequence[str]]], water: BaseGeometry,
                     port_reach: float, cell: float = CELL) -> dict[str, BaseGeometry]:
    """Each zone's water (see the module's docstring): `zones` are the places of each zone's ship (first) and
    its other waters; `ports` each port's space centre and its zones: the water within `port_reach` mm of a
    port is its zone's own; a port's on two zones or more is shared out by side, each zone taking the water
    towards its own ship."""
    import numpy as np

    if water.is_empty or not zones:
        return {}
    x0, y0, x1, y1 = water.bounds
    columns, rows = max(1, int(np.ceil((x1 - x0) / cell))), max(1, int(np.ceil((y1 - y0) / cell)))
    xs, ys = np.meshgrid(x0 + (np.arange(columns) + 0.5) * cell, y0 + (np.arange(rows) + 0.5) * cell)
    shapely.prepare(water)
    wet = shapely.contains_xy(water, xs, ys).ravel()
    names = list(zones)
    sources: dict[int, int] = {}

    flat_x, flat_y = xs.ravel(), ys.ravel()

    def near(x: float, y: float, reach: float):
        return np.flatnonzero(wet & ((flat_x - x) ** 2 + (flat_y - y) ** 2 <= reach * reach))

    for z, name in enumerate(names):  # ships first: a ship's own water is its zone's, whatever port is near
        for x, y in zones[name]:
            for c in near(x, y, cell):
                sources.setdefault(int(c), z)
    index = {name: z for z, name in enumerate(names)}
    claims = []  # (how far from the port, cell, zone): water near two ports goes to the nearer
    for (x, y), own in ports:
        own = [index[name] for name in own if name in index and zones[name]]
        if not own:
            continue
        ships = np.array([zones[names[z]][0] for z in own], dtype=float)
        from_port = np.hypot(ships[:, 0] - x, ships[:, 1] - y)
        reach = max(port_reach, water.distance(shapely.Point(x, y)) + REACH_IN * cell)  # a port inland reaches its water
        for c in near(x, y, reach):  # each of the port's zones takes the water on its own ship's side
            nearer = np.hypot(ships[:, 0] - flat_x[c], ships[:, 1] - flat_y[c]) - from_port
            claims.append((float(np.hypot(flat_x[c] - x, flat_y[c] - y)), int(c), own[int(np.argmin(nearer))]))
    for _, c, z in sorted(claims):
        sources.setdefault(c, z)
    at_sea = _nearest(sources, wet, (rows, columns), np.inf)
    coast = _nearest({int(c): int(at_sea[c]) for c in np.flatnonzero(at_sea >= 0)}, np.ones_like(wet), (rows, columns), COAST_CELLS)
    regions = {}
    for z, name in enumerate(names):
        mine = coast == z
        if mine.any():
            region = shapely.intersection(_cells_shape(mine, x0, y0, cell, columns), water)
            if not region.is_empty and region.area > 0:
                regions[name] = region
    return regions


def map_sea_zones(game_map, at: Mapping[str, XY], project, water: BaseGeometry, port_reach: float) -> dict[str, BaseGeometry]:
    """Each of `game_map`'s sea zones' water (see sea_zone_regions): seeded by its ship at `at`, its other waters
    (longitudes and latitudes taken to the page by `project`) and its ports at `at`."""
    seeds = {}
    for zone in game_map.sea_zones:
        if zone.name in at:
            xs, ys = project([w.lon for w in zone.waters], [w.lat for w in zone.waters])
            seeds[zone.name] = [at[zone.name]] + [(float(x), float(y)) for x, y in zip(xs, ys)]
    ports = [(at[c.name], c.sea_zones) for c in game_map.cities if c.port and c.sea_zones and c.name in at]
    return sea_zone_regions(seeds, ports, water, port_reach)


def borders_between(regions: Mapping[str, BaseGeometry], land: BaseGeometry | None = None) -> list[list[XY]]:
    """The lines where two zones' regions meet, each straightened to within SMOOTH mm, or less where straightening
    would cut across `land` (a cape's corner)."""
    shapes = list(regions.values())
    inland = land.buffer(-LAND_TOLERANCE) if land is not None and not land.is_empty else None
    lines = []
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            if not a.intersects(b):
                continue
            shared = shapely.line_merge(_lines(shapely.intersection(a.boundary, b.boundary)))
            for part in getattr(shared, "geoms", [shared]):
                if isinstance(part, LineString) and part.length > SHORTEST:
                    lines.append(list(_straightened(part, inland).coords))
    return lines


def _straightened(line: LineString, inland: BaseGeometry | None) -> LineString:
    tolerance = SMOOTH
    while True:
        straight = line.simplify(tolerance)
        if inland is None or tolerance < 0.1 or not straight.intersects(inland) or line.intersects(inland):
            return straight
        tolerance /= 2


def _lines(geometry: BaseGeometry) -> MultiLineString:
    """The line pieces of a geometry (an intersection of boundaries also holds the points where they touch)."""
    parts = [g for g in getattr(geometry, "geoms", [geometry]) if isinstance(g, LineString)]
    for g in getattr(geometry, "geoms", []):
        if isinstance(g, MultiLineString):
            parts += list(g.geoms)
    return MultiLineString(parts)
