"""The Spion & Spion referee: ZOFF, the NASTY TRAPS and the TRAP-B-GONE dice, and how much money wins.

Each answer cites the rulebook section that decides it (the translated rulebook's headings).
The ZOFF letters and the trap names come from the data beside this file; the numbers written
here are the rulebook's own, each with the section it comes from.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from generators.core.errors import UnknownNameError
from generators.core.names import NameIndex
from generators.referee import QuestionError, Ruling, Table

ZOFF_PAYMENT = 1                       # ZOFF; Summary of the actual valid Espionage rates
ROLL_COSTS = {1: 1, 2: 3, 3: 5}        # Nasty Traps: 1x roll 1, 2x rolls 3, 3x rolls 5 ZILLIONS
WINNING_ZILLIONS = {4: 37, 2: 25}      # The Goal of the Game; The Game for 2 Players
VARIANT_PLAYERS = {"four-player": 4, "two-player": 2}  # game.yaml's variants
# Which picture on the TRAP-B-GONE dice removes which trap (Nasty Traps):
# Snake eats Magnet, Magnet crushes Bottle, Bottle poisons Snake.
REMOVED_BY = {"Magnet": "Snake", "Bottle": "Magnet", "Snake": "Bottle"}
VERBS = {"Snake": "eats", "Magnet": "crushes", "Bottle": "poisons"}

RATES = "Espionage rates"  # the rulebook's "Summary of the actual valid Espionage rates"


class Side(str, Enum):
    attacker = "attacker"
    defender = "defender"


def _named(table: Table, kind: str, value: str) -> str:
    """The printed name of a `kind` piece that `value` names, refused with the closest names otherwise."""
    names = sorted({p.name for p in table.game.pieces if p.kind == kind})
    if not names:
        raise QuestionError(f"{table.game.info.title} has no {kind} pieces in its data, which this question needs")
    index = NameIndex(table.game.info.kinds[kind].label, names)
    found = index.find(value)
    if found is None:
        raise UnknownNameError(index.what, value, index.closest(value) or names)
    return found


def _count_text(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def zoff(
    table: Table,
    attacker: Annotated[str, typer.Option("--attacker", metavar="A|B|C", help="The ZOFF card the attacker lays down.")],
    defender: Annotated[str, typer.Option("--defender", metavar="A|B|C", help="The ZOFF card the defender lays down.")],
    gray_spy: Annotated[bool, typer.Option("--gray-spy", help="The attacker is the GRAY SPY (LECHZ card).")] = False,
    carrier: Annotated[Optional[Side], typer.Option("--carrier", help="Which spy carries a BAZONG, if either does.")] = None,
) -> Ruling:
    """Who wins a ZOFF? The defender wins when both cards match, the attacker otherwise.

    Example: dossier referee --game spion-und-spion zoff --attacker A --defender B
    """
    attack = _named(table, "zoff-card", attacker)
    defend = _named(table, "zoff-card", defender)
    if gray_spy and carrier is Side.attacker:
        raise QuestionError("--carrier attacker with --gray-spy: the GRAY SPY never carries a BAZONG; she goes home after her fight")
    defender_wins = attack == defend
    winner, loser = (Side.defender, Side.attacker) if defender_wins else (Side.attacker, Side.defender)
    rules = ["ZOFF"]
    said = [f"The attacker laid {attack}, the defender {defend}: "
            + ("the defender guessed the plan and wins." if defender_wins else "the defender guessed wrong and loses.")]
    prison: Side | None = loser
    if gray_spy:
        rules.append("Grey Spy")
        if defender_wins:
            prison = None
            said.append(f"The GRAY SPY lost: her player pays the defender {ZOFF_PAYMENT} ZILLION, but none of that player's spies goes to prison.")
        else:
            said.append(f"The GRAY SPY won: the defender pays her player {ZOFF_PAYMENT} ZILLION, goes to prison and shows his number; "
                        "her player moves again without her, and she goes home.")
    else:
        said.append(f"The {loser.value} pays the {winner.value} {ZOFF_PAYMENT} ZILLION, goes to prison and shows his number to everyone.")
        if winner is Side.attacker:
            said.append("The winning attacker moves again: one space or a Pass-Card.")
    bazong = None
    if carrier is not None:
        rules.append("The Bazong")
        if carrier is winner:
            bazong = "kept"
            said.append(f"The {carrier.value} won and keeps the BAZONG.")
        elif gray_spy:
            bazong = "dropped"
            said.append("Beaten by the GRAY SPY, the carrier leaves the BAZONG on the space, for anyone to pick up.")
        else:
            bazong = "to winner"
            said.append(f"The carrier lost, so the {winner.value} takes the BAZONG.")
    return Ruling(
        "zoff", f"{winner.value} wins", " ".join(said), tuple(rules),
        extra={"attacker_card": attack, "defender_card": defend, "winner": winner.value, "loser": loser.value,
               "payment": ZOFF_PAYMENT, "to_prison": prison.value if prison else None,
               "reveals_number": prison is not None, "attacker_moves_again": winner is Side.attacker, "bazong": bazong},
    )


def trap(
    table: Table,
    trap_name: Annotated[str, typer.Option("--trap", metavar="snake|magnet|bottle", help="The NASTY TRAP on the board.")],
    roll: Annotated[str, typer.Option("--roll", metavar="snake|magnet|bottle", help="The picture the TRAP-B-GONE dice shows.")],
) -> Ruling:
    """Does this roll of the TRAP-B-GONE dice remove this trap?

    Example: dossier referee --game spion-und-spion trap --trap magnet --roll snake
    """
    placed = _named(table, "trap", trap_name)
    rolled = _named(table, "trap", roll)
    if placed not in REMOVED_BY or rolled not in REMOVED_BY:
        raise QuestionError(f"the rulebook pairs only {', '.join(REMOVED_BY)}; the data names a trap it does not")
    needed = REMOVED_BY[placed]
    removes = next(t for t, by in REMOVED_BY.items() if by == rolled)
    cycle = f"{needed} {VERBS[needed]} {placed}"
    facts = {"trap": placed, "roll": rolled, "removed": rolled == needed, "needed": needed, "roll_removes": removes}
    if rolled == needed:
        return Ruling("trap", "removed", f"{cycle}: rolling the {rolled} removes the {placed}. "
                      "The roll counts for any such trap on the board, not only the one in front of you.",
                      ("Nasty Traps",), extra=facts)
    return Ruling("trap", "stays", f"{cycle}: only the {needed} removes the {placed}. "
                  f"The {rolled} removes the {removes} instead, wherever one stands on the board.",
                  ("Nasty Traps",), extra=facts)


def trap_cost(
    table: Table,
    rolls: Annotated[int, typer.Option("--rolls", metavar="N", help="How many rolls of the TRAP-B-GONE dice you announce (1 to 3).")],
) -> Ruling:
    """What do N rolls of the TRAP-B-GONE dice cost? Announced and paid in advance.

    Example: dossier referee --game spion-und-spion trap-cost --rolls 2
    """
    if rolls not in ROLL_COSTS:
        most = max(ROLL_COSTS)
        raise QuestionError(f"--rolls {rolls}: the dice may be rolled 1 to {most} times in a row")
    zillions = ROLL_COSTS[rolls]
    return Ruling("trap-cost", f"{zillions} zillions" if zillions != 1 else "1 zillion",
                  f"{_count_text(rolls, 'roll')} of the TRAP-B-GONE dice cost {zillions} ZILLION{'S' if zillions != 1 else ''}, "
                  "announced and paid into the COAL BOX before the first roll; nothing comes back if an early roll succeeds.",
                  ("Nasty Traps", RATES), extra={"rolls": rolls, "zillions": zillions})


def win(
    table: Table,
    players: Annotated[Optional[int], typer.Option("--players", metavar="N", help="Players at the table: 4 or 2 (default: the variant's).")] = None,
    zillions: Annotated[Optional[int], typer.Option("--zillions", metavar="Z", help="Money your team holds, to ask whether it wins.")] = None,
) -> Ruling:
    """How many ZILLIONS win? 37 for a team of the 4-player game, 25 in the 2-player game.

    Example: dossier referee --game spion-und-spion win --players 4 --zillions 36
    (or --game spion-und-spion:two-player without --players)
    """
    if players is None:
        players = VARIANT_PLAYERS[table.variant]
    if players == 0:
        raise QuestionError("--players 0: the rulebook's game for 0 players is a joke with nothing to win; ask about 4 or 2 players")
    if players not in WINNING_ZILLIONS:
        raise QuestionError(f"--players {players}: the rulebook has games for {' and '.join(map(str, WINNING_ZILLIONS))} players")
    if zillions is not None and zillions < 0:
        raise QuestionError(f"--zillions {zillions}: money cannot be negative")
    money = sum(p.value * p.count for p in table.game.pieces if p.kind == "zillion")
    if zillions is not None and zillions > money:
        raise QuestionError(f"--zillions {zillions}: the game holds {money} ZILLIONS in all")
    needed = WINNING_ZILLIONS[players]
    rules = ("The Goal of the Game", "End of the Game") if players == 4 else ("The Game for 2 Players", "End of the Game")
    who = "a team (both partners' money together)" if players == 4 else "a player"
    base = (f"In the {players}-player game {who} wins on reaching {needed} ZILLIONS or more; "
            "bringing an enemy-coloured BAZONG into one of its own embassies wins too.")
    facts = {"players": players, "threshold": needed}
    if zillions is None:
        return Ruling("win", f"{needed} zillions", base, rules, extra=facts | {"zillions": None, "wins": None})
    wins = zillions >= needed
    verdict = (f" {zillions} reaches it." if wins else f" {zillions} is {needed - zillions} short.")
    return Ruling("win", "wins" if wins else "not yet", base + verdict, rules, extra=facts | {"zillions": zillions, "wins": wins})


QUESTIONS = {
    "zoff": zoff,
    "trap": trap,
    "trap-cost": trap_cost,
    "win": win,
}
