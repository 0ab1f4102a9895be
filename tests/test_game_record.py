"""`dossier referee game FILE`: a whole Spies! game record replayed on the board, one case per rule and per illegal action."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "first-round-1933.yaml"


def example() -> dict:
    return yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))


def write(tmp_path: Path, record: dict, name: str = "record.yaml") -> Path:
    file = tmp_path / name
    file.write_text(yaml.safe_dump(record, sort_keys=False), encoding="utf-8")
    return file


def replay(cli, file: Path, *args: str):
    return cli("referee", "game", str(file), "--json", *args)


# ---- the worked example -----------------------------------------------------------------------------------

def test_the_documented_first_round_of_1933_replays_to_its_final_score(cli):
    result = replay(cli, EXAMPLE)
    assert result.code == 0, result.stderr
    found = result.json()
    assert (found["legal"], found["played"]) == (True, 20)
    assert found["score"] == {"germany": 0, "italy": 0, "russia": 0, "france": 12, "britain": 0}
    position = found["position"]
    assert (position["year"], position["turn"]) == (1934, "germany")
    assert position["powers"]["germany"]["spies"]["Kurt"] == {"city": "Prague", "controls": "Atomic Bomb"}
    assert position["powers"]["britain"]["money"] == 54          # 2£ for Rose in Geneva from Ge 6 and from Fr 23
    assert [e["name"] for e in position["powers"]["france"]["record"]] == ["germany/Heidi", "britain/Winston"]


def test_the_docs_page_shows_the_example_it_runs():
    page = (EXAMPLE.parents[1] / "game-records.md").read_text(encoding="utf-8")
    assert "docs/examples/first-round-1933.yaml" in page and "france 12" in page


def test_the_final_position_is_a_legal_position_file(cli, tmp_path):
    final = replay(cli, EXAMPLE).json()["position"]
    result = cli("referee", "position", str(write(tmp_path, final, "final.yaml")))
    assert result.code == 0, result.stdout + result.stderr


def test_until_prints_the_position_after_that_action(cli):
    found = replay(cli, EXAMPLE, "--until", "2").json()
    assert found["played"] == 2 and found["position"]["powers"]["germany"]["spies"]["Kurt"] == "Prague"
    text = cli("referee", "game", str(EXAMPLE), "--until", "2")
    assert text.code == 0 and "after action 2" in text.stdout


# ---- one illegal action at each of ten places ---------------------------------------------------------------

TEN = [
    (1, {"power": "germany", "move": "Kurt", "path": ["Berlin", "Dresden"]}, "tile-first", "Standard: Playing Event Tiles"),
    (2, {"power": "germany", "move": "Kurt", "path": ["Berlin", "Prague"]}, "path-gap", "Standard: Moving Your Spies"),
    (3, {"power": "germany", "chit": "Discovery", "spy": "Kurt", "secret": "Enigma Code"}, "no-secret", "Standard: Controlling Secrets"),
    (5, {"power": "italy", "discard": "Ge 3"}, "not-held", "Standard: Playing Event Tiles"),
    (6, {"power": "italy", "move": "Mario", "path": ["Vienna", "Prague", "Vienna", "Prague", "Vienna", "Prague", "Vienna"]},
     "too-far", "Standard: Moving Your Spies"),
    (8, {"power": "italy", "move": "Carla", "path": ["Rome"]}, "not-your-turn", "Standard: Searching for Arriving Enemy Spies"),
    (10, {"power": "germany", "search": "Moscow", "spy": "russia/Alexi"}, "search-not-moved", "Standard: Searching for Arriving Enemy Spies"),
    (12, {"power": "france", "tile": "Fr 23", "drawn": {"germany": ["Recruit", "Papers"], "italy": ["Papers"]}},
     "wrong-draw", "Standard: Playing Event Tiles"),
    (13, {"power": "france", "police": [{"strength": 4, "city": "Berlin"}, {"strength": 2, "city": "Lille"}]},
     "police-abroad", "Standard: Re-Arranging Your Police"),
    (20, {"power": "britain", "cash-in": "Primitive Radar", "drawn": ["Papers"]}, "not-controlled", "Standard: Controlling Secrets"),
]


@pytest.mark.parametrize("number, action, code, rule", TEN, ids=[f"action-{n}-{c}" for n, _, c, _ in TEN])
def test_an_illegal_action_is_reported_with_its_number_rule_and_the_position_before_it(cli, tmp_path, number, action, code, rule):
    record = example()
    record["actions"][number - 1] = action
    result = replay(cli, write(tmp_path, record))
    assert result.code == 1, result.stderr
    bad = result.json()["illegal"]
    assert (bad["action"], bad["code"]) == (number, code), bad
    assert rule in bad["rules"]
    assert result.json()["played"] == number - 1
    assert bad["before"] == replay(cli, EXAMPLE, "--until", str(number - 1)).json()["position"]


def test_the_text_report_names_the_line_the_number_and_the_rule(cli, tmp_path):
    record = example()
    record["actions"][1] = TEN[1][1]
    file = write(tmp_path, record)
    result = cli("referee", "game", str(file))
    lines = file.read_text().splitlines()
    first = lines.index("actions:")
    line = [i for i, text in enumerate(lines, 1) if i > first and text.startswith("- ")][1]   # where action 2 begins
    assert result.code == 1 and f":{line}: action 2 is illegal" in result.stdout
    assert "[Standard: Moving Your Spies]" in result.stdout and "Position before action 2:" in result.stdout


# ---- random elements recorded wrongly ------------------------------------------------------------------------

def test_a_chit_drawn_that_is_no_longer_in_the_cup_is_refused(cli, tmp_path):
    record = example()
    record["start"]["cup"] = {"Papers": 5, "Discovery": 5, "Recruit": 0, "Escape": 5, "Sanction": 5, "Cover": 5}
    result = replay(cli, write(tmp_path, record))
    bad = result.json()["illegal"]
    assert (result.code, bad["action"], bad["code"]) == (1, 12, "not-in-cup")
    assert "no Recruit is left in the cup" in bad["message"]


def test_a_chit_the_variant_leaves_out_cannot_be_drawn(cli, tmp_path):
    record = example()
    record["actions"][11]["drawn"]["germany"][0] = "Drop"
    bad = replay(cli, write(tmp_path, record)).json()["illegal"]
    assert (bad["action"], bad["code"]) == (12, "not-in-cup")


# ---- unreadable records: exit 2 naming the line -----------------------------------------------------------------

def test_an_unknown_city_is_refused_naming_its_line(cli, tmp_path):
    record = example()
    record["actions"][1]["path"] = ["Berlin", "Atlantis"]
    result = cli("referee", "game", str(write(tmp_path, record)))
    assert result.code == 2 and "Atlantis" in result.stderr and "line " in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("change, message", [
    (lambda r: r["actions"].__setitem__(0, {"power": "germany"}), "exactly one of"),
    (lambda r: r.pop("start"), "starting position under start:"),
    (lambda r: r.__setitem__("moves", []), "unknown key 'moves'"),
    (lambda r: r["actions"].__setitem__(0, "germany plays a tile"), "an action is a mapping"),
])
def test_a_record_of_the_wrong_shape_is_refused(cli, tmp_path, change, message):
    record = example()
    change(record)
    result = cli("referee", "game", str(write(tmp_path, record)))
    assert result.code == 2 and message in result.stderr, result.stderr


def test_until_beyond_the_record_is_refused(cli):
    result = cli("referee", "game", str(EXAMPLE), "--until", "99")
    assert result.code == 2 and "the record has 20 actions" in result.stderr


# ---- the rules, one small case each ------------------------------------------------------------------------

def small(variant: str = "standard", **powers) -> dict:
    """A record of Germany's turn alone, from a position with only the pieces given."""
    base = {"germany": {"money": 50, "chits": [], "spies": {}, "police": []}}
    for power, holding in powers.items():
        base[power] = {"money": 50, "chits": [], "spies": {}, "police": []} | holding
    return {"variant": variant, "start": {"year": 1933, "turn": "germany", "powers": base, "secrets": {}}, "actions": []}


