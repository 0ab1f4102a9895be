"""Real land for a map: the countries of a geography file (see scripts/make_geography.py) projected onto
the poster, each country's power taken from the map (the sea's zones: sea_zones.py).

A geography file is JSON: `credit` (printed on the poster), `precision` (stored units per degree) and
`countries`, each a list of polygons, each a list of rings (outer first, then holes), each ring its
first longitude and latitude and then the steps to every further point, in 1/precision degrees.
An optional `extent` says where the file holds land: [west, south, east, north] or a ring of
[longitude, latitude] points. A map frame reaching beyond it is refused: the land there would end
in a straight cut along the extent's edge, and the map would show sea where there is land.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from ..core.errors import DataError, Problem
from ..core.map_models import MapFile
from .territories import Region

XY = tuple[float, float]
# Flat-map x and y arrays for arrays of longitudes and latitudes, already in page millimetres.
Project = Callable[[Sequence[float], Sequence[float]], tuple[Sequence[float], Sequence[float]]]


@dataclass(frozen=True)
class Geography:
    """A geography file as read: its credit line and each country's rings in degrees (lon, lat arrays)."""

    file: Path
    credit: str
    countries: dict[str, list[list[tuple[object, object]]]]
    extent: tuple[tuple[float, float], ...] | None = None  # (lon, lat) ring round the land the file holds


def _extent_ring(file: Path, value: object) -> tuple[tuple[float, float], ...] | None:
    """The file's `extent` as a (lon, lat) ring: a box [west, south, east, north] or a list of points."""
    if value is None:
        return None
    numbers = (int, float)
    if isinstance(value, list) and len(value) == 4 and all(isinstance(v, numbers) for v in value):
        west, south, east, north = value
        if west < east and south < north:
            return ((west, south), (east, south), (east, north), (west, north))
    elif isinstance(value, list) and len(value) >= 3 and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, numbers) for v in p) for p in value):
        if Polygon(value).is_valid and Polygon(value).area > 0:
            return tuple((float(lon), float(lat)) for lon, lat in value)
    raise _problem(file, "extent", "must be [west, south, east, north] or a ring of [longitude, latitude] points")


def _problem(file: Path, where: str, message: str) -> DataError:
    return DataError([Problem(file, where, message, "invalid")])


def _decode(file: Path, where: str, ring: object, precision: float):
    import numpy as np

    if not isinstance(ring, list) or len(ring) < 6 or len(ring) % 2 or not all(isinstance(v, int) for v in ring):
        raise _problem(file, where, "a ring is a list of an even number (6 or more) of whole numbers")
    steps = np.asarray(ring, dtype=float).reshape(-1, 2).cumsum(axis=0) / precision
    return steps[:, 0], steps[:, 1]


@lru_cache(maxsize=8)
def _read(file: Path, stamp: float) -> Geography:
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError([Problem(file, "", "file not found: map.yaml's geography names it", "missing-file")]) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _problem(file, "", f"not a readable geography file ({exc})") from None
    if not isinstance(document, dict) or not isinstance(document.get("countries"), dict):
        raise _problem(file, "countries", "a geography file holds a mapping of countries")
    precision = document.get("precision")
    if not isinstance(precision, (int, float)) or precision <= 0:
        raise _problem(file, "precision", "must be a positive number (stored units per degree)")
    credit = document.get("credit")
    if not isinstance(credit, str) or not credit.strip():
        raise _problem(file, "credit", "must name the data's source and licence (it is printed on the map)")
    countries = {}
    for name, shapes in document["countries"].items():
        if not isinstance(shapes, list):
            raise _problem(file, f"countries.{name}", "must be a list of polygons")
        countries[name] = [[_decode(file, f"countries.{name}[{i}][{j}]", ring, precision) for j, ring in enumerate(rings)]
                           for i, rings in enumerate(shapes) if isinstance(rings, list)]
    return Geography(file, credit.strip(), countries, _extent_ring(file, document.get("extent")))


def read_geography(file: Path) -> Geography:
    """The geography file `file`, read once while unchanged; DataError naming the file and field when unusable."""
    file = Path(file)
    try:
        stamp = file.stat().st_mtime
    except OSError:
        stamp = 0.0
    return _read(file, stamp)


