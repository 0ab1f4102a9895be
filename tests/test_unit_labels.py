"""Label placement on small made-up maps: one fact per test, no PDF."""

from __future__ import annotations

from generators.map.label_placement import AMBIGUITY_MARGIN, LabelRequest, place_labels
from generators.printing.geometry import Box

FRAME = Box(0, 0, 200, 200)


def req(key: str, x: float, y: float, w: float = 12.0, h: float = 3.5) -> LabelRequest:
    return LabelRequest(key, (x, y), w, h, 1.5)


def test_a_lone_label_goes_to_the_right_of_its_point():
    (placed,) = place_labels([req("A", 100, 100)], FRAME)
    assert placed.spot == "right" and placed.rect.x > 100 and not placed.overlaps


def test_a_label_keeps_off_an_obstacle():
    (placed,) = place_labels([req("A", 100, 100)], FRAME, obstacles=[Box(101, 95, 30, 10)])
    assert placed.spot != "right" and not placed.overlaps


def test_a_label_avoids_crossing_a_line_when_it_can():
    (placed,) = place_labels([req("A", 100, 100)], FRAME, lines=[[(102, 90), (102, 110)], [(100, 100), (140, 100)]])
    assert placed.spot in {"left", "above left", "below left"}


def test_a_label_keeps_off_land_it_should_avoid_when_a_clear_spot_off_it_is_near():
    """Right of the point lies another power's land: the name goes to the left, where it does not read as theirs."""
    from shapely.geometry import box

    (placed,) = place_labels([LabelRequest("A", (100, 100), 12.0, 3.5, 1.5, avoid=box(101, 80, 150, 120))], FRAME)
    assert placed.rect.right <= 101 and not placed.far and not placed.overlaps


def test_labels_stay_inside_the_frame():
    (placed,) = place_labels([req("A", 198, 100)], FRAME)
    assert placed.rect.right <= FRAME.right and placed.rect.x >= FRAME.x


def test_crowded_points_get_labels_that_do_not_overlap():
    requests = [req(f"C{i}", 90 + (i % 4) * 6, 90 + (i // 4) * 6) for i in range(12)]
    placed = place_labels(requests, FRAME)
    rects = [p.rect for p in placed]
    assert sum(1 for i, a in enumerate(rects) for b in rects[i + 1:] if a.overlap(b) > 0) == 0


def test_points_all_in_one_place_are_placed_in_bounded_work():
    """140 labels for one and the same point: every label gets a spot (the repair pass touches a bounded group)."""
    requests = [req(f"C{i}", 100, 100) for i in range(140)]
    placed = place_labels(requests, Box(0, 0, 400, 400))
    assert len(placed) == 140 and len({p.key for p in placed}) == 140


def gap(rect: Box, x: float, y: float) -> float:
    dx, dy = max(rect.x - x, 0, x - rect.right), max(rect.y - y, 0, y - rect.bottom)
    return (dx * dx + dy * dy) ** 0.5 - 1.5


def test_a_label_is_not_set_where_it_would_read_as_its_neighbours():
    """Right of A its name would end beside B's marker, so it goes elsewhere, nearer A than B."""
    a, _ = place_labels([req("A", 100, 100), req("B", 116, 100)], FRAME)
    assert a.spot != "right"
    assert gap(a.rect, 100, 100) + AMBIGUITY_MARGIN <= gap(a.rect, 116, 100)


def test_a_label_hemmed_in_by_lines_is_set_off_with_a_leader_and_crosses_none():
    spokes = [[(100, 100), (100 + 40 * dx, 100 + 40 * dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))]
    (placed,) = place_labels([req("Hub", 100, 100)], FRAME, lines=spokes)
    from shapely.geometry import LineString, box

    assert placed.far and not placed.crosses
    assert not any(LineString(s).intersects(box(placed.rect.x, placed.rect.y, placed.rect.right, placed.rect.bottom)) for s in spokes)
    start, end = placed.leader((100, 100), 1.5)
    assert abs(((start[0] - 100) ** 2 + (start[1] - 100) ** 2) ** 0.5 - 1.5) < 1e-6
    assert placed.rect.x <= end[0] <= placed.rect.right and placed.rect.y <= end[1] <= placed.rect.bottom


def test_a_label_set_off_with_a_leader_lies_nearer_its_own_marker_than_a_neighbours():
    """Hemmed in by lines, the hub's name goes out on a leader, and not to the side where it would lie nearer B."""
    spokes = [[(100, 100), (100 + 40 * dx, 100 + 40 * dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))]
    hub, _ = place_labels([req("Hub", 100, 100), req("B", 88, 92)], FRAME, lines=spokes)
    assert hub.far and gap(hub.rect, 100, 100) < gap(hub.rect, 88, 92)


def test_an_area_name_moves_off_without_a_leader():
    spokes = [[(100, 100), (100 + 40 * dx, 100 + 40 * dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    (placed,) = place_labels([LabelRequest("Sea", (100, 100), 12.0, 3.5, 5.0, area=True)], FRAME, lines=spokes)
    assert not placed.far and not placed.crosses
