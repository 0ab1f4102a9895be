"""Rules questions for the four other spy games, asked through the CLI: boundaries and refusals.

Expected rulings are written from the sources (the ZOFF and trap rules of Spion & Spion, the
Web of Spies combat rule, the D12 odds of the Global 1936 spy rule, the token limits).
"""

from __future__ import annotations

import itertools

import pytest

SPION = ("referee", "--game", "spion-und-spion")
WEB = ("referee", "--game", "web-of-spies")
G1936 = ("referee", "--game", "global-1936-spies")
TOKENS = ("referee", "--game", "special-action-tokens")


def ask(cli, *args):
    result = cli(*args, "--json")
    assert result.code == 0, result.stderr
    ruling = result.json()
    assert {"question", "ruling", "allowed", "explanation", "rules"} <= set(ruling)
    assert ruling["rules"] and ruling["explanation"]
    return ruling


def refused(cli, *args) -> str:
    result = cli(*args)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stderr


# Spion & Spion: ZOFF ---------------------------------------------------------------------------

@pytest.mark.parametrize("attacker, defender", list(itertools.product("ABC", "ABC")))
def test_zoff_the_defender_wins_only_on_a_match(cli, attacker, defender):
    ruling = ask(cli, *SPION, "zoff", "--attacker", attacker, "--defender", defender)
    winner = "defender" if attacker == defender else "attacker"
    assert ruling["ruling"] == f"{winner} wins" and ruling["winner"] == winner
    assert ruling["payment"] == 1 and ruling["to_prison"] == ruling["loser"] and ruling["reveals_number"]
    assert ruling["attacker_moves_again"] is (winner == "attacker")
    assert "ZOFF" in ruling["rules"]


def test_zoff_letters_in_any_case(cli):
    assert ask(cli, *SPION, "zoff", "--attacker", "b", "--defender", "B")["winner"] == "defender"


def test_a_beaten_gray_spy_sends_nobody_to_prison(cli):
    ruling = ask(cli, *SPION, "zoff", "--attacker", "C", "--defender", "C", "--gray-spy")
    assert ruling["winner"] == "defender" and ruling["to_prison"] is None and not ruling["reveals_number"]
    assert "Grey Spy" in ruling["rules"]
    won = ask(cli, *SPION, "zoff", "--attacker", "A", "--defender", "C", "--gray-spy")
    assert won["to_prison"] == "defender"


@pytest.mark.parametrize("args, bazong", [
    (("--attacker", "A", "--defender", "B", "--carrier", "defender"), "to winner"),
    (("--attacker", "A", "--defender", "A", "--carrier", "defender"), "kept"),
    (("--attacker", "A", "--defender", "A", "--carrier", "attacker"), "to winner"),
    (("--attacker", "A", "--defender", "B", "--carrier", "defender", "--gray-spy"), "dropped"),
    (("--attacker", "A", "--defender", "B"), None),
])
def test_a_bazong_carrier_who_loses_gives_it_up(cli, args, bazong):
    assert ask(cli, *SPION, "zoff", *args)["bazong"] == bazong


def test_zoff_refusals(cli):
    assert "'A', 'B', 'C'" in refused(cli, *SPION, "zoff", "--attacker", "D", "--defender", "A")
    assert "GRAY SPY never carries" in refused(cli, *SPION, "zoff", "--attacker", "A", "--defender", "B", "--gray-spy", "--carrier", "attacker")
    refused(cli, *SPION, "zoff", "--attacker", "A")


# Spion & Spion: traps, dice and money -------------------------------------------------------------

# Snake eats Magnet, Magnet crushes Bottle, Bottle poisons Snake: (trap, the roll that removes it).
REMOVES = {("Magnet", "Snake"), ("Bottle", "Magnet"), ("Snake", "Bottle")}


@pytest.mark.parametrize("trap, roll", list(itertools.product(("Snake", "Magnet", "Bottle"), repeat=2)))
def test_only_the_right_picture_removes_a_trap(cli, trap, roll):
    ruling = ask(cli, *SPION, "trap", "--trap", trap.lower(), "--roll", roll.lower())
    assert ruling["removed"] is ((trap, roll) in REMOVES)
    assert ruling["ruling"] == ("removed" if (trap, roll) in REMOVES else "stays")
    assert (trap, ruling["needed"]) in REMOVES


