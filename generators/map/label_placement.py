"""Placing name labels beside their markers so that each reads as its own marker's and covers nothing.

As cartographers' label engines do (QGIS's PAL, Mapnik), every label has candidate spots round its
marker: along each side and at each corner, a short way off (right of the marker first, as maps
conventionally set names). A spot is *clear* when it stays inside the frame; covers no marker and no
obstacle; crosses no line; lies nearer its own marker than any other; and does not stand in the gap
between its marker and a neighbour close by (across the line joining their centres), where it reads as
either's: so that a reader pairs the name with the right marker. A label with few clear spots so near is also offered spots further out,
every FAR_STEP round the marker up to FAR_MAX, joined to the marker by a leader line that must pass
no other marker closely (the leader says whose name it is), and costs more where it lies nearer another marker
than its own. A label `within` a shape (a region's name on
its land) is offered spots over the whole shape and takes none that leaves it; a spot over the shape a label
should `avoid` (another power's land, where a name reads as that power's city) costs more the more of it lies there. Clear spots are worked out once, all spots of all labels at once, against
spatial indexes.

Labels then take spots one by one, those with the fewest clear spots first, each the best of its
clear spots that no label placed before covers. A label left without one may move up to two of the
labels in its way to other clear spots of theirs, and those the labels in their way, two deep. Only a label with no clear spot at all, or none
free after that, takes the least bad spot, scored by what it covers and crosses.

The work grows about linearly with the number of labels: a label looks only at what its own spots
meet, and a repair at a bounded number of neighbours; points stacked on one spot place in bounded
time too. Lines are filed by the grid cells they pass through (LineGrid), so a long line costs only the
spots near it; a spot near more than DENSE_LINES lines is not measured but counted as crossing that
many (it could never be clear), and spots are judged a chunk at a time, so that the memory stays
bounded however many lines a map draws.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import shapely

from ..printing.geometry import Box
from .line_grid import LineGrid

XY = tuple[float, float]

NEAR = (0.4, 1.0, 1.6, 2.2)  # mm between a label and its marker for spots without a leader line
NEAR_MAX = max(NEAR)
FAR_MAX = 14.0  # mm: the furthest a label sits from its marker (with a leader line)
FAR_STEP = 1.5  # mm between the spots tried further out
WITHIN_SPOTS = 4000  # spots tried over the shape a label must lie within, at most
SLIDES = (0.0, -0.25, 0.25, -0.5, 0.5, -0.7, 0.7)  # a label's slide along a side of its marker, as a share of its length
CORNER = math.sqrt(0.5)
AMBIGUITY_MARGIN = 0.6  # mm: a label is this much nearer its own marker than any other...
AMBIGUITY_SHARE = 0.2  # ...and, by a large marker, this share of its radius nearer: a name in the gap between two
# large spaces reads as either's
BETWEEN_SHARE = 0.5  # a label within this share of the smaller radius of the line joining its marker's centre to another's...
BETWEEN_REACH = 1.0  # ...when that other marker is within this share of its own marker's radius of it, lies between them
LABEL_GAP = 1.0  # mm between two labels, so that neighbouring names never run together
LEADER_CLEARANCE = 0.8  # mm between a leader line and any other marker
FAR_CLEARANCE = 1.2  # mm between a label set off with a leader and any other marker (the leader says whose it is)
MARK_CLEARANCE = 0.2  # mm between a label and any marker
# What a spot costs: its distance from the marker (per mm), its place in the order tried, a leader line
# (and each line it crosses, and another marker as near), and, for the least bad spot of a label without
# a clear one, what it covers, crosses or leaves unclear.
DISTANCE_COST, ORDER_COST, LEADER_COST, LEADER_CROSSING_COST = 0.3, 0.02, 2.0, 3.0
ASTRAY_COST = 3.0  # a label set off with a leader that still lies nearer another marker than its own
AVOID_COST = 6.0  # a clear spot wholly over the shape its label should avoid: three leader lines' worth
COVER_COST, CROSSING_COST, AMBIGUITY_COST = 1000.0, 40.0, 3.0
SHORT_COST = NEAR_MAX * DISTANCE_COST + LEADER_COST + 6.0 * DISTANCE_COST  # spots this cheap count first when ordering labels
CELL = 8.0  # mm: the side of a cell of the grid of placed labels
JUDGED_AT_ONCE = 20_000  # spots judged together
DENSE_LINES = 64  # lines near one spot beyond which it is not measured but counted as crossing this many
FEW = 8  # a label with fewer clear spots near its marker is offered spots further out too
REPAIR_SPOTS = 12  # clear spots a label without a free one tries to free by moving others
REPAIR_MOVES = 2  # labels that may be moved to free one spot
REPAIR_DEPTH = 2  # how many labels deep a repair may move labels to make room for those it moved


@dataclass(frozen=True)
class LabelRequest:
    """A label of `width` x `height` mm for the marker of radius `mark` centred on `at`. An `area` label
    names the area round its marker (a sea, say), not the marker: it may sit further off without a leader
    line, and need not be nearer its marker than any other. A label `within` a shape (a region's land, say)
    stays wholly inside it, and may sit anywhere in it, the nearer `at` the better. A label should `avoid` a
    shape (another power's land): a spot over it costs the more, the more of the label lies there."""

    key: str
    at: XY
    width: float
    height: float
    mark: float
    area: bool = False
    within: object = None  # a shapely geometry
    avoid: object = None  # a shapely geometry


@dataclass(frozen=True)
class PlacedLabel:
    """Where a label went. `far` labels sit away from their marker and want a leader line; `overlaps` and
    `crosses` say the label found no spot clear of markers and labels, or of lines."""

    key: str
    rect: Box
    spot: str
    overlaps: bool
    far: bool = False
    crosses: bool = False

    def nearest_edge(self, x: float, y: float) -> XY:
        """The point of the label's rectangle nearest (x, y), where a leader line meets it."""
        r = self.rect
        return min(max(x, r.x), r.right), min(max(y, r.y), r.bottom)

    def leader(self, at: XY, mark: float) -> tuple[XY, XY]:
        """The leader line from the edge of the marker of radius `mark` at `at` to the label."""
        end = self.nearest_edge(*at)
        length = math.dist(at, end) or 1.0
        return (at[0] + (end[0] - at[0]) * mark / length, at[1] + (end[1] - at[1]) * mark / length), end


def _near_template():
    """The spots near a marker, in the order tried, as (name, ax, bx, cx, ay, by, cy, gap): the label's left and
    top edges at x = ax·w + bx·h + cx·D and y = ay·w + by·h + cy·D from the marker's centre, for a label w x h
    and D the marker's radius plus `gap`."""
    spots = []
    for gap in NEAR:
        spots += [("right", 0, 0, 1, 0, -0.5, 0, gap), ("above right", 0, 0, CORNER, 0, -1, -CORNER, gap),
                  ("below right", 0, 0, CORNER, 0, 0, CORNER, gap), ("left", -1, 0, -1, 0, -0.5, 0, gap),
                  ("above left", -1, 0, -CORNER, 0, -1, -CORNER, gap), ("below left", -1, 0, -CORNER, 0, 0, CORNER, gap),
                  ("above", -0.5, 0, 0, 0, -1, -1, gap), ("below", -0.5, 0, 0, 0, 0, 1, gap)]
        for s in SLIDES[1:]:
            spots += [(f"right {s:+}", 0, 0, 1, 0, -0.5 + s, 0, gap), (f"left {s:+}", -1, 0, -1, 0, -0.5 + s, 0, gap),
                      (f"above {s:+}", -0.5 + s, 0, 0, 0, -1, -1, gap), (f"below {s:+}", -0.5 + s, 0, 0, 0, 0, 1, gap)]
    return spots


NEAR_SPOTS = _near_template()


def _rect_distance(x0, y0, x1, y1, px, py):
    """Distances from rectangles to points (numpy arrays), 0 inside."""
    import numpy as np

    dx = np.maximum(np.maximum(x0 - px, 0), px - x1)
    dy = np.maximum(np.maximum(y0 - py, 0), py - y1)
    return np.hypot(dx, dy)


def _segment_distance(ax, ay, bx, by, px, py):
    """Distances from segments a-b to points (numpy arrays)."""
    import numpy as np

    vx, vy = bx - ax, by - ay
    length = vx * vx + vy * vy
    t = np.clip(((px - ax) * vx + (py - ay) * vy) / np.where(length > 0, length, 1), 0, 1)
    return np.hypot(ax + t * vx - px, ay + t * vy - py)


def _near_spots(requests: Sequence[LabelRequest], labels):
    """The near spots of `labels`: (owner, x0, y0, spot number in NEAR_SPOTS) as flat arrays."""
    import numpy as np

    table = np.array([s[1:] for s in NEAR_SPOTS], dtype=float)
    ax, bx, cx, ay, by, cy, gap = table.T
    labels = np.asarray(labels, dtype=int)
    at = np.array([requests[i].at for i in labels], dtype=float).reshape(-1, 2)
    w = np.array([requests[i].width for i in labels], dtype=float)[:, None]
    h = np.array([requests[i].height for i in labels], dtype=float)[:, None]
    reach = np.array([requests[i].mark for i in labels], dtype=float)[:, None] + gap
    x0 = at[:, :1] + ax * w + bx * h + cx * reach
    y0 = at[:, 1:] + ay * w + by * h + cy * reach
    return np.repeat(labels, len(NEAR_SPOTS)), x0.ravel(), y0.ravel(), np.tile(np.arange(len(NEAR_SPOTS)), len(labels))


def _far_spots(requests: Sequence[LabelRequest], labels):
    """The spots of `labels` further out: every FAR_STEP mm round the marker, beyond the near spots and within
    FAR_MAX of it; for a label `within` a shape, on a grid over the whole shape (at most WITHIN_SPOTS of them);
    as (owner, x0, y0)."""
    import numpy as np

    owners, xs, ys = [], [], []
    for i in labels:
        r = requests[i]
        x, y = r.at
        if r.within is not None:
            if r.within.is_empty:
                continue
            left, top, right, bottom = r.within.bounds
            step = max(FAR_STEP, math.sqrt((right - left) * (bottom - top) / WITHIN_SPOTS))
            gx, gy = np.meshgrid(np.arange(left, right - r.width, step), np.arange(top, bottom - r.height, step))
            gx, gy = gx.ravel(), gy.ravel()
            keep = shapely.contains_xy(r.within, gx + r.width / 2, gy + r.height / 2)
            owners.append(np.full(int(keep.sum()), i))
            xs.append(gx[keep])
            ys.append(gy[keep])
            continue
        reach = r.mark + FAR_MAX
        gx, gy = np.meshgrid(np.arange(x - reach - r.width, x + reach, FAR_STEP), np.arange(y - reach - r.height, y + reach, FAR_STEP))
        gx, gy = gx.ravel(), gy.ravel()
        gap = _rect_distance(gx, gy, gx + r.width, gy + r.height, x, y) - r.mark
        keep = (gap > NEAR_MAX) & (gap <= FAR_MAX)
        owners.append(np.full(int(keep.sum()), i))
        xs.append(gx[keep])
        ys.append(gy[keep])
    if not owners:
        return np.zeros(0, dtype=int), np.zeros(0), np.zeros(0)
    return np.concatenate(owners), np.concatenate(xs), np.concatenate(ys)


@dataclass
class _Candidates:
    """Spots of labels as flat arrays: whose, where, and what each covers, crosses and costs."""

    owner: object
    x0: object
    y0: object
    x1: object
    y1: object
    near: object  # number in NEAR_SPOTS; -1 for a spot further out
    far: object  # wants a leader line
    leader: object  # (n, 4): each spot's leader line, from its marker's edge to the label
    soft: object  # what a spot costs when it is clear
    blocked: object  # covered area (mm²) of markers and obstacles, inf outside the frame
    crossings: object
    ambiguous: object  # another marker is as near the label as its own (for spots without a leader)
    crowded: object  # its leader line passes close by another marker

    @property
    def clear(self):
        """Spots clear of markers, obstacles and lines, nearer their own marker than any other or joined to
        it by a leader line that passes no other marker closely."""
        return (self.blocked == 0) & (self.crossings == 0) & ~self.crowded & ~(self.ambiguous & ~self.far)

    def joined(self, *others: "_Candidates") -> "_Candidates":
        import numpy as np

        return _Candidates(*(np.concatenate([getattr(c, f) for c in (self, *others)]) for f in self.__dataclass_fields__))


class _Scene:
    """What labels are judged against: the frame, every label's marker, the obstacles and the lines (as
    segments), each in a spatial index of boxes; pairs the indexes find are then measured exactly."""

    def __init__(self, requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box], lines: Sequence[Sequence[XY]]):
        import numpy as np

        self.requests, self.frame = requests, frame
        self.centres = np.array([q.at for q in requests], dtype=float).reshape(-1, 2)
        self.radii = np.array([q.mark for q in requests], dtype=float)
        self.area = np.array([q.area for q in requests], dtype=bool)
        self.bounded = np.array([q.within is not None for q in requests], dtype=bool)
        for q in requests:
            for shape in (q.within, q.avoid):
                if shape is not None:
                    shapely.prepare(shape)
        self.avoiding = np.array([q.avoid is not None for q in requests], dtype=bool)
        self.sizes = np.array([(q.width, q.height) for q in requests], dtype=float).reshape(-1, 2)
        self.top = float(self.radii.max())
        # markers on one and the same spot count once (so stacked points cost no more than one): each site's
        # centre, its largest marker, and its one label (-1 where several share it)
        sites, self.site_of = np.unique(np.round(self.centres, 6), axis=0, return_inverse=True)
        self.site_of = self.site_of.ravel()
        self.sites = sites.reshape(-1, 2)
        self.site_radii = np.zeros(len(self.sites))
        np.maximum.at(self.site_radii, self.site_of, self.radii)
        counts = np.bincount(self.site_of, minlength=len(self.sites))
        self.site_owner = np.full(len(self.sites), -1)
        self.site_owner[self.site_of[counts[self.site_of] == 1]] = np.nonzero(counts[self.site_of] == 1)[0]
        # a site's reach: as far as any spot's label or leader may need to know about it
        reach = self.site_radii + 2 * NEAR_MAX + max(AMBIGUITY_MARGIN, AMBIGUITY_SHARE * self.top) + self.top + FAR_CLEARANCE
        self.markers = shapely.STRtree(shapely.box(*(self.sites - reach[:, None]).T, *(self.sites + reach[:, None]).T))
        self.obstacles = np.array([(o.x, o.y, o.right, o.bottom) for o in obstacles], dtype=float).reshape(-1, 4)
        self.solid = shapely.STRtree(shapely.box(*self.obstacles.T)) if len(self.obstacles) else None
        pieces = [np.column_stack([line[:-1], line[1:]]) for line in (np.asarray(points, dtype=float) for points in lines) if len(line) >= 2]
        self.lines = LineGrid(np.concatenate(pieces) if pieces else np.zeros((0, 4)))

    def judge(self, owner, x0, y0, near) -> _Candidates:
        """The spots (owner, left, top, number in NEAR_SPOTS or -1) with what each covers, crosses and costs,
        JUDGED_AT_ONCE at a time, so that the memory the pairs take stays bounded."""
        parts = [self._judge(*(a[i:i + JUDGED_AT_ONCE] for a in (owner, x0, y0, near)))
                 for i in range(0, max(len(x0), 1), JUDGED_AT_ONCE)]
        return parts[0].joined(*parts[1:])

    def _judge(self, owner, x0, y0, near) -> _Candidates:
        import numpy as np

        c, r = self.centres[owner], self.radii[owner]
        cx, cy = c[:, 0], c[:, 1]
        x1, y1 = x0 + self.sizes[owner, 0], y0 + self.sizes[owner, 1]
        area = self.area[owner]
        far = (near < 0) & ~area
        own = _rect_distance(x0, y0, x1, y1, cx, cy) - r
        ex, ey = np.clip(cx, x0, x1), np.clip(cy, y0, y1)  # where a leader meets the label
        length = np.maximum(np.hypot(ex - cx, ey - cy), 1e-9)
        leader = np.column_stack([cx + (ex - cx) * (r + 0.3) / length, cy + (ey - cy) * (r + 0.3) / length, ex, ey])

        blocked = np.zeros(len(x0))
        f = self.frame
        blocked[~((x0 >= f.x) & (y0 >= f.y) & (x1 <= f.right) & (y1 <= f.bottom))] = np.inf
        blocked[(near >= 0) & (own > NEAR_MAX + 1e-6)] = np.inf  # slid so far along a side that it is no longer near
        boxes = shapely.box(x0, y0, x1, y1)
        for i in np.unique(owner[self.bounded[owner]]):  # a label within a shape: wholly inside it
            mine = np.nonzero(owner == i)[0]
            blocked[mine[~shapely.within(boxes[mine], self.requests[i].within)]] = np.inf
        # markers under a spot, and (for a spot without a leader) other markers as near it as its own: a reader
        # might pair them
        spot_marks, other = self.markers.query(boxes)
        spot = spot_marks
        gap = _rect_distance(x0[spot], y0[spot], x1[spot], y1[spot], self.sites[other, 0], self.sites[other, 1]) - self.site_radii[other]
        covers = gap < MARK_CLEARANCE
        np.add.at(blocked, spot[covers], np.maximum(MARK_CLEARANCE - gap[covers], 0.01) * 10.0)
        ambiguous = np.zeros(len(x0), dtype=bool)
        strangers = self.site_owner[other] != owner[spot]
        margin = np.maximum(AMBIGUITY_MARGIN, AMBIGUITY_SHARE * r[spot[strangers]])
        np.logical_or.at(ambiguous, spot[strangers], gap[strangers] < own[spot[strangers]] + margin)
        astray = np.zeros(len(x0), dtype=bool)  # a label set off nearer another marker than its own
        np.logical_or.at(astray, spot[strangers], gap[strangers] < own[spot[strangers]])
        astray &= far
        # a label across the line from its marker to a neighbour close by sits between the two: it reads as either's
        s, o = spot[strangers], other[strangers]
        width = BETWEEN_SHARE * np.minimum(r[s], self.site_radii[o])
        between = (gap[strangers] < BETWEEN_REACH * r[s]) & _segment_meets_rect(
            cx[s], cy[s], self.sites[o, 0], self.sites[o, 1], x0[s] - width, y0[s] - width, x1[s] + width, y1[s] + width)
        np.logical_or.at(ambiguous, s, between)
        ambiguous &= (near >= 0) & ~area

        if self.solid is not None:
            spot, hit = self.solid.query(boxes)
            ob = self.obstacles
            ow = np.minimum(x1[spot], ob[hit, 2]) - np.maximum(x0[spot], ob[hit, 0])
            oh = np.minimum(y1[spot], ob[hit, 3]) - np.maximum(y0[spot], ob[hit, 1])
            np.add.at(blocked, spot, np.where((ow > 0) & (oh > 0), ow * oh, 0.0))

        crossings = np.zeros(len(x0))
        leader_crossings = np.zeros(len(x0))
        led = np.nonzero(far)[0]
        ends = leader[led]
        reach = (np.minimum(ends[:, 0], ends[:, 2]), np.minimum(ends[:, 1], ends[:, 3]),
                 np.maximum(ends[:, 0], ends[:, 2]), np.maximum(ends[:, 1], ends[:, 3]))
        envelopes = shapely.box(*reach) if len(led) else None
        spot, seg, dense = self.lines.near(x0, y0, x1, y1, DENSE_LINES)
        s = self.lines.segments[seg]
        meets = _segment_meets_rect(s[:, 0], s[:, 1], s[:, 2], s[:, 3], x0[spot], y0[spot], x1[spot], y1[spot])
        np.add.at(crossings, spot[meets], 1)
        crossings[dense] = DENSE_LINES
        if len(led):
            spot, seg, dense = self.lines.near(*reach, DENSE_LINES)
            s, e = self.lines.segments[seg], ends[spot]
            np.add.at(leader_crossings, led[spot[_segments_cross(e, s)]], 1)
            leader_crossings[led[dense]] = DENSE_LINES

        # a label set off close by another marker, or a leader passing close by one, points at it as much as at its own
        crowded = np.zeros(len(x0), dtype=bool)
        np.logical_or.at(crowded, spot_marks[strangers], far[spot_marks[strangers]] & (gap[strangers] < FAR_CLEARANCE))
        if len(led):
            spot, other = self.markers.query(envelopes)
            keep = self.site_owner[other] != owner[led[spot]]
            spot, other = spot[keep], other[keep]
            e = ends[spot]
            close = _segment_distance(e[:, 0], e[:, 1], e[:, 2], e[:, 3], self.sites[other, 0], self.sites[other, 1]) \
                - self.site_radii[other] < LEADER_CLEARANCE
            crowded[led[spot[close]]] = True

        # near spots cost their distance and order; those further out their distance, their leader and what it crosses
        order = np.where(near >= 0, near % (len(NEAR_SPOTS) // len(NEAR)), 0)
        distance = np.where(near >= 0, np.array([s[-1] for s in NEAR_SPOTS])[np.maximum(near, 0)], own)
        soft = distance * DISTANCE_COST + order * ORDER_COST + far * LEADER_COST + leader_crossings * LEADER_CROSSING_COST
        soft = soft + AVOID_COST * self._share_avoided(owner, x0, y0, x1, y1)
        soft = soft + ASTRAY_COST * astray
        return _Candidates(owner, x0, y0, x1, y1, near, far, leader, soft, blocked, crossings, ambiguous, crowded)

    def _share_avoided(self, owner, x0, y0, x1, y1):
        """How much of each spot's label lies over the shape its label should avoid, 0..1, read at its centre and
        its four corners."""
        import numpy as np

        share = np.zeros(len(x0))
        for i in np.unique(owner[self.avoiding[owner]]):
            mine = np.nonzero(owner == i)[0]
            xs, ys = (x0[mine], (x0[mine] + x1[mine]) / 2, x1[mine]), (y0[mine], (y0[mine] + y1[mine]) / 2, y1[mine])
            points = [(xs[1], ys[1])] + [(x, y) for x in (xs[0], xs[2]) for y in (ys[0], ys[2])]
            share[mine] = sum(shapely.contains_xy(self.requests[i].avoid, x, y) for x, y in points) / len(points)
        return share


def _candidates(scene: _Scene) -> tuple[_Candidates, object]:
    """Every label's near spots, and spots further out for each label with few clear near ones (and for areas);
    and which labels have spots further out."""
    import numpy as np

    everyone = np.arange(len(scene.requests))
    owner, x0, y0, near = _near_spots(scene.requests, everyone)
    found = scene.judge(owner, x0, y0, near)
    near_count = np.bincount(found.owner[found.clear], minlength=len(everyone))
    wanting = (near_count < FEW) | scene.area
    if wanting.any():
        owner, x0, y0 = _far_spots(scene.requests, np.nonzero(wanting)[0])
        found = found.joined(scene.judge(owner, x0, y0, np.full(len(owner), -1)))
    return found, wanting


class _Taken:
    """Placed labels (rectangles) and their leader lines (segments) by the grid cells they touch."""

    def __init__(self):
        self.cells: dict[tuple[int, int], set[int]] = defaultdict(set)
        self.rects: dict[int, tuple[float, float, float, float]] = {}
        self.leaders: dict[int, object] = {}

    @staticmethod
    def _span(x0, y0, x1, y1):
        for i in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for j in range(int(y0 // CELL), int(y1 // CELL) + 1):
                yield i, j

    def _extent(self, key: int):
        x0, y0, x1, y1 = self.rects[key]
        leader = self.leaders.get(key)
        if leader is None:
            return x0, y0, x1, y1
        return (min(x0, leader[0], leader[2]), min(y0, leader[1], leader[3]),
                max(x1, leader[0], leader[2]), max(y1, leader[1], leader[3]))

    def add(self, key: int, rect, leader=None) -> None:
        self.rects[key] = rect
        if leader is not None:
            self.leaders[key] = leader
        for cell in self._span(*self._extent(key)):
            self.cells[cell].add(key)

    def remove(self, key: int) -> None:
        for cell in self._span(*self._extent(key)):
            self.cells[cell].discard(key)
        del self.rects[key]
        self.leaders.pop(key, None)

    def near(self, x0, y0, x1, y1) -> set[int]:
        found: set[int] = set()
        for cell in self._span(x0, y0, x1, y1):
            found |= self.cells.get(cell, set())
        return found


def _segment_meets_rect(sx0, sy0, sx1, sy1, left, top, right, bottom):
    """Whether segments meet rectangles (numpy arrays, broadcast together): the segment's parameter range
    clipped to the rectangle's two slabs is not empty."""
    import numpy as np

    low, high = 0.0, 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        for start, step, lo, hi in ((sx0, sx1 - sx0, left, right), (sy0, sy1 - sy0, top, bottom)):
            flat = np.abs(step) < 1e-12
            t1, t2 = (lo - start) / step, (hi - start) / step
            low = np.where(flat, low, np.maximum(low, np.minimum(t1, t2)))
            high = np.where(flat, np.where((start < lo) | (start > hi), -1.0, high), np.minimum(high, np.maximum(t1, t2)))
    return low <= high


def _segments_cross(a, b):
    """Whether segments a and b (n x 4 arrays, pairwise) cross or touch."""
    def side(p, q, r):
        return (q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0])

    a0, a1, b0, b1 = a[:, :2], a[:, 2:], b[:, :2], b[:, 2:]
    d1, d2, d3, d4 = side(b0, b1, a0), side(b0, b1, a1), side(a0, a1, b0), side(a0, a1, b1)
    return (d1 * d2 <= 0) & (d3 * d4 <= 0)


class _Placer:
    """One placement run: the spots of every label, and which spot each label holds."""

    def __init__(self, scene: _Scene):
        import numpy as np

        self.scene, self.requests = scene, scene.requests
        self.c, self.widened = c, _ = _candidates(scene)
        order = np.lexsort((c.soft, c.owner))
        starts = np.searchsorted(c.owner[order], np.arange(len(self.requests) + 1))
        self.spots = [order[starts[i]:starts[i + 1]] for i in range(len(self.requests))]  # each label's spots, best first
        self.clear = c.clear
        self.ranked = [s[self.clear[s]] for s in self.spots]  # each label's clear spots, best first
        self.taken = _Taken()
        self.held: dict[int, int] = {}  # label -> the spot it holds
        self.journal: list[tuple[str, int, int]] = []  # every hold and release, so that a failed repair can be undone

    def _rect(self, spot: int):
        c = self.c
        return float(c.x0[spot]), float(c.y0[spot]), float(c.x1[spot]), float(c.y1[spot])

    def _hold(self, label: int, spot: int) -> None:
        self.held[label] = spot
        self.taken.add(label, self._rect(spot), self.c.leader[spot] if self.c.far[spot] else None)
        self.journal.append(("hold", label, spot))

    def _release(self, label: int) -> None:
        self.journal.append(("release", label, self.held.pop(label)))
        self.taken.remove(label)

    def _meeting(self, spots, ignore=frozenset()):
        """The placed labels near `spots` (besides `ignore`), their rectangles, and for each spot which of them
        its label or leader would meet (a spots x labels array)."""
        import numpy as np

        c = self.c
        spots = np.asarray(spots, dtype=int)
        if not len(spots):
            return [], np.zeros((0, 4)), np.zeros((0, 0), dtype=bool)
        x0, y0, x1, y1 = c.x0[spots], c.y0[spots], c.x1[spots], c.y1[spots]
        lx = np.minimum(np.minimum(x0, c.leader[spots, 0]), c.leader[spots, 2])
        ly = np.minimum(np.minimum(y0, c.leader[spots, 1]), c.leader[spots, 3])
        hx = np.maximum(np.maximum(x1, c.leader[spots, 0]), c.leader[spots, 2])
        hy = np.maximum(np.maximum(y1, c.leader[spots, 1]), c.leader[spots, 3])
        others = sorted(self.taken.near(float(lx.min()) - LABEL_GAP, float(ly.min()) - LABEL_GAP, float(hx.max()) + LABEL_GAP,
                                       float(hy.max()) + LABEL_GAP) - set(ignore))
        rects = np.array([self.taken.rects[o] for o in others], dtype=float).reshape(-1, 4)
        hit = ((np.minimum(x1[:, None], rects[None, :, 2]) + LABEL_GAP > np.maximum(x0[:, None], rects[None, :, 0]))
               & (np.minimum(y1[:, None], rects[None, :, 3]) + LABEL_GAP > np.maximum(y0[:, None], rects[None, :, 1])))
        led = [j for j, o in enumerate(others) if o in self.taken.leaders]
        if led:  # a placed leader line through a spot
            s = np.array([self.taken.leaders[others[j]] for j in led])[None, :, :]
            hit[:, led] |= _segment_meets_rect(s[..., 0], s[..., 1], s[..., 2], s[..., 3], x0[:, None], y0[:, None], x1[:, None], y1[:, None])
        far = np.nonzero(c.far[spots])[0]
        if len(far) and len(others):  # a spot's own leader line through a placed label
            s = c.leader[spots[far]][:, None, :]
            hit[far] |= _segment_meets_rect(s[..., 0], s[..., 1], s[..., 2], s[..., 3], rects[None, :, 0], rects[None, :, 1],
                                            rects[None, :, 2], rects[None, :, 3])
        return others, rects, hit

    def _in_the_way(self, spots, ignore=frozenset()):
        """For each of `spots`, the placed labels its label or leader would meet (besides `ignore`)."""
        import numpy as np

        others, _, hit = self._meeting(spots, ignore)
        met: list[list[int]] = [[] for _ in range(len(hit))]
        for i, j in zip(*np.nonzero(hit)):
            met[i].append(others[j])
        return met

    def place(self, label: int) -> bool:
        """Give `label` its best clear spot that no placed label meets; False when it has none."""
        spots = self.ranked[label]
        for spot, others in zip(spots, self._in_the_way(spots) if len(spots) else ()):
            if not others:
                self._hold(label, int(spot))
                return True
        return False

    def widen(self, labels: Sequence[int]) -> None:
        """Offer `labels` spots further out too, where they had only near ones."""
        import numpy as np

        labels = [i for i in labels if not self.widened[i]]
        if not labels:
            return
        owner, x0, y0 = _far_spots(self.requests, labels)
        first = len(self.c.owner)
        self.c = self.c.joined(self.scene.judge(owner, x0, y0, np.full(len(owner), -1)))
        self.clear = self.c.clear
        for i in labels:
            self.widened[i] = True
            spots = np.concatenate([self.spots[i], first + np.nonzero(owner == i)[0]])
            self.spots[i] = spots[np.argsort(self.c.soft[spots], kind="stable")]
            self.ranked[i] = self.spots[i][self.clear[self.spots[i]]]

    def fallback(self, label: int):
        """The spots of a label with no clear one free, least bad first: over no marker or obstacle, with a
        leader clear of other markers, nearer its own marker than any other (a name read as another city's
        misleads more than a line under it) and crossing as few lines as they can."""
        import numpy as np

        c, spots = self.c, self.spots[label]
        spots = spots[(c.blocked[spots] == 0) & ~c.crowded[spots]]
        return spots[np.lexsort((c.soft[spots], c.crossings[spots], c.ambiguous[spots] & ~c.far[spots]))]

    def repair(self, label: int, depth: int = REPAIR_DEPTH, moving: frozenset = frozenset(), spots=None) -> bool:
        """Give `label` a clear spot (or the first free of `spots`) by moving the one or two labels in its way to
        clear spots of theirs, and those in their way in turn, `depth` deep; everything stays as it was when that
        fails."""
        spots = self.ranked[label] if spots is None else spots
        if not len(spots):
            return False
        met = self._in_the_way(spots)
        free = next((int(spot) for spot, others in zip(spots, met) if not others), None)
        if free is not None:
            self._hold(label, free)
            return True
        for spot, others in list(zip(spots, met))[:REPAIR_SPOTS] if depth else ():
            if len(others) > REPAIR_MOVES or moving & set(others):
                continue
            mark = len(self.journal)
            for o in others:
                self._release(o)
            self._hold(label, int(spot))
            if all(self.repair(o, depth - 1, moving | {label}) for o in others):
                return True
            self._undo(mark)
        return False

    def _undo(self, mark: int) -> None:
        """Take back every hold and release since the journal was `mark` long."""
        while len(self.journal) > mark:
            action, label, spot = self.journal.pop()
            if action == "hold":
                del self.held[label]
                self.taken.remove(label)
            else:
                self.held[label] = spot
                self.taken.add(label, self._rect(spot), self.c.leader[spot] if self.c.far[spot] else None)

    def improve(self, label: int) -> None:
        """Move `label` to a better clear spot when one is free now that every label has its place."""
        held = self.held[label]
        if not self.clear[held]:
            return
        self._release(label)
        if not self.place(label) or self.c.soft[self.held[label]] > self.c.soft[held]:
            if label in self.held:
                self._release(label)
            self._hold(label, held)

    def least_bad(self, label: int) -> None:
        """Put a label with no free clear spot where it covers, crosses and confuses least."""
        import numpy as np

        c = self.c
        spots = self.spots[label]
        _, rects, hit = self._meeting(spots)
        w = np.minimum(c.x1[spots][:, None], rects[None, :, 2]) - np.maximum(c.x0[spots][:, None], rects[None, :, 0])
        h = np.minimum(c.y1[spots][:, None], rects[None, :, 3]) - np.maximum(c.y0[spots][:, None], rects[None, :, 1])
        covered = (np.where(hit, np.maximum(w, 0.1) * np.maximum(h, 0.1), 0.0)).sum(axis=1)
        cost = ((c.blocked[spots] + covered) * COVER_COST + c.crossings[spots] * CROSSING_COST
                + (c.ambiguous[spots] | c.crowded[spots]) * AMBIGUITY_COST + c.soft[spots])
        self._hold(label, int(spots[int(np.argmin(cost))]))

    def result(self, label: int) -> PlacedLabel:
        c, spot = self.c, self.held[label]
        x0, y0, x1, y1 = self._rect(spot)
        if c.near[spot] >= 0:
            name = NEAR_SPOTS[int(c.near[spot])][0]
        else:
            x, y = self.requests[label].at
            name = f"{round(math.degrees(math.atan2(y - (y0 + y1) / 2, (x0 + x1) / 2 - x))) % 360}°"
        met = self._in_the_way([spot], ignore={label})[0]
        return PlacedLabel(self.requests[label].key, Box(x0, y0, x1 - x0, y1 - y0), name,
                           bool(c.blocked[spot] > 0 or met), bool(c.far[spot]), bool(c.crossings[spot] > 0))


def place_labels(requests: Sequence[LabelRequest], frame: Box, obstacles: Sequence[Box] = (),
                 lines: Sequence[Sequence[XY]] = ()) -> list[PlacedLabel]:
    """A spot for every label (see the module's docstring), in the order of `requests`.

    Labels stay inside `frame`, off every request's marker, off `obstacles` (badges, symbols, boxes) and off
    each other, and cross none of `lines` wherever a spot allows. Among labels with as few clear spots, the
    earlier in `requests` is placed first (put the most important first)."""
    if not requests:
        return []
    scene = _Scene(list(requests), frame, obstacles, lines)
    placer = _Placer(scene)
    count = [len(r) for r in placer.ranked]
    short = [int((placer.c.soft[r] <= SHORT_COST).sum()) for r in placer.ranked]
    order = sorted(range(len(requests)), key=lambda i: (count[i] == 0, short[i], count[i], i))
    waiting = [i for i in order if count[i] > 0 and not placer.place(i)]
    unplaced = [i for i in waiting if not placer.repair(i)] + [i for i in order if count[i] == 0]
    placer.widen(unplaced + [o for i in unplaced for spots in placer._in_the_way(placer.ranked[i][:REPAIR_SPOTS]) for o in spots])
    unplaced = [i for i in unplaced if not placer.repair(i)]
    for i in unplaced:
        if not placer.repair(i, spots=placer.fallback(i)):
            placer.least_bad(i)
    for i in sorted(placer.held, key=lambda i: -placer.c.soft[placer.held[i]]):  # each the best spot left free by the rest
        placer.improve(i)
    return [placer.result(i) for i in range(len(requests))]
