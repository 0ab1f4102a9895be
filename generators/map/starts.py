"""Where pieces start: the places a game's boards have for a piece's `start` (pieces.yaml), and the check that
every start names one of them.

A place is named as printed: a city or sea zone of the map, a space of a track board (its name, else its id),
or a room of an aid on either (Aid.room_names: a box's title, a card place's label, "Bank Track 50" for a
track's box, "Game Year 1933" for a record's). The exports set each copy
with a start on the first board that has its place (VASSAL: a set-up stack there; Tabletop Simulator: the
piece moved onto it when the board loads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Problem
from ..core.limits import shown

if TYPE_CHECKING:
    from ..core.board_models import Aid
    from ..core.game import Game

FACE_DOWN = "face down"


def start_places(game: "Game") -> list[str]:
    """Every place a piece may start on, in board order: the map's cities and sea zones, then each track board's
    spaces and the rooms of its boxes and card places."""
    names = {f.id: f.name for f in game.info.factions}
    places: list[str] = []
    if game.map is not None:
        places += [c.name for c in game.map.cities] + [z.name for z in game.map.sea_zones]
        places += [name for aid in game.map.aids for name in aid.room_names(names)]
    for board in game.boards.boards if game.boards else []:
        places += [s.label for s in board.spaces]
        places += [name for aid in board.aids for name in aid.room_names(names)]
    return list(dict.fromkeys(places))


def check_starts(game: "Game") -> list[Problem]:
    """Each piece's `start` names places the boards have, no more of them than the piece has copies."""
    starting = [(i, p) for i, p in enumerate(game.pieces) if p.start is not None]
    if not starting:
        return []
    file = game.file("pieces.yaml")
    places = start_places(game)
    known = set(places)
    if not known:
        return []  # no board to set anything on (a game printed without its map): every copy starts off the boards
    problems = []
    for i, piece in starting:
        where = f"pieces[{i}].start"
        if len(piece.starts) > piece.count:
            problems.append(Problem(file, where, f"{len(piece.starts)} places for {piece.count} "
                                    f"{'copy' if piece.count == 1 else 'copies'} of {shown(piece.name)}", "too-many-starts"))
        for place in dict.fromkeys(piece.starts):
            if place not in known:
                sample = ", ".join(places[:6])
                problems.append(Problem(file, where, f"no board has a place called {shown(place)}; places are named as "
                                        f"printed, e.g. {sample}", "unknown-place"))
    return problems


def setup_at(game: "Game", places: list[str], face_down: set[str] = frozenset()) -> dict[str, str]:
    """What starts on each of `places` that anything starts on, in their order: its pieces by kind with how many
    ("Agent ×2, Flag"); a kind's pieces known by name (a trap, say) by their names, pieces whose names are numbers
    (a hidden number, say) and those on a `face_down` place (a pile) by their kind only, the place saying it lies
    face down."""
    kinds = game.info.kinds
    at: dict[str, dict[str, int]] = {place: {} for place in places}
    for piece in game.pieces:
        for place in piece.starts:
            if place in at:
                kind = kinds[piece.kind].label if piece.kind in kinds else piece.kind
                shown_as = kind if place in face_down or piece.name.isdigit() or piece.name == kind else piece.name
                at[place][shown_as] = at[place].get(shown_as, 0) + 1
    return {place: ", ".join(name if n == 1 else f"{name} \u00d7{n}" for name, n in pieces.items())
            + (f", {FACE_DOWN}" if place in face_down else "") for place, pieces in at.items() if pieces}


def setup_lines(game: "Game", places: list[str], face_down: set[str] = frozenset()) -> list[str]:
    """What starts on each of `places` as a line to print: the place, then what starts there (setup_at)."""
    return [f"{place}: {what}" for place, what in setup_at(game, places, face_down).items()]


def setup_as_list(aid: "Aid", game: "Game", places: list[str], face_down: set[str] = frozenset()) -> "Aid":
    """A set-up aid as the list it prints: what starts on each of `places`, then its own items."""
    return aid.model_copy(update={"kind": "list", "items": setup_lines(game, places, face_down) + list(aid.items)})
