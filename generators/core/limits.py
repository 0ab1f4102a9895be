"""The sane limits Dossier holds data and options to, so that a hostile or mistaken file is refused
quickly, with the limit named, instead of running for minutes or filling the memory.

Each is far beyond any real game: the largest shipped roster has 200 pieces and a 50 kB map; the largest maps and
rosters Dossier is measured on (benchmarks/) have 5,000 cities and 10,000 counters.
"""

from __future__ import annotations

import reprlib

# A data file (game.yaml, pieces.yaml, a layout preset...) larger than this is refused unread.
MAX_FILE_BYTES = 10 * 1024 * 1024
# Values (scalars, lists, mappings) one YAML document may hold, every alias counted as often as it is used.
MAX_YAML_VALUES = 1_000_000
# Pieces one build or replacement run prints, copies included.
MAX_PIECES = 50_000
# Characters in one text of a data file; a longer one cannot be printed on any piece or card.
MAX_TEXT = 10_000
# Places and lines one map may hold: the poster spaces every city and places every name, work that grows with
# them and with how many lines pass near each; the largest map Dossier is measured on has 5,000 cities.
MAX_CITIES = 5_000
MAX_SEA_ZONES = 1_000
MAX_ZONE_WATERS = 50  # points of open sea one zone may claim (sea_zones[].waters)
MAX_ROUTES = 20_000
# Entries of one playing aid (a track's boxes, a box's room, a list's items, a record's rows...), aids on one
# map, display or board, and spaces on one track board: each is drawn, so each costs time; the shipped aids
# have at most 100 boxes (a money track), a dozen aids on a sheet and 20 spaces on a board.
MAX_AID_ENTRIES = 1_000
MAX_AIDS = 100
MAX_BOARD_SPACES = 1_000
# Lengths (mm) and type sizes (pt) in a layout: a poster is under a metre, type under a few inches.
MAX_LENGTH = 5_000.0
# A value shown in a message is cut to this many characters.
SHOWN_CHARS = 80


_brief = reprlib.Repr()
_brief.maxstring = _brief.maxother = _brief.maxlong = SHOWN_CHARS
_brief.maxlist = _brief.maxtuple = _brief.maxdict = _brief.maxset = 6
_brief.maxlevel = 3


def shown(value: object) -> str:
    """`value` as a message quotes it (repr), cut to about SHOWN_CHARS; a long text says how long it is.

    Cutting happens while the repr is made, so a huge nested value costs no more than a small one.
    """
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return f"{value[:SHOWN_CHARS]!r}... ({len(value):,} characters)"
    try:
        return _brief.repr(value)
    except ValueError:  # an integer too long for Python to print
        return "a number too long to show"
