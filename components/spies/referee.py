"""The Spies! referee: one plain function per rules question, answered from this game's data.

Each answer cites the rule that decides it: a standard-rules section ("Standard: Searching for
Enemy Spies") in the standard game, a Long Game case ("3.4") in the long one, and an entry of
the register of unclear rules in docs/rulings.md ("Register R1") wherever the rulebook is
unclear or contradicts itself. Names, strengths, costs, years, cities and territories come
from the data files beside this one; what is written here is only what the rules say.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum
from typing import Annotated, Optional

import typer

from generators.core.map_models import City, MapFile
from generators.core.models import Faction, Piece
from generators.core.names import NameIndex
from generators.referee import QuestionError, Ruling, Table, only_in
from generators.core.tile_text import years_label

STANDARD, LONG = "standard", "long"

# The rules' own numbers.
POLICE_PER_CITY = 2          # Deploying Police; Re-Arranging Your Police; 2.5, 3.3
CHIT_LIMIT = 7               # Playing Event Tiles (not repeated in 3.21: Register R7)
CASH_IN_MONEY = 20           # Controlling Secrets (not repeated in 3.7: Register R6)
CASH_IN_CHITS = 1
ACTION_POINTS = 12           # 3.1
FEWEST_PLAYERS = 2           # Playing the Game with Fewer Than Five Players

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
    "deploying police": ("Standard: Deploying Police", "2.5"),
    "chit cup": ("Standard: Drawing Action Chits", "2.7"),
    "event tiles": ("Standard: Playing Event Tiles", "3.21"),
    "re-arranging police": ("Standard: Re-Arranging Your Police", "3.3"),
    "searching": ("Standard: Searching for Enemy Spies", "3.4"),
    "capture": ("Standard: Capture and Counterspies", "3.5"),
    "moving": ("Standard: Moving Your Spies", "3.6"),
    "secrets": ("Standard: Controlling Secrets", "3.7"),
    "chits on your turn": ("Standard: Playing Action Chits", "3.8"),
    "chits on another's turn": ("Standard: What You Can Do During Another Player's Turn", "4.2"),
    "winning": ("Standard: How to Win the Game", "6.0"),
    "fewer players": ("Standard: Playing the Game with Fewer Than Five Players", "7.0"),
}


class Evasion(str, Enum):
    papers = "papers"
    escape = "escape"


class When(str, Enum):
    own_turn = "own-turn"
    opponent_turn = "opponent-turn"


class Origin(str, Enum):
    original = "original"
    foreign = "foreign"


class Location(str, Enum):
    home = "home"
    abroad = "abroad"


class Control(str, Enum):
    own = "own"
    none = "none"
    enemy = "enemy"


class State(str, Enum):
    uncontrolled = "uncontrolled"
    enemy = "enemy"


class Agent(str, Enum):
    spy = "spy"
    cousin = "cousin"


# ---- helpers over the data ------------------------------------------------------------

def _is_long(table: Table) -> bool:
    return table.variant == LONG


def _cite(table: Table, *topics: str, also: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The variant's rule for each topic, then `also` (cases, reference sections, register entries)."""
    column = 1 if _is_long(table) else 0
    found = [SECTIONS[topic][column] for topic in topics] + list(also)
    return tuple(dict.fromkeys(found))


def _pieces(table: Table, kind: str) -> list[Piece]:
    return [p for p in table.game.pieces if p.kind == kind]


def _strengths(table: Table, kind: str) -> list[int]:
    return sorted({p.strength for p in _pieces(table, kind) if p.strength is not None})


def _require_strength(table: Table, kind: str, value: int, option: str) -> None:
    printed = _strengths(table, kind)
    if value not in printed:
        label = table.game.info.kinds[kind].label.lower()
        raise QuestionError(f"{option} {value}: no {label} has strength {value}; the printed strengths are {_join(map(str, printed))}")


def _police_of(table: Table) -> dict[str, Counter]:
    """Each power's police, as a count of pieces per strength."""
    found: dict[str, Counter] = {}
    for piece in _pieces(table, "police"):
        found.setdefault(piece.nation, Counter())[piece.strength] += piece.count
    return found


def _power(table: Table, name: str) -> Faction:
    factions = table.game.info.factions
    index = NameIndex("power", [f.name for f in factions], {f.id: f.name for f in factions})
    found = index.resolve(name)
    return next(f for f in factions if f.name == found)


