"""Placing name labels beside their points so that no label covers another label or a mark.

Greedy, as cartographers' label placers start (QGIS's PAL, Mapnik): labels in priority order each
try the spots around their point (right first, as maps conventionally set names), nearer before
farther, and take the cheapest: a spot over a mark or another label costs most, then one that
crosses a line, then one nearer another point than its own (a reader might pair them wrongly), then
one set away from its point with a leader line. Labels left overlapping or far are placed again
with their nearest neighbours when that costs less.

Everything a spot is scored against sits in a spatial index (a grid of placed labels and marks,
STRtrees of lines and points), and all the spots of one label are scored at once, so placement
grows about linearly with the number of labels; the repair pass touches a bounded number of
neighbours, so a map whose points all share one place still places in bounded time.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Point

from ..printing.geometry import Box

XY = tuple[float, float]

# Where a label may sit around its point: (dx, dy) as multiples of (its width, its height) beyond
# the mark, in the order tried. Right, left, above, below, then the four corners.
SPOTS = (("right", 1, 0), ("left", -1, 0), ("above", 0, -1), ("below", 0, 1),
         ("above right", 1, -1), ("below right", 1, 1), ("above left", -1, -1), ("below left", -1, 1))
REACHES = (1.0, 2.5, 4.5)  # distances from the mark tried, as multiples of the gap; beyond the first, a leader line
LINE_CROSSING_COST = 40.0  # a name over a line is far worse than a name set off with a leader line
AMBIGUITY_COST = 3.0
CLASH_COST = 1000.0  # per mm² of a label over a mark or another label
AMBIGUITY_MARGIN = 1.5  # mm: another point this much farther than the label's own still competes for it
MAX_MARK = 10.0  # mm: no mark is larger than this
SPOT_ORDER_COST = 0.05
FAR_DIRECTIONS = 16  # further directions tried for a label set away from its point
FAR_COST = 1.5  # a leader line is worth a little more than crossing one line
CELL = 8.0  # mm: the side of a cell of the grid of placed labels and marks
NEIGHBOURS = 8  # a repair places a label again with at most this many of its nearest neighbours


@dataclass(frozen=True)
class LabelRequest:
    """A label of `width` x `height` mm for the point `at`, whose mark has radius `mark`."""

    key: str
    at: XY
    width: float
    height: float
    mark: float


@dataclass(frozen=True)
class PlacedLabel:
    """Where a label went; `far` labels sit a little away from their point and want a leader line."""

    key: str
    rect: Box
    spot: str
    overlaps: bool
    far: bool = False

    def nearest_edge(self, x: float, y: float) -> tuple[float, float]:
        """The point of the label's rectangle nearest (x, y), where a leader line meets it."""
        r = self.rect
        return min(max(x, r.x), r.right), min(max(y, r.y), r.bottom)


@dataclass(frozen=True)
class _Candidates:
    """Every spot one label may take, as parallel arrays."""

    spots: list[str]
    x0: object
    y0: object
    x1: object
    y1: object
    preference: object
    far: object


def _candidates(request: LabelRequest, gap: float) -> _Candidates:
    import numpy as np

    x, y = request.at
    w, h = request.width, request.height
    spots, boxes, preference, far = [], [], [], []
    for step, reach in enumerate(REACHES):
        d = request.mark + gap * reach
        for order, (spot, sx, sy) in enumerate(SPOTS):
            left = x + d if sx > 0 else x - d - w if sx < 0 else x - w / 2
            top = y - h / 2 if sy == 0 else y - d - h if sy < 0 else y + d
            spots.append(spot)
            boxes.append((left, top))
            preference.append(order * SPOT_ORDER_COST + step * FAR_COST)
            far.append(step > 0)
        if step:
            for k in range(FAR_DIRECTIONS):
                a = 2 * math.pi * (k + 0.5) / FAR_DIRECTIONS
                cx, cy = x + math.cos(a) * (d + w / 2), y + math.sin(a) * (d + h / 2)
                spots.append(f"{round(math.degrees(a))}°")
                boxes.append((cx - w / 2, cy - h / 2))
                preference.append((len(SPOTS) + k) * SPOT_ORDER_COST + step * FAR_COST)
                far.append(True)
    corners = np.array(boxes)
    return _Candidates(spots, corners[:, 0], corners[:, 1], corners[:, 0] + w, corners[:, 1] + h,
                       np.array(preference), np.array(far))


