"""The Spies! referee: one plain function per rules question, answered from this game's data.

Each answer cites the rule that decides it: a standard-rules section ("Standard: Searching for
Enemy Spies") in the standard game, a Long Game case ("3.4") in the long one, and an entry of
the register of unclear rules in docs/rulings.md ("Register R1") wherever the rulebook is
unclear or contradicts itself. The rules the questions share with the position check are in
rules.py; the position check itself is in position.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional

from generators.referee import Allowed, Facts, Finding, only_in, Param, Position, QuestionError, Replay, Ruling, Table, tile_values

from .rules import (
    ACTION_POINTS,
    CASH_IN_CHITS,
    CASH_IN_MONEY,
    CHIT_LIMIT,
    FEWEST_PLAYERS,
    LONG,
    POLICE_PER_CITY,
    RANDOM_TILES_DRAWN,
    cite,
    cup_size,
    find_chit,
    find_city,
    find_power,
    game_map,
    join,
    not_negative,
    pieces,
    police_faults,
    police_of,
    police_rules,
    power_name,
    require_strength,
    rules_for,
    spies_of,
)

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


class Item(str, Enum):
    chits = "chits"
    money = "money"
    secrets = "secrets"
    tiles = "tiles"
    concessions = "concessions"


class Talk(str, Enum):
    open = "open"
    answer = "answer"


# ---- the verdicts, one Enum per question ------------------------------------------------------

class Search(Enum):
    captured = "captured"
    no_effect = "no effect"
    evaded = "evaded"
    not_allowed = "not allowed"


class Counterspy(Enum):
    captured = "captured"
    no_effect = "no effect"


class Move(Enum):
    allowed = "allowed"
    too_far = "too far"
    no_route = "no route"


class TilePlay(Enum):
    playable = "playable"
    not_playable = "not playable"


class Award(Enum):
    awarded = "awarded"
    nothing_awarded = "nothing awarded"


class ChitPlay(Enum):
    allowed = "allowed"
    not_allowed = "not allowed"
    not_used = "not used"
    cost_only = "cost only"


class FinalSecret(Enum):
    counts = "counts"
    does_not_count = "does not count"


class Taking(Enum):
    discovery_needed = "discovery needed"
    no_discovery_needed = "no discovery needed"


class Sanction(Enum):
    proceeds = "proceeds"
    attacker_killed = "attacker killed"


class Seats(Enum):
    seated = "seated"


class Chits(Enum):
    all_kept = "all kept"
    surplus_returned = "surplus returned"


class ActionPoints(Enum):
    within_the_limit = "within the limit"
    over_the_limit = "over the limit"


class Setup(Enum):
    listed = "listed"


class Turn(Enum):
    next_power = "next power"
    next_year = "next year"
    game_over = "game over"


class Winner(Enum):
    most_points = "most points"
    richest = "richest"
    shared = "shared"


# ---- searching and capture -----------------------------------------------------------------------

@dataclass(frozen=True)
class SearchFacts(Facts):
    """The fields of a `search` ruling."""

    police_strength: int
    spy_strength: int
    when: str


def search(
    table: Table,
    police: Annotated[list[int], Param("Strength of a police piece in the city; give it twice for two police.", flag="--police", metavar="S")],
    spy: Annotated[int, Param("Strength of the enemy spy searched for.", flag="--spy", metavar="S")],
    evade: Annotated[Optional[Evasion], Param("The spy's owner plays this chit to avoid the comparison.", flag="--evade")] = None,
    when: Annotated[When, Param("Whose turn it is: the police's owner's, or another player's (a spy arriving).", flag="--when")] = When.own_turn,
    searched: Annotated[bool, Param("Your police have searched for this spy already this turn.", flag="--searched")] = False,
    not_moved: Annotated[bool, Param("On another player's turn: the spy has not just moved into the city.", flag="--not-moved")] = False,
) -> Ruling[Search, SearchFacts]:
    """Does a police search catch the spy?

    The police strength (two police in a city add up) against the spy's. On your own turn your police
    search once a turn for each enemy spy; on another player's turn, each time a spy moves into their city.

    Example: dossier referee search --police 2 --police 3 --spy 4
    """
    if not 1 <= len(police) <= POLICE_PER_CITY:
        raise QuestionError(f"--police given {len(police)} times: a city holds one or two police, never more than {POLICE_PER_CITY}")
    if not any(Counter(police) <= roster for roster in police_of(table).values()):
        rosters = "; ".join(f"{power_name(table, p)} {', '.join(map(str, sorted(c.elements())))}" for p, c in police_of(table).items())
        raise QuestionError(f"--police {' --police '.join(map(str, police))}: no power has police of "
                            f"{'strength' if len(police) == 1 else 'strengths'} {join(map(str, police))} (police: {rosters})")
    require_strength(table, "spy", spy, "--spy")
    if not_moved and when is When.own_turn:
        raise QuestionError("--not-moved is about another player's turn: add --when opponent-turn")
    strength = sum(police)
    sum_text = f"{strength} ({' + '.join(map(str, police))})" if len(police) > 1 else str(strength)
    facts = {"police_strength": strength, "spy_strength": spy, "when": when.value}
    own_turn = when is When.own_turn
    rules = cite(table, "searching") if own_turn else cite(table, "arriving spies", "searching")
    from .board import SearchSetting, search_outcome

    outcome = search_outcome(table, SearchSetting(tuple(police), spy, own_turn, searched, not not_moved,
                                                  find_chit(table, evade.value).name if evade is not None else None))
    if outcome == "search-twice":
        return Ruling(Search.not_allowed, "Your police search once a turn for each enemy spy in their city, and they "
                      "have searched for this one already.", rules, allowed=False, facts=SearchFacts(**facts))
    if outcome == "search-not-moved":
        return Ruling(Search.not_allowed, "On another player's turn you search only for a spy as it moves into a city "
                      "with your police; a spy that has not moved cannot be searched.", rules, allowed=False, facts=SearchFacts(**facts))
    cost = rules_for(table).with_points(" The search costs 1 Action Point for the city." if own_turn
                                        else " It costs no Action Points on another player's turn.")
    if outcome == "evaded":
        found = find_chit(table, evade.value)
        return Ruling(Search.evaded,
                      f"The spy's owner plays {found.name} ({found.cost}), so the strengths are never compared and the spy stays free.{cost}",
                      rules + cite(table, "capture"), allowed=True, facts=SearchFacts(**facts))
    if outcome == "captured":
        return Ruling(Search.captured,
                      f"The police strength {sum_text} is greater than the spy's {spy}, so the spy is captured at once "
                      f"and goes on the searcher's Time and Victory Record under the current year.{cost}",
                      rules + cite(table, "capture"), allowed=True, facts=SearchFacts(**facts))
    if outcome != "no effect":
        raise QuestionError(f"the board refuses this search ({outcome}); the question's options describe no legal position")
    how = "equal to" if strength == spy else "less than"
    return Ruling(Search.no_effect,
                  f"The police strength {sum_text} is {how} the spy's {spy}; the police must be stronger, so the search has no effect.{cost}",
                  rules, allowed=True, facts=SearchFacts(**facts))


@dataclass(frozen=True)
class CounterspyFacts(Facts):
    """The fields of a `counterspy` ruling."""

    counterspy_strength: int
    spy_strength: int
    counterspy_removed: bool
    captured_to: Optional[str]


def counterspy(
    table: Table,
    counterspy_strength: Annotated[int, Param("Strength of the counterspy discovered.", flag="--counterspy", metavar="S")],
    spy_strength: Annotated[int, Param("Strength of the spy that discovered it.", flag="--spy", metavar="S")],
    cousin: Annotated[bool, Param("The spy is its power's Cousin (a spy of the Cousin's strength always is).", flag="--cousin")] = False,
    neutral: Annotated[bool, Param("The counterspy lies in a neutral country.", flag="--neutral")] = False,
) -> Ruling[Counterspy, CounterspyFacts]:
    """What happens when a spy discovers a counterspy?

    The counterspy's strength against the spy's; the counterspy leaves play either way.

    Example: dossier referee counterspy --counterspy 5 --spy 4 --neutral
    """
    require_strength(table, "counterspy", counterspy_strength, "--counterspy")
    require_strength(table, "spy", spy_strength, "--spy")
    cousins = sorted({p.strength for p in pieces(table, "spy") if p.cousin})
    if cousin and spy_strength not in cousins:
        raise QuestionError(f"--spy {spy_strength} with --cousin: a Cousin has strength {join(map(str, cousins), 'or')} (Playing Piece Roster)")
    # the roster: each power's Cousin is its one spy of that strength, so the strength alone names it
    cousin = cousin or spy_strength in cousins
    from .board import counterspy_board

    board, action = counterspy_board(table, counterspy_strength, spy_strength, neutral)
    board.push(action)
    captured = action["spy"] not in board.powers[action["power"]].spies
    facts = {"counterspy_strength": counterspy_strength, "spy_strength": spy_strength, "counterspy_removed": "counterspy" not in board.secrets}
    neutral_rules = ("Register R8",) if neutral else ()
    if cousin and board.rules.cousins:
        return Ruling(Counterspy.no_effect,
                      "A Cousin is never captured by a counterspy: the counterspy it discovers is simply removed from play.",
                      ("5.2", "3.5", "Playing Piece Roster", *neutral_rules), facts=CounterspyFacts(**facts, captured_to=None))
    standard_cousin = " (a Cousin has no special rule in the standard game: that is Long Game case 5.2)" if cousin else ""
    if captured:
        where = "spies captured in neutral countries box" if board.captured_neutral else "time and victory record"
        placed = ("it goes in the Spies Captured in Neutral Countries box, not on a Time and Victory Record" if board.captured_neutral
                  else "it goes on the Time and Victory Record of the power whose territory the counterspy lies in, "
                       "under the year of capture, whether or not a piece of that power stands on it")
        return Ruling(Counterspy.captured,
                      f"The counterspy's {counterspy_strength} is greater than the spy's {spy_strength}{standard_cousin}, so the spy is captured: "
                      f"{placed}. The counterspy is then removed from play.",
                      cite(table, "capture", also=neutral_rules or ("Register R14",)), facts=CounterspyFacts(**facts, captured_to=where))
    how = "equal to" if counterspy_strength == spy_strength else "less than"
    return Ruling(Counterspy.no_effect,
                  f"The counterspy's {counterspy_strength} is {how} the spy's {spy_strength}{standard_cousin}; only a stronger counterspy captures. "
                  "The counterspy is removed from play all the same.",
                  cite(table, "capture", also=neutral_rules), facts=CounterspyFacts(**facts, captured_to=None))


# ---- moving ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveFacts(Facts):
    """The fields of a `move` ruling."""

    spaces: Optional[int]
    path: list[str]
    kinds: list[str]
    limit: int
    turns: Optional[int]
    stops: list[str]


def move(
    table: Table,
    origin: Annotated[str, Param("The city the spy starts in.", metavar="FROM")],
    destination: Annotated[str, Param("The city it should end in (a sea zone is refused, as by `dossier map route`).", metavar="TO")],
    spaces: Annotated[Optional[int], Param("Spaces the spy may move (default: the most a turn allows, 5).", flag="--spaces", metavar="N")] = None,
) -> Ruling[Move, MoveFacts]:
    """Can a spy get from one city to another this turn?

    The fewest spaces by rail, air and sea: every city or sea zone entered is a space. A move may
    pass through the sea but never end there, so a sea zone named as either end is refused with
    exit 2, as `dossier map route` refuses it.

    Example: dossier referee move Berlin London
    """
    from generators.referee import network

    found_map = game_map(table)
    most = found_map.rules.spaces_per_turn
    limit = most if spaces is None else spaces
    if not 0 <= limit <= most:
        raise QuestionError(f"--spaces {limit}: a spy moves from 0 to {most} spaces a turn")
    rules = cite(table, "moving")
    net = network.Network(found_map, table.game.aliases)
    found = net.route(origin, destination)
    journey = net.journey(origin, destination, limit) if found.spaces and limit else None
    turns, stops = (journey.turns, journey.stops) if journey is not None else (0 if found.spaces == 0 else None, [])
    facts = {"spaces": found.spaces, "path": found.path, "kinds": found.kinds, "limit": limit, "turns": turns, "stops": stops}
    if found.spaces is None:
        return Ruling(Move.no_route, "No rail line, air line or sea route joins these two cities, whatever the number of spaces.",
                      rules, allowed=False, facts=MoveFacts(**facts))
    steps = found.path[0] + "".join(f" –{kind}→ {place}" for kind, place in zip(found.kinds, found.path[1:]))
    plural = "space" if found.spaces == 1 else "spaces"
    if found.spaces > limit:
        if turns is None:
            later = f" Moving at most {limit} a turn and never stopping at sea, the spy cannot get there at all."
        else:
            legs = "; ".join(f"turn {i}: {stop} ({leg.spaces})" for i, (stop, leg) in enumerate(zip(journey.stops, journey.legs), 1))
            later = f" Over several turns it takes {turns}, stopping where a move may end: {legs}."
        return Ruling(Move.too_far, f"The shortest way takes {found.spaces} {plural} ({steps}), more than the {limit} allowed.{later}",
                      rules, allowed=False, facts=MoveFacts(**facts))
    cost = rules_for(table).with_points(f" In the Long Game each space costs 1 Action Point: {found.spaces} here.") if found.spaces else ""
    return Ruling(Move.allowed, f"The shortest way takes {found.spaces} {plural} of the {limit} allowed: {steps}.{cost}",
                  rules, allowed=True, facts=MoveFacts(**facts))


# ---- Event Tiles -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TileFacts(Facts):
    """The fields of a `tile` ruling."""

    tile: str
    event: str
    years: list[int]


def tile(
    table: Table,
    tile_id: Annotated[str, Param('The tile as printed, e.g. "Ge 1" or "random 36".', metavar="ID")],
    year: Annotated[int, Param("The current game year.", flag="--year", metavar="Y")],
) -> Ruling[TilePlay, TileFacts]:
    """May this Event Tile be played face up this year?

    Example: dossier referee tile "Ge 1" --year 1937
    """
    years = table.game.info.years
    if year not in years:
        raise QuestionError(f"--year {year}: the game runs from {years[0]} to {years[-1]}")
    found = table.game.tile(tile_id)
    marked = f"{found.id} ({found.event.rstrip('.')}) is marked {tile_values(table.game, found)['years']}"
    special = ("3.22", "Register R11") if found.special and rules_for(table).special_tiles else ()
    special_text = (" Its * marks an extra effect, listed on the display's summary, not in the rulebook." if special else "")
    cost = rules_for(table).with_points(" Playing it costs 1 Action Point; discarding one costs none.")
    facts = {"tile": found.id, "event": found.event, "years": found.years}
    rules = cite(table, "event tiles", also=("Event Tile Reference", *special))
    from .board import refusal, small_board

    board = small_board(table, turn=found.nation or table.game.info.factions[0].id, phase="tile")
    board.year = year
    refused = refusal(board, {"power": board.turn, "tile": found.id})
    if refused is not None and refused.code != "tile-year":
        raise QuestionError(f"the board refuses this tile ({refused.code}: {refused.message}); the question describes no legal position")
    if refused is None:
        return Ruling(TilePlay.playable, f"{marked}, so it may be played face up in {year}.{cost}{special_text}",
                      rules, allowed=True, facts=TileFacts(**facts))
    return Ruling(TilePlay.not_playable,
                  f"{marked}, so it may be played only in {join(map(str, found.years), 'or')}; in {year} it can only be discarded face down.",
                  rules, allowed=False, facts=TileFacts(**facts))


def award_kinds(table: Table) -> dict[str, str]:
    """The sign printed after an award's amount ("c") and what it gives ("chits"), as game.yaml declares them."""
    return table.game.info.tiles.fields["awards"].fields["kind"].choices


