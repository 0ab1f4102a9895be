"""The spaces of a board that pieces stand on: each city's and each sea zone's spot on the map poster,
and each space of a track board with the rooms of its boxes and card slots, in mm from the board's top
left corner, with the diameter of its marker (a square space or a room: its smaller side).

VASSAL names and snaps to them (a region per space), Tabletop Simulator gets a snap point on each.
They are read from the poster's plan, where its cities are drawn, so that an export's spaces sit
exactly on the printed markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..map.poster import PosterPlan
    from ..map.track_board import BoardPlan

CITY, SEA, TRACK, ROOM = "city", "sea zone", "space", "room"


@dataclass(frozen=True)
class Space:
    """A named spot on a board: a city, a sea zone, a track's space (its kind when it has one) or an aid's room;
    its centre (mm) and its marker's diameter (mm)."""

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


def track_spaces(plan: "BoardPlan") -> list[Space]:
    """Every space of a track board in the track's order (named as printed), then the rooms of its aids."""
    spaces = [Space(at.space.label, at.space.kind or TRACK, *at.centre, at.size) for at in plan.spaces]
    for laid, x, y in plan.aids:
        spaces += [Space(room.label, ROOM, x + room.x + room.width / 2, y + room.y + room.height / 2,
                         min(room.width, room.height)) for room in laid.rooms]
    return spaces
