"""The referee: rules questions answered by each game's own `referee.py`, and the rule search.

A game's referee module imports what it answers with from here (see `rulings` for the contract).
"""

from .rulings import QuestionError, Ruling, Table, only_in

__all__ = ["QuestionError", "Ruling", "Table", "only_in"]
