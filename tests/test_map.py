"""The map as a route network: the shipped Spies! map, movement rules on small maps, and the `dossier map` commands."""

from __future__ import annotations

import doctest
from collections import deque
from pathlib import Path

import pytest
import yaml

from generators.core.errors import UnknownNameError
from generators.core.map_models import MapFile
from generators.core.tile_text import tile_cities
from generators.map.checks import check_map
from generators.map.network import Network, PlaceKindError, movement_graph

RULES = {"spaces_per_turn": 5, "move_ends_in": ["city"]}


def small_map(cities: list[tuple], lines: list[tuple] = (), zones: dict[str, list[str]] | None = None) -> MapFile:
    """A map from (name, sea zones) cities, (from, to, kind) lines and {zone: adjacent zones}."""
    return MapFile.model_validate({
        "rules": RULES,
        "sea_zones": [{"name": z, "adjacent": adj} for z, adj in (zones or {}).items()],
        "cities": [{"name": name, "country": "Land", "port": bool(seas), "sea_zones": list(seas), "lat": 50.0, "lon": float(i)}
                   for i, (name, seas) in enumerate(cities)],
        "routes": [{"from": a, "to": b, "kind": kind} for a, b, kind in lines],
    })


def chain(n: int) -> MapFile:
    """Cities C0 - C1 - ... - C(n-1) joined by rail in a line."""
    return small_map([(f"C{i}", ()) for i in range(n)], [(f"C{i}", f"C{i + 1}", "rail") for i in range(n - 1)])


