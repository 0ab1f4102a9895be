"""The referee for the Global 1936 spy rule: buying spies, when they act, what each mission may
target, its chance of success and what follows.

Every mission is one roll of a twelve-sided die (D12) that succeeds on a low number; the odds
below are as the house rule prints them, each with the part of the rule it belongs to. How many
spies each power may hold comes from the markers in the data (Russia's two); "Register G1" and
so on are this rule's entries in docs/rulings.md, where it is unclear.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Annotated, Optional

from generators.referee import Allowed, Faction, Facts, NameIndex, Param, QuestionError, Ruling, Table

DIE = 12
SPY_COST = 10  # Spies: "Cost 10"
UNDER_BRITAIN = ("FEC", "ANZAC")  # Spies: Britain, FEC and ANZAC are all under Britain
DOUBLE_AGENT_BONUS = 1  # Counter Intelligence: +1 on your action rolls (read as in Register G1)


@dataclass(frozen=True)
class Mission:
    """One of the spy's missions: what it does, its function, the highest roll that succeeds, rolls a turn."""

    title: str
    function: str
    success_up_to: int
    rolls: int


class MissionName(str, Enum):
    diplomacy = "diplomacy"
    espionage = "espionage"
    assassinate = "assassinate"
    double_agent = "double-agent"
    reverse = "reverse"


# The rule names each function; only Diplomacy is given two rolls a turn (Register G2).
MISSIONS = {
    MissionName.diplomacy: Mission("Diplomacy (moving a Neutral's alignment marker)", "Diplomacy", 3, 2),
    MissionName.espionage: Mission("Espionage (stealing a technology)", "Espionage", 2, 1),
    MissionName.assassinate: Mission("Counter Intelligence (assassinating an enemy spy)", "Counter Intelligence", 2, 1),
    MissionName.double_agent: Mission("Counter Intelligence (turning an enemy spy into a Double Agent)", "Counter Intelligence", 2, 1),
    MissionName.reverse: Mission("Counter Intelligence (reversing a Double Agent to your own spy)", "Counter Intelligence", 3, 1),
}


class Phase(str, Enum):
    production = "production"
    place_units = "place-units"
    other = "other"


class Step(str, Enum):
    buy = "buy"
    deploy = "deploy"
    use = "use"


class Goal(str, Enum):
    align = "align"
    un_align = "un-align"


class Stage(str, Enum):
    none = "none"
    one = "1"
    two = "2"
    three = "3"
    complete = "complete"


STAGES = list(Stage)  # in order, none lowest


class Odds(Enum):
    chance = "chance"


class Outcome(Enum):
    marker_moves = "alignment marker moves"
    technology_taken = "technology taken"
    spy_removed = "spy removed"
    spy_turned = "spy turned"
    spy_restored = "spy restored"
    nothing = "nothing happens"


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}".rstrip("0").rstrip(".") + "%"


def _power(table: Table, name: str) -> Faction:
    """The major power `name` names; FEC and ANZAC are Britain."""
    factions = table.game.info.factions
    britain = next(f.name for f in factions if f.id == "britain")
    index = NameIndex("major power", [f.name for f in factions], {f.id: f.name for f in factions} | dict.fromkeys(UNDER_BRITAIN, britain))
    found = index.resolve(name)
    return next(f for f in factions if f.name == found)


def _spies(n: int) -> str:
    return f"{n} spy" if n == 1 else f"{n} spies"


def _spies_allowed(table: Table, faction: Faction) -> int:
    """How many spies a power may hold: its spy markers in the data (one each, Russia two)."""
    return sum(p.count for p in table.game.pieces if p.kind == "spy-marker" and p.nation == faction.id)


@dataclass(frozen=True)
class MissionFacts(Facts):
    """The fields of a `mission` ruling."""

    mission: str
    success: str
    die: int
    rolls: int
    chance: str
    probability: float
    double_agent: bool