def _power_name(table: Table, power_id: str | None) -> str:
    return next((f.name for f in table.game.info.factions if f.id == power_id), "a neutral country")


def _map(table: Table) -> MapFile:
    game_map = table.game.map
    if game_map is None:
        raise QuestionError(f"{table.game.info.title} has no map.yaml, which this question needs")
    return game_map


def _city(table: Table, name: str) -> City:
    game_map = _map(table)
    index = NameIndex("city", [c.name for c in game_map.cities], table.game.aliases)
    return game_map.city(index.resolve(name))


def _chit(table: Table, name: str) -> Piece:
    chits = {p.name: p for p in _pieces(table, "chit")}
    return chits[NameIndex("Action chit", chits, table.game.aliases).resolve(name)]


def _chits_in_cup(table: Table) -> list[str]:
    names = [p.name for p in _pieces(table, "chit")]
    return names if _is_long(table) else [n for n in names if n not in LEFT_OUT_OF_STANDARD_CUP]


def _chits_on_your_turn(table: Table) -> list[str]:
    if _is_long(table):
        return [n for n in _chits_in_cup(table) if n not in NOT_ON_YOUR_TURN_LONG]
    return list(ON_YOUR_TURN_STANDARD)


def _join(words, last: str = "and") -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _not_negative(value: int, option: str) -> None:
    if value < 0:
        raise QuestionError(f"{option} {value}: a count cannot be negative")


# ---- the questions ----------------------------------------------------------------------

def search(
    table: Table,
    police: Annotated[list[int], typer.Option("--police", metavar="S", help="Strength of a police piece in the city; give it twice for two police.")],
    spy: Annotated[int, typer.Option("--spy", metavar="S", help="Strength of the enemy spy searched for.")],
    evade: Annotated[Optional[Evasion], typer.Option("--evade", help="The spy's owner plays this chit to avoid the comparison.")] = None,
) -> Ruling:
    """Does a police search catch the spy?

    The police strength (two police in a city add up) against the spy's.

    Example: dossier referee search --police 2 --police 3 --spy 4
    """
    if not 1 <= len(police) <= POLICE_PER_CITY:
        raise QuestionError(f"--police given {len(police)} times: a city holds one or two police, never more than {POLICE_PER_CITY}")
    if not any(Counter(police) <= roster for roster in _police_of(table).values()):
        rosters = "; ".join(f"{_power_name(table, p)} {', '.join(map(str, sorted(c.elements())))}" for p, c in _police_of(table).items())
        raise QuestionError(f"--police {' --police '.join(map(str, police))}: no power has police of "
                            f"{'strength' if len(police) == 1 else 'strengths'} {_join(map(str, police))} (police: {rosters})")
    _require_strength(table, "spy", spy, "--spy")
    strength = sum(police)
    sum_text = f"{strength} ({' + '.join(map(str, police))})" if len(police) > 1 else str(strength)
    facts = {"police_strength": strength, "spy_strength": spy}
    if evade is not None:
        chit = _chit(table, evade.value)
        return Ruling("search", "evaded",
                      f"The spy's owner plays {chit.name} ({chit.cost}), so the strengths are never compared and the spy stays free.",
                      _cite(table, "searching", "capture"), extra=facts)
    if strength > spy:
        return Ruling("search", "captured",
                      f"The police strength {sum_text} is greater than the spy's {spy}, so the spy is captured at once "
                      "and goes on the searcher's Time and Victory Record under the current year.",
                      _cite(table, "searching", "capture"), extra=facts)
    how = "equal to" if strength == spy else "less than"
    return Ruling("search", "no effect",
                  f"The police strength {sum_text} is {how} the spy's {spy}; the police must be stronger, so the search has no effect.",
                  _cite(table, "searching"), extra=facts)


