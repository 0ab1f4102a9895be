"""The Spies! rules the questions (referee.py) and the position check (position.py) share, so one
rule is written once and answers the same way in both.

Each citation is a standard-rules section ("Standard: Searching for Enemy Spies") in the standard
game and a Long Game case ("3.4") in the long one; docs/rulings.md holds the register entries
("Register R1") for the rules the rulebook leaves unclear. Names, strengths, costs, years, cities
and territories come from the data files beside this one; what is written here is what the rules say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from generators.referee import City, Faction, MapFile, NameIndex, Piece, QuestionError, Table

STANDARD, LONG = "standard", "long"

# The rules' own numbers.
POLICE_PER_CITY = 2          # Deploying Police; Re-Arranging Your Police; 2.5, 3.3
CHIT_LIMIT = 7               # Playing Event Tiles (not repeated in 3.21: Register R7)
CASH_IN_MONEY = 20           # Controlling Secrets (not repeated in 3.7: Register R6)
CASH_IN_CHITS = 1
ACTION_POINTS = 12           # 3.1
FEWEST_PLAYERS = 2           # Playing the Game with Fewer Than Five Players
RANDOM_TILES_DRAWN = 3       # Drawing Event Tiles; 2.3
LAST_TURN_POWER = "britain"  # Setting Up the Year Track; 2.8: the year moves on when Britain ends its turn

# Which Action chits may be played when, by name as printed on the chits.
LEFT_OUT_OF_STANDARD_CUP = ("Double Cross", "Intercept", "Drop", "Source")  # Standard: Drawing Action Chits
ON_YOUR_TURN_STANDARD = ("Discovery", "Papers", "Sanction", "Recruit", "Escape")  # Standard: Playing Action Chits
NOT_ON_YOUR_TURN_LONG = ("Intercept",)  # 3.8: any chit except Intercept
ON_ANOTHER_TURN = {
    STANDARD: ("Papers", "Escape", "Cover"),  # Standard: What You Can Do During Another Player's Turn
    LONG: ("Papers", "Escape", "Cover", "Double Cross", "Intercept"),  # 4.2
}
BARRED_IN_HAVENS = ("Discovery", "Drop", "Sanction")  # 5.1

# Fewer than five players: powers one player runs together, and the power that alternates by year.
SHARED_SEATS = {4: (("germany", "italy"),), 3: (("germany", "italy"), ("france", "britain")),
                2: (("germany", "italy"), ("france", "britain"))}
ALTERNATING = {2: "russia"}

# Each topic's section in the standard rules and its case in the Long Game rules.
SECTIONS = {
    "countries": ("Standard: Choosing Countries", "2.1"),
    "bank": ("Standard: Setting Up the Bank Track", "2.2"),
    "drawing tiles": ("Standard: Drawing Event Tiles", "2.3"),
    "deploying secrets": ("Standard: Drawing and Deploying Secrets", "2.4"),
    "deploying police": ("Standard: Deploying Police", "2.5"),
    "deploying spies": ("Standard: Selecting and Deploying Spies", "2.6"),
    "chit cup": ("Standard: Drawing Action Chits", "2.7"),
    "year track": ("Standard: Setting Up the Year Track", "2.8"),
    "event tiles": ("Standard: Playing Event Tiles", "3.21"),
    "re-arranging police": ("Standard: Re-Arranging Your Police", "3.3"),
    "searching": ("Standard: Searching for Enemy Spies", "3.4"),
    "capture": ("Standard: Capture and Counterspies", "3.5"),
    "moving": ("Standard: Moving Your Spies", "3.6"),
    "secrets": ("Standard: Controlling Secrets", "3.7"),
    "chits on your turn": ("Standard: Playing Action Chits", "3.8"),
    "diplomacy": ("Standard: Initiating Diplomacy", "3.9"),
    "arriving spies": ("Standard: Searching for Arriving Enemy Spies", "4.1"),
    "chits on another's turn": ("Standard: What You Can Do During Another Player's Turn", "4.2"),
    "responding": ("Standard: Responding to Diplomacy", "4.3"),
    "winning": ("Standard: How to Win the Game", "6.0"),
    "fewer players": ("Standard: Playing the Game with Fewer Than Five Players", "7.0"),
}


def is_long(table: Table) -> bool:
    return table.variant == LONG


def variant_name(table: Table) -> str:
    return "Long Game" if is_long(table) else "standard game"


def cite(table: Table, *topics: str, also: Iterable[str] = ()) -> tuple[str, ...]:
    """The variant's rule for each topic, then `also` (cases, reference sections, register entries)."""
    column = 1 if is_long(table) else 0
    found = [SECTIONS[topic][column] for topic in topics] + list(also)
    return tuple(dict.fromkeys(found))


def standard_too(table: Table, topic: str, entry: str) -> tuple[str, ...]:
    """In the Long Game, the standard section and the register entry a gap in its case is filled from; () otherwise."""
    return (SECTIONS[topic][0], entry) if is_long(table) else ()


