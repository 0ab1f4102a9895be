"""The Web of Spies referee: whether a card counters another in combat, and whether an asset may be acquired.

Each answer cites the rulebook section that decides it. The three combat symbols and the
Secret Asset's cost are the rulebook's own, written here with the section they come from.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from generators.core.errors import UnknownNameError
from generators.core.names import NameIndex
from generators.referee import QuestionError, Ruling, Table

COMBAT_SYMBOLS = ("Surveillance", "Information", "Violence")  # Combat: "Combat Symbols"
# The rulebook's example calls a shared symbol "Binoculars"; the data reads it as Surveillance
# (components/web-of-spies/pieces.yaml marks that reading assumed).
SYMBOL_ALIASES = {"Binoculars": "Surveillance"}
ACTION_SYMBOLS = ("Attack", "Defend", "Sabotage")  # Symbol Key: shown on cards, but not combat symbols
ROLE_SYMBOL = {"defender": "Defend", "attacker": "Attack"}  # Combat: who may play which cards
SECRET_ASSET_COST = 2  # Acquire Action


class Answerer(str, Enum):
    defender = "defender"
    attacker = "attacker"


def _symbols(option: str, given: list[str]) -> list[str]:
    """The combat symbols named in `given` (repeated options, or commas), as printed, in the rulebook's order."""
    index = NameIndex("combat symbol", COMBAT_SYMBOLS, SYMBOL_ALIASES)
    found: set[str] = set()
    for entry in given:
        for word in (w.strip() for w in entry.split(",")):
            if not word:
                continue
            symbol = index.find(word)
            if symbol is None and word.casefold() in {a.casefold() for a in ACTION_SYMBOLS}:
                raise QuestionError(f"{option} {word}: {word.capitalize()} is an action symbol, not a combat symbol; "
                                    f"name the card's combat symbols ({', '.join(COMBAT_SYMBOLS)})")
            if symbol is None:
                raise UnknownNameError(f"combat symbol (for {option})", word, index.closest(word) or list(COMBAT_SYMBOLS))
            found.add(symbol)
    if not found:
        raise QuestionError(f"{option}: name at least one combat symbol ({', '.join(COMBAT_SYMBOLS)})")
    return [s for s in COMBAT_SYMBOLS if s in found]


def counter(
    table: Table,
    attack: Annotated[list[str], typer.Option("--attack", metavar="SYMBOLS", help="Combat symbols of the card being answered, e.g. violence,surveillance.")],
    defend: Annotated[list[str], typer.Option("--defend", metavar="SYMBOLS", help="Combat symbols of the card played in answer.")],
    by: Annotated[Answerer, typer.Option("--by", help="Who plays the answering card: the defender, or the attacker pressing on.")] = Answerer.defender,
    no_role_symbol: Annotated[bool, typer.Option("--no-role-symbol", help="The answering card lacks Defend (or Attack, for the attacker), as the American CIA lacks Defend.")] = False,
) -> Ruling:
    """Does this card counter that one? It must share at least one combat symbol.

    Example: dossier referee --game web-of-spies counter --attack violence --defend violence,information
    """
    played = _symbols("--attack", attack)
    answer = _symbols("--defend", defend)
    shared = [s for s in played if s in answer]
    role = ROLE_SYMBOL[by.value]
    facts = {"attack": played, "defend": answer, "shared": shared, "by": by.value}
    given = " ".join(attack + defend).casefold()
    note = "".join(f" ({alias} read as {symbol}, as the data assumes.)" for alias, symbol in SYMBOL_ALIASES.items() if alias.casefold() in given)
    if no_role_symbol:
        return Ruling("counter", "not countered",
                      f"The {by.value} may only play cards showing the {role} symbol; this one has none, so it cannot be played, "
                      "whatever symbols it shares.", ("Combat",), allowed=False, extra=facts)
    if shared:
        return Ruling("counter", "countered",
                      f"The cards share {' and '.join(shared)}, so the {by.value}'s card counters the last one played; "
                      "the exchange goes on while each side can counter." + note, ("Combat",), allowed=True, extra=facts)
    ending = ("the attack stands and the defending agent is killed unless another card counters it"
              if by is Answerer.defender else "the attacker cannot press on with it")
    return Ruling("counter", "not countered",
                  f"{', '.join(answer)} shares no symbol with {', '.join(played)}: a counter must match at least one, so {ending}." + note,
                  ("Combat",), allowed=False, extra=facts)


def acquire(
    table: Table,
    agents: Annotated[int, typer.Option("--agents", metavar="N", help="Your agents in the asset marker's space.")],
    rival: Annotated[int, typer.Option("--rival", metavar="N", help="The most agents any other player has there.")],
    cards: Annotated[int, typer.Option("--cards", metavar="N", help="Cards in your hand you can discard towards the cost.")],
    cost: Annotated[Optional[int], typer.Option("--cost", metavar="N", help="The asset's cost (upper right corner).")] = None,
    secret: Annotated[bool, typer.Option("--secret", help="The face-down Secret Asset (its cost is always 2).")] = False,
) -> Ruling:
    """May I acquire this asset? More agents than anyone on its space, and cards to pay its cost.

    Example: dossier referee --game web-of-spies acquire --agents 2 --rival 2 --cards 3 --cost 3
    """
    for option, value in (("--agents", agents), ("--rival", rival), ("--cards", cards)):
        if value < 0:
            raise QuestionError(f"{option} {value}: a count cannot be negative")
    if secret == (cost is not None):
        raise QuestionError("give the asset's --cost, or --secret for the Secret Asset (cost 2), but not both")
    if cost is not None and cost < 0:
        raise QuestionError(f"--cost {cost}: a cost cannot be negative")
    price = SECRET_ASSET_COST if secret else cost
    facts = {"cost": price, "agents": agents, "rival": rival, "cards": cards}
    if agents <= rival:
        how = "as many as" if agents == rival else "fewer than"
        return Ruling("acquire", "contested",
                      f"You have {how} another player in that space ({agents} against {rival}): the asset is contested and cannot be bought.",
                      ("Acquire Action",), allowed=False, extra=facts)
    if cards < price:
        return Ruling("acquire", "too few cards",
                      f"The asset costs {price}{' (the Secret Asset always costs 2)' if secret else ''} and you can discard only {cards}.",
                      ("Acquire Action",), allowed=False, extra=facts)
    return Ruling("acquire", "allowed",
                  f"You hold the space ({agents} against {rival}) and discard {price} card{'s' if price != 1 else ''} to pay; "
                  "put the asset face down on your discard pile; its marker leaves the board until your turn ends.",
                  ("Acquire Action",), allowed=True, extra=facts)


QUESTIONS = {
    "counter": counter,
    "acquire": acquire,
}