def counterspy(
    table: Table,
    counterspy_strength: Annotated[int, typer.Option("--counterspy", metavar="S", help="Strength of the counterspy discovered.")],
    spy_strength: Annotated[int, typer.Option("--spy", metavar="S", help="Strength of the spy that discovered it.")],
    cousin: Annotated[bool, typer.Option("--cousin", help="The spy is its power's Cousin.")] = False,
    neutral: Annotated[bool, typer.Option("--neutral", help="The counterspy lies in a neutral country.")] = False,
) -> Ruling:
    """What happens when a spy discovers a counterspy?

    The counterspy's strength against the spy's.

    Example: dossier referee counterspy --counterspy 5 --spy 4 --neutral
    """
    _require_strength(table, "counterspy", counterspy_strength, "--counterspy")
    _require_strength(table, "spy", spy_strength, "--spy")
    cousins = sorted({p.strength for p in _pieces(table, "spy") if p.cousin})
    if cousin and spy_strength not in cousins:
        raise QuestionError(f"--spy {spy_strength} with --cousin: a Cousin has strength {_join(map(str, cousins), 'or')} (Playing Piece Roster)")
    facts = {"counterspy_strength": counterspy_strength, "spy_strength": spy_strength}
    neutral_rules = ("Register R8",) if neutral else ()
    if cousin and _is_long(table):
        return Ruling("counterspy", "no effect",
                      "A Cousin is never captured by a counterspy: the counterspy it discovers is simply removed from play.",
                      ("5.2", "3.5", *neutral_rules), extra=facts | {"counterspy_removed": True, "captured_to": None})
    standard_cousin = " (a Cousin has no special rule in the standard game: that is Long Game case 5.2)" if cousin else ""
    if counterspy_strength > spy_strength:
        where = "spies captured in neutral countries box" if neutral else "time and victory record"
        placed = ("it goes in the Spies Captured in Neutral Countries box, not on a Time and Victory Record" if neutral
                  else "it goes on the Time and Victory Record under the year of capture")
        return Ruling("counterspy", "captured",
                      f"The counterspy's {counterspy_strength} is greater than the spy's {spy_strength}{standard_cousin}, so the spy is captured: "
                      f"{placed}. The counterspy is then removed from play.",
                      _cite(table, "capture", also=neutral_rules), extra=facts | {"counterspy_removed": True, "captured_to": where})
    how = "equal to" if counterspy_strength == spy_strength else "less than"
    return Ruling("counterspy", "no effect",
                  f"The counterspy's {counterspy_strength} is {how} the spy's {spy_strength}{standard_cousin}; only a stronger counterspy captures. "
                  "The counterspy is removed from play all the same.",
                  _cite(table, "capture", also=neutral_rules), extra=facts | {"counterspy_removed": True, "captured_to": None})


def move(
    table: Table,
    origin: Annotated[str, typer.Argument(metavar="FROM", help="The city the spy starts in.")],
    destination: Annotated[str, typer.Argument(metavar="TO", help="The city it should end in.")],
    spaces: Annotated[Optional[int], typer.Option("--spaces", metavar="N", help="Spaces the spy may move (default: the most a turn allows, 5).")] = None,
) -> Ruling:
    """Can a spy get from one city to another this turn?

    The fewest spaces by rail, air and sea: every city or sea zone entered is a space,
    and a move may not end at sea.

    Example: dossier referee move Berlin London
    """
    from generators.map.network import Network, PlaceKindError

    game_map = _map(table)
    most = game_map.rules.spaces_per_turn
    limit = most if spaces is None else spaces
    if not 0 <= limit <= most:
        raise QuestionError(f"--spaces {limit}: a spy moves from 0 to {most} spaces a turn")
    rules = _cite(table, "moving")
    try:
        found = Network(game_map, table.game.aliases).route(origin, destination)
    except PlaceKindError as exc:
        if exc.role != "destination":
            raise
        return Ruling("move", "ends at sea", f"{exc.place} is a sea zone: a spy may pass through the sea but may not end its move there.",
                      rules, allowed=False, extra={"spaces": None, "path": [], "kinds": [], "limit": limit})
    facts = {"spaces": found.spaces, "path": found.path, "kinds": found.kinds, "limit": limit}
    if found.spaces is None:
        return Ruling("move", "no route", "No rail line, air line or sea route joins these two cities, whatever the number of spaces.",
                      rules, allowed=False, extra=facts)
    steps = found.path[0] + "".join(f" –{kind}→ {place}" for kind, place in zip(found.kinds, found.path[1:]))
    plural = "space" if found.spaces == 1 else "spaces"
    if found.spaces > limit:
        return Ruling("move", "too far", f"The shortest way takes {found.spaces} {plural} ({steps}), more than the {limit} allowed.",
                      rules, allowed=False, extra=facts)
    cost = f" In the Long Game each space costs 1 Action Point: {found.spaces} here." if _is_long(table) and found.spaces else ""
    return Ruling("move", "allowed", f"The shortest way takes {found.spaces} {plural} of the {limit} allowed: {steps}.{cost}",
                  rules, allowed=True, extra=facts)


