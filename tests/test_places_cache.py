"""The poster's spaced, warped places are kept on disk by content (core.game_cache): a second command reads them
back exactly, and any change to the map, the layout or the geography works them out again; where the names go
is kept under the very inputs of their placement, so any change to those places them again."""

from __future__ import annotations

import re

import pytest

from generators.printing.settings import PrintSettings


def _unshipped(folder):
    """`folder` without what the game ships worked out (core.shipped): what these tests ask of the cache is worked out."""
    from generators.core.shipped import FILE

    (folder / FILE).unlink()
    return folder


def _places(folder):
    from generators.map.spaces import poster_places
    from generators.validation import load_game

    return poster_places(load_game(folder))


@pytest.mark.slow
def test_places_are_read_back_exactly_and_worked_out_again_when_map_yaml_changes(game_copy, monkeypatch):
    import shapely

    from generators.map import spaces

    folder = _unshipped(game_copy("spies"))
    first = _places(folder)

    def never(game):
        raise AssertionError("worked out again")

    with monkeypatch.context() as patch:
        patch.setattr(spaces, "_worked_out", never)
        again = _places(folder)  # a new game read from the same files: the places come from the disk
    assert again.at == first.at and again.true_at == first.true_at and again.frame == first.frame
    assert [(r.country, r.power, shapely.to_wkb(r.shape)) for r in again.regions] == \
           [(r.country, r.power, shapely.to_wkb(r.shape)) for r in first.regions]
    points = [[400.0, 300.0], [120.0, 250.0]]
    assert (again.warp(*zip(*points))[0] == first.warp(*zip(*points))[0]).all()

    map_yaml = folder / "map.yaml"
    text = map_yaml.read_text(encoding="utf-8")
    moved = re.sub(r"(- name: Ankara\n(?:    .*\n)*?    lon: )([0-9.]+)", lambda m: f"{m.group(1)}{float(m.group(2)) + 1.5:.2f}", text, count=1)
    assert moved != text
    map_yaml.write_text(moved, encoding="utf-8")
    with monkeypatch.context() as patch:
        patch.setattr(spaces, "_worked_out", never)
        with pytest.raises(AssertionError, match="worked out again"):
            _places(folder)
    changed = _places(folder)
    assert changed.true_at["Ankara"][0] > first.true_at["Ankara"][0] + 5


def test_a_damaged_entry_is_worked_out_again(game_copy, monkeypatch):
    from generators.core import game_cache
    from generators.map import spaces
    from generators.validation import load_game

    folder = _unshipped(game_copy("spies"))
    first = _places(folder)
    game = load_game(folder)
    game_cache.keep(spaces.places_key(game), spaces.KEPT, {"steps": "not steps"})
    assert spaces.poster_places(game).at == first.at



def _plan(game, layout=None):
    from generators.map import poster
    from generators.printing.fonts import register_fonts

    settings = PrintSettings.of_layout(layout or game.layout)
    return poster.plan_poster(game, settings, register_fonts(game.layout.fonts, game.folder))


def _never(what):
    def refuse(*args):
        raise AssertionError(what)

    return refuse


@pytest.mark.slow
def test_the_sea_zones_and_lanes_are_kept_beside_the_places(game_copy, monkeypatch):
    from generators.map import poster
    from generators.validation import load_game

    folder = _unshipped(game_copy("spies"))
    first = _plan(load_game(folder))
    with monkeypatch.context() as patch:
        patch.setattr(poster, "route_lanes", _never("worked out again"))
        patch.setattr(poster, "map_sea_zones", _never("worked out again"))
        again = _plan(load_game(folder))
    assert again.lanes == first.lanes and again.zone_edges == first.zone_edges
    assert {n: z.wkb for n, z in again.sea_zones.items()} == {n: z.wkb for n, z in first.sea_zones.items()}


def test_where_the_names_go_is_kept_under_the_labels_own_inputs_and_read_back_exactly(game_copy, monkeypatch):
    from generators.map import poster
    from generators.validation import load_game

    folder = _unshipped(game_copy("spies"))
    first = _plan(load_game(folder))
    with monkeypatch.context() as patch:
        patch.setattr(poster, "place_labels", _never("placed again"))
        again = _plan(load_game(folder))
    assert again.placed == first.placed and all(type(p.rect) is type(first.placed[k].rect) for k, p in again.placed.items())

    game = load_game(folder)
    larger = game.layout.model_copy(update={"poster": game.layout.poster.model_copy(update={"city_size": game.layout.poster.city_size * 1.1})})
    with monkeypatch.context() as patch:  # names set larger measure larger: they are placed again
        patch.setattr(poster, "place_labels", _never("placed again"))
        with pytest.raises(AssertionError, match="placed again"):
            _plan(game, larger)


def test_the_key_of_worked_out_inputs_changes_with_any_of_them_and_refuses_what_it_cannot_take_apart():
    import shapely

    from generators.core.game_cache import as_plain, from_plain, inputs_key
    from generators.map.label_placement import PlacedLabel
    from generators.printing.geometry import Box

    square = shapely.box(0, 0, 1, 1)
    inputs = ([Box(0.0, 1.0, 2.0, 3.0)], {"a": (1, "b")}, square, None, True)
    key = inputs_key("part", *inputs)
    assert key == inputs_key("part", *inputs) and key != inputs_key("other part", *inputs)
    changed = [([Box(0.0, 1.0, 2.0, 3.0000000000000004)], *inputs[1:]), (inputs[0], {"a": (1, "c")}, *inputs[2:]),
               (*inputs[:2], shapely.box(0, 0, 1, 1.5), *inputs[3:]), (*inputs[:3], 0, True), (*inputs[:4], 1),
               (*inputs[:2], square, None, True, ""), ([[0.0, 1.0, 2.0, 3.0]], *inputs[1:])]
    assert len({key, *(inputs_key("part", *c) for c in changed)}) == len(changed) + 1
    assert inputs_key("part", object()) is None and inputs_key("part", [{1, 2}]) is None
    placed = [PlacedLabel("Paris", Box(0.1, 0.2, 0.30000000000000004, 1e-300), "NE", False, True), ("x", [1.5])]
    assert from_plain(as_plain(placed), {"PlacedLabel": PlacedLabel, "Box": Box}) == placed
    with pytest.raises(ValueError):
        from_plain(as_plain(placed), {"Box": Box})
