"""Sea lanes that keep to the water: a port's lane goes down to its coast by the shortest way and sails
round the land to its zone's ship; a lane between two ships does the same.

The water is the map's grid of small square cells (water.py). From each ship a breadth-first wave spreads over the water of a window around it, a whole grid
at a time, until it reaches the places it sails to; each lane follows the wave back and is then pulled
straight wherever a straight line stays on water. The wave keeps a cell off every coast where it can;
a strait narrower than a cell is opened by widening the water a cell at a time; a port's lane that would
then cut over land (an islet between two cells' centres) is refused for another way; a lane with no way
by water at all is drawn straight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from .water import Grid, Water, grown

XY = tuple[float, float]

PORT_REACH = 15.0  # mm: how far from the water a port may lie and still put to sea (its space alone is 7 mm or more in radius)
MARGIN = 25.0  # mm beyond a ship and the places it sails to that its wave may spread
WIDENINGS = 2  # times the water may be widened by a cell to open a narrow strait
EXIT_WEIGHT = 2.0  # a mm of a port's way over land to the water costs as much as this many mm at sea
COAST_COST = 6.0  # mm of sailing a port's lane would rather add than hug a coast
LAND_TOLERATED = 0.25  # mm: past its own coast, a port's lane may cut over the land's edge this deep, no deeper (then another way is sought)


def _wave(passable, start: tuple[int, int], targets: Sequence[tuple[int, int]], beyond: int = 0):
    """The steps from `start` to each cell of `passable` (8-connected), spreading until every target is
    reached and then `beyond` steps more, or until nothing more can be; -1 where the wave did not reach."""
    import numpy as np

    steps = np.full(passable.shape, -1, dtype=np.int32)
    steps[start] = 0
    frontier = np.zeros(passable.shape, dtype=bool)
    frontier[start] = True
    rows = np.array([t[0] for t in targets], dtype=int)
    cols = np.array([t[1] for t in targets], dtype=int)
    step, last = 0, None
    while frontier.any() and (last is None or step < last):
        step += 1
        frontier = grown(frontier) & passable & (steps < 0)
        steps[frontier] = step
        if last is None and not (steps[rows, cols] < 0).any():
            last = step + beyond
    return steps


def _around(grid: Grid, mask, place: XY):
    """The cells of `mask` within a port's reach of `place`: their rows, columns and distances from it."""
    import numpy as np

    reach = int(PORT_REACH // grid.cell) + 1
    r0, c0 = grid.index(*place)
    top, left = max(0, r0 - reach), max(0, c0 - reach)
    rows, cols = np.nonzero(mask[top:r0 + reach + 1, left:c0 + reach + 1])
    rows, cols = rows + top, cols + left
    distance = np.hypot(grid.x + (cols + 0.5) * grid.cell - place[0], grid.y + (rows + 0.5) * grid.cell - place[1])
    keep = distance <= PORT_REACH
    return rows[keep], cols[keep], distance[keep]


def _nearest(grid: Grid, passable, place: XY) -> tuple[int, int] | None:
    """The passable cell nearest `place`, within a port's reach of it."""
    import numpy as np

    rows, cols, distance = _around(grid, passable, place)
    if not len(distance):
        return None
    best = int(np.argmin(distance))
    return int(rows[best]), int(cols[best])


MOVES = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))  # (row, column) steps


def _parents(steps):
    """For each cell the wave reached, which of MOVES leads to a neighbour one step nearer its start
    (straight moves before diagonal ones); -1 at the start and where the wave did not reach."""
    import numpy as np

    rows, cols = steps.shape
    parent = np.full(steps.shape, -1, dtype=np.int8)
    for k in range(len(MOVES) - 1, -1, -1):  # the first move that fits is written last and wins
        dr, dc = MOVES[k]
        neighbour = np.full(steps.shape, -2, dtype=steps.dtype)
        neighbour[max(0, -dr):rows - max(0, dr), max(0, -dc):cols - max(0, dc)] = \
            steps[max(0, dr):rows - max(0, -dr), max(0, dc):cols - max(0, -dc)]
        parent[(steps > 0) & (neighbour == steps - 1)] = k
    return parent