def tile(
    table: Table,
    tile_id: Annotated[str, typer.Argument(metavar="ID", help='The tile as printed, e.g. "Ge 1" or "random 36".')],
    year: Annotated[int, typer.Option("--year", metavar="Y", help="The current game year.")],
) -> Ruling:
    """May this Event Tile be played face up this year?

    Example: dossier referee tile "Ge 1" --year 1937
    """
    years = table.game.info.years
    if year not in years:
        raise QuestionError(f"--year {year}: the game runs from {years[0]} to {years[-1]}")
    found = table.game.tile(tile_id)
    marked = f"{found.id} ({found.event.rstrip('.')}) is marked {years_label(found.years, table.game.info.years)}"
    special = ("3.22", "Register R11") if found.special and _is_long(table) else ()
    special_text = (" Its * marks an extra effect, listed on the display's summary, not in the rulebook." if special else "")
    cost = " Playing it costs 1 Action Point; discarding one costs none." if _is_long(table) else ""
    facts = {"tile": found.id, "event": found.event, "years": found.years}
    rules = _cite(table, "event tiles", also=("Event Tile Reference", *special))
    if year in found.years:
        return Ruling("tile", "playable", f"{marked}, so it may be played face up in {year}.{cost}{special_text}",
                      rules, allowed=True, extra=facts)
    return Ruling("tile", "not playable",
                  f"{marked}, so it may be played only in {_join(map(str, found.years), 'or')}; in {year} it can only be discarded face down.",
                  rules, allowed=False, extra=facts)


def award(
    table: Table,
    tile_id: Annotated[str, typer.Argument(metavar="ID", help='The tile played, e.g. "Ge 1".')],
    spies: Annotated[list[str], typer.Option("--spy", metavar="POWER@CITY", help="A city where a power has a spy, e.g. germany@Paris; repeat for each.")],
) -> Ruling:
    """Who gets what when this Event Tile is played?

    Name where each power has spies; every power named is answered, zeros included.

    Example: dossier referee award "Ge 1" --spy france@Berlin --spy germany@Prague
    """
    found = table.game.tile(tile_id)
    placed: dict[str, set[str]] = {}
    for entry in spies:
        power_text, at, city_text = entry.partition("@")
        if not at or not power_text.strip() or not city_text.strip():
            raise QuestionError(f"--spy {entry!r}: write the power and the city as POWER@CITY, e.g. germany@Paris")
        placed.setdefault(_power(table, power_text.strip()).id, set()).add(_city(table, city_text.strip()).name)
    awards: dict[str, dict[str, int]] = {}
    sentences = []
    for faction in table.game.info.factions:
        if faction.id not in placed:
            continue
        totals = {kind.name: 0 for kind in table.game.info.award_kinds.values()}
        earned, own = [], []
        for group in found.awards:
            for city in sorted(placed[faction.id] & set(group.cities)):
                if _city(table, city).power == faction.id:
                    own.append(city)
                    continue
                totals[table.game.info.award_kinds[group.kind].name] += group.amount
                earned.append(f"{city} {group.amount}{group.kind}")
        awards[faction.id] = totals
        gets = _join([f"{totals['chits']} Action chit{'s' if totals['chits'] != 1 else ''}"] * bool(totals["chits"])
                     + [f"{totals['money']}£"] * bool(totals["money"])) if any(totals.values()) else "nothing"
        why = [f"for {_join(earned)}"] if earned else []
        why += [f"{_join(sorted(set(own)))} {'is' if len(set(own)) == 1 else 'are'} its own territory, which earns nothing"] if own else []
        if not earned and not own:
            why.append("none of its spies is in a city the tile lists")
        sentences.append(f"{faction.name} gets {gets}: {'; '.join(why)}.")
    special = ("3.22", "Register R11") if found.special and _is_long(table) else ()
    note = " A second spy in the same city earns nothing more."
    if special:
        note += " The tile's * effect is listed on the display, not in the rulebook, and is not included."
    return Ruling("award", "awarded" if any(v for t in awards.values() for v in t.values()) else "nothing awarded",
                  " ".join(sentences) + note, _cite(table, "event tiles", also=("Event Tile Reference", *special)),
                  extra={"tile": found.id, "awards": awards})


