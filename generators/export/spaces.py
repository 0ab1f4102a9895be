"""The spaces of a board that pieces stand on: each city's space on the map poster, as the map's own
`city_spaces` gives it, and each sea zone's ship; in mm from the poster's top left corner, with the
diameter of the printed mark.

VASSAL names and snaps to them (a region per space), Tabletop Simulator gets a snap point on each.
They are the poster's own answer (generators.map.spaces), so an export's spaces sit exactly on the
printed spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.game import Game

CITY, SEA = "city", "sea zone"


@dataclass(frozen=True)
class Space:
    """A named spot on a board: a city or a sea zone, its centre (mm) and its marker's diameter (mm)."""

    name: str
    kind: str
    x: float
    y: float
    diameter: float


def map_spaces(game: "Game") -> list[Space]:
    """Every city's space on the poster (`city_spaces`, in the map's order), then every sea zone's ship."""
    from ..map.spaces import city_spaces, poster_places

    spaces = [Space(name, CITY, space.x_mm, space.y_mm, space.diameter_mm) for name, space in city_spaces(game).items()]
    at, ship = poster_places(game).at, game.layout.poster.ship
    spaces += [Space(zone.name, SEA, *at[zone.name], ship) for zone in game.map.sea_zones if zone.name in at]
    return spaces
