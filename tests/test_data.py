"""The shipped Spies! data against the rulebook: counts, names, years and awards as printed."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import source_text


def seed_text() -> str:
    """The Spies! rulebook (skipped without it, but failed under CI: see conftest.source_text)."""
    return source_text("000")


@pytest.mark.parametrize("ci, outcome", [("", pytest.skip.Exception), ("true", pytest.fail.Exception)])
def test_without_the_sources_fidelity_tests_skip_but_fail_under_ci(monkeypatch, tmp_path, ci, outcome):
    import conftest

    monkeypatch.setattr(conftest, "SOURCES", tmp_path)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome):
        seed_text()


def test_fifty_tiles_seven_per_nation_and_fifteen_random(spies):
    tiles = spies.tiles
    assert len(tiles) == 50
    per = Counter(t.nation for t in tiles)
    assert per == {"russia": 7, "germany": 7, "italy": 7, "france": 7, "britain": 7, None: 15}
    assert [t.number for t in sorted(tiles, key=lambda t: t.number)] == list(range(1, 51))


def test_counts_match_the_roster(spies):
    by_kind = Counter()
    for piece in spies.pieces:
        by_kind[piece.kind] += piece.count
    assert by_kind["spy"] == 27
    assert by_kind["police"] == 30
    assert by_kind["secret"] + by_kind["counterspy"] == 40
    assert by_kind["secret"] == 30
    assert by_kind["bank"] == 5 and by_kind["year"] == 1
    assert sum(by_kind.values()) == 200


def test_counterspy_strengths(spies):
    strengths = sorted(p.strength for p in spies.pieces if p.kind == "counterspy")
    assert strengths == [3, 3, 4, 4, 5, 5, 5, 5, 5, 5]


def test_one_cousin_of_strength_four_per_nation(spies):
    cousins = [p for p in spies.pieces if p.name == "Cousin"]
    assert sorted(p.nation for p in cousins) == ["britain", "france", "germany", "italy", "russia"]
    assert all(p.kind == "spy" and p.strength == 4 for p in cousins)


def test_the_roster_flags_each_cousin(cli):
    # issue 2: the national rosters hold each spy's name, strength and Cousin flag
    spies = [p for p in cli("list", "pieces", "--json").json() if p["kind"] == "spy"]
    flagged = [p for p in spies if p.get("cousin") is True]
    assert sorted(p["nation"] for p in flagged) == ["britain", "france", "germany", "italy", "russia"]
    assert all(p["name"] == "Cousin" and p["strength"] == 4 for p in flagged)


def test_names_kept_exactly_as_printed(spies):
    names = {p.name for p in spies.pieces}
    assert {"Wil'y", "Wide-lens DRF", "HEAT AT Round", "Scotland Yard", "RRCC"} <= names
    cities = {c for t in spies.tiles for a in t.awards for c in a.cities}
    assert {"Sophia", "Strasberg", "Dneipropetrovsk", "Konigsberg", "Nurnberg"} <= cities


def test_chit_costs_as_printed_and_range_kept(spies):
    chits = {p.name: p for p in spies.pieces if p.kind == "chit"}
    assert len(chits) == 10
    assert chits["Drop"].cost == "20–30£"
    assert chits["Discovery"].cost == "3£"
    assert chits["Cover"].games == ["standard", "long"] and "Register R1" in chits["Cover"].assumed["games"]
    assert chits["Papers"].games == ["standard", "long"]
    assert all("count" in p.assumed for p in chits.values())


def _seed_tile_lines() -> dict[str, str]:
    lines = {}
    for line in seed_text().splitlines():
        match = re.match(r"^((?:Rs|Ge|It|Fr|Br|random) \d+)\*? \(", line)
        if match:
            lines[match.group(1)] = line
    return lines


@pytest.mark.parametrize("tile_id", ["Ge 1", "Rs 18", "It 8", "Fr 24", "Br 30", "random 46", "random 42"])
def test_tile_spot_checks_against_the_rulebook(spies, tile_id):
    line = _seed_tile_lines()[tile_id]
    tile = spies.tile(tile_id)
    assert ("*" in line.split("(")[0]) == tile.special
    printed_years = line.split("(")[1].split(")")[0]
    if printed_years == "Any Year":
        assert tile.years == list(range(1933, 1940))
    else:
        first, _, last = printed_years.partition("–")
        last = first[:2] + last if last else first
        assert tile.years == list(range(int(first), int(last) + 1))
    awards = " ".join(f"{a.amount}{a.kind}: {', '.join(a.cities)}." for a in tile.awards)
    assert line.endswith(f"— {tile.event} {awards}")


def test_every_tile_matches_its_printed_line(spies):
    lines = _seed_tile_lines()
    assert set(lines) == {t.id for t in spies.tiles}
    for tile in spies.tiles:
        awards = " ".join(f"{a.amount}{a.kind}: {', '.join(a.cities)}." for a in tile.awards)
        assert lines[tile.id].endswith(f"— {tile.event} {awards}"), tile.id


def test_specific_years(spies):
    assert spies.tile("Ge 1").years == [1937, 1938, 1939]
    assert spies.tile("random 46").years == [1937]
    assert spies.tile("It 10").years == [1933, 1934, 1935, 1936, 1937]


def test_secret_values_as_printed(spies):
    text = seed_text()
    table = text.split("Secret\tVictory Value\tSecret\tVictory Value")[1].split("Counterspies:")[0]
    printed = {}
    for row in table.strip().splitlines():
        a, b, c, d = row.split("\t")
        printed[a] = int(b)
        printed[c] = int(d)
    secrets = {p.name: p.value for p in spies.pieces if p.kind == "secret"}
    assert secrets == printed


def test_rosters_as_printed(spies):
    text = seed_text()
    for faction in spies.info.factions:
        line = next(l for l in text.splitlines() if l.startswith(f"{faction.name} — Spies:"))
        spies_part = line.split("Spies: ")[1].split(". Police:")[0]
        police_part = line.split("Police: ")[1].split(". Bank")[0]
        printed_spies = [(n.rsplit(" (", 1)[0], int(n.rsplit("(", 1)[1][:-1])) for n in spies_part.split(", ")]
        printed_police = [(n.rsplit(" (", 1)[0], int(n.rsplit("(", 1)[1][:-1])) for n in police_part.split(", ")]
        ours = [p for p in spies.pieces if p.nation == faction.id]
        assert [(p.name, p.strength) for p in ours if p.kind == "spy"] == printed_spies
        assert [(p.name, p.strength) for p in ours if p.kind == "police"] == printed_police