def mission(
    table: Table,
    name: Annotated[MissionName, Param("The mission the spy was declared on.", flag="--mission")],
    rolls: Annotated[int, Param("Rolls this turn (Diplomacy may roll twice).", flag="--rolls", metavar="N")] = 1,
    double_agent: Annotated[bool, Param("You hold an enemy spy turned Double Agent (+1 on your rolls).", flag="--with-double-agent")] = False,
) -> Ruling[Odds, MissionFacts]:
    """What is the chance this spy mission succeeds? The D12 odds as printed.

    With --with-double-agent, the +1 a Double Agent gives widens the winning rolls by one (Register G1).

    Example: dossier referee --game global-1936-spies mission --mission diplomacy --rolls 2
    """
    found = MISSIONS[name]
    if not 1 <= rolls <= found.rolls:
        allowed = "1 or 2 rolls a turn" if found.rolls == 2 else "one roll a turn"
        raise QuestionError(f"--rolls {rolls}: a spy on {name.value} has {allowed}")
    best = found.success_up_to + (DOUBLE_AGENT_BONUS if double_agent else 0)
    single = Fraction(best, DIE)
    outcomes = DIE ** rolls
    successes = outcomes - (DIE - best) ** rolls  # at least one roll succeeds
    chance = Fraction(successes, outcomes)
    faces = f"1-{best}" if best > 1 else "1"
    said = f"{found.title} succeeds on {faces} on a D{DIE}: {best} in {DIE} ({_percent(single)})."
    rules = [found.function, "Spies"]
    if double_agent:
        said += (f" That is the printed 1-{found.success_up_to} widened by your Double Agent's +1: a bonus helps a roll that must come "
                 "low by raising the highest roll that succeeds.")
        rules += ["Counter Intelligence", "Register G1"]
    if rolls > 1:
        said += f" With {rolls} rolls the chance of at least one success is {successes}/{outcomes} ({_percent(chance)})."
    said += " Declare the mission before rolling; a spy performs one mission a turn."
    return Ruling(Odds.chance, said, tuple(dict.fromkeys(rules)),
                  answer=f"{best} in {DIE}" if rolls == 1 else f"{_percent(chance)} in {rolls} rolls",
                  facts=MissionFacts(mission=name.value, success=faces, die=DIE, rolls=rolls, chance=f"{successes}/{outcomes}", probability=round(float(chance), 4), double_agent=double_agent))


@dataclass(frozen=True)
class BuyFacts(Facts):
    """The fields of a `buy` ruling."""

    power: str
    holding: int
    most: int
    cost: int


def buy(
    table: Table,
    power: Annotated[str, Param("The major power buying (FEC and ANZAC count as Britain).", flag="--power", metavar="P")],
    holding: Annotated[int, Param("Spies the power has now.", flag="--holding", metavar="N")] = 0,
    phase: Annotated[Phase, Param("The phase of the power's turn.", flag="--phase")] = Phase.production,
) -> Ruling[Allowed, BuyFacts]:
    """May this power buy a spy now, and for how much?

    Example: dossier referee --game global-1936-spies buy --power anzac --holding 1
    """
    faction = _power(table, power)
    most = _spies_allowed(table, faction)
    if not 0 <= holding <= most:
        raise QuestionError(f"--holding {holding}: {faction.name} may have {_spies(most)} at most, "
                            f"so it holds 0 to {most}")
    shared = f" ({', '.join(UNDER_BRITAIN)} and Britain share Britain's)" if faction.id == "britain" else ""
    facts = {"power": faction.id, "holding": holding, "most": most, "cost": SPY_COST}
    reasons = []
    if holding >= most:
        reasons.append(f"{faction.name} may have {_spies(most)}{shared} and has {holding}")
    if phase is not Phase.production:
        reasons.append("spies are bought in the Production Phase")
    if reasons:
        return Ruling(Allowed.not_allowed, f"Not now: {'; '.join(reasons)}.", ("Spies",), facts=BuyFacts(**facts))
    return Ruling(Allowed.allowed, f"A spy costs {SPY_COST}. {faction.name} may have {most}{shared} and has {holding}. "
                  "Place it in the Place Units Phase; it can act from your next turn.", ("Spies",), facts=BuyFacts(**facts))


@dataclass(frozen=True)
class TimingFacts(Facts):
    """The fields of a `timing` ruling."""

    step: str
    phase: str
    bought_this_turn: bool


def timing(
    table: Table,
    step: Annotated[Step, Param("What you want to do with the spy: buy, deploy (place) or use it.", flag="--step")],
    phase: Annotated[Phase, Param("The phase of your turn.", flag="--phase")],
    bought_this_turn: Annotated[bool, Param("The spy was bought this turn.", flag="--bought-this-turn")] = False,
) -> Ruling[Allowed, TimingFacts]:
    """May a spy be bought, deployed or used in this phase?

    Example: dossier referee --game global-1936-spies timing --step use --phase production --bought-this-turn
    """
    wanted = {Step.buy: Phase.production, Step.deploy: Phase.place_units, Step.use: Phase.production}[step]
    said = {Step.buy: "Spies are bought in the Production Phase", Step.deploy: "A spy is placed in the Place Units Phase of the turn it is bought",
            Step.use: "Spies act in the Production Phase, from the turn after the one they were bought in"}[step]
    facts = {"step": step.value, "phase": phase.value, "bought_this_turn": bought_this_turn}
    if step is Step.deploy and not bought_this_turn:
        raise QuestionError("--step deploy: a spy is deployed in the turn it is bought; add --bought-this-turn")
    if phase is not wanted:
        return Ruling(Allowed.not_allowed, f"{said}; not in this phase.", ("Spies",), facts=TimingFacts(**facts))
    if step is Step.use and bought_this_turn:
        return Ruling(Allowed.not_allowed, f"{said}: one bought this turn waits for your next turn.", ("Spies",), facts=TimingFacts(**facts))
    return Ruling(Allowed.allowed, f"{said}: this is the phase.", ("Spies",), facts=TimingFacts(**facts))


