"""A whole Spies! position checked against the rules: where each spy, police piece and secret stands,
each power's money and Action chits, the year, whose turn it is and the chits played so far this turn.

The file's grammar (the README shows one):

    variant: long                      # optional; or --game long
    year: 1936
    turn: germany                      # whose turn it is, if the chits played this turn are listed
    powers:
      germany:
        money: 45                      # £ on the Bank Track
        chits: [Discovery, Papers]     # the Action chits in hand, by name, or just how many: `chits: 2`
        spies:
          Kurt: Paris                  # a spy and the city it stands in
          Erik: {city: Prague, controls: Enigma Code}   # the secret the spy sits on
        police:
          - {strength: 2, city: Berlin}
          - {strength: 3, city: Berlin, controls: Tactical Comm}
    secrets:                           # every secret on the map
      Enigma Code: Prague
      Tactical Comm: Berlin
      counterspy A: {city: Warsaw, counterspy: 5}   # a counterspy: any label, its strength
    played:                            # Action chits played so far this turn
      - {power: germany, chit: Discovery, city: Geneva}

A file that cannot be read, has the wrong shape or names a power, city, spy, secret or chit
the game does not have is refused, naming the line; every rule it breaks is reported with
its line and rule. The rules themselves are shared with the questions (rules.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from generators.referee import DataError, Finding, NameIndex, network, Position, Table, UnknownNameError

from .rules import (
    CHIT_LIMIT,
    FEWEST_PLAYERS,
    chit_index,
    cite,
    cup_size,
    find_power,
    game_map,
    markers,
    pieces,
    police_faults,
    police_of,
    police_rules,
    power_name,
    rules_for,
    spies_of,
)


class Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _city_only(value: Any) -> Any:
    """`Kurt: Paris` is short for `Kurt: {city: Paris}`."""
    return {"city": value} if isinstance(value, str) else value


class Spy(Entry):
    city: str
    controls: Optional[str] = None


class Police(Entry):
    strength: int
    city: str
    controls: Optional[str] = None


class Secret(Entry):
    city: str
    counterspy: Optional[int] = Field(default=None, ge=0)
    home: Optional[str] = None     # the power whose home territory it began in, where that is not where it lies now


class RecordEntry(Entry):
    """An entry on a Time and Victory Record: the year, a secret cashed in or a spy captured, its name and value."""

    year: int
    kind: str
    name: str
    value: int


class Holding(Entry):
    money: Optional[int] = None
    chits: Any = None
    spies: dict[str, Spy] = Field(default_factory=dict)
    police: list[Police] = Field(default_factory=list)
    tiles: Optional[list[str]] = None       # the Event Tiles in hand, when a game record tracks them
    record: list[RecordEntry] = Field(default_factory=list)   # the power's Time and Victory Record

    @field_validator("spies", mode="before")
    @classmethod
    def _spies(cls, value: Any) -> Any:
        return {k: _city_only(v) for k, v in value.items()} if isinstance(value, dict) else value

    @field_validator("chits")
    @classmethod
    def _chits(cls, value: Any) -> Any:
        ok = (value is None or (isinstance(value, int) and not isinstance(value, bool))
              or (isinstance(value, list) and all(isinstance(v, str) for v in value)))
        if not ok:
            raise ValueError(f"expected how many Action chits (a number) or their names (a list), got {value!r}")
        return value


class Played(Entry):
    power: str
    chit: str
    city: Optional[str] = None


class SpiesPosition(Entry):
    year: Optional[int] = None
    turn: Optional[str] = None
    powers: dict[str, Holding] = Field(default_factory=dict)
    secrets: dict[str, Secret] = Field(default_factory=dict)
    played: list[Played] = Field(default_factory=list)
    cup: Optional[dict[str, int]] = None    # the Action chits left in the cup, when not every chit out of a hand
    over: Optional[bool] = None             # the game has ended
    players: Optional[int] = None           # how many people play, when fewer than one a power
    setup: Optional[bool] = None            # the position is the end of set-up: each power's pieces are checked against it
    neutral_box: list[str] = Field(default_factory=list)    # POWER/SPY: Spies Captured in Neutral Countries
    sanctioned_box: list[str] = Field(default_factory=list)  # POWER/SPY: the Sanctioned Spies Box

    @field_validator("secrets", mode="before")
    @classmethod
    def _secrets(cls, value: Any) -> Any:
        return {k: _city_only(v) for k, v in value.items()} if isinstance(value, dict) else value


@dataclass(frozen=True)
class Placed:
    """A spy or police piece as the position places it, its names looked up: where in the file, who it is,
    whose, its strength (police), the place it stands in and the key of the secret it controls."""

    where: tuple
    who: str
    power: str
    kind: str
    strength: Optional[int]
    place: str
    controls: Optional[str]
    name: Optional[str] = None  # a spy's name


@dataclass(frozen=True)
class OnMap:
    """A secret or counterspy on the map: its key in the file, the secret's printed name (None for a counterspy),
    where it lies and a counterspy's strength."""

    key: str
    name: Optional[str]
    place: str
    counterspy: Optional[int]


