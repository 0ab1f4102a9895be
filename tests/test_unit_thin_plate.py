"""The thin-plate spline the poster's warp is made of (generators/map/thin_plate.py): one case per property."""

import numpy as np

from generators.map import thin_plate
from generators.map.thin_plate import ThinPlate

RNG = np.random.default_rng(20)
CENTRES = RNG.uniform(0, 500, (60, 2))


def test_the_spline_takes_each_centre_to_its_value():
    values = RNG.normal(0, 5, (60, 2))
    assert np.abs(ThinPlate.through(CENTRES, values)(CENTRES) - values).max() < 1e-6


def test_a_plane_is_reproduced_everywhere_not_only_at_the_centres():
    plane = lambda p: np.column_stack([3 + 0.2 * p[:, 0] - 0.1 * p[:, 1], -1 + 0.05 * p[:, 1]])
    points = RNG.uniform(-100, 600, (500, 2))
    assert np.abs(ThinPlate.through(CENTRES, plane(CENTRES))(points) - plane(points)).max() < 1e-6


def test_between_the_centres_it_is_the_thin_plate_spline_and_not_only_some_interpolant():
    # the bending energy's minimiser for four corners and a raised centre is symmetric and peaks at the centre
    centres = np.array([[0, 0], [10, 0], [0, 10], [10, 10], [5, 5]], dtype=float)
    spline = ThinPlate.through(centres, np.array([[0.0], [0.0], [0.0], [0.0], [1.0]]))
    a, b = spline(np.array([[2.0, 5.0], [8.0, 5.0], [5.0, 2.0], [5.0, 8.0]]))[:, 0], spline(np.array([[5.0, 5.1]]))[0, 0]
    assert np.allclose(a, a[0]) and 0 < a[0] < b < 1
    # r^2 log r with its plane: the known closed form at a point off the centres
    r = lambda p, q: np.hypot(*(p - q))
    phi = lambda d: 0.0 if d == 0 else d * d * np.log(d)
    p = np.array([3.0, 7.0])
    weights = spline.weights[:, 0]
    expected = sum(w * phi(r(p, c)) for w, c in zip(weights, centres))
    expected += spline.plane[:, 0] @ np.array([1.0, *((p - spline.shift) / spline.scale)])
    assert abs(spline(p[None])[0, 0] - expected) < 1e-12


def test_many_points_are_evaluated_chunk_by_chunk_alike():
    values = RNG.normal(0, 5, (60, 2))
    spline = ThinPlate.through(CENTRES, values)
    points = RNG.uniform(0, 500, (thin_plate.CHUNK * 3 + 7, 2))
    one_by_one = np.vstack([spline(p[None]) for p in points])
    assert np.abs(spline(points) - one_by_one).max() < 1e-9