@dataclass(frozen=True)
class AwardFacts(Facts):
    """The fields of a `award` ruling."""

    tile: str
    awards: dict[str, dict[str, int]]


def award(
    table: Table,
    tile_id: Annotated[str, Param('The tile played, e.g. "Ge 1".', metavar="ID")],
    spies: Annotated[list[str], Param("A city where a power has a spy, e.g. germany@Paris; repeat for each.", flag="--spy", metavar="POWER@CITY")],
) -> Ruling[Award, AwardFacts]:
    """Who gets what when this Event Tile is played?

    Name where each power has spies; every power named is answered, zeros included.

    Example: dossier referee award "Ge 1" --spy france@Berlin --spy germany@Prague
    """
    from .board import spies_board

    found = table.game.tile(tile_id)
    placed: dict[str, list[str]] = {}
    for entry in spies:
        power_text, at, city_text = entry.partition("@")
        if not at or not power_text.strip() or not city_text.strip():
            raise QuestionError(f"--spy {entry!r}: write the power and the city as POWER@CITY, e.g. germany@Paris")
        cities = placed.setdefault(find_power(table, power_text.strip()).id, [])
        city = find_city(table, city_text.strip()).name
        if city not in cities:
            cities.append(city)
    given = spies_board(table, placed).tile_awards(found.id)
    kinds = award_kinds(table)
    awards: dict[str, dict[str, int]] = {}
    sentences = []
    for faction in table.game.info.factions:
        if faction.id not in placed:
            continue
        got = given[faction.id]
        totals = {name: 0 for name in kinds.values()}
        for _, amount, kind in got.earned:
            totals[kinds[kind]] += amount
        awards[faction.id] = totals
        gets = join([f"{got.chits} Action chit{'s' if got.chits != 1 else ''}"] * bool(got.chits)
                    + [f"{got.money}£"] * bool(got.money)) if got.chits or got.money else "nothing"
        why = [f"for {join(f'{city} {amount}{kind}' for city, amount, kind in got.earned)}"] if got.earned else []
        why += [f"{join(sorted(got.own))} {'is' if len(got.own) == 1 else 'are'} its own territory, which earns nothing"] if got.own else []
        if not got.earned and not got.own:
            why.append("none of its spies is in a city the tile lists")
        sentences.append(f"{faction.name} gets {gets}: {'; '.join(why)}.")
    special = ("3.22", "Register R11") if found.special and rules_for(table).special_tiles else ()
    note = " A second spy in the same city earns nothing more."
    if special:
        note += " The tile's * effect is listed on the display, not in the rulebook, and is not included."
    anything = any(v for t in awards.values() for v in t.values())
    return Ruling(Award.awarded if anything else Award.nothing_awarded,
                  " ".join(sentences) + note, cite(table, "event tiles", also=("Event Tile Reference", *special)),
                  facts=AwardFacts(tile=found.id, awards=awards))


