"""The referee for the Global 1936 spy rule: the chance that a spy's mission succeeds.

Every mission is one roll of a twelve-sided die (D12) that succeeds on a low number; the odds
below are as the house rule prints them, each with the mission it belongs to. A spy performs
one mission a turn; only Diplomacy may roll twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Annotated

import typer

from generators.referee import QuestionError, Ruling, Table

DIE = 12


@dataclass(frozen=True)
class Mission:
    """One of the spy's missions: what it does, the highest roll that succeeds, rolls a turn, the rule it is in."""

    title: str
    success_up_to: int
    rolls: int
    rule: str


class MissionName(str, Enum):
    diplomacy = "diplomacy"
    espionage = "espionage"
    assassinate = "assassinate"
    double_agent = "double-agent"
    reverse = "reverse"


MISSIONS = {
    MissionName.diplomacy: Mission("Diplomacy (moving a Neutral's alignment marker)", 3, 2, "Diplomacy"),
    MissionName.espionage: Mission("Espionage (stealing a technology)", 2, 1, "Espionage"),
    MissionName.assassinate: Mission("Counter Intelligence (assassinating an enemy spy)", 2, 1, "Counter Intelligence"),
    MissionName.double_agent: Mission("Counter Intelligence (turning an enemy spy into a Double Agent)", 2, 1, "Counter Intelligence"),
    MissionName.reverse: Mission("Counter Intelligence (reversing a Double Agent to your own spy)", 3, 1, "Counter Intelligence"),
}


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}".rstrip("0").rstrip(".") + "%"


def mission(
    table: Table,
    name: Annotated[MissionName, typer.Option("--mission", help="The mission the spy was declared on.")],
    rolls: Annotated[int, typer.Option("--rolls", metavar="N", help="Rolls this turn (Diplomacy may roll twice).")] = 1,
) -> Ruling:
    """What is the chance this spy mission succeeds? The D12 odds as printed.

    Example: dossier referee --game global-1936-spies mission --mission diplomacy --rolls 2
    """
    found = MISSIONS[name]
    if not 1 <= rolls <= found.rolls:
        allowed = "1 or 2 rolls a turn" if found.rolls == 2 else "one roll a turn"
        raise QuestionError(f"--rolls {rolls}: a spy on {name.value} has {allowed}")
    single = Fraction(found.success_up_to, DIE)
    outcomes = DIE ** rolls
    successes = outcomes - (DIE - found.success_up_to) ** rolls  # at least one roll succeeds
    chance = Fraction(successes, outcomes)
    faces = f"1-{found.success_up_to}" if found.success_up_to > 1 else "1"
    said = f"{found.title} succeeds on {faces} on a D{DIE}: {found.success_up_to} in {DIE} ({_percent(single)})."
    if rolls > 1:
        said += f" With {rolls} rolls the chance of at least one success is {successes}/{outcomes} ({_percent(chance)})."
    said += " Declare the mission before rolling; a spy performs one mission a turn."
    if name is MissionName.double_agent:
        said += (" A Double Agent then gives +1 on your action rolls; the rule does not say how +1 helps a roll that must"
                 " come low, so no chance here counts it.")
    return Ruling("mission", f"{found.success_up_to} in {DIE}" if rolls == 1 else f"{_percent(chance)} in {rolls} rolls",
                  said, (found.rule, "Spies"),
                  extra={"mission": name.value, "success": faces, "die": DIE, "rolls": rolls,
                         "chance": f"{successes}/{outcomes}",
                         "probability": round(float(chance), 4)})


QUESTIONS = {"mission": mission}
