"""What a game ships worked out (core.shipped, `dossier map fit`): the Spies! poster's places, sea zones and names
are shipped as what the code works out from the data now; a build reads them instead of working them out, and
uses none of them once the data they were worked out from changes or the file is damaged."""

from __future__ import annotations

import json
import re

import pytest

from generators.core import paths
from generators.core.shipped import FILE, differing_parts, read_shipped
from generators.printing.settings import PrintSettings


def _plan(folder):
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts
    from generators.validation import load_game

    game = load_game(folder)
    return plan_poster(game, PrintSettings.of_layout(game.layout), register_fonts(game.layout.fonts, game.folder))


def _never(*args):
    raise AssertionError("worked out again")


@pytest.mark.slow
def test_the_spies_map_ships_what_the_code_works_out_from_its_data_now(cli):
    result = cli("map", "fit", "--game", "spies")
    assert result.code == 0, result.stderr
    assert "worked-out.json is what the data gives now" in result.stdout


@pytest.mark.slow
def test_a_shipped_answer_that_is_not_what_the_code_works_out_is_named_with_the_command_that_mends_it(cli, game_copy):
    folder = game_copy("spies")
    shipped = json.loads((folder / FILE).read_text(encoding="utf-8"))
    (parts,) = [p for p in shipped["answers"].values() if "poster-places" in p]
    name, (x, y) = next(iter(parts["poster-places"]["at"].items()))
    parts["poster-places"]["at"][name] = [x + 1.0, y]
    (folder / FILE).write_text(json.dumps(shipped), encoding="utf-8")
    result = cli("map", "fit", "--game", str(folder))
    assert result.code == 1
    assert "(poster-places differ)" in result.stderr and "dossier map fit --game spies --save" in result.stderr

    saved = cli("map", "fit", "--game", str(folder), "--save")
    assert saved.code == 0 and "wrote" in saved.stdout and "poster-places" in saved.stdout
    assert differing_parts(read_shipped(folder), read_shipped(paths.components_dir() / "spies")) == []


def test_a_build_of_the_data_as_shipped_works_out_neither_places_nor_sea_zones_nor_names(game_copy, monkeypatch):
    from generators.map import poster, spaces

    folder = game_copy("spies")
    for name in ("_worked_out",):
        monkeypatch.setattr(spaces, name, _never)
    for name in ("map_sea_zones", "route_lanes", "place_labels"):
        monkeypatch.setattr(poster, name, _never)
    plan = _plan(folder)
    assert len(plan.placed) > 139 and len(plan.sea_zones) >= 10


@pytest.mark.parametrize("damage", ["not json", '{"format": 1, "answers": {"k": {"poster-places": {"at": 1}}}}', ""])
def test_a_damaged_shipped_file_is_a_game_that_ships_nothing(game_copy, monkeypatch, damage):
    from generators.map import spaces

    folder = game_copy("spies")
    (folder / FILE).write_text(damage, encoding="utf-8")
    monkeypatch.setattr(spaces, "_worked_out", _never)
    with pytest.raises(AssertionError, match="worked out again"):
        _plan(folder)


def test_what_a_changed_map_ships_is_not_used(game_copy, monkeypatch):
    from generators.map import spaces

    folder = game_copy("spies")
    map_yaml = folder / "map.yaml"
    text = map_yaml.read_text(encoding="utf-8")
    moved = re.sub(r"(- name: Ankara\n(?:    .*\n)*?    lon: )([0-9.]+)", lambda m: f"{m.group(1)}{float(m.group(2)) + 1.5:.2f}", text, count=1)
    assert moved != text
    map_yaml.write_text(moved, encoding="utf-8")
    monkeypatch.setattr(spaces, "_worked_out", _never)
    with pytest.raises(AssertionError, match="worked out again"):
        _plan(folder)


def test_answers_differ_by_more_than_the_last_bits_of_a_number_or_a_shape_or_by_a_part_missing():
    import base64

    import shapely

    def wkb(shape):
        return base64.b64encode(shapely.to_wkb(shape)).decode()

    shipped = {"k": {"places": {"at": [1.0, 2.0], "shape": wkb(shapely.box(0, 0, 1, 1))}, "names": ["a"]}}
    close = {"k": {"places": {"at": [1.0 + 1e-9, 2.0], "shape": wkb(shapely.box(0, 0, 1, 1 + 1e-9))}, "names": ["a"]}}
    assert differing_parts(shipped, close) == []
    assert differing_parts(shipped, {"j": shipped["k"]}) == ["names", "places"]  # under a key no build asks for
    assert differing_parts(shipped, {"k": {"places": {"at": [1.01, 2.0], "shape": wkb(shapely.box(0, 0, 1, 1))}, "names": ["a"]}}) == ["places"]
    assert differing_parts(shipped, {"k": {"places": {"at": [1.0, 2.0], "shape": wkb(shapely.box(0, 0, 1, 1.01))}, "names": ["a"]}}) == ["places"]
    assert differing_parts(shipped, {"k": {"places": shipped["k"]["places"]}}) == ["names"]
    assert differing_parts(shipped, {"k": {"places": shipped["k"]["places"], "names": ["b"]}}) == ["names"]
    assert differing_parts({}, {}) == []


def test_a_shape_that_differs_only_by_a_zero_area_spike_is_the_same_answer():
    """GEOS versions leave different zero-area spikes on an overlay's rings (the Gulf of Finland's zone did): the
    area covered is the answer, so such shapes match, where a ring moved 0.01 mm does not."""
    import base64

    import shapely

    def part(shape):
        return {"k": {"zone": base64.b64encode(shapely.to_wkb(shape)).decode()}}

    square = shapely.Polygon([(0, 0), (10, 0), (10, 10), (0, 10)])
    spiked = shapely.Polygon([(0, 0), (10, 0), (10, 5), (11, 5), (10, 5), (10, 10), (0, 10)])
    assert differing_parts(part(square), part(spiked)) == []
    assert differing_parts(part(square), part(shapely.box(0, 0, 10, 10.01))) == ["zone"]


def test_a_setting_for_other_products_leaves_the_places_key_and_a_poster_setting_changes_it():
    """A card's type, a sheet's gutter or a land's colour does not move a place: changing it neither works the poster
    out afresh nor stales what the game ships; a poster setting does both."""
    from generators.core.layouts import Layout
    from generators.map.spaces import NOT_ON_THE_MAP, places_key
    from generators.validation import load_game

    assert NOT_ON_THE_MAP <= set(Layout.model_fields)
    game = load_game("spies")
    layout = game.layout
    cards = layout.model_copy(update={"cards": layout.cards.model_copy(update={"text_size": 6.0}), "gutter": 3.0,
                                      "colours": {**layout.colours, "map-germany": layout.colour("map-italy")}})
    poster = layout.model_copy(update={"poster": layout.poster.model_copy(update={"space_gap": 9.0})})
    key = places_key(game, "code")
    assert places_key(_with_layout(game, cards), "code") == key
    assert places_key(_with_layout(game, poster), "code") != key


def _with_layout(game, layout):
    """`game` read with `layout` in place of its own (the property reads game.yaml's preset)."""
    class Relaid(type(game)):
        @property
        def layout(self):
            return layout

    return Relaid(**{f: getattr(game, f) for f in game.__dataclass_fields__})
