"""The Spies! board: one model of a position that knows which actions are legal in it, plays them and
scores the result, as python-chess's Board does for chess.

A position is what a `referee position` file holds (see position.py), plus what a game in progress
needs: each power's Event Tiles and Time and Victory Record, the chits left in the cup, and what has
happened so far this turn. `Board.push(action)` plays one action or raises `IllegalAction` naming
the rule it breaks; `Board.is_legal(action)` asks without playing. The standard game and the Long
Game are two rule sets over one board (`StandardRules`, `LongRules`): the Long Game declares its
differences (Action Points, its chits on each turn, spy havens, Cousins), it never branches on a flag.

An action is a mapping with the power acting and one verb (record.py reads them from a game record):

    {power: germany, tile: "Ge 1"}                       play a tile face up (or `discard: "Ge 1"`)
    {power: germany, police: [{strength: 2, city: Berlin}, ...]}   re-arrange all your police
    {power: germany, search: Paris, spy: france/Jean}    search a city for one enemy spy
    {power: germany, move: Kurt, path: [Berlin, Prague]} move one spy, every place it enters named
    {power: germany, chit: Discovery, spy: Kurt, secret: Enigma Code}   play an Action chit (`cover: true`: answered by Cover)
    {power: germany, control: Enigma Code, spy: Kurt}    take an original secret at home (or `strength: 2`: police)
    {power: germany, cash-in: Enigma Code}               cash a foreign secret in at your capital
    {power: germany, talk: [italy, russia]}              open talks
    {power: germany, end: turn}                          end the turn

What was drawn is written with the action: `drawn: {germany: [Papers]}` for chits a tile awards
(and `returned: [...]` for the surplus over 7), `drawn: [Papers]` for a cash-in's chit. A chit drawn
that is no longer in the cup is refused.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from generators.referee import QuestionError, Table

from .rules import (
    ALTERNATING,
    CASH_IN_CHITS,
    CASH_IN_MONEY,
    CHIT_LIMIT,
    FEWEST_PLAYERS,
    LAST_TURN_POWER,
    POLICE_PER_CITY,
    RANDOM_TILES_DRAWN,
    Allotment,
    LongRules,
    StandardRules,
    allotment,
    game_map,
    markers,
    pieces,
    police_faults,
    power_name,
    rules_for,
    seats_for,
)

PHASES = ("tile", "police", "search", "move")  # Standard: What You Can Do During Your Turn, in order
RECORD_AID = "time-and-victory"


class IllegalAction(Exception):
    """An action the rules do not allow here: what is wrong and the rules it breaks."""

    def __init__(self, message: str, rules: tuple[str, ...], code: str):
        super().__init__(message)
        self.message, self.rules, self.code = message, rules, code


# ---- the position -----------------------------------------------------------------------------------------

@dataclass
class Holding:
    """One power's pieces and purse."""

    money: int = 0
    chits: list[str] = field(default_factory=list)
    tiles: Optional[list[str]] = None           # None: not tracked
    spies: dict[str, str] = field(default_factory=dict)              # spy name: place
    police: list[list] = field(default_factory=list)                  # [strength, city]
    record: list[dict] = field(default_factory=list)                  # {year, kind, name, value}


@dataclass
class SecretOnMap:
    city: str
    counterspy: Optional[int] = None
    holder: Optional[tuple] = None        # (power, "spy", name) or (power, "police", index)
    home: Optional[str] = None            # the power whose home territory it began in (None: neutral)


@dataclass
class TurnState:
    """What has happened so far in the turn of the power to move."""

    phase: int = 0
    moved: list[str] = field(default_factory=list)           # spies moved, in order
    searched: set = field(default_factory=set)               # (searcher, owner, spy) searched this turn
    cities_searched: set = field(default_factory=set)
    entered: set = field(default_factory=set)                # (owner, spy, city) entered this turn
    spent: int = 0                                            # Action Points
    talks: set = field(default_factory=set)


@dataclass(frozen=True)
class TileAward:
    """What one power gets when an Event Tile is played: chits and money, the cities that earned them
    (city, amount, kind as printed: "c" or "£") and the cities of its own territory the tile lists, which earn nothing."""

    chits: int = 0
    money: int = 0
    earned: tuple[tuple[str, int, str], ...] = ()
    own: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """The end of the game, as the final count leaves it (How to Win the Game; 6.0): each power's Victory Points and
    money, the powers with the most points, the winners and why ("most points", "richest" or "shared"), and the power
    that wins for nobody when it is played in alternate years (Register R17)."""

    points: dict[str, int]
    money: dict[str, int]
    leaders: list[str]
    winners: list[str]
    reason: str
    for_nobody: Optional[str] = None


