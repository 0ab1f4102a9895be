"""The referee for the Special Action tokens: when a token may be played, which spies it may use,
and which spy may still make the regular move after it.

Each answer cites the part of the optional rule that decides it, or an entry of this game's
register in docs/rulings.md ("Register T1") where the rule is unclear. The token names and how
many each player has come from the data beside this file; the limits written here are the rule's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional

from generators.referee import Allowed, Facts, NameIndex, Param, QuestionError, Ruling, Table, UnknownNameError

GENERAL = "Optional Rule: Special Action Tokens"
HOME_ROWS = 5  # Move 2, Swap 2: "your half of the board, meaning the first five rows on your side"
BOARD_ROWS = 2 * HOME_ROWS  # so the board has ten rows from side to side
REVEAL, MOVE, SWAP = "Reveal 1", "Move 2", "Swap 2"


class Spy(str, Enum):
    """A spy in the regular move after a token: the one the token revealed, moved or swapped, or another."""

    token = "token"
    other = "other"


class Whose(str, Enum):
    own = "own"
    enemy = "enemy"


class Where(str, Enum):
    board = "board"
    eliminated = "eliminated"


def _tokens(table: Table) -> list[str]:
    return list(dict.fromkeys(p.name for p in table.game.pieces if p.kind == "token"))


def _token(table: Table, name: str) -> str:
    names = _tokens(table)
    index = NameIndex("Special Action token", names)
    found = index.find(name)
    if found is None:
        raise UnknownNameError(index.what, name, index.closest(name) or names)
    if found not in (REVEAL, MOVE, SWAP):
        raise QuestionError(f"{found!r}: the optional rule gives no limits for this token")
    return found


def _row(row: int) -> None:
    if not 1 <= row <= BOARD_ROWS:
        raise QuestionError(f"--row {row}: the board has rows 1 to {BOARD_ROWS}, counted from your side "
                            f"(your half is the first {HOME_ROWS})")


@dataclass(frozen=True)
class PlayFacts(Facts):
    """The fields of a `play` ruling."""

    token: str
    used: list[str]
    tokens_left_after: Optional[int]


def play(
    table: Table,
    token: Annotated[str, Param('The token: "Reveal 1", "Move 2" or "Swap 2".', flag="--token", metavar="NAME")],
    used: Annotated[list[str], Param("A token you played on an earlier turn; repeat for each.", flag="--used", metavar="NAME")] = (),
    already_played: Annotated[bool, Param("You have played a token this turn already.", flag="--already-played")] = False,
    after_moving: Annotated[bool, Param("You have moved a spy this turn already.", flag="--after-moving")] = False,
    double_agent: Annotated[bool, Param('You use "Eliminate the (Opponent\'s) Double Agent" this turn.', flag="--double-agent")] = False,
) -> Ruling[Allowed, PlayFacts]:
    """May I play this token now? Once a game, one a turn, before moving, not with a Double Agent action.

    Each player has three tokens, one of each; a token played goes back in the box for the rest of the game.

    Example: dossier referee --game special-action-tokens play --token "Move 2" --used "Reveal 1" --after-moving
    """
    found = _token(table, token)
    earlier = [_token(table, name) for name in used]
    repeated = sorted({name for name in earlier if earlier.count(name) > 1})
    if repeated:
        raise QuestionError(f"--used {repeated[0]!r} given twice: each token is played once a game, then leaves it")
    owned = sum(p.count for p in table.game.pieces if p.kind == "token") // len(table.game.info.factions)
    reasons, rules = [], [GENERAL]
    if found in earlier:
        reasons.append(f"you played {found} earlier and it went back in the box, out of the game")
    if already_played:
        reasons.append("only one token may be played a turn")
    if double_agent:
        reasons.append("no token may be played on a turn you use Eliminate the Double Agent or Eliminate the Opponent's Double Agent")
    if after_moving:
        reasons.append("a token must be played before any spy moves")
    left = owned - len(earlier) - (found not in earlier)
    facts = {"token": found, "used": earlier, "tokens_left_after": None if reasons else left}
    if reasons:
        return Ruling(Allowed.not_allowed, f"{found} cannot be played now: {'; '.join(reasons)}.", tuple(rules), facts=PlayFacts(**facts))
    return Ruling(Allowed.allowed,
                  f"{found} may be played now, before any spy moves; afterwards it goes back in the box for the rest of the game, "
                  f"leaving you {left} of your {owned} tokens.", (GENERAL, found), facts=PlayFacts(**facts))


@dataclass(frozen=True)
class EligibleFacts(Facts):
    """The fields of a `eligible` ruling."""

    token: str
    row: Optional[int]
    briefcase: bool
    whose: str
    where: str
    home_rows: int


def eligible(
    table: Table,
    token: Annotated[str, Param('The token: "Reveal 1", "Move 2" or "Swap 2".', flag="--token", metavar="NAME")],
    row: Annotated[Optional[int], Param("The spy's row, counted from your own side (1 = nearest, 10 = farthest).", flag="--row", metavar="N")] = None,
    briefcase: Annotated[bool, Param("The spy holds the Briefcase.", flag="--briefcase")] = False,
    whose: Annotated[Whose, Param("Whose spy it is.", flag="--whose")] = Whose.own,
    where: Annotated[Where, Param("On the board, or eliminated (off the board).", flag="--where")] = Where.board,
) -> Ruling[Allowed, EligibleFacts]:
    """May this spy take part in the token's action? Move 2 and Swap 2 use only your spies in your first five rows, no Briefcase.

    Reveal 1 may show any spy on the board, or one of your eliminated spies (Register T1).

    Example: dossier referee --game special-action-tokens eligible --token "Swap 2" --row 6
    """
    found = _token(table, token)
    if where is Where.board and row is None and found != REVEAL:
        raise QuestionError(f"--row: {found} depends on the spy's row; say which row it stands on (or --where eliminated)")
    if where is Where.eliminated and row is not None:
        raise QuestionError("--row with --where eliminated: an eliminated spy is off the board")
    if row is not None:
        _row(row)
    facts = {"token": found, "row": row, "briefcase": briefcase, "whose": whose.value, "where": where.value, "home_rows": HOME_ROWS}
    if found == REVEAL:
        if where is Where.eliminated and whose is Whose.enemy:
            return Ruling(Allowed.not_allowed,
                          "Reveal 1 shows a spy on the board, or one of your own eliminated spies; not an eliminated enemy spy.",
                          (REVEAL, "Register T1"), facts=EligibleFacts(**facts))
        said = ("Reveal 1 may show one of your eliminated spies; the opponent then returns it to the box." if where is Where.eliminated
                else "Reveal 1 may name any one spy on the board: the opponent shows you its Movement Piece side and puts it back.")
        return Ruling(Allowed.allowed, said, (REVEAL, "Register T1"), facts=EligibleFacts(**facts))
    reasons = []
    if whose is Whose.enemy:
        reasons.append(f"{found} uses your own spies only")
    if where is Where.eliminated:
        reasons.append("an eliminated spy is no longer on the board")
    if row is not None and row > HOME_ROWS:
        reasons.append(f"row {row} is beyond your half of the board (the first {HOME_ROWS} rows on your side)")
    if briefcase:
        reasons.append("a spy holding the Briefcase may not take part")
    if reasons:
        return Ruling(Allowed.not_allowed, f"{found}: {'; '.join(reasons)}.", (found,), facts=EligibleFacts(**facts))
    return Ruling(Allowed.allowed, f"{found}: row {row} is within your first {HOME_ROWS} rows and the spy holds no Briefcase.",
                  (found,), facts=EligibleFacts(**facts))


@dataclass(frozen=True)
class SecondMoveFacts(Facts):
    """The fields of a `second-move` ruling."""

    same_spy: bool
    first_illegal: bool


def second_move(
    table: Table,
    same_spy: Annotated[bool, Param("The second attempt would move the spy the first attempt moved.", flag="--same-spy")] = False,
    first_illegal: Annotated[bool, Param("The first attempt was not a legal move.", flag="--first-illegal")] = False,
) -> Ruling[Allowed, SecondMoveFacts]:
    """With Move 2, may this spy make the second move attempt? Never the same spy twice, legal first move or not.

    Example: dossier referee --game special-action-tokens second-move --same-spy --first-illegal
    """
    facts = {"same_spy": same_spy, "first_illegal": first_illegal}
    if same_spy:
        why = "even though the first attempt was not a legal move" if first_illegal else "whatever became of the first attempt"
        return Ruling(Allowed.not_allowed,
                      f"Move 2 gives two attempts with two different spies: the same spy may not be tried twice, {why}.",
                      (MOVE,), facts=SecondMoveFacts(**facts))
    return Ruling(Allowed.allowed,
                  f"A different spy may make the second attempt, if it too stands in your first {HOME_ROWS} rows without the Briefcase; "
                  "no third spy moves this turn.", (MOVE,), facts=SecondMoveFacts(**facts))


@dataclass(frozen=True)
class RegularMoveFacts(Facts):
    """The fields of a `regular-move` ruling."""

    token: str
    spy: str
    no_other_spies: bool


def regular_move(
    table: Table,
    token: Annotated[str, Param("The token played this turn.", flag="--token", metavar="NAME")],
    spy: Annotated[Spy, Param("The spy you want to move: the one the token used (revealed, moved, swapped) or another.", flag="--spy")],
    no_other_spies: Annotated[bool, Param("You have no spies left but the ones the token used.", flag="--no-other-spies")] = False,
) -> Ruling[Allowed, RegularMoveFacts]:
    """After playing this token, may this spy make the turn's regular move?

    Example: dossier referee --game special-action-tokens regular-move --token "Swap 2" --spy token --no-other-spies
    """
    found = _token(table, token)
    facts = {"token": found, "spy": spy.value, "no_other_spies": no_other_spies}
    if found == MOVE:
        return Ruling(Allowed.not_allowed, "Move 2 replaces the regular move: no third spy may move this turn.",
                      (MOVE,), facts=RegularMoveFacts(**facts))
    if spy is Spy.other:
        if no_other_spies:
            raise QuestionError("--spy other with --no-other-spies: there is no other spy to move")
        return Ruling(Allowed.allowed, f"After {found} you make your regular move as usual with any other spy.",
                      (found,), facts=RegularMoveFacts(**facts))
    if found == SWAP and no_other_spies:
        return Ruling(Allowed.allowed,
                      "A swapped spy may not move this turn, except when you have no other spy left, as here.",
                      (SWAP,), facts=RegularMoveFacts(**facts))
    if found == REVEAL:
        alone = (" The exception for a player with no other spy is written for Swap 2 only, so this turn passes without a move."
                 if no_other_spies else "")
        return Ruling(Allowed.not_allowed, f"The spy just revealed may not be the one you move this turn.{alone}",
                      (REVEAL, "Register T2") if no_other_spies else (REVEAL,), facts=RegularMoveFacts(**facts))
    return Ruling(Allowed.not_allowed, "Neither of the two spies just swapped may be the one you move this turn.",
                  (SWAP,), facts=RegularMoveFacts(**facts))


QUESTIONS = {
    "play": play,
    "eligible": eligible,
    "second-move": second_move,
    "regular-move": regular_move,
}