def test_unknown_trap_is_refused_with_the_closest_name(cli):
    assert "Magnet" in refused(cli, *SPION, "trap", "--trap", "magnit", "--roll", "snake")


@pytest.mark.parametrize("rolls, zillions", [(1, 1), (2, 3), (3, 5)])
def test_dice_rolls_cost_one_three_or_five(cli, rolls, zillions):
    ruling = ask(cli, *SPION, "trap-cost", "--rolls", str(rolls))
    assert ruling["zillions"] == zillions


@pytest.mark.parametrize("rolls", [0, 4, -1])
def test_no_more_than_three_rolls(cli, rolls):
    assert "1 to 3" in refused(cli, *SPION, "trap-cost", "--rolls", str(rolls))


@pytest.mark.parametrize("players, money, wins", [(4, 36, False), (4, 37, True), (2, 24, False), (2, 25, True), (2, 37, True)])
def test_winning_money_by_player_count(cli, players, money, wins):
    ruling = ask(cli, *SPION, "win", "--players", str(players), "--zillions", str(money))
    assert ruling["wins"] is wins and ruling["threshold"] == {4: 37, 2: 25}[players]


def test_threshold_alone(cli):
    assert ask(cli, *SPION, "win", "--players", "2")["threshold"] == 25


@pytest.mark.parametrize("choice, threshold", [("spion-und-spion", 37), ("spion-und-spion:four-player", 37), ("spion-und-spion:two-player", 25)])
def test_player_count_follows_the_variant(cli, choice, threshold):
    assert ask(cli, "referee", "--game", choice, "win")["threshold"] == threshold


@pytest.mark.parametrize("players", [0, 1, 3, 5])
def test_player_counts_without_a_game_are_refused(cli, players):
    refused(cli, *SPION, "win", "--players", str(players))


def test_negative_money_is_refused(cli):
    refused(cli, *SPION, "win", "--players", "4", "--zillions", "-1")


def test_no_team_holds_more_money_than_the_game_has(cli):
    # "1 Bunch of Money: 60 ZILLION!" (Ingredients)
    assert ask(cli, *SPION, "win", "--players", "4", "--zillions", "60")["wins"] is True
    assert "60 ZILLIONS" in refused(cli, *SPION, "win", "--players", "4", "--zillions", "61")


# Web of Spies -----------------------------------------------------------------------------------

@pytest.mark.parametrize("attack, defend, shared", [
    ("violence", "violence", ["Violence"]),
    ("Violence,Surveillance", "information,surveillance", ["Surveillance"]),
    ("surveillance,information,violence", "information", ["Information"]),
    ("violence", "surveillance,information", []),
])
def test_a_counter_must_share_a_combat_symbol(cli, attack, defend, shared):
    ruling = ask(cli, *WEB, "counter", "--attack", attack, "--defend", defend)
    assert ruling["shared"] == shared
    assert ruling["allowed"] is bool(shared)
    assert ruling["ruling"] == ("countered" if shared else "not countered")
    assert ruling["rules"] == ["Combat"]


def test_symbols_may_be_repeated_options(cli):
    ruling = ask(cli, *WEB, "counter", "--attack", "violence", "--attack", "information", "--defend", "information")
    assert ruling["attack"] == ["Information", "Violence"] and ruling["shared"] == ["Information"]


def test_a_card_without_the_role_symbol_cannot_answer(cli):
    ruling = ask(cli, *WEB, "counter", "--attack", "violence", "--defend", "violence", "--no-role-symbol")
    assert ruling["allowed"] is False and "Defend" in ruling["explanation"]
    pressed = ask(cli, *WEB, "counter", "--attack", "violence", "--defend", "violence", "--by", "attacker", "--no-role-symbol")
    assert pressed["allowed"] is False and "Attack" in pressed["explanation"]


def test_counter_refusals(cli):
    assert "Violence" in refused(cli, *WEB, "counter", "--attack", "violense", "--defend", "violence")
    assert "action symbol" in refused(cli, *WEB, "counter", "--attack", "attack", "--defend", "violence")
    assert "at least one" in refused(cli, *WEB, "counter", "--attack", ",", "--defend", "violence")