def test_the_network_docstring_example_runs_and_holds():
    from generators.map import network

    result = doctest.testmod(network, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


# --- the shipped map ---------------------------------------------------------------------

def test_shipped_map_has_no_errors(spies):
    game_map = spies.map
    problems = check_map(game_map, named=[(t.id, c) for t in spies.tiles for _, c in tile_cities(spies, t)], powers=[f.id for f in spies.info.factions])
    assert not [p.message for p in problems if p.is_error]


def test_shipped_map_holds_every_tile_city_as_printed(spies):
    on_map = {c.name for c in spies.map.cities}
    on_tiles = {city for t in spies.tiles for a in t.awards for city in a.cities}
    assert len(on_tiles) == 89
    assert on_tiles <= on_map


def test_shipped_map_marks(spies):
    cities = spies.map.cities
    secret = [c for c in cities if c.has_mark("secret")]
    assert len(secret) == 8 and all(c.is_neutral for c in secret)
    assert sorted(c.name for c in cities if c.has_mark("haven")) == ["Geneva", "Istanbul", "Tangiers"]
    assert all(not c.is_neutral for c in cities if c.has_mark("police"))
    powers = {c.name: c.power for c in cities}
    assert powers["Gibraltar"] == powers["Malta"] == powers["Famagusta"] == "britain"
    assert powers["Algiers"] == powers["Tunis"] == "france"
    assert powers["Tripoli"] == "italy" and powers["Tirane"] is None


# --- movement rules on small maps ------------------------------------------------------------

def test_every_place_entered_is_one_space():
    game_map = chain(4)
    found = Network(game_map).route("C0", "C3")
    assert found.spaces == 3 and found.path == ["C0", "C1", "C2", "C3"] and found.kinds == ["rail"] * 3


def test_sea_zones_entered_count_as_spaces():
    game_map = small_map([("Port A", ["West"]), ("Port B", ["East"])], zones={"West": ["East"], "East": ["West"]})
    found = Network(game_map).route("Port A", "Port B")
    assert found.spaces == 3
    assert found.path == ["Port A", "West", "East", "Port B"]
    assert found.kinds == ["sea", "sea", "sea"]


def test_a_move_may_not_end_or_start_at_sea():
    game_map = small_map([("Port A", ["West"]), ("Port B", ["West"])], zones={"West": []})
    with pytest.raises(PlaceKindError):
        Network(game_map).route("Port A", "West")
    with pytest.raises(PlaceKindError):
        Network(game_map).route("West", "Port B")
    with pytest.raises(PlaceKindError):
        Network(game_map).reachable("West")
    assert Network(game_map).reachable("Port A") == {"Port A": 0, "Port B": 2}


def test_where_a_move_may_end_comes_from_the_map():
    ships = small_map([("Port A", ["West"]), ("Port B", ["West"])], zones={"West": []})
    ships = ships.model_copy(update={"rules": ships.rules.model_copy(update={"move_ends_in": ["city", "sea"]})})
    assert Network(ships).route("Port A", "West").spaces == 1
    assert Network(ships).reachable("West") == {"West": 0, "Port A": 1, "Port B": 1}


def test_only_ports_join_their_sea_zone():
    # Inland lists a zone but is not a port: it may not sail (check_map reports the mismatch).
    game_map = MapFile.model_validate({"rules": RULES, "sea_zones": [{"name": "West"}], "cities": [
        {"name": "Port", "country": "L", "port": True, "sea_zones": ["West"], "lat": 0, "lon": 0},
        {"name": "Inland", "country": "L", "port": False, "sea_zones": ["West"], "lat": 0, "lon": 1}]})
    assert Network(game_map).route("Port", "Inland").spaces is None


def test_five_space_limit():
    game_map = chain(8)
    assert Network(game_map).reachable("C0") == {f"C{i}": i for i in range(6)}
    assert Network(game_map).reachable("C0", spaces=2) == {"C0": 0, "C1": 1, "C2": 2}
    beyond = Network(game_map).route("C0", "C6")
    assert beyond.spaces == 6 and not beyond.is_within(5) and beyond.is_within(6)


def test_a_long_move_takes_the_fewest_turns_stopping_in_a_city_each_time():
    journey = Network(chain(12)).journey("C0", "C11")
    assert (journey.turns, journey.stops[-1]) == (3, "C11")
    assert all(leg.spaces <= 5 for leg in journey.legs) and sum(leg.spaces for leg in journey.legs) == 11


def test_a_turn_never_ends_at_sea_so_a_sea_crossing_may_take_an_extra_turn():
    # A - six sea zones - B: six spaces, and no city to stop in between, so no journey at all
    zones = {f"Z{i}": [f"Z{i - 1}"] * (i > 0) + [f"Z{i + 1}"] * (i < 4) for i in range(5)}
    game_map = small_map([("A", ("Z0",)), ("B", ("Z4",))], zones=zones)
    assert Network(game_map).route("A", "B").spaces == 6
    assert Network(game_map).journey("A", "B").turns is None
    stop = small_map([("A", ("Z0",)), ("Mid", ("Z2",)), ("B", ("Z4",))], zones=zones)
    assert (Network(stop).journey("A", "B").turns, Network(stop).journey("A", "B").stops) == (2, ["Mid", "B"])


def test_the_limit_comes_from_the_map():
    game_map = chain(8).model_copy(update={"rules": chain(8).rules.model_copy(update={"spaces_per_turn": 3})})
    assert max(Network(game_map).reachable("C0").values()) == 3


def test_unreachable_answers_none():
    game_map = small_map([("A", ()), ("B", ())])
    found = Network(game_map).route("A", "B")
    assert found.spaces is None and found.path == [] and found.kinds == [] and not found.is_reachable


def test_same_city_is_zero_spaces():
    assert Network(chain(2)).route("C1", "C1").spaces == 0


def test_a_rail_and_air_pair_is_reported_as_rail():
    game_map = small_map([("A", ()), ("B", ())], [("A", "B", "air"), ("B", "A", "rail")])
    assert Network(game_map).route("B", "A").kinds == ["rail"]


def test_places_resolve_forgivingly(spies):
    game_map = spies.map
    assert Network(game_map).resolve("nurnberg") == "Nurnberg"
    assert Network(game_map, spies.aliases).resolve("Nürnberg") == "Nurnberg"
    assert Network(game_map).resolve("north sea") == "North Sea"
    with pytest.raises(UnknownNameError) as caught:
        Network(game_map).resolve("Berln")
    assert "Berlin" in caught.value.suggestions


# --- route answers agree with an independent breadth-first count -------------------------------

def independent_neighbours(document: dict) -> dict[str, set[str]]:
    """Adjacency read straight from the YAML: lines, port to zone, zone to zone."""
    near: dict[str, set[str]] = {c["name"]: set() for c in document["cities"]}
    near |= {z["name"]: set() for z in document["sea_zones"]}
    for r in document["routes"]:
        near[r["from"]].add(r["to"])
        near[r["to"]].add(r["from"])
    for c in document["cities"]:
        if c["port"]:
            for z in c["sea_zones"]:
                near[c["name"]].add(z)
                near[z].add(c["name"])
    for z in document["sea_zones"]:
        for other in z["adjacent"]:
            near[z["name"]].add(other)
            near[other].add(z["name"])
    return near


def bfs(near: dict[str, set[str]], start: str) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in near[here]:
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


@pytest.fixture(scope="module")
def spies_document(spies) -> dict:
    return yaml.safe_load(spies.file("map.yaml").read_text(encoding="utf-8"))


def test_route_agrees_with_breadth_first_count(spies, spies_document):
    game_map = spies.map
    near = independent_neighbours(spies_document)
    cities = [c["name"] for c in spies_document["cities"]]
    zones = {z["name"] for z in spies_document["sea_zones"]}
    network = Network(game_map)
    for origin in cities[::7]:
        expected = bfs(near, origin)
        for destination in cities:
            found = network.route(origin, destination)
            assert found.spaces == expected.get(destination), (origin, destination)
            assert len(found.path) == found.spaces + 1 and len(found.kinds) == found.spaces
            assert found.path[0] == origin and found.path[-1] == destination
            for (a, b), kind in zip(zip(found.path, found.path[1:]), found.kinds):
                assert b in near[a]
                assert (kind == "sea") == (a in zones or b in zones)


def test_reachable_agrees_with_breadth_first_count(spies, spies_document):
    game_map = spies.map
    near = independent_neighbours(spies_document)
    zones = {z["name"] for z in spies_document["sea_zones"]}
    for origin in ("Berlin", "Malta", "Narvik", "Cairo", "Scapa Flow"):
        expected = {name: n for name, n in bfs(near, origin).items() if n <= 5 and name not in zones}
        assert Network(game_map).reachable(origin) == expected


def test_the_network_finds_the_route_networkx_finds(spies):
    """Of several equally short routes the network reports the one networkx's search finds, and the same reach."""
    import networkx as nx

    plain, graph = Network(spies.map).graph, movement_graph(spies.map)
    names = list(plain.nodes)
    for origin in names[::9]:
        for destination in names:
            assert plain.shortest_path(origin, destination) == nx.shortest_path(graph, origin, destination)
        for cutoff in (0, 1, 5):
            assert plain.distances(origin, cutoff) == nx.single_source_shortest_path_length(graph, origin, cutoff=cutoff)


def test_no_route_joins_two_parts_of_a_map():
    game_map = MapFile.model_validate({"rules": {"spaces_per_turn": 5},
        "cities": [{"name": name, "country": "Land", "lat": 50.0, "lon": lon} for name, lon in [("A", 1.0), ("B", 2.0), ("C", 9.0)]],
        "routes": [{"from": "A", "to": "B", "kind": "rail"}]})
    network = Network(game_map)
    assert network.route("A", "C").spaces is None and network.route("A", "B").path == ["A", "B"]
    assert network.reachable("C") == {"C": 0}


def test_graph_counts(spies, spies_document):
    graph = movement_graph(spies.map)
    assert graph.number_of_nodes() == len(spies_document["cities"]) + len(spies_document["sea_zones"])


# --- the CLI -------------------------------------------------------------------------------------

def test_cli_check_shipped_map(cli):
    result = cli("map", "check", "--game", "spies")
    assert result.code == 0, result.stdout
    assert "valid" in result.stdout
    report = cli("map", "check", "--json").json()
    assert report["valid"] is True and report["errors"] == 0
    assert all(p["severity"] == "warning" for p in report["problems"])


def test_cli_check_invalid_map_exits_1(cli, game_copy):
    folder = game_copy("spies")
    file = folder / "map.yaml"
    text = file.read_text(encoding="utf-8")
    assert "    marks: [secret]\n" in text
    file.write_text(text.replace("    marks: [secret]\n", "", 1), encoding="utf-8")
    result = cli("map", "check", "--game", folder, "--json")
    assert result.code == 1
    codes = {p["code"] for p in result.json()["problems"]}
    assert "mark-count" in codes


def test_cli_check_other_map_file(cli, tmp_path, spies):
    document = yaml.safe_load(spies.file("map.yaml").read_text(encoding="utf-8"))
    document["routes"].append({"from": "Berlin", "to": "Atlantis", "kind": "rail"})
    other = tmp_path / "mine.yaml"
    other.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    result = cli("map", "check", "--map", other)
    assert result.code == 1
    assert "unknown-endpoint" in result.stdout and "Atlantis" in result.stdout


@pytest.mark.parametrize("text, words", [
    ("rules: {spaces_per_turn: 5}\ncities: [\n", "YAML syntax error"),
    ("rules: {spaces_per_turn: 5}\nroutes: [{from: A, to: B, kind: boat}]\n", "routes[0].kind"),
    ("cities: []\n", "rules"),
])
def test_cli_check_unreadable_map_exits_2(cli, tmp_path, text, words):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    result = cli("map", "check", "--map", bad)
    assert result.code == 2
    assert "bad.yaml" in result.stderr and words in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_route_json(cli):
    result = cli("map", "route", "berlin", "Lisboa", "--json")
    assert result.code == 0
    answer = result.json()
    assert answer["from"] == "Berlin" and answer["to"] == "Lisbon"
    assert answer["path"][0] == "Berlin" and answer["path"][-1] == "Lisbon"
    assert len(answer["kinds"]) == answer["spaces"] == len(answer["path"]) - 1
    assert set(answer["kinds"]) <= {"rail", "air", "sea"}


def test_cli_route_gives_the_turns_and_a_city_to_stop_in_each_turn(cli, spies):
    answer = cli("map", "route", "Sofia", "Lisbon", "--json").json()
    assert answer["spaces"] == 7 and answer["within_turn"] is False
    assert answer["turns"] == len(answer["stops"]) == 2 and answer["stops"][-1] == "Lisbon"
    cities = {c.name for c in spies.map.cities}
    network = Network(spies.map)
    for a, b in zip([answer["from"], *answer["stops"]], answer["stops"]):
        assert b in cities and network.route(a, b).spaces <= 5
    assert "Stopping in a city each turn: turn 1 to" in cli("map", "route", "Sofia", "Lisbon").stdout
    near = cli("map", "route", "Berlin", "Paris", "--json").json()
    assert (near["turns"], near["stops"]) == (1, ["Paris"])


def test_cli_route_text_shows_each_step(cli):
    result = cli("map", "route", "Berlin", "London")
    answer = cli("map", "route", "Berlin", "London", "--json").json()
    assert result.code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"Berlin → London: {answer['spaces']} space(s), within one turn (at most 5 a turn)"
    assert lines[1].split() == ["Berlin"]
    assert [line.split(None, 2)[1:] for line in lines[2:]] == [[kind, place] for kind, place in zip(answer["kinds"], answer["path"][1:])]


@pytest.mark.parametrize("args", [("route", "Berln", "London"), ("route", "Berlin", "Londn"), ("reach", "Berln")])
def test_cli_unknown_place_suggests(cli, args):
    result = cli("map", *args)
    assert result.code == 2
    assert "did you mean" in result.stderr and ("'Berlin'" in result.stderr or "'London'" in result.stderr)


def test_cli_route_to_sea_refused(cli):
    result = cli("map", "route", "Hamburg", "north sea")
    assert result.code == 2 and "sea zone" in result.stderr


def test_cli_reach(cli):
    result = cli("map", "reach", "Malta", "--spaces", "2", "--json")
    assert result.code == 0
    answer = result.json()
    assert answer["spaces"] == 2
    listed = {c["name"]: c["spaces"] for c in answer["places"]}
    assert listed["Malta"] == 0 and listed["Tripoli"] == 2
    assert max(listed.values()) <= 2 and "Central Mediterranean" not in listed
    text = cli("map", "reach", "Berlin")
    assert text.code == 0 and "within 5 space(s)" in text.stdout


def test_cli_show_json(cli, spies_document):
    shown = cli("map", "show", "--json").json()
    assert set(shown) == {"cities", "sea_zones", "routes", "marks"}
    assert shown["marks"]["haven"]["legend"] == "Spy haven (Long Game)" and shown["marks"]["police"]["badge"] == "P"
    assert len(shown["cities"]) == len(spies_document["cities"])
    berlin = next(c for c in shown["cities"] if c["name"] == "Berlin")
    assert set(berlin) == {"name", "country", "power", "capital", "port", "sea_zones", "marks", "x", "y", "space"}
    assert berlin["marks"] == ["police"]
    assert berlin["power"] == "germany" and berlin["capital"] is True
    geneva = next(c for c in shown["cities"] if c["name"] == "Geneva")
    assert geneva["power"] is None and geneva["marks"] == ["haven"]
    assert {"from", "to", "kind"} == set(shown["routes"][0])
    # projected positions keep the geography: London west of Berlin, Cairo south of Rome
    at = {c["name"]: (c["x"], c["y"]) for c in shown["cities"]}
    assert at["London"][0] < at["Berlin"][0] < at["Moscow"][0]
    assert at["Narvik"][1] < at["Rome"][1] < at["Cairo"][1]
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in at.values())


def test_validate_refuses_map_errors(cli, game_copy):
    folder = game_copy("spies")
    file = folder / "map.yaml"
    text = file.read_text(encoding="utf-8")
    assert "    marks: [haven]\n" in text
    file.write_text(text.replace("    marks: [haven]\n", "", 1), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert "map.yaml: marks.haven.cities[" in result.stderr and "does not carry the mark" in result.stderr


def test_map_assumptions_are_listed(cli):
    rows = cli("assumptions", "--game", "spies", "--json").json()
    # the file as read: the checkout's relative path, or the installed copy's full path
    fields = {r["field"] for r in rows if Path(r["file"]).parts[-3:] == ("components", "spies", "map.yaml")}
    assert {"lat", "cities"} <= fields
