"""Line segments filed by the cells of a square grid, so that what lies near a box or a point is measured only
against the segments near it, however long each segment and however many: a long diagonal line is filed
under the cells it passes through, not under its whole bounding box, and the pairs are found a chunk of
boxes at a time, so that the memory stays bounded.
"""

from __future__ import annotations

CELL = 4.0  # mm: the side of a cell
CHUNK = 16_384  # boxes looked up at once


class LineGrid:
    """Segments (an n x 4 array of x0, y0, x1, y1 in mm) filed by the cells of a grid they pass through: each is
    cut into pieces no longer than a cell, and each piece filed under the (at most four) cells its box touches."""

    def __init__(self, segments):
        import numpy as np

        self.segments = s = segments
        length = np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1])
        parts = np.maximum(np.ceil(length / CELL), 1).astype(np.int64)
        seg = np.repeat(np.arange(len(s)), parts)
        k = np.arange(len(seg)) - np.repeat(np.cumsum(parts) - parts, parts)
        t0, t1 = k / parts[seg], (k + 1) / parts[seg]
        xa, ya = s[seg, 0] + (s[seg, 2] - s[seg, 0]) * t0, s[seg, 1] + (s[seg, 3] - s[seg, 1]) * t0
        xb, yb = s[seg, 0] + (s[seg, 2] - s[seg, 0]) * t1, s[seg, 1] + (s[seg, 3] - s[seg, 1]) * t1
        ix0, ix1 = self._cell(np.minimum(xa, xb)), self._cell(np.maximum(xa, xb))
        iy0, iy1 = self._cell(np.minimum(ya, yb)), self._cell(np.maximum(ya, yb))
        keys, owners = [], []
        for dx in (0, 1):
            for dy in (0, 1):
                inside = (ix0 + dx <= ix1) & (iy0 + dy <= iy1)
                keys.append(self._key(ix0[inside] + dx, iy0[inside] + dy))
                owners.append(seg[inside])
        self.keys, cell = np.unique(np.concatenate(keys), return_inverse=True)
        filing = np.unique(cell.ravel() * max(len(s), 1) + np.concatenate(owners))  # each (cell, segment) once, by cell
        self.filed = filing % max(len(s), 1)
        self.starts = np.searchsorted(filing // max(len(s), 1), np.arange(len(self.keys) + 1))

    @staticmethod
    def _cell(v):
        import numpy as np

        return np.floor(v / CELL).astype(np.int64)

    @staticmethod
    def _key(ix, iy):
        return (ix + 2**20) * 2**21 + (iy + 2**20)

    def near(self, x0, y0, x1, y1, most: int | None = None):
        """The segments filed in the cells each box (left, top, right, bottom arrays) touches, as (box, segment)
        pairs, each pair once; and which boxes are crowded: their cells hold more than `most` filings, and
        they are left out of the pairs."""
        import numpy as np

        spots, segs = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        dense = np.zeros(len(x0), dtype=bool)
        for start in range(0, len(x0) if len(self.keys) else 0, CHUNK):
            part = slice(start, start + CHUNK)
            cx0, cx1, cy0, cy1 = self._cell(x0[part]), self._cell(x1[part]), self._cell(y0[part]), self._cell(y1[part])
            nx, ny = cx1 - cx0 + 1, cy1 - cy0 + 1
            cells = nx * ny
            box = np.repeat(np.arange(len(cx0)), cells)
            local = np.arange(len(box)) - np.repeat(np.cumsum(cells) - cells, cells)
            key = self._key(cx0[box] + local % nx[box], cy0[box] + local // nx[box])
            at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
            count = np.where(self.keys[at] == key, self.starts[at + 1] - self.starts[at], 0)
            crowded = np.bincount(box, count, minlength=len(cx0)) > (np.inf if most is None else most)
            dense[part] = crowded
            keep = ~crowded[box] & (count > 0)
            box, at, count = box[keep], at[keep], count[keep]
            first = np.repeat(self.starts[at] - (np.cumsum(count) - count), count)
            seg = self.filed[first + np.arange(int(count.sum()))]
            pair = np.unique(np.repeat(box, count) * len(self.segments) + seg)
            spots.append(pair // len(self.segments) + start)
            segs.append(pair % len(self.segments))
        return np.concatenate(spots), np.concatenate(segs), dense
