"""Maps built to exhaust the poster: many long lines across it, more places than a map may hold."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from generators.core.limits import MAX_CITIES, MAX_ROUTES, MAX_SEA_ZONES
from generators.map.line_grid import LineGrid
from test_hostile import PEAK_CHILD

GAME = {"name": "dense", "title": "Dense", "years": [1933],
        "factions": [{"id": "red", "name": "Red", "code": "Rd"}, {"id": "blue", "name": "Blue", "code": "Bl"}]}


def dense_map(folder: Path, cities: int, routes: int, seed: int = 1) -> Path:
    """A valid map of `cities` scattered at random and `routes` air lines between random pairs of them:
    long lines crossing the whole poster, every one of them passing near many names."""
    rng = random.Random(seed)
    places = [{"name": f"City{i}", "country": "Redland" if i == 0 else "Blueland" if i == 1 else "Greyland",
               "lat": round(rng.uniform(35, 60), 4), "lon": round(rng.uniform(-10, 30), 4)} for i in range(cities)]
    places[0].update(power="red", capital=True)
    places[1].update(power="blue", capital=True)
    pairs = {(rng.randrange(i), i) for i in range(1, cities)}  # joined up
    while len(pairs) < routes:
        a, b = sorted(rng.sample(range(cities), 2))
        pairs.add((a, b))
    document = {"rules": {"spaces_per_turn": 5, "move_ends_in": ["city"]}, "cities": places,
                "routes": [{"from": f"City{a}", "to": f"City{b}", "kind": "air"} for a, b in sorted(pairs)]}
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(yaml.safe_dump(GAME), encoding="utf-8")
    (folder / "map.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return folder


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_a_poster_of_a_thousand_long_lines_is_drawn_within_400_mb(tmp_path):
    # 60 cities and 1,000 lines across the whole map: spacing the cities and placing the names once took
    # 780 MB here (every line's bounding box met most spots); the same shape grown to 1,000 cities and
    # 5,000 lines took over 3 GB
    game = dense_map(tmp_path / "dense", 60, 1000)
    out = tmp_path / "out"
    peak = tmp_path / "peak"
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-c", PEAK_CHILD, str(peak), "build", "--game", str(game), "--only", "map",
                              "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 0, err
    assert (out / "dense" / "map.pdf").stat().st_size > 10_000
    assert int(peak.read_text()) * 1024 < 400 * 2**20
    assert usage.ru_utime + usage.ru_stime < 40.0  # processor time: about 4 s here
    assert time.monotonic() - start < 600


@pytest.mark.parametrize("field, limit", [("cities", MAX_CITIES), ("routes", MAX_ROUTES), ("sea_zones", MAX_SEA_ZONES)])
def test_a_map_holding_more_than_its_limit_is_refused_naming_it(cli, tmp_path, field, limit):
    game = dense_map(tmp_path / "dense", 3, 2)
    document = yaml.safe_load((game / "map.yaml").read_text(encoding="utf-8"))
    one = {"cities": document["cities"][2], "routes": document["routes"][0], "sea_zones": {"name": "Sea", "adjacent": []}}[field]
    document[field] = [one] * (limit + 1)  # the limit is checked before anything else is: duplicates do not matter
    (game / "map.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    for command in (["map", "check", "--game"], ["build", "--only", "map", "--out", str(tmp_path / "out"), "--game"]):
        result = cli(*command, game)
        assert result.code == 2
        assert f"dense/map.yaml: {field}: {limit + 1:,} entries; at most {limit:,} are allowed here" in result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr) < 300
    assert not (tmp_path / "out").exists()


def test_the_line_grid_finds_every_segment_that_meets_a_box_and_no_pair_twice():
    rng = random.Random(2)
    segments = [[rng.uniform(0, 300), rng.uniform(0, 200), rng.uniform(0, 300), rng.uniform(0, 200)] for _ in range(300)]
    segments += [[50.0, 50.0, 50.0, 50.0], [10.0, 120.0, 290.0, 120.0]]  # a point; a line along a row of cells
    import numpy as np
    import shapely

    grid = LineGrid(np.array(segments))
    boxes = np.array([[x, y, x + rng.uniform(0.1, 30), y + rng.uniform(0.1, 6)]
                      for x, y in ((rng.uniform(-10, 300), rng.uniform(-10, 200)) for _ in range(2000))])
    box, seg, crowded = grid.near(*boxes.T)
    assert not crowded.any()
    found = set(zip(box.tolist(), seg.tolist()))
    assert len(found) == len(box)
    lines = shapely.linestrings(np.array(segments).reshape(-1, 2, 2))
    for i, b in enumerate(boxes):
        meets = set(np.nonzero(shapely.intersects(lines, shapely.box(*b)))[0].tolist())
        assert meets <= {s for j, s in found if j == i}


def test_a_box_whose_cells_hold_more_segments_than_asked_is_crowded_and_left_out():
    import numpy as np

    grid = LineGrid(np.array([[0.0, float(y), 100.0, float(y)] for y in np.linspace(10, 11, 20)]))
    box, seg, crowded = grid.near(np.array([40.0, 40.0]), np.array([9.5, 50.0]), np.array([45.0, 45.0]), np.array([11.5, 55.0]), 10)
    assert crowded.tolist() == [True, False] and len(box) == 0
    box, seg, crowded = grid.near(np.array([40.0]), np.array([9.5]), np.array([45.0]), np.array([11.5]), 50)
    assert not crowded.any() and sorted(seg.tolist()) == list(range(20))


def _long_named_sea_zones(game: Path, count: int, tail: str) -> Path:
    """`game`'s map given `count` sea zones with long names (ending in `tail`) in a ring, each on a port of its own."""
    document = yaml.safe_load((game / "map.yaml").read_text(encoding="utf-8"))
    zones = [f"The Very Long Named Sea Zone Number {i}{tail}" for i in range(count)]
    document["sea_zones"] = [{"name": z, "adjacent": [zones[i - 1], zones[(i + 1) % count]]} for i, z in enumerate(zones)]
    for city, zone in zip(document["cities"][2:], zones):
        city.update(port=True, sea_zones=[zone])
    (game / "map.yaml").write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return game