# ---- Action chits ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChitFacts(Facts):
    """The fields of a `chit` ruling."""

    chit: str
    cost: str


def chit(
    table: Table,
    name: Annotated[str, Param("The Action chit, e.g. Discovery.", metavar="NAME")],
    when: Annotated[Optional[When], Param("Whose turn it is.", flag="--when")] = None,
    city: Annotated[Optional[str], Param("The city where it is played.", flag="--city", metavar="CITY")] = None,
) -> Ruling[ChitPlay, ChitFacts]:
    """May this Action chit be played now, and at what cost?

    Without --when only the cost and whether the game uses the chit are answered.

    Example: dossier referee chit Discovery --when own-turn --city Geneva --game long
    """
    found = find_chit(table, name)
    place = find_city(table, city) if city is not None else None
    ruleset = rules_for(table)
    variant = ruleset.label
    facts = {"chit": found.name, "cost": found.cost}
    rules = ["Action Chit Cost Summary"]
    said = [f"{found.name} costs {found.cost} as printed."]
    if found.name == "Drop":
        rules.append("Register R12")
        said.append("The rulebook does not say what makes it 20 or 30.")
    points = ruleset.chit_cost(found)
    if points and found.name in ruleset.on_your_turn(table):
        said.append(f"Played on your own turn it also costs {points} Action Point{'s' if points != 1 else ''}, "
                    "the figure written in for the display's (Register R11).")
        rules += ["3.8", "Register R11"]
    if found.name not in ruleset.in_cup(table):
        rules += cite(table, "chit cup")
        said.append(f"It is left out of the cup in the {variant}, so it is never played there.")
        return Ruling(ChitPlay.not_used, " ".join(said), tuple(rules), answer=f"not used in the {variant}",
                      allowed=False if when is not None else None, facts=ChitFacts(**facts))
    summary_disagrees = "games" in found.assumed and ruleset.name != LONG  # the summary marks it Long Game only; the register reads both
    if summary_disagrees:
        rules += cite(table, "chit cup", also=("Register R3",))
        said.append(f"The cost summary does not mark it for the {variant}, but the rules put it in the cup and let it be played "
                    "on another player's turn; the register follows the rules.")
    barred, haven_note, place_note = False, "", ""
    if place is not None and not ruleset.havens:
        place_note = f"Spy havens are a Long Game rule; in the {variant} {place.name} is an ordinary city."
    elif place is not None and ruleset.is_haven(place):
        barred = ruleset.is_barred_in(found.name, place)
        haven_note = (f"{place.name} is a spy haven, where Discovery, Drop or Sanction may never be played"
                      + (f", so {found.name} may not be played there." if barred else f"; {found.name} is not one of them."))
    if when is None and barred:  # the city decides whatever the turn: that comes first, the cost after
        rules.append("5.1")
        return Ruling(ChitPlay.not_allowed, " ".join([haven_note, *said]), tuple(dict.fromkeys(rules)),
                      answer=f"not allowed in {place.name}, at any time (it costs {found.cost})", allowed=False,
                      facts=ChitFacts(**facts))
    if when is None:
        said += [note for note in (place_note, haven_note) if note]
        rules += ["5.1"] if haven_note else []
        return Ruling(ChitPlay.cost_only, " ".join(said), tuple(dict.fromkeys(rules)), answer=f"costs {found.cost}", facts=ChitFacts(**facts))
    from .board import chit_board, refusal

    own_turn = when is When.own_turn
    board, action = chit_board(table, found.name, own_turn, place.name if place is not None else None)
    refused = refusal(board, action)
    if refused is not None and refused.code not in ("chit-timing", "haven"):
        raise QuestionError(f"the board refuses this chit ({refused.code}: {refused.message}); the question describes no legal position")
    on_time = "chit-timing" not in {f.code for f in board.chit_faults(action["power"], found.name, None, own_turn)}
    if own_turn:
        rules += cite(table, "chits on your turn")
        timing = (f"On your own turn, while your spies move, the {variant} allows "
                  + (ruleset.your_turn_said or join(ruleset.on_your_turn(table), 'or')))
    else:
        rules += cite(table, "chits on another's turn")
        if summary_disagrees:
            rules.append("Register R1")
        timing = (f"On another player's turn the {variant} allows {join(ruleset.on_another_turn, 'or')}"
                  + ruleset.with_points(", at no Action Point cost"))
    said.append(f"{timing}, so {found.name} {'is' if on_time else 'is not'} playable then.")
    if place_note:
        said.append(place_note)
    if haven_note:
        rules.append("5.1")
        said.append(f"{'But' if on_time and barred else 'And'} {haven_note}")
    allowed = refused is None
    return Ruling(ChitPlay.allowed if allowed else ChitPlay.not_allowed, " ".join(said), tuple(dict.fromkeys(rules)),
                  allowed=allowed, facts=ChitFacts(**facts))