@dataclass(frozen=True)
class ActFacts(Facts):
    """The fields of a `act` ruling."""

    mission: str
    earlier: Optional[str]
    rolls_made: int


def act(
    table: Table,
    name: Annotated[MissionName, Param("The mission you want the spy to roll for.", flag="--mission")],
    declared: Annotated[bool, Param("Whether you declared the mission before rolling.", flag="--declared/--not-declared")] = True,
    earlier: Annotated[Optional[MissionName], Param("The mission this spy already rolled for this turn, if any.", flag="--earlier")] = None,
    rolls_made: Annotated[int, Param("Rolls the spy has already made this turn.", flag="--rolls-made", metavar="N")] = 0,
) -> Ruling[Allowed, ActFacts]:
    """May this spy roll for this mission now? Declared first, one function a turn, Diplomacy twice at most.

    Example: dossier referee --game global-1936-spies act --mission espionage --earlier diplomacy --rolls-made 1
    """
    found = MISSIONS[name]
    if not 0 <= rolls_made <= max(m.rolls for m in MISSIONS.values()):
        raise QuestionError(f"--rolls-made {rolls_made}: a spy rolls at most {max(m.rolls for m in MISSIONS.values())} times a turn")
    if (earlier is None) != (rolls_made == 0):
        raise QuestionError("--earlier and --rolls-made go together: name the mission the spy already rolled for and how often")
    if earlier is not None and rolls_made > MISSIONS[earlier].rolls:
        raise QuestionError(f"--rolls-made {rolls_made}: {earlier.value} has {MISSIONS[earlier].rolls} roll(s) a turn")
    reasons, rules = [], ["Spies", found.function]
    if not declared:
        reasons.append("declare what the spy is doing before you roll")
    if earlier is not None and earlier is not name:
        reasons.append(f"the spy has used {MISSIONS[earlier].function} this turn, and a spy uses one function a turn")
    elif earlier is name and rolls_made >= found.rolls:
        reasons.append(f"{name.value} has {found.rolls} roll{'s' if found.rolls > 1 else ''} a turn, all made")
        rules.append("Register G2")
    facts = {"mission": name.value, "earlier": earlier.value if earlier else None, "rolls_made": rolls_made}
    if reasons:
        return Ruling(Allowed.not_allowed, f"Not now: {'; '.join(reasons)}.", tuple(dict.fromkeys(rules)), facts=ActFacts(**facts))
    said = f"The spy may roll for {name.value}: 1-{found.success_up_to} on a D{DIE} succeeds."
    if name is MissionName.diplomacy:
        said += f" Diplomacy has {found.rolls} rolls a turn; this is roll {rolls_made + 1}."
    return Ruling(Allowed.allowed, said, tuple(dict.fromkeys(rules)), facts=ActFacts(**facts))


@dataclass(frozen=True)
class DiplomacyFacts(Facts):
    """The fields of a `diplomacy` ruling."""

    goal: str
    fully_aligned: bool
    purchased: bool


def diplomacy(
    table: Table,
    goal: Annotated[Goal, Param("Align the Neutral with you, or un-align it from the opponent courting it.", flag="--goal")],
    fully_aligned: Annotated[bool, Param("The Neutral is already fully aligned.", flag="--fully-aligned")] = False,
    purchased: Annotated[bool, Param("You bought a roll (1 IPC) for this Neutral this turn.", flag="--purchased")] = False,
) -> Ruling[Allowed, DiplomacyFacts]:
    """May a spy use Diplomacy on this Neutral?

    Example: dossier referee --game global-1936-spies diplomacy --goal un-align --fully-aligned
    """
    facts = {"goal": goal.value, "fully_aligned": fully_aligned, "purchased": purchased}
    if fully_aligned:
        return Ruling(Allowed.not_allowed,
                      "A Neutral already fully aligned is out of the spy's reach: it may not un-align it, and there is nothing left to align.",
                      ("Diplomacy", "Register G3"), facts=DiplomacyFacts(**facts))
    extra = (" It may add its roll to the one you bought for this Neutral." if purchased
             else " Its rolls come on top of any you buy at 1 IPC per Neutral.")
    aim = "move your alignment marker on the Diplomacy Chart" if goal is Goal.align else "un-align it from the opponent courting it"
    return Ruling(Allowed.allowed, f"The spy may roll to {aim}: 1-3 on a D{DIE}, up to 2 rolls a turn.{extra}",
                  ("Diplomacy",), facts=DiplomacyFacts(**facts))