def test_sea_zones_placed_on_their_ports_and_too_many_for_the_key_are_refused_naming_map_yaml_and_its_field(cli, tmp_path):
    # 120 sea zones with no place of their own, each on its one port: the warp was fitted through places on
    # one spot (a singular matrix, a traceback); now the poster is refused because their list finds no room
    game = _long_named_sea_zones(dense_map(tmp_path / "dense", 122, 121), 120, "")
    result = cli("build", "--game", game, "--only", "map", "--out", tmp_path / "out")
    assert result.code == 2
    assert re.search(r"dense/map\.yaml: sea_zones: the poster's key has no room for the list of 120 sea zones: text does not "
                     r"fit in \d+\.\d x \d+\.\d mm even at 8 pt: .*; shorten the zones' names, or give the key room in the "
                     r"layout \(poster: key_width, key_size\) \(line \d+, column 1\)$", result.stderr.strip()), result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_a_key_with_no_room_for_its_list_is_refused_when_the_poster_is_planned_not_when_it_is_drawn(tmp_path):
    from generators.core.errors import DataError
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts
    from generators.printing.settings import PrintSettings
    from generators.validation import load_game

    game = _long_named_sea_zones(dense_map(tmp_path / "dense", 40, 39), 38, " Of Many")
    loaded = load_game(game)
    layout = loaded.layout.model_copy(update={"poster": loaded.layout.poster.model_copy(update={"key_size": 30.0})})
    with pytest.raises(DataError, match="no room for the list of 38 sea zones"):
        plan_poster(loaded, PrintSettings.of_layout(layout), register_fonts(layout.fonts, loaded.folder))


def test_a_text_left_no_room_says_so_and_never_names_a_negative_size():
    from generators.printing.textfit import TextFitError, fit_text

    with pytest.raises(TextFitError, match=r"^the poster's sea zone list: no room is left for it: what comes before it "
                                           r"leaves 119\.1 x 0\.0 mm$"):
        fit_text("North Sea", 119.1, -488.2, largest=8, smallest=8, what="the poster's sea zone list", font="Helvetica")


def test_a_geography_that_ends_short_of_the_map_frame_is_refused_naming_its_extent(cli, game_copy, tmp_path):
    # Spies!'s geography once stopped at 62 E while the frame reaches 90 E in Siberia: Russia ended in a
    # straight cut along that meridian, sea painted east of it
    game = game_copy("spies")
    document = json.loads((game / "geography.json").read_text(encoding="utf-8"))
    document["extent"] = [-25.0, 24.0, 62.0, 73.0]
    (game / "geography.json").write_text(json.dumps(document), encoding="utf-8")
    result = cli("build", "--only", "map", "--out", tmp_path / "out", "--game", game)
    assert result.code == 2
    assert "geography.json: extent: the map's frame reaches beyond the land this file holds" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()