@dataclass(frozen=True)
class ChitsFacts(Facts):
    """The fields of a `chits` ruling."""

    keep: int
    return_: int


def chits(
    table: Table,
    holding: Annotated[int, Param("Action chits held before the draw.", flag="--holding", metavar="N")],
    draw: Annotated[int, Param("Action chits drawn.", flag="--draw", metavar="M")],
) -> Ruling[Chits, ChitsFacts]:
    """How many Action chits are kept after a draw?

    No one holds more than 7; the surplus goes back to the cup.

    Example: dossier referee chits --holding 6 --draw 3
    """
    from .board import hand_board

    not_negative(draw, "--draw")
    if not 0 <= holding <= CHIT_LIMIT:
        raise QuestionError(f"--holding {holding}: a player holds from 0 to {CHIT_LIMIT} Action chits")
    board = hand_board(table, holding)
    if draw > sum(board.cup.values()):
        raise QuestionError(f"--draw {draw}: the {rules_for(table).label} has {cup_size(table)} Action chits in all, and {holding} of them are in your hand")
    total = holding + draw
    back = board.surplus(board.turn, draw)
    keep = total - back
    rules = cite(table, "event tiles", also=rules_for(table).standard_too("event tiles", "Register R7"))
    why = (f"{holding} held and {draw} drawn make {total}; no one may hold more than {CHIT_LIMIT}, so "
           + (f"{back} of your choice go straight back to the cup." if back else "all are kept."))
    return Ruling(Chits.surplus_returned if back else Chits.all_kept, why, rules, answer=f"keep {keep}, return {back}",
                  facts=ChitsFacts(keep=keep, return_=back))


@dataclass(frozen=True)
class ActionPointsFacts(Facts):
    """The fields of a `action-points` ruling."""

    spent: int
    limit: int


@only_in("long")
def action_points(
    table: Table,
    event_tile: Annotated[bool, Param("An Event Tile is played face up (discarding one is free).", flag="--tile")] = False,
    searches: Annotated[int, Param("Cities searched.", flag="--searches", metavar="N")] = 0,
    spaces: Annotated[int, Param("Spaces moved, all spies together.", flag="--spaces", metavar="N")] = 0,
    diplomacy: Annotated[int, Param("Opponents you open talks with.", flag="--diplomacy", metavar="N")] = 0,
    chits: Annotated[list[str], Param("An Action chit played on your turn; repeat for each.", flag="--chit", metavar="NAME")] = (),
) -> Ruling[ActionPoints, ActionPointsFacts]:
    """Long Game: do these actions fit in 12 Action Points?

    Each Action chit costs the Action Points the pieces' data gives it (the display prints them; the
    rulebook does not, so the figure is written in and marked assumed: see `dossier assumptions`).

    Example: dossier referee action-points --tile --searches 2 --spaces 5 --diplomacy 1 --chit Discovery
    """
    for value, option in ((searches, "--searches"), (spaces, "--spaces"), (diplomacy, "--diplomacy")):
        not_negative(value, option)
    opponents = len(table.game.info.factions) - 1
    if diplomacy > opponents:
        raise QuestionError(f"--diplomacy {diplomacy}: talks cost 1 Action Point per opponent, and a player has at most {opponents} opponents")
    most_police = max(sum(c.values()) for c in police_of(table).values())
    if searches > most_police:
        raise QuestionError(f"--searches {searches}: a search is made in a city holding your police, and no power has more than {most_police}")
    most_spaces = game_map(table).rules.spaces_per_turn * max(len(spies_of(table, f.id)) for f in table.game.info.factions)
    if spaces > most_spaces:
        raise QuestionError(f"--spaces {spaces}: no power's spies together move more than {most_spaces} spaces a turn")
    ruleset = rules_for(table)
    played = [find_chit(table, name) for name in chits]
    for found in played:
        if found.name not in ruleset.on_your_turn(table):
            raise QuestionError(f"--chit {found.name}: it is never played on your own turn, where Action Points are spent")
    chit_points = sum(ruleset.chit_cost(found) for found in played)
    spent = (ruleset.cost("tile", int(event_tile)) + ruleset.cost("search", searches) + ruleset.cost("space", spaces)
             + ruleset.cost("talk", diplomacy) + chit_points)
    budget = ruleset.action_points
    allowed = spent <= budget
    parts = [f"{n} for {what}" for n, what in ((ruleset.cost("tile", int(event_tile)), "the Event Tile"),
                                                 (ruleset.cost("search", searches), "searching"),
                                                 (ruleset.cost("space", spaces), "moving"), (ruleset.cost("talk", diplomacy), "diplomacy"),
                                                 (chit_points, f"{join(f.name for f in played)}" if played else "")) if n]
    spelled = f"{spent} ({join(parts)})" if parts else "0"
    why = (f"These actions take {spelled} of the {budget} Action Points a turn allows"
           + (f", leaving {budget - spent}." if allowed else f": {spent - budget} too many."))
    if played:
        why += " A chit's Action Points are the figure written in for the display's, which the rulebook does not print."
    rules = ("3.1", "3.21", "3.4", "3.6", "3.9") + (("3.8", "3.11", "Register R11") if played else ())
    return Ruling(ActionPoints.within_the_limit if allowed else ActionPoints.over_the_limit, why, rules, allowed=allowed,
                  facts=ActionPointsFacts(spent=spent, limit=budget))


