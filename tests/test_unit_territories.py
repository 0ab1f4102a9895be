"""Land for maps without a geography file, shaped from the cities; and sea zones cut from the water."""

from __future__ import annotations

from shapely.geometry import LineString, Point, box

from generators.map.land import sea_zone_borders
from generators.map.territories import Site, shape_territories, typical_spacing

FRAME = box(0, 0, 100, 100)


def sites() -> list[Site]:
    return [Site("A1", "Aland", "red", (20, 20)), Site("A2", "Aland", "red", (30, 25)),
            Site("B1", "Bland", None, (70, 70)), Site("B2", "Bland", None, (80, 60))]


def test_typical_spacing_is_the_median_nearest_distance():
    assert typical_spacing([(0, 0), (3, 4), (100, 100)]) == 5.0
    assert typical_spacing([(1, 1)]) == 0.0


def test_each_city_stands_on_its_own_country():
    regions = {r.country: r for r in shape_territories(sites(), [], FRAME, 15)}
    for site in sites():
        assert regions[site.country].shape.intersects(Point(site.at))
    assert regions["Aland"].power == "red" and regions["Bland"].power is None


def test_countries_never_overlap():
    a, b = shape_territories(sites(), [], FRAME, 15)
    assert a.shape.intersection(b.shape).area < 1e-6


def test_sea_points_stay_sea():
    regions = shape_territories(sites(), [(50, 50)], FRAME, 40)
    assert not any(r.shape.contains(Point(50, 50)) for r in regions)


def test_sea_zones_are_parted_by_a_border_halfway_between_their_ships():
    water = box(0, 0, 100, 40)
    (border,) = sea_zone_borders({"West": (20, 20), "East": (80, 20)}, {}, water, 30)
    assert all(abs(x - 50) < 1e-6 for x, _ in border) and LineString(border).length > 35


def test_a_zone_reaches_its_own_ports():
    water = box(0, 0, 100, 40)
    (border,) = sea_zone_borders({"West": (20, 20), "East": (80, 20)}, {"West": [(70, 38)]}, water, 30)
    assert max(x for x, _ in border) > 60  # the West's port in the east pulls the border round it


def test_a_lake_far_from_a_zone_has_no_border_across_it():
    water = box(0, 0, 100, 20).union(box(45, 80, 55, 90))
    borders = sea_zone_borders({"West": (20, 10), "East": (80, 10)}, {}, water, 15)
    assert borders and not any(LineString(b).intersects(box(45, 80, 55, 90)) for b in borders)