def join(words: Iterable[str], last: str = "and") -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def not_negative(value: int, option: str) -> None:
    if value < 0:
        raise QuestionError(f"{option} {value}: a count cannot be negative")


# ---- the data -------------------------------------------------------------------------------------

def pieces(table: Table, kind: str) -> list[Piece]:
    return [p for p in table.game.pieces if p.kind == kind]


def strengths(table: Table, kind: str) -> list[int]:
    return sorted({p.strength for p in pieces(table, kind) if p.strength is not None})


def require_strength(table: Table, kind: str, value: int, option: str) -> None:
    printed = strengths(table, kind)
    if value not in printed:
        label = table.game.info.kinds[kind].label.lower()
        raise QuestionError(f"{option} {value}: no {label} has strength {value}; the printed strengths are {join(map(str, printed))}")


def police_of(table: Table) -> dict[str, Counter]:
    """Each power's police, as a count of pieces per strength."""
    found: dict[str, Counter] = {}
    for piece in pieces(table, "police"):
        found.setdefault(piece.nation, Counter())[piece.strength] += piece.count
    return found


def spies_of(table: Table, power: str) -> list[Piece]:
    return [p for p in pieces(table, "spy") if p.nation == power]


def power_index(table: Table) -> NameIndex:
    factions = table.game.info.factions
    return NameIndex("power", [f.name for f in factions], {f.id: f.name for f in factions})


def find_power(table: Table, name: str) -> Faction:
    found = power_index(table).resolve(name)
    return next(f for f in table.game.info.factions if f.name == found)


def power_name(table: Table, power_id: str | None) -> str:
    return next((f.name for f in table.game.info.factions if f.id == power_id), "a neutral country")


def game_map(table: Table) -> MapFile:
    found = table.game.map
    if found is None:
        raise QuestionError(f"{table.game.info.title} has no map.yaml, which this question needs")
    return found


def city_index(table: Table) -> NameIndex:
    return NameIndex("city", [c.name for c in game_map(table).cities], table.game.aliases)


def find_city(table: Table, name: str) -> City:
    return game_map(table).city(city_index(table).resolve(name))


def chit_index(table: Table) -> NameIndex:
    return NameIndex("Action chit", dict.fromkeys(p.name for p in pieces(table, "chit")), table.game.aliases)


def find_chit(table: Table, name: str) -> Piece:
    chits = {p.name: p for p in pieces(table, "chit")}
    return chits[chit_index(table).resolve(name)]


def chits_in_cup(table: Table) -> list[str]:
    names = [p.name for p in pieces(table, "chit")]
    return names if is_long(table) else [n for n in names if n not in LEFT_OUT_OF_STANDARD_CUP]


def cup_size(table: Table) -> int:
    """How many Action chits the variant's cup holds in all."""
    in_cup = chits_in_cup(table)
    return sum(p.count for p in pieces(table, "chit") if p.name in in_cup)


def chits_on_your_turn(table: Table) -> list[str]:
    if is_long(table):
        return [n for n in chits_in_cup(table) if n not in NOT_ON_YOUR_TURN_LONG]
    return list(ON_YOUR_TURN_STANDARD)


def chits_on_another_turn(table: Table) -> tuple[str, ...]:
    return ON_ANOTHER_TURN[LONG if is_long(table) else STANDARD]


def is_haven(table: Table, place: City) -> bool:
    """Spy havens are a Long Game rule (5.1): in the standard game every city is ordinary."""
    return is_long(table) and place.has_mark("haven")


def is_barred_in(table: Table, chit_name: str, place: City) -> bool:
    """True when `chit_name` may never be played in `place` (a spy haven, Long Game)."""
    return is_haven(table, place) and chit_name in BARRED_IN_HAVENS


@dataclass(frozen=True)
class Fault:
    """One rule a placement breaks: a stable code and the reason in plain words."""

    code: str
    message: str


def police_faults(table: Table, faction: Faction, place: City, count: int) -> list[Fault]:
    """Why `count` police of `faction` may not stand in `place` (empty when they may): home territory,
    cities coded for police (Register R9), at most two a city."""
    faults = []
    if place.power != faction.id:
        owner = f"{power_name(table, place.power)}'s" if place.power else "neutral"
        faults.append(Fault("police-abroad", f"{place.name} is not in {faction.name}'s home territory (it is {owner})"))
    elif not (place.has_mark("police") or place.capital):
        faults.append(Fault("police-uncoded", f"{place.name} is not coded for police"))
    if count > POLICE_PER_CITY:
        faults.append(Fault("police-crowded", f"no more than {POLICE_PER_CITY} police may share a city"))
    return faults


def police_rules(table: Table) -> tuple[str, ...]:
    return cite(table, "deploying police", "re-arranging police", also=("Register R9",))
