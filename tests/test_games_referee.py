"""Rules questions for the four other spy games, asked through the CLI: boundaries and refusals.

Expected rulings are written from the sources (the ZOFF, trap, Pass-Card and BAZONG rules of Spion &
Spion, the Web of Spies actions, combat and end of game, the Global 1936 spy rule, the token limits).
Every answer must cite rules the game's reference cards list, or entries of its register.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from generators.core import paths
from generators.core.yamlio import read_yaml

SPION = ("referee", "--game", "spion-und-spion")
WEB = ("referee", "--game", "web-of-spies")
G1936 = ("referee", "--game", "global-1936-spies")
TOKENS = ("referee", "--game", "special-action-tokens")
REGISTER = (Path(__file__).resolve().parents[1] / "docs" / "rulings.md").read_text(encoding="utf-8")
LETTERS = {"spies": "R", "global-1936-spies": "G", "spion-und-spion": "S", "web-of-spies": "W", "special-action-tokens": "T"}


def citable(game: str) -> set[str]:
    """What a ruling of `game` may cite: the sections its cards.yaml lists, and its own register entries."""
    sections = set(read_yaml(paths.components_dir() / game / "cards.yaml")["citations"])
    entries = {f"Register {n}" for n in re.findall(rf"^#### ({LETTERS[game]}\d+)\.", REGISTER, re.M)}
    return sections | entries


def ask(cli, *args):
    result = cli(*args, "--json")
    assert result.code == 0, result.stderr
    ruling = result.json()
    assert {"question", "verdict", "ruling", "allowed", "explanation", "rules"} <= set(ruling)
    assert ruling["rules"] and ruling["explanation"]
    assert set(ruling["rules"]) <= citable(ruling["game"]), set(ruling["rules"]) - citable(ruling["game"])
    return ruling


def refused(cli, *args) -> str:
    result = cli(*args)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
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


def test_an_asset_acquired_is_looked_at_then_put_face_down(cli):
    """Acquire Action: "Look at and place the acquired asset facedown onto your discard pile": the Secret Asset is
    bought unseen, so the buyer looks at it; the ruling once said only to put it face down."""
    answer = ask(cli, *WEB, "acquire", "--agents", "1", "--rival", "0", "--cards", "2", "--secret")
    assert "look at the asset and put it face down on your discard pile" in answer["explanation"]


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


@pytest.mark.parametrize("row", ["0", "11", "-1"])
def test_a_row_beyond_the_board_is_refused(cli, row):
    assert "rows 1 to 10" in refused(cli, *TOKENS, "eligible", "--token", "Swap 2", "--row", row)


def test_reveal_1_names_any_spy_on_the_board_whatever_its_row(cli):
    answer = ask(cli, *TOKENS, "eligible", "--token", "Reveal 1", "--whose", "enemy")
    assert (answer["allowed"], answer["row"]) == (True, None)


def test_the_tenth_row_is_on_the_board_but_beyond_your_half(cli):
    assert ask(cli, *TOKENS, "eligible", "--token", "Move 2", "--row", "10")["allowed"] is False


def test_token_refusals(cli):
    assert "Move 2" in refused(cli, *TOKENS, "play", "--token", "Move 3")
    assert "--row" in refused(cli, *TOKENS, "eligible", "--token", "Swap 2")
    assert "off the board" in refused(cli, *TOKENS, "eligible", "--token", "Reveal 1", "--where", "eliminated", "--row", "2")
    assert "given twice" in refused(cli, *TOKENS, "play", "--token", "Move 2", "--used", "Swap 2", "--used", "swap 2")
    assert "no other spy" in refused(cli, *TOKENS, "regular-move", "--token", "Swap 2", "--spy", "other", "--no-other-spies")


def test_each_token_is_played_once_a_game(cli):
    again = ask(cli, *TOKENS, "play", "--token", "Move 2", "--used", "Move 2")
    assert again["allowed"] is False and "out of the game" in again["explanation"]
    last = ask(cli, *TOKENS, "play", "--token", "Reveal 1", "--used", "Move 2", "--used", "Swap 2")
    assert (last["allowed"], last["tokens_left_after"]) == (True, 0)
    assert ask(cli, *TOKENS, "play", "--token", "Reveal 1")["tokens_left_after"] == 2


@pytest.mark.parametrize("args, allowed", [
    (("--token", "Reveal 1", "--where", "eliminated"), True),            # one of your own eliminated spies
    (("--token", "Reveal 1", "--where", "eliminated", "--whose", "enemy"), False),
    (("--token", "Reveal 1", "--row", "8", "--whose", "enemy"), True),
    (("--token", "Move 2", "--where", "eliminated"), False),
    (("--token", "Swap 2", "--row", "2", "--whose", "enemy"), False),
])
def test_reveal_shows_any_spy_or_your_eliminated_ones(cli, args, allowed):
    answer = ask(cli, *TOKENS, "eligible", *args)
    assert answer["allowed"] is allowed
    if "Reveal 1" in args:
        assert "Register T1" in answer["rules"]


@pytest.mark.parametrize("args, allowed", [((), True), (("--same-spy",), False), (("--same-spy", "--first-illegal"), False)])
def test_move_two_never_moves_one_spy_twice(cli, args, allowed):
    answer = ask(cli, *TOKENS, "second-move", *args)
    assert answer["allowed"] is allowed
    if "--first-illegal" in args:
        assert "not a legal move" in answer["explanation"]


def test_only_swap_lets_the_last_spy_move_after_the_token(cli):
    assert ask(cli, *TOKENS, "regular-move", "--token", "Swap 2", "--spy", "token", "--no-other-spies")["allowed"] is True
    reveal = ask(cli, *TOKENS, "regular-move", "--token", "Reveal 1", "--spy", "token", "--no-other-spies")
    assert reveal["allowed"] is False and "Register T2" in reveal["rules"]


# Spion & Spion: the turn, Pass-Cards, prison --------------------------------------------------------

@pytest.mark.parametrize("pick, allowed", [(1, True), (3, True), (4, False), (11, False)])
def test_pass_cards_are_taken_from_the_top_three(cli, pick, allowed):
    answer = ask(cli, *SPION, "draw", "--pick", str(pick))
    assert answer["allowed"] is allowed
    if pick == 3:
        assert "2 cards above it go under the pile in the same order" in answer["explanation"]


@pytest.mark.parametrize("pick", [0, 12])
def test_no_card_beyond_the_pile(cli, pick):
    assert "a pile has 11 Pass-Cards" in refused(cli, *SPION, "draw", "--pick", str(pick))


@pytest.mark.parametrize("card, args, verdict, spaces", [
    ("FAHR", (), "advance", 2), ("flitz", (), "advance", 3), ("Dues", (), "advance", 4), ("GAEHN", (), "stand still", 0),
    ("SCHLUCHZ", ("--not-carrying",), "stand still", 0),     # turns into a GAEHN
])
def test_pass_cards_that_move_or_stand(cli, card, args, verdict, spaces):
    answer = ask(cli, *SPION, "pass-card", card, *args)
    assert (answer["verdict"], answer["spaces"]) == (verdict, spaces)


@pytest.mark.parametrize("card, verdict", [("SCHECK", "take money"), ("LECHZ", "gray spy helps"), ("ANSICHTS", "look and move again")])
def test_pass_cards_that_do_something_else(cli, card, verdict):
    assert ask(cli, *SPION, "pass-card", card)["verdict"] == verdict


def test_schluchz_sends_a_conquered_bazong_home(cli):
    answer = ask(cli, *SPION, "pass-card", "SCHLUCHZ", "--carrying")
    assert answer["verdict"] == "bazong goes home" and "Register S1" in answer["rules"]
    assert "--carrying or --not-carrying" in refused(cli, *SPION, "pass-card", "SCHLUCHZ")
    assert "FAHR" in refused(cli, *SPION, "pass-card", "FARH")


@pytest.mark.parametrize("args, freed, verdict", [
    (("--prisoners", "1"), 1, "all freed"),
    (("--prisoners", "2", "--in-embassy", "1"), 1, "some freed"),          # the embassy holds two at most
    (("--prisoners", "2", "--zillions", "1"), 1, "some freed"),            # one ZILLION each
    (("--prisoners", "2", "--in-embassy", "2"), 0, "none freed"),
    (("--prisoners", "1", "--moved"), 0, "none freed"),                    # before you move
])
def test_buying_spies_out_of_prison(cli, args, freed, verdict):
    answer = ask(cli, *SPION, "free", *args)
    assert (answer["freed"], answer["cost"], answer["verdict"]) == (freed, freed, verdict)


@pytest.mark.parametrize("args", [("--prisoners", "5"), ("--prisoners", "1", "--in-embassy", "3"),
                                  ("--prisoners", "3", "--in-embassy", "2"), ("--prisoners", "1", "--zillions", "61")])
def test_free_refusals(cli, args):
    refused(cli, *SPION, "free", *args)


@pytest.mark.parametrize("args, verdict", [
    ((), "moves"),
    (("--land-on", "own-spy"), "moves"),
    (("--pass-enemy",), "moves"),
    (("--pass-enemy", "--land-on", "enemy-spy"), "zoff"),
    (("--land-on", "enemy-embassy"), "zoff"),
    (("--backward",), "not allowed"),
    (("--trap-in-way",), "not allowed"),
    (("--land-on", "own-embassy", "--embassy-spies", "1"), "moves"),
    (("--land-on", "own-embassy", "--embassy-spies", "2"), "not allowed"),
])
def test_moving_forward_past_enemies_but_never_past_a_trap(cli, args, verdict):
    assert ask(cli, *SPION, "move", *args)["verdict"] == verdict


def test_move_refusals(cli):
    assert "must be 0 to 2" in refused(cli, *SPION, "move", "--land-on", "own-embassy", "--embassy-spies", "3")
    assert "--land-on own-embassy" in refused(cli, *SPION, "move", "--embassy-spies", "1")


# Spion & Spion: ZOFF against several, the GRAY SPY, the BAZONG ---------------------------------------

def test_an_attacker_fights_several_defenders_until_he_loses(cli):
    won = ask(cli, *SPION, "zoff-several", "--defenders", "3")
    assert (won["verdict"], won["fights"], won["beaten"]) == ("all beaten", 3, 3)
    lost = ask(cli, *SPION, "zoff-several", "--defenders", "3", "--lost", "2")
    assert (lost["verdict"], lost["fights"], lost["beaten"]) == ("attacker lost", 2, 1)
    assert "chooses which defender he fights first" in lost["explanation"] and "the other 1 never fight" in lost["explanation"]


@pytest.mark.parametrize("args, message", [
    (("--defenders", "9"), "the other side has 8 spies"),
    (("--defenders", "3", "--embassy"), "an embassy holds no more than 2"),
    (("--defenders", "2", "--lost", "3"), "one ZOFF per defender"),
    (("--defenders", "0"), "must be 1 to 8"),
])
def test_zoff_several_refusals(cli, args, message):
    assert message in refused(cli, *SPION, "zoff-several", *args)


def test_the_two_player_game_has_half_the_enemies(cli):
    assert "the other side has 4 spies" in refused(cli, "referee", "--game", "spion-und-spion:two-player", "zoff-several", "--defenders", "5")


@pytest.mark.parametrize("args, allowed", [
    (("--target", "space"), True), (("--target", "embassy"), False), (("--target", "empty"), False),
    (("--target", "space", "--later-turn"), False),
])
def test_what_the_gray_spy_may_do(cli, args, allowed):
    assert ask(cli, *SPION, "gray-spy", *args)["allowed"] is allowed


@pytest.mark.parametrize("args, taken, bonus", [
    ((), True, 5),                                              # an empty embassy
    (("--defenders", "2", "--beaten", "2"), True, 5),
    (("--defenders", "2", "--beaten", "1"), False, 0),          # every defender must be beaten
    (("--not-exact",), False, 0),                               # land exactly
    (("--where", "space"), True, 0),                            # dropped after the GRAY SPY: no bonus (Register S3)
])
def test_taking_a_bazong(cli, args, taken, bonus):
    answer = ask(cli, *SPION, "bazong", *args)
    assert (answer["allowed"], answer["bonus"]) == (taken, bonus)


def test_a_spy_carries_one_bazong(cli):
    assert "carries one at most" in ask(cli, *SPION, "bazong", "--carrying")["explanation"]
    assert "must be 0 to 2" in refused(cli, *SPION, "bazong", "--defenders", "3", "--beaten", "3")
    assert "must be 0 to 1" in refused(cli, *SPION, "bazong", "--defenders", "1", "--beaten", "2")


# Spion & Spion: traps, the traitor, money, partners -----------------------------------------------------

@pytest.mark.parametrize("args, allowed", [
    (("--bazong-out",), True),
    (("--bazongs-home",), False),                               # only while a BAZONG is outside an embassy
    (("--bazong-out", "--spot", "embassy"), False),
    (("--bazong-out", "--spot", "occupied"), False),
    (("--bazong-out", "--placed-this-turn"), False),            # once a turn
    (("--bazong-out", "--moved"), False),                       # before you move
    (("--bazong-out", "--zillions", "1"), False),               # it costs 2
    (("--bazong-out", "--on-board", "3"), False),               # all three are out
    (("--bazong-out", "--on-board", "2", "--zillions", "2"), True),
])
def test_placing_a_trap(cli, args, allowed):
    assert ask(cli, *SPION, "trap-place", *args)["allowed"] is allowed


def test_trap_place_refusals(cli):
    assert "--bazong-out or --bazongs-home" in refused(cli, *SPION, "trap-place")
    assert "3 NASTY TRAPS" in refused(cli, *SPION, "trap-place", "--bazong-out", "--on-board", "4")


@pytest.mark.parametrize("choice, args, verdict, partner", [
    ("spion-und-spion", ("--match",), "traitor out", False),
    ("spion-und-spion", ("--no-match",), "accuser out", True),
    ("spion-und-spion:two-player", ("--no-match",), "accuser out", False),
    ("spion-und-spion", ("--match", "--delivered"), "too late", False),
])
def test_froehn(cli, choice, args, verdict, partner):
    answer = ask(cli, "referee", "--game", choice, "froehn", *args)
    assert answer["verdict"] == verdict
    assert ("pass your HOT-ENVELOPE" in answer["explanation"]) is partner


def test_froehn_needs_the_envelope_compared(cli):
    assert "--match or --no-match" in refused(cli, *SPION, "froehn")


@pytest.mark.parametrize("owe, money, verdict", [(1, 1, "pays"), (5, 60, "pays"), (1, 0, "leaves the game"), (3, 2, "leaves the game")])
def test_who_cannot_pay_leaves(cli, owe, money, verdict):
    answer = ask(cli, *SPION, "pay", "--owe", str(owe), "--zillions", str(money))
    assert answer["verdict"] == verdict
    if verdict == "leaves the game":
        assert "Register S4" in answer["rules"]


@pytest.mark.parametrize("args", [("--owe", "0", "--zillions", "3"), ("--owe", "6", "--zillions", "9"), ("--owe", "1", "--zillions", "61")])
def test_pay_refusals(cli, args):
    refused(cli, *SPION, "pay", *args)


@pytest.mark.parametrize("goods, args, allowed", [
    ("money", (), False), ("figures", (), False), ("turns", (), False), ("hot-envelope", (), False),
    ("hot-envelope", ("--after-wrong-froehn",), True), ("advice", (), True),
])
def test_what_partners_may_not_trade(cli, goods, args, allowed):
    answer = ask(cli, *SPION, "trade", "--goods", goods, *args)
    assert (answer["allowed"], answer["variant"]) == (allowed, "four-player")


def test_partners_exist_only_in_the_four_player_game(cli):
    assert "spion-und-spion:four-player" in refused(cli, "referee", "--game", "spion-und-spion:two-player", "trade", "--goods", "money")
    result = cli(*SPION, "trade", "--goods", "money")
    assert result.code == 0 and "Answered in the 4 players variant" in result.stdout


def test_a_bazong_brought_home_wins_whatever_the_money(cli):
    assert ask(cli, *SPION, "win", "--zillions", "3", "--bazong-home")["wins"] is True


# Web of Spies: set-up, actions, combat, the end of a turn, the winner ---------------------------------------

def test_setup_from_the_data(cli):
    answer = ask(cli, *WEB, "setup", "4")
    assert (answer["agents"], answer["deck"], answer["hand"]) == (5, 10, 5)
    assert "7 Spy Cards, 1 Black Car, 1 False Identity, 1 Silenced Pistol" in answer["explanation"]
    variants = ask(cli, *WEB, "setup", "2", "--agents", "3", "--fully-loaded")
    assert (variants["agents"], variants["deck"]) == (3, 13) and "Setup Variants" in variants["rules"]


@pytest.mark.parametrize("args, message", [(("1",), "2 to 4 agencies"), (("5",), "2 to 4 agencies"),
                                           (("3", "--agents", "6"), "an agency has 5 agents"), (("3", "--agents", "0"), "5 agents")])
def test_setup_refusals(cli, args, message):
    assert message in refused(cli, *WEB, "setup", *args)


@pytest.mark.parametrize("args, allowed", [
    (("--region", "empty"), True), (("--region", "taken"), False),            # one agency a region
    (("--region", "taken", "--placement", "single-region"), True),
    (("--region", "taken", "--city", "taken", "--placement", "single-region"), False),
    (("--region", "taken", "--city", "taken", "--placement", "scattered"), True),
])
def test_where_agents_start(cli, args, allowed):
    assert ask(cli, *WEB, "start-city", *args)["allowed"] is allowed


@pytest.mark.parametrize("spaces, cards, allowed", [(0, 0, True), (3, 3, True), (3, 2, False)])
def test_a_card_a_space(cli, spaces, cards, allowed):
    assert ask(cli, *WEB, "move", "--spaces", str(spaces), "--cards", str(cards))["allowed"] is allowed


def test_move_refusal(cli):
    assert "negative" in refused(cli, *WEB, "move", "--spaces", "-1", "--cards", "2")


@pytest.mark.parametrize("args, allowed", [
    (("--agent-there",), True), (("--no-agent-there",), False),
    (("--agent-there", "--no-attack-card"), False), (("--agent-there", "--fought-there"), False),
])
def test_when_an_attack_may_be_made(cli, args, allowed):
    assert ask(cli, *WEB, "attack", *args)["allowed"] is allowed


def test_attack_needs_the_agent_question_answered(cli):
    assert "--agent-there or --no-agent-there" in refused(cli, *WEB, "attack")


@pytest.mark.parametrize("last, verdict", [("attacker", "defender killed"), ("defender", "nobody killed")])
def test_how_combat_ends(cli, last, verdict):
    assert ask(cli, *WEB, "combat", "--uncountered", last)["verdict"] == verdict


def test_acquire_refuses_more_agents_than_an_agency_owns(cli):
    assert "an agency has 5 agents" in refused(cli, *WEB, "acquire", "--agents", "6", "--rival", "0", "--cards", "2", "--cost", "1")


@pytest.mark.parametrize("use, verdict", [("move", "discarded face down"), ("acquire", "discarded face down"),
                                          ("unplayed", "discarded face down"), ("attack", "shown, then discarded face down"),
                                          ("ability", "shown, then discarded face down"), ("trash", "trashed")])
def test_where_a_used_card_goes(cli, use, verdict):
    assert ask(cli, *WEB, "discard", "--use", use)["verdict"] == verdict


@pytest.mark.parametrize("deck, discard, from_deck, reshuffled, hand", [
    (7, 3, 5, False, 5), (5, 0, 5, False, 5), (2, 9, 2, True, 5), (0, 3, 0, True, 3), (1, 0, 1, False, 1),
])
def test_drawing_a_new_hand(cli, deck, discard, from_deck, reshuffled, hand):
    answer = ask(cli, *WEB, "draw", "--deck", str(deck), "--discard", str(discard))
    assert (answer["from_deck"], answer["reshuffled"], answer["hand"]) == (from_deck, reshuffled, hand)


def test_no_deck_holds_more_cards_than_the_game(cli):
    assert "at most 90 cards" in refused(cli, *WEB, "draw", "--deck", "50", "--discard", "41")


@pytest.mark.parametrize("args, verdict", [
    (("--on-board", "2"), "place"), (("--on-board", "2", "--spot", "taken"), "re-roll"),
    (("--on-board", "3"), "nothing to place"),
    (("--on-board", "0", "--spot", "start-region", "--at-setup"), "re-roll"),
    (("--on-board", "1", "--spot", "start-region"), "place"),        # the ban is for the start only (Register W1)
])
def test_asset_markers(cli, args, verdict):
    assert ask(cli, *WEB, "place-asset", *args)["verdict"] == verdict


def test_never_more_than_three_asset_markers(cli):
    assert "3 asset slots" in refused(cli, *WEB, "place-asset", "--on-board", "4")


@pytest.mark.parametrize("args, verdict, winners", [
    (("--agents", "3", "--agents", "2"), "game goes on", None),
    (("--agents", "3", "--agents", "2", "--agents", "0"), "winner", [0]),
    (("--agents", "3", "--agents", "3", "--agents", "0"), "code red", []),
    (("--agents", "3", "--agents", "0"), "winner", [0]),
    (("--agents", "2", "--agents", "2", "--agents", "0", "--end-rule", "elimination"), "play on", []),
    (("--agents", "2", "--agents", "1", "--agents", "0", "--end-rule", "total-elimination"), "play on", None),
    (("--agents", "1", "--agents", "3", "--agents", "0", "--end-rule", "trophy-kills",
      "--trophies", "4", "--trophies", "1", "--trophies", "0"), "winner", [0]),
    (("--agents", "1", "--agents", "3", "--agents", "0", "--end-rule", "trophy-kills",
      "--trophies", "2", "--trophies", "2", "--trophies", "0"), "play on", []),
    (("--agents", "2", "--agents", "2", "--agents", "0", "--end-rule", "sudden-death"), "play on", []),
    (("--agents", "3", "--agents", "2", "--agents", "0", "--end-rule", "sudden-death"), "winner", [0]),
    (("--agents", "2", "--agents", "1", "--agents", "0", "--code-red"), "play on", None),
])
def test_the_end_of_the_game_and_its_ties(cli, args, verdict, winners):
    answer = ask(cli, *WEB, "winner", *args)
    assert answer["verdict"] == verdict
    if winners is not None:
        assert answer["winners"] == winners
    rule = "Objective" if "--end-rule" not in args else "End Game and Tie Breaker Variants"
    assert rule in answer["rules"]


@pytest.mark.parametrize("args, message", [
    (("--agents", "3"), "2 to 4 agencies"),
    (("--agents", "6", "--agents", "1"), "0 to 5 agents"),
    (("--agents", "1", "--agents", "1", "--agents", "1", "--agents", "1", "--agents", "1"), "2 to 4 agencies"),
    (("--agents", "1", "--agents", "0", "--trophies", "1", "--trophies", "0"), "only with --end-rule trophy-kills"),
    (("--agents", "1", "--agents", "0", "--end-rule", "trophy-kills", "--trophies", "10", "--trophies", "0"), "9 dead agents"),
    (("--agents", "1", "--agents", "0", "--end-rule", "trophy-kills"), "give --trophies for every agency"),
])
def test_winner_refusals(cli, args, message):
    assert message in refused(cli, *WEB, "winner", *args)


# The Global 1936 spy rule: buying, timing, acting, targets, outcomes -----------------------------------------

@pytest.mark.parametrize("power, holding, allowed", [
    ("germany", 0, True), ("germany", 1, False), ("russia", 1, True), ("russia", 2, False),
    ("FEC", 1, False), ("anzac", 0, True),                  # Britain, FEC and ANZAC share one spy
])
def test_buying_a_spy(cli, power, holding, allowed):
    answer = ask(cli, *G1936, "buy", "--power", power, "--holding", str(holding))
    assert (answer["allowed"], answer["cost"]) == (allowed, 10)


def test_spies_are_bought_in_the_production_phase(cli):
    assert ask(cli, *G1936, "buy", "--power", "japan", "--phase", "place-units")["allowed"] is False


@pytest.mark.parametrize("power, holding", [("germany", 2), ("russia", 3), ("britain", -1)])
def test_no_power_holds_more_spies_than_it_may(cli, power, holding):
    refused(cli, *G1936, "buy", "--power", power, "--holding", str(holding))


@pytest.mark.parametrize("step, phase, bought, allowed", [
    ("buy", "production", False, True), ("buy", "place-units", False, False),
    ("deploy", "place-units", True, True), ("deploy", "production", True, False),
    ("use", "production", False, True), ("use", "production", True, False), ("use", "other", False, False),
])
def test_when_spies_are_bought_deployed_and_used(cli, step, phase, bought, allowed):
    args = ["timing", "--step", step, "--phase", phase] + (["--bought-this-turn"] if bought else [])
    assert ask(cli, *G1936, *args)["allowed"] is allowed


@pytest.mark.parametrize("args, allowed", [
    (("--mission", "espionage"), True),
    (("--mission", "espionage", "--not-declared"), False),                                     # declare before rolling
    (("--mission", "espionage", "--earlier", "diplomacy", "--rolls-made", "1"), False),        # one function a turn
    (("--mission", "diplomacy", "--earlier", "diplomacy", "--rolls-made", "1"), True),         # Diplomacy rolls twice
    (("--mission", "diplomacy", "--earlier", "diplomacy", "--rolls-made", "2"), False),
    (("--mission", "assassinate", "--earlier", "assassinate", "--rolls-made", "1"), False),    # Register G2
])
def test_declaring_and_one_function_a_turn(cli, args, allowed):
    assert ask(cli, *G1936, "act", *args)["allowed"] is allowed


def test_act_refusals(cli):
    assert "go together" in refused(cli, *G1936, "act", "--mission", "espionage", "--earlier", "diplomacy")
    assert "at most 2 times" in refused(cli, *G1936, "act", "--mission", "espionage", "--rolls-made", "3", "--earlier", "diplomacy")


@pytest.mark.parametrize("args, allowed", [
    (("--goal", "align"), True), (("--goal", "un-align"), True), (("--goal", "align", "--purchased"), True),
    (("--goal", "un-align", "--fully-aligned"), False), (("--goal", "align", "--fully-aligned"), False),
])
def test_diplomacy_limits(cli, args, allowed):
    answer = ask(cli, *G1936, "diplomacy", *args)
    assert answer["allowed"] is allowed
    if "--purchased" in args:
        assert "the one you bought" in answer["explanation"]


@pytest.mark.parametrize("args, allowed", [
    (("--their-stage", "2", "--your-stage", "1"), True),
    (("--their-stage", "complete", "--your-stage", "3"), True),
    (("--their-stage", "2", "--your-stage", "2"), False),           # a higher stage than yours
    (("--their-stage", "none", "--your-stage", "none"), False),
    (("--their-stage", "3", "--your-stage", "1", "--ally"), False),  # not an ally
    (("--their-stage", "3", "--your-stage", "1", "--before-purchased"), False),
])
def test_espionage_conditions(cli, args, allowed):
    assert ask(cli, *G1936, "espionage", *args)["allowed"] is allowed


def test_espionage_refuses_a_stage_that_does_not_exist(cli):
    assert "--their-stage" in refused(cli, *G1936, "espionage", "--their-stage", "4", "--your-stage", "1")


@pytest.mark.parametrize("mission, verdict", [("diplomacy", "alignment marker moves"), ("espionage", "technology taken"),
                                              ("assassinate", "spy removed"), ("double-agent", "spy turned"), ("reverse", "spy restored")])
def test_what_follows_a_mission(cli, mission, verdict):
    assert ask(cli, *G1936, "outcome", "--mission", mission)["verdict"] == verdict
    assert ask(cli, *G1936, "outcome", "--mission", mission, "--failed")["verdict"] == "nothing happens"


def test_an_assassinated_spy_may_be_bought_again_and_a_double_agent_acts_at_once(cli):
    assert "next round" in ask(cli, *G1936, "outcome", "--mission", "assassinate")["explanation"]
    turned = ask(cli, *G1936, "outcome", "--mission", "double-agent")
    assert "at once for more tasks" in turned["explanation"] and "Register G1" in turned["rules"]


@pytest.mark.parametrize("mission, chance", [("diplomacy", "4/12"), ("espionage", "3/12"), ("reverse", "4/12")])
def test_a_double_agents_plus_one_adds_a_winning_number(cli, mission, chance):
    answer = ask(cli, *G1936, "mission", "--mission", mission, "--with-double-agent")
    assert answer["chance"] == chance and "Register G1" in answer["rules"]
    assert ask(cli, *G1936, "mission", "--mission", mission)["chance"] != chance


# Every game: the help, the worked examples, the coverage of the rules, the register --------------------------

GAMES = sorted(LETTERS)


def section(game) -> str:
    """The part of docs/rulings.md about `game`, under the heading of its title."""
    parts = re.split(r"^## ", REGISTER, flags=re.M)
    return next(p for p in parts if p.startswith(game.info.title + "\n"))


@pytest.fixture(scope="module")
def referees():
    from generators.referee.game_code import load_referee
    from generators.validation import load_game

    return {name: (game := load_game(name), load_referee(game)) for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_help_lists_every_question_with_its_summary(cli, referees, name):
    game, referee = referees[name]
    result = cli("referee", "--game", name, "--help")
    assert result.code == 0
    listed = re.sub(r"\s+", " ", result.stdout.partition("Commands:")[2])
    for question in referee.questions.values():
        assert f" {question.name} {question.summary}" in listed, question.name


@pytest.mark.parametrize("name", GAMES)
def test_each_questions_worked_example_runs_as_shown(cli, referees, name):
    import shlex

    game, referee = referees[name]
    for question in referee.questions.values():
        shown = cli("referee", "--game", name, question.name, "--help").stdout
        example = re.search(r"^\s*Example:\n\s+(dossier referee .+)$", shown, re.M)
        assert example, f"{name} {question.name}: no example in its help"
        words = shlex.split(example.group(1))
        assert question.name in words
        ruling = ask(cli, *words[1:])
        assert ruling["question"] == question.name and ruling["game"] == name


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_of_the_game_has_a_question_or_a_reason(referees, name):
    game, referee = referees[name]
    text = section(game)
    table = text.partition("### Coverage")[2].partition("###")[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| Rule")]
    covered = {rule.strip() for cells in rows for rule in cells[0].split(";")}
    assert covered == set(read_yaml(game.file("cards.yaml"))["citations"])
    named = {q for cells in rows for q in re.findall(r"`([\w-]+)`", cells[1])}
    assert named <= set(referee.questions) | {"position"}
    assert set(referee.questions) <= named
    assert all(cells[1] or cells[2] for cells in rows), "a rule without a question says why"


@pytest.mark.parametrize("name", GAMES)
def test_every_register_entry_asks_a_question_and_gives_passages_readings_and_the_reading_followed(referees, name):
    game, _ = referees[name]
    text = section(game)
    letter = LETTERS[name]
    numbers = [int(n) for n in re.findall(rf"^#### {letter}(\d+)\. .+\?$", text, re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and numbers
    assert {int(n) for n in re.findall(rf"^\| {letter}(\d+) \|", text, re.M)} == set(numbers)
    for part in re.split(r"^#### ", text, flags=re.M)[1:]:
        assert "**Passages.**" in part and "**Readings" in part and "**Followed" in part, part[:40]


@pytest.mark.parametrize("name", GAMES)
def test_every_register_entry_cited_in_the_code_exists(name):
    code = "".join(p.read_text(encoding="utf-8") for p in sorted((paths.components_dir() / name).glob("*.py")))
    cited = set(re.findall(r"Register ([A-Z]\d+)", code))
    assert cited and all(c[0] == LETTERS[name] for c in cited), cited
    assert {f"Register {c}" for c in cited} <= citable(name)


@pytest.mark.parametrize("args", [("move", "--spaces", "2", "--cards", "91"),
                                  ("acquire", "--agents", "2", "--rival", "0", "--cards", "91", "--cost", "1")])
def test_no_hand_holds_more_cards_than_an_agency_owns(cli, args):
    assert "at most 90 cards" in refused(cli, *WEB, *args)


# Spion & Spion: whose turn; Web of Spies: a whole combat and the acquired asset's marker ------------------------

@pytest.mark.parametrize("choice, after, following", [
    ("spion-und-spion", None, "black"), ("spion-und-spion", "black", "white"), ("spion-und-spion", "white", "black-red"),
    ("spion-und-spion", "black-red", "white-blue"), ("spion-und-spion", "white-blue", "black"),
    ("spion-und-spion:two-player", "black", "white"), ("spion-und-spion:two-player", "white", "black")])
def test_black_starts_and_play_passes_clockwise_round_the_embassies(cli, choice, after, following):
    ruling = ask(cli, "referee", "--game", choice, "turn", *(("--after", after) if after else ()))
    assert ruling["next"] == following
    assert ruling["order"][0] == "black" and len(ruling["order"]) == (2 if "two" in choice else 4)


def test_a_colour_without_an_embassy_on_the_two_player_board_has_no_turn(cli):
    assert "has no embassy" in refused(cli, "referee", "--game", "spion-und-spion:two-player", "turn", "--after", "black-red")


@pytest.mark.parametrize("cards, ruling_name, broken_at", [
    (["attack,violence", "defend,violence,surveillance", "attack,surveillance"], "defender killed", None),   # the rulebook's pattern
    (["attack,violence", "defend,violence"], "nobody killed", None),
    (["attack,violence", "defend,information"], "not allowed", 2),            # no shared symbol
    (["attack,violence", "attack,violence"], "not allowed", 2),               # the defender needs Defend
    (["defend,violence"], "not allowed", 1),                                  # the opening card needs Attack
    (["attack,violence", "defend,violence", "defend,attack,information"], "not allowed", 3),   # shares nothing with card 2
])
def test_a_chain_of_combat_cards_is_checked_card_by_card_and_the_last_standing_decides(cli, cards, ruling_name, broken_at):
    ruling = ask(cli, *WEB, "chain", *[w for c in cards for w in ("--card", c)])
    assert (ruling["ruling"], ruling["broken_at"]) == (ruling_name, broken_at)


def test_an_acquired_assets_marker_is_off_the_board_until_the_turn_ends(cli):
    assert ask(cli, *WEB, "asset-marker")["ruling"] == "off the board"
    assert ask(cli, *WEB, "asset-marker", "--turn-over")["ruling"] == "replaced"


# The printed Web of Spies cards follow the Combat examples they come from ------------------------------

def _card(name: str) -> str:
    """A printed card's symbols as the referee's --card takes them ("attack,violence")."""
    from generators.validation import load_game

    game = load_game("web-of-spies")
    piece = next(p for p in game.pieces if p.name == name)
    return ",".join(game.info.symbol_names[s].lower() for s in (*(piece.marks or ()), *(piece.icons or ())))


def test_the_printed_cards_play_the_first_combat_example(cli):
    """The Shotgun attacks; the Uzi may defend; the Silenced Pistol shares no symbol; the American CIA shares
    one but is no Defend card (Combat)."""
    def chain(*names):
        return ask(cli, *WEB, "chain", *(a for n in names for a in ("--card", _card(n))))

    assert chain("Shotgun")["verdict"] == "defender killed"
    assert chain("Shotgun", "Uzi")["verdict"] == "nobody killed"
    assert "shares no combat symbol" in chain("Shotgun", "Silenced Pistol")["explanation"]
    assert "Defend symbol" in chain("Shotgun", "American CIA")["explanation"]
    assert set(_card("Shotgun").split(",")) & set(_card("American CIA").split(","))


def test_the_printed_cards_play_the_second_combat_example(cli):
    """Flame Thrower, Helicopter, Egyptian GID (the binoculars), Unarmed Combat, Armed Thugs: each counters the
    last, and a defender with no counter dies."""
    names = ("Flame Thrower", "Helicopter", "Egyptian GID", "Unarmed Combat", "Armed Thugs")
    ruling = ask(cli, *WEB, "chain", *(a for n in names for a in ("--card", _card(n))))
    assert ruling["verdict"] == "defender killed", ruling["explanation"]
    assert "surveillance" in set(_card("Helicopter").split(",")) & set(_card("Egyptian GID").split(","))


def test_every_starting_deck_can_attack():
    """The Attack Action needs a card with the Attack symbol: each agency's ten starting cards hold one."""
    from generators.validation import load_game

    game = load_game("web-of-spies")
    for agency in ("yellow", "sky-blue", "vermillion", "purple"):
        deck = [p for p in game.pieces if p.nation == agency and p.kind in ("spy-card", "starting-card")]
        assert any("target" in (p.marks or ()) for p in deck), agency
