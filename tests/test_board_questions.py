"""A question's answer equals the board's on the same position: random legal Spies! positions are drawn,
the board plays the action on them, and the question is asked with the flags that describe the position."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generators.referee.game_code import ask, load_referee
from generators.referee.rulings import Table
from generators.referee.variants import choose

GAME = choose(None).game
REFEREE = load_referee(GAME)
FACTIONS = [f.id for f in GAME.info.factions]


def board_module():
    """The game's own board module, imported beside its referee (a package made of the game's folder)."""
    import importlib
    import sys

    referee = next(m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == str(REFEREE.file))
    return importlib.import_module(referee.__name__.rsplit(".", 1)[0] + ".board")


def question(asked: str, table: Table, **values):
    return ask(REFEREE, REFEREE.questions[asked], table, values)


def police_roster(power: str) -> list[int]:
    return sorted(p.strength for p in GAME.pieces if p.kind == "police" and p.nation == power for _ in range(p.count))


@st.composite
def searches(draw):
    """A random legal position with a search in it: a power's one or two police in one of its cities coded for
    police, an enemy spy there, whose turn it is, the variant."""
    variant = draw(st.sampled_from(GAME.info.variants))
    searcher = draw(st.sampled_from(FACTIONS))
    strengths = police_roster(searcher)
    count = draw(st.integers(1, 2))
    chosen = draw(st.permutations(strengths))[:count]
    cities = [c.name for c in GAME.map.cities if c.power == searcher and (c.capital or c.has_mark("police"))]
    city = draw(st.sampled_from(cities))
    owner = draw(st.sampled_from([p for p in FACTIONS if p != searcher]))
    spy = draw(st.sampled_from([p for p in GAME.pieces if p.kind == "spy" and p.nation == owner]))
    own_turn = draw(st.booleans())
    return variant, searcher, list(chosen), city, owner, spy, own_turn


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_the_search_question_answers_as_the_board_plays_the_search(case):
    variant, searcher, police, city, owner, spy, own_turn = case
    board = board_module()
    table = Table(GAME, variant)
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    holdings[searcher].police = [[s, city] for s in police]
    holdings[owner].spies[spy.name] = city
    played = board.Board(table, 1933, searcher if own_turn else owner, holdings, {}, board.cup_for(table, []))
    played.state.phase = 1
    if not own_turn:
        played.state.entered.add((owner, spy.name, city))
    played.push({"power": searcher, "search": city, "spy": f"{owner}/{spy.name}"})
    captured = spy.name not in played.powers[owner].spies
    ruling = question("search", table, police=police, spy=spy.strength, when=_when(own_turn))
    assert ruling.verdict.value == ("captured" if captured else "no effect")
    if captured:
        assert played.powers[searcher].record[-1]["value"] == spy.strength


@st.composite
def placements(draw):
    power = draw(st.sampled_from(FACTIONS))
    city = draw(st.sampled_from([c for c in GAME.map.cities]))
    count = draw(st.integers(1, min(3, len(police_roster(power)))))
    return power, city, count


@settings(max_examples=60, deadline=None)
@given(placements())
def test_the_police_question_answers_as_the_board_re_arranges_police(case):
    power, city, count = case
    board = board_module()
    table = Table(GAME, "standard")
    strengths = police_roster(power)
    capital = next(c.name for c in GAME.map.cities if c.power == power and c.capital)
    others = [c.name for c in GAME.map.cities if c.power == power and c.has_mark("police") and c.name not in (city.name, capital)]
    placed = [{"strength": s, "city": city.name} for s in strengths[:count]]
    rest = strengths[count:]
    homes = [capital, *others] if city.name != capital else others
    placed += [{"strength": s, "city": homes[i // 2]} for i, s in enumerate(rest)]
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    holdings[power].police = [[s, capital] for s in strengths]
    played = board.Board(table, 1933, power, holdings, {}, board.cup_for(table, []))
    played.state.phase = 1
    ruling = question("police", table, power=power, city=city.name, count=count)
    assert played.is_legal({"power": power, "police": placed}) == ruling.allowed


@pytest.mark.parametrize("origin", ["original", "foreign"])
@pytest.mark.parametrize("at_capital", [True, False])
def test_the_cash_in_question_answers_as_the_board_cashes_in(origin, at_capital):
    board = board_module()
    table = Table(GAME, "standard")
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    city = "Berlin" if at_capital else "Hamburg"
    holdings["germany"].spies["Kurt"] = city
    secret = board.SecretOnMap(city, None, ("spy", "germany", "Kurt"), "germany" if origin == "original" else "france")
    played = board.Board(table, 1933, "germany", holdings, {"Atomic Bomb": secret}, board.cup_for(table, []))
    played.state.phase = 1
    legal = played.is_legal({"power": "germany", "cash-in": "Atomic Bomb", "drawn": ["Papers"]})
    from_question = question("cash-in", table, origin=_enum("cash-in", "origin", origin), at_capital=at_capital)
    assert legal == from_question.allowed


def _when(own_turn: bool):
    enum = next(v.type for v in REFEREE.questions["search"].values if v.name == "when")
    return enum("own-turn" if own_turn else "opponent-turn")


def _enum(question_name: str, value: str, text: str):
    enum = next(v.type for v in REFEREE.questions[question_name].values if v.name == value)
    return enum(text)


CHITS = sorted({p.name for p in GAME.pieces if p.kind == "chit"})
LAND = [c.name for c in GAME.map.cities]


@st.composite
def chit_plays(draw):
    """A random chit played by a random power's spy in a random city, on its own turn or another's, in either variant."""
    return (draw(st.sampled_from(GAME.info.variants)), draw(st.sampled_from(FACTIONS)), draw(st.sampled_from(CHITS)),
            draw(st.sampled_from(LAND)), draw(st.booleans()))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chit_plays())
def test_the_chit_question_answers_as_the_board_plays_the_chit(case):
    variant, power, name, city, own_turn = case
    board = board_module()
    table = Table(GAME, variant)
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    spy = next(p.name for p in GAME.pieces if p.kind == "spy" and p.nation == power)
    holdings[power].spies[spy] = city
    holdings[power].chits.append(name)
    other = FACTIONS[(FACTIONS.index(power) + 1) % len(FACTIONS)]
    secrets = {"Atomic Bomb": board.SecretOnMap(city, home=None)}
    played = board.Board(table, 1933, power if own_turn else other, holdings, secrets, board.cup_for(table, [[name]]))
    played.state.phase = 3
    enemy = next(p.name for p in GAME.pieces if p.kind == "spy" and p.nation == other)
    holdings[other].spies[enemy] = city
    recruit = [p.name for p in GAME.pieces if p.kind == "spy" and p.nation == power][-1]
    action = {"power": power, "chit": name, "spy": spy, "secret": "Atomic Bomb", "target": f"{other}/{enemy}", "recruit": recruit}
    ruling = question("chit", table, name=name, when=_when(own_turn), city=city)
    assert played.is_legal(action) == ruling.allowed, (played.copy().push(action) if ruling.allowed else ruling.explanation)


@st.composite
def discoveries(draw):
    """A random spy discovering a random counterspy in a city outside its own territory."""
    variant = draw(st.sampled_from(GAME.info.variants))
    spy = draw(st.sampled_from([p for p in GAME.pieces if p.kind == "spy"]))
    strength = draw(st.sampled_from(sorted({p.strength for p in GAME.pieces if p.kind == "counterspy"})))
    city = draw(st.sampled_from([c for c in GAME.map.cities if c.power != spy.nation and not (variant == "long" and c.has_mark("haven"))]))
    return variant, spy, strength, city


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(discoveries())
def test_the_counterspy_question_answers_as_the_board_plays_the_discovery(case):
    variant, spy, strength, city = case
    board = board_module()
    table = Table(GAME, variant)
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    holdings[spy.nation].spies[spy.name] = city.name
    holdings[spy.nation].chits.append("Discovery")
    secrets = {"counterspy": board.SecretOnMap(city.name, counterspy=strength, home=city.power)}
    played = board.Board(table, 1933, spy.nation, holdings, secrets, board.cup_for(table, [["Discovery"]]))
    played.state.phase = 3
    played.push({"power": spy.nation, "chit": "Discovery", "spy": spy.name, "secret": "counterspy"})
    captured = spy.name not in played.powers[spy.nation].spies
    ruling = question("counterspy", table, counterspy_strength=strength, spy_strength=spy.strength, neutral=city.power is None)
    assert ruling.verdict.value == ("captured" if captured else "no effect")
    if captured and city.power is not None:
        assert played.powers[city.power].record[-1]["name"] == f"{spy.nation}/{spy.name}"
        assert ruling.facts.captured_to == "time and victory record"
    elif captured:
        assert ruling.facts.captured_to == "spies captured in neutral countries box"


@pytest.mark.parametrize("origin", ["original", "foreign"])
@pytest.mark.parametrize("location", ["home", "abroad"])
@pytest.mark.parametrize("state", ["uncontrolled", "enemy"])
def test_the_control_question_answers_as_the_board_takes_control(origin, location, state):
    board = board_module()
    table = Table(GAME, "standard")
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    city = "Hamburg" if location == "home" else "Rome"
    holdings["germany"].spies["Kurt"] = city
    holder = None
    if state == "enemy":
        holdings["italy"].spies["Mario"] = city
        holder = ("spy", "italy", "Mario")
    secret = board.SecretOnMap(city, None, holder, "germany" if origin == "original" else "britain")
    played = board.Board(table, 1933, "germany", holdings, {"Atomic Bomb": secret}, board.cup_for(table, []))
    played.state.phase = 3
    without_discovery = played.is_legal({"power": "germany", "control": "Atomic Bomb", "spy": "Kurt"})
    ruling = question("control", table, origin=_enum("control", "origin", origin), location=_enum("control", "location", location),
                      state=_enum("control", "state", state))
    assert ruling.facts.needs_discovery is not without_discovery


@pytest.mark.parametrize("tile", ["Ge 1", "Br 35", "random 36"])
@pytest.mark.parametrize("year", [1933, 1936, 1939])
def test_the_tile_question_answers_as_the_board_plays_the_tile(tile, year):
    board = board_module()
    table = Table(GAME, "standard")
    found = GAME.tile(tile)
    power = found.nation or "germany"
    played = board.Board(table, year, power, {p: board.Holding(money=50) for p in FACTIONS}, {}, board.cup_for(table, []))
    assert played.is_legal({"power": power, "tile": found.id}) == question("tile", table, tile_id=tile, year=year).allowed


def test_the_spies_rules_never_ask_which_variant_is_played_outside_choosing_the_rule_set():
    """The Standard and Long Game are two rule sets (rules.py): no other line of the game's code tests the variant."""
    import re

    folder = REFEREE.file.parent
    tests = [f"{file.name}:{n}" for file in sorted(folder.glob("*.py"))
             for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bis_long\b|\.variant\s*[!=]=|variant_name\(", line)]
    assert tests == ["rules.py:" + str(next(n for n, line in enumerate((folder / "rules.py").read_text(encoding="utf-8").splitlines(), 1)
                                             if "LongRules() if table.variant" in line))]


@pytest.mark.parametrize("variant", ["standard", "long"])
@pytest.mark.parametrize("origin, location, control", [
    (o, l, c) for o in ("original", "foreign") for l in ("home", "abroad") for c in ("own", "none", "enemy")])
def test_the_final_secret_question_answers_as_the_board_makes_the_final_count(variant, origin, location, control):
    board = board_module()
    table = Table(GAME, variant)
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    city = "Munich" if location == "home" else "Rome"
    holder = {"own": ("police", "germany", 0) if location == "home" else ("spy", "germany", "Kurt"),
              "enemy": ("spy", "italy", "Mario"), "none": None}[control]
    if holder and holder[1] == "germany":
        holdings["germany"].spies["Kurt"] = city
        if location == "home":
            holdings["germany"].police = [[2, "Munich"]]
    if control == "enemy":
        holdings["italy"].spies["Mario"] = city
    secret = board.SecretOnMap(city, None, holder, "germany" if origin == "original" else "britain")
    played = board.Board(table, 1939, "britain", holdings, {"Atomic Bomb": secret}, board.cup_for(table, []))
    played.state.phase = 3
    played.push({"power": "britain", "end": "turn"})
    counted = any(e["name"] == "Atomic Bomb" for e in played.powers["germany"].record)
    ruling = question("final-secret", table, origin=_enum("final-secret", "origin", origin),
                      location=_enum("final-secret", "location", location), control=_enum("final-secret", "control", control))
    assert ruling.facts.counts is counted


# ---- tiles' awards and hands, turns, trades, seats, set-up and the winner -------------------------------------------

SPIES = {p: [s.name for s in GAME.pieces if s.kind == "spy" and s.nation == p] for p in FACTIONS}


@st.composite
def tile_plays(draw):
    """A random tile played in one of its years, with random spies of random powers in random cities (the tile's cities
    weighted in), each power holding a random hand."""
    tile = draw(st.sampled_from(GAME.tiles))
    year = draw(st.sampled_from(sorted(tile.years)))
    listed = sorted({c for group in tile.awards for c in group.cities})
    placed = {}
    for power in draw(st.lists(st.sampled_from(FACTIONS), min_size=1, max_size=3, unique=True)):
        count = draw(st.integers(1, len(SPIES[power])))
        placed[power] = draw(st.lists(st.sampled_from(listed + LAND), min_size=count, max_size=count))
    hands = {p: draw(st.integers(0, 7)) for p in placed}
    return tile, year, placed, hands


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tile_plays())
def test_the_award_and_chits_questions_answer_as_the_board_plays_the_tile(case):
    tile, year, placed, hands = case
    board = board_module()
    table = Table(GAME, "standard")
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    cup = board.cup_for(table, [])
    for power, cities in placed.items():
        holdings[power].spies = dict(zip(SPIES[power], cities))
        for _ in range(hands[power]):
            name = max(cup, key=cup.get)
            cup[name] -= 1
            holdings[power].chits.append(name)
    mover = tile.nation or FACTIONS[0]
    played = board.Board(table, year, mover, holdings, {}, cup)
    awards = question("award", table, tile_id=tile.id, spies=[f"{p}@{c}" for p, cities in placed.items() for c in cities]).facts.awards
    drawn, returned = {}, {}
    for power, got in awards.items():
        names = [n for n in sorted(cup, key=lambda n: -cup[n]) for _ in range(cup[n])][:got["chits"]]
        drawn[power] = names
        back = question("chits", table, holding=hands[power], draw=got["chits"]).facts.return_
        returned[power] = holdings[power].chits[:back]
    action = {"power": mover, "tile": tile.id, "drawn": drawn, "returned": returned}
    before = {p: h.money for p, h in played.powers.items()}
    played.push(action)
    assert {p: played.powers[p].money - before[p] for p in awards} == {p: got["money"] for p, got in awards.items()}
    assert all(len(played.powers[p].chits) <= 7 for p in FACTIONS)
    played.pop()
    wrong = next((p for p in awards if awards[p]["chits"]), None)
    if wrong is not None:   # one chit too few drawn, or one too many returned: refused
        assert not played.is_legal(action | {"drawn": drawn | {wrong: drawn[wrong][1:]}})
        assert not played.is_legal(action | {"returned": returned | {wrong: returned[wrong] + [drawn[wrong][0]]}})


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAME.info.variants), st.sampled_from(FACTIONS), st.sampled_from(GAME.info.years))
def test_the_turn_question_answers_as_the_board_ends_the_turn(variant, power, year):
    board = board_module()
    table = Table(GAME, variant)
    played = board.Board(table, year, power, {p: board.Holding(money=50) for p in FACTIONS}, {}, board.cup_for(table, []))
    played.state.phase = 1
    played.push({"power": power, "end": "turn"})
    ruling = question("turn", table, after=power, year=year)
    if played.over:
        assert (ruling.verdict.value, ruling.facts.next) == ("game over", None)
    else:
        assert (ruling.facts.next, ruling.facts.next_year) == (played.turn, played.year)