# ---- secrets ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CashInFacts(Facts):
    """The fields of a `cash-in` ruling."""

    money: int
    chits: int


def cash_in(
    table: Table,
    origin: Annotated[Origin, Param("Where the secret began the game: in your home territory (original) or not (foreign).", flag="--origin")],
    at_capital: Annotated[Optional[bool], Param("Whether the spy controlling it is in your capital.", flag="--at-capital/--not-at-capital")] = None,
) -> Ruling[Allowed, CashInFacts]:
    """May this secret be cashed in now, and for what?

    Example: dossier referee cash-in --origin foreign --at-capital
    """
    if at_capital is None:
        raise QuestionError("say where the secret is: --at-capital or --not-at-capital")
    from .board import refusal, secret_board

    rules = cite(table, "secrets", also=rules_for(table).standard_too("secrets", "Register R6"))
    board, piece = secret_board(table, original=origin is Origin.original, at_home=True, at_capital=at_capital, held=True)
    drawn = board.in_cup[0]
    refused = refusal(board, {"power": piece["power"], "cash-in": piece["secret"], "drawn": [drawn]})
    nothing = {"money": 0, "chits": 0}
    if refused is not None and refused.code == "original":
        return Ruling(Allowed.not_allowed,
                      "Only foreign secrets are cashed in during the game. An original secret scores only at the end of 1939, "
                      "and then for Victory Points alone, no money or chit.",
                      rules, facts=CashInFacts(**nothing))
    if refused is not None and refused.code == "not-at-capital":
        return Ruling(Allowed.not_allowed,
                      "A foreign secret is cashed in only once the spy controlling it has brought it to your capital.",
                      rules, facts=CashInFacts(**nothing))
    if refused is not None:
        raise QuestionError(f"the board refuses this cash-in ({refused.code}: {refused.message}); the question describes no legal position")
    return Ruling(Allowed.allowed,
                  f"A foreign secret your spy controls in your capital is cashed in at once: you get {CASH_IN_MONEY}£ and "
                  f"{CASH_IN_CHITS} Action chit, and the secret goes on your Time and Victory Record under this year, out of play.",
                  rules, facts=CashInFacts(money=CASH_IN_MONEY, chits=CASH_IN_CHITS))


@dataclass(frozen=True)
class FinalSecretFacts(Facts):
    """The fields of a `final-secret` ruling."""

    counts: bool


def final_secret(
    table: Table,
    origin: Annotated[Origin, Param("original (began in your home territory) or foreign.", flag="--origin")],
    location: Annotated[Location, Param("Where it is at the end: in your home territory or abroad.", flag="--location")],
    control: Annotated[Control, Param("Who has a piece on it: you, nobody, or an enemy.", flag="--control")],
) -> Ruling[FinalSecret, FinalSecretFacts]:
    """Does a secret on the map score at the end of 1939?

    Example: dossier referee final-secret --origin original --location home --control none --game long
    """
    from .board import LAST_TURN_POWER, secret_board

    rules = cite(table, "winning", "secrets", also=(("Register R4",) if control is Control.none else ())
                 + (("Register R5",) if origin is Origin.foreign else ()))
    board, piece = secret_board(table, original=origin is Origin.original, at_home=location is Location.home,
                                enemy=control is Control.enemy, held=control is Control.own)
    board.year, board.turn = table.game.info.years[-1], LAST_TURN_POWER
    board.push({"power": LAST_TURN_POWER, "end": "turn"})
    counts = any(e["name"] == piece["secret"] for e in board.powers[piece["power"]].record)
    if origin is Origin.foreign:
        why = ("A foreign secret scores only by being cashed in at your capital during the game; "
               "the final count takes only the secrets you began with.")
    elif location is Location.abroad:
        why = "An original secret scores at the end only if it is back in your home territory."
    elif control is Control.enemy:
        why = "A secret an enemy piece sits on does not score for you."
    elif not counts:
        why = ("The Long Game's victory rule asks for the secret to be under your control: "
               "put a spy or police piece on it before Britain's 1939 turn ends.")
    else:
        why = ("It is in your home territory and no enemy holds it"
                             + (" (the standard game does not ask you to hold it yourself)." if control is Control.none else ", so it goes in your 1939 column."))
    return Ruling(FinalSecret.counts if counts else FinalSecret.does_not_count, why, rules, facts=FinalSecretFacts(counts=counts))


@dataclass(frozen=True)
class ControlFacts(Facts):
    """The fields of a `control` ruling."""

    needs_discovery: bool


def control(
    table: Table,
    origin: Annotated[Origin, Param("original (began in your home territory) or foreign.", flag="--origin")],
    location: Annotated[Location, Param("Where it is now: in your home territory or abroad.", flag="--location")],
    state: Annotated[State, Param("Whether it is uncontrolled or enemy-controlled now.", flag="--state")],
) -> Ruling[Taking, ControlFacts]:
    """Does taking control of a secret need Discovery?

    Example: dossier referee control --origin original --location home --state uncontrolled
    """
    from .board import refusal, secret_board

    rules = cite(table, "secrets", also=rules_for(table).standard_too("secrets", "Register R6"))
    board, piece = secret_board(table, original=origin is Origin.original, at_home=location is Location.home,
                                enemy=state is State.enemy)
    refused = refusal(board, {"power": piece["power"], "control": piece["secret"], "spy": piece["spy"]})
    if refused is not None and refused.code != "discovery-needed":
        raise QuestionError(f"the board refuses this control ({refused.code}: {refused.message}); the question describes no legal position")
    needs = refused is not None
    if origin is Origin.foreign:
        why = "A foreign secret is always taken with a Discovery chit; if it succeeds, the discovering spy goes on top of it."
    elif needs:
        where = "outside your home territory" if location is Location.abroad else "held by an enemy"
        why = f"Your original secret {where} can be taken only as a foreign one is: with a Discovery chit."
    else:
        why = "Your original secret at home with no enemy on it is taken by putting a spy or police piece on top; no Discovery is needed."
    if needs and rules_for(table).havens:
        why += " Discovery may not be played in a spy haven."
        rules += ("5.1",)
    return Ruling(Taking.discovery_needed if needs else Taking.no_discovery_needed, why, rules,
                  facts=ControlFacts(needs_discovery=needs))


@dataclass(frozen=True)
class TransferFacts(Facts):
    """The fields of a `transfer` ruling."""

    second_moved: bool