@dataclass(frozen=True)
class EspionageFacts(Facts):
    """The fields of a `espionage` ruling."""

    their_stage: str
    your_stage: str
    ally: bool


def espionage(
    table: Table,
    their_stage: Annotated[Stage, Param("The target's stage in the technology: none, 1, 2, 3 or complete.", flag="--their-stage")],
    your_stage: Annotated[Stage, Param("Your stage in the same technology.", flag="--your-stage")],
    ally: Annotated[bool, Param("The target is one of your Allies.", flag="--ally")] = False,
    before_purchased: Annotated[bool, Param("You have not yet made this turn's purchased technology rolls.", flag="--before-purchased")] = False,
) -> Ruling[Allowed, EspionageFacts]:
    """May a spy try to steal this technology from this opponent?

    Example: dossier referee --game global-1936-spies espionage --their-stage 2 --your-stage 1
    """
    facts = {"their_stage": their_stage.value, "your_stage": your_stage.value, "ally": ally}
    reasons = []
    if ally:
        reasons.append("the target may not be one of your Allies")
    if their_stage is Stage.none:
        reasons.append("the target must have the technology, in one of its 3 stages or complete")
    elif STAGES.index(their_stage) <= STAGES.index(your_stage):
        reasons.append(f"the target must be at a higher stage than yours ({their_stage.value} is not above {your_stage.value})")
    if before_purchased:
        reasons.append("the spy tries after your purchased technology rolls")
    if reasons:
        return Ruling(Allowed.not_allowed, f"Not allowed: {'; '.join(reasons)}.", ("Espionage",), facts=EspionageFacts(**facts))
    return Ruling(Allowed.allowed, f"The target holds stage {their_stage.value}, above your {your_stage.value}: roll 1-2 "
                  f"on a D{DIE} to take the technology, on top of your purchased rolls.", ("Espionage",), facts=EspionageFacts(**facts))


@dataclass(frozen=True)
class OutcomeFacts(Facts):
    """The fields of a `outcome` ruling."""

    mission: str
    failed: bool


def outcome(
    table: Table,
    name: Annotated[MissionName, Param("The mission rolled for.", flag="--mission")],
    failed: Annotated[bool, Param("The roll failed.", flag="--failed")] = False,
) -> Ruling[Outcome, OutcomeFacts]:
    """What follows when this mission's roll succeeds (or fails)?

    Example: dossier referee --game global-1936-spies outcome --mission double-agent
    """
    found = MISSIONS[name]
    facts = {"mission": name.value, "failed": failed}
    if failed:
        return Ruling(Outcome.nothing, f"The rule gives a failed {found.function} roll no effect: nothing changes, "
                      "and the spy's mission for this turn is spent.", (found.function, "Spies"), facts=OutcomeFacts(**facts))
    results = {
        MissionName.diplomacy: (Outcome.marker_moves, "Your alignment marker moves up or down the Diplomacy Chart, as you sought; how far is the chart's "
                                 "(HBG's Diplomacy Chart, not part of this rule)."),
        MissionName.espionage: (Outcome.technology_taken, "You acquire the technology you chose."),
        MissionName.assassinate: (Outcome.spy_removed, "The enemy spy is removed from play at once; its owner may buy a spy again "
                                  "on its next round."),
        MissionName.double_agent: (Outcome.spy_turned, "The enemy spy is now your Double Agent: you may use it at once for more tasks, "
                                   f"and while you hold it your action rolls get +{DOUBLE_AGENT_BONUS} (one more winning number, "
                                   "Register G1). Its owner keeps the spy's benefits on their own turn."),
        MissionName.reverse: (Outcome.spy_restored, "Your spy that had been turned is a regular spy of your country again."),
    }
    verdict, said = results[name]
    rules = (found.function, "Register G1") if name is MissionName.double_agent else (found.function,)
    return Ruling(verdict, said, rules, facts=OutcomeFacts(**facts))


QUESTIONS = {
    "mission": mission,
    "buy": buy,
    "timing": timing,
    "act": act,
    "diplomacy": diplomacy,
    "espionage": espionage,
    "outcome": outcome,
}
