"""Finding room on the map for its aids (tracks, records, boxes): empty sea first, then any empty land,
never over a city, a badge, a ship or a line, each as near as it can to where the map would like it.

The frame is cut into small square cells; a cell is taken when land or a map feature touches it. A
summed-area table then answers "is this whole rectangle free?" for every position at once, so the
search costs the same however many features the map has.
"""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry import LineString, box
from shapely.geometry.base import BaseGeometry

from ..printing.geometry import Box

CELL = 2.0  # mm: the grid the search runs on
CLEARANCE = 2.5  # mm kept free between an aid and any city, ship or line
EDGE = 3.0  # mm kept free inside the frame


def _cell_centres(frame: Box):
    import numpy as np

    cols, rows = int(frame.width // CELL), int(frame.height // CELL)
    xs = frame.x + (np.arange(cols) + 0.5) * CELL
    ys = frame.y + (np.arange(rows) + 0.5) * CELL
    gx, gy = np.meshgrid(xs, ys)
    return gx, gy


def _taken(frame: Box, shapes: Sequence[BaseGeometry], clearance: float):
    """For each grid cell (rows top to bottom, columns left to right), whether one of `shapes` comes within
    `clearance` of it (a cell counts as touched when its centre is within half a diagonal more)."""
    import numpy as np

    gx, gy = _cell_centres(frame)
    taken = np.zeros(gx.shape, dtype=bool)
    shapes = [s for s in shapes if s is not None and not s.is_empty]
    if not shapes:
        return taken
    centres = shapely.points(gx.ravel(), gy.ravel())
    hits = shapely.STRtree(shapes).query(centres, predicate="dwithin", distance=clearance + CELL * 0.71)
    taken.ravel()[np.unique(hits[0])] = True
    return taken


def _on_land(frame: Box, land: BaseGeometry):
    """For each grid cell, whether land touches it: cells whose centre is on land, grown by one cell."""
    import numpy as np

    gx, gy = _cell_centres(frame)
    if land.is_empty:
        return np.zeros(gx.shape, dtype=bool)
    shapely.prepare(land)
    inside = shapely.contains_xy(land, gx, gy)
    grown = inside.copy()
    grown[1:, :] |= inside[:-1, :]
    grown[:-1, :] |= inside[1:, :]
    grown[:, 1:] |= inside[:, :-1]
    grown[:, :-1] |= inside[:, 1:]
    return grown


def _free_corners(taken, w_cells: int, h_cells: int):
    """For each cell, whether a rectangle of w x h cells with its top-left corner there is wholly free."""
    import numpy as np

    rows, cols = taken.shape
    if w_cells > cols or h_cells > rows:
        return np.zeros((0, 0), dtype=bool)
    table = np.zeros((rows + 1, cols + 1), dtype=np.int32)
    table[1:, 1:] = taken.astype(np.int32).cumsum(0).cumsum(1)
    inside = table[h_cells:, w_cells:] - table[:-h_cells, w_cells:] - table[h_cells:, :-w_cells] + table[:-h_cells, :-w_cells]
    return inside == 0


def place_aids(sizes: Sequence[tuple[float, float]], near: Sequence[tuple[float, float] | None], frame: Box,
               land: BaseGeometry, marks: Sequence[Box], lines: Sequence[Sequence[tuple[float, float]]]) -> list[tuple[float, float] | None]:
    """The top-left corner of each aid of `sizes` (w, h mm): in the sea if it fits, else on empty land, nearest
    its `near` point (the frame's centre when None); None when it fits nowhere. Larger aids are placed first."""
    import numpy as np

    inner = Box(frame.x + EDGE, frame.y + EDGE, frame.width - 2 * EDGE, frame.height - 2 * EDGE)
    features = [box(b.x, b.y, b.right, b.bottom) for b in marks] + [LineString(line) for line in lines if len(line) >= 2]
    feature_cells = _taken(inner, features, CLEARANCE)
    land_cells = _on_land(inner, land)
    spots: list[tuple[float, float] | None] = [None] * len(sizes)
    placed = np.zeros_like(feature_cells)
    for i in sorted(range(len(sizes)), key=lambda k: -sizes[k][0] * sizes[k][1]):
        w_cells, h_cells = int(-(-(sizes[i][0] + CLEARANCE) // CELL)), int(-(-(sizes[i][1] + CLEARANCE) // CELL))
        target = near[i] or (frame.x + frame.width / 2, frame.y + frame.height / 2)
        for blocked in (feature_cells | land_cells | placed, feature_cells | placed):
            free = _free_corners(blocked, w_cells, h_cells)
            if not free.any():
                continue
            rows, cols = np.nonzero(free)
            cx = inner.x + (cols + w_cells / 2) * CELL
            cy = inner.y + (rows + h_cells / 2) * CELL
            best = int(np.argmin((cx - target[0]) ** 2 + (cy - target[1]) ** 2))
            r, c = int(rows[best]), int(cols[best])
            placed[r:r + h_cells, c:c + w_cells] = True
            spots[i] = (inner.x + c * CELL + CLEARANCE / 2, inner.y + r * CELL + CLEARANCE / 2)
            break
    return spots
