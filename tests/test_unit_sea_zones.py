"""The sea divided into sea zones (generators/map/sea_zones.py): one case per property."""

from shapely.geometry import LineString, Point, box

from generators.map.sea_zones import borders_between, sea_zone_regions

STRAIT = box(0, 0, 40, 40).union(box(40, 18, 60, 22)).union(box(60, 0, 100, 40))  # two basins joined by a 4 mm strait


def test_two_zones_in_open_water_are_parted_halfway_between_their_ships():
    regions = sea_zone_regions({"West": [(20, 20)], "East": [(80, 20)]}, [], box(0, 0, 100, 40), 5)
    (border,) = borders_between(regions)
    assert all(abs(x - 50) <= 2.0 for x, _ in border) and LineString(border).length > 35
    assert abs(regions["West"].area + regions["East"].area - 4000) < 1e-6  # the water, all of it, once


def test_between_two_basins_the_border_crosses_the_strait_short_and_not_the_open_water():
    regions = sea_zone_regions({"West": [(20, 20)], "East": [(80, 20)]}, [], STRAIT, 5)
    (border,) = borders_between(regions)
    assert LineString(border).length <= 6 and all(40 <= x <= 60 for x, _ in border)
    assert regions["West"].contains(Point(39, 2)) and regions["East"].contains(Point(61, 2))


def test_nearness_is_measured_by_way_of_the_water_never_across_land():
    water = box(0, 0, 100, 40).difference(box(48, 0, 52, 35))  # a wall of land with a passage at its top
    regions = sea_zone_regions({"West": [(45, 5)], "East": [(90, 38)]}, [], water, 5)
    assert regions["East"].contains(Point(55, 5))  # 10 mm from West's ship as the crow flies, 66 by water


def test_a_zone_takes_the_water_by_its_own_ports_even_nearer_another_ship():
    regions = sea_zone_regions({"West": [(20, 20)], "East": [(80, 20)]}, [((70, 41), ["West"])], box(0, 0, 100, 40), 5)
    assert regions["West"].contains(Point(70, 38)) and not regions["East"].contains(Point(70, 38))


def test_a_zone_takes_the_open_water_its_data_gives_it():
    water = box(0, 0, 100, 40)
    plain = sea_zone_regions({"West": [(20, 20)], "East": [(80, 20)]}, [], water, 5)
    wider = sea_zone_regions({"West": [(20, 20), (70, 5)], "East": [(80, 20)]}, [], water, 5)
    assert not plain["West"].contains(Point(70, 5)) and wider["West"].contains(Point(70, 5))


def test_water_no_zone_reaches_is_no_zone_and_no_border_crosses_it():
    lake = box(45, 80, 55, 90)
    regions = sea_zone_regions({"West": [(20, 10)], "East": [(80, 10)]}, [], box(0, 0, 100, 20).union(lake), 5)
    assert not any(r.intersects(lake) for r in regions.values())
    assert not any(LineString(b).intersects(lake) for b in borders_between(regions))


def test_a_region_follows_the_coast_exactly():
    island = box(40, 15, 60, 25)
    water = box(0, 0, 100, 40).difference(island)
    regions = sea_zone_regions({"West": [(20, 20)], "East": [(80, 20)]}, [], water, 5)
    assert abs(sum(r.area for r in regions.values()) - water.area) < 1e-6
    assert not any(r.intersection(island).area > 0 for r in regions.values())
