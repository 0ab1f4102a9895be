"""`dossier map check`: one deliberately broken map per problem code, on a small hand-made game."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

import generators.map.checks
from hostile_helpers import TILE_KIND

GAME = {
    "name": "tiny", "title": "Tiny", "years": [1933],
    "factions": [{"id": "red", "name": "Red", "code": "Rd"}, {"id": "blue", "name": "Blue", "code": "Bl"}],
    "tiles": TILE_KIND,
}
TILES = {"tiles": [{"id": "Rd 1", "nation": "red", "number": 1, "years": [1933], "event": "Test",
                    "awards": [{"amount": 1, "kind": "c", "cities": ["Alba", "Cair"]}]}]}


def city(name, country, lat, lon, **marks):
    return {"name": name, "country": country, "lat": lat, "lon": lon, **marks}


# Red and Blue each hold a capital with police; neutral Greyland holds the SECRET city and the
# haven; two sea zones; five rail lines of like length and one air line.
CLEAN = {
    "rules": {"spaces_per_turn": 5, "move_ends_in": ["city"]},
    "marks": {
        "police": {"legend": "City coded for police", "badge": "P", "where": "home"},
        "secret": {"legend": "City marked SECRET", "tag": "SECRET", "where": "neutral", "count": 1},
        "haven": {"legend": "Spy haven", "tag": "SPY HAVEN", "cities": ["Dale"]},
    },
    "sea_zones": [{"name": "West Sea", "adjacent": ["East Sea"]}, {"name": "East Sea", "adjacent": ["West Sea"]}],
    "cities": [
        city("Alba", "Redland", 50.0, 0.0, power="red", capital=True, marks=["police"]),
        city("Bree", "Redland", 50.0, -1.0, power="red", port=True, sea_zones=["West Sea"]),
        city("Cair", "Greyland", 50.0, 1.0, capital=True, marks=["secret"]),
        city("Dale", "Greyland", 49.0, 1.0, marks=["haven"], port=True, sea_zones=["East Sea"]),
        city("Eryn", "Blueland", 50.0, 2.0, power="blue", capital=True, marks=["police"]),
        city("Fenn", "Blueland", 49.0, 2.0, power="blue", port=True, sea_zones=["East Sea"]),
    ],
    "routes": [
        {"from": "Alba", "to": "Bree", "kind": "rail"},
        {"from": "Alba", "to": "Cair", "kind": "rail"},
        {"from": "Bree", "to": "Cair", "kind": "rail"},
        {"from": "Cair", "to": "Dale", "kind": "rail"},
        {"from": "Eryn", "to": "Fenn", "kind": "rail"},
        {"from": "Cair", "to": "Eryn", "kind": "air"},
    ],
}


def named(document, name):
    return next(c for c in document["cities"] + document["sea_zones"] if c["name"] == name)


def add_city(document, **fields):
    document["cities"].append(city(**fields))


def _moved_far(d):
    named(d, "Fenn").update(lat=60.0)


def _with_dice(d):
    """Two regions picked by a 2-faced die, each with a city for every face of a 3-faced one."""
    d["dice"] = {"region": {"name": "Region die", "faces": 2}, "city": {"name": "City die", "faces": 3}}
    d["regions"] = [{"name": "West", "number": 1}, {"name": "East", "number": 2}]
    for n, name in enumerate(["Alba", "Bree", "Cair", "Dale", "Eryn", "Fenn"]):
        named(d, name).update(region="West" if n < 3 else "East", number=n % 3 + 1)
    return d


# code -> (what breaks it, the names the problem must mention)
BREAKS = {
    "duplicate-city": (lambda d: d["cities"].append(copy.deepcopy(named(d, "Alba"))), ["Alba"]),
    "duplicate-sea-zone": (lambda d: d["sea_zones"].append(copy.deepcopy(named(d, "West Sea"))), ["West Sea"]),
    "name-clash": (lambda d: (add_city(d, name="East Sea", country="Greyland", lat=48.0, lon=1.0),
                              d["routes"].append({"from": "East Sea", "to": "Cair", "kind": "rail"})), ["East Sea"]),
    "unknown-endpoint": (lambda d: d["routes"].append({"from": "Alba", "to": "Zed", "kind": "rail"}), ["Zed"]),
    "self-loop": (lambda d: d["routes"].append({"from": "Alba", "to": "Alba", "kind": "air"}), ["Alba"]),
    "duplicate-route": (lambda d: d["routes"].append({"from": "Bree", "to": "Alba", "kind": "rail"}), ["Alba", "Bree"]),
    "port-without-sea-zone": (lambda d: named(d, "Bree").update(sea_zones=[]), ["Bree"]),
    "inland-city-on-sea": (lambda d: named(d, "Alba").update(sea_zones=["West Sea"]), ["Alba"]),
    "unknown-sea-zone": (lambda d: named(d, "Dale")["sea_zones"].append("South Sea"), ["Dale", "South Sea"]),
    "one-way-adjacency": (lambda d: named(d, "East Sea").update(adjacent=[]), ["West Sea", "East Sea"]),
    "sea-zone-without-port": (lambda d: d["sea_zones"].append({"name": "North Sea", "adjacent": []}), ["North Sea"]),
    "disconnected": (lambda d: add_city(d, name="Gorm", country="Greyland", lat=51.0, lon=1.0), ["Gorm"]),
    "no-cities": (lambda d: d.update(cities=[], routes=[]), []),
    "missing-tile-city": (lambda d: named(d, "Alba").update(name="Albany"), ["Alba"]),
    "unknown-power": (lambda d: named(d, "Bree").update(power="green"), ["Bree"]),
    "unknown-mark": (lambda d: named(d, "Cair")["marks"].append("embassy"), ["Cair"]),
    "mark-outside-home": (lambda d: named(d, "Cair")["marks"].append("police"), ["Cair"]),
    "missing-capital": (lambda d: named(d, "Eryn").update(capital=False), ["blue"]),
    "several-capitals": (lambda d: named(d, "Bree").update(capital=True), ["red", "Alba", "Bree"]),
    "mark-count": (lambda d: named(d, "Dale")["marks"].append("secret"), ["Cair", "Dale"]),
    "mark-not-neutral": (lambda d: (named(d, "Cair").update(marks=[]), named(d, "Alba")["marks"].append("secret")), ["Alba"]),
    "mark-missing": (lambda d: named(d, "Dale").update(marks=[]), ["Dale"]),
    "mark-unlisted": (lambda d: named(d, "Cair")["marks"].append("haven"), ["Cair"]),
    "home-territory": (lambda d: d["rules"].update(home_territory=False), ["Alba"]),
    "duplicate-region": (lambda d: _with_dice(d)["regions"].append({"name": "West", "number": 1}), ["West"]),
    "unknown-region": (lambda d: named(_with_dice(d), "Alba").update(region="Atlantis"), ["Alba"]),
    "missing-region": (lambda d: named(_with_dice(d), "Bree").pop("region"), ["Bree"]),
    "die-face": (lambda d: named(_with_dice(d), "Bree").update(number=1), ["Alba", "Bree"]),
    "dice-regions": (lambda d: _with_dice(d)["dice"]["region"].update(faces=3), []),
    "dice-cities": (lambda d: named(_with_dice(d), "Fenn").update(number=2), ["East"]),
    # warnings
    "long-rail-line": (_moved_far, ["Eryn", "Fenn"]),
    "port-without-lines": (lambda d: add_city(d, name="Hull", country="Greyland", lat=48.0, lon=0.0, port=True, sea_zones=["West Sea"]), ["Hull"]),
    "country-split": (lambda d: named(d, "Bree").update(country="Greyland"), ["Greyland"]),
    "country-capitals": (lambda d: named(d, "Dale").update(capital=True), ["Greyland", "Cair", "Dale"]),
    "same-position": (lambda d: named(d, "Dale").update(lat=50.0, lon=1.0), ["Cair", "Dale"]),
}
WARNINGS = {"long-rail-line", "port-without-lines", "country-split", "country-capitals", "same-position"}


def write_game(folder: Path, document: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(yaml.safe_dump(GAME), encoding="utf-8")
    (folder / "tiles.yaml").write_text(yaml.safe_dump(TILES), encoding="utf-8")
    (folder / "map.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return folder


def test_clean_small_map_has_no_problems(cli, tmp_path):
    result = cli("map", "check", "--game", write_game(tmp_path / "tiny", CLEAN), "--json")
    assert result.code == 0
    assert result.json()["problems"] == []


def test_clean_small_game_loads_and_routes(cli, tmp_path):
    folder = write_game(tmp_path / "tiny", CLEAN)
    assert cli("validate", "--game", folder).code == 0
    answer = cli("map", "route", "Bree", "Fenn", "--game", folder, "--json").json()
    assert answer["spaces"] == 3 and answer["path"] == ["Bree", "Cair", "Eryn", "Fenn"]


@pytest.mark.parametrize("code", sorted(BREAKS))
def test_each_broken_map_reports_its_code(cli, tmp_path, code):
    breaks, names = BREAKS[code]
    document = copy.deepcopy(CLEAN)
    breaks(document)
    result = cli("map", "check", "--game", write_game(tmp_path / "tiny", document), "--json")
    report = result.json()
    found = [p for p in report["problems"] if p["code"] == code]
    assert found, f"{code} not reported; got {[p['code'] for p in report['problems']]}"
    problem = found[0]
    assert problem["severity"] == ("warning" if code in WARNINGS else "error")
    assert set(names) <= set(problem["names"]), problem
    assert result.code == (1 if has_errors(report) else 0)
    if code in WARNINGS:
        assert result.code == 0 and report["valid"] is True
    else:
        assert result.code == 1 and report["valid"] is False


def has_errors(report: dict) -> bool:
    return any(p["severity"] == "error" for p in report["problems"])


def test_every_code_has_a_broken_map():
    source = Path(generators.map.checks.__file__).read_text(encoding="utf-8")
    emitted = set(re.findall(r'_(?:error|warning)\("([a-z-]+)"', source))
    assert emitted == set(BREAKS)


def test_a_clean_map_with_dice_has_no_problems(cli, tmp_path):
    result = cli("map", "check", "--game", write_game(tmp_path / "tiny", _with_dice(copy.deepcopy(CLEAN))), "--json")
    assert result.code == 0 and result.json()["problems"] == []


def test_every_problem_is_reported_at_once(cli, tmp_path):
    document = copy.deepcopy(CLEAN)
    for code in ("self-loop", "mark-unlisted", "mark-missing", "one-way-adjacency"):
        BREAKS[code][0](document)
    report = cli("map", "check", "--game", write_game(tmp_path / "tiny", document), "--json").json()
    assert {"self-loop", "mark-unlisted", "mark-missing", "one-way-adjacency"} <= {p["code"] for p in report["problems"]}


def test_text_report_names_code_and_place(cli, tmp_path):
    document = copy.deepcopy(CLEAN)
    BREAKS["unknown-endpoint"][0](document)
    result = cli("map", "check", "--game", write_game(tmp_path / "tiny", document))
    assert result.code == 1
    assert "error   unknown-endpoint" in result.stdout and "'Zed'" in result.stdout and "routes[6].to" in result.stdout
    assert "invalid" in result.stdout


def test_assumed_reason_must_name_a_field(cli, tmp_path):
    document = copy.deepcopy(CLEAN)
    document["assumed"] = {"lat": "real positions", "colour": "no such field"}
    result = cli("map", "check", "--game", write_game(tmp_path / "tiny", document))
    assert result.code == 2 and "colour" in result.stderr
    document["assumed"] = {"lat": "real positions", "marks": "chosen", "from": "lines"}
    assert cli("map", "check", "--game", write_game(tmp_path / "tiny", document)).code == 0
