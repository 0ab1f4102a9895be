"""Rectangles on a page, in mm from the top-left corner with y downwards, as every generator measures them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    """A rectangle in mm: top-left corner, width and height."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def grown(self, by: float) -> "Box":
        """The box enlarged by `by` mm on every side (for bleed)."""
        return Box(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def shifted(self, dx: float, dy: float) -> "Box":
        return Box(self.x + dx, self.y + dy, self.width, self.height)

    def overlap(self, other: "Box") -> float:
        """The area the two boxes share."""
        w = min(self.right, other.right) - max(self.x, other.x)
        h = min(self.bottom, other.bottom) - max(self.y, other.y)
        return w * h if w > 0 and h > 0 else 0.0