def chit(
    table: Table,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The Action chit, e.g. Discovery.")],
    when: Annotated[Optional[When], typer.Option("--when", help="Whose turn it is.")] = None,
    city: Annotated[Optional[str], typer.Option("--city", metavar="CITY", help="The city where it is played.")] = None,
) -> Ruling:
    """May this Action chit be played now, and at what cost?

    Without --when only the cost and whether the game uses the chit are answered.

    Example: dossier referee chit Discovery --when own-turn --city Geneva --game long
    """
    found = _chit(table, name)
    place = _city(table, city) if city is not None else None
    variant = "Long Game" if _is_long(table) else "standard game"
    facts = {"chit": found.name, "cost": found.cost}
    rules = ["Action Chit Cost Summary"]
    said = [f"{found.name} costs {found.cost} as printed."]
    if found.name == "Drop":
        rules.append("Register R12")
        said.append("The rulebook does not say what makes it 20 or 30.")
    if found.name not in _chits_in_cup(table):
        rules += _cite(table, "chit cup")
        said.append(f"It is left out of the cup in the {variant}, so it is never played there.")
        return Ruling("chit", f"not used in the {variant}", " ".join(said), tuple(rules),
                      allowed=False if when is not None else None, extra=facts)
    if found.name == "Cover" and not _is_long(table):
        rules += _cite(table, "chit cup", also=("Register R3",))
        said.append("The cost summary marks it Long Game only, but the standard rules put it in the cup and let it be played "
                    "on another player's turn; the register follows the standard rules.")
    barred, haven_note, place_note = False, "", ""
    if place is not None and not _is_long(table):
        place_note = f"Spy havens are a Long Game rule; in the standard game {place.name} is an ordinary city."
    elif place is not None and place.has_mark("haven"):
        barred = found.name in BARRED_IN_HAVENS
        haven_note = (f"{place.name} is a spy haven, where {_join(BARRED_IN_HAVENS, 'or')} may never be played"
                      + (f", so {found.name} may not be played there." if barred else f"; {found.name} is not one of them."))
    if when is None:
        said += [note for note in (place_note, haven_note) if note]
        rules += ["5.1"] if haven_note else []
        return Ruling("chit", f"costs {found.cost}", " ".join(said), tuple(dict.fromkeys(rules)), extra=facts)
    if when is When.own_turn:
        allowed = found.name in _chits_on_your_turn(table)
        rules += _cite(table, "chits on your turn")
        timing = (f"On your own turn, while your spies move, the {variant} allows {_join(_chits_on_your_turn(table), 'or')}"
                  if not _is_long(table) else "On your own turn, while your spies move, the Long Game allows any chit except Intercept")
    else:
        allowed = found.name in ON_ANOTHER_TURN[table.variant]
        rules += _cite(table, "chits on another's turn")
        if found.name == "Cover" and not _is_long(table):
            rules.append("Register R1")
        timing = f"On another player's turn the {variant} allows {_join(ON_ANOTHER_TURN[table.variant], 'or')}"
        if _is_long(table):
            timing += ", at no Action Point cost"
    said.append(f"{timing}, so {found.name} {'is' if allowed else 'is not'} playable then.")
    if place_note:
        said.append(place_note)
    if haven_note:
        rules.append("5.1")
        said.append(f"{'But' if allowed and barred else 'And'} {haven_note}")
        allowed = allowed and not barred
    return Ruling("chit", "allowed" if allowed else "not allowed", " ".join(said), tuple(dict.fromkeys(rules)),
                  allowed=allowed, extra=facts)


def cash_in(
    table: Table,
    origin: Annotated[Origin, typer.Option("--origin", help="Where the secret began the game: in your home territory (original) or not (foreign).")],
    at_capital: Annotated[Optional[bool], typer.Option("--at-capital/--not-at-capital", help="Whether the spy controlling it is in your capital.")] = None,
) -> Ruling:
    """May this secret be cashed in now, and for what?

    Example: dossier referee cash-in --origin foreign --at-capital
    """
    if at_capital is None:
        raise QuestionError("say where the secret is: --at-capital or --not-at-capital")
    rules = _cite(table, "secrets", also=(SECTIONS["secrets"][0], "Register R6") if _is_long(table) else ())
    nothing = {"money": 0, "chits": 0}
    if origin is Origin.original:
        return Ruling("cash-in", "not allowed",
                      "Only foreign secrets are cashed in during the game. An original secret scores only at the end of 1939, "
                      "and then for Victory Points alone, no money or chit.",
                      rules, allowed=False, extra=nothing)
    if not at_capital:
        return Ruling("cash-in", "not allowed",
                      "A foreign secret is cashed in only once the spy controlling it has brought it to your capital.",
                      rules, allowed=False, extra=nothing)
    return Ruling("cash-in", "allowed",
                  f"A foreign secret your spy controls in your capital is cashed in at once: you get {CASH_IN_MONEY}£ and "
                  f"{CASH_IN_CHITS} Action chit, and the secret goes on your Time and Victory Record under this year, out of play.",
                  rules, allowed=True, extra={"money": CASH_IN_MONEY, "chits": CASH_IN_CHITS})


