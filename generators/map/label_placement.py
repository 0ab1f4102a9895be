"""Placing name labels beside their points so that no label covers another label or a mark.

Greedy, as cartographers' label placers start: labels in priority order each try the spots
around their point (right first, as maps conventionally set names), nearer before farther,
and take the first that overlaps nothing, preferring spots that cross fewer lines and that lie
nearer their own point than any other. A label
that finds no free spot takes the one that overlaps least, and is reported so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Point, box

from ..printing.geometry import Box

XY = tuple[float, float]

# Where a label may sit around its point: (dx, dy) as multiples of (its width, its height) beyond
# the mark, in the order tried. Right, left, above, below, then the four corners.
SPOTS = (("right", 1, 0), ("left", -1, 0), ("above", 0, -1), ("below", 0, 1),
         ("above right", 1, -1), ("below right", 1, 1), ("above left", -1, -1), ("below left", -1, 1))
REACHES = (1.0, 2.5, 4.5)  # distances from the mark tried, as multiples of the gap; beyond the first, a leader line
LINE_CROSSING_COST = 1.0
AMBIGUITY_COST = 3.0
CLASH_COST = 1000.0  # per mm² of a label over a mark or another label
AMBIGUITY_MARGIN = 1.5  # mm: another point this much farther than the label's own still competes for it
MAX_MARK = 10.0  # mm: no mark is larger than this
SPOT_ORDER_COST = 0.05
FAR_DIRECTIONS = 16  # further directions tried for a label set away from its point
FAR_COST = 1.5  # a leader line is worth a little more than crossing one line


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


def _candidates(request: LabelRequest, gap: float):
    """(spot, rectangle, preference cost, is far) for every place the label may go, best first."""
    x, y = request.at
    w, h = request.width, request.height
    for step, reach in enumerate(REACHES):
        d = request.mark + gap * reach
        for order, (spot, sx, sy) in enumerate(SPOTS):
            left = x + d if sx > 0 else x - d - w if sx < 0 else x - w / 2
            top = y - h / 2 if sy == 0 else y - d - h if sy < 0 else y + d
            yield spot, Box(left, top, w, h), order * SPOT_ORDER_COST + step * FAR_COST, step > 0
        if step:
            for k in range(FAR_DIRECTIONS):
                a = 2 * math.pi * (k + 0.5) / FAR_DIRECTIONS
                cx, cy = x + math.cos(a) * (d + w / 2), y + math.sin(a) * (d + h / 2)
                yield f"{round(math.degrees(a))}°", Box(cx - w / 2, cy - h / 2, w, h), (len(SPOTS) + k) * SPOT_ORDER_COST + step * FAR_COST, True


def _is_nearer_another(shape, request: LabelRequest, requests: Sequence[LabelRequest], anchors: shapely.STRtree) -> bool:
    """True when another label's point lies (about) as near this label as its own point: a reader might pair them wrongly."""
    own = shape.distance(Point(request.at)) - request.mark
    for i in anchors.query(shape.buffer(max(own, 0.0) + AMBIGUITY_MARGIN + MAX_MARK)):
        other = requests[i]
        if other.key != request.key and shape.distance(Point(other.at)) - other.mark < own + AMBIGUITY_MARGIN:
            return True
    return False


def _leader_is_crowded(rect: Box, request: LabelRequest, requests: Sequence[LabelRequest], anchors: shapely.STRtree) -> bool:
    """True when the leader line from the point to a far label, or the label itself, passes close by another point."""
    x, y = request.at
    leader = LineString([(x, y), (min(max(x, rect.x), rect.right), min(max(y, rect.y), rect.bottom))])
    shape = box(rect.x, rect.y, rect.right, rect.bottom)
    for i in anchors.query(shape.union(leader).buffer(MAX_MARK)):
        other = requests[i]
        if other.key == request.key:
            continue
        if min(leader.distance(Point(other.at)), shape.distance(Point(other.at))) < other.mark + AMBIGUITY_MARGIN:
            return True
    return False


class _Placer:
    """The state of one placement run: what is taken, and each label's spot and its cost."""

    def __init__(self, requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box],
                 lines: Sequence[Sequence[XY]], gap: float):
        self.requests, self.frame, self.obstacles, self.gap = list(requests), frame, list(obstacles), gap
        self.lines = shapely.STRtree([LineString(line) for line in lines if len(line) >= 2])
        self.anchors = shapely.STRtree([Point(r.at) for r in requests])
        self.spots: dict[str, tuple[float, PlacedLabel]] = {}

    def cost(self, request: LabelRequest, rect: Box, preference: float, far: bool) -> tuple[float, float]:
        """(area overlapping marks and other labels, everything else a reader minds)."""
        clash = sum(rect.overlap(t) for t in self.obstacles)
        clash += sum(placed.rect.overlap(rect) for key, (_, placed) in self.spots.items() if key != request.key)
        shape = box(rect.x, rect.y, rect.right, rect.bottom)
        crossings = len(self.lines.query(shape, predicate="intersects"))
        if far:
            ambiguous = _leader_is_crowded(rect, request, self.requests, self.anchors)
        else:
            ambiguous = _is_nearer_another(shape, request, self.requests, self.anchors)
        return clash, crossings * LINE_CROSSING_COST + ambiguous * AMBIGUITY_COST + preference

    def place(self, request: LabelRequest) -> None:
        """Put `request` at its cheapest spot given everything placed so far."""
        best = None
        for spot, rect, preference, far in _candidates(request, self.gap):
            if not rect.is_inside(self.frame):
                continue
            clash, soft = self.cost(request, rect, preference, far)
            total = clash * CLASH_COST + soft
            if best is None or total < best[0]:
                best = (total, PlacedLabel(request.key, rect, spot, clash > 0, far))
            if total == preference and not far:
                break
        if best is None:  # not even a spot inside the frame: set it to the right regardless
            spot, rect, preference, far = next(_candidates(request, self.gap))
            best = (CLASH_COST, PlacedLabel(request.key, rect, spot, True, far))
        self.spots[request.key] = best

    def repair(self, request: LabelRequest, radius: float) -> None:
        """Place `request` and its neighbours' labels again, it first; keep the result if it costs less."""
        near = [r for r in self.requests if r.key != request.key and
                (r.at[0] - request.at[0]) ** 2 + (r.at[1] - request.at[1]) ** 2 <= radius ** 2]
        group = [request] + near
        before = {r.key: self.spots[r.key] for r in group}
        for r in group:
            del self.spots[r.key]
        for r in group:
            self.place(r)
        if sum(self.spots[r.key][0] for r in group) >= sum(cost for cost, _ in before.values()):
            self.spots.update(before)


def place_labels(requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box] = (),
                 lines: Sequence[Sequence[XY]] = (), gap: float = 1.0, repair_radius: float = 25.0) -> list[PlacedLabel]:
    """A spot for every label: first each in the order given (put the most important first), then
    each label left far from its point or next to another's placed again together with its
    neighbours within `repair_radius` mm, when that costs less.

    Labels stay inside `frame`, off `obstacles` (marks, symbols) and off each other, crossing
    as few `lines` as they can.
    """
    placer = _Placer(requests, frame, obstacles, lines, gap)
    for request in requests:
        placer.place(request)
    for request in requests:
        placed = placer.spots[request.key][1]
        if placed.far or placed.overlaps or placer.spots[request.key][0] >= AMBIGUITY_COST:
            placer.repair(request, repair_radius)
    return [placer.spots[r.key][1] for r in requests]
