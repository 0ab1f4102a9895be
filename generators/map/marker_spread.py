"""Moving map markers apart where they would overlap, as cartographers displace crowded symbols: each
pair of round markers closer than their radii and a gap is pushed apart along the line joining them,
each by its share, a little at a time, until no pair overlaps (or a round limit is reached). Markers
that overlap no other stay exactly where they are.

Pairs are found with a spatial index each round, so the work grows with the number of markers and
of crowded pairs, not with every pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

XY = tuple[float, float]

ROUNDS = 60
GAP = 0.5  # mm of paper left between two markers
REPAIR = 5  # rounds between two searches for the pairs of markers that may touch


def spread_markers(points: Sequence[XY], radii: Sequence[float], fixed: Sequence[bool] | None = None,
                   gap: float = GAP, rounds: int = ROUNDS, within=None, settled: float = 1e-6) -> list[XY]:
    """`points` moved as little as they must so that no two markers (circles of `radii`) come within `gap`
    of each other (less `settled` mm, where the spreading stops); `fixed` markers do not move (their
    neighbours move away from them instead). `within` (x0, y0, x1, y1) keeps every marker wholly inside that box."""
    import numpy as np
    import shapely

    xy = np.array(points, dtype=float).reshape(-1, 2)
    r = np.asarray(radii, dtype=float)
    still = np.zeros(len(r), dtype=bool) if fixed is None else np.asarray(fixed, dtype=bool)
    if len(r) < 2:
        return [tuple(p) for p in xy.tolist()]
    reach = float(r.max()) * 2 + gap
    for round_ in range(rounds):
        if round_ % REPAIR == 0:  # the pairs that may touch, found again every few rounds (markers move little per round)
            tree = shapely.STRtree(shapely.points(xy))
            near_a, near_b = tree.query(shapely.points(xy), predicate="dwithin", distance=reach * 1.5)
            keep = near_a < near_b
            near_a, near_b = near_a[keep], near_b[keep]
        a, b = near_a, near_b
        d = xy[b] - xy[a]
        length = np.hypot(d[:, 0], d[:, 1])
        overlap = r[a] + r[b] + gap - length
        crowded = overlap > 1e-6
        if not (overlap > settled).any():
            break
        a, b, d, length, overlap = a[crowded], b[crowded], d[crowded], length[crowded], overlap[crowded]
        # markers on one and the same spot part in a direction fixed by their order (the golden angle)
        same = length < 1e-9
        angle = (a[same] * 2.399963 + b[same]) % (2 * math.pi)
        d[same] = np.column_stack([np.cos(angle), np.sin(angle)])
        length[same] = 1.0
        unit = d / length[:, None]
        share_a = np.where(still[a], 0.0, np.where(still[b], 1.0, 0.5))
        share_b = np.where(still[b], 0.0, 1.0 - share_a)
        push = np.zeros_like(xy)
        np.add.at(push, a, -unit * (overlap * share_a)[:, None])
        np.add.at(push, b, unit * (overlap * share_b)[:, None])
        xy += push * 0.6  # part of the way each round: a marker pushed by several neighbours does not overshoot
        if within is not None:
            x0, y0, x1, y1 = within
            xy[:, 0] = np.clip(xy[:, 0], x0 + r, x1 - r)
            xy[:, 1] = np.clip(xy[:, 1], y0 + r, y1 - r)
    return [tuple(p) for p in xy.tolist()]