def final_secret(
    table: Table,
    origin: Annotated[Origin, typer.Option("--origin", help="original (began in your home territory) or foreign.")],
    location: Annotated[Location, typer.Option("--location", help="Where it is at the end: in your home territory or abroad.")],
    control: Annotated[Control, typer.Option("--control", help="Who has a piece on it: you, nobody, or an enemy.")],
) -> Ruling:
    """Does a secret on the map score at the end of 1939?

    Example: dossier referee final-secret --origin original --location home --control none --game long
    """
    long_game = _is_long(table)
    rules = _cite(table, "winning", "secrets", also=(("Register R4",) if control is Control.none else ())
                  + (("Register R5",) if origin is Origin.foreign else ()))
    if origin is Origin.foreign:
        counts, why = False, ("A foreign secret scores only by being cashed in at your capital during the game; "
                              "the final count takes only the secrets you began with.")
    elif location is Location.abroad:
        counts, why = False, "An original secret scores at the end only if it is back in your home territory."
    elif control is Control.enemy:
        counts, why = False, "A secret an enemy piece sits on does not score for you."
    elif control is Control.none and long_game:
        counts, why = False, ("The Long Game's victory rule asks for the secret to be under your control: "
                              "put a spy or police piece on it before Britain's 1939 turn ends.")
    else:
        counts, why = True, ("It is in your home territory and no enemy holds it"
                             + (" (the standard game does not ask you to hold it yourself)." if control is Control.none else ", so it goes in your 1939 column."))
    return Ruling("final-secret", "counts" if counts else "does not count", why, rules, extra={"counts": counts})


def control(
    table: Table,
    origin: Annotated[Origin, typer.Option("--origin", help="original (began in your home territory) or foreign.")],
    location: Annotated[Location, typer.Option("--location", help="Where it is now: in your home territory or abroad.")],
    state: Annotated[State, typer.Option("--state", help="Whether it is uncontrolled or enemy-controlled now.")],
) -> Ruling:
    """Does taking control of a secret need Discovery?

    Example: dossier referee control --origin original --location home --state uncontrolled
    """
    rules = _cite(table, "secrets", also=(SECTIONS["secrets"][0], "Register R6") if _is_long(table) else ())
    if origin is Origin.foreign:
        needs, why = True, "A foreign secret is always taken with a Discovery chit; if it succeeds, the discovering spy goes on top of it."
    elif location is Location.abroad or state is State.enemy:
        where = "outside your home territory" if location is Location.abroad else "held by an enemy"
        needs, why = True, f"Your original secret {where} can be taken only as a foreign one is: with a Discovery chit."
    else:
        needs, why = False, "Your original secret at home with no enemy on it is taken by putting a spy or police piece on top; no Discovery is needed."
    if needs and _is_long(table):
        why += " Discovery may not be played in a spy haven."
        rules += ("5.1",)
    return Ruling("control", "discovery needed" if needs else "no discovery needed", why, rules, extra={"needs_discovery": needs})