@dataclass
class Read:
    """The position with every name looked up in the game's data."""

    holdings: dict[str, tuple[str, Holding]] = field(default_factory=dict)  # power id: (its key in the file, its holding)
    pieces: list[Placed] = field(default_factory=list)
    secrets: dict[str, OnMap] = field(default_factory=dict)
    played: list[tuple[str, str, Optional[str]]] = field(default_factory=list)  # (power id, chit, place)
    hands: dict[str, list[str]] = field(default_factory=dict)  # power id: the chits named in its hand
    turn: Optional[str] = None


class _Lookup:
    """Names looked up in the game's data; each unknown one is kept as a refusal with its line."""

    def __init__(self, table: Table, position: Position):
        self.table, self.position = table, position
        self.unknown: list = []
        self.places = network.place_index(game_map(table), table.game.aliases)
        self.chits = chit_index(table)
        self.secrets = NameIndex("secret", [p.name for p in pieces(table, "secret")], table.game.aliases)

    def __call__(self, find, name: str, where: tuple):
        """`find(name)`, or None with the refusal kept when `name` is unknown."""
        try:
            return find(name)
        except UnknownNameError as exc:
            self.unknown.append(self.position.problem(where, str(exc), "unknown-name"))
            return None

    def spies(self, power: str) -> NameIndex:
        return NameIndex(f"{power_name(self.table, power)} spy", [p.name for p in spies_of(self.table, power)])


def _read(table: Table, position: Position, found: SpiesPosition) -> Read:
    """The position's names looked up; every unknown name refused at once, each with its line."""
    look = _Lookup(table, position)
    read = Read()
    for key, secret in found.secrets.items():
        where = ("secrets", key)
        name = None if secret.counterspy is not None else look(look.secrets.resolve, key, where)
        place = look(look.places.resolve, secret.city, (*where, "city"))
        if place is not None:
            read.secrets[key] = OnMap(key, name, place, secret.counterspy)
    on_map = NameIndex("secret on the map (a key of secrets:)", found.secrets,
                       {s.name: s.key for s in read.secrets.values() if s.name})
    for key, holding in found.powers.items():
        power = look(lambda n: find_power(table, n).id, key, ("powers", key))
        if power is None:
            continue
        read.holdings[power] = (key, holding)
        who = power_name(table, power)
        for name, spy in holding.spies.items():
            where = ("powers", key, "spies", name)
            spy_name = look(look.spies(power).resolve, name, where)
            place = look(look.places.resolve, spy.city, where)
            on = look(on_map.resolve, spy.controls, (*where, "controls")) if spy.controls is not None else None
            if spy_name and place:
                read.pieces.append(Placed(where, f"{who}'s spy {spy_name}", power, "spy", None, place, on, spy_name))
        for i, piece in enumerate(holding.police):
            where = ("powers", key, "police", i)
            place = look(look.places.resolve, piece.city, (*where, "city"))
            on = look(on_map.resolve, piece.controls, (*where, "controls")) if piece.controls is not None else None
            if place:
                read.pieces.append(Placed(where, f"{who}'s police ({piece.strength})", power, "police", piece.strength, place, on))
        if isinstance(holding.chits, list):
            read.hands[power] = [look(look.chits.resolve, name, ("powers", key, "chits", i)) for i, name in enumerate(holding.chits)]
    if found.turn is not None:
        read.turn = look(lambda n: find_power(table, n).id, found.turn, ("turn",))
    for i, entry in enumerate(found.played):
        power = look(lambda n: find_power(table, n).id, entry.power, ("played", i, "power"))
        name = look(look.chits.resolve, entry.chit, ("played", i, "chit"))
        place = look(look.places.resolve, entry.city, ("played", i, "city")) if entry.city is not None else None
        read.played.append((power, name, place))
    if look.unknown:
        raise DataError(look.unknown)
    return read


