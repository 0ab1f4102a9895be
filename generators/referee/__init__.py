"""The referee: rules questions answered by each game's own `referee.py`, positions checked, and the rule search.

This package is the one module a game's Python imports (a test checks it): the contract's vocabulary
(`rulings`), and the game's data and map as the referee reads them, re-exported here so game code
never depends on where the core keeps them. The map's network and the track boards' moves are imported only
when asked for.
"""

from ..core.errors import DataError, UnknownNameError
from ..core.map_models import City, MapFile
from ..core.models import Faction, Piece
from ..core.names import NameIndex
from ..core.tile_text import tile_values
from .game_record import Illegal, Replay
from .position import Finding, Position
from .questions import Param
from .rulings import Allowed, Facts, QuestionError, Ruling, Table, only_in

__all__ = ["Allowed", "City", "DataError", "Facts", "Faction", "Finding", "Illegal", "MapFile", "NameIndex", "Param", "Piece",
           "Position", "QuestionError", "Replay", "Ruling", "Table", "UnknownNameError", "network", "only_in", "tile_values", "track"]


def __getattr__(name: str):
    """`network`, the map's route network, and `track`, moves along a track board, imported on first use."""
    if name == "network":
        from ..map import network

        return network
    if name == "track":
        from ..map import track

        return track
    raise AttributeError(name)
