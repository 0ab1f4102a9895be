"""A Spies! game record read into a Board and replayed action by action (`dossier referee game FILE`).

The record (docs/game-records.md shows a whole round):

    variant: standard
    start:                    # a position, as `dossier referee position` reads it, with the year and whose turn
      year: 1933
      turn: germany
      powers: {...}
      secrets: {...}
    actions:                  # in order; each names its power and one verb (see board.py)
      - {power: germany, tile: "Ge 3", drawn: {germany: [Papers]}}
      - {power: germany, move: Kurt, path: [Berlin, Prague]}
      - {power: germany, end: turn}

Names are looked up as the position check looks them up (any case, aliases); a name the game does
not have, or an action without a power or a verb, is refused naming its line (exit 2). A legal
action that the rules refuse ends the replay there (exit 1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from generators.referee import DataError, Illegal, Position, Replay, Table, UnknownNameError, network

from .board import GOODS, VERBS, Board, Holding, IllegalAction, SecretOnMap, cup_for
from .position import SpiesPosition, _read
from .rules import chit_index, find_power, game_map, pieces, spies_of


def board_from(table: Table, start: Position) -> Board:
    """The board a position describes; a position without a year or a turn starts in the first year, the first power to move."""
    found = start.parse(SpiesPosition)
    read = _read(table, start, found)
    order = [f.id for f in table.game.info.factions]
    holdings = {p: Holding() for p in order}
    for power, (_, entry) in read.holdings.items():
        h = holdings[power]
        h.money = entry.money or 0
        h.chits = list(read.hands.get(power, []))
        h.tiles = [table.game.tile(t).id for t in entry.tiles] if entry.tiles is not None else None
        h.record = [e.model_dump() for e in entry.record]
    secrets: dict[str, SecretOnMap] = {}
    cities = {c.name: c for c in game_map(table).cities}
    for key, s in read.secrets.items():
        written = found.secrets[key].home
        home = find_power(table, written).id if written else (cities[s.place].power if s.place in cities else None)
        secrets[s.name or key] = SecretOnMap(s.place, s.counterspy, None, home)
    by_key = {key: (s.name or key) for key, s in read.secrets.items()}
    police_index: dict[str, int] = {}
    for piece in read.pieces:
        h = holdings[piece.power]
        if piece.kind == "spy":
            name = piece.name
            h.spies[name] = piece.place
            holder = ("spy", piece.power, name)
        else:
            h.police.append([piece.strength, piece.place])
            index = police_index[piece.power] = police_index.get(piece.power, -1) + 1
            holder = ("police", piece.power, index)
        if piece.controls is not None:
            secrets[by_key[piece.controls]].holder = holder
    if found.cup is not None:
        cup = Counter({chit_index(table).resolve(k): v for k, v in found.cup.items()})
    else:
        cup = cup_for(table, [h.chits for h in holdings.values()])
    year = found.year if found.year is not None else table.game.info.years[0]
    board = Board(table, year, read.turn or order[0], holdings, secrets, cup, players=found.players)
    board.captured_neutral = list(found.neutral_box)
    board.sanctioned = list(found.sanctioned_box)
    return board


class _Names:
    """An action's names looked up, each unknown one refused with its line."""

    def __init__(self, table: Table, record: Position):
        self.table, self.record = table, record
        self.places = network.place_index(game_map(table), table.game.aliases)
        self.chits = chit_index(table)

    def fail(self, where: tuple, message: str) -> DataError:
        return DataError([self.record.problem(where, message, "unknown-name")])

    def look(self, find, name: Any, where: tuple):
        if not isinstance(name, (str, int)) or isinstance(name, bool):
            raise DataError([self.record.problem(where, f"expected a name, got {name!r}")])
        try:
            return find(str(name))
        except UnknownNameError as exc:
            raise self.fail(where, str(exc)) from None

    def power(self, name: Any, where: tuple) -> str:
        return self.look(lambda n: find_power(self.table, n).id, name, where)

    def spy(self, power: str, name: Any, where: tuple) -> str:
        from generators.referee import NameIndex

        index = NameIndex("spy", [p.name for p in spies_of(self.table, power)])
        return self.look(index.resolve, name, where)

    def goods(self, raw: Any, owner: str, where: tuple) -> dict[str, Any]:
        """What one side of a trade hands over: money (£), chits and secrets by name, tiles by id, concessions in words."""
        if not isinstance(raw, dict):
            raise DataError([self.record.problem(where, f"list what changes hands under {', '.join(GOODS)}")])
        unknown = sorted(set(raw) - set(GOODS))
        if unknown:
            raise DataError([self.record.problem((*where, unknown[0]), f"unknown goods {unknown[0]!r}: a trade hands over {', '.join(GOODS)}")])
        found: dict[str, Any] = {}
        if "money" in raw:
            if not isinstance(raw["money"], int) or isinstance(raw["money"], bool) or raw["money"] < 0:
                raise DataError([self.record.problem((*where, "money"), "money is a whole number of £, not below 0")])
            found["money"] = raw["money"]
        for key, find in (("chits", self.chits.resolve), ("secrets", self.secret), ("tiles", lambda t: self.table.game.tile(t).id)):
            if key in raw:
                if not isinstance(raw[key], list):
                    raise DataError([self.record.problem((*where, key), f"{key} is a list of names")])
                found[key] = [self.look(find, v, (*where, key, i)) for i, v in enumerate(raw[key])]
        if "concessions" in raw:
            found["concessions"] = str(raw["concessions"])
        return found

    def secret(self, name: str) -> str:
        from generators.referee import NameIndex

        return NameIndex("secret", [p.name for p in pieces(self.table, "secret")]).resolve(name)

    def action(self, raw: Any, where: tuple) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise DataError([self.record.problem(where, "an action is a mapping: its power and one verb")])
        verbs = [v for v in VERBS if v in raw]
        if "power" not in raw or len(verbs) != 1:
            raise DataError([self.record.problem(where, f"an action names its power and exactly one of {', '.join(VERBS)}")])
        act = dict(raw)
        act["power"] = power = self.power(raw["power"], (*where, "power"))
        place = lambda v, k: self.look(self.places.resolve, v, (*where, k))  # noqa: E731
        verb = verbs[0]
        if verb == "move":
            act["move"] = self.spy(power, raw["move"], (*where, "move"))
            path = raw.get("path")
            if not isinstance(path, list):
                raise DataError([self.record.problem(where, "a move lists its path: every place the spy enters, from where it stands")])
            act["path"] = [self.look(self.places.resolve, p, (*where, "path", i)) for i, p in enumerate(path)]
        elif verb == "search":
            act["search"] = place(raw["search"], "search")
            owner, slash, spy = str(raw.get("spy", "")).partition("/")
            if not slash:
                raise DataError([self.record.problem((*where, "spy"), "name the spy searched for as POWER/SPY, e.g. france/Jean")])
            owner = self.power(owner, (*where, "spy"))
            act["spy"] = f"{owner}/{self.spy(owner, spy, (*where, 'spy'))}"
            if "evade" in raw:
                act["evade"] = self.look(self.chits.resolve, raw["evade"], (*where, "evade"))
        elif verb == "police":
            if not isinstance(raw["police"], list) or not all(isinstance(p, dict) for p in raw["police"]):
                raise DataError([self.record.problem((*where, "police"), "list every police piece as {strength: N, city: CITY}")])
            if not all(isinstance(p.get("strength"), int) and not isinstance(p.get("strength"), bool) for p in raw["police"]):
                raise DataError([self.record.problem((*where, "police"), "each police piece's strength is a whole number")])
            act["police"] = [{"strength": p["strength"], "city": place(p.get("city"), "police")} for p in raw["police"]]
        elif verb == "chit":
            act["chit"] = self.look(self.chits.resolve, raw["chit"], (*where, "chit"))
            if "spy" in raw:
                act["spy"] = self.spy(power, raw["spy"], (*where, "spy"))
            if "city" in raw:
                act["city"] = place(raw["city"], "city")
            if "target" in raw:
                owner, slash, spy = str(raw["target"]).partition("/")
                if not slash:
                    raise DataError([self.record.problem((*where, "target"), "name the spy a Sanction kills as POWER/SPY, e.g. france/Jean")])
                owner = self.power(owner, (*where, "target"))
                act["target"] = f"{owner}/{self.spy(owner, spy, (*where, 'target'))}"
            if "cover" in raw and not isinstance(raw["cover"], bool):
                raise DataError([self.record.problem((*where, "cover"), "cover is true (the spy's owner answers with Cover) or false")])
            for key in ("returns", "recruit"):
                if key in raw:
                    act[key] = self.spy(power, raw[key], (*where, key))
        elif verb == "transfer":
            for key in ("from", "to"):
                if key not in raw:
                    raise DataError([self.record.problem(where, "a transfer names the spy handing the secret on (from:) and the one taking it (to:)")])
                act[key] = self.spy(power, raw[key], (*where, key))
        elif verb == "control" and "spy" in raw:
            act["spy"] = self.spy(power, raw["spy"], (*where, "spy"))
        elif verb == "talk":
            act["talk"] = [self.power(p, (*where, "talk", i)) for i, p in enumerate(raw["talk"] or [])]
        elif verb == "trade":
            act["trade"] = partner = self.power(raw["trade"], (*where, "trade"))
            for side, owner in (("give", power), ("take", partner)):
                if side in raw:
                    act[side] = self.goods(raw[side], owner, (*where, side))
        if isinstance(raw.get("drawn"), dict):
            act["drawn"] = {self.power(p, (*where, "drawn", p)): [self.look(self.chits.resolve, c, (*where, "drawn", p)) for c in cs]
                            for p, cs in raw["drawn"].items()}
        elif isinstance(raw.get("drawn"), list):
            act["drawn"] = [self.look(self.chits.resolve, c, (*where, "drawn")) for c in raw["drawn"]]
        return act


