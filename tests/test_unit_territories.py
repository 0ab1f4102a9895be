"""Land for maps without a geography file, shaped from the cities."""

from __future__ import annotations

from shapely.geometry import Point, box

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