GOODS = ["money", "chits", "secrets", "tiles", "concessions"]


@st.composite
def trades(draw):
    """Two random powers trading random goods on either's turn, the talks opened by whichever may, with a random number
    of players (one seat for both or not). On one's own turn there are no talks to answer, only to open."""
    variant = draw(st.sampled_from(GAME.info.variants))
    trader, partner = draw(st.permutations(FACTIONS))[:2]
    players = draw(st.sampled_from([None, 2, 3, 4, 5]))
    own_turn = draw(st.booleans())
    return variant, trader, partner, players, draw(st.sampled_from(GOODS)), own_turn, own_turn or draw(st.booleans())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trades())
def test_the_trade_question_answers_as_the_board_trades_in_talks(case):
    variant, trader, partner, players, goods, own_turn, opens = case
    board = board_module()
    table = Table(GAME, variant)
    holdings = {p: board.Holding(money=50) for p in FACTIONS}
    city = next(c.name for c in GAME.map.cities if c.power is None)
    holdings[trader].spies[SPIES[trader][0]] = city
    holdings[partner].spies[SPIES[partner][0]] = city
    holdings[trader].chits = ["Papers"]
    holdings[trader].tiles = [next(t.id for t in GAME.tiles if t.nation == trader)]
    secrets = {"Atomic Bomb": board.SecretOnMap(city, None, ("spy", trader, SPIES[trader][0]), None)}
    played = board.Board(table, 1933, trader if own_turn else partner, holdings, secrets, board.cup_for(table, [["Papers"]]), players)
    played.state.phase = 1
    parcel = {"money": {"money": 10}, "chits": {"chits": ["Papers"]}, "secrets": {"secrets": ["Atomic Bomb"]},
              "tiles": {"tiles": holdings[trader].tiles}, "concessions": {"concessions": "a promise"}}[goods]
    if own_turn or opens:
        legal = played.is_legal({"power": trader, "talk": [partner]})
        if legal:
            played.push({"power": trader, "talk": [partner]})
    else:
        played.push({"power": partner, "talk": [trader]})
        legal = True
    legal = legal and played.is_legal({"power": trader, "trade": partner, "give": parcel})
    same = players is not None and any({trader, partner} <= set(seat) for seat in played.seats())
    ruling = question("trade", table, item=_enum("trade", "item", goods), when=_when(own_turn),
                      talk=_enum("trade", "talk", "open" if opens else "answer"), same_player=same)
    assert ruling.allowed == legal, ruling.explanation


