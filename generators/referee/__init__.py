"""The referee: rules questions answered by each game's own `referee.py`, positions checked, and the rule search.

A game's referee module imports what it answers with from here (see `rulings` for the contract).
"""

from .position import Finding, Position
from .questions import Param
from .rulings import QuestionError, Ruling, Table, only_in

__all__ = ["Finding", "Param", "Position", "QuestionError", "Ruling", "Table", "only_in"]
