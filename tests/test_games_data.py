"""The four other spy games as data: each validates, is listed, and holds its components as its source prints them."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import source_text

from generators.validation import load_game

GAMES = ["spion-und-spion", "web-of-spies", "global-1936-spies", "special-action-tokens"]


def seed(prefix: str) -> str:
    """Source `prefix` (skipped without it, but failed under CI: see conftest.source_text)."""
    return source_text(prefix)


def counted(game, **where) -> Counter:
    """Copies per piece name among the pieces matching `where`."""
    total: Counter = Counter()
    for piece in game.pieces:
        if all(getattr(piece, k) == v for k, v in where.items()):
            total[piece.name] += piece.count
    return total


@pytest.mark.parametrize("name", GAMES)
def test_each_game_validates_through_the_cli(cli, name):
    result = cli("validate", "--game", name)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"{name}: valid")


def test_games_lists_every_game(cli):
    result = cli("games", "--json")
    assert result.code == 0
    listed = {row["name"]: row for row in result.json()}
    assert set(GAMES) <= set(listed)
    assert listed["spion-und-spion"]["title"] == "Spion & Spion"


@pytest.mark.parametrize("name", GAMES)
def test_every_assumption_gives_a_reason(cli, name):
    result = cli("assumptions", "--game", name, "--json")
    assert result.code == 0
    rows = result.json()
    assert rows, "each of these sources leaves something to assume"
    assert all(len(r["reason"]) > 20 for r in rows)


# Spion & Spion -------------------------------------------------------------------------------

def test_pass_card_piles_as_printed():
    game = load_game("spion-und-spion")
    text = seed("002")
    printed = {name: int(n) for n, name in re.findall(r"^(\d+) ([A-Z]+)-CARDS?\b", text, re.M)}
    assert printed == {"FAHR": 3, "FLITZ": 2, "DUES": 1, "GAEHN": 1, "SCHECK": 1, "LECHZ": 1,
                       "ANSICHTS": 1, "SCHLUCHZ": 1}
    for colour in ("black", "white"):
        assert counted(game, kind="pass-card", nation=colour) == printed
        assert sum(counted(game, kind="pass-card", nation=colour).values()) == 11


def test_zoff_cards_a_b_c_in_each_colour():
    game = load_game("spion-und-spion")
    for colour in ("black", "white", "black-red", "white-blue"):
        assert counted(game, kind="zoff-card", nation=colour) == {"A": 1, "B": 1, "C": 1}


def test_money_bazongs_traps_and_spies_as_listed():
    game = load_game("spion-und-spion")
    money = sum(p.value * p.count for p in game.pieces if p.kind == "zillion")
    assert money == 60  # "1 Bunch of Money: 60 ZILLION!"
    assert counted(game, kind="bazong", nation="black") == {"BAZONG": 2}
    assert counted(game, kind="bazong", nation="white") == {"BAZONG": 2}
    assert counted(game, kind="trap") == {"Snake": 1, "Magnet": 1, "Bottle": 1}
    # the Ingredients list 3, but each of the four players hides his number in his own (THE HOT ENVELOPE)
    envelope = next(p for p in game.pieces if p.kind == "hot-envelope")
    assert counted(game, kind="hot-envelope") == {"HOT-ENVELOPE": 4} and "count" in envelope.assumed
    for colour in ("black", "white", "black-red", "white-blue"):
        assert counted(game, kind="spy", nation=colour) == {"1": 1, "2": 1, "3": 1}
        assert sum(counted(game, kind="spare-spy", nation=colour).values()) == 1
    assert counted(game, kind="gray-spy") == {"GRAY SPY": 1}


def test_traitor_slips_carry_the_letter_each_colour_writes():
    game = load_game("spion-und-spion")
    letters = {p.nation: re.search(r"the letter (\w+);", p.text).group(1) for p in game.pieces if p.kind == "traitor-slip"}
    assert letters == {"black": "W", "white": "B", "black-red": "WB", "white-blue": "R"}


# Web of Spies ---------------------------------------------------------------------------------

def test_each_agency_starts_with_ten_cards():
    game = load_game("web-of-spies")
    for agency in ("yellow", "sky-blue", "vermillion", "purple"):
        deck = counted(game, nation=agency, kind="spy-card") + counted(game, nation=agency, kind="starting-card")
        assert deck == {"Spy Card": 7, "Black Car": 1, "False Identity": 1, "Silenced Pistol": 1}
    assert sum(counted(game, kind="spy-card").values()) == 28  # "28 Spy Cards"
    assert sum(counted(game, kind="agent").values()) == 20  # "20 Pawns (Agents)"
    assert sum(counted(game, kind="player-mat").values()) == 4


def test_asset_cards_are_those_the_rulebook_names():
    game = load_game("web-of-spies")
    text = seed("004")
    assets = [p.name for p in game.pieces if p.kind == "asset-card"]
    assert len(assets) == 8
    for name in assets:
        assert name in text
    # no ability or cost is invented: each card leaves them to write in, and its symbols say why they are read so
    assert {p.text for p in game.pieces if p.kind == "asset-card"} == {"Ability:"}
    assert all(p.cost is None and "icons" in p.assumed for p in game.pieces if p.kind == "asset-card")


# The Global 1936 spy rule and the Special Action tokens ----------------------------------------

def test_one_marker_per_power_and_two_for_russia():
    game = load_game("global-1936-spies")
    per_power = Counter()
    for piece in game.pieces:
        per_power[piece.nation] += piece.count
    assert per_power.pop("russia") == 2
    assert set(per_power.values()) == {1}
    assert "britain" in per_power and "fec" not in per_power and "anzac" not in per_power


def test_three_tokens_for_each_player():
    game = load_game("special-action-tokens")
    text = seed("003")
    for player in ("player-1", "player-2"):
        assert counted(game, nation=player) == {"Reveal 1": 1, "Move 2": 1, "Swap 2": 1}
    assert "six Special Action tokens: three for each player" in text
