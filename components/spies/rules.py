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


class StandardRules:
    """The standard game's rules: every difference the Long Game makes is declared here and overridden in
    LongRules, so the questions, the position check and the board read one rule set and never test the variant."""

    name = STANDARD
    label = "standard game"
    column = 0                     # of SECTIONS: the standard section
    action_points: int | None = None  # no budget
    chits_left_out = LEFT_OUT_OF_STANDARD_CUP
    on_another_turn = ON_ANOTHER_TURN[STANDARD]
    your_turn_said: str | None = None  # how the chits allowed on your own turn are said; None: listed by name
    havens = False                 # 5.1
    cousins = False                # 5.2
    special_tiles = False          # 3.22: the * effects are a Long Game case
    every_spy_set_up = False       # 2.6 sets every spy up; the standard game chooses up to the Starting Set-Up's number
    final_needs_control = False    # Register R4: not enemy-held is enough in the standard game
    COSTS: dict[str, int] = {}

    def cite(self, *topics: str, also: Iterable[str] = ()) -> tuple[str, ...]:
        """The rule set's section for each topic, then `also` (cases, reference sections, register entries)."""
        return tuple(dict.fromkeys([SECTIONS[t][self.column] for t in topics] + list(also)))

    def standard_too(self, topic: str, entry: str) -> tuple[str, ...]:
        """Where a Long Game case leaves a gap: the standard section it is filled from and the register entry; () here."""
        return ()

    def in_cup(self, table: Table) -> list[str]:
        """The chits this rule set plays with."""
        return [p.name for p in pieces(table, "chit") if p.name not in self.chits_left_out]

    def on_your_turn(self, table: Table) -> list[str]:
        return list(ON_YOUR_TURN_STANDARD)

    def is_haven(self, place: City) -> bool:
        return self.havens and place.has_mark("haven")

    def is_barred_in(self, chit_name: str, place: City) -> bool:
        """True when `chit_name` may never be played in `place` (a spy haven)."""
        return self.is_haven(place) and chit_name in BARRED_IN_HAVENS

    def cost(self, what: str, n: int = 1) -> int:
        """Action Points `what` costs (a tile, a city searched, a space, an opponent talked to): none here."""
        return self.COSTS.get(what, 0) * n

    def chit_cost(self, chit: Piece) -> int:
        """Action Points an Action chit costs on top of its £: none here."""
        return 0

    def with_points(self, sentence: str) -> str:
        """`sentence` (about Action Points) where the rule set counts them, else nothing."""
        return ""


class LongRules(StandardRules):
    """The Long Game: the standard rules with 12 Action Points a turn, every chit, spy havens and Cousins."""

    name = LONG
    label = "Long Game"
    column = 1
    action_points = ACTION_POINTS
    chits_left_out = ()
    on_another_turn = ON_ANOTHER_TURN[LONG]
    your_turn_said = "any chit except Intercept"
    havens = cousins = special_tiles = every_spy_set_up = final_needs_control = True
    # 3.1, 3.21, 3.4, 3.6, 3.9: a tile played, a city searched, a space moved, an opponent talked to; discarding,
    # police and anything on another player's turn cost nothing
    COSTS = {"tile": 1, "search": 1, "space": 1, "talk": 1}

    def standard_too(self, topic: str, entry: str) -> tuple[str, ...]:
        return (SECTIONS[topic][0], entry)

    def on_your_turn(self, table: Table) -> list[str]:
        return [n for n in self.in_cup(table) if n not in NOT_ON_YOUR_TURN_LONG]

    def chit_cost(self, chit: Piece) -> int:
        """3.8: the chit's own Action Points, as the pieces' data gives them (`action_points`)."""
        return chit.action_points or 0

    def with_points(self, sentence: str) -> str:
        return sentence


def rules_for(table: Table) -> StandardRules:
    """The rule set the table plays."""
    return LongRules() if table.variant == LONG else StandardRules()


def cite(table: Table, *topics: str, also: Iterable[str] = ()) -> tuple[str, ...]:
    return rules_for(table).cite(*topics, also=also)


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


def cup_size(table: Table) -> int:
    """How many Action chits the variant's cup holds in all."""
    in_cup = rules_for(table).in_cup(table)
    return sum(p.count for p in pieces(table, "chit") if p.name in in_cup)


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


def seats_for(table: Table, count: int) -> list[list[str]]:
    """The seats of `count` players in turn order: the powers each runs (Playing the Game with Fewer Than Five Players);
    the power played in alternate years has no seat of its own."""
    shared = SHARED_SEATS.get(count, ())
    seats: list[list[str]] = []
    for faction in (f.id for f in table.game.info.factions):
        if faction == ALTERNATING.get(count):
            continue
        seat = next((list(pair) for pair in shared if faction in pair), [faction])
        if seat not in seats:
            seats.append(seat)
    return seats


@dataclass(frozen=True)
class Allotment:
    """What a power takes and places at set-up: Event Tiles in hand, police, spies (None: up to the mapsheet's Starting
    Set-Up, which the rulebook does not give) and the cities marked SECRET that take the secrets left over."""

    tiles: int
    own_tiles: int
    random_tiles: int
    police: int
    spies: int | None
    spies_owned: int
    secret_cities: tuple[str, ...]


def allotment(table: Table, power: str) -> Allotment:
    own = sum(1 for t in table.game.tiles if t.nation == power)
    pool = sum(1 for t in table.game.tiles if t.nation is None)
    owned = len(spies_of(table, power))
    return Allotment(tiles=own + RANDOM_TILES_DRAWN, own_tiles=own, random_tiles=pool,
                     police=sum(police_of(table).get(power, Counter()).values()),
                     spies=owned if rules_for(table).every_spy_set_up else None, spies_owned=owned,
                     secret_cities=tuple(c.name for c in game_map(table).cities if c.has_mark("secret")))


def markers(table: Table, kind: str) -> int:
    """How many markers of `kind` the counter sheet holds (the pieces' `count`)."""
    return sum(p.count for p in pieces(table, kind))
