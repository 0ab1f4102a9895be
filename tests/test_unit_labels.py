"""Label placement on small made-up maps: one fact per test, no PDF."""

from __future__ import annotations

from generators.map.label_placement import LabelRequest, place_labels
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
