"""The spaces of a board that pieces stand on: each city's and each sea zone's spot on the map poster,
in mm from the poster's top left corner, with the diameter of its marker.

VASSAL names and snaps to them (a region per space), Tabletop Simulator gets a snap point on each.
They are read from the poster's plan, where its cities are drawn, so that an export's spaces sit
exactly on the printed markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..map.poster import PosterPlan

CITY, SEA = "city", "sea zone"


@dataclass(frozen=True)
class Space:
    """A named spot on a board: a city or a sea zone, its centre (mm) and its marker's diameter (mm)."""

    name: str
    kind: str
    x: float
    y: float
    diameter: float


def poster_spaces(plan: "PosterPlan") -> list[Space]:
    """Every city's space on the poster, then every sea zone's, in the map's order."""
    spaces = []
    for city in plan.game_map.cities:
        x, y = plan.at[city.name]
        spaces.append(Space(city.name, CITY, x, y, 2 * plan.radius(city.name)))
    for zone in plan.game_map.sea_zones:
        if zone.name in plan.at:
            x, y = plan.at[zone.name]
            spaces.append(Space(zone.name, SEA, x, y, 2 * plan.radius(zone.name)))
    return spaces