@pytest.mark.parametrize("args, allowed, ruling", [
    (("--agents", "2", "--rival", "2", "--cards", "5", "--cost", "3"), False, "contested"),
    (("--agents", "3", "--rival", "2", "--cards", "3", "--cost", "3"), True, "allowed"),
    (("--agents", "3", "--rival", "2", "--cards", "2", "--cost", "3"), False, "too few cards"),
    (("--agents", "1", "--rival", "0", "--cards", "2", "--secret"), True, "allowed"),
    (("--agents", "1", "--rival", "0", "--cards", "1", "--secret"), False, "too few cards"),
])
def test_acquiring_needs_the_majority_and_the_cost(cli, args, allowed, ruling):
    answer = ask(cli, *WEB, "acquire", *args)
    assert answer["allowed"] is allowed and answer["ruling"] == ruling


@pytest.mark.parametrize("args", [
    ("--agents", "1", "--rival", "0", "--cards", "2"),
    ("--agents", "1", "--rival", "0", "--cards", "2", "--cost", "2", "--secret"),
    ("--agents", "-1", "--rival", "0", "--cards", "2", "--cost", "1"),
])
def test_acquire_refusals(cli, args):
    refused(cli, *WEB, "acquire", *args)


# The Global 1936 spy rule -------------------------------------------------------------------------

@pytest.mark.parametrize("mission, success, chance, probability", [
    ("diplomacy", "1-3", "3/12", 0.25),
    ("espionage", "1-2", "2/12", 0.1667),
    ("assassinate", "1-2", "2/12", 0.1667),
    ("double-agent", "1-2", "2/12", 0.1667),
    ("reverse", "1-3", "3/12", 0.25),
])
def test_mission_odds_as_printed(cli, mission, success, chance, probability):
    ruling = ask(cli, *G1936, "mission", "--mission", mission)
    assert (ruling["success"], ruling["chance"], ruling["probability"]) == (success, chance, probability)


def test_two_diplomacy_rolls(cli):
    ruling = ask(cli, *G1936, "mission", "--mission", "diplomacy", "--rolls", "2")
    assert ruling["chance"] == "63/144" and ruling["probability"] == 0.4375


@pytest.mark.parametrize("mission, rolls", [("diplomacy", 3), ("diplomacy", 0), ("espionage", 2), ("reverse", 2)])
def test_more_rolls_than_the_rule_gives_are_refused(cli, mission, rolls):
    refused(cli, *G1936, "mission", "--mission", mission, "--rolls", str(rolls))


def test_unknown_mission_is_refused(cli):
    refused(cli, *G1936, "mission", "--mission", "sabotage")


# Special Action tokens ------------------------------------------------------------------------------

@pytest.mark.parametrize("flags, allowed", [
    ((), True), (("--after-moving",), False), (("--already-played",), False), (("--double-agent",), False),
])
def test_when_a_token_may_be_played(cli, flags, allowed):
    assert ask(cli, *TOKENS, "play", "--token", "Move 2", *flags)["allowed"] is allowed


@pytest.mark.parametrize("token, row, briefcase, allowed", [
    ("Move 2", 5, False, True), ("Move 2", 6, False, False), ("Swap 2", 1, True, False),
    ("swap-2", 5, False, True), ("Reveal 1", 9, True, True),
])
def test_which_spies_a_token_may_use(cli, token, row, briefcase, allowed):
    args = ["eligible", "--token", token, "--row", str(row)] + (["--briefcase"] if briefcase else [])
    assert ask(cli, *TOKENS, *args)["allowed"] is allowed


@pytest.mark.parametrize("token, spy, alone, allowed", [
    ("Move 2", "other", False, False), ("Reveal 1", "token", False, False), ("Reveal 1", "other", False, True),
    ("Swap 2", "token", False, False), ("Swap 2", "token", True, True), ("Swap 2", "other", False, True),
])
def test_the_regular_move_after_a_token(cli, token, spy, alone, allowed):
    args = ["regular-move", "--token", token, "--spy", spy] + (["--no-other-spies"] if alone else [])
    assert ask(cli, *TOKENS, *args)["allowed"] is allowed


def test_token_refusals(cli):
    assert "Move 2" in refused(cli, *TOKENS, "play", "--token", "Move 3")
    assert "rows are counted from 1" in refused(cli, *TOKENS, "eligible", "--token", "Swap 2", "--row", "0")
