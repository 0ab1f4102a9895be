"""The map frame as a grid of small square cells, and which of them are water: what sea lanes are routed
over and where the map's aids look for empty sea."""

from __future__ import annotations

from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from ..printing.geometry import Box

XY = tuple[float, float]

CELL = 1.5  # mm: the side of a cell


@dataclass(frozen=True)
class Grid:
    """Square cells of side `cell` mm, `rows` x `columns` of them, the first with its corner at (x, y)."""

    x: float
    y: float
    cell: float
    rows: int
    columns: int

    def index(self, x: float, y: float) -> tuple[int, int]:
        """The (row, column) of the cell holding (x, y), or of the nearest cell when it lies off the grid."""
        col = min(self.columns - 1, max(0, int((x - self.x) // self.cell)))
        row = min(self.rows - 1, max(0, int((y - self.y) // self.cell)))
        return row, col

    def centre(self, row: int, col: int) -> XY:
        return self.x + (col + 0.5) * self.cell, self.y + (row + 0.5) * self.cell

    def window(self, x0: float, y0: float, x1: float, y1: float) -> tuple["Grid", tuple[slice, slice]]:
        """The part of the grid over the rectangle, as a grid of its own and the slices that cut it out."""
        r0, c0 = self.index(x0, y0)
        r1, c1 = self.index(x1, y1)
        part = Grid(self.x + c0 * self.cell, self.y + r0 * self.cell, self.cell, r1 - r0 + 1, c1 - c0 + 1)
        return part, (slice(r0, r1 + 1), slice(c0, c1 + 1))


class Water:
    """The map's water on a grid: `water` (cells whose centre is off the land) and `open` (water cells with
    no land cell among their eight neighbours), and the `land` itself."""

    def __init__(self, frame: Box, land: BaseGeometry, cell: float = CELL):
        import numpy as np

        self.grid = Grid(frame.x, frame.y, cell, max(1, int(frame.height // cell)), max(1, int(frame.width // cell)))
        xs = frame.x + (np.arange(self.grid.columns) + 0.5) * cell
        ys = frame.y + (np.arange(self.grid.rows) + 0.5) * cell
        gx, gy = np.meshgrid(xs, ys)
        self.land = land
        if land.is_empty:
            self.water = np.ones(gx.shape, dtype=bool)
        else:
            shapely.prepare(land)
            self.water = ~shapely.contains_xy(land, gx, gy)
        self.open = ~grown(~self.water)


def grown(mask):
    """`mask` with each cell's eight neighbours added."""
    tall = mask.copy()
    tall[1:] |= mask[:-1]
    tall[:-1] |= mask[1:]
    wide = tall.copy()
    wide[:, 1:] |= tall[:, :-1]
    wide[:, :-1] |= tall[:, 1:]
    return wide