def _rect_point_distance(x0, y0, x1, y1, px, py):
    """Distances from rectangles (arrays) to points (arrays), 0 inside."""
    import numpy as np

    dx = np.maximum(np.maximum(x0 - px, 0), px - x1)
    dy = np.maximum(np.maximum(y0 - py, 0), py - y1)
    return np.hypot(dx, dy)


def _segment_point_distance(ax, ay, bx, by, px, py):
    """Distances from segments a-b (arrays) to points (arrays)."""
    import numpy as np

    vx, vy = bx - ax, by - ay
    length = vx * vx + vy * vy
    t = np.clip(((px - ax) * vx + (py - ay) * vy) / np.where(length > 0, length, 1), 0, 1)
    return np.hypot(ax + t * vx - px, ay + t * vy - py)


class _Grid:
    """Rectangles by the grid cells they touch: which of them may meet a given rectangle."""

    def __init__(self):
        self.cells: dict[tuple[int, int], set[int]] = defaultdict(set)
        self.rects: dict[int, tuple[float, float, float, float]] = {}

    def _span(self, x0, y0, x1, y1):
        for i in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for j in range(int(y0 // CELL), int(y1 // CELL) + 1):
                yield i, j

    def add(self, key: int, rect: tuple[float, float, float, float]) -> None:
        self.rects[key] = rect
        for cell in self._span(*rect):
            self.cells[cell].add(key)

    def remove(self, key: int) -> None:
        rect = self.rects.pop(key, None)
        if rect is not None:
            for cell in self._span(*rect):
                self.cells[cell].discard(key)

    def near(self, x0, y0, x1, y1) -> list[tuple[float, float, float, float]]:
        found: set[int] = set()
        for cell in self._span(x0, y0, x1, y1):
            found |= self.cells.get(cell, set())
        return [self.rects[k] for k in found]


class _Placer:
    """The state of one placement run: what is taken, and each label's spot and its cost."""

    def __init__(self, requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box],
                 lines: Sequence[Sequence[XY]], gap: float):
        import numpy as np

        self.requests, self.frame, self.gap = list(requests), frame, gap
        self.lines = shapely.STRtree([LineString(line) for line in lines if len(line) >= 2])
        self.points = np.array([r.at for r in requests], dtype=float).reshape(-1, 2)
        self.marks = np.array([r.mark for r in requests], dtype=float)
        self.anchors = shapely.STRtree([Point(r.at) for r in requests])
        self.grid = _Grid()
        for i, o in enumerate(obstacles):
            self.grid.add(-1 - i, (o.x, o.y, o.right, o.bottom))
        self.index = {r.key: i for i, r in enumerate(requests)}
        self.spots: dict[str, tuple[float, PlacedLabel]] = {}

    def _clash(self, c: _Candidates, near) -> object:
        import numpy as np

        clash = np.zeros(len(c.spots))
        for rx0, ry0, rx1, ry1 in near:
            w = np.minimum(c.x1, rx1) - np.maximum(c.x0, rx0)
            h = np.minimum(c.y1, ry1) - np.maximum(c.y0, ry0)
            clash += np.where((w > 0) & (h > 0), w * h, 0.0)
        return clash

    def _crossings(self, c: _Candidates) -> object:
        import numpy as np

        boxes = shapely.box(c.x0, c.y0, c.x1, c.y1)
        hits = self.lines.query(boxes, predicate="intersects") if len(self.lines) else np.zeros((2, 0), dtype=int)
        return np.bincount(hits[0], minlength=len(c.spots)), boxes

    def _ambiguous(self, c: _Candidates, boxes, own: int) -> object:
        """For each spot: another point lies about as near the label (or its leader line) as its own point."""
        import numpy as np

        px, py = self.points[own]
        own_distance = np.maximum(_rect_point_distance(c.x0, c.y0, c.x1, c.y1, px, py) - self.marks[own], 0.0)
        reach = np.where(c.far, MAX_MARK + AMBIGUITY_MARGIN, own_distance + AMBIGUITY_MARGIN + MAX_MARK)
        pairs = self.anchors.query(boxes, predicate="dwithin", distance=reach)
        spot, other = pairs[0], pairs[1]
        keep = other != own
        spot, other = spot[keep], other[keep]
        ambiguous = np.zeros(len(c.spots), dtype=bool)
        if not len(spot):
            return ambiguous
        ox, oy = self.points[other, 0], self.points[other, 1]
        to_box = _rect_point_distance(c.x0[spot], c.y0[spot], c.x1[spot], c.y1[spot], ox, oy) - self.marks[other]
        # a far label's leader runs from its point to the nearest point of its rectangle
        ex, ey = np.clip(px, c.x0[spot], c.x1[spot]), np.clip(py, c.y0[spot], c.y1[spot])
        to_leader = _segment_point_distance(np.full(len(spot), px), np.full(len(spot), py), ex, ey, ox, oy) - self.marks[other]
        crowded = np.minimum(to_box, to_leader) < AMBIGUITY_MARGIN
        nearer = to_box < own_distance[spot] + AMBIGUITY_MARGIN
        np.logical_or.at(ambiguous, spot, np.where(c.far[spot], crowded, nearer))
        return ambiguous

    def place(self, request: LabelRequest) -> None:
        """Put `request` at its cheapest spot given everything placed so far."""
        import numpy as np

        own = self.index[request.key]
        c = _candidates(request, self.gap)
        f = self.frame
        inside = (c.x0 >= f.x) & (c.y0 >= f.y) & (c.x1 <= f.right) & (c.y1 <= f.bottom)
        if not inside.any():  # not even a spot inside the frame: set it to the right regardless
            rect = Box(float(c.x0[0]), float(c.y0[0]), request.width, request.height)
            self._take(request, CLASH_COST, PlacedLabel(request.key, rect, c.spots[0], True, False))
            return
        near = self.grid.near(float(c.x0.min()), float(c.y0.min()), float(c.x1.max()), float(c.y1.max()))
        clash = self._clash(c, near)
        crossings, boxes = self._crossings(c)
        ambiguous = self._ambiguous(c, boxes, own)
        total = clash * CLASH_COST + crossings * LINE_CROSSING_COST + ambiguous * AMBIGUITY_COST + c.preference
        total = np.where(inside, total, np.inf)
        best = int(np.argmin(total))
        rect = Box(float(c.x0[best]), float(c.y0[best]), request.width, request.height)
        self._take(request, float(total[best]), PlacedLabel(request.key, rect, c.spots[best], bool(clash[best] > 0), bool(c.far[best])))

    def _take(self, request: LabelRequest, cost: float, placed: PlacedLabel) -> None:
        self.spots[request.key] = (cost, placed)
        r = placed.rect
        self.grid.add(self.index[request.key], (r.x, r.y, r.right, r.bottom))

    def _free(self, request: LabelRequest) -> None:
        del self.spots[request.key]
        self.grid.remove(self.index[request.key])

    def repair(self, request: LabelRequest) -> None:
        """Place `request` and its nearest neighbours' labels again, it first; keep the result if it costs less."""
        import numpy as np

        own = self.index[request.key]
        count = min(NEIGHBOURS + 1, len(self.requests))
        distance = np.hypot(*(self.points - self.points[own]).T)
        distance[own] = -1.0
        nearest = np.argpartition(distance, count - 1)[:count] if count < len(distance) else np.arange(len(distance))
        nearest = sorted((int(i) for i in nearest if i != own), key=lambda i: (distance[i], i))
        group = [request] + [self.requests[i] for i in nearest[:NEIGHBOURS]]
        before = {r.key: self.spots[r.key] for r in group}
        for r in group:
            self._free(r)
        for r in group:
            self.place(r)
        if sum(self.spots[r.key][0] for r in group) >= sum(cost for cost, _ in before.values()):
            for r in group:
                self._free(r)
            for r in group:
                self._take(r, *before[r.key])


def place_labels(requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box] = (),
                 lines: Sequence[Sequence[XY]] = (), gap: float = 1.0) -> list[PlacedLabel]:
    """A spot for every label: first each in the order given (put the most important first), then each
    label left overlapping, far from its point or next to another's placed again together with its
    nearest neighbours, when that costs less.

    Labels stay inside `frame`, off `obstacles` (marks, symbols) and off each other, crossing
    as few `lines` as they can.
    """
    placer = _Placer(requests, frame, obstacles, lines, gap)
    for request in requests:
        placer.place(request)
    for request in requests:
        cost, placed = placer.spots[request.key]
        if placed.far or placed.overlaps or cost >= AMBIGUITY_COST:
            placer.repair(request)
    return [placer.spots[r.key][1] for r in requests]