def transfer(
    table: Table,
    second_moved: Annotated[bool, Param("The spy taking the secret over has moved already this turn.", flag="--second-moved")] = False,
) -> Ruling[Allowed, TransferFacts]:
    """May a spy hand a secret it controls to another of your spies, and may that one carry it on?

    Example: dossier referee transfer --second-moved
    """
    from .board import refusal, secret_board

    rules = cite(table, "secrets", "moving", also=rules_for(table).standard_too("secrets", "Register R6"))
    board, piece = secret_board(table, original=False, at_home=False, held=True)
    power, giver, key = piece["power"], piece["spy"], piece["secret"]
    spies = board.powers[power].spies
    city = spies[giver]
    path = _network_path(table, city)
    taker = next(p.name for p in pieces(table, "spy") if p.nation == power and p.name != giver)
    spies[taker] = path[-1]
    if second_moved:
        spies[taker] = path[-2]
        board.push({"power": power, "move": taker, "path": [path[-2], path[-1]]})
    board.push({"power": power, "move": giver, "path": path})
    board.push({"power": power, "transfer": key, "from": giver, "to": taker})
    refused = refusal(board, {"power": power, "move": taker, "path": [path[-1], path[-2]]})
    handed = ("While moving, bring the spy with the secret into a city where your other spy stands and put that spy on top "
              "of the secret: it now controls it (only one piece controls a secret at a time).")
    if refused is not None:
        return Ruling(Allowed.not_allowed, f"{handed} But the second spy has moved already this turn, so it may not "
                      "move on with the secret; it keeps it where it is. You finish moving one spy before you start another.",
                      rules, facts=TransferFacts(second_moved=True))
    return Ruling(Allowed.allowed, f"{handed} The second spy has not moved yet this turn, so it may now move on "
                  "with the secret.", rules, facts=TransferFacts(second_moved=False))


def _network_path(table: Table, city: str) -> list[str]:
    """`city` and the next city a rail line reaches from it: a one-space move for a small position."""
    from generators.referee import network

    net = network.Network(game_map(table), table.game.aliases)
    end = next(c for c, n in net.reachable(city, 1).items() if n == 1)
    return [city, end]


# ---- Cousins and Sanction -------------------------------------------------------------------------------

@dataclass(frozen=True)
class SanctionFacts(Facts):
    """The fields of a `sanction` ruling."""

    attacker: str
    target: str


def sanction(
    table: Table,
    attacker: Annotated[Agent, Param("The spy playing the Sanction: an ordinary spy or a Cousin.", flag="--attacker")],
    target: Annotated[Agent, Param("The enemy spy it is played against.", flag="--target")],
) -> Ruling[Sanction, SanctionFacts]:
    """What happens when a spy tries to Sanction another?

    In the Long Game a Cousin can be killed only by an enemy Cousin.

    Example: dossier referee sanction --attacker spy --target cousin --game long
    """
    facts = {"attacker": attacker.value, "target": target.value}
    from .board import chit_board

    board, action = chit_board(table, "Sanction", own_turn=True)
    killer, victim = action["power"], action["target"].split("/")[0]
    for power, role, key in ((killer, attacker, "spy"), (victim, target, "target")):
        if role is Agent.cousin:
            cousin = next(p.name for p in pieces(table, "spy") if p.nation == power and p.cousin)
            spies = board.powers[power].spies
            spies[cousin] = spies.pop(action[key] if key == "spy" else action[key].split("/")[1])
            action[key] = cousin if key == "spy" else f"{power}/{cousin}"
    board.push(action)
    attacker_died = action["spy"] not in board.powers[killer].spies
    if not board.rules.cousins:
        return Ruling(Sanction.proceeds,
                      "The standard game has no rule for Cousins: a Cousin is sanctioned like any spy (the Cousin rule is Long "
                      f"Game case 5.2). {KILLED}", ("Standard: Playing Action Chits", "Playing Piece Roster", "Register R15"),
                      facts=SanctionFacts(**facts))
    if attacker_died:
        return Ruling(Sanction.attacker_killed,
                      "Only an enemy Cousin's Sanction can kill a Cousin. The spy that tried is killed instead, with no chance to "
                      "counter: it goes in the Sanctioned Spies Box and the Cousin's owner puts a Sanctioned Spy marker on their Time and Victory Record.",
                      ("5.2",), facts=SanctionFacts(**facts))
    why = ("A Cousin may Sanction the enemy Cousin." if target is Agent.cousin
           else "Only a Cousin is protected against Sanction; any spy may be sanctioned.")
    return Ruling(Sanction.proceeds, f"{why} {KILLED} It may not be played in a spy haven.",
                  ("5.2", "5.1", "3.8", "Register R15"), facts=SanctionFacts(**facts))


KILLED = ("The target, an enemy spy in your spy's city, is killed: it goes in the Sanctioned Spies Box and you put a Sanctioned "
          "Spy marker, worth the dead spy's strength, on your Time and Victory Record under this year.")


# ---- players, set-up, turns, talks and the end ----------------------------------------------------------

@dataclass(frozen=True)
class PlayersFacts(Facts):
    """The fields of a `players` ruling."""

    players: int
    seats: list[list[str]]
    note: Optional[str]


def players(
    table: Table,
    count: Annotated[int, Param("How many people play.", metavar="N")],
) -> Ruling[Seats, PlayersFacts]:
    """Who plays which powers with this many players?

    Example: dossier referee players 3
    """
    from .board import small_board

    factions = [f.id for f in table.game.info.factions]
    if not FEWEST_PLAYERS <= count <= len(factions):
        raise QuestionError(f"players {count}: Spies! is played by {FEWEST_PLAYERS} to {len(factions)} players")
    board = small_board(table)
    board.players = count
    seats, alternating = board.seats(), board.alternating()
    shared = [seat for seat in seats if len(seat) > 1]
    note = None
    names = "; ".join(" and ".join(power_name(table, p) for p in seat) for seat in seats)
    said = [f"Seats in turn order: {names}."]
    if shared:
        said.append("A player running two powers may not pass Action chits, money or secrets between them, and each power's "
                    "Victory Points are counted on their own.")
    if alternating:
        runners = " and the ".join("-".join(power_name(table, p) for p in pair) + " player" for pair in shared)
        note = (f"{power_name(table, alternating)} is played in alternate years by the {runners}; "
                "the rulebook does not say who takes it first, so settle that before set-up.")
        said.append(note)
    if count == len(factions):
        rules = cite(table, "countries")
    else:
        fallback = rules_for(table).standard_too("fewer players", "Register R2")
        rules = cite(table, "fewer players", also=fallback + (("Register R10",) if alternating else ()))
    return Ruling(Seats.seated, " ".join(said), rules, answer=f"{len(seats)} seats",
                  facts=PlayersFacts(players=count, seats=seats, note=note))


@dataclass(frozen=True)
class PoliceFacts(Facts):
    """The fields of a `police` ruling."""

    power: str
    city: str
    count: int


def police(
    table: Table,
    power: Annotated[str, Param("The power placing police, e.g. Germany.", flag="--power", metavar="P")],
    city: Annotated[str, Param("The city.", flag="--city", metavar="CITY")],
    count: Annotated[int, Param("How many police in that city.", flag="--count", metavar="N")] = 1,
) -> Ruling[Allowed, PoliceFacts]:
    """May a power have this many police in this city?

    Example: dossier referee police --power germany --city Berlin --count 2
    """
    faction = find_power(table, power)
    owned = sum(police_of(table).get(faction.id, Counter()).values())
    if not 1 <= count <= owned:
        raise QuestionError(f"--count {count}: {faction.name} has {owned} police pieces")
    place = find_city(table, city)
    faults = police_faults(table, faction, place, count)
    facts = {"power": faction.id, "city": place.name, "count": count}
    if faults:
        return Ruling(Allowed.not_allowed, f"{faction.name} may not have {count} police in {place.name}: {'; '.join(f.message for f in faults)}.",
                      police_rules(table), facts=PoliceFacts(**facts))
    kind = f"{faction.name}'s capital" if place.capital else f"coded for police in {faction.name}'s home territory"
    return Ruling(Allowed.allowed,
                  f"{place.name} is {kind}, and {count} police stay within the limit of {POLICE_PER_CITY} a city.",
                  police_rules(table), facts=PoliceFacts(**facts))


