"""Sea lanes over water and markers moved apart, on small made-up maps: one fact per test, no PDF."""

from __future__ import annotations

import math

from shapely.geometry import LineString, box

from generators.map.marker_spread import spread_markers
from generators.map.sea_lanes import route_lanes
from generators.map.water import Water
from generators.printing.geometry import Box

FRAME = Box(0, 0, 120, 80)


def crosses(points, land, skip: int = 0) -> bool:
    return LineString(points[skip:]).intersection(land.buffer(-0.3)).length > 0 if len(points) - skip >= 2 else False


def test_a_lane_sails_round_an_island_between_port_and_ship():
    island = box(50, 20, 70, 60)
    coast = box(0, 0, 10, 80)
    (lane,) = route_lanes(Water(FRAME, island.union(coast)), [((9, 40), True, (110, 40))])
    assert lane[0] == (9, 40) and lane[-1] == (110, 40)
    assert not crosses(lane, island)
    assert len(lane) > 3  # it bends round the island


def test_a_lane_that_can_sail_straight_does():
    coast = box(0, 0, 10, 80)
    (lane,) = route_lanes(Water(FRAME, coast), [((9, 40), True, (110, 40))])
    assert len(lane) <= 3 and all(abs(y - 40) < 1.5 for _, y in lane)


def test_an_inland_port_goes_down_to_its_coast_first():
    coast = box(0, 0, 20, 80)
    (lane,) = route_lanes(Water(FRAME, coast), [((12, 40), True, (110, 40))])
    assert 20 <= lane[1][0] <= 25  # its first step ends just off the coast
    assert not crosses(lane, coast, skip=1)


def test_a_lane_between_ships_goes_through_a_strait_narrower_than_a_cell():
    land = box(0, 39, 59.6, 41).union(box(60.4, 39, 120, 41))  # a thin barrier with a 0.8 mm gap
    (lane,) = route_lanes(Water(FRAME, land), [((20, 20), False, (100, 60))])
    assert lane[0] == (20, 20) and lane[-1] == (100, 60)
    assert LineString(lane).intersection(land).length < 3.0  # only across the barrier, at the strait
    assert any(abs(x - 60) < 3 for x, _ in lane)


def test_a_lane_with_no_way_by_water_is_drawn_straight():
    land = box(0, 30, 120, 50)
    (lane,) = route_lanes(Water(FRAME, land), [((60, 10), True, (60, 70))])
    assert lane == [(60, 10), (60, 70)]


def test_overlapping_markers_are_moved_just_apart():
    a, b = spread_markers([(10, 10), (11, 10)], [2, 2], gap=0.5)
    assert math.dist(a, b) >= 4.5 - 1e-3 and math.dist(a, b) < 5.0
    assert abs(a[1] - 10) < 1e-6 and abs(b[1] - 10) < 1e-6  # along the line joining them


def test_a_marker_clear_of_others_stays_put():
    moved = spread_markers([(10, 10), (11, 10), (50, 50)], [2, 2, 2])
    assert moved[2] == (50, 50)


def test_a_fixed_marker_stays_and_its_neighbour_moves_away():
    ship, city = spread_markers([(10, 10), (12, 10)], [5, 2], fixed=[True, False], gap=0.5)
    assert ship == (10, 10) and city[0] >= 10 + 7.5 - 1e-3


def test_markers_on_one_spot_all_part():
    moved = spread_markers([(100, 100)] * 140, [1.5] * 140, gap=0.5)
    closest = min(math.dist(p, q) for i, p in enumerate(moved) for q in moved[i + 1:i + 30])
    assert len(set(moved)) == 140 and closest > 1.0
