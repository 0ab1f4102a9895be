"""Spaces set right by the coast after the warp: a port's space stands on its own country's land with its
rim reaching the sea, an inland city's space stands clear of the sea. The warp moves land and cities
together, but a narrow cape or a small island (Cyprus, say) can be thinner than a space; such a city is
slid a little over its land, never further than NUDGE_MAX, never nearer another space than the gap the
map asks for, and never onto a rail or air line it does not end. A city that fits nowhere within that
reach goes where it fits best (a port on a small island: its centre on the island's thickest part).
"""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry.base import BaseGeometry

from ..core.map_models import MapFile

XY = tuple[float, float]

NUDGE_MAX = 10.0  # mm: the furthest a space is slid over its land
NUDGE_STEP = 0.5  # mm between the rings of places tried
BEARINGS = 32  # places tried on each ring
PORT_FOOTING = 1.5  # mm: a port's centre stands at least this far inside its land...
PORT_REACH = 1.0  # ...and its rim reaches at least this far past the coast, onto the sea
INLAND_CLEARANCE = 0.5  # mm between an inland space's rim and the sea
LINE_CLEARANCE = 1.0  # mm between a slid space and a line it does not end
BATCH = 16  # places tried measured together against the lines
BETTER = 0.25  # mm: a space is slid only where it fits this much better (or fits), the best fit in reach where none fits


def _misfit(depth, port: bool, radius: float):
    """How far (mm) a centre `depth` mm inside its land (negative at sea) is from suiting a port or an inland space."""
    import numpy as np

    if port:
        return np.maximum(PORT_FOOTING - depth, 0.0) + np.maximum(depth - (radius - PORT_REACH), 0.0)
    return np.maximum(radius + INLAND_CLEARANCE - depth, 0.0)


def _depths(points, own: BaseGeometry, coast: BaseGeometry):
    """How far inside `own` land each point is (mm); at sea or on another country's land, minus its distance."""
    import numpy as np

    distance = shapely.distance(coast, points)
    inside = shapely.contains_xy(own, *np.asarray(shapely.get_coordinates(points)).T)
    return np.where(inside, distance, -distance)


def fitted_to_coasts(game_map: MapFile, at: dict[str, XY], radius: float, gap: float,
                     countries: dict[str, BaseGeometry], land: BaseGeometry) -> dict[str, XY]:
    """`at` with each city's space slid, where it needs to and can, onto land that suits it (see the module's
    docstring): `countries` are each country's land and `land` all of it (its outline is the coast: lakes
    count as sea), in the same page mm as `at`."""
    import numpy as np

    at = dict(at)
    coast_all = land.boundary
    names = [c.name for c in game_map.cities if c.name in at]
    routes = [(r.from_, r.to) for r in game_map.routes if r.from_ in at and r.to in at]
    rings = np.arange(NUDGE_STEP, NUDGE_MAX + 1e-9, NUDGE_STEP)
    angles = np.linspace(0, 2 * np.pi, BEARINGS, endpoint=False)
    offsets = np.concatenate([[[0.0, 0.0]], (rings[:, None, None] * np.stack([np.cos(angles), np.sin(angles)], -1)[None]).reshape(-1, 2)])
    for city in game_map.cities:
        if city.name not in at or city.country not in countries:
            continue
        x, y = at[city.name]
        window = shapely.box(x - NUDGE_MAX - 3 * radius, y - NUDGE_MAX - 3 * radius, x + NUDGE_MAX + 3 * radius, y + NUDGE_MAX + 3 * radius)
        own = countries[city.country].intersection(window)
        coast = coast_all.intersection(window)
        if coast.is_empty:
            continue  # no sea near: it fits as it is
        if _misfit(_depths(shapely.points([(x, y)]), own, coast), bool(city.port), radius)[0] <= BETTER:
            continue  # it fits where it is
        tried = np.array([x, y]) + offsets
        misfit = _misfit(_depths(shapely.points(tried), own, coast), bool(city.port), radius)
        others = np.array([at[n] for n in names if n != city.name], dtype=float)
        apart = np.hypot(*(tried[:, None, :] - others[None, :, :]).transpose(2, 0, 1)).min(axis=1)
        misfit[apart < 2 * radius + gap] = np.inf
        order = [k for k in np.argsort(misfit, kind="stable") if misfit[k] <= misfit[0] - BETTER]  # best fit first, nearest of equals
        if not order:
            continue
        for start in range(0, len(order), BATCH):  # the best few first: most cities take one of them
            batch = order[start:start + BATCH]
            clear = _clear_of_lines(city.name, tried[batch], at, routes, radius)
            if clear.any():
                best = tried[batch[int(np.argmax(clear))]]
                at[city.name] = (float(best[0]), float(best[1]))
                break
    return at


def _segment_distances(a, b, points):
    """Distances (lines x points) from segments a-b (n x 2 arrays) to points (m x 2)."""
    import numpy as np

    ab = b - a
    length2 = np.maximum((ab ** 2).sum(1), 1e-9)
    t = np.clip(((points[None, :, :] - a[:, None, :]) * ab[:, None, :]).sum(2) / length2[:, None], 0.0, 1.0)
    nearest = a[:, None, :] + t[..., None] * ab[:, None, :]
    return np.hypot(*(points[None, :, :] - nearest).transpose(2, 0, 1))


def _clear_of_lines(name: str, tos, at: dict[str, XY], routes: Sequence[tuple[str, str]], radius: float):
    """For each place in `tos` (k x 2), whether the space `name` moved there keeps clear of every line it does
    not end, and its own lines of every other space. Only what the move changes is measured: the moved space
    against the other lines, and its own lines against the other spaces."""
    import numpy as np

    reach = radius + LINE_CLEARANCE
    tos = np.asarray(tos, dtype=float).reshape(-1, 2)
    clear = np.ones(len(tos), dtype=bool)
    others = [(a, b) for a, b in routes if name not in (a, b)]
    if others:
        a = np.array([at[x] for x, _ in others], dtype=float)
        b = np.array([at[y] for _, y in others], dtype=float)
        clear &= (_segment_distances(a, b, tos) >= reach).all(axis=0)
    ends = [b if a == name else a for a, b in routes if name in (a, b)]
    if ends:
        spaces = [n for n in at if n != name]
        xy = np.array([at[n] for n in spaces], dtype=float)
        far = np.array([at[e] for e in ends], dtype=float)
        starts = np.repeat(tos, len(ends), axis=0)  # every place tried, with each of its lines
        distance = _segment_distances(starts, np.tile(far, (len(tos), 1)), xy)
        distance[np.arange(len(starts)), np.tile([spaces.index(e) for e in ends], len(tos))] = np.inf
        clear &= (distance >= reach).all(axis=1).reshape(len(tos), len(ends)).all(axis=1)
    return clear