def country_powers(game_map: MapFile) -> dict[str, str | None]:
    """Whose home territory each country is: the power of its cities, or as `territories` says."""
    powers: dict[str, str | None] = {}
    for city in game_map.cities:
        powers.setdefault(city.country, city.power)
    return powers | dict(game_map.territories)


EXTENT_STEP = 0.5  # degrees between the points of the extent's edge projected: its edges curve on the map
EXTENT_SLACK = 0.5  # mm the frame may reach past the extent (rounding of the stored points)


def frame_beyond_extent(geography: Geography, project: Project, frame: Polygon) -> float:
    """How much of `frame` (mm²) lies outside the land the geography holds (its `extent`), 0 when it has none."""
    import numpy as np

    if geography.extent is None:
        return 0.0
    ring = np.array(geography.extent + geography.extent[:1], dtype=float)
    lons, lats = [], []
    for (lon0, lat0), (lon1, lat1) in zip(ring, ring[1:]):
        steps = max(1, int(np.ceil(max(abs(lon1 - lon0), abs(lat1 - lat0)) / EXTENT_STEP)))
        t = np.arange(steps) / steps
        lons.append(lon0 + (lon1 - lon0) * t)
        lats.append(lat0 + (lat1 - lat0) * t)
    xs, ys = project(np.concatenate(lons), np.concatenate(lats))
    held = shapely.make_valid(Polygon(np.column_stack([xs, ys])))
    return float(frame.difference(held.buffer(EXTENT_SLACK)).area)


def land_regions(geography: Geography, game_map: MapFile, project: Project, frame: Polygon) -> list[Region]:
    """Each country of the geography as drawn inside `frame` (page mm), with its power from the map; DataError
    when the frame reaches beyond the geography's extent."""
    import numpy as np

    beyond = frame_beyond_extent(geography, project, frame)
    if beyond > 0.0:
        share = beyond / frame.area
        raise _problem(geography.file, "extent", f"the map's frame reaches beyond the land this file holds ({share:.0%} of the "
                       "frame lies outside its extent, where the land would end in a straight cut): make the geography "
                       "file again with a wider extent, or narrow map.yaml's extent")
    powers = country_powers(game_map)
    rings = [ring for polys in geography.countries.values() for polygon in polys for ring in polygon]
    if not rings:
        return []
    xs, ys = project(np.concatenate([lons for lons, _ in rings]), np.concatenate([lats for _, lats in rings]))
    cuts = np.cumsum([len(lons) for lons, _ in rings])[:-1]
    projected = iter(np.split(np.column_stack([xs, ys]), cuts))  # all of the land's points projected in one call
    names, shapes = [], []
    for name, polys in geography.countries.items():
        for polygon in polys:
            outer, *holes = [next(projected) for _ in polygon] or [np.empty((0, 2))]
            if len(outer) >= 3:
                names.append(name)
                shapes.append(Polygon(outer, holes))
    if not shapes:
        return []
    shapes = np.array(shapes, dtype=object)
    shown = shapely.intersects(shapes, frame)
    names, shapes = [n for n, keep in zip(names, shown) if keep], shapes[shown]
    broken = ~shapely.is_valid(shapes)
    shapes[broken] = shapely.make_valid(shapes[broken])
    shapes = shapely.clip_by_rect(shapes, *frame.bounds)
    by_country: dict[str, list[BaseGeometry]] = defaultdict(list)
    for name, shape in zip(names, shapes):
        by_country[name].append(shape)
    regions = []
    for name, parts in by_country.items():
        shape = union_of(parts)
        if not shape.is_empty and shape.area > 0:
            regions.append(Region(name, powers.get(name), shape))
    return regions


def union_of(shapes: Sequence[BaseGeometry]) -> BaseGeometry:
    """The union of shapes that may share edges but not overlap (countries, cells), the fast way where the
    installed shapely has it."""
    union = getattr(shapely, "disjoint_subset_union_all", shapely.union_all)
    return union(list(shapes))
