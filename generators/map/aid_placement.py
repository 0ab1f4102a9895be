"""Finding room on the map for its aids (tracks, records, boxes): empty sea first, then any empty land,
never over a city, a badge, a ship or a line, each as near as it can to where the map would like it.

The search runs on the map's grid of small cells (water.py): a cell is taken when land or a map feature
touches it (features are drawn into the grid and widened by the clearance). A summed-area table then
answers "is this whole rectangle free?" for every position at once, so the search costs the same
however many features the map has.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..printing.geometry import Box
from .water import Grid, Water, grown

CLEARANCE = 2.5  # mm kept free between an aid and any city, ship or line
EDGE = 3.0  # mm kept free inside the frame


def _features(grid: Grid, marks: Sequence[Box], lines: Sequence[Sequence[tuple[float, float]]]):
    """The cells that marks and lines touch, widened by CLEARANCE."""
    import numpy as np

    taken = np.zeros((grid.rows, grid.columns), dtype=bool)
    for b in marks:
        r0, c0 = grid.index(b.x, b.y)
        r1, c1 = grid.index(b.right, b.bottom)
        taken[r0:r1 + 1, c0:c1 + 1] = True
    ends = [np.column_stack([p[:-1], p[1:]]) for p in (np.asarray(line, dtype=float) for line in lines) if len(p) >= 2]
    if ends:
        s = np.concatenate(ends)
        steps = np.maximum(2, (np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1]) * 2 / grid.cell).astype(int) + 1)
        at = np.repeat(np.arange(len(s)), steps)
        t = (np.arange(len(at)) - np.repeat(np.cumsum(steps) - steps, steps)) / np.repeat(steps - 1, steps)
        xs = s[at, 0] + (s[at, 2] - s[at, 0]) * t
        ys = s[at, 1] + (s[at, 3] - s[at, 1]) * t
        cols = ((xs - grid.x) // grid.cell).astype(int)
        rows = ((ys - grid.y) // grid.cell).astype(int)
        inside = (cols >= 0) & (cols < grid.columns) & (rows >= 0) & (rows < grid.rows)
        taken[rows[inside], cols[inside]] = True
    for _ in range(int(-(-CLEARANCE // grid.cell))):
        taken = grown(taken)
    return taken


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


def place_aids(sizes: Sequence[tuple[float, float]], near: Sequence[tuple[float, float] | None], water: Water,
               marks: Sequence[Box], lines: Sequence[Sequence[tuple[float, float]]]) -> list[tuple[float, float] | None]:
    """The top-left corner of each aid of `sizes` (w, h mm): in the sea if it fits, else on empty land, nearest
    its `near` point (the frame's centre when None); None when it fits nowhere. Larger aids are placed first."""
    import numpy as np

    grid = water.grid
    features = _features(grid, marks, lines)
    edge = int(-(-EDGE // grid.cell))
    features[:edge], features[-edge:], features[:, :edge], features[:, -edge:] = True, True, True, True
    land = grown(~water.water)
    spots: list[tuple[float, float] | None] = [None] * len(sizes)
    placed = np.zeros_like(features)
    middle = (grid.x + grid.columns * grid.cell / 2, grid.y + grid.rows * grid.cell / 2)
    for i in sorted(range(len(sizes)), key=lambda k: -sizes[k][0] * sizes[k][1]):
        w_cells, h_cells = int(-(-sizes[i][0] // grid.cell)), int(-(-sizes[i][1] // grid.cell))
        target = near[i] or middle
        for blocked in (features | land | placed, features | placed):
            free = _free_corners(blocked, w_cells, h_cells)
            if not free.any():
                continue
            rows, cols = np.nonzero(free)
            cx = grid.x + (cols + w_cells / 2) * grid.cell
            cy = grid.y + (rows + h_cells / 2) * grid.cell
            best = int(np.argmin((cx - target[0]) ** 2 + (cy - target[1]) ** 2))
            r, c = int(rows[best]), int(cols[best])
            placed[r:r + h_cells, c:c + w_cells] = True
            spots[i] = (grid.x + c * grid.cell, grid.y + r * grid.cell)
            break
    return spots