def sanction(
    table: Table,
    attacker: Annotated[Agent, typer.Option("--attacker", help="The spy playing the Sanction: an ordinary spy or a Cousin.")],
    target: Annotated[Agent, typer.Option("--target", help="The enemy spy it is played against.")],
) -> Ruling:
    """What happens when a spy tries to Sanction another?

    In the Long Game a Cousin can be killed only by an enemy Cousin.

    Example: dossier referee sanction --attacker spy --target cousin --game long
    """
    if not _is_long(table):
        return Ruling("sanction", "proceeds",
                      "The standard game has no rule for Cousins: a Cousin is sanctioned like any spy, and the Sanction takes its "
                      "effect as its chit says (the Cousin rule is Long Game case 5.2).",
                      ("Standard: Playing Action Chits", "Playing Piece Roster"), extra={"attacker": attacker.value, "target": target.value})
    if target is Agent.cousin and attacker is Agent.spy:
        return Ruling("sanction", "attacker killed",
                      "Only an enemy Cousin's Sanction can kill a Cousin. The spy that tried is killed instead, with no chance to "
                      "counter: it goes in the Sanctioned Spies Box and the Cousin's owner puts a Sanctioned Spy marker on their Time and Victory Record.",
                      ("5.2",), extra={"attacker": attacker.value, "target": target.value})
    why = ("A Cousin may Sanction the enemy Cousin." if target is Agent.cousin
           else "Only a Cousin is protected against Sanction; any spy may be sanctioned.")
    return Ruling("sanction", "proceeds", f"{why} The Sanction takes its effect as its chit says; it may not be played in a spy haven.",
                  ("5.2", "5.1", "3.8"), extra={"attacker": attacker.value, "target": target.value})


def players(
    table: Table,
    count: Annotated[int, typer.Argument(metavar="N", help="How many people play.")],
) -> Ruling:
    """Who plays which powers with this many players?

    Example: dossier referee players 3
    """
    factions = [f.id for f in table.game.info.factions]
    if not FEWEST_PLAYERS <= count <= len(factions):
        raise QuestionError(f"players {count}: Spies! is played by {FEWEST_PLAYERS} to {len(factions)} players")
    shared = SHARED_SEATS.get(count, ())
    alternating = ALTERNATING.get(count)
    seats: list[list[str]] = []
    for power in factions:
        if power == alternating:
            continue
        seat = next((list(pair) for pair in shared if power in pair), [power])
        if seat not in seats:
            seats.append(seat)
    note = None
    names = ["; ".join(" and ".join(_power_name(table, p) for p in seat) for seat in seats)]
    said = [f"Seats in turn order: {names[0]}."]
    if shared:
        said.append("A player running two powers may not pass Action chits, money or secrets between them, and each power's "
                    "Victory Points are counted on their own.")
    if alternating:
        runners = " and the ".join("-".join(_power_name(table, p) for p in pair) + " player" for pair in shared)
        note = (f"{_power_name(table, alternating)} is played in alternate years by the {runners}; "
                "the rulebook does not say who takes it first, so settle that before set-up.")
        said.append(note)
    if count == len(factions):
        rules = _cite(table, "countries")
    else:
        fallback = (SECTIONS["fewer players"][0], "Register R2") if _is_long(table) else ()
        rules = _cite(table, "fewer players", also=fallback + (("Register R10",) if alternating else ()))
    return Ruling("players", f"{len(seats)} seats", " ".join(said), rules, extra={"players": count, "seats": seats, "note": note})


def police(
    table: Table,
    power: Annotated[str, typer.Option("--power", metavar="P", help="The power placing police, e.g. Germany.")],
    city: Annotated[str, typer.Option("--city", metavar="CITY", help="The city.")],
    count: Annotated[int, typer.Option("--count", metavar="N", help="How many police in that city.")] = 1,
) -> Ruling:
    """May a power have this many police in this city?

    Example: dossier referee police --power germany --city Berlin --count 2
    """
    faction = _power(table, power)
    owned = sum(_police_of(table).get(faction.id, Counter()).values())
    if not 1 <= count <= owned:
        raise QuestionError(f"--count {count}: {faction.name} has {owned} police pieces")
    place = _city(table, city)
    faults = []
    if place.power != faction.id:
        owner = f"{_power_name(table, place.power)}'s" if place.power else "neutral"
        faults.append(f"{place.name} is not in {faction.name}'s home territory (it is {owner})")
    elif not (place.has_mark("police") or place.capital):
        faults.append(f"{place.name} is not coded for police")
    if count > POLICE_PER_CITY:
        faults.append(f"no more than {POLICE_PER_CITY} police may share a city")
    rules = _cite(table, "deploying police", "re-arranging police", also=("Register R9",))
    if faults:
        return Ruling("police", "not allowed", f"{faction.name} may not have {count} police in {place.name}: {'; '.join(faults)}.",
                      rules, allowed=False, extra={"power": faction.id, "city": place.name, "count": count})
    kind = f"{faction.name}'s capital" if place.capital else f"coded for police in {faction.name}'s home territory"
    return Ruling("police", "allowed",
                  f"{place.name} is {kind}, and {count} police stay within the limit of {POLICE_PER_CITY} a city.",
                  rules, allowed=True, extra={"power": faction.id, "city": place.name, "count": count})


