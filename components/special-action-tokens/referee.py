"""The referee for the Special Action tokens: when a token may be played, which spies it may use,
and which spy may still make the regular move after it.

Each answer cites the part of the optional rule that decides it. The token names come from the
data beside this file; the limits written here are the rule's own.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from generators.core.errors import UnknownNameError
from generators.core.names import NameIndex
from generators.referee import QuestionError, Ruling, Table

GENERAL = "Optional Rule: Special Action Tokens"
HOME_ROWS = 5  # Move 2, Swap 2: "the first five rows on your side"
REVEAL, MOVE, SWAP = "Reveal 1", "Move 2", "Swap 2"
LIMITED_TO_HOME_ROWS = (MOVE, SWAP)


class Spy(str, Enum):
    """A spy in the regular move after a token: the one the token revealed, moved or swapped, or another."""

    token = "token"
    other = "other"


def _token(table: Table, name: str) -> str:
    names = [p.name for p in table.game.pieces if p.kind == "token"]
    index = NameIndex("Special Action token", dict.fromkeys(names))
    found = index.find(name)
    if found is None:
        raise UnknownNameError(index.what, name, index.closest(name) or list(dict.fromkeys(names)))
    if found not in (REVEAL, MOVE, SWAP):
        raise QuestionError(f"{found!r}: the optional rule gives no limits for this token")
    return found


def play(
    table: Table,
    token: Annotated[str, typer.Option("--token", metavar="NAME", help='The token: "Reveal 1", "Move 2" or "Swap 2".')],
    already_played: Annotated[bool, typer.Option("--already-played", help="You have played a token this turn already.")] = False,
    after_moving: Annotated[bool, typer.Option("--after-moving", help="You have moved a spy this turn already.")] = False,
    double_agent: Annotated[bool, typer.Option("--double-agent", help='You use "Eliminate the (Opponent\'s) Double Agent" this turn.')] = False,
) -> Ruling:
    """May I play this token now? One a turn, before moving, and not with a Double Agent action.

    Example: dossier referee --game special-action-tokens play --token "Move 2" --after-moving
    """
    found = _token(table, token)
    reasons = []
    if already_played:
        reasons.append("only one token may be played a turn")
    if double_agent:
        reasons.append("no token may be played on a turn you use Eliminate the Double Agent or Eliminate the Opponent's Double Agent")
    if after_moving:
        reasons.append("a token must be played before any spy moves")
    facts = {"token": found}
    if reasons:
        return Ruling("play", "not allowed", f"{found} cannot be played now: {'; '.join(reasons)}.", (GENERAL,), allowed=False, extra=facts)
    return Ruling("play", "allowed", f"{found} may be played now, before any spy moves; afterwards it goes back in the box for the rest of the game.",
                  (GENERAL, found), allowed=True, extra=facts)


def eligible(
    table: Table,
    token: Annotated[str, typer.Option("--token", metavar="NAME", help='The token: "Reveal 1", "Move 2" or "Swap 2".')],
    row: Annotated[int, typer.Option("--row", metavar="N", help="The spy's row, counted from your own side (1 = nearest).")],
    briefcase: Annotated[bool, typer.Option("--briefcase", help="The spy holds the Briefcase.")] = False,
) -> Ruling:
    """May this spy take part in the token's action? Move 2 and Swap 2 use only your first five rows, no Briefcase.

    Example: dossier referee --game special-action-tokens eligible --token "Swap 2" --row 6
    """
    found = _token(table, token)
    if row < 1:
        raise QuestionError(f"--row {row}: rows are counted from 1, the row nearest you")
    facts = {"token": found, "row": row, "briefcase": briefcase, "home_rows": HOME_ROWS}
    if found not in LIMITED_TO_HOME_ROWS:
        return Ruling("eligible", "allowed", f"{found} may name any spy on the board, or one of your own eliminated spies.",
                      (found,), allowed=True, extra=facts)
    reasons = []
    if row > HOME_ROWS:
        reasons.append(f"row {row} is beyond your half of the board (the first {HOME_ROWS} rows on your side)")
    if briefcase:
        reasons.append("a spy holding the Briefcase may not take part")
    if reasons:
        return Ruling("eligible", "not allowed", f"{found}: {'; '.join(reasons)}.", (found,), allowed=False, extra=facts)
    return Ruling("eligible", "allowed", f"{found}: row {row} is within your first {HOME_ROWS} rows and the spy holds no Briefcase.",
                  (found,), allowed=True, extra=facts)


def regular_move(
    table: Table,
    token: Annotated[str, typer.Option("--token", metavar="NAME", help='The token played this turn.')],
    spy: Annotated[Spy, typer.Option("--spy", help="The spy you want to move: the one the token used (revealed, moved, swapped) or another.")],
    no_other_spies: Annotated[bool, typer.Option("--no-other-spies", help="You have no spies left but the ones the token used.")] = False,
) -> Ruling:
    """After playing this token, may this spy make the turn's regular move?

    Example: dossier referee --game special-action-tokens regular-move --token "Swap 2" --spy token --no-other-spies
    """
    found = _token(table, token)
    facts = {"token": found, "spy": spy.value}
    if found == MOVE:
        return Ruling("regular-move", "not allowed", "Move 2 replaces the regular move: no third spy may move this turn.",
                      (MOVE,), allowed=False, extra=facts)
    if spy is Spy.other:
        return Ruling("regular-move", "allowed", f"After {found} you make your regular move as usual with any other spy.",
                      (found,), allowed=True, extra=facts)
    if found == SWAP and no_other_spies:
        return Ruling("regular-move", "allowed", "A swapped spy may not move this turn, except when you have no other spy left, as here.",
                      (SWAP,), allowed=True, extra=facts)
    used = "just revealed" if found == REVEAL else "just swapped"
    return Ruling("regular-move", "not allowed", f"The spy {used} may not be the one you move this turn.",
                  (found,), allowed=False, extra=facts)


QUESTIONS = {
    "play": play,
    "eligible": eligible,
    "regular-move": regular_move,
}
