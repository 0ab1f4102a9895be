"""`dossier referee position FILE`: a whole Spies! position checked against the rules. One position per
problem, each found with its line, its code and its rule; a legal position passes; a broken file is
refused naming the line."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "docs" / "referee.md"

LEGAL = """\
variant: long
year: 1936
turn: germany
powers:
  germany:
    money: 45
    chits: [Discovery, Papers]
    spies:
      Kurt: Paris
      Erik: {city: Prague, controls: Enigma Code}
    police:
      - {strength: 2, city: Berlin}
      - {strength: 3, city: Berlin, controls: Tactical Comm}
  france:
    money: 0
    chits: 7
    spies: {Jean: Berlin}
    police: [{strength: 4, city: Paris}]
secrets:
  Enigma Code: Prague
  Tactical Comm: Berlin
  counterspy A: {city: Warsaw, counterspy: 5}
played:
  - {power: germany, chit: Discovery, city: Vienna}
  - {power: france, chit: Papers}
"""


def check(cli, tmp_path, text: str, *args: str):
    file = tmp_path / "position.yaml"
    file.write_text(textwrap.dedent(text), encoding="utf-8")
    return cli("referee", "position", str(file), *args, "--json")


def problems(cli, tmp_path, text: str, *args: str) -> list[dict]:
    result = check(cli, tmp_path, text, *args)
    assert result.code == 1, (result.stdout, result.stderr)
    report = result.json()
    assert report["legal"] is False and report["problems"]
    assert all(p["rules"] for p in report["problems"])
    return report["problems"]


def one(cli, tmp_path, text: str, *args: str) -> dict:
    found = problems(cli, tmp_path, text, *args)
    assert len(found) == 1, found
    return found[0]


def refused(cli, tmp_path, text: str, *args: str) -> str:
    result = check(cli, tmp_path, text, *args)
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    return result.stderr


def test_a_legal_position_passes(cli, tmp_path):
    result = check(cli, tmp_path, LEGAL)
    assert result.code == 0, result.stderr
    assert result.json() == {"file": str(tmp_path / "position.yaml"), "game": "spies", "variant": "long", "legal": True, "problems": []}


def test_the_readme_shows_a_legal_position(cli, tmp_path):
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(# A Spies! position.*?)```", text, re.S)
    assert block, "docs/referee.md shows a position file"
    assert check(cli, tmp_path, block.group(1)).code == 0


def test_the_text_answer_lists_each_problem_with_its_line_and_rule(cli, tmp_path):
    file = tmp_path / "position.yaml"
    file.write_text(LEGAL.replace("year: 1936", "year: 1932").replace("money: 45", "money: -1"), encoding="utf-8")
    result = cli("referee", "position", str(file))
    assert result.code == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"{file}: 2 problems (Spies!, long)"
    assert lines[1].startswith(f"{file}:2: the year 1932 is outside the game") and lines[1].endswith("[2.8]")
    assert lines[2].startswith(f"{file}:6: Germany has -1£") and lines[2].endswith("[2.2]")


# ---- one position per problem --------------------------------------------------------------------------------

def test_police_outside_their_home_territory(cli, tmp_path):
    found = one(cli, tmp_path, LEGAL.replace("{strength: 4, city: Paris}", "{strength: 4, city: Rome}"))
    assert (found["code"], found["line"]) == ("police-abroad", 18)
    assert "Rome is not in France's home territory (it is Italy's)" in found["message"]
    assert {"2.5", "3.3", "Register R9"} <= set(found["rules"])


def test_police_in_a_home_city_not_coded_for_police(cli, tmp_path, spies):
    uncoded = next(c.name for c in spies.map.cities if c.power == "france" and not c.capital and not c.has_mark("police"))
    found = one(cli, tmp_path, LEGAL.replace("{strength: 4, city: Paris}", f"{{strength: 4, city: {uncoded}}}"))
    assert found["code"] == "police-uncoded" and "Register R9" in found["rules"]


def test_more_than_two_police_in_a_city(cli, tmp_path):
    found = one(cli, tmp_path, LEGAL.replace("      - {strength: 2, city: Berlin}\n", "      - {strength: 2, city: Berlin}\n      - {strength: 4, city: Berlin}\n"))
    assert (found["code"], found["line"]) == ("police-crowded", 12)


@pytest.mark.parametrize("old, new, line", [
    ("Kurt: Paris", "Kurt: North Sea", 9),                                      # a spy
    ("{strength: 4, city: Paris}", "{strength: 4, city: Bay of Biscay}", 18),    # police
    ("Enigma Code: Prague", "Enigma Code: Baltic Sea", 20),                      # a secret
])
def test_a_piece_at_sea(cli, tmp_path, old, new, line):
    found = problems(cli, tmp_path, LEGAL.replace(old, new))
    assert ("at-sea", line) in {(p["code"], p["line"]) for p in found}
    assert all(p["code"] in ("at-sea", "control-elsewhere") for p in found)
    assert next(p for p in found if p["code"] == "at-sea")["rules"] == ["3.6"]


def test_a_secret_controlled_by_two_pieces(cli, tmp_path):
    found = one(cli, tmp_path, LEGAL.replace("Kurt: Paris", "Kurt: {city: Prague, controls: enigma code}"))
    assert (found["code"], found["line"]) == ("double-control", 20)
    assert "Germany's spy Kurt; Germany's spy Erik" in found["message"] and "3.7" in found["rules"]


def test_a_piece_controlling_a_secret_in_another_city(cli, tmp_path):
    found = one(cli, tmp_path, LEGAL.replace("Erik: {city: Prague,", "Erik: {city: Vienna,"))
    assert (found["code"], found["line"]) == ("control-elsewhere", 10)


@pytest.mark.parametrize("old, new, message", [
    ("{strength: 2, city: Berlin}\n      - {strength: 3,", "{strength: 4, city: Berlin}\n      - {strength: 4,",
     "Germany has 1 police of strength 4, not 2"),
    ("{strength: 4, city: Paris}", "{strength: 1, city: Paris}", "France has 0 police of strength 1, not 1"),
    ("counterspy A: {city: Warsaw, counterspy: 5}",
     "counterspy A: {city: Warsaw, counterspy: 3}\n  counterspy B: {city: Rome, counterspy: 3}\n  counterspy C: {city: Oslo, counterspy: 3}",
     "the game has 2 counterspies of strength 3, not 3"),
    ("chits: [Discovery, Papers]", "chits: [Source, Source, Source, Source, Source, Source]", "the hands hold 6 Source chits; the game has 5"),
])
def test_more_pieces_than_the_roster_has(cli, tmp_path, old, new, message):
    found = [p for p in problems(cli, tmp_path, LEGAL.replace(old, new)) if p["code"] == "too-many"]
    assert [p["message"] for p in found] == [message]
    assert found[0]["rules"] == ["Playing Piece Roster"]


def test_more_chits_in_hands_than_the_cup_holds(cli, tmp_path, spies):
    cup = sum(p.count for p in spies.pieces if p.kind == "chit" and p.name not in ("Double Cross", "Intercept", "Drop", "Source"))
    hand = cup // 5 + 1
    powers = "".join(f"  {p}: {{chits: {hand}}}\n" for p in ("germany", "italy", "russia", "france", "britain"))
    found = problems(cli, tmp_path, f"variant: standard\npowers:\n{powers}")
    assert [p["code"] for p in found] == ["chits", "too-many", "chits", "chits", "chits", "chits"]
    assert f"the hands hold {5 * hand} Action chits; the standard game's cup has {cup} in all" in found[1]["message"]


@pytest.mark.parametrize("old, new, code, rules", [
    ("{power: germany, chit: Discovery, city: Vienna}", "{power: germany, chit: Discovery, city: Geneva}", "haven", ["5.1"]),
    ("{power: germany, chit: Discovery, city: Vienna}", "{power: germany, chit: Sanction, city: istanbul}", "haven", ["5.1"]),
    ("{power: france, chit: Papers}", "{power: france, chit: Recruit}", "chit-timing", ["4.2"]),
    ("{power: germany, chit: Discovery, city: Vienna}", "{power: germany, chit: Intercept}", "chit-timing", ["3.8"]),
])
def test_chits_played_against_the_rules(cli, tmp_path, old, new, code, rules):
    found = one(cli, tmp_path, LEGAL.replace(old, new))
    assert (found["code"], found["rules"]) == (code, rules)
    assert found["line"] in (24, 25)


def test_spy_havens_are_a_long_game_rule(cli, tmp_path):
    text = LEGAL.replace("city: Vienna}", "city: Geneva}").replace("variant: long\n", "").replace("turn: germany\n", "")
    assert check(cli, tmp_path, text).code == 0


def test_chits_the_standard_game_leaves_out(cli, tmp_path):
    text = LEGAL.replace("variant: long\n", "variant: standard\n").replace("chits: [Discovery, Papers]", "chits: [Discovery, Drop]")
    found = one(cli, tmp_path, text)
    assert (found["code"], found["line"]) == ("chit-not-in-game", 7)
    assert found["rules"] == ["Standard: Drawing Action Chits"]


@pytest.mark.parametrize("old, new, code, line", [
    ("money: 45", "money: -5", "money", 6),
    ("chits: 7", "chits: 8", "chits", 16),
    ("chits: 7", "chits: -1", "chits", 16),
    ("chits: [Discovery, Papers]", "chits: [Discovery, Papers, Papers, Papers, Recruit, Escape, Sanction, Cover]", "chits", 7),
    ("year: 1936", "year: 1940", "year", 2),
])
def test_money_chits_and_year_out_of_range(cli, tmp_path, old, new, code, line):
    found = one(cli, tmp_path, LEGAL.replace(old, new))
    assert (found["code"], found["line"]) == (code, line)


def test_more_players_than_powers_or_fewer_than_two(cli, tmp_path):
    for players in (1, 6):
        found = one(cli, tmp_path, LEGAL.replace("turn: germany", f"turn: germany\nplayers: {players}"))
        assert (found["code"], found["line"]) == ("players", 4)
    assert check(cli, tmp_path, LEGAL.replace("turn: germany", "turn: germany\nplayers: 3")).code == 0


def test_more_sanctioned_spy_markers_on_the_records_than_the_sheet_has(cli, tmp_path):
    entries = "".join("\n      - {year: 1934, kind: sanctioned, name: italy/Mario, value: 1}" for _ in range(11))
    found = one(cli, tmp_path, LEGAL.replace("chits: 7", "chits: 7\n    record:" + entries))
    assert (found["code"], found["rules"]) == ("too-many", ["Playing Piece Roster", "Register R18"])
    assert "11 Sanctioned Spy markers" in found["message"] and "the sheet has 10" in found["message"]


def test_every_problem_at_once(cli, tmp_path):
    text = (LEGAL.replace("year: 1936", "year: 1941").replace("money: 45", "money: -5").replace("Kurt: Paris", "Kurt: North Sea")
            .replace("{strength: 4, city: Paris}", "{strength: 4, city: Rome}").replace("city: Vienna}", "city: Geneva}"))
    found = problems(cli, tmp_path, text)
    assert [p["code"] for p in found] == ["year", "money", "at-sea", "police-abroad", "haven"]
    assert [p["line"] for p in found] == sorted(p["line"] for p in found)


# ---- refused: the file, its shape, its names, its variant ------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("powers: [germany\n", "line 2: YAML syntax error"),
    ("- just a list\n", "line 1: expected a mapping at the top of the file"),
    ("year: 1936\nyear: 1937\n", "line 2: key 'year' appears twice"),
    ("base: &b {money: 1}\npowers: {germany: *b}\n", "line 1: anchors and aliases"),
    ("powers:\n  germany:\n    money: lots\n", "line 3: powers.germany.money: expected a whole number, got 'lots'"),
    ("powers:\n  germany:\n    money: true\n", "line 3: powers.germany.money: expected a whole number, got True"),
    ("powers:\n  germany:\n    chits: {a: 1}\n", "line 3: powers.germany.chits: expected how many Action chits"),
    ("powers:\n  germany:\n    spies: {Kurt: {town: Paris}}\n", "line 3: powers.germany.spies.Kurt.town: unknown field"),
    ("weather: fine\n", "line 1: weather: unknown field"),
    ("", "the file is empty"),
])
def test_a_broken_file_is_refused_naming_the_line(cli, tmp_path, text, message):
    assert message in refused(cli, tmp_path, text)


def test_unknown_names_are_refused_each_with_its_line_and_the_closest_names(cli, tmp_path):
    text = "powers:\n  germany:\n    spies: {Kurtt: Pariss}\n    chits: [Discovry]\n  narnia: {}\nturn: Frnace\n"
    message = refused(cli, tmp_path, text)
    for expected in ("line 3: powers.germany.spies.Kurtt: unknown Germany spy 'Kurtt'; did you mean 'Kurt'?",
                     "line 3: powers.germany.spies.Kurtt: unknown place 'Pariss'; did you mean 'Paris'",
                     "line 4: powers.germany.chits[0]: unknown Action chit 'Discovry'",
                     "line 5: powers.narnia: unknown power 'narnia'",
                     "line 6: turn: unknown power 'Frnace'; did you mean 'France'?"):
        assert expected in message


def test_a_controlled_secret_must_be_on_the_map(cli, tmp_path):
    message = refused(cli, tmp_path, LEGAL.replace("controls: Enigma Code", "controls: Atomic Bomb"))
    assert "line 10: powers.germany.spies.Erik.controls: unknown secret on the map" in message


def test_the_variant_in_the_file_and_on_the_command_line_must_agree(cli, tmp_path):
    assert "the file is a long position, but --game names standard" in refused(cli, tmp_path, LEGAL, "--game", "standard")
    assert check(cli, tmp_path, LEGAL, "--game", "long").code == 0
    assert "unknown variant 'longer'" in refused(cli, tmp_path, LEGAL.replace("variant: long", "variant: longer"))


def test_a_missing_or_huge_file_is_refused(cli, tmp_path):
    result = cli("referee", "position", str(tmp_path / "nowhere.yaml"))
    assert result.code == 2 and "file not found" in result.stderr
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * 1_100_000 + "\n", encoding="utf-8")
    result = cli("referee", "position", str(big))
    assert result.code == 2 and "larger than 1000 kB" in result.stderr


def _set_up(power: str) -> dict:
    """A power's whole set-up in the Long Game, as the rules give it: its own tiles and three random ones, every police
    piece in its cities coded for police (two a city), every spy, three secrets one a city in its territory."""
    from generators.referee.variants import choose

    game = choose(None).game
    tiles = [t.id for t in game.tiles if t.nation == power] + [t.id for t in game.tiles if t.nation is None][:3]
    homes = [c.name for c in game.map.cities if c.power == power and (c.capital or c.has_mark("police"))]
    police = sorted(p.strength for p in game.pieces if p.kind == "police" and p.nation == power for _ in range(p.count))
    spies = {p.name: homes[0] for p in game.pieces if p.kind == "spy" and p.nation == power}
    territory = [c.name for c in game.map.cities if c.power == power]
    secrets = [p.name for p in game.pieces if p.kind == "secret"][:3]
    return {"variant": "long", "setup": True, "secrets": dict(zip(secrets, territory)),
            "powers": {power: {"money": 50, "chits": [], "tiles": tiles, "spies": spies,
                               "police": [{"strength": s, "city": homes[i // 2]} for i, s in enumerate(police)]}}}


def test_a_set_up_position_is_checked_against_what_set_up_gives_each_power(cli, tmp_path):
    import yaml

    start = _set_up("france")
    assert check(cli, tmp_path, yaml.safe_dump(start, sort_keys=False)).code == 0
    france = start["powers"]["france"]
    france["police"].pop()
    france["tiles"].pop()
    france["spies"].pop("Cousin")
    first, *_ = start["secrets"]
    start["secrets"] = {first: start["secrets"][first], "RDF": start["secrets"][first]}
    found = problems(cli, tmp_path, yaml.safe_dump(start, sort_keys=False))
    assert sorted(p["code"] for p in found) == ["secret-doubled", "setup-police", "setup-spies", "setup-tiles"]
    assert len({p["line"] for p in found}) == 1      # each at the power it is about
    del start["setup"]
    assert check(cli, tmp_path, yaml.safe_dump(start, sort_keys=False)).code == 0     # mid-game, the same pieces are legal
