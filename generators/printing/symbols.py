"""The symbols a game's data may name ("star", "skull", "key"...), drawn in code as simple vector shapes.

Each symbol is drawn inside a square of side `size` mm centred on (cx, cy), in `ink`, with
`paper` (the face colour) for the holes (a skull's eyes, a ring's centre). Coordinates in the
drawings below run from -0.5 to 0.5 across the square, y downwards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..core.errors import Problem, UnknownNameError
from ..core.faces import NATION
from ..core.names import NameIndex

if TYPE_CHECKING:
    from ..core.game import Game


class Surface(Protocol):
    """What a symbol is drawn on: the two shapes it is made of (a Painter is one)."""

    def polygon(self, points, fill=None, stroke=None, line_width=0.25) -> None: ...

    def circle(self, cx, cy, r, fill=None, stroke=None, line_width=0.25) -> None: ...


class UnknownSymbolError(UnknownNameError):
    """A symbol name no drawing exists for."""

    def __init__(self, name: str):
        super().__init__("symbol", name, NameIndex("symbol", SYMBOLS).closest(name) or sorted(SYMBOLS))


class _Pen:
    """Maps the unit square onto the page and forwards to the painter."""

    def __init__(self, painter: "Surface", cx: float, cy: float, size: float, ink: str, paper: str):
        self.painter, self.cx, self.cy, self.size, self.ink, self.paper = painter, cx, cy, size, ink, paper

    def at(self, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(self.cx + u * self.size, self.cy + v * self.size) for u, v in points]

    def shape(self, points, hole: bool = False) -> None:
        self.painter.polygon(self.at(points), fill=self.paper if hole else self.ink)

    def disc(self, u: float, v: float, r: float, hole: bool = False) -> None:
        self.painter.circle(self.cx + u * self.size, self.cy + v * self.size, r * self.size,
                            fill=self.paper if hole else self.ink)

    def stroke(self, points, weight: float, hole: bool = False) -> None:
        """A polyline `weight` (fraction of the square) thick, drawn as a filled band so it scales."""
        pts = self.at(points)
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            dx, dy = x2 - x1, y2 - y1
            length = math.hypot(dx, dy) or 1.0
            nx, ny = -dy / length * weight * self.size / 2, dx / length * weight * self.size / 2
            self.painter.polygon([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)],
                                 fill=self.paper if hole else self.ink)
        for x, y in pts:
            self.painter.circle(x, y, weight * self.size / 2, fill=self.paper if hole else self.ink)


def _arc(cu: float, cv: float, r: float, start: float, end: float, steps: int = 12) -> list[tuple[float, float]]:
    """Points on a circular arc, angles in degrees (0 = right, 90 = down)."""
    return [(cu + r * math.cos(math.radians(a)), cv + r * math.sin(math.radians(a)))
            for a in (start + (end - start) * i / steps for i in range(steps + 1))]


def _star(pen: _Pen) -> None:
    points = []
    for i in range(10):
        r = 0.48 if i % 2 == 0 else 0.19
        a = math.radians(-90 + 36 * i)
        points.append((r * math.cos(a), 0.04 + r * math.sin(a)))
    pen.shape(points)


def _cross(pen: _Pen) -> None:
    # a cross whose arms widen towards their ends
    n, w, e = 0.07, 0.2, 0.46
    pen.shape([(-w, -e), (w, -e), (n, -n), (e, -w), (e, w), (n, n), (w, e), (-w, e), (-n, n),
               (-e, w), (-e, -w), (-n, -n)])


def _ring(pen: _Pen) -> None:
    pen.disc(0, 0, 0.44)
    pen.disc(0, 0, 0.27, hole=True)


def _lozenge(pen: _Pen) -> None:
    pen.shape([(0, -0.48), (0.32, 0), (0, 0.48), (-0.32, 0)])


def _crown(pen: _Pen) -> None:
    pen.shape([(-0.42, 0.3), (-0.46, -0.28), (-0.22, 0.0), (0, -0.38), (0.22, 0.0), (0.46, -0.28), (0.42, 0.3)])
    pen.shape([(-0.42, 0.34), (0.42, 0.34), (0.42, 0.44), (-0.42, 0.44)])


def _skull(pen: _Pen) -> None:
    pen.disc(0, -0.08, 0.36)
    pen.shape([(-0.2, 0.1), (0.2, 0.1), (0.2, 0.42), (-0.2, 0.42)])
    pen.disc(-0.14, -0.06, 0.1, hole=True)
    pen.disc(0.14, -0.06, 0.1, hole=True)
    pen.shape([(0, 0.06), (0.05, 0.16), (-0.05, 0.16)], hole=True)
    for u in (-0.07, 0.07):
        pen.shape([(u - 0.015, 0.3), (u + 0.015, 0.3), (u + 0.015, 0.42), (u - 0.015, 0.42)], hole=True)


def _runner(pen: _Pen) -> None:
    pen.disc(0.1, -0.36, 0.1)
    pen.stroke([(0.04, -0.2), (-0.06, 0.08)], 0.12)  # body
    pen.stroke([(-0.3, -0.02), (-0.14, -0.18), (0.04, -0.2), (0.18, -0.04), (0.34, -0.1)], 0.08)  # arms
    pen.stroke([(-0.06, 0.08), (0.14, 0.24), (0.08, 0.44)], 0.09)  # front leg
    pen.stroke([(-0.06, 0.08), (-0.18, 0.28), (-0.4, 0.34)], 0.09)  # back leg


def _document(pen: _Pen) -> None:
    pen.shape([(-0.32, -0.44), (0.14, -0.44), (0.32, -0.26), (0.32, 0.44), (-0.32, 0.44)])
    pen.shape([(0.14, -0.44), (0.14, -0.26), (0.32, -0.26)], hole=True)
    for v in (-0.12, 0.04, 0.2):
        pen.shape([(-0.2, v), (0.2, v), (0.2, v + 0.05), (-0.2, v + 0.05)], hole=True)


def _key(pen: _Pen) -> None:
    pen.disc(-0.26, 0, 0.2)
    pen.disc(-0.26, 0, 0.09, hole=True)
    pen.shape([(-0.1, -0.05), (0.46, -0.05), (0.46, 0.05), (-0.1, 0.05)])
    pen.shape([(0.3, 0.05), (0.38, 0.05), (0.38, 0.2), (0.3, 0.2)])
    pen.shape([(0.16, 0.05), (0.24, 0.05), (0.24, 0.16), (0.16, 0.16)])


def _plus(pen: _Pen) -> None:
    t = 0.12
    pen.shape([(-t, -0.42), (t, -0.42), (t, -t), (0.42, -t), (0.42, t), (t, t), (t, 0.42), (-t, 0.42),
               (-t, t), (-0.42, t), (-0.42, -t), (-t, -t)])


def _arrow(pen: _Pen) -> None:
    pen.shape([(-0.44, -0.1), (0.06, -0.1), (0.06, -0.3), (0.46, 0), (0.06, 0.3), (0.06, 0.1), (-0.44, 0.1)])


def _dagger(pen: _Pen) -> None:
    pen.shape([(0, -0.48), (0.07, -0.36), (0.06, 0.12), (-0.06, 0.12), (-0.07, -0.36)])  # blade
    pen.shape([(-0.22, 0.12), (0.22, 0.12), (0.22, 0.19), (-0.22, 0.19)])  # guard
    pen.shape([(-0.045, 0.19), (0.045, 0.19), (0.045, 0.4), (-0.045, 0.4)])  # grip
    pen.disc(0, 0.43, 0.065)


def _shield(pen: _Pen) -> None:
    pen.shape([(-0.38, -0.42), (0.38, -0.42), (0.38, 0.02)] + _arc(0, 0.02, 0.38, 0, 90, 8)[1:]
              + _arc(0, 0.02, 0.38, 90, 180, 8)[1:])


def _bolt(pen: _Pen) -> None:
    pen.shape([(0.06, -0.48), (-0.3, 0.06), (-0.02, 0.06), (-0.12, 0.48), (0.3, -0.1), (0.02, -0.1), (0.14, -0.48)])


def _parcel(pen: _Pen) -> None:
    pen.shape([(-0.4, -0.3), (0.4, -0.3), (0.4, 0.4), (-0.4, 0.4)])
    pen.shape([(-0.04, -0.3), (0.04, -0.3), (0.04, 0.4), (-0.04, 0.4)], hole=True)
    pen.shape([(-0.4, 0.01), (0.4, 0.01), (0.4, 0.09), (-0.4, 0.09)], hole=True)
    pen.stroke([(0, -0.3), (-0.2, -0.44)], 0.06)
    pen.stroke([(0, -0.3), (0.2, -0.44)], 0.06)


def _eye(pen: _Pen) -> None:
    pen.shape(_arc(0, 0.42, 0.64, 222, 318) + _arc(0, -0.42, 0.64, 42, 138)[1:-1])
    pen.disc(0, 0, 0.17, hole=True)
    pen.disc(0, 0, 0.09)


def _ship(pen: _Pen) -> None:
    pen.shape([(-0.48, 0.06), (0.48, 0.06), (0.34, 0.34), (-0.38, 0.34)])  # hull
    pen.shape([(-0.3, -0.1), (0.24, -0.1), (0.24, 0.06), (-0.3, 0.06)])  # superstructure
    pen.shape([(-0.12, -0.38), (0.04, -0.38), (0.04, -0.1), (-0.12, -0.1)])  # funnel
    pen.shape([(-0.15, -0.44), (0.07, -0.44), (0.07, -0.36), (-0.15, -0.36)])  # funnel cap


def _crossed(pen: _Pen) -> None:
    pen.stroke([(-0.34, -0.34), (0.34, 0.34)], 0.12)
    pen.stroke([(0.34, -0.34), (-0.34, 0.34)], 0.12)


def _binoculars(pen: _Pen) -> None:
    for u in (-0.22, 0.22):
        pen.shape([(u - 0.1, -0.36), (u + 0.1, -0.36), (u + 0.12, -0.02), (u - 0.12, -0.02)])  # eyepiece barrels
        pen.disc(u, 0.16, 0.22)
        pen.disc(u, 0.16, 0.11, hole=True)
    pen.shape([(-0.1, -0.16), (0.1, -0.16), (0.1, 0.02), (-0.1, 0.02)])  # the bridge


def _target(pen: _Pen) -> None:
    pen.disc(0, 0, 0.46)
    pen.disc(0, 0, 0.34, hole=True)
    pen.disc(0, 0, 0.22)
    pen.disc(0, 0, 0.1, hole=True)


def _bomb(pen: _Pen) -> None:
    pen.disc(-0.08, 0.1, 0.34)
    pen.shape([(0.08, -0.3), (0.26, -0.12), (0.16, -0.02), (-0.02, -0.2)])  # the neck, turned up and right
    pen.stroke([(0.17, -0.21), (0.26, -0.34), (0.38, -0.36)], 0.05)  # the fuse
    pen.shape([(0.42, -0.48), (0.44, -0.38), (0.5, -0.36), (0.44, -0.34), (0.42, -0.24), (0.4, -0.34),
               (0.34, -0.36), (0.4, -0.38)])  # its spark


SYMBOLS: dict[str, Callable[[_Pen], None]] = {
    "runner": _runner, "star": _star, "cross": _cross, "ring": _ring, "lozenge": _lozenge,
    "crown": _crown, "skull": _skull, "document": _document, "key": _key, "plus": _plus,
    "arrow": _arrow, "dagger": _dagger, "shield": _shield, "bolt": _bolt, "parcel": _parcel,
    "eye": _eye, "crossed": _crossed, "ship": _ship, "binoculars": _binoculars, "target": _target,
    "bomb": _bomb,
}


def is_symbol(name: str) -> bool:
    """True when a drawing exists for symbol `name`."""
    return name in SYMBOLS


def draw_symbol(painter: "Surface", name: str, cx: float, cy: float, size: float,
                ink: str = "#000000", paper: str = "#ffffff") -> None:
    """Draw symbol `name` in a `size` mm square centred on (cx, cy); unknown names raise UnknownSymbolError."""
    if not is_symbol(name):
        raise UnknownSymbolError(name)
    SYMBOLS[name](_Pen(painter, cx, cy, size, ink, paper))


def check_symbols(game: "Game") -> list[Problem]:
    """Every symbol named in game.yaml (factions, kind faces), pieces.yaml and cards.yaml that has no drawing."""
    problems: list[Problem] = []

    def check(file: Path, where: str, name: str | None) -> None:
        if name and not is_symbol(name) and not ("{" in name or name == NATION):
            hint = NameIndex("symbol", SYMBOLS).closest(name)
            known = f"did you mean {', '.join(hint)}?" if hint else f"known: {', '.join(sorted(SYMBOLS))}"
            problems.append(Problem(file, where, f"unknown symbol {name!r}; {known}", "unknown-symbol"))

    for i, faction in enumerate(game.info.factions):
        check(game.file("game.yaml"), f"factions[{i}].symbol", faction.symbol)
    for name, kind in game.info.kinds.items():
        for side in ("front", "back"):
            template = getattr(kind, side)
            check(game.file("game.yaml"), f"kinds.{name}.{side}.symbol", template.symbol if template else None)
    for i, piece in enumerate(game.pieces):
        check(game.file("pieces.yaml"), f"pieces[{i}].symbol", piece.symbol)
        for j, icon in enumerate(piece.icons or ()):
            check(game.file("pieces.yaml"), f"pieces[{i}].icons[{j}]", icon)
        for j, mark in enumerate(piece.marks or ()):
            check(game.file("pieces.yaml"), f"pieces[{i}].marks[{j}]", mark)
    for name in game.info.symbol_names:
        check(game.file("game.yaml"), f"symbol_names.{name}", name)
    for i, card in enumerate(game.cards.cards if game.cards else ()):
        for face, side in card.sides():
            for s, section in enumerate(side.sections):
                for k, item in enumerate(section.items):
                    check(game.file("cards.yaml"), f"cards[{i}].{face}.sections[{s}].items[{k}].symbol", item.symbol)
    return problems