class Board:
    """A Spies! position and the rules that say what may happen next."""

    def __init__(self, table: Table, year: int, turn: str, holdings: dict[str, Holding],
                 secrets: dict[str, SecretOnMap], cup: Counter, players: Optional[int] = None):
        self.table = table
        self.players = players     # how many people play (None: one a power); see seats()
        self.rules = rules_for(table)
        self.year, self.turn = year, turn
        self.powers = holdings
        self.secrets = secrets
        self.cup = cup
        self.state = TurnState()
        self.over = False
        self.captured_neutral: list[str] = []
        self.sanctioned: list[str] = []
        self._map = game_map(table)
        self._cities = {c.name: c for c in self._map.cities}
        self._chits = {p.name: p for p in pieces(table, "chit")}
        self._strength = {(p.nation, p.name): p.strength for p in pieces(table, "spy")}
        self._cousin = {(p.nation, p.name) for p in pieces(table, "spy") if p.cousin}
        self._values = {p.name: p.value for p in pieces(table, "secret")}
        self._order = [f.id for f in table.game.info.factions]
        self._stack: list[dict] = []

    # ---- what the board knows ----

    STATE = ("year", "turn", "powers", "secrets", "cup", "state", "over", "captured_neutral", "sanctioned")

    def _snapshot(self) -> dict[str, Any]:
        """The position and the turn so far: all that an action changes (the game's data is shared, never copied)."""
        return copy.deepcopy({k: self.__dict__[k] for k in self.STATE})

    def copy(self) -> "Board":
        twin = copy.copy(self)
        twin.__dict__.update(self._snapshot())
        twin._stack = []
        return twin

    @property
    def in_cup(self) -> list[str]:
        """The chits this variant plays with."""
        return self.rules.in_cup(self.table)

    def is_haven(self, city: str) -> bool:
        return city in self._cities and self.rules.is_haven(self._cities[city])

    def is_cousin(self, power: str, spy: str) -> bool:
        return self.rules.cousins and (power, spy) in self._cousin

    def strength(self, power: str, spy: str) -> int:
        return self._strength[(power, spy)]

    def police_in(self, power: str, city: str) -> list[int]:
        return [s for s, c in self.powers[power].police if c == city]

    def capital(self, power: str) -> Optional[str]:
        return next((c.name for c in self._map.cities if c.power == power and c.capital), None)

    def multiple(self, year: int) -> int:
        aid = next((a for a in self._map.aids if a.id == RECORD_AID), None)
        text = aid.values.get(year, "×1") if aid else "×1"
        return int(str(text).lstrip("×x"))

    def score(self) -> dict[str, int]:
        """Each power's Victory Points: each entry on its Time and Victory Record, its value times its year's multiple."""
        return {p: sum(e["value"] * self.multiple(e["year"]) for e in h.record) for p, h in self.powers.items()}

    def ap_left(self) -> Optional[int]:
        return None if self.rules.action_points is None else self.rules.action_points - self.state.spent

    # ---- seats, set-up, tiles' awards, hands and the end ----

    def seats(self) -> list[list[str]]:
        """The players' seats in turn order, each the powers one person runs: one power a seat with five players;
        fewer share (Playing the Game with Fewer Than Five Players), and the power played in alternate years has none."""
        return seats_for(self.table, self.players) if self.players else [[p] for p in self._order]

    def seat_of(self, power: str) -> Optional[list[str]]:
        return next((seat for seat in self.seats() if power in seat), None)

    def is_same_player(self, power: str, other: str) -> bool:
        """True when one person runs both powers."""
        seat = self.seat_of(power)
        return power != other and seat is not None and other in seat

    def alternating(self) -> Optional[str]:
        """The power both players run in alternate years, when there is one."""
        return ALTERNATING.get(self.players) if self.players else None

    def allotment(self, power: str) -> Allotment:
        """What `power` takes and places at set-up (How to Begin the Game; 2.1-2.8)."""
        return allotment(self.table, power)

    def setup_faults(self, power: str) -> list[IllegalAction]:
        """Every way `power`'s pieces differ from what set-up gives it, in a position before the first turn: its own Event
        Tiles and the random draw in hand (when tracked), every police piece placed legally, its spies (all of them in the
        Long Game; in the standard game no more than it has), and its placed secrets one a city in its own territory."""
        who, allot, holding = power_name(self.table, power), self.allotment(power), self.powers[power]
        faults = []
        if holding.tiles is not None:
            tiles = [self.table.game.tile(t) for t in holding.tiles]
            own = sum(1 for t in tiles if t.nation == power)
            drawn = sum(1 for t in tiles if t.nation is None)
            if own != allot.own_tiles or drawn != RANDOM_TILES_DRAWN or len(tiles) != allot.tiles:
                faults.append(self._refuse(f"{who} holds {own} of its {allot.own_tiles} own Event Tiles and {drawn} random ones: "
                                           f"set-up gives all its own and {RANDOM_TILES_DRAWN} drawn blindly, {allot.tiles} in all",
                                           ("drawing tiles",), code="setup-tiles"))
        if len(holding.police) != allot.police:
            faults.append(self._refuse(f"{who} has {len(holding.police)} police on the map: set-up places all {allot.police}",
                                       ("deploying police",), code="setup-police"))
        faction = next(f for f in self.table.game.info.factions if f.id == power)
        for city, n in sorted(Counter(c for _, c in holding.police).items()):
            for fault in police_faults(self.table, faction, self._cities[city], n):
                faults.append(self._refuse(f"{who}'s police in {city}: {fault.message}", ("deploying police",),
                                           also=("Register R9",), code=fault.code))
        spies = len(holding.spies)
        wanted = allot.spies if allot.spies is not None else allot.spies_owned
        if (allot.spies is not None and spies != wanted) or spies > wanted or spies == 0:
            said = f"all {wanted}" if allot.spies is not None else f"from 1 to {wanted}, as the Starting Set-Up gives"
            faults.append(self._refuse(f"{who} has {spies} spies on the map: set-up places {said}", ("deploying spies",),
                                       also=("Register R11",) if allot.spies is None else (), code="setup-spies"))
        placed = [s.city for s in self.secrets.values() if s.home == power and s.counterspy is None and s.holder is None]
        faults += self.secret_placement_faults(power, placed) if placed else []
        return faults

    def tile_awards(self, tile_id: str) -> dict[str, TileAward]:
        """What each power gets when `tile_id` is played now: for each city the tile lists where the power has a spy
        (one spy a city counts, however many stand there), outside its own territory (Playing Event Tiles; 3.21)."""
        found = self.table.game.tile(tile_id)
        awards = {}
        for power, holding in self.powers.items():
            chits = money = 0
            earned, own = [], []
            places = set(holding.spies.values())
            for group in found.awards:
                for city in sorted(places & set(group.cities)):
                    if self._cities[city].power == power:
                        own.append(city)
                        continue
                    earned.append((city, group.amount, group.kind))
                    if group.kind == "c":
                        chits += group.amount
                    else:
                        money += group.amount
            awards[power] = TileAward(chits, money, tuple(earned), tuple(dict.fromkeys(own)))
        return awards

    def surplus(self, power: str, drawn: int = 0) -> int:
        """How many chits `power` returns to the cup after drawing `drawn` more: the excess over the hand limit."""
        return max(0, len(self.powers[power].chits) + drawn - CHIT_LIMIT)

    def markers_left(self, kind: str = "sanctioned") -> int:
        """Sanctioned Spy markers still off the records: the sheet's count less those placed (Playing Piece Roster)."""
        used = sum(1 for h in self.powers.values() for e in h.record if e["kind"] == kind)
        return markers(self.table, kind) - used

    def outcome(self) -> Optional[Outcome]:
        """Who has won, once the game is over (None before): the most Victory Points, a tie going to the richest; the
        power played in alternate years wins for nobody (Register R17); leaders tied on money too share the win (Register
        R13)."""
        if not self.over:
            return None
        points = {p: n for p, n in sorted(self.score().items(), key=lambda item: self._order.index(item[0]))}
        money = {p: self.powers[p].money for p in points}
        counted = dict(points)
        alternating = self.alternating()
        for_nobody = alternating if alternating in counted and len(counted) > 1 else None
        counted.pop(for_nobody, None)
        best = max(counted.values())
        leaders = [p for p, n in counted.items() if n == best]
        if len(leaders) == 1:
            return Outcome(points, money, leaders, leaders, "most points", for_nobody)
        richest = max(money[p] for p in leaders)
        rich = [p for p in leaders if money[p] == richest]
        return Outcome(points, money, leaders, rich, "richest" if len(rich) == 1 else "shared", for_nobody)

    # ---- playing ----

    def legal_actions(self, others: bool = True, limit: Optional[int] = None) -> list[dict]:
        """The first `limit` actions `generate_legal_actions` yields (all of them without a limit)."""
        return list(itertools.islice(self.generate_legal_actions(others), limit))

    def generate_legal_actions(self, others: bool = True) -> Iterator[dict]:
        """Every action that may be played now, one at a time and always in the same order, as python-chess yields its
        legal moves. For the power to move: its tile played or discarded; every re-arrangement of all its police; its
        searches; each unmoved spy's move along every path it may take (no place entered twice, at most the spaces a
        turn allows and, in the Long Game, the Action Points left; never ending at sea); each chit it holds where it has
        an effect (Discovery on a secret, Sanction on an enemy spy in the same city, Escape for a captured spy, Recruit
        for a spy not in play); control of a secret where its pieces stand; a cash-in at its capital, once for each chit
        that may be drawn; talks with each opponent; ending the turn. With `others`, the other powers' answers: searches
        for a spy that has just moved into a city with their police, with or without the owner's Papers or Escape.
        Police and moves are built legal by the rules `_police` and `_move` check (there are tens of thousands of them);
        everything else is checked by playing it on a copy. Trades are offers of any size and are not listed."""
        power, h = self.turn, self.powers[self.turn]
        checked = lambda found: (a for a in found if self.is_legal(a))  # noqa: E731
        if self.state.phase == 0:
            for tile in h.tiles or []:
                yield from checked([{"power": power, "tile": tile}, {"power": power, "discard": tile}])
            yield from checked(self._talks(power))
            return
        if self.state.phase <= PHASES.index("police"):
            yield from self._re_arrangements(power)
        for city in dict.fromkeys(c for _, c in h.police):
            yield from checked(self._searches(power, city, evasions=False))
        for spy in h.spies:
            if spy not in self.state.moved:
                yield from ({"power": power, "move": spy, "path": path} for path in self.paths(spy))
            yield from checked(self._chit_plays(power, spy, h.spies[spy]))
        yield from checked(self._escapes_and_recruits(power))
        yield from checked(self._controls_and_cash_ins(power))
        yield from checked(self._talks(power))
        yield from checked([{"power": power, "end": "turn"}])
        if others:
            for owner, spy, city in sorted(self.state.entered):
                if owner == power and self.powers[owner].spies.get(spy) == city:
                    for other, holding in self.powers.items():
                        if other != power and any(c == city for _, c in holding.police):
                            yield from checked(self._searches(other, city, evasions=True, only=(owner, spy)))

    def paths(self, spy: str) -> Iterator[list[str]]:
        """Every path the spy to move may take now, from where it stands, depth first with each place's neighbours in
        name order: no place entered twice, at most the spaces a turn allows (and the Action Points left), ending on
        land; a path may cross the sea (Moving Your Spies; 3.6)."""
        graph = _network(self.table).graph
        net = _network(self.table)
        most = self._map.rules.spaces_per_turn
        left = self.ap_left()
        if left is not None:
            per_space = self.rules.cost("space")
            most = min(most, left // per_space) if per_space else most
        path = [self.powers[self.turn].spies[spy]]

        def walk() -> Iterator[list[str]]:
            if len(path) > 1 and net.may_end_in(path[-1]):
                yield list(path)
            if len(path) - 1 < most:
                for place in sorted(graph.adj[path[-1]]):
                    if place not in path:
                        path.append(place)
                        yield from walk()
                        path.pop()

        yield from walk()

    def _talks(self, power: str) -> list[dict]:
        return [{"power": power, "talk": [p]} for p in self.powers if p != power and p not in self.state.talks]

    def _re_arrangements(self, power: str) -> Iterator[dict]:
        """Every placement of all of `power`'s police in its cities coded for police, two a city at most, each placement
        once (pieces of one strength are alike), city by city in map order; not the one standing now."""
        faction = next(f for f in self.table.game.info.factions if f.id == power)
        homes = [c.name for c in self._map.cities if not police_faults(self.table, faction, c, 1)]
        now = Counter((s, c) for s, c in self.powers[power].police)
        placed: list[list] = []

        def place(i: int, left: Counter) -> Iterator[dict]:
            if not +left:
                if Counter((s, c) for s, c in placed) != now:
                    yield {"power": power, "police": [{"strength": s, "city": c} for s, c in placed]}
                return
            if i == len(homes):
                return
            pieces_left = sorted(left.elements())
            for k in range(min(POLICE_PER_CITY, len(pieces_left)) + 1):
                for group in dict.fromkeys(itertools.combinations(pieces_left, k)):
                    placed.extend([s, homes[i]] for s in group)
                    yield from place(i + 1, left - Counter(group))
                    del placed[len(placed) - k:]

        yield from place(0, Counter(s for s, _ in self.powers[power].police))

    def _searches(self, power: str, city: str, evasions: bool, only: Optional[tuple] = None) -> list[dict]:
        found = []
        for owner, holding in self.powers.items():
            for spy, at in holding.spies.items():
                if owner == power or at != city or (only and (owner, spy) != only):
                    continue
                search = {"power": power, "search": city, "spy": f"{owner}/{spy}"}
                found.append(search)
                if evasions:
                    found += [search | {"evade": name} for name in ("Papers", "Escape") if name in holding.chits]
        return found

    def _chit_plays(self, power: str, spy: str, at: str) -> list[dict]:
        hand = self.powers[power].chits
        found = []
        if "Discovery" in hand:
            for key, secret in self.secrets.items():
                if secret.city == at:
                    play = {"power": power, "chit": "Discovery", "spy": spy, "secret": key}
                    found.append(play)
                    if secret.holder and secret.holder[0] == "spy" and "Cover" in self.powers[secret.holder[1]].chits:
                        found.append(play | {"cover": True})
        if "Sanction" in hand:
            for owner, holding in self.powers.items():
                for enemy, there in holding.spies.items():
                    if owner != power and there == at:
                        play = {"power": power, "chit": "Sanction", "spy": spy, "target": f"{owner}/{enemy}"}
                        found += [play, play | {"cover": True}] if "Cover" in holding.chits else [play]
        return found

    def _escapes_and_recruits(self, power: str) -> list[dict]:
        hand = self.powers[power].chits
        found = []
        if "Escape" in hand:
            found += [{"power": power, "chit": "Escape", "returns": name} for name in self.captured(power)]
        if "Recruit" in hand:
            found += [{"power": power, "chit": "Recruit", "spy": spy, "recruit": name}
                      for name in self.not_in_play(power) for spy in self.powers[power].spies]
        return found

    def _controls_and_cash_ins(self, power: str) -> list[dict]:
        holding = self.powers[power]
        found = []
        for key, secret in self.secrets.items():
            found += [{"power": power, "control": key, "spy": spy} for spy, at in holding.spies.items() if at == secret.city]
            found += [{"power": power, "control": key, "strength": s} for s, c in holding.police if c == secret.city]
            if secret.holder is not None and secret.holder[:2] == ("spy", power):
                found += [{"power": power, "cash-in": key, "drawn": [name]} for name, n in sorted(self.cup.items()) if n > 0]
        return found

    def captured(self, power: str) -> list[str]:
        """`power`'s spies out of play as captured: on another power's Time and Victory Record or in the neutral box."""
        names = [e["name"] for h in self.powers.values() for e in h.record if e["kind"] == "spy"] + self.captured_neutral
        return [n.split("/", 1)[1] for n in names if n.startswith(f"{power}/")]

    def not_in_play(self, power: str) -> list[str]:
        """`power`'s spies neither on the map nor captured nor sanctioned."""
        gone = set(self.captured(power)) | {n.split("/", 1)[1] for n in self.sanctioned if n.startswith(f"{power}/")}
        return [p.name for p in pieces(self.table, "spy")
                if p.nation == power and p.name not in self.powers[power].spies and p.name not in gone]

    def is_legal(self, action: dict) -> bool:
        try:
            self.copy().push(action)
        except IllegalAction:
            return False
        return True

    def push(self, action: dict) -> None:
        """Play `action`, or raise IllegalAction (the board is left as it was)."""
        before = self._snapshot()
        try:
            self._play(action)
        except IllegalAction:
            self.__dict__.update(before)
            raise
        self._stack.append(before)

    def pop(self) -> None:
        """Take back the last action."""
        self.__dict__.update(self._stack.pop())

    def _refuse(self, message: str, topics: tuple[str, ...] = (), also: tuple[str, ...] = (), code: str = "illegal") -> IllegalAction:
        return IllegalAction(message, self.rules.cite(*topics, also=also), code)

    def _play(self, action: dict) -> None:
        if self.over:
            raise self._refuse("the game is over: Britain's 1939 turn has ended", ("year track", "winning"), code="game-over")
        power = action["power"]
        verb = next(v for v in VERBS if v in action)
        own = power == self.turn
        if verb not in ("search", "chit", "talk", "trade") and not own:
            raise self._refuse(f"{power_name(self.table, power)} acts on {power_name(self.table, self.turn)}'s turn: "
                               f"only searches for arriving spies, the chits allowed then and answers to talks are",
                               ("arriving spies", "chits on another's turn", "responding"), code="not-your-turn")
        if own and verb not in ("tile", "discard", "talk", "trade", "end") and self.state.phase == 0:
            raise self._refuse("the turn opens with its Event Tile: play one marked with this year or discard one, before anything else",
                               ("event tiles",), code="tile-first")
        getattr(self, "_" + verb.replace("-", "_"))(power, action, own)

    def _spend(self, what: str, n: int = 1) -> None:
        self._spend_points(self.rules.cost(what, n))

    def _spend_points(self, cost: int) -> None:
        budget = self.rules.action_points
        if budget is not None and self.state.spent + cost > budget:
            raise self._refuse(f"that costs {cost} Action Point{'s' if cost != 1 else ''} and only {budget - self.state.spent} "
                               f"of the {budget} are left this turn", also=("3.1", "3.11"), code="action-points")
        self.state.spent += cost

    def _phase(self, phase: str, topic: str) -> None:
        at = PHASES.index(phase)
        if self.state.phase > at:
            raise self._refuse(f"{phase} comes before {PHASES[self.state.phase]} in a turn, and that has begun", (topic,), code="order")
        self.state.phase = at

    def _draw(self, power: str, names: list[str], why: str) -> None:
        for name in names:
            if self.cup[name] <= 0:
                raise self._refuse(f"{power_name(self.table, power)} draws {name} for {why}, but no {name} is left in the cup",
                                   ("chit cup",), code="not-in-cup")
            self.cup[name] -= 1
            self.powers[power].chits.append(name)

    def _return_surplus(self, power: str, returned: list[str]) -> None:
        hand = self.powers[power].chits
        surplus = self.surplus(power)
        if surplus != len(returned):
            raise self._refuse(f"{power_name(self.table, power)} holds {len(hand)} chits and returns {len(returned)}: "
                               f"exactly the surplus over {CHIT_LIMIT} goes back to the cup", ("event tiles",),
                               also=("Register R7",) if self.rules.column else (), code="chit-limit")
        for name in returned:
            if name not in hand:
                raise self._refuse(f"{power_name(self.table, power)} returns {name}, which it does not hold", ("event tiles",), code="not-held")
            hand.remove(name)
            self.cup[name] += 1

    # ---- the verbs ----

    def _tile(self, power: str, action: dict, own: bool, discard: bool = False) -> None:
        tile_id = action["discard" if discard else "tile"]
        if self.state.phase > 0:
            raise self._refuse("one Event Tile a turn, at its start", ("event tiles",), code="tile-twice")
        found = self.table.game.tile(tile_id)
        held = self.powers[power].tiles
        if held is not None:
            if found.id not in held:
                raise self._refuse(f"{power_name(self.table, power)} does not hold {found.id}", ("event tiles",), code="not-held")
            held.remove(found.id)
        if discard:
            self._spend("discard")
            self.state.phase = 1
            return
        if self.year not in found.years:
            raise self._refuse(f"{found.id} may not be played face up in {self.year}; it can only be discarded",
                               ("event tiles",), also=("Event Tile Reference",), code="tile-year")
        self._spend("tile")
        drawn = action.get("drawn") or {}
        for other, award in self.tile_awards(found.id).items():
            self.powers[other].money += award.money
            names = list(drawn.get(other, []))
            if len(names) != award.chits:
                raise self._refuse(f"{found.id} awards {power_name(self.table, other)} {award.chits} Action chit{'s' if award.chits != 1 else ''}, "
                                   f"and the record shows {len(names)} drawn", ("event tiles",), code="wrong-draw")
            self._draw(other, names, found.id)
            self._return_surplus(other, list((action.get("returned") or {}).get(other, [])))
        self.state.phase = 1

    def _discard(self, power: str, action: dict, own: bool) -> None:
        self._tile(power, action, own, discard=True)

    def _police(self, power: str, action: dict, own: bool) -> None:
        self._phase("police", "re-arranging police")
        placed = [[int(p["strength"]), p["city"]] for p in action["police"]]
        holding = self.powers[power]
        if Counter(s for s, _ in placed) != Counter(s for s, _ in holding.police):
            raise self._refuse("a re-arrangement moves the police you have, no more and no fewer", ("re-arranging police",), code="police-count")
        faction = next(f for f in self.table.game.info.factions if f.id == power)
        for city, n in Counter(c for _, c in placed).items():
            faults = police_faults(self.table, faction, self._cities[city], n)
            if faults:
                raise self._refuse(f"{faction.name}'s police in {city}: {faults[0].message}", ("re-arranging police",),
                                   also=("Register R9",), code=faults[0].code)
        holding.police = placed

    def _search(self, power: str, action: dict, own: bool) -> None:
        city = action["search"]
        owner, spy = action["spy"].split("/")
        searcher = power_name(self.table, power)
        if own:
            self._phase("search", "searching")
        elif (owner, spy, city) not in self.state.entered:
            raise self._refuse(f"{searcher} searches {city} on another player's turn for {spy}, which has not moved into it: "
                               "only a spy moving into a city with your police can be searched then", ("arriving spies",), code="search-not-moved")
        if owner == power or self.powers[owner].spies.get(spy) != city:
            raise self._refuse(f"there is no enemy spy {spy} of {power_name(self.table, owner)} in {city}", ("searching",), code="no-spy")
        police = self.police_in(power, city)
        if not police:
            raise self._refuse(f"{searcher} has no police in {city}: a search is made where your police stand", ("searching",), code="no-police")
        key = (power, owner, spy)
        if own and key in self.state.searched:
            raise self._refuse(f"{searcher}'s police have searched for {spy} this turn already: once a turn for each enemy spy",
                               ("searching",), code="search-twice")
        if own:
            self.state.searched.add(key)
            if city not in self.state.cities_searched:
                self._spend("search")
                self.state.cities_searched.add(city)
        evade = action.get("evade")
        if evade is not None:
            self._pay_chit(owner, evade, city, on_own_turn=owner == self.turn)
            return
        if sum(police) > self.strength(owner, spy):
            self._capture(owner, spy, captor=power, how="search")

    def _capture(self, owner: str, spy: str, captor: str, how: str, neutral: bool = False) -> None:
        del self.powers[owner].spies[spy]
        self._drop_secrets(("spy", owner, spy))
        if neutral:
            self.captured_neutral.append(f"{owner}/{spy}")
            return
        self.powers[captor].record.append({"year": self.year, "kind": "spy", "name": f"{owner}/{spy}",
                                           "value": self.strength(owner, spy)})

    def _drop_secrets(self, holder: tuple) -> None:
        for secret in self.secrets.values():
            if secret.holder == holder:
                secret.holder = None

    def _move(self, power: str, action: dict, own: bool) -> None:
        self._phase("move", "moving")
        spy, path = action["move"], list(action["path"])
        holding = self.powers[power]
        if spy not in holding.spies:
            raise self._refuse(f"{power_name(self.table, power)} has no spy {spy} on the map", ("moving",), code="no-spy")
        if spy in self.state.moved:
            raise self._refuse(f"{spy} has moved already this turn: you finish one spy's move before you begin another, "
                               "and each spy moves once", ("moving",), code="moved-twice")
        if not path or path[0] != holding.spies[spy]:
            raise self._refuse(f"{spy}'s path must start where it stands, {holding.spies[spy]}", ("moving",), code="path-start")
        net = _network(self.table)
        for a, b in zip(path, path[1:]):
            if not net.graph.has_edge(a, b):
                raise self._refuse(f"{a} to {b} is not one space: no rail line, air line or sea lane joins them", ("moving",), code="path-gap")
        spaces = len(path) - 1
        most = self._map.rules.spaces_per_turn
        if spaces > most:
            raise self._refuse(f"{spy} moves {spaces} spaces; a spy moves at most {most} a turn", ("moving",), code="too-far")
        if not net.may_end_in(path[-1]):
            raise self._refuse(f"{spy} ends its move in {path[-1]}, a sea zone: a move may cross the sea but never end there",
                               ("moving",), code="at-sea")
        self._spend("space", spaces)
        self.state.moved.append(spy)
        holding.spies[spy] = path[-1]
        for place in path[1:]:
            self.state.entered.add((power, spy, place))
        for secret in self.secrets.values():
            if secret.holder == ("spy", power, spy):
                secret.city = path[-1]

    def _transfer(self, power: str, action: dict, own: bool) -> None:
        """While moving, the spy with a secret hands it to another of your spies in the city it has just entered; that
        spy may move on with it if it has not moved yet (Controlling Secrets; 3.7)."""
        self._phase("move", "secrets")
        key, giver, taker = action["transfer"], action.get("from"), action.get("to")
        holding = self.powers[power]
        secret = self.secrets.get(key)
        if secret is None or secret.holder != ("spy", power, giver):
            raise self._refuse(f"{giver} does not control {key}: only the spy on top of a secret hands it on", ("secrets",),
                               code="not-controlled")
        if not self.state.moved or self.state.moved[-1] != giver:
            raise self._refuse(f"{giver} hands {key} on only while moving, by moving into a city where your other spy stands",
                               ("secrets", "moving"), code="transfer-not-moving")
        if taker == giver or taker not in holding.spies or holding.spies[taker] != holding.spies[giver]:
            raise self._refuse(f"no other spy of {power_name(self.table, power)} stands in {holding.spies[giver]} to take {key}",
                               ("secrets",), code="transfer-elsewhere")
        secret.holder = ("spy", power, taker)

    def _is_moving_spy(self, power: str, spy: str) -> bool:
        """A spy may act during movement if it is the one that moved last or has not moved yet."""
        return not self.state.moved or self.state.moved[-1] == spy or spy not in self.state.moved

    def chit_faults(self, power: str, name: str, city: Optional[str], on_own_turn: bool) -> list[IllegalAction]:
        """Every rule a play of chit `name` by `power` in `city` breaks by what it is, where and when (not by what the
        power holds): left out of the cup (and then nothing more), barred in a spy haven, not allowed on this turn.
        The board refuses the first; the position check reports them all."""
        if name not in self.in_cup:
            return [self._refuse(f"{name} is left out of the cup in the {self.rules.label}", ("chit cup",), code="chit-not-in-game")]
        faults = []
        if city is not None and city in self._cities and self.rules.is_barred_in(name, self._cities[city]):
            faults.append(IllegalAction(f"{name} may never be played in {city}, a spy haven, where Discovery, Drop and Sanction "
                                        "are barred", ("5.1",), "haven"))
        allowed = self.rules.on_your_turn(self.table) if on_own_turn else self.rules.on_another_turn
        if name not in allowed:
            topic = "chits on your turn" if on_own_turn else "chits on another's turn"
            whose = "its own" if on_own_turn else f"{power_name(self.table, self.turn)}'s"
            faults.append(self._refuse(f"{power_name(self.table, power)} plays {name} on {whose} turn; "
                                       f"the {self.rules.label} allows {', '.join(allowed)} then", (topic,), code="chit-timing"))
        return faults

    def _pay_chit(self, power: str, name: str, city: Optional[str], on_own_turn: bool) -> None:
        who = power_name(self.table, power)
        faults = self.chit_faults(power, name, city, on_own_turn)
        if faults:
            raise faults[0]
        hand = self.powers[power].chits
        if name not in hand:
            raise self._refuse(f"{who} plays {name}, which it does not hold", ("chits on your turn",), code="not-held")
        cost = int(re.match(r"\d+", str(self._chits[name].cost)).group())  # Drop's "20–30£": the least (Register R12)
        if self.powers[power].money < cost:
            raise self._refuse(f"{who} has {self.powers[power].money}£ and {name} costs {cost}£", ("chits on your turn",), code="money")
        if on_own_turn:
            self._spend_points(self.rules.chit_cost(self._chits[name]))
        self.powers[power].money -= cost
        hand.remove(name)
        self.cup[name] += 1

    def _chit(self, power: str, action: dict, own: bool) -> None:
        name = action["chit"]
        spy = action.get("spy")
        city = self.powers[power].spies.get(spy) if spy else action.get("city")
        if own:
            self._phase("move", "chits on your turn")
            if spy is not None and not self._is_moving_spy(power, spy):
                raise self._refuse(f"{spy} finished its move before another spy began: it cannot act again this turn",
                                   ("moving",), code="moved-twice")
        self._pay_chit(power, name, city, on_own_turn=own)
        if action.get("cover"):
            self._cover(power, name, spy, action, city)
        elif name == "Discovery":
            self._discover(power, spy, action["secret"])
        elif name == "Sanction":
            self._sanction(power, spy, action.get("target"))
        elif name == "Escape" and "returns" in action:
            self._escape(power, action["returns"], own)
        elif name == "Recruit":
            self._recruit(power, spy, action.get("recruit"))

    def _cover(self, power: str, name: str, spy: Optional[str], action: dict, city: Optional[str]) -> None:
        """`cover: true`: the power whose spy the chit is played against answers with a Cover chit, paid for on the
        mover's turn, and the chit does nothing (the pieces' data: Cover's `does`, assumed). A chit is against a spy when
        it is a Sanction aimed at it or a Discovery of a secret it controls."""
        victim = None
        if name == "Sanction":
            self._needs(action.get("target"), "the enemy spy it kills (target: POWER/SPY)", "Sanction")
            owner, target = action["target"].split("/", 1)
            if owner != power and self.powers[owner].spies.get(target) == city:
                victim = owner
        elif name == "Discovery":
            secret = self.secrets.get(action.get("secret"))
            if secret is not None and secret.city == city and secret.holder and secret.holder[0] == "spy" and secret.holder[1] != power:
                victim = secret.holder[1]
        if victim is None:
            raise self._refuse(f"{name} is played against no enemy spy here, so no Cover answers it: Cover cancels a chit played "
                               "against a spy of yours", ("chits on another's turn",), also=("Action Chit Cost Summary",),
                               code="cover-nothing")
        self._pay_chit(victim, "Cover", city, on_own_turn=False)

    def _needs(self, value: Any, what: str, name: str) -> None:
        if value is None:
            raise self._refuse(f"a {name} chit names {what}", ("chits on your turn",), code="chit-incomplete")

    def _sanction(self, power: str, spy: Optional[str], target: Optional[str]) -> None:
        """The chit kills an enemy spy in the sanctioning spy's city (Register R15): it goes to the Sanctioned Spies Box and
        a Sanctioned Spy marker, worth the dead spy's strength, on the sanctioning power's record; in the Long Game a
        Cousin is killed only by an enemy Cousin, and any other spy trying dies instead, the marker going to the Cousin's
        owner (5.2)."""
        self._needs(spy, "the spy playing it (spy:)", "Sanction")
        self._needs(target, "the enemy spy it kills (target: POWER/SPY)", "Sanction")
        owner, victim = target.split("/", 1)
        city = self.powers[power].spies.get(spy)
        if owner == power or self.powers[owner].spies.get(victim) != city:
            raise IllegalAction(f"{spy} is in {city}, and no enemy spy {victim} of {power_name(self.table, owner)} is there: "
                                "a Sanction kills an enemy spy in the same city", ("Register R15",) + self.rules.cite("chits on your turn"),
                                "sanction-elsewhere")
        if self.is_cousin(owner, victim) and not self.is_cousin(power, spy):
            self._kill(power, spy, marker_to=owner)
        else:
            self._kill(owner, victim, marker_to=power)

    def _kill(self, owner: str, spy: str, marker_to: str) -> None:
        if self.markers_left() <= 0:
            raise self._refuse(f"all {markers(self.table, 'sanctioned')} Sanctioned Spy markers are on the records already: "
                               "a Sanction places one, and the sheet has no more", ("chits on your turn",),
                               also=("Playing Piece Roster", "Register R18"), code="no-marker")
        del self.powers[owner].spies[spy]
        self._drop_secrets(("spy", owner, spy))
        self.sanctioned.append(f"{owner}/{spy}")
        self.powers[marker_to].record.append({"year": self.year, "kind": "sanctioned", "name": f"{owner}/{spy}",
                                              "value": self.strength(owner, spy)})

    def _escape(self, power: str, spy: str, own: bool) -> None:
        """3.5: a captured spy returns to play by an Escape chit, on its owner's own turn, at its capital (Register R16);
        the captor's record loses it."""
        if not own:
            raise self._refuse("a captured spy returns on its owner's own turn; on another's, Escape only avoids a search",
                               ("chits on another's turn",), also=("Register R16",), code="chit-timing")
        name = f"{power}/{spy}"
        for holding in self.powers.values():
            entry = next((e for e in holding.record if e["kind"] == "spy" and e["name"] == name), None)
            if entry is not None:
                holding.record.remove(entry)
                break
        else:
            if name not in self.captured_neutral:
                raise self._refuse(f"{spy} is not a captured spy of {power_name(self.table, power)}", ("capture",), code="not-captured")
            self.captured_neutral.remove(name)
        self.powers[power].spies[spy] = self.capital(power)

    def _recruit(self, power: str, spy: Optional[str], recruit: Optional[str]) -> None:
        """The chit brings a spy of yours not yet in play onto the map in the city of the spy playing it (the pieces'
        data: `does`, assumed)."""
        self._needs(spy, "the spy playing it (spy:)", "Recruit")
        self._needs(recruit, "the spy it brings in (recruit:)", "Recruit")
        if recruit not in self.not_in_play(power):
            raise self._refuse(f"{recruit} is not a spy of {power_name(self.table, power)} waiting out of play "
                               "(it is on the map, captured, sanctioned or not on the roster)", ("chits on your turn",),
                               also=("Playing Piece Roster",), code="not-in-reserve")
        self.powers[power].spies[recruit] = self.powers[power].spies[spy]

    def _discover(self, power: str, spy: str, key: str) -> None:
        secret = self.secrets.get(key)
        city = self.powers[power].spies.get(spy)
        if secret is None or secret.city != city:
            raise self._refuse(f"{spy} is not in the city of {key}", ("secrets",), code="no-secret")
        if secret.holder is not None and secret.holder[1] == power:
            raise self._refuse(f"{power_name(self.table, power)} controls {key} already", ("secrets",), code="own-secret")
        if secret.counterspy is not None:
            owner = secret.holder[1] if secret.holder else None
            del self.secrets[key]
            if not self.is_cousin(power, spy) and secret.counterspy > self.strength(power, spy):
                # 3.5: a neutral country's counterspy sends the spy to the neutral box; one in a power's territory, controlled
                # or not, to that power's Time and Victory Record (Register R14)
                territory = self._cities[city].power
                self._capture(power, spy, captor=owner or territory, how="counterspy", neutral=territory is None)
            return
        secret.holder = ("spy", power, spy)

    def _control(self, power: str, action: dict, own: bool) -> None:
        key = action["control"]
        secret = self.secrets.get(key)
        if secret is None:
            raise self._refuse(f"{key} is not on the map", ("secrets",), code="no-secret")
        if "spy" in action:
            holder, city = ("spy", power, action["spy"]), self.powers[power].spies.get(action["spy"])
        else:
            at = next((i for i, (s, c) in enumerate(self.powers[power].police) if s == action.get("strength") and c == secret.city), None)
            holder, city = ("police", power, at), secret.city if at is not None else None
        if city != secret.city:
            raise self._refuse(f"the piece is not in {secret.city}, where {key} lies", ("secrets",), code="control-elsewhere")
        home = self._cities[secret.city].power == power
        if secret.home != power or not home or (secret.holder is not None and secret.holder[1] != power):
            raise self._refuse(f"{key} is not {power_name(self.table, power)}'s own original secret at home and free of enemies: "
                               "take it with a Discovery chit", ("secrets",), code="discovery-needed")
        secret.holder = holder

    def _cash_in(self, power: str, action: dict, own: bool) -> None:
        key = action["cash-in"]
        secret = self.secrets.get(key)
        who = power_name(self.table, power)
        if secret is None or secret.holder is None or secret.holder[:2] != ("spy", power):
            raise self._refuse(f"{who}'s spies do not control {key}: only a spy controlling a secret cashes it in "
                               "(police guard secrets, never carry them)", ("secrets",), code="not-controlled")
        if secret.home == power:
            raise self._refuse(f"{key} is one of {who}'s original secrets: only foreign secrets are cashed in during the game",
                               ("secrets",), code="original")
        if secret.city != self.capital(power):
            raise self._refuse(f"{key} is in {secret.city}, not {who}'s capital", ("secrets",), code="not-at-capital")
        del self.secrets[key]
        holding = self.powers[power]
        holding.money += CASH_IN_MONEY
        holding.record.append({"year": self.year, "kind": "secret", "name": key, "value": self._values.get(key, 0)})
        drawn = list(action.get("drawn") or [])
        if len(drawn) != CASH_IN_CHITS:
            raise self._refuse(f"cashing in draws {CASH_IN_CHITS} Action chit, and the record shows {len(drawn)}", ("secrets",), code="wrong-draw")
        self._draw(power, drawn, f"cashing in {key}")
        self._return_surplus(power, list(action.get("returned") or []))

    def _talk(self, power: str, action: dict, own: bool) -> None:
        if not own:
            raise self._refuse("talks are opened only on your own turn; on another's you answer them", ("responding",), code="talk-timing")
        new = [p for p in action["talk"] if p not in self.state.talks]
        self._spend("talk", len(new))
        self.state.talks.update(new)

    def trade_faults(self, power: str, partner: str, goods: set[str]) -> list[IllegalAction]:
        """Every rule a trade of `goods` between `power` and `partner` breaks now: talks happen between the power whose
        turn it is and an opponent it has opened them with (Initiating / Responding to Diplomacy; 3.9, 4.3); Event Tiles
        never change hands; one player running two powers passes no chits, money or secrets between them (Playing the
        Game with Fewer Than Five Players)."""
        who, other = power_name(self.table, power), power_name(self.table, partner)
        faults = []
        if self.turn not in (power, partner):
            faults.append(self._refuse(f"{who} and {other} trade on {power_name(self.table, self.turn)}'s turn: talks are opened "
                                       "only by the power whose turn it is, and answered by the opponent it opens them with",
                                       ("diplomacy", "responding"), code="talks-not-open"))
        else:
            opener, answer = (power, partner) if power == self.turn else (partner, power)
            if answer not in self.state.talks:
                faults.append(self._refuse(f"{power_name(self.table, opener)} has not opened talks with {power_name(self.table, answer)} "
                                           "this turn: you trade in talks the power whose turn it is opens, never opening them on "
                                           "another's turn", ("diplomacy", "responding"), code="talks-not-open"))
        if "tiles" in goods:
            faults.append(self._refuse("Event Tiles may never be exchanged", ("diplomacy",), code="tiles-never"))
        passed = sorted(goods & {"chits", "money", "secrets"}, key=GOODS.index)
        if passed and self.is_same_player(power, partner):
            faults.append(self._refuse(f"one player runs {who} and {other} and may not pass {' or '.join(passed)} between them",
                                       ("fewer players",), also=self.rules.standard_too("fewer players", "Register R2"),
                                       code="same-player"))
        return faults

    def _trade(self, power: str, action: dict, own: bool) -> None:
        """Goods change hands in talks: `give` from the power acting to its partner (`trade: PARTNER`), `take` the other
        way; money and chits from purse and hand, a secret passing from the giver's spy to a spy of the taker's in the
        same city (Register R19); a concession is words and changes nothing on the board."""
        partner = action["trade"]
        if partner == power or partner not in self.powers:
            raise self._refuse(f"{power_name(self.table, power)} trades with itself", ("diplomacy",), code="trade-partner")
        give, take = action.get("give") or {}, action.get("take") or {}
        goods = {k for k in GOODS if give.get(k) or take.get(k)}
        faults = self.trade_faults(power, partner, goods)
        if faults:
            raise faults[0]
        for src, dst, parcel in ((power, partner, give), (partner, power, take)):
            self._hand_over(src, dst, parcel)
        for side in (power, partner):
            if len(self.powers[side].chits) > CHIT_LIMIT:
                raise self._refuse(f"{power_name(self.table, side)} would hold {len(self.powers[side].chits)} Action chits: "
                                   f"no one holds more than {CHIT_LIMIT}", ("event tiles",), code="chit-limit")

    def _hand_over(self, src: str, dst: str, parcel: dict) -> None:
        giver, taker = self.powers[src], self.powers[dst]
        who = power_name(self.table, src)
        money = int(parcel.get("money") or 0)
        if money < 0 or giver.money < money:
            raise self._refuse(f"{who} has {giver.money}£ and gives {money}£", ("diplomacy",), code="money")
        giver.money -= money
        taker.money += money
        for name in parcel.get("chits") or []:
            if name not in giver.chits:
                raise self._refuse(f"{who} gives {name}, which it does not hold", ("diplomacy",), code="not-held")
            giver.chits.remove(name)
            taker.chits.append(name)
        for key in parcel.get("secrets") or []:
            secret = self.secrets.get(key)
            if secret is None or secret.holder is None or secret.holder[:2] != ("spy", src):
                raise self._refuse(f"{who}'s spies do not control {key}", ("secrets",), code="not-controlled")
            spy = next((name for name, at in sorted(taker.spies.items()) if at == secret.city), None)
            if spy is None:
                raise self._refuse(f"{power_name(self.table, dst)} has no spy in {secret.city} to take {key} on: a secret is "
                                   "controlled by the piece on top of it", ("secrets",), also=("Register R19",), code="secret-no-taker")
            secret.holder = ("spy", dst, spy)

    def _end(self, power: str, action: dict, own: bool) -> None:
        if self.state.phase == 0:
            raise self._refuse("the turn ends only after its Event Tile has been played or discarded", ("event tiles",), code="tile-first")
        years = self.table.game.info.years
        if power == LAST_TURN_POWER:
            if self.year == years[-1]:
                self._final_count()
                self.over = True
                return
            self.year += 1
        self.turn = self._order[(self._order.index(power) + 1) % len(self._order)]
        self.state = TurnState()

    def _final_count(self) -> None:
        """End of Britain's 1939 turn: each power's original secrets at home, not enemy-held, go in its 1939 column."""
        for key, secret in list(self.secrets.items()):
            if secret.counterspy is not None or secret.home is None:
                continue
            enemy = secret.holder is not None and secret.holder[1] != secret.home
            held = secret.holder is not None and secret.holder[1] == secret.home
            if self._cities[secret.city].power == secret.home and not enemy and (held or not self.rules.final_needs_control):
                self.powers[secret.home].record.append({"year": self.year, "kind": "secret", "name": key,
                                                        "value": self._values.get(key, 0)})
                del self.secrets[key]

    def secret_placement_faults(self, power: str, cities: list[str]) -> list[IllegalAction]:
        """Every rule a set-up placement of `power`'s drawn secrets breaks: face down, one a city, in its own territory
        (Drawing and Deploying Secrets; 2.4)."""
        who = power_name(self.table, power)
        faults = []
        for city, n in Counter(cities).items():
            if self._cities[city].power != power:
                owner = power_name(self.table, self._cities[city].power)
                faults.append(self._refuse(f"{city} is {owner}'s, not in {who}'s territory: your secrets go in your own cities",
                                           ("deploying secrets",), code="secret-abroad"))
            if n > 1:
                faults.append(self._refuse(f"{n} of {who}'s secrets in {city}: one a city", ("deploying secrets",), code="secret-doubled"))
        return faults

    # ---- the position, as the position file writes it ----

    def to_position(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"variant": self.rules.name, "year": self.year, "turn": self.turn, "powers": {}, "secrets": {}}
        for power, h in self.powers.items():
            entry: dict[str, Any] = {"money": h.money, "chits": sorted(h.chits)}
            if h.tiles is not None:
                entry["tiles"] = list(h.tiles)
            spies = {}
            for name, city in h.spies.items():
                held = next((k for k, s in self.secrets.items() if s.holder == ("spy", power, name)), None)
                spies[name] = {"city": city, "controls": held} if held else city
            entry["spies"] = spies
            entry["police"] = [{"strength": s, "city": c} for s, c in h.police]
            if h.record:
                entry["record"] = [dict(e) for e in h.record]
            doc["powers"][power] = entry
        for key, s in self.secrets.items():
            doc["secrets"][key] = {"city": s.city, "counterspy": s.counterspy} if s.counterspy is not None else s.city
        doc["cup"] = {n: c for n, c in sorted(self.cup.items()) if c}
        if self.captured_neutral:
            doc["neutral_box"] = list(self.captured_neutral)
        if self.sanctioned:
            doc["sanctioned_box"] = list(self.sanctioned)
        if self.players is not None:
            doc["players"] = self.players
        if self.over:
            doc["over"] = True
        return doc


VERBS = ("tile", "discard", "police", "search", "move", "transfer", "chit", "control", "cash-in", "talk", "trade", "end")
GOODS = ("money", "chits", "secrets", "tiles", "concessions")  # what a trade may name; tiles are always refused
_NETWORKS: dict = {}


def _network(table: Table):
    from generators.referee import network

    key = id(table.game)
    if key not in _NETWORKS:
        _NETWORKS[key] = network.Network(game_map(table), table.game.aliases)
    return _NETWORKS[key]


def cup_for(table: Table, hands: list[list[str]]) -> Counter:
    """The chits left in the cup: every chit the variant plays with, less those in hand."""
    rules = rules_for(table)
    cup = Counter({p.name: p.count for p in pieces(table, "chit") if p.name not in rules.chits_left_out})
    cup.subtract(Counter(n for hand in hands for n in hand))
    return cup


__all__ = ["Board", "Holding", "IllegalAction", "LongRules", "SecretOnMap", "StandardRules", "VERBS", "POLICE_PER_CITY", "cup_for"]


# ---- small positions for the questions -------------------------------------------------------------------------

@dataclass(frozen=True)
class SearchSetting:
    """The situation a `search` question describes, as a position: the searcher's police in one of its cities,
    an enemy spy there, whose turn it is, and what has happened in the turn so far."""

    police: tuple[int, ...]
    spy: int
    own_turn: bool = True
    searched: bool = False
    moved: bool = True
    evade: Optional[str] = None


def search_outcome(table: Table, setting: SearchSetting) -> str:
    """What the board says of the search: "captured", "no effect", "evaded", or the code of the rule refusing it."""
    board, action = search_board(table, setting)
    try:
        board.push(action)
    except IllegalAction as exc:
        return exc.code
    owner, spy = action["spy"].split("/")
    if setting.evade is not None:
        return "evaded"
    return "no effect" if spy in board.powers[owner].spies else "captured"


def search_board(table: Table, setting: SearchSetting) -> tuple[Board, dict]:
    """The smallest position holding the situation, and the search to push on it."""
    order = [f.id for f in table.game.info.factions]
    roster: dict[str, Counter] = {}
    for piece in pieces(table, "police"):
        roster.setdefault(piece.nation, Counter())[piece.strength] += piece.count
    searcher = next(p for p in order if Counter(setting.police) <= roster.get(p, Counter()))
    owner, spy = next((p.nation, p.name) for p in pieces(table, "spy") if p.nation != searcher and p.strength == setting.spy)
    city = next(c.name for c in game_map(table).cities if c.power == searcher and c.capital)
    holdings = {p: Holding(money=100) for p in order}
    holdings[searcher].police = [[s, city] for s in setting.police]
    holdings[owner].spies[spy] = city
    if setting.evade is not None:
        holdings[owner].chits.append(setting.evade)
    board = Board(table, table.game.info.years[0], searcher if setting.own_turn else owner, holdings, {},
                  cup_for(table, [h.chits for h in holdings.values()]))
    board.state.phase = PHASES.index("police")
    if setting.searched:
        board.state.searched.add((searcher, owner, spy))
    if not setting.own_turn and setting.moved:
        board.state.entered.add((owner, spy, city))
    action = {"power": searcher, "search": city, "spy": f"{owner}/{spy}"}
    if setting.evade is not None:
        action["evade"] = setting.evade
    return board, action


def refusal(board: Board, action: dict) -> Optional[IllegalAction]:
    """Why the board refuses `action` (None: it is legal); the board is left as it was."""
    try:
        board.copy().push(action)
    except IllegalAction as exc:
        return exc
    return None


def small_board(table: Table, turn: Optional[str] = None, phase: str = "move") -> Board:
    """A position with nothing on the map: every power with 100£ and no chits, the first year, `turn` to move
    (the first power by default), the turn already at `phase`."""
    order = [f.id for f in table.game.info.factions]
    holdings = {p: Holding(money=100) for p in order}
    board = Board(table, table.game.info.years[0], turn or order[0], holdings, {}, cup_for(table, []))
    board.state.phase = PHASES.index(phase)
    return board


def _spy_of(table: Table, power: str, strength: Optional[int] = None) -> str:
    return next(p.name for p in pieces(table, "spy") if p.nation == power and (strength is None or p.strength == strength))


def _abroad(table: Table, power: str) -> str:
    """A city outside `power`'s territory that is no spy haven: another power's capital."""
    return next(c.name for c in game_map(table).cities if c.capital and c.power not in (power, None))


def chit_board(table: Table, name: str, own_turn: bool, city: Optional[str] = None) -> tuple[Board, dict]:
    """The first power's spy in `city` (abroad by default) with the chit in hand, on its own turn or the next power's;
    for Discovery a secret lies there to discover."""
    order = [f.id for f in table.game.info.factions]
    power = order[0]
    board = small_board(table, turn=power if own_turn else order[1])
    city = city or _abroad(table, power)
    spy = _spy_of(table, power)
    board.powers[power].spies[spy] = city
    board.powers[power].chits.append(name)
    board.cup[name] -= 1
    action = {"power": power, "chit": name, "spy": spy}
    if name == "Sanction":
        enemy = _spy_of(table, order[1])
        board.powers[order[1]].spies[enemy] = city
        action["target"] = f"{order[1]}/{enemy}"
    if name == "Recruit":
        action["recruit"] = next(p.name for p in pieces(table, "spy") if p.nation == power and p.name != spy)
    if name == "Discovery":
        key = pieces(table, "secret")[0].name
        board.secrets[key] = SecretOnMap(city, home=game_map(table).city(city).power)
        action["secret"] = key
    return board, action


def counterspy_board(table: Table, counterspy: int, spy_strength: int, neutral: bool) -> tuple[Board, dict]:
    """A spy of the given strength discovering a counterspy in a neutral city or in its owner's territory (uncontrolled)."""
    order = [f.id for f in table.game.info.factions]
    power = next(p.nation for p in pieces(table, "spy") if p.strength == spy_strength)
    board = small_board(table, turn=power)
    cities = game_map(table).cities
    city = next(c.name for c in cities if (c.power is None) == neutral and c.power != power and not board.rules.is_haven(c))
    spy = _spy_of(table, power, spy_strength)
    board.powers[power].spies[spy] = city
    board.powers[power].chits.append("Discovery")
    board.cup["Discovery"] -= 1
    board.secrets["counterspy"] = SecretOnMap(city, counterspy=counterspy, home=game_map(table).city(city).power)
    return board, {"power": power, "chit": "Discovery", "spy": spy, "secret": "counterspy"}


def secret_board(table: Table, original: bool, at_home: bool, enemy: bool = False, at_capital: bool = True,
                 held: bool = False) -> tuple[Board, dict]:
    """The first power with one spy in a city and a secret there: one of its own (original) or another power's,
    in its home territory (its capital, or another home city) or abroad, held by its spy (`held`), by an enemy spy,
    or free. Returns the board and the power's spy and the secret's key, as an action's fields."""
    order = [f.id for f in table.game.info.factions]
    power, enemy_power = order[0], order[1]
    board = small_board(table, turn=power)
    cities = game_map(table).cities
    if at_home:
        city = next(c.name for c in cities if c.power == power and c.capital == at_capital)
    else:
        city = _abroad(table, power)
    key = pieces(table, "secret")[0].name
    board.secrets[key] = SecretOnMap(city, home=power if original else enemy_power)
    spy = _spy_of(table, power)
    board.powers[power].spies[spy] = city
    if held:
        board.secrets[key].holder = ("spy", power, spy)
    if enemy:
        enemy_spy = _spy_of(table, enemy_power)
        board.powers[enemy_power].spies[enemy_spy] = city
        board.secrets[key].holder = ("spy", enemy_power, enemy_spy)
    return board, {"power": power, "spy": spy, "secret": key}


def spies_board(table: Table, placed: dict[str, list[str]], phase: str = "tile") -> Board:
    """A position with each power's spies in the cities named, one spy a city, taken from its roster in order."""
    board = small_board(table, phase=phase)
    for power, cities in placed.items():
        roster = [p.name for p in pieces(table, "spy") if p.nation == power]
        if len(cities) > len(roster):
            raise QuestionError(f"--spy: {power_name(table, power)} has {len(roster)} spies, and {len(cities)} cities are named for it")
        board.powers[power].spies.update(zip(roster, cities))
    return board


def hand_board(table: Table, holding: int) -> Board:
    """The first power holding `holding` chits, taken from the cup, the most plentiful first."""
    board = small_board(table)
    power = board._order[0]
    for _ in range(holding):
        name = max(board.in_cup, key=lambda n: board.cup[n])
        board.cup[name] -= 1
        board.powers[power].chits.append(name)
    return board


def turn_board(table: Table, after: str, year: int) -> tuple[Board, dict]:
    """`after` to move in `year`, its tile played, and the end of its turn to push."""
    board = small_board(table, turn=after, phase="police")
    board.year = year
    return board, {"power": after, "end": "turn"}


def final_board(table: Table, points: dict[str, int], money: dict[str, int], players: Optional[int]) -> Board:
    """The game over with each power named holding its Victory Points (one entry in a year counted once) and its money;
    only the powers named are on the board."""
    order = [f.id for f in table.game.info.factions]
    holdings = {p: Holding(money=money.get(p, 0)) for p in order if p in points}
    board = Board(table, table.game.info.years[-1], order[-1], holdings, {}, cup_for(table, []), players=players)
    once = next(y for y in table.game.info.years if board.multiple(y) == 1)
    for power, n in points.items():
        holdings[power].record.append({"year": once, "kind": "secret", "name": "Victory Points", "value": n})
    board.over = True
    return board


def trade_board(table: Table, goods: str, own_turn: bool, opens: bool, same_player: bool) -> tuple[Board, list[dict]]:
    """The first power trading `goods` with the second (run by one player when `same_player`), on its own turn or the
    second's; the talks opened by the trader, or by the partner whose turn it is. Returns the board and the actions to
    push in order: the opening of talks where the trader opens them, then the trade."""
    order = [f.id for f in table.game.info.factions]
    trader, partner = order[0], order[1]
    players = None
    if same_player:
        players = next(n for n in range(len(order) - 1, FEWEST_PLAYERS - 1, -1)
                       if any({trader, partner} <= set(seat) for seat in seats_for(table, n)))
    board = small_board(table, turn=trader if own_turn else partner)
    board.players = players
    holding = board.powers[trader]
    parcel: dict[str, Any] = {}
    if goods == "money":
        parcel["money"] = 10
    elif goods == "chits":
        name = board.in_cup[0]
        holding.chits.append(name)
        board.cup[name] -= 1
        parcel["chits"] = [name]
    elif goods == "secrets":
        city = _abroad(table, trader)
        key = pieces(table, "secret")[0].name
        spy, taker = _spy_of(table, trader), _spy_of(table, partner)
        holding.spies[spy] = city
        board.powers[partner].spies[taker] = city
        board.secrets[key] = SecretOnMap(city, holder=("spy", trader, spy), home=game_map(table).city(city).power)
        parcel["secrets"] = [key]
    elif goods == "tiles":
        tile = next(t.id for t in table.game.tiles if t.nation == trader)
        holding.tiles = [tile]
        parcel["tiles"] = [tile]
    else:
        parcel["concessions"] = "a promise"
    actions = []
    if own_turn or opens:
        actions.append({"power": trader, "talk": [partner]})
    else:
        board.push({"power": partner, "talk": [trader]})
    actions.append({"power": trader, "trade": partner, "give": parcel})
    return board, actions