@st.composite
def final_counts(draw):
    """The end of a random game: random entries on random powers' records in random years, random money, a random
    number of players."""
    powers = draw(st.lists(st.sampled_from(FACTIONS), min_size=2, max_size=5, unique=True))
    records = {p: draw(st.lists(st.tuples(st.sampled_from(GAME.info.years), st.integers(0, 5)), max_size=4)) for p in powers}
    money = {p: draw(st.sampled_from([0, 20, 35])) for p in powers}
    return powers, records, money, draw(st.sampled_from([None, 2, 3, 4, 5]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(final_counts())
def test_the_winner_and_players_questions_answer_as_the_board_ends_the_game(case):
    powers, records, money, players = case
    board = board_module()
    table = Table(GAME, "standard")
    holdings = {p: board.Holding(money=money.get(p, 0)) for p in FACTIONS}
    for power, entries in records.items():
        holdings[power].record = [{"year": y, "kind": "spy", "name": "italy/Mario", "value": v} for y, v in entries]
    played = board.Board(table, 1939, "britain", holdings, {}, board.cup_for(table, []), players)
    played.state.phase = 1
    played.push({"power": "britain", "end": "turn"})
    score = played.score()
    ruling = question("winner", table, points=[f"{p}={score[p]}" for p in powers], money=[f"{p}={money[p]}" for p in powers],
                      players=players)
    named = board.Board(table, 1939, "britain", {p: holdings[p] for p in powers}, {}, board.cup_for(table, []), players)
    named.over = True
    assert ruling.facts.winners == named.outcome().winners
    if players is not None:
        assert question("players", table, count=players).facts.seats == played.seats()
        if ruling.facts.seat is not None:
            assert ruling.facts.seat == played.seat_of(ruling.facts.winners[0])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME.info.variants), st.sampled_from(FACTIONS), st.data())
