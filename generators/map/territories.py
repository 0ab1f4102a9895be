"""Land shaped from cities alone (shapely): a map without coastlines still shows whose territory is where.

Each country's land is the area nearer to one of its cities than to any other city or to the
sea (Voronoi cells, with points out at sea as sites too), kept within `reach` of the country's
cities (a buffered concave hull, so land between a country's cities is filled in). All the land
together is then rounded, closing narrow gaps between countries and smoothing the coasts, so it
reads as land rather than as a mosaic. Cells never overlap, so neither do countries.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import MultiPoint, Point, Polygon
from shapely.geometry.base import BaseGeometry

XY = tuple[float, float]
HULL_RATIO = 0.6  # concave_hull: 0 hugs the points, 1 is the convex hull
ROUNDING = 0.25  # of `reach`: how much corners are rounded
SEA_WEIGHT = 0.88  # a place is sea when a sea point is nearer than this share of its distance to any city
FOOTING = 0.45  # of `reach`: every city stands on at least this much land around it
SEA_NEIGHBOURS = 8
SLIVER = 0.5  # of `reach`: a piece of land narrower than this square, with no city on it, is dropped  # the cities that bound one sea point's water


@dataclass(frozen=True)
class Site:
    """A city as the territory shaper sees it: where it is and whose land it stands on."""

    name: str
    country: str
    power: str | None
    at: XY


@dataclass(frozen=True)
class Region:
    """One country's land on the page: polygon(s) in page millimetres."""

    country: str
    power: str | None
    shape: BaseGeometry


def typical_spacing(points: Sequence[XY]) -> float:
    """The median distance from a point to its nearest other point (0 for fewer than two points)."""
    geoms = [Point(p) for p in points]
    if len(geoms) < 2:
        return 0.0
    _, distances = shapely.STRtree(geoms).query_nearest(geoms, exclusive=True, return_distance=True, all_matches=False)
    return float(statistics.median(distances)) if len(distances) else 0.0


def _cells(sites: Sequence[XY], frame: Polygon) -> list[BaseGeometry]:
    """The Voronoi cell of each site (sites at the same spot share one), clipped to `frame`."""
    unique = list(dict.fromkeys((round(x, 3), round(y, 3)) for x, y in sites))
    if len(unique) == 1:
        return [frame for _ in sites]
    diagram = shapely.voronoi_polygons(MultiPoint(unique), extend_to=frame, ordered=True)
    by_site = {site: cell.intersection(frame) for site, cell in zip(unique, diagram.geoms)}
    return [by_site[(round(x, 3), round(y, 3))] for x, y in sites]


def _water(sea: Sequence[XY], cities: Sequence[XY]) -> BaseGeometry:
    """Where the sea is: the points nearer to a sea point than SEA_WEIGHT times their distance to any city.

    For one sea point and one city that region is a disc (a circle of Apollonius); for a sea point
    it is the intersection of those discs over its nearest cities, the farther ones being too far
    to matter. Unlike a plain nearest-site split, a sea point cannot claim land far inland where
    cities are sparse.
    """
    w2 = SEA_WEIGHT ** 2
    water = []
    for sx, sy in sea:
        ranked = sorted(range(len(cities)), key=lambda i: (cities[i][0] - sx) ** 2 + (cities[i][1] - sy) ** 2)[:SEA_NEIGHBOURS]
        discs = []
        for i in ranked:
            cx, cy = cities[i]
            distance = ((cx - sx) ** 2 + (cy - sy) ** 2) ** 0.5
            centre = ((sx - w2 * cx) / (1 - w2), (sy - w2 * cy) / (1 - w2))
            discs.append(Point(centre).buffer(SEA_WEIGHT * distance / (1 - w2), quad_segs=24))
        water.append(shapely.intersection_all(discs) if discs else Point(sx, sy))
    return shapely.union_all(water)


def shape_territories(cities: Sequence[Site], sea: Sequence[XY], frame: Polygon, reach: float) -> list[Region]:
    """Each country's land, in the order countries first appear in `cities`.

    `sea` are points that must stay sea (a sea zone's symbol, points along sea lanes);
    `reach` is how far land extends beyond a country's outermost cities, in mm.
    """
    if not cities or reach <= 0:
        return []
    cells = _cells([c.at for c in cities], frame)
    water = _water(sea, [c.at for c in cities]) if sea else Polygon()
    by_country: dict[str, list[int]] = defaultdict(list)
    for i, city in enumerate(cities):
        by_country[city.country].append(i)
    own = {country: shapely.union_all([cells[i] for i in members]) for country, members in by_country.items()}
    extent = {country: shapely.concave_hull(MultiPoint([cities[i].at for i in members]), ratio=HULL_RATIO).buffer(reach)
              for country, members in by_country.items()}
    r = reach * ROUNDING
    footing = shapely.union_all([Point(c.at).buffer(reach * FOOTING).intersection(cells[i]) for i, c in enumerate(cities)])
    land = shapely.union_all([own[c].intersection(extent[c]) for c in by_country]).difference(water).union(footing)
    land = land.buffer(r).buffer(-2 * r).buffer(r)  # close gaps between countries, round the coasts
    land = _fill_lakes(land.difference(water.difference(footing)).intersection(frame), [Point(p) for p in sea])
    regions = []
    for country, members in by_country.items():
        points = [Point(cities[i].at) for i in members]
        parts = polygons(land.intersection(own[country]))
        shape = shapely.union_all([p for p in parts if p.area >= (reach * SLIVER) ** 2 or any(p.intersects(c) for c in points)])
        if not shape.is_empty:
            regions.append(Region(country, cities[members[0]].power, shape))
    return regions


def _fill_lakes(land: BaseGeometry, sea: Sequence[Point]) -> BaseGeometry:
    """Land without the holes no sea point lies in: only the sea is water on this map."""
    filled = []
    for poly in polygons(land):
        holes = [hole for hole in poly.interiors if any(Polygon(hole).contains(p) for p in sea)]
        filled.append(Polygon(poly.exterior, holes))
    return shapely.union_all(filled)


def polygons(shape: BaseGeometry) -> list[Polygon]:
    """The polygons a shape is made of (a Polygon, a MultiPolygon or a collection)."""
    if isinstance(shape, Polygon):
        return [shape] if not shape.is_empty else []
    return [p for part in getattr(shape, "geoms", []) for p in polygons(part)]