@dataclass(frozen=True)
class SetupFacts(Facts):
    """The fields of a `setup` ruling."""

    power: str
    tiles: int
    police: int
    spies: Optional[int]
    secret_cities: list[str]


def setup(
    table: Table,
    power: Annotated[str, Param("The power setting up, e.g. Italy.", flag="--power", metavar="P")],
) -> Ruling[Setup, SetupFacts]:
    """What does a power take and place at the start of the game?

    Numbers the rulebook leaves to the mapsheet's Starting Set-Up (how many secrets, chits and,
    in the standard game, spies each power draws) are named as such, not guessed (Register R11).

    Example: dossier referee setup --power italy --game long
    """
    from .board import small_board

    faction = find_power(table, power)
    allot = small_board(table).allotment(faction.id)
    secrets = sum(p.count for p in pieces(table, "secret") + pieces(table, "counterspy"))
    ruleset = rules_for(table)
    left_out = f" ({join(ruleset.chits_left_out)} stay out of the game)" if ruleset.chits_left_out else ""
    spies_said = (f"Place all {allot.spies} of your spies face down in any cities on the map." if allot.spies is not None
                  else f"Choose which of your {allot.spies_owned} spies to use, up to the number the mapsheet's Starting Set-Up gives, "
                       "and place them face down in any cities on the map.")
    steps = [
        f"Turn order for set-up and play: {join(f.name for f in table.game.info.factions)}.",
        f"Put your Bank marker in the Bank Track box with {faction.name}'s name.",
        f"Take your {allot.own_tiles} Event Tiles and draw {RANDOM_TILES_DRAWN} of the {allot.random_tiles} random ones blindly: "
        f"{allot.tiles} tiles.",
        f"Draw your allotment of the {secrets} secrets at random (the number is on the mapsheet); after every power has drawn, "
        f"the {len(allot.secret_cities)} left over go face down, one each, in the cities marked SECRET. Place yours face down, one a city, in your territory.",
        f"Place your {allot.police} police face down in cities coded for police in your home country, your capital included, "
        f"no more than {POLICE_PER_CITY} a city.",
        spies_said,
        f"Draw your allotment of Action chits from the cup at random (the number is on the mapsheet){left_out}.",
        f"The Game Year marker starts under {table.game.info.years[0]}.",
    ]
    rules = cite(table, "countries", "bank", "drawing tiles", "deploying secrets", "deploying police", "deploying spies",
                 "chit cup", "year track", also=("Register R11",))
    return Ruling(Setup.listed, " ".join(steps), rules, answer=f"set-up for {faction.name}",
                  facts=SetupFacts(power=faction.id, tiles=allot.tiles, police=allot.police, spies=allot.spies,
                                   secret_cities=list(allot.secret_cities)))


@dataclass(frozen=True)
class DeploySecretsFacts(Facts):
    """The fields of a `deploy-secrets` ruling."""

    power: str
    cities: list[str]
    faults: list[str]


def deploy_secrets(
    table: Table,
    power: Annotated[str, Param("The power placing its drawn secrets, e.g. Germany.", flag="--power", metavar="P")],
    cities: Annotated[list[str], Param("A city where one of its secrets goes; repeat for each secret.", flag="--city", metavar="CITY")],
) -> Ruling[Allowed, DeploySecretsFacts]:
    """At set-up, may a power place its secrets in these cities? Face down, one a city, in its own territory.

    How many secrets each power draws is on the mapsheet (Register R11); the 8 left over go one each to
    the cities marked SECRET.

    Example: dossier referee deploy-secrets --power germany --city Berlin --city Hamburg --city Munich
    """
    from .board import small_board

    faction = find_power(table, power)
    placed = [find_city(table, c).name for c in cities]
    if not placed:
        raise QuestionError("--city: name the city of each secret placed")
    faults = small_board(table, turn=faction.id).secret_placement_faults(faction.id, placed)
    rules = cite(table, "deploying secrets", also=("Register R11",))
    facts = DeploySecretsFacts(power=faction.id, cities=placed, faults=[f.code for f in faults])
    if faults:
        return Ruling(Allowed.not_allowed, f"Not so: {'; '.join(f.message for f in faults)}.", rules, facts=facts)
    return Ruling(Allowed.allowed, f"{faction.name} places its {len(placed)} secret{'s' if len(placed) != 1 else ''} face down, "
                  f"one in each of {join(placed)}, all in its own territory.", rules, facts=facts)


@dataclass(frozen=True)
class TurnFacts(Facts):
    """The fields of a `turn` ruling."""

    after: str
    year: int
    next: Optional[str]
    next_year: Optional[int]


def turn(
    table: Table,
    after: Annotated[str, Param("The power whose turn has just ended.", flag="--after", metavar="P")],
    year: Annotated[int, Param("The year on the Game Year marker.", flag="--year", metavar="Y")],
) -> Ruling[Turn, TurnFacts]:
    """Whose turn comes next, and does the year move on or the game end?

    Example: dossier referee turn --after britain --year 1939
    """
    from .board import turn_board

    years = table.game.info.years
    if year not in years:
        raise QuestionError(f"--year {year}: the game runs from {years[0]} to {years[-1]}")
    faction = find_power(table, after)
    order = [f.id for f in table.game.info.factions]
    board, end = turn_board(table, faction.id, year)
    board.push(end)
    facts = {"after": faction.id, "year": year}
    if board.over:
        return Ruling(Turn.game_over, f"{faction.name}'s {year} turn ends the game: the secrets are counted for the {year} column and "
                      "the Victory Points added up (see final-secret and winner).", cite(table, "year track", "winning"),
                      facts=TurnFacts(**facts, next=None, next_year=None))
    following = power_name(table, board.turn)
    if board.year == year:
        return Ruling(Turn.next_power, f"{following} plays next, still in {year}: the order is always "
                      f"{join(power_name(table, p) for p in order)}.", cite(table, "countries"),
                      facts=TurnFacts(**facts, next=board.turn, next_year=year))
    return Ruling(Turn.next_year, f"{faction.name} has ended its turn, so the Game Year marker moves to {board.year}, and "
                  f"{following} opens the new year.", cite(table, "year track", "countries"),
                  facts=TurnFacts(**facts, next=board.turn, next_year=board.year))


@dataclass(frozen=True)
class TradeFacts(Facts):
    """The fields of a `trade` ruling."""

    item: str
    when: str
    talk: str