def check_position(table: Table, position: Position) -> list[Finding]:
    """Every rule the position breaks, each with where it is in the file and the rule it breaks."""
    found = position.parse(SpiesPosition)
    read = _read(table, position, found)
    return (_year(table, found) + _players(table, found) + _at_sea(table, read) + _police(table, read) + _control(table, read)
            + _roster(table, read) + _money_and_chits(table, read) + _played(table, read) + _setup(table, position, found, read))


def _year(table: Table, found: SpiesPosition) -> list[Finding]:
    years = table.game.info.years
    if found.year is None or found.year in years:
        return []
    return [Finding(("year",), f"the year {found.year} is outside the game, which runs from {years[0]} to {years[-1]}",
                    cite(table, "year track"), "year")]


def _players(table: Table, found: SpiesPosition) -> list[Finding]:
    most = len(table.game.info.factions)
    if found.players is None or FEWEST_PLAYERS <= found.players <= most:
        return []
    return [Finding(("players",), f"{found.players} players: Spies! is played by {FEWEST_PLAYERS} to {most}",
                    cite(table, "fewer players"), "players")]


def _may_end_in(table: Table, place: str) -> bool:
    return network.places(game_map(table))[place] in game_map(table).rules.move_ends_in


def _at_sea(table: Table, read: Read) -> list[Finding]:
    at_sea = [(p.where, p.who, p.place) for p in read.pieces if not _may_end_in(table, p.place)]
    at_sea += [(("secrets", s.key), f"the secret {s.name or s.key}", s.place) for s in read.secrets.values()
               if not _may_end_in(table, s.place)]
    return [Finding(where, f"{who} is in {place}, a sea zone: a spy may cross the sea but never ends its move there, "
                    "and no other piece stands at sea", cite(table, "moving"), "at-sea") for where, who, place in at_sea]


def _police(table: Table, read: Read) -> list[Finding]:
    """Police only in their power's home cities coded for police, at most two a city."""
    findings = []
    by_city: dict[tuple[str, str], list[Placed]] = {}
    for piece in read.pieces:
        if piece.kind == "police" and _may_end_in(table, piece.place):
            by_city.setdefault((piece.power, piece.place), []).append(piece)
    for (power, place), here in by_city.items():
        faction = next(f for f in table.game.info.factions if f.id == power)
        for fault in police_faults(table, faction, game_map(table).city(place), len(here)):
            findings.append(Finding(here[0].where, f"{faction.name}'s police in {place}: {fault.message}", police_rules(table), fault.code))
    return findings


def _control(table: Table, read: Read) -> list[Finding]:
    """Each piece sits on a secret in its own city, and no secret has two pieces on it."""
    findings = []
    rules = cite(table, "secrets", also=rules_for(table).standard_too("secrets", "Register R6"))
    holders: dict[str, list[Placed]] = {}
    for piece in read.pieces:
        if piece.controls is None or piece.controls not in read.secrets:
            continue
        holders.setdefault(piece.controls, []).append(piece)
        secret = read.secrets[piece.controls]
        if piece.place != secret.place:
            findings.append(Finding((*piece.where, "controls"), f"{piece.who} is in {piece.place} but the secret it sits on, {piece.controls}, "
                                    f"is in {secret.place}: a piece controls a secret by standing on top of it", rules, "control-elsewhere"))
    for key, here in holders.items():
        if len(here) > 1:
            findings.append(Finding(("secrets", key), f"{key} is controlled by {len(here)} pieces ({'; '.join(p.who for p in here)}): "
                                    "only one spy or police piece controls a secret at a time", rules, "double-control"))
    return findings