def play(cli, tmp_path, record: dict, *actions: dict):
    record["actions"] = [{"power": "germany", "discard": "Ge 1"}, *actions]
    return replay(cli, write(tmp_path, record)).json()


def test_a_spy_finishes_its_move_before_another_begins_and_moves_once(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Berlin", "Erik": "Berlin"}})
    found = play(cli, tmp_path, record, {"power": "germany", "move": "Kurt", "path": ["Berlin", "Dresden"]},
                 {"power": "germany", "move": "Erik", "path": ["Berlin", "Dresden"]},
                 {"power": "germany", "move": "Kurt", "path": ["Dresden", "Prague"]})
    assert (found["illegal"]["action"], found["illegal"]["code"]) == (4, "moved-twice")


def test_searches_in_one_city_come_before_moving(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Berlin"}, "police": [{"strength": 3, "city": "Berlin"}]},
                   france={"spies": {"Jean": "Berlin"}})
    found = play(cli, tmp_path, record, {"power": "germany", "move": "Kurt", "path": ["Berlin", "Dresden"]},
                 {"power": "germany", "search": "Berlin", "spy": "france/Jean"})
    assert found["illegal"]["code"] == "order"


def test_police_search_each_spy_once_a_turn(cli, tmp_path):
    record = small(germany={"police": [{"strength": 2, "city": "Berlin"}]}, france={"spies": {"Jean": "Berlin"}})
    found = play(cli, tmp_path, record, {"power": "germany", "search": "Berlin", "spy": "france/Jean"},
                 {"power": "germany", "search": "Berlin", "spy": "france/Jean"})
    assert (found["illegal"]["action"], found["illegal"]["code"]) == (3, "search-twice")


def test_papers_avoid_the_comparison_and_are_paid_for(cli, tmp_path):
    record = small(germany={"police": [{"strength": 4, "city": "Berlin"}]}, france={"spies": {"Theo": "Berlin"}, "chits": ["Papers"]})
    found = play(cli, tmp_path, record, {"power": "germany", "search": "Berlin", "spy": "france/Theo", "evade": "Papers"})
    assert found["legal"] and found["position"]["powers"]["france"]["spies"] == {"Theo": "Berlin"}
    assert found["position"]["powers"]["france"]["money"] == 48


def test_only_a_spy_cashes_a_secret_in_never_police(cli, tmp_path):
    record = small(germany={"police": [{"strength": 2, "city": "Berlin", "controls": "Atomic Bomb"}]})
    record["start"]["secrets"] = {"Atomic Bomb": {"city": "Berlin", "home": "france"}}
    found = play(cli, tmp_path, record, {"power": "germany", "cash-in": "Atomic Bomb", "drawn": ["Papers"]})
    assert found["illegal"]["code"] == "not-controlled"


def test_a_foreign_secret_at_the_capital_is_cashed_in_for_20_and_a_chit(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": {"city": "Berlin", "controls": "Atomic Bomb"}}})
    record["start"]["secrets"] = {"Atomic Bomb": {"city": "Berlin", "home": "france"}}
    found = play(cli, tmp_path, record, {"power": "germany", "cash-in": "Atomic Bomb", "drawn": ["Papers"]})
    germany = found["position"]["powers"]["germany"]
    assert (germany["money"], germany["chits"], germany["record"][0]["name"]) == (70, ["Papers"], "Atomic Bomb")
    assert found["score"]["germany"] == 5 * 3


def test_an_original_secret_is_never_cashed_in(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": {"city": "Berlin", "controls": "Enigma Code"}}})
    record["start"]["secrets"] = {"Enigma Code": "Berlin"}
    assert play(cli, tmp_path, record, {"power": "germany", "cash-in": "Enigma Code", "drawn": ["Papers"]})["illegal"]["code"] == "original"


def test_an_original_secret_at_home_is_taken_without_discovery_a_foreign_one_not(cli, tmp_path):
    record = small(germany={"police": [{"strength": 2, "city": "Berlin"}]})
    record["start"]["secrets"] = {"Enigma Code": "Berlin", "Atomic Bomb": {"city": "Berlin", "home": "france"}}
    assert play(cli, tmp_path, copy.deepcopy(record), {"power": "germany", "control": "Enigma Code", "strength": 2})["legal"]
    refused = play(cli, tmp_path, record, {"power": "germany", "control": "Atomic Bomb", "strength": 2})
    assert refused["illegal"]["code"] == "discovery-needed"


def test_a_counterspy_captures_a_weaker_spy_but_never_a_cousin_in_the_long_game(cli, tmp_path):
    for variant, spy, captured in (("standard", "Heidi", True), ("long", "Cousin", False)):
        record = small(variant, germany={"spies": {spy: "Prague"}, "chits": ["Discovery"]})
        record["start"]["secrets"] = {"counterspy A": {"city": "Prague", "counterspy": 5}}
        found = play(cli, tmp_path, record, {"power": "germany", "chit": "Discovery", "spy": spy, "secret": "counterspy A"})
        assert found["legal"], found
        assert (spy not in found["position"]["powers"]["germany"]["spies"]) is captured
        assert "counterspy A" not in found["position"]["secrets"]


def test_a_counterspy_nobody_holds_scores_its_capture_for_the_power_whose_territory_it_lies_in(cli, tmp_path):
    record = small(germany={"spies": {"Heidi": "Paris"}, "chits": ["Discovery"]})
    record["start"]["secrets"] = {"counterspy A": {"city": "Paris", "counterspy": 5}}
    found = play(cli, tmp_path, record, {"power": "germany", "chit": "Discovery", "spy": "Heidi", "secret": "counterspy A"})
    entry = found["position"]["powers"]["france"]["record"][0]
    assert (entry["kind"], entry["name"], entry["value"]) == ("spy", "germany/Heidi", 1)   # Register R14


def test_a_counterspy_in_a_neutral_country_sends_the_spy_to_no_record(cli, tmp_path):
    record = small(germany={"spies": {"Heidi": "Geneva"}, "chits": ["Discovery"]})
    record["start"]["secrets"] = {"counterspy A": {"city": "Geneva", "counterspy": 5}}
    found = play(cli, tmp_path, record, {"power": "germany", "chit": "Discovery", "spy": "Heidi", "secret": "counterspy A"})
    assert "Heidi" not in found["position"]["powers"]["germany"]["spies"]
    assert not any(h.get("record") for h in found["position"]["powers"].values())


def test_a_chit_costs_its_action_points_on_top_of_its_pounds_in_the_long_game(cli, tmp_path):
    """Eight spaces moved, Discovery (1 Action Point, the pieces' data) and talks with three opponents spend all 12:
    a talk with the fourth is one too many, as it would not be if the chit cost nothing."""
    record = small("long", germany={"spies": {"Kurt": "Berlin", "Erik": "Berlin"}, "chits": ["Discovery"]})
    record["start"]["secrets"] = {"Atomic Bomb": "Budapest"}
    found = play(cli, tmp_path, record,
                 {"power": "germany", "move": "Kurt", "path": ["Berlin", "Dresden", "Prague", "Vienna", "Budapest"]},
                 {"power": "germany", "chit": "Discovery", "spy": "Kurt", "secret": "Atomic Bomb"},
                 {"power": "germany", "move": "Erik", "path": ["Berlin", "Dresden", "Prague", "Vienna", "Budapest"]},
                 {"power": "germany", "talk": ["italy", "russia", "france"]}, {"power": "germany", "talk": ["britain"]})
    assert (found["illegal"]["action"], found["illegal"]["code"]) == (6, "action-points")
    assert "costs 1 Action Point and only 0 of the 12 are left" in found["illegal"]["message"]


def test_discovery_is_barred_in_a_spy_haven_in_the_long_game_only(cli, tmp_path):
    for variant, code in (("long", "haven"), ("standard", "no-secret")):
        record = small(variant, germany={"spies": {"Kurt": "Geneva"}, "chits": ["Discovery"]})
        found = play(cli, tmp_path, record, {"power": "germany", "chit": "Discovery", "spy": "Kurt", "secret": "Enigma Code"})
        assert found["illegal"]["code"] == code


def test_the_long_game_budget_is_12_action_points_a_turn(cli, tmp_path):
    record = small("long", germany={"spies": {"Kurt": "Berlin", "Erik": "Berlin", "Heidi": "Berlin"}})
    found = play(cli, tmp_path, record,
                 {"power": "germany", "move": "Kurt", "path": ["Berlin", "Dresden", "Prague", "Vienna", "Budapest"]},
                 {"power": "germany", "move": "Erik", "path": ["Berlin", "Dresden", "Prague", "Vienna", "Budapest"]},
                 {"power": "germany", "move": "Heidi", "path": ["Berlin", "Dresden", "Prague", "Vienna", "Budapest"]},
                 {"power": "germany", "talk": ["italy"]})
    assert (found["illegal"]["action"], found["illegal"]["code"]) == (5, "action-points")
    assert "3.1" in found["illegal"]["rules"]


def test_no_action_points_are_spent_on_another_players_turn(cli, tmp_path):
    record = small("long", germany={"spies": {"Kurt": "Berlin"}}, france={"police": [{"strength": 4, "city": "Paris"}]})
    found = play(cli, tmp_path, record, {"power": "germany", "move": "Kurt", "path": ["Berlin", "Paris"]},
                 {"power": "france", "search": "Paris", "spy": "germany/Kurt"})
    assert found["legal"] and "Kurt" not in found["position"]["powers"]["germany"]["spies"]


def test_talks_are_opened_only_on_your_own_turn(cli, tmp_path):
    found = play(cli, tmp_path, small(), {"power": "italy", "talk": ["germany"]})
    assert found["illegal"]["code"] == "talk-timing"


def test_a_tile_is_played_only_in_its_years(cli, tmp_path):
    record = small()
    record["actions"] = [{"power": "germany", "tile": "Ge 1"}]
    found = replay(cli, write(tmp_path, record)).json()
    assert found["illegal"]["code"] == "tile-year"


def test_a_moving_spy_hands_its_secret_to_another_that_may_carry_it_on_if_it_has_not_moved(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": {"city": "Prague", "controls": "Atomic Bomb"}, "Heidi": "Vienna", "Erik": "Vienna"}})
    record["start"]["secrets"] = {"Atomic Bomb": {"city": "Prague", "home": "france"}}
    found = play(cli, tmp_path, copy.deepcopy(record), {"power": "germany", "move": "Kurt", "path": ["Prague", "Vienna"]},
                 {"power": "germany", "transfer": "Atomic Bomb", "from": "Kurt", "to": "Heidi"},
                 {"power": "germany", "move": "Heidi", "path": ["Vienna", "Budapest"]})
    spies = found["position"]["powers"]["germany"]["spies"]
    assert spies["Heidi"] == {"city": "Budapest", "controls": "Atomic Bomb"} and spies["Kurt"] == "Vienna"
    moved = play(cli, tmp_path, record, {"power": "germany", "move": "Heidi", "path": ["Vienna", "Budapest"]},
                 {"power": "germany", "move": "Kurt", "path": ["Prague", "Vienna"]},
                 {"power": "germany", "transfer": "Atomic Bomb", "from": "Kurt", "to": "Erik"},
                 {"power": "germany", "transfer": "Atomic Bomb", "from": "Erik", "to": "Kurt"})
    assert moved["illegal"]["code"] == "transfer-not-moving"   # only the spy moving now hands a secret on


def test_a_sanction_kills_an_enemy_spy_in_the_same_city_and_scores_a_marker_worth_its_strength(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Prague"}, "chits": ["Sanction"]}, france={"spies": {"Jean": "Prague"}})
    found = play(cli, tmp_path, record, {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean"})
    assert found["legal"], found
    assert "Jean" not in found["position"]["powers"]["france"]["spies"] and found["position"]["sanctioned_box"] == ["france/Jean"]
    marker = found["position"]["powers"]["germany"]["record"][0]
    assert (marker["kind"], marker["value"]) == ("sanctioned", 3) and found["score"]["germany"] == 3 * 3   # Register R15; 1933 is x3
    assert found["position"]["powers"]["germany"]["money"] == 30


def test_a_sanction_on_a_spy_in_another_city_is_refused(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Prague"}, "chits": ["Sanction"]}, france={"spies": {"Jean": "Vienna"}})
    found = play(cli, tmp_path, record, {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean"})
    assert (found["illegal"]["code"], found["illegal"]["rules"][0]) == ("sanction-elsewhere", "Register R15")


def test_a_spy_sanctioning_a_cousin_dies_instead_in_the_long_game_only(cli, tmp_path):
    for variant, dead, marker_to in (("long", "germany/Kurt", "france"), ("standard", "france/Cousin", "germany")):
        record = small(variant, germany={"spies": {"Kurt": "Prague"}, "chits": ["Sanction"]}, france={"spies": {"Cousin": "Prague"}})
        found = play(cli, tmp_path, record, {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Cousin"})
        assert found["position"]["sanctioned_box"] == [dead], variant
        assert found["position"]["powers"][marker_to]["record"][0]["name"] == dead


def test_an_escape_returns_a_captured_spy_to_its_capital_and_off_the_captors_record(cli, tmp_path):
    capture = {"year": 1933, "kind": "spy", "name": "germany/Kurt", "value": 3}
    record = small(germany={"chits": ["Escape"]}, france={"record": [capture]})
    found = play(cli, tmp_path, record, {"power": "germany", "chit": "Escape", "returns": "Kurt"})
    assert found["position"]["powers"]["germany"]["spies"] == {"Kurt": "Berlin"}
    assert found["score"]["france"] == 0 and "record" not in found["position"]["powers"]["france"]
    refused = play(cli, tmp_path, small(germany={"chits": ["Escape"]}), {"power": "germany", "chit": "Escape", "returns": "Kurt"})
    assert refused["illegal"]["code"] == "not-captured"


def test_a_recruit_brings_a_spy_not_in_play_to_the_city_of_the_spy_playing_it(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Prague"}, "chits": ["Recruit"]})
    found = play(cli, tmp_path, copy.deepcopy(record), {"power": "germany", "chit": "Recruit", "spy": "Kurt", "recruit": "Heidi"})
    assert found["position"]["powers"]["germany"]["spies"] == {"Kurt": "Prague", "Heidi": "Prague"}
    again = play(cli, tmp_path, record, {"power": "germany", "chit": "Recruit", "spy": "Kurt", "recruit": "Kurt"})
    assert again["illegal"]["code"] == "not-in-reserve"


def test_cover_answers_a_sanction_or_a_discovery_against_your_spy_and_the_chit_does_nothing(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": "Prague"}, "chits": ["Sanction", "Discovery"]},
                   france={"spies": {"Jean": {"city": "Prague", "controls": "Atomic Bomb"}}, "chits": ["Cover", "Cover"]})
    record["start"]["secrets"] = {"Atomic Bomb": {"city": "Prague", "home": "britain"}}
    found = play(cli, tmp_path, copy.deepcopy(record),
                 {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean", "cover": True},
                 {"power": "germany", "chit": "Discovery", "spy": "Kurt", "secret": "Atomic Bomb", "cover": True})
    assert found["legal"], found
    powers = found["position"]["powers"]
    assert powers["france"]["spies"]["Jean"] == {"city": "Prague", "controls": "Atomic Bomb"} and "sanctioned_box" not in found["position"]
    assert (powers["france"]["money"], powers["france"]["chits"], powers["germany"]["money"]) == (48, [], 27)   # 2 Covers; 20£ + 3£
    record["start"]["powers"]["france"]["chits"] = []
    refused = play(cli, tmp_path, copy.deepcopy(record),
                   {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean", "cover": True})
    assert refused["illegal"]["code"] == "not-held"
    record["start"]["powers"]["france"]["chits"] = ["Cover"]
    record["start"]["powers"]["france"]["spies"] = {"Jean": "Prague"}
    nothing = play(cli, tmp_path, record, {"power": "germany", "chit": "Discovery", "spy": "Kurt", "secret": "Atomic Bomb", "cover": True})
    assert nothing["illegal"]["code"] == "cover-nothing"


def test_a_sanction_needs_a_sanctioned_spy_marker_left_on_the_sheet(cli, tmp_path):
    markers = [{"year": 1933, "kind": "sanctioned", "name": f"italy/Mario{i}", "value": 1} for i in range(10)]
    record = small(germany={"spies": {"Kurt": "Prague"}, "chits": ["Sanction"]}, france={"spies": {"Jean": "Prague"}, "record": markers})
    found = play(cli, tmp_path, copy.deepcopy(record), {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean"})
    assert (found["illegal"]["code"], found["illegal"]["rules"][-1]) == ("no-marker", "Register R18")
    record["start"]["powers"]["france"]["record"] = markers[:9]
    assert play(cli, tmp_path, record, {"power": "germany", "chit": "Sanction", "spy": "Kurt", "target": "france/Jean"})["legal"]


def test_a_trade_in_talks_hands_over_money_and_chits_both_ways(cli, tmp_path):
    record = small(germany={"chits": ["Papers"]}, italy={"chits": ["Escape"]})
    found = play(cli, tmp_path, record, {"power": "germany", "talk": ["italy"]},
                 {"power": "italy", "trade": "germany", "give": {"money": 15, "chits": ["Escape"]}, "take": {"chits": ["Papers"]}})
    assert found["legal"], found
    powers = found["position"]["powers"]
    assert (powers["germany"]["money"], powers["germany"]["chits"]) == (65, ["Escape"])
    assert (powers["italy"]["money"], powers["italy"]["chits"]) == (35, ["Papers"])


@pytest.mark.parametrize("talks, trade, players, code", [
    ([], {"power": "germany", "trade": "italy", "give": {"money": 5}}, None, "talks-not-open"),
    (["italy"], {"power": "russia", "trade": "italy", "give": {"money": 5}}, None, "talks-not-open"),
    (["italy"], {"power": "germany", "trade": "italy", "give": {"tiles": ["Ge 2"]}}, None, "tiles-never"),
    (["italy"], {"power": "germany", "trade": "italy", "give": {"money": 5}}, 4, "same-player"),
    (["italy"], {"power": "germany", "trade": "italy", "give": {"money": 500}}, None, "money"),
    (["italy"], {"power": "germany", "trade": "italy", "give": {"chits": ["Papers"]}}, None, "not-held"),
], ids=["no-talks", "two-bystanders", "tiles", "one-player-two-powers", "more-money-than-held", "chit-not-held"])
def test_a_trade_outside_talks_or_of_tiles_or_within_one_seat_is_refused(cli, tmp_path, talks, trade, players, code):
    record = small(italy={})
    if players:
        record["start"]["players"] = players
    actions = [{"power": "germany", "talk": talks}] if talks else []
    assert play(cli, tmp_path, record, *actions, trade)["illegal"]["code"] == code


def test_a_secret_sold_passes_to_a_spy_of_the_buyer_in_its_city(cli, tmp_path):
    record = small(germany={"spies": {"Kurt": {"city": "Prague", "controls": "Atomic Bomb"}}}, italy={"spies": {"Mario": "Prague"}})
    record["start"]["secrets"] = {"Atomic Bomb": {"city": "Prague", "home": "france"}}
    deal = {"power": "germany", "trade": "italy", "give": {"secrets": ["Atomic Bomb"]}, "take": {"money": 20}}
    found = play(cli, tmp_path, copy.deepcopy(record), {"power": "germany", "talk": ["italy"]}, deal)
    assert found["position"]["powers"]["italy"]["spies"]["Mario"] == {"city": "Prague", "controls": "Atomic Bomb"}
    record["start"]["powers"]["italy"]["spies"] = {"Mario": "Rome"}
    assert play(cli, tmp_path, record, {"power": "germany", "talk": ["italy"]}, deal)["illegal"]["code"] == "secret-no-taker"


def test_a_record_ending_the_game_names_its_winner(cli, tmp_path):
    record = small(britain={"record": [{"year": 1938, "kind": "secret", "name": "RDF", "value": 3}]})
    record["start"].update(year=1939, turn="britain")
    record["actions"] = [{"power": "britain", "discard": "Br 31"}, {"power": "britain", "end": "turn"}]
    found = replay(cli, write(tmp_path, record)).json()
    assert found["legal"] and found["winners"] == ["britain"] and found["position"]["over"] is True
    assert "britain wins" in cli("referee", "game", str(write(tmp_path, record))).stdout


# ---- the board's own legal actions -------------------------------------------------------------------------

def test_every_action_the_board_generates_is_legal_and_the_recorded_ones_are_among_them():
    import importlib
    import sys

    from generators.referee.game_code import load_referee
    from generators.referee.position import read_position
    from generators.referee.rulings import Table
    from generators.referee.variants import choose

    game = choose(None).game
    referee_file = load_referee(game).file
    module = next(m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == str(referee_file))
    record_module = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".record")
    position = read_position(EXAMPLE)
    start = record_module.Position(EXAMPLE, position.data["start"], {})
    board = record_module.board_from(Table(game, "standard"), start)
    opening = board.legal_actions()
    assert {"power": "germany", "tile": "Ge 6"} in opening and {"power": "germany", "discard": "Ge 3"} in opening
    assert all(a["power"] == "germany" and ("tile" in a or "discard" in a or "talk" in a) for a in opening)   # the tile comes first; talks any time
    board.push({"power": "germany", "tile": "Ge 6"})
    after = board.legal_actions()
    assert any(a.get("move") == "Kurt" and a["path"][-1] == "Prague" for a in after)
    assert {"power": "germany", "end": "turn"} in after
    moves = [a for a in after if "move" in a]
    assert all(board.is_legal(a) for a in [a for a in after if "move" not in a] + moves[::25])   # moves are thousands
    assert not any(len(a["path"]) - 1 > 5 for a in moves)


def test_the_board_generates_police_chits_control_cash_in_talks_and_the_other_powers_answers():
    import importlib
    import sys
    from collections import Counter

    from generators.referee.game_code import load_referee
    from generators.referee.rulings import Table
    from generators.referee.variants import choose

    game = choose(None).game
    referee_file = load_referee(game).file
    module = next(m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == str(referee_file))
    board_module = importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".board")
    table = Table(game, "standard")
    holdings = {f.id: board_module.Holding(money=50) for f in game.info.factions}
    germany, france = holdings["germany"], holdings["france"]
    germany.spies = {"Kurt": "Berlin", "Heidi": "Prague"}
    germany.chits = ["Sanction", "Escape", "Recruit"]
    germany.police = [[2, "Berlin"]]
    france.spies = {"Jean": "Prague"}
    france.police = [[4, "Paris"]]
    france.chits = ["Papers"]
    france.record = [{"year": 1933, "kind": "spy", "name": "germany/Erik", "value": 1}]
    secrets = {"Atomic Bomb": board_module.SecretOnMap("Berlin", None, ("spy", "germany", "Kurt"), "france"),
               "Enigma Code": board_module.SecretOnMap("Berlin", home="germany")}
    board = board_module.Board(table, 1933, "germany", holdings, secrets, board_module.cup_for(table, [germany.chits, france.chits]))
    board.state.phase = 1
    found = board.legal_actions()
    verbs = Counter(next(v for v in board_module.VERBS if v in a) for a in found)
    assert {"police", "move", "chit", "control", "cash-in", "talk", "end"} <= set(verbs)
    assert {"power": "germany", "chit": "Sanction", "spy": "Heidi", "target": "france/Jean"} in found
    assert {"power": "germany", "chit": "Escape", "returns": "Erik"} in found
    assert {"power": "germany", "control": "Enigma Code", "strength": 2} in found
    cash_ins = [a["drawn"] for a in found if a.get("cash-in") == "Atomic Bomb"]   # at Germany's capital, once per chit in the cup
    assert ["Papers"] in cash_ins and len(cash_ins) == len({n for n, c in board.cup.items() if c > 0})
    assert all(a["power"] == "germany" for a in found)
    board.push({"power": "germany", "move": "Kurt", "path": ["Berlin", "Paris"]})
    answers = [a for a in board.legal_actions() if a["power"] == "france"]
    assert {"power": "france", "search": "Paris", "spy": "germany/Kurt"} in answers
    assert {"power": "france", "search": "Paris", "spy": "germany/Kurt", "evade": "Papers"} not in answers   # Papers is Germany's to play
    assert all(board.is_legal(a) for a in answers)


def _board_module():
    import importlib
    import sys

    from generators.referee.game_code import load_referee
    from generators.referee.variants import choose

    game = choose(None).game
    referee_file = load_referee(game).file
    module = next(m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == str(referee_file))
    return game, importlib.import_module(module.__name__.rsplit(".", 1)[0] + ".board")


def _one_spy_board(variant: str, city: str, spent: int = 0):
    from generators.referee.rulings import Table

    game, board_module = _board_module()
    table = Table(game, variant)
    holdings = {f.id: board_module.Holding(money=50) for f in game.info.factions}
    holdings["germany"].spies = {"Kurt": city}
    board = board_module.Board(table, 1933, "germany", holdings, {}, board_module.cup_for(table, []))
    board.state.phase, board.state.spent = 1, spent
    return game, board_module, board


def test_a_spy_is_offered_every_path_no_place_entered_twice_within_five_spaces_never_ending_at_sea():
    import networkx as nx

    from generators.referee import network

    game, board_module, board = _one_spy_board("standard", "Geneva")
    net = network.Network(game.map, game.aliases)
    graph = nx.Graph([(a, b) for a, near in net.graph.adj.items() for b in near])
    expected = sorted(path for end in graph if end != "Geneva" and net.may_end_in(end)
                      for path in nx.all_simple_paths(graph, "Geneva", end, cutoff=5))
    offered = [a["path"] for a in board.legal_actions() if a.get("move") == "Kurt"]
    assert sorted(offered) == expected and len(offered) == len(expected) > 1000
    assert any(not net.may_end_in(place) for path in offered for place in path)        # the sea is crossed, never ended in


def test_the_long_games_paths_end_within_the_action_points_left():
    _, _, board = _one_spy_board("long", "Geneva", spent=9)
    lengths = {len(a["path"]) - 1 for a in board.legal_actions() if "move" in a}
    assert lengths == {1, 2, 3}


def test_police_are_offered_every_re_arrangement_once():
    import itertools
    from collections import Counter

    from generators.referee.rulings import Table

    game, board_module, _ = _one_spy_board("standard", "Geneva")
    table = Table(game, "standard")
    holdings = {f.id: board_module.Holding(money=50) for f in game.info.factions}
    strengths = sorted(p.strength for p in game.pieces if p.kind == "police" and p.nation == "france" for _ in range(p.count))
    homes = [c.name for c in game.map.cities if c.power == "france" and (c.capital or c.has_mark("police"))]
    holdings["france"].police = [[s, "Paris"] for s in strengths[:2]] + [[s, homes[1]] for s in strengths[2:4]] + [[strengths[4], homes[2]]]
    board = board_module.Board(table, 1933, "france", holdings, {}, board_module.cup_for(table, []))
    board.state.phase = 1
    every = {tuple(sorted(zip(strengths, cities))) for cities in itertools.product(homes, repeat=len(strengths))
             if max(Counter(cities).values()) <= 2}
    every.discard(tuple(sorted(map(tuple, holdings["france"].police))))
    offered = [tuple(sorted((p["strength"], p["city"]) for p in a["police"])) for a in board.legal_actions() if "police" in a]
    assert len(offered) == len(set(offered)) == len(every) and set(offered) == every
    assert all(board.is_legal(a) for a in board.legal_actions() if "police" in a)


def test_the_actions_come_in_one_order_every_time_and_a_limit_takes_the_first():
    _, _, board = _one_spy_board("standard", "Berlin")
    again = board.copy()
    every = board.legal_actions()
    assert every == again.legal_actions() and board.legal_actions(limit=10) == every[:10]
    board.push(every[0])
    assert board.legal_actions() != every