def trade(
    table: Table,
    item: Annotated[Item, Param("What changes hands: chits, money, secrets, tiles (Event Tiles) or concessions.", flag="--item")],
    when: Annotated[When, Param("Whose turn it is: yours, or another player's.", flag="--when")] = When.own_turn,
    talk: Annotated[Talk, Param("Whether you open the talks or answer an opponent who opened them.", flag="--talk")] = Talk.open,
    same_player: Annotated[bool, Param("Both powers are run by one player (fewer than five players).", flag="--same-player")] = False,
) -> Ruling[Allowed, TradeFacts]:
    """May these two powers trade this, now?

    Example: dossier referee trade --item chits --when opponent-turn --talk open
    """
    from .board import refusal, trade_board

    if when is When.own_turn and talk is Talk.answer:
        raise QuestionError("--talk answer is about another player's turn: on your own turn no one else may open talks, "
                            "so there are none to answer (Responding to Diplomacy); add --when opponent-turn, or ask --talk open")
    board, actions = trade_board(table, item.value, when is When.own_turn, talk is Talk.open, same_player)
    *opening, deal = actions
    faults = []
    for action in opening:
        refused = refusal(board, action)
        if refused is None:
            board.push(action)
        else:
            faults.append(refused)
    faults += board.trade_faults(deal["power"], deal["trade"], {item.value})
    if not faults and (refused := refusal(board, deal)) is not None:
        faults.append(refused)
    rules = list(cite(table, "diplomacy"))
    if when is When.opponent_turn:
        rules += cite(table, "responding")
    facts = {"item": item.value, "when": when.value, "talk": talk.value}
    if faults:
        timing = any(f.code == "talk-timing" for f in faults)
        reasons = [f.message for f in faults if not (timing and f.code == "talks-not-open")]
        rules += [r for f in faults for r in f.rules]
        return Ruling(Allowed.not_allowed, f"Not now: {'; '.join(reasons)}.", tuple(dict.fromkeys(rules)), facts=TradeFacts(**facts))
    said = ("You may trade or sell it in talks, which you may open at any time during your own turn"
            if talk is Talk.open else "You may answer the talks and trade it; stop when the player whose turn it is says so")
    said += rules_for(table).with_points("; opening talks costs 1 Action Point for each opponent approached" if talk is Talk.open
                                         else "; answering costs you no Action Points")
    return Ruling(Allowed.allowed, said + ".", tuple(dict.fromkeys(rules)), facts=TradeFacts(**facts))


@dataclass(frozen=True)
class WinnerFacts(Facts):
    """The fields of a `winner` ruling."""

    points: dict[str, int]
    money: dict[str, int]
    winners: list[str]
    seat: Optional[list[str]] = None


def winner(
    table: Table,
    points: Annotated[list[str], Param("A power's Victory Point total, e.g. germany=14; one for each power.", flag="--vp", metavar="POWER=N")],
    money: Annotated[list[str], Param("A power's money in £, for ties, e.g. germany=35.", flag="--money", metavar="POWER=N")] = (),
    players: Annotated[Optional[int], Param("How many people play, when fewer than five (one runs two powers).", flag="--players", metavar="N")] = None,
) -> Ruling[Winner, WinnerFacts]:
    """Who wins at the end of 1939, given each power's Victory Points (and money, for a tie)?

    Victory Points are each secret's, captured spy's and sanctioned marker's value times the multiple of
    its box on the Time and Victory Record (printed on the mapsheet); give the totals.

    Example: dossier referee winner --vp germany=14 --vp france=14 --vp italy=9 --money germany=35 --money france=20
    """
    from .board import final_board

    scores = _by_power(table, points, "--vp")
    purse = _by_power(table, money, "--money")
    if len(scores) < FEWEST_PLAYERS:
        raise QuestionError(f"--vp: give the totals of at least {FEWEST_PLAYERS} powers")
    unscored = sorted(set(purse) - set(scores))
    if unscored:
        raise QuestionError(f"--money {unscored[0]}=...: that power has no --vp total")
    factions = [f.id for f in table.game.info.factions]
    if players is not None and not FEWEST_PLAYERS <= players <= len(factions):
        raise QuestionError(f"--players {players}: Spies! is played by {FEWEST_PLAYERS} to {len(factions)} players")
    board = final_board(table, scores, purse, players)
    end = board.outcome()
    rules = cite(table, "winning")
    said = ""
    if players is not None:
        rules += cite(table, "fewer players", also=rules_for(table).standard_too("fewer players", "Register R2"))
        if players < len(factions):
            said = " Each power's Victory Points are counted on their own, as if a player ran it alone; the player running the winning power wins."
        if end.for_nobody is not None:
            said += (f" {power_name(table, end.for_nobody)}, run by both players in alternate years, wins for neither: "
                     "the best of the other powers decides.")
            rules += ("Register R17",)
    best = end.points[end.leaders[0]]
    facts = {"points": scores, "money": purse}
    seat = board.seat_of(end.winners[0]) if players is not None and len(end.winners) == 1 else None
    names = join(power_name(table, p) for p in end.leaders)
    if end.reason == "most points":
        return Ruling(Winner.most_points, f"{names} has the most Victory Points ({best}) and wins.{said}", rules,
                      answer=f"{names} wins", facts=WinnerFacts(**facts, winners=end.winners, seat=seat))
    missing = [p for p in end.leaders if p not in purse]
    if missing:
        raise QuestionError(f"{names} tie on {best} Victory Points, and the richest wins: give --money for "
                            f"{join(power_name(table, p) for p in missing)}")
    richest = end.money[end.winners[0]]
    rich_names = join(power_name(table, p) for p in end.winners)
    if end.reason == "richest":
        return Ruling(Winner.richest, f"{names} tie on {best} Victory Points; the richest wins: {rich_names} with {richest}£.{said}",
                      rules, answer=f"{rich_names} wins", facts=WinnerFacts(**facts, winners=end.winners, seat=seat))
    return Ruling(Winner.shared, f"{rich_names} tie on {best} Victory Points and on {richest}£; the rulebook breaks a tie "
                  f"only by money, so they share the win.{said}", rules + ("Register R13",), answer=f"{rich_names} share the win",
                  facts=WinnerFacts(**facts, winners=end.winners))


def _by_power(table: Table, entries: list[str], option: str) -> dict[str, int]:
    """{power id: number} from POWER=N entries; each power once, each number a whole number not below 0."""
    found: dict[str, int] = {}
    for entry in entries:
        name, equals, number = entry.partition("=")
        if not equals or not name.strip():
            raise QuestionError(f"{option} {entry!r}: write the power and the number as POWER=N, e.g. germany=14")
        try:
            value = int(number)
        except ValueError:
            raise QuestionError(f"{option} {entry!r}: {number!r} is not a whole number") from None
        not_negative(value, option)
        faction = find_power(table, name.strip())
        if faction.id in found:
            raise QuestionError(f"{option}: {faction.name} is given twice")
        found[faction.id] = value
    return found


def check_position(table: Table, position: Position) -> list[Finding]:
    """Every rule a whole position breaks (`dossier referee position FILE`); the checks are in position.py,
    imported only when a position is checked."""
    from .position import check_position as check

    return check(table, position)


def replay_game(table: Table, record: Position, until: int | None) -> Replay:
    """A whole game record replayed on the board (`dossier referee game FILE`); in record.py, imported only then."""
    from .record import replay_game as replay

    return replay(table, record, until)


QUESTIONS = {
    "search": search,
    "counterspy": counterspy,
    "move": move,
    "tile": tile,
    "award": award,
    "chit": chit,
    "chits": chits,
    "action-points": action_points,
    "cash-in": cash_in,
    "final-secret": final_secret,
    "control": control,
    "transfer": transfer,
    "sanction": sanction,
    "players": players,
    "police": police,
    "setup": setup,
    "deploy-secrets": deploy_secrets,
    "turn": turn,
    "trade": trade,
    "winner": winner,
}
