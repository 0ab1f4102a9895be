"""The Spies! referee through the CLI: each question's boundary cases and every refusal, the shared
options wherever they stand, and the register the rulings cite. (Other games: test_games_referee.py;
a game's own code and its trust: test_referee_code.py; positions: test_position.py.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generators.core import paths
from generators.core.yamlio import read_yaml

REGISTER = Path(__file__).resolve().parents[1] / "docs" / "rulings.md"
# What a ruling may cite: the rulebook's sections (as the reference cards list them) and the register's entries.
SECTIONS = set(read_yaml(paths.components_dir() / "spies" / "cards.yaml")["citations"])
ENTRIES = {f"Register {n}" for n in re.findall(r"^#### (R\d+)\.", REGISTER.read_text(encoding="utf-8"), re.M)}


def ruling(cli, *args):
    """The JSON ruling for `dossier referee ARGS --json`, which must have been answered (exit 0)
    and cite at least one rule, each a rulebook section or an entry of the register."""
    result = cli("referee", *args, "--json")
    assert result.code == 0, result.stderr
    answer = result.json()
    assert answer["rules"], args
    assert set(answer["rules"]) <= SECTIONS | ENTRIES, (args, set(answer["rules"]) - SECTIONS - ENTRIES)
    return answer


def refused(cli, *args) -> str:
    """The stderr of a question that must be refused with exit 2 and no traceback."""
    result = cli("referee", *args)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    return result.stderr


# ---- search ----------------------------------------------------------------------------------

def test_issue_example_two_police_catch_a_strength_four_spy(cli):
    answer = ruling(cli, "search", "--police", "2", "--police", "3", "--spy", "4")
    assert answer["question"] == "search"
    assert answer["ruling"] == "captured"
    assert answer["police_strength"] == 5
    assert "Standard: Searching for Enemy Spies" in answer["rules"]


@pytest.mark.parametrize("police, spy, expected", [
    (["4"], "4", "no effect"),            # equal strengths: the police must be stronger
    (["2", "2"], "4", "no effect"),       # two police adding up to the spy's strength
    (["1"], "1", "no effect"),
    (["3"], "2", "captured"),
    (["2", "2"], "3", "captured"),
])
def test_search_needs_strictly_stronger_police(cli, police, spy, expected):
    args = [a for s in police for a in ("--police", s)]
    assert ruling(cli, "search", *args, "--spy", spy)["ruling"] == expected


@pytest.mark.parametrize("chit", ["papers", "escape"])
def test_papers_or_escape_evade_even_a_search_that_would_capture(cli, chit):
    answer = ruling(cli, "search", "--police", "4", "--police", "3", "--spy", "1", "--evade", chit)
    assert answer["ruling"] == "evaded"
    assert chit.capitalize() in answer["explanation"]


def test_search_in_the_long_game_cites_the_case(cli):
    answer = ruling(cli, "search", "--police", "3", "--spy", "3", "--game", "long")
    assert answer["ruling"] == "no effect"
    assert answer["rules"][0] == "3.4"


def test_three_police_in_one_city_are_refused(cli):
    assert "3 times" in refused(cli, "search", "--police", "2", "--police", "2", "--police", "1", "--spy", "4")


def test_police_no_power_has_are_refused(cli):
    message = refused(cli, "search", "--police", "4", "--police", "4", "--spy", "4")
    assert "no power has police of strengths 4 and 4" in message
    assert "no power has police of strength 9" in refused(cli, "search", "--police", "9", "--spy", "1")


def test_a_spy_strength_no_spy_has_is_refused(cli):
    assert "no spy has strength 5" in refused(cli, "search", "--police", "2", "--spy", "5")


def test_search_without_police_or_with_an_unknown_evasion_is_refused(cli):
    assert "--police" in refused(cli, "search", "--spy", "4")
    assert "--evade" in refused(cli, "search", "--police", "2", "--spy", "4", "--evade", "cover")


def test_choices_are_found_in_any_case(cli):
    assert ruling(cli, "search", "--police", "2", "--spy", "4", "--evade", "Papers")["ruling"] == "evaded"
    assert ruling(cli, "control", "--origin", "Original", "--location", "HOME", "--state", "Uncontrolled")["needs_discovery"] is False


def test_text_answer_gives_the_answer_the_reason_and_the_rules(cli):
    result = cli("referee", "search", "--police", "2", "--police", "3", "--spy", "4")
    assert result.code == 0
    first, reason, rules = result.stdout.strip().split("\n")
    assert first == "Captured."
    assert "5" in reason and "4" in reason
    assert rules == "Rules: Standard: Searching for Enemy Spies; Standard: Capture and Counterspies"


# ---- counterspy --------------------------------------------------------------------------------

def test_a_stronger_counterspy_captures_and_leaves_play(cli):
    answer = ruling(cli, "counterspy", "--counterspy", "5", "--spy", "3")
    assert (answer["ruling"], answer["counterspy_removed"], answer["captured_to"]) == ("captured", True, "time and victory record")


def test_equal_strengths_leave_the_spy_free_but_remove_the_counterspy(cli):
    answer = ruling(cli, "counterspy", "--counterspy", "4", "--spy", "4")
    assert (answer["ruling"], answer["counterspy_removed"], answer["captured_to"]) == ("no effect", True, None)


def test_a_capture_in_a_neutral_country_goes_to_its_box(cli):
    answer = ruling(cli, "counterspy", "--counterspy", "3", "--spy", "2", "--neutral")
    assert answer["captured_to"] == "spies captured in neutral countries box"
    assert "Register R8" in answer["rules"]


def test_a_cousin_is_never_captured_by_a_counterspy_in_the_long_game_only(cli):
    long_game = ruling(cli, "counterspy", "--counterspy", "5", "--spy", "4", "--cousin", "--game", "long")
    assert (long_game["ruling"], long_game["counterspy_removed"], long_game["captured_to"]) == ("no effect", True, None)
    assert "5.2" in long_game["rules"]
    assert ruling(cli, "counterspy", "--counterspy", "5", "--spy", "4", "--cousin")["ruling"] == "captured"


def test_a_strength_4_spy_is_its_powers_cousin_without_saying_so(cli):
    long_game = ruling(cli, "counterspy", "--counterspy", "5", "--spy", "4", "--game", "long")
    assert (long_game["ruling"], long_game["captured_to"]) == ("no effect", None)
    assert "5.2" in long_game["rules"] and "Playing Piece Roster" in long_game["rules"]
    standard = ruling(cli, "counterspy", "--counterspy", "5", "--spy", "4")
    assert standard["ruling"] == "captured" and "Cousin has no special rule in the standard game" in standard["explanation"]


def test_counterspy_refusals(cli):
    assert "no counterspy has strength 2" in refused(cli, "counterspy", "--counterspy", "2", "--spy", "1")
    assert "a Cousin has strength 4" in refused(cli, "counterspy", "--counterspy", "5", "--spy", "3", "--cousin")


# ---- move ----------------------------------------------------------------------------------------

def _at_distance(spies, origin: str, spaces: int) -> str:
    """A city exactly `spaces` spaces from `origin` on the shipped map (found with the map network)."""
    from generators.map.network import Network

    found = Network(spies.map).reachable(origin, spaces)
    return next(city for city, n in found.items() if n == spaces)


def test_the_fifth_space_is_allowed_and_the_sixth_is_not(cli, spies):
    fifth, sixth = _at_distance(spies, "London", 5), _at_distance(spies, "London", 6)
    answer = ruling(cli, "move", "London", fifth)
    assert (answer["allowed"], answer["spaces"]) == (True, 5)
    assert answer["path"][0] == "London" and answer["path"][-1] == fifth
    assert len(answer["path"]) == 6 and len(answer["kinds"]) == 5
    answer = ruling(cli, "move", "London", sixth)
    assert (answer["allowed"], answer["ruling"], answer["spaces"]) == (False, "too far", 6)


def test_a_smaller_limit_with_spaces(cli, spies):
    third = _at_distance(spies, "Berlin", 3)
    assert ruling(cli, "move", "Berlin", third, "--spaces", "3")["allowed"] is True
    answer = ruling(cli, "move", "Berlin", third, "--spaces", "2")
    assert (answer["allowed"], answer["spaces"], answer["limit"]) == (False, 3, 2)


def test_staying_put_is_zero_spaces(cli):
    answer = ruling(cli, "move", "Paris", "paris")
    assert (answer["allowed"], answer["spaces"], answer["path"]) == (True, 0, ["Paris"])


def test_a_move_to_sea_is_refused_as_map_route_refuses_it(cli, spies):
    zone = spies.map.sea_zones[0].name
    message = refused(cli, "move", "London", zone)
    assert f"{zone!r} is a sea zone: a move may not end there" in message
    route = cli("map", "route", "London", zone)
    assert (route.code, route.stderr) == (2, message)


def test_a_move_beyond_one_turn_gives_its_turns_and_a_stop_for_each_never_at_sea(cli, spies):
    answer = ruling(cli, "move", "Sofia", "Lisbon")
    assert (answer["allowed"], answer["spaces"], answer["turns"], answer["stops"]) == (False, 7, 2, ["Athens", "Lisbon"])
    assert "turn 1: Athens (3); turn 2: Lisbon (5)" in answer["explanation"]
    seas = {z.name for z in spies.map.sea_zones}
    assert not seas & set(answer["stops"])
    assert ruling(cli, "move", "Berlin", "Prague")[("turns")] == 1
    assert ruling(cli, "move", "Paris", "Paris")["turns"] == 0


def test_a_smaller_limit_takes_more_turns(cli, spies):
    third = _at_distance(spies, "Berlin", 3)
    answer = ruling(cli, "move", "Berlin", third, "--spaces", "2")
    assert answer["turns"] == 2 and answer["stops"][-1] == third


def test_other_spellings_of_cities_are_found(cli):
    assert ruling(cli, "move", "Sofia", "Belgrade")["path"][0] == "Sophia"


def test_move_refusals(cli, spies):
    zone = spies.map.sea_zones[0].name
    assert "is a sea zone: a move may not start there" in refused(cli, "move", zone, "London")
    assert "'Berlin'" in refused(cli, "move", "Berlinn", "London")
    assert "0 to 5 spaces" in refused(cli, "move", "Berlin", "London", "--spaces", "6")
    assert "0 to 5 spaces" in refused(cli, "move", "Berlin", "London", "--spaces", "-1")


def test_a_long_game_move_names_its_action_points(cli, spies):
    second = _at_distance(spies, "Rome", 2)
    answer = ruling(cli, "move", "Rome", second, "--game", "long")
    assert answer["rules"] == ["3.6"] and "2 here" in answer["explanation"]


# ---- tile ------------------------------------------------------------------------------------------

def test_issue_example_czech_crisis_in_1936(cli):
    answer = ruling(cli, "tile", "Ge 1", "--year", "1936")
    assert answer["allowed"] is False
    assert answer["years"] == [1937, 1938, 1939]


@pytest.mark.parametrize("tile, year, allowed", [
    ("Ge 1", "1937", True), ("Ge 1", "1939", True),            # first and last playable year
    ("random 46", "1936", False), ("random 46", "1937", True), ("random 46", "1938", False),
    ("Br 29", "1933", True), ("Br 29", "1937", True), ("Br 29", "1938", False),
    ("ge3", "1933", True), ("Ge 3", "1939", True),             # Any Year, looked up forgivingly
])
def test_tile_years(cli, tile, year, allowed):
    assert ruling(cli, "tile", tile, "--year", year)["allowed"] is allowed


def test_tile_refusals(cli):
    assert "1933 to 1939" in refused(cli, "tile", "Ge 1", "--year", "1932")
    assert "1933 to 1939" in refused(cli, "tile", "Ge 1", "--year", "1940")
    assert "unknown tile 'Ge 99'" in refused(cli, "tile", "Ge 99", "--year", "1937")


def test_an_unknown_tile_suggests_tiles_by_event_or_nation(cli):
    assert "did you mean 'Ge 1'?" in refused(cli, "tile", "Czech Crisis", "--year", "1937")
    assert "did you mean 'Ge 1', 'Ge 2', 'Ge 3', 'Ge 4', 'Ge 5', 'Ge 6', 'Ge 7'?" in refused(cli, "tile", "Ge 99", "--year", "1937")


# ---- award -----------------------------------------------------------------------------------------

def test_award_counts_each_city_once_and_nothing_at_home(cli):
    answer = ruling(cli, "award", "Ge 1", "--spy", "france@Berlin", "--spy", "france@Berlin", "--spy", "France@Prague",
                    "--spy", "germany@Berlin", "--spy", "italy@Rome", "--spy", "britain@Vienna", "--spy", "britain@Paris")
    assert answer["awards"] == {
        "germany": {"chits": 0, "money": 0},      # Berlin is Germany's own territory
        "italy": {"chits": 0, "money": 0},        # Rome is not on Ge 1
        "france": {"chits": 6, "money": 0},       # Berlin 3c, Prague 3c, the second spy in Berlin earns nothing
        "britain": {"chits": 2, "money": 2},      # Paris 2c, Vienna 2£
    }


def test_award_finds_powers_and_cities_by_other_spellings(cli):
    answer = ruling(cli, "award", "Rs 17", "--spy", "Germany@Sofia")
    assert answer["awards"] == {"germany": {"chits": 0, "money": 2}}


def test_award_refusals(cli):
    assert "POWER@CITY" in refused(cli, "award", "Ge 1", "--spy", "germany-Berlin")
    assert "POWER@CITY" in refused(cli, "award", "Ge 1", "--spy", "@Berlin")
    assert "'Germany'" in refused(cli, "award", "Ge 1", "--spy", "Germny@Berlin")
    assert "'Prague'" in refused(cli, "award", "Ge 1", "--spy", "germany@Pragu")
    assert "unknown tile" in refused(cli, "award", "Ge 0", "--spy", "germany@Berlin")


# ---- chit --------------------------------------------------------------------------------------------

def test_issue_example_no_discovery_in_a_spy_haven(cli):
    answer = ruling(cli, "chit", "Discovery", "--when", "own-turn", "--city", "Geneva", "--game", "long")
    assert answer["allowed"] is False
    assert "5.1" in answer["rules"]


def test_a_city_that_bars_the_chit_heads_the_answer_even_without_the_turn(cli):
    result = cli("referee", "chit", "discovery", "--city", "geneva", "--game", "long")
    headline, explanation = result.stdout.splitlines()[:2]
    assert result.code == 0 and headline.startswith("Not allowed in Geneva") and "3£" in headline
    assert explanation.startswith("Geneva is a spy haven")
    answer = ruling(cli, "chit", "discovery", "--city", "geneva", "--game", "long")
    assert answer["allowed"] is False and answer["verdict"] == "not allowed" and "5.1" in answer["rules"]
    unbarred = ruling(cli, "chit", "cover", "--city", "geneva", "--game", "long")
    assert unbarred["verdict"] == "cost only" and unbarred["allowed"] is None


def test_the_shared_options_stand_before_or_after_the_question(cli):
    after = ruling(cli, "chit", "Discovery", "--when", "own-turn", "--city", "Geneva", "--game", "long")
    before = cli("referee", "--game", "long", "--json", "chit", "Discovery", "--when", "own-turn", "--city", "Geneva")
    assert before.code == 0 and before.json() == after
    assert ruling(cli, "-g", "long", "chit", "Discovery", "--game=standard", "--when", "own-turn", "--city", "Geneva")["allowed"] is True


@pytest.mark.parametrize("args, allowed", [
    (["Discovery", "--when", "own-turn", "--city", "Geneva"], True),               # havens are a Long Game rule
    (["Papers", "--when", "opponent-turn", "--city", "Geneva", "--game", "long"], True),
    (["Sanction", "--when", "own-turn", "--city", "Istanbul", "--game", "long"], False),
    (["Sanction", "--when", "own-turn", "--city", "Paris", "--game", "long"], True),
    (["Discovery", "--when", "opponent-turn"], False),
    (["Recruit", "--when", "own-turn"], True),
    (["Cover", "--when", "own-turn"], False),
    (["Cover", "--when", "own-turn", "--game", "long"], True),
    (["Intercept", "--when", "own-turn", "--game", "long"], False),
    (["Intercept", "--when", "opponent-turn", "--game", "long"], True),
    (["Double Cross", "--when", "opponent-turn", "--game", "long"], True),
    (["Source", "--when", "own-turn"], False),                                      # left out of the standard cup
    (["Source", "--when", "own-turn", "--game", "long"], True),
])
def test_chit_timing(cli, args, allowed):
    assert ruling(cli, "chit", *args)["allowed"] is allowed


def test_cover_on_another_players_turn_cites_the_register(cli):
    answer = ruling(cli, "chit", "Cover", "--when", "opponent-turn")
    assert answer["allowed"] is True
    assert {"Register R1", "Register R3", "Action Chit Cost Summary"} <= set(answer["rules"])


def test_without_when_only_the_cost_is_answered(cli):
    answer = ruling(cli, "chit", "drop", "--game", "long")
    assert (answer["allowed"], answer["cost"], answer["chit"]) == (None, "20–30£", "Drop")
    assert "Register R12" in answer["rules"]
    answer = ruling(cli, "chit", "Source")
    assert (answer["allowed"], answer["ruling"], answer["cost"]) == (None, "not used in the standard game", "40£")


def test_a_city_given_without_when_still_answers_for_the_city(cli):
    answer = ruling(cli, "chit", "Sanction", "--city", "Geneva", "--game", "long")
    assert answer["allowed"] is False and "5.1" in answer["rules"]  # the city decides whatever the turn
    assert "Geneva is a spy haven" in answer["explanation"] and "may not be played there" in answer["explanation"]


def test_chit_refusals(cli):
    assert "'Discovery'" in refused(cli, "chit", "Discovry")
    assert "'Sophia'" in refused(cli, "chit", "Papers", "--when", "own-turn", "--city", "Sofiaa")
    assert "--when" in refused(cli, "chit", "Papers", "--when", "sometimes")


# ---- secrets: cash-in, final-secret, control --------------------------------------------------------

def test_a_foreign_secret_cashed_in_at_the_capital(cli):
    answer = ruling(cli, "cash-in", "--origin", "foreign", "--at-capital")
    assert (answer["allowed"], answer["money"], answer["chits"]) == (True, 20, 1)


@pytest.mark.parametrize("args", [["--origin", "foreign", "--not-at-capital"], ["--origin", "original", "--at-capital"]])
def test_cash_in_refused_by_the_rules(cli, args):
    answer = ruling(cli, "cash-in", *args)
    assert (answer["allowed"], answer["money"], answer["chits"]) == (False, 0, 0)


def test_long_game_cash_in_rests_on_the_register(cli):
    assert {"3.7", "Standard: Controlling Secrets", "Register R6"} <= set(ruling(cli, "cash-in", "--origin", "foreign", "--at-capital", "--game", "long")["rules"])


def test_cash_in_refusals(cli):
    assert "--at-capital or --not-at-capital" in refused(cli, "cash-in", "--origin", "foreign")
    assert "--origin" in refused(cli, "cash-in", "--origin", "stolen", "--at-capital")


@pytest.mark.parametrize("origin, location, control, standard, long", [
    ("original", "home", "own", True, True),
    ("original", "home", "none", True, False),      # Register R4
    ("original", "home", "enemy", False, False),
    ("original", "abroad", "own", False, False),
    ("foreign", "home", "own", False, False),       # Register R5
])
def test_final_secret(cli, origin, location, control, standard, long):
    args = ["final-secret", "--origin", origin, "--location", location, "--control", control]
    assert ruling(cli, *args)["counts"] is standard
    assert ruling(cli, *args, "--game", "long")["counts"] is long


def test_final_secret_cites_the_register_where_it_reads(cli):
    assert "Register R4" in ruling(cli, "final-secret", "--origin", "original", "--location", "home", "--control", "none", "--game", "long")["rules"]
    assert "Register R5" in ruling(cli, "final-secret", "--origin", "foreign", "--location", "home", "--control", "own")["rules"]
    assert "--control" in refused(cli, "final-secret", "--origin", "original", "--location", "home", "--control", "mine")


@pytest.mark.parametrize("origin, location, state, needed", [
    ("foreign", "home", "uncontrolled", True),
    ("original", "home", "uncontrolled", False),
    ("original", "home", "enemy", True),
    ("original", "abroad", "uncontrolled", True),
])
def test_control(cli, origin, location, state, needed):
    answer = ruling(cli, "control", "--origin", origin, "--location", location, "--state", state)
    assert answer["needs_discovery"] is needed


def test_control_long_game_rests_on_the_register(cli):
    answer = ruling(cli, "control", "--origin", "foreign", "--location", "abroad", "--state", "enemy", "--game", "long")
    assert {"3.7", "Register R6", "5.1"} <= set(answer["rules"])
    assert "--state" in refused(cli, "control", "--origin", "original", "--location", "home", "--state", "own")


# ---- sanction --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("attacker, target, variant, expected", [
    ("spy", "cousin", "long", "attacker killed"),
    ("cousin", "cousin", "long", "proceeds"),
    ("spy", "spy", "long", "proceeds"),
    ("cousin", "spy", "long", "proceeds"),
    ("spy", "cousin", "standard", "proceeds"),       # Cousins are a Long Game rule
])
def test_sanction(cli, attacker, target, variant, expected):
    assert ruling(cli, "sanction", "--attacker", attacker, "--target", target, "--game", variant)["ruling"] == expected


def test_sanction_refusal(cli):
    assert "--target" in refused(cli, "sanction", "--attacker", "spy", "--target", "police")


# ---- players -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count, seats", [
    (5, [["germany"], ["italy"], ["russia"], ["france"], ["britain"]]),
    (4, [["germany", "italy"], ["russia"], ["france"], ["britain"]]),
    (3, [["germany", "italy"], ["russia"], ["france", "britain"]]),
    (2, [["germany", "italy"], ["france", "britain"]]),
])
def test_seats(cli, count, seats):
    answer = ruling(cli, "players", str(count))
    assert answer["seats"] == seats
    assert (answer["note"] is None) is (count != 2)


def test_two_players_share_russia_by_year(cli):
    answer = ruling(cli, "players", "2")
    assert "Russia" in answer["note"] and "alternate years" in answer["note"]
    assert "Register R10" in answer["rules"]


def test_the_long_game_borrows_the_standard_rule_for_fewer_players(cli):
    assert {"7.0", "Standard: Playing the Game with Fewer Than Five Players", "Register R2"} <= set(ruling(cli, "players", "3", "--game", "long")["rules"])


@pytest.mark.parametrize("count", ["1", "6", "0"])
def test_player_counts_outside_the_game_are_refused(cli, count):
    assert "2 to 5 players" in refused(cli, "players", count)


# ---- police ------------------------------------------------------------------------------------------------

def _german_city(spies, police: bool) -> str:
    return next(c.name for c in spies.map.cities if c.power == "germany" and not c.capital and c.has_mark("police") is police)


def test_police_placement_limits(cli, spies):
    coded, uncoded = _german_city(spies, True), _german_city(spies, False)
    assert ruling(cli, "police", "--power", "Germany", "--city", "Berlin", "--count", "2")["allowed"] is True
    assert ruling(cli, "police", "--power", "germany", "--city", coded)["allowed"] is True
    assert ruling(cli, "police", "--power", "germany", "--city", "Berlin", "--count", "3")["allowed"] is False
    answer = ruling(cli, "police", "--power", "germany", "--city", uncoded)
    assert answer["allowed"] is False and "not coded for police" in answer["explanation"]
    answer = ruling(cli, "police", "--power", "germany", "--city", "Paris")
    assert answer["allowed"] is False and "home territory" in answer["explanation"]
    assert "Register R9" in answer["rules"]


def test_police_refusals(cli):
    assert "'Germany'" in refused(cli, "police", "--power", "Germny", "--city", "Berlin")
    assert "Germany has 7 police" in refused(cli, "police", "--power", "germany", "--city", "Berlin", "--count", "8")
    assert "--count 0" in refused(cli, "police", "--power", "germany", "--city", "Berlin", "--count", "0")
    assert "'Berlin'" in refused(cli, "police", "--power", "germany", "--city", "Berln")


# ---- chits ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("holding, draw, keep, back", [
    (7, 0, 7, 0), (6, 1, 7, 0), (6, 2, 7, 1), (7, 3, 7, 3), (0, 0, 0, 0), (2, 3, 5, 0),
])
def test_the_seven_chit_limit(cli, holding, draw, keep, back):
    answer = ruling(cli, "chits", "--holding", str(holding), "--draw", str(draw))
    assert (answer["keep"], answer["return"]) == (keep, back)


def test_the_long_game_keeps_the_limit_by_the_register(cli):
    answer = ruling(cli, "chits", "--holding", "6", "--draw", "2", "--game", "long")
    assert (answer["keep"], answer["return"]) == (7, 1)
    assert "Register R7" in answer["rules"]


def test_chits_refusals(cli):
    assert "0 to 7" in refused(cli, "chits", "--holding", "8", "--draw", "0")
    assert "negative" in refused(cli, "chits", "--holding", "3", "--draw", "-1")


@pytest.mark.parametrize("variant, left_out", [("standard", {"Double Cross", "Intercept", "Drop", "Source"}), ("long", set())])
def test_no_draw_takes_more_chits_than_the_cup_holds(cli, spies, variant, left_out):
    cup = sum(p.count for p in spies.pieces if p.kind == "chit" and p.name not in left_out)
    assert ruling(cli, "chits", "--holding", "3", "--draw", str(cup - 3), "--game", variant)["keep"] == 7
    assert f"{cup} Action chits" in refused(cli, "chits", "--holding", "3", "--draw", str(cup - 2), "--game", variant)


# ---- action-points ---------------------------------------------------------------------------------------------

def test_twelve_action_points_fit_and_thirteen_do_not(cli):
    answer = ruling(cli, "action-points", "--tile", "--searches", "3", "--spaces", "5", "--diplomacy", "3", "--game", "long")
    assert (answer["spent"], answer["allowed"]) == (12, True)
    answer = ruling(cli, "action-points", "--tile", "--searches", "4", "--spaces", "5", "--diplomacy", "3", "--game", "long")
    assert (answer["spent"], answer["allowed"]) == (13, False)
    assert ruling(cli, "action-points", "--game", "long")["spent"] == 0


def test_action_points_are_a_long_game_question(cli):
    assert ruling(cli, "action-points", "--spaces", "12")["variant"] == "long"
    assert "--game spies:long" in refused(cli, "action-points", "--spaces", "1", "--game", "standard")
    assert "negative" in refused(cli, "action-points", "--searches", "-1")


@pytest.mark.parametrize("args, message", [(("--searches", "8"), "no power has more than 7"), (("--spaces", "31"), "more than 30 spaces")])
def test_no_turn_searches_or_moves_more_than_the_pieces_allow(cli, args, message):
    assert message in refused(cli, "action-points", *args)
    assert ruling(cli, "action-points", "--searches", "7", "--spaces", "30")["spent"] == 37


def test_talks_are_opened_with_at_most_every_opponent(cli):
    assert ruling(cli, "action-points", "--diplomacy", "4")["spent"] == 4
    assert "4 opponents" in refused(cli, "action-points", "--diplomacy", "5")


def test_a_long_game_question_asked_without_a_variant_says_which_it_answered(cli):
    result = cli("referee", "action-points", "--spaces", "3")
    assert result.code == 0
    assert result.stdout.strip().endswith("Answered in the Long Game variant, the only one with this question.")
    assert "Answered in" not in cli("referee", "action-points", "--spaces", "3", "--game", "long").stdout


# ---- searching on either turn -------------------------------------------------------------------------------------

def test_police_search_each_spy_once_on_their_own_turn(cli):
    answer = ruling(cli, "search", "--police", "4", "--spy", "1", "--searched")
    assert (answer["verdict"], answer["allowed"]) == ("not allowed", False)
    assert ruling(cli, "search", "--police", "4", "--spy", "1")["verdict"] == "captured"


def test_on_another_players_turn_only_an_arriving_spy_is_searched(cli):
    arriving = ruling(cli, "search", "--police", "4", "--spy", "1", "--when", "opponent-turn")
    assert arriving["verdict"] == "captured"
    assert "Standard: Searching for Arriving Enemy Spies" in arriving["rules"]
    still = ruling(cli, "search", "--police", "4", "--spy", "1", "--when", "opponent-turn", "--not-moved")
    assert (still["verdict"], still["allowed"]) == ("not allowed", False)
    assert "4.1" in ruling(cli, "search", "--police", "2", "--spy", "3", "--when", "opponent-turn", "--game", "long")["rules"]


def test_search_costs_an_action_point_on_your_own_long_game_turn_only(cli):
    assert "costs 1 Action Point" in ruling(cli, "search", "--police", "2", "--spy", "3", "--game", "long")["explanation"]
    assert "no Action Points" in ruling(cli, "search", "--police", "2", "--spy", "3", "--when", "opponent-turn", "--game", "long")["explanation"]


def test_not_moved_belongs_to_another_players_turn(cli):
    assert "--when opponent-turn" in refused(cli, "search", "--police", "2", "--spy", "1", "--not-moved")


# ---- transfer, set-up, turns, talks, the winner ----------------------------------------------------------------------

def test_a_secret_handed_over_moves_on_only_with_a_spy_that_has_not_moved(cli):
    assert ruling(cli, "transfer")["allowed"] is True
    answer = ruling(cli, "transfer", "--second-moved")
    assert (answer["verdict"], answer["allowed"]) == ("not allowed", False)
    assert "Standard: Controlling Secrets" in answer["rules"]


def test_setup_counts_come_from_the_data(cli, spies):
    answer = ruling(cli, "setup", "--power", "Italy")
    assert answer["tiles"] == 10 and answer["police"] == 6 and answer["spies"] is None
    assert len(answer["secret_cities"]) == 8 and "Register R11" in answer["rules"]
    assert "Double Cross, Intercept, Drop and Source stay out" in answer["explanation"]
    long_game = ruling(cli, "setup", "--power", "britain", "--game", "long")
    assert long_game["spies"] == 6 and "2.6" in long_game["rules"]
    assert "'Italy'" in refused(cli, "setup", "--power", "Itlay")


@pytest.mark.parametrize("after, year, verdict, following, next_year", [
    ("germany", "1933", "next power", "italy", 1933),
    ("france", "1936", "next power", "britain", 1936),
    ("britain", "1933", "next year", "germany", 1934),
    ("britain", "1938", "next year", "germany", 1939),
    ("britain", "1939", "game over", None, None),
])
def test_turn_order_and_the_year_track(cli, after, year, verdict, following, next_year):
    answer = ruling(cli, "turn", "--after", after, "--year", year)
    assert (answer["verdict"], answer["next"], answer["next_year"]) == (verdict, following, next_year)


def test_turn_refusals(cli):
    assert "1933 to 1939" in refused(cli, "turn", "--after", "britain", "--year", "1940")
    assert "'France'" in refused(cli, "turn", "--after", "frnace", "--year", "1936")


@pytest.mark.parametrize("args, allowed", [
    (["--item", "chits"], True),
    (["--item", "tiles"], False),                                              # Event Tiles never change hands
    (["--item", "money", "--when", "opponent-turn", "--talk", "answer"], True),
    (["--item", "money", "--when", "opponent-turn", "--talk", "open"], False),  # never open talks on another's turn
    (["--item", "secrets", "--same-player"], False),                           # one player, two powers
    (["--item", "concessions", "--same-player"], True),
])
def test_trade(cli, args, allowed):
    assert ruling(cli, "trade", *args)["allowed"] is allowed


def test_no_talks_to_answer_on_your_own_turn(cli):
    assert "--when opponent-turn" in refused(cli, "trade", "--item", "money", "--when", "own-turn", "--talk", "answer")


def test_opening_talks_costs_action_points_in_the_long_game(cli):
    assert "1 Action Point for each opponent" in ruling(cli, "trade", "--item", "chits", "--game", "long")["explanation"]


def test_most_victory_points_win_then_the_richest_then_a_shared_win(cli):
    assert ruling(cli, "winner", "--vp", "germany=14", "--vp", "france=12")["winners"] == ["germany"]
    tie = ruling(cli, "winner", "--vp", "germany=14", "--vp", "France=14", "--money", "germany=35", "--money", "france=40")
    assert (tie["verdict"], tie["winners"]) == ("richest", ["france"])
    shared = ruling(cli, "winner", "--vp", "germany=14", "--vp", "france=14", "--money", "germany=35", "--money", "france=35")
    assert (shared["verdict"], shared["winners"]) == ("shared", ["germany", "france"])
    assert "Register R13" in shared["rules"]


@pytest.mark.parametrize("args, message", [
    (["--vp", "germany=14"], "at least 2 powers"),
    (["--vp", "germany=14", "--vp", "germany=3"], "Germany is given twice"),
    (["--vp", "germany=-1", "--vp", "italy=2"], "cannot be negative"),
    (["--vp", "germany=lots", "--vp", "italy=2"], "not a whole number"),
    (["--vp", "germany14", "--vp", "italy=2"], "POWER=N"),
    (["--vp", "germany=4", "--vp", "italy=4"], "give --money for Germany and Italy"),
    (["--vp", "germany=4", "--vp", "italy=2", "--money", "russia=3"], "no --vp total"),
])
def test_winner_refusals(cli, args, message):
    assert message in refused(cli, "winner", *args)


# ---- the command itself ------------------------------------------------------------------------------------------

def test_help_lists_every_question_and_each_question_its_options(cli):
    result = cli("referee", "--help")
    assert result.code == 0
    for question in ("search", "counterspy", "move", "tile", "award", "chit", "cash-in", "final-secret", "control", "sanction",
                     "players", "police", "chits", "action-points", "transfer", "setup", "turn", "trade", "winner", "position"):
        assert re.search(rf"^\s+{question}\s", result.stdout, re.M), question
    result = cli("referee", "chit", "--help")
    assert result.code == 0
    assert all(option in result.stdout for option in ("--when", "--city", "--game", "--json"))


def test_unknown_questions_and_games_suggest_the_closest(cli):
    assert "search" in refused(cli, "serch", "--police", "2", "--spy", "1")
    assert "'long'" in refused(cli, "chit", "Papers", "--game", "lnog")
    assert ruling(cli, "CASH_IN", "--origin", "foreign", "--at-capital")["question"] == "cash-in"


def test_every_register_entry_asks_a_question_and_gives_passages_readings_and_the_reading_followed():
    text = REGISTER.read_text(encoding="utf-8")
    assert ENTRIES == {f"Register R{n}" for n in range(1, 20)}
    for n in range(1, 20):
        assert re.search(rf"^#### R{n}\. .+\?$", text, re.M), f"R{n}"
    for part in re.split(r"^#### ", text, flags=re.M)[1:]:
        assert "**Passages.**" in part and "**Readings" in part and "**Followed" in part, part[:40]


# ---- rules search ----------------------------------------------------------------------------------------------------

def test_rules_search_prints_each_summary_with_its_place_and_citations(cli):
    result = cli("rules", "search", "spy", "HAVEN")
    assert result.code == 0
    assert "In a spy haven (Istanbul, Tangiers, Geneva): no Discovery, Drop or Sanction." in result.stdout
    assert "Movement › Ports and sea zones › Limits in the Long Game (Long Game)" in result.stdout
    assert "Rules: 5.1" in result.stdout


def test_rules_search_matches_word_starts_and_filters_by_variant(cli):
    hits = cli("rules", "search", "cover", "--json").json()
    assert hits and all(re.search(r"(?<!\w)cover", " ".join([h["text"], h["heading"]]).lower()) for h in hits)
    assert not any("Discovery" in h["text"] and "Cover" not in h["text"] for h in hits)
    every = cli("rules", "search", "chit", "--json").json()
    assert {h["variant"] for h in every} == {None, "standard", "long"}
    standard = cli("rules", "search", "chit", "--game", "standard", "--json").json()
    assert standard == [h for h in every if h["variant"] in (None, "standard")]


def test_rules_search_finds_citations_and_derived_items(cli):
    assert all("3.22" in h["rules"] for h in cli("rules", "search", "3.22", "--json").json())
    assert any(h["text"] == "Source: 40£" for h in cli("rules", "search", "source", "--json").json())


def test_rules_search_without_a_hit_answers_and_suggests(cli):
    result = cli("rules", "search", "havn")
    assert result.code == 0
    assert result.stdout.startswith("no rule summary mentions 'havn'") and "'haven'" in result.stdout
    assert cli("rules", "search", "zeppelin", "--json").json() == []


def test_rules_search_refusals(cli, game_copy):
    assert cli("rules", "search", " ").code == 2
    folder = game_copy("spies")
    (folder / "cards.yaml").unlink()
    (folder / "display.yaml").unlink()  # its sequence of play is a card's section
    result = cli("rules", "search", "spy", "--game", str(folder))
    assert result.code == 2 and "no rule summaries" in result.stderr


# ---- starting fast ------------------------------------------------------------------------------------------------

HEAVY = ("reportlab", "svgwrite", "shapely", "networkx")


def _imported(*args: str) -> set[str]:
    code = ("import sys\nfrom generators.cli import main\nmain(sys.argv[1:])\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr
    return set(eval(done.stdout.strip().splitlines()[-1]))


def test_questions_without_the_map_import_no_heavy_library(tmp_path):
    assert _imported("referee", "search", "--police", "2", "--spy", "1") == set()
    assert _imported("rules", "search", "haven") == set()
    position = tmp_path / "position.yaml"
    position.write_text("year: 1936\npowers: {germany: {spies: {Kurt: Paris}}}\n", encoding="utf-8")
    assert _imported("referee", "position", str(position)) == set()


def test_a_move_imports_no_heavy_library():
    assert _imported("referee", "move", "Berlin", "Warsaw") == set()
    assert _imported("map", "route", "Berlin", "London") == set()