def chits(
    table: Table,
    holding: Annotated[int, typer.Option("--holding", metavar="N", help="Action chits held before the draw.")],
    draw: Annotated[int, typer.Option("--draw", metavar="M", help="Action chits drawn.")],
) -> Ruling:
    """How many Action chits are kept after a draw?

    No one holds more than 7; the surplus goes back to the cup.

    Example: dossier referee chits --holding 6 --draw 3
    """
    _not_negative(draw, "--draw")
    if not 0 <= holding <= CHIT_LIMIT:
        raise QuestionError(f"--holding {holding}: a player holds from 0 to {CHIT_LIMIT} Action chits")
    in_cup = _chits_in_cup(table)
    cup = sum(p.count for p in _pieces(table, "chit") if p.name in in_cup)
    if holding + draw > cup:
        variant = "Long Game" if _is_long(table) else "standard game"
        raise QuestionError(f"--draw {draw}: the {variant} has {cup} Action chits in all, and {holding} of them are in your hand")
    total = holding + draw
    keep, back = min(total, CHIT_LIMIT), max(0, total - CHIT_LIMIT)
    rules = _cite(table, "event tiles", also=(SECTIONS["event tiles"][0], "Register R7") if _is_long(table) else ())
    why = (f"{holding} held and {draw} drawn make {total}; no one may hold more than {CHIT_LIMIT}, so "
           + (f"{back} of your choice go straight back to the cup." if back else "all are kept."))
    return Ruling("chits", f"keep {keep}, return {back}", why, rules, extra={"keep": keep, "return": back})


@only_in(LONG)
def action_points(
    table: Table,
    event_tile: Annotated[bool, typer.Option("--tile", help="An Event Tile is played face up (discarding one is free).")] = False,
    searches: Annotated[int, typer.Option("--searches", metavar="N", help="Cities searched.")] = 0,
    spaces: Annotated[int, typer.Option("--spaces", metavar="N", help="Spaces moved, all spies together.")] = 0,
    diplomacy: Annotated[int, typer.Option("--diplomacy", metavar="N", help="Opponents you open talks with.")] = 0,
) -> Ruling:
    """Long Game: do these actions fit in 12 Action Points?

    Action chits' own Action Point costs are printed on the display only and are not counted.

    Example: dossier referee action-points --tile --searches 2 --spaces 5 --diplomacy 1
    """
    for value, option in ((searches, "--searches"), (spaces, "--spaces"), (diplomacy, "--diplomacy")):
        _not_negative(value, option)
    opponents = len(table.game.info.factions) - 1
    if diplomacy > opponents:
        raise QuestionError(f"--diplomacy {diplomacy}: talks cost 1 Action Point per opponent, and a player has at most {opponents} opponents")
    spent = int(event_tile) + searches + spaces + diplomacy
    allowed = spent <= ACTION_POINTS
    parts = [f"{n} for {what}" for n, what in ((int(event_tile), "the Event Tile"), (searches, "searching"),
                                                 (spaces, "moving"), (diplomacy, "diplomacy")) if n]
    spelled = f"{spent} ({_join(parts)})" if parts else "0"
    why = (f"These actions take {spelled} of the {ACTION_POINTS} Action Points a turn allows"
           + (f", leaving {ACTION_POINTS - spent}." if allowed else f": {spent - ACTION_POINTS} too many.")
           + " Action chits cost Action Points too, but their costs are on the display only, so they are not counted here.")
    return Ruling("action-points", "within the limit" if allowed else "over the limit", why,
                  ("3.1", "3.21", "3.4", "3.6", "3.9", "Register R11"), allowed=allowed,
                  extra={"spent": spent, "limit": ACTION_POINTS})


QUESTIONS = {
    "search": search,
    "counterspy": counterspy,
    "move": move,
    "tile": tile,
    "award": award,
    "chit": chit,
    "cash-in": cash_in,
    "final-secret": final_secret,
    "control": control,
    "sanction": sanction,
    "players": players,
    "police": police,
    "chits": chits,
    "action-points": action_points,
}