def _roster(table: Table, read: Read) -> list[Finding]:
    """No more police of a strength than a power has, nor more counterspies of a strength than the game has."""
    findings = []
    roster = police_of(table)
    placed = Counter((p.power, p.strength) for p in read.pieces if p.kind == "police")
    for (power, strength), n in sorted(placed.items()):
        have = roster.get(power, Counter())[strength]
        if n > have:
            first = next(p for p in read.pieces if p.kind == "police" and (p.power, p.strength) == (power, strength))
            findings.append(Finding(first.where, f"{power_name(table, power)} has {have} police of strength {strength}, not {n}",
                                    ("Playing Piece Roster",), "too-many"))
    printed = Counter(p.strength for p in pieces(table, "counterspy") for _ in range(p.count))
    on_map = Counter(s.counterspy for s in read.secrets.values() if s.counterspy is not None)
    for strength, n in sorted(on_map.items()):
        if n > printed[strength]:
            first = next(s.key for s in read.secrets.values() if s.counterspy == strength)
            findings.append(Finding(("secrets", first), f"the game has {printed[strength]} counterspies of strength {strength}, not {n}",
                                    ("Playing Piece Roster",), "too-many"))
    sanctioned = [(key, i) for _, (key, holding) in read.holdings.items() for i, e in enumerate(holding.record) if e.kind == "sanctioned"]
    sheet = markers(table, "sanctioned")
    if len(sanctioned) > sheet:
        key, i = sanctioned[sheet]
        findings.append(Finding(("powers", key, "record", i), f"{len(sanctioned)} Sanctioned Spy markers are on the records; "
                                f"the sheet has {sheet}", ("Playing Piece Roster", "Register R18"), "too-many"))
    return findings


def _money_and_chits(table: Table, read: Read) -> list[Finding]:
    """Money never below nothing; no hand over the limit, no chit the variant leaves out, no more chits than the game has."""
    findings = []
    ruleset = rules_for(table)
    in_cup = ruleset.in_cup(table)
    limit_rules = cite(table, "event tiles", also=rules_for(table).standard_too("event tiles", "Register R7"))
    total, first_hand = 0, None
    for power, (key, holding) in read.holdings.items():
        who = power_name(table, power)
        if holding.money is not None and holding.money < 0:
            findings.append(Finding(("powers", key, "money"), f"{who} has {holding.money}£: the Bank Track records money held, never a debt",
                                    cite(table, "bank"), "money"))
        if holding.chits is None:
            continue
        where = ("powers", key, "chits")
        count = len(holding.chits) if isinstance(holding.chits, list) else holding.chits
        first_hand, total = first_hand or where, total + max(count, 0)
        if not 0 <= count <= CHIT_LIMIT:
            findings.append(Finding(where, f"{who} holds {count} Action chits; a hand holds from 0 to {CHIT_LIMIT}", limit_rules, "chits"))
        for i, name in enumerate(read.hands.get(power, [])):
            if name not in in_cup:
                findings.append(Finding((*where, i), f"{who} holds {name}, which the {ruleset.label} leaves out of the cup",
                                        cite(table, "chit cup"), "chit-not-in-game"))
    printed = {p.name: p.count for p in pieces(table, "chit")}
    for name, n in sorted(Counter(c for hand in read.hands.values() for c in hand).items()):
        if n > printed[name]:
            findings.append(Finding(first_hand, f"the hands hold {n} {name} chits; the game has {printed[name]}",
                                    ("Playing Piece Roster",), "too-many"))
    if first_hand is not None and total > cup_size(table):
        findings.append(Finding(first_hand, f"the hands hold {total} Action chits; the {ruleset.label}'s cup has {cup_size(table)} in all",
                                cite(table, "chit cup"), "too-many"))
    return findings


def _played(table: Table, read: Read) -> list[Finding]:
    """Chits played this turn, as the board rules on each: used in this variant, not barred in a spy haven, and
    playable on this turn (when the position says whose turn it is)."""
    from .board import small_board

    board = small_board(table, turn=read.turn)
    findings = []
    for i, (power, name, place) in enumerate(read.played):
        faults = board.chit_faults(power, name, place, on_own_turn=power == read.turn)
        findings += [Finding(("played", i), fault.message, fault.rules, fault.code) for fault in faults
                     if read.turn is not None or fault.code != "chit-timing"]
    return findings


def _setup(table: Table, position: Position, found: SpiesPosition, read: Read) -> list[Finding]:
    """With `setup: true`, each power written in the file against what set-up gives it, as the board judges it."""
    if not found.setup:
        return []
    from .record import board_from

    board = board_from(table, position)
    return [Finding(("powers", key), fault.message, fault.rules, fault.code)
            for power, (key, _) in read.holdings.items() for fault in board.setup_faults(power)]
