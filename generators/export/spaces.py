"""The spaces of a board that pieces stand on: each city's space on the map poster, as the map's own
`city_spaces` gives it, and each sea zone's ship, then the rooms of its aids (the boxes of its tracks and
records, its boxes); and each space of a track board with the rooms of its boxes and card slots; in mm from the board's top left corner, with the diameter of its marker (a square
space or a room: its smaller side).

VASSAL names and snaps to them (a region per space), Tabletop Simulator gets a snap point on each.
They are the printed boards' own answers (generators.map.spaces, the track board's plan), so an
export's spaces sit exactly on the printed spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.game import Game
    from ..map.track_board import BoardPlan

CITY, SEA, TRACK, ROOM = "city", "sea zone", "space", "room"


@dataclass(frozen=True)
class Space:
    """A named spot on a board: a city, a sea zone, a track's space (its kind when it has one) or an aid's room;
    its centre (mm) and its marker's diameter (mm); `face_down`: what is laid there lies face down (a card place)."""

    name: str
    kind: str
    x: float
    y: float
    diameter: float
    face_down: bool = False


def map_spaces(game: "Game") -> list[Space]:
    """Every city's space on the poster (`city_spaces`, in the map's order), then every sea zone's ship."""
    from ..map.spaces import city_spaces, poster_places

    spaces = [Space(name, CITY, space.x_mm, space.y_mm, space.diameter_mm) for name, space in city_spaces(game).items()]
    at, ship = poster_places(game).at, game.layout.poster.ship
    spaces += [Space(zone.name, SEA, *at[zone.name], ship) for zone in game.map.sea_zones if zone.name in at]
    return spaces


def track_spaces(plan: "BoardPlan") -> list[Space]:
    """Every space of a track board in the track's order (named as printed), then the rooms of its aids."""
    return [Space(at.space.label, at.space.kind or TRACK, *at.centre, at.size) for at in plan.spaces] + aid_spaces(plan.aids)


def aid_spaces(aids) -> list[Space]:
    """The rooms of laid-out aids ((Laid, x, y), mm on the board) as spaces: a box, a card place, each box of a
    track or a record."""
    return [Space(room.label, ROOM, x + room.x + room.width / 2, y + room.y + room.height / 2,
                  min(room.width, room.height), room.face_down) for laid, x, y in aids for room in laid.rooms]