def replay_game(table: Table, record: Position, until: int | None) -> Replay:
    """Replay the record's actions on the board from its start; stop at the first illegal one, or after action `until`."""
    data = record.data
    if "start" not in data or not isinstance(data["start"], dict):
        raise DataError([record.problem(("start",), "a game record opens with its starting position under start:")])
    extra = sorted(set(data) - {"start", "actions"})
    if extra:
        raise DataError([record.problem((extra[0],), f"unknown key {extra[0]!r}: a record holds start and actions")])
    actions = data.get("actions") or []
    if not isinstance(actions, list):
        raise DataError([record.problem(("actions",), "actions is a list, one action after another")])
    start = Position(record.file, data["start"], {k[1:]: v for k, v in record.lines.items() if k[:1] == ("start",)})
    board = board_from(table, start)
    names = _Names(table, record)
    parsed = [names.action(raw, ("actions", i)) for i, raw in enumerate(actions)]
    if until is not None and until > len(parsed):
        raise DataError([record.problem(("actions",), f"--until {until}: the record has {len(parsed)} actions")])
    played = 0
    for i, action in enumerate(parsed[:until] if until is not None else parsed):
        try:
            board.push(action)
        except IllegalAction as exc:
            bad = Illegal(i + 1, record.line(("actions", i)), exc.message, exc.rules, exc.code, board.to_position())
            return Replay(played, board.to_position(), board.score(), bad)
        played += 1
    end = board.outcome()
    return Replay(played, board.to_position(), board.score(), winners=end.winners if end else None)
