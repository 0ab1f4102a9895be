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


def question(name: str, table: Table, **values):
    return ask(REFEREE, REFEREE.questions[name], table, values)


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