def test_the_setup_question_gives_what_the_board_accepts_as_a_starting_position(variant, power, data):
    board = board_module()
    table = Table(GAME, variant)
    facts = question("setup", table, power=power).facts
    own = [t.id for t in GAME.tiles if t.nation == power]
    pool = data.draw(st.permutations([t.id for t in GAME.tiles if t.nation is None]))
    homes = [c.name for c in GAME.map.cities if c.power == power and (c.capital or c.has_mark("police"))]
    police = sorted(p.strength for p in GAME.pieces if p.kind == "police" and p.nation == power for _ in range(p.count))
    spies = SPIES[power] if facts.spies is not None else SPIES[power][:data.draw(st.integers(1, len(SPIES[power])))]
    holding = board.Holding(money=50, tiles=own + list(pool[:facts.tiles - len(own)]), spies=dict.fromkeys(spies, homes[0]),
                            police=[[s, homes[i // 2]] for i, s in enumerate(police)])
    holdings = {p: board.Holding() for p in FACTIONS} | {power: holding}
    territory = data.draw(st.permutations([c.name for c in GAME.map.cities if c.power == power]))
    secrets = {s.name: board.SecretOnMap(city, home=power) for s, city in zip([p for p in GAME.pieces if p.kind == "secret"], territory[:3])}
    played = board.Board(table, 1933, FACTIONS[0], holdings, secrets, board.cup_for(table, []))
    assert len(police) == facts.police and len(holding.tiles) == facts.tiles
    assert played.setup_faults(power) == []
    holding.police.pop()
    assert [f.code for f in played.setup_faults(power)] == ["setup-police"]
    holding.police.append([police[-1], homes[-1]])
    holding.tiles.append(pool[-1])
    assert "setup-tiles" in [f.code for f in played.setup_faults(power)]