def _back(parent, cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells from `cell` back along the wave to its start."""
    path = [cell]
    r, c = cell
    while (k := int(parent[r, c])) >= 0:
        r, c = r + MOVES[k][0], c + MOVES[k][1]
        path.append((r, c))
    return path


def _visible(grid: Grid, passable, a: XY, points: list[XY]):
    """For each of `points`, whether the straight line to it from `a` runs over passable cells only (looked
    at every third of a cell)."""
    import numpy as np

    ends = np.asarray(points, dtype=float)
    dx, dy = ends[:, 0] - a[0], ends[:, 1] - a[1]
    samples = max(2, int(np.hypot(dx, dy).max() * 3 / grid.cell) + 1)
    t = np.linspace(0.0, 1.0, samples)
    cols = np.clip(((a[0] + np.outer(dx, t) - grid.x) // grid.cell).astype(int), 0, grid.columns - 1)
    rows = np.clip(((a[1] + np.outer(dy, t) - grid.y) // grid.cell).astype(int), 0, grid.rows - 1)
    return passable[rows, cols].all(axis=1)


def _pulled(grid: Grid, passable, land: BaseGeometry, points: list[XY]) -> list[XY]:
    """`points` less every corner that a straight line over passable cells, clear of `land`, can cut (the
    farthest first)."""
    import numpy as np

    kept = [points[0]]
    i = 0
    while i < len(points) - 1:
        seen = np.nonzero(_visible(grid, passable, points[i], points[i + 1:]))[0][::-1]
        j = next((i + 1 + int(k) for k in seen if k == 0 or not land.intersects(LineString([points[i], points[i + 1 + int(k)]]))), i + 1)
        kept.append(points[j])
        i = j
    return kept


def _exit(grid: Grid, steps, port: XY) -> tuple[float, tuple[int, int]] | None:
    """Where a port's lane puts to sea, and what that lane costs: the cell reached by the wave that is
    cheapest by the port's way over land to it (weighted) and its way on to the ship; None when no cell the
    wave reached lies within reach of the port."""
    import numpy as np

    rows, cols, inland = _around(grid, steps >= 0, port)
    if not len(inland):
        return None
    cost = inland * EXIT_WEIGHT + steps[rows, cols] * grid.cell
    best = int(np.argmin(cost))
    return float(cost[best]), (int(rows[best]), int(cols[best]))


def route_lanes(water: Water, lanes: Sequence[tuple[XY, bool, XY]]) -> list[list[XY]]:
    """Each lane (from a place, whether that place is a port, to a ship) as points over water from the place
    to the ship. A port's first step is its own way down to the water; a ship's lane starts at that ship.

    A lane sails a cell off the coasts; a port's lane hugs them only when that saves it a way over land, and
    a lane between ships is widened through straits when it must be."""
    inner: list[BaseGeometry] = []  # the land less its coast's edge, made the first time a lane meets the land

    def over_land(points: list[XY]) -> float:
        line = LineString(points)
        if water.land.is_empty or len(points) < 2 or not water.land.intersects(line):
            return 0.0
        if not inner:
            inner.append(water.land.buffer(-LAND_TOLERATED))
        return line.intersection(inner[0]).length

    by_ship: dict[XY, list[int]] = {}
    for i, (_, _, ship) in enumerate(lanes):
        by_ship.setdefault(ship, []).append(i)
    routed: list[list[XY]] = [[place, ship] for place, _, ship in lanes]  # straight, where no way by water is found
    for ship, indexes in by_ship.items():
        xs = [lanes[i][0][0] for i in indexes] + [ship[0]]
        ys = [lanes[i][0][1] for i in indexes] + [ship[1]]
        grid, cut = water.grid.window(min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN)
        home = grid.index(*ship)
        shore = {i: _nearest(grid, water.water[cut], lanes[i][0]) for i in indexes if lanes[i][1]}
        ports = {i: math.dist(lanes[i][0], grid.centre(*cell)) + 2 * grid.cell for i, cell in shore.items() if cell is not None}
        ships = {i: grid.index(*lanes[i][0]) for i in indexes if not lanes[i][1]}
        cost: dict[int, float] = {}
        crossing: dict[int, list[XY]] = {}  # a port's first lane found that crosses land, kept in case no other is found
        passable = water.open[cut]
        for widening in range(-1, WIDENINGS + 1):
            if not ports and not ships:
                break
            passable = passable.copy() if widening < 0 else water.water[cut].copy() if widening == 0 else grown(passable)
            for cell in [home, *ships.values()]:  # a ship stands on water, however the grid sees it
                passable[cell] = True
            coasts = [c for c in (_nearest(grid, passable, lanes[i][0]) for i in ports) if c is not None]
            steps = _wave(passable, home, list(ships.values()) + coasts, int(PORT_REACH / grid.cell) if coasts else 0)
            parent = _parents(steps)
            for i, near in list(ports.items()):
                found = _exit(grid, steps, lanes[i][0])
                if found is None or found[0] + COAST_COST * (widening + 1) >= cost.get(i, math.inf):
                    continue
                lane = [lanes[i][0]] + _pulled(grid, passable, water.land, _path(grid, parent, found[1], ship))
                if over_land(lane[1:]) > 0.0:  # cell centres on water, a corner cut over an islet
                    crossing.setdefault(i, lane)
                    continue
                cost[i] = found[0] + COAST_COST * (widening + 1)
                routed[i] = lane
                if math.dist(lanes[i][0], routed[i][1]) <= near:  # it puts to sea by its own coast
                    del ports[i]
            if widening == 0:
                ports.clear()
            for i, cell in list(ships.items()):
                if steps[cell] >= 0:
                    routed[i] = _pulled(grid, passable, water.land, [lanes[i][0]] + _path(grid, parent, cell, ship)[1:])
                    del ships[i]
        for i, lane in crossing.items():
            if i not in cost:
                routed[i] = lane
    return routed


def _path(grid: Grid, parent, cell: tuple[int, int], ship: XY) -> list[XY]:
    """The centres of the cells from `cell` back along the wave to the ship where it turns, ending at the ship."""
    cells = _back(parent, cell)
    turns = [c for k, c in enumerate(cells[:-1]) if k == 0 or
             (c[0] - cells[k - 1][0], c[1] - cells[k - 1][1]) != (cells[k + 1][0] - c[0], cells[k + 1][1] - c[1])]
    return [grid.centre(*c) for c in turns] + [ship]
