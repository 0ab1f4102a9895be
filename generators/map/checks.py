"""Checking a map: every problem at once, each with a stable code, a severity and the names involved.

Errors make the map unusable for play (a broken network, a missing city, the wrong number
of cities carrying a mark...). Warnings point at what looks wrong but may be meant (a very long rail
line, a port reached only by sea). Loading a game refuses its map's errors (see
`check_game_map`, registered with the game's cross-checks); `dossier map check` shows both.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import Problem
from ..core.map_models import MapFile
from ..core.names import NameIndex
from .geography import great_circle_km
from .network import CITY, connected_parts, places

if TYPE_CHECKING:
    from ..core.game import Game

# A rail line this many times the map's median rail line is worth a second look.
LONG_RAIL_FACTOR = 4.0
# Below this many rail lines a median says too little to judge by.
MIN_RAIL_LINES_FOR_LENGTHS = 5


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class MapProblem:
    """One thing wrong (or odd) with a map: a stable code, how bad, what, where in the file, which places."""

    code: str
    severity: Severity
    message: str
    names: tuple[str, ...] = ()
    where: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_problem(self, file: Path) -> Problem:
        """The problem as the game's loader reports it, naming `file`."""
        return Problem(Path(file), self.where, self.message, self.code)


def _error(code: str, message: str, names: Iterable[str] = (), where: str = "") -> MapProblem:
    return MapProblem(code, Severity.ERROR, message, tuple(names), where)


def _warning(code: str, message: str, names: Iterable[str] = (), where: str = "") -> MapProblem:
    return MapProblem(code, Severity.WARNING, message, tuple(names), where)


def check_map(game_map: MapFile, named: Iterable[tuple[str, str]] = (), powers: Iterable[str] | None = None) -> list[MapProblem]:
    """Every problem with `game_map`, errors and warnings, in a stable order; [] for a clean map.

    `named` are (tile id, city) pairs, each city a tile names, checked to be on the map; `powers` (the game's faction ids)
    are the powers a city may belong to, each needing one capital. Without `powers`, those
    the map uses are taken as given.
    """
    problems: list[MapProblem] = []
    problems += check_names(game_map)
    problems += check_routes(game_map)
    problems += check_sea(game_map)
    problems += check_connected(game_map)
    problems += check_tile_cities(game_map, named)
    problems += check_territory(game_map, powers)
    problems += check_regions(game_map)
    problems += check_marks(game_map)
    problems += check_looks(game_map)
    return problems


def _repeated(names: list[str]) -> list[tuple[str, int, int]]:
    """(name, index of its second use, times used) for each name used more than once."""
    counts = Counter(names)
    return [(name, [i for i, n in enumerate(names) if n == name][1], n) for name, n in counts.items() if n > 1]


def check_names(game_map: MapFile) -> list[MapProblem]:
    """Each city and sea zone named once, and no name used for both."""
    problems = [_error("duplicate-city", f"city {name!r} appears {n} times", [name], f"cities[{i}].name")
                for name, i, n in _repeated([c.name for c in game_map.cities])]
    problems += [_error("duplicate-sea-zone", f"sea zone {name!r} appears {n} times", [name], f"sea_zones[{i}].name")
                 for name, i, n in _repeated([z.name for z in game_map.sea_zones])]
    zones = {z.name for z in game_map.sea_zones}
    for i, city in enumerate(game_map.cities):
        if city.name in zones:
            problems.append(_error("name-clash", f"{city.name!r} names both a city and a sea zone", [city.name], f"cities[{i}].name"))
    return problems


def check_routes(game_map: MapFile) -> list[MapProblem]:
    """Rail and air lines join two different cities on the map, each pair once per kind."""
    cities = {c.name for c in game_map.cities}
    zones = {z.name for z in game_map.sea_zones}
    problems = []
    seen: dict[tuple, int] = {}
    for i, line in enumerate(game_map.routes):
        for end, name in (("from", line.from_), ("to", line.to)):
            if name not in cities:
                near = NameIndex("city", sorted(cities)).closest(name, 1)
                why = ("a sea zone, not a city (ships sail between ports and zones, not along lines)" if name in zones
                       else f"not a city on the map; did you mean {near[0]!r}?" if near else "not a city on the map")
                problems.append(_error("unknown-endpoint", f"{line.kind} line {line.from_} – {line.to}: {name!r} is {why}", [name], f"routes[{i}].{end}"))
        if line.from_ == line.to:
            problems.append(_error("self-loop", f"{line.kind} line from {line.from_!r} to itself", [line.from_], f"routes[{i}]"))
            continue
        key = (frozenset((line.from_, line.to)), line.kind)
        if key in seen:
            problems.append(_error("duplicate-route", f"{line.kind} line {line.from_} – {line.to} is listed twice (also routes[{seen[key]}])",
                                   [line.from_, line.to], f"routes[{i}]"))
        else:
            seen[key] = i
    return problems


def check_sea(game_map: MapFile) -> list[MapProblem]:
    """Sea zones named where they exist, adjacency both ways, ports on a zone, zones with a port."""
    zones = {z.name: z for z in game_map.sea_zones}
    problems = []
    for i, city in enumerate(game_map.cities):
        where = f"cities[{i}]"
        if city.port and not city.sea_zones:
            problems.append(_error("port-without-sea-zone", f"port {city.name!r} touches no sea zone", [city.name], f"{where}.sea_zones"))
        if city.sea_zones and not city.port:
            problems.append(_error("inland-city-on-sea", f"{city.name!r} lists sea zones but is not a port", [city.name], f"{where}.port"))
        for j, zone in enumerate(city.sea_zones):
            if zone not in zones:
                problems.append(_error("unknown-sea-zone", f"{city.name!r} touches {zone!r}, which is not a sea zone of the map", [city.name, zone], f"{where}.sea_zones[{j}]"))
    for i, zone in enumerate(game_map.sea_zones):
        for j, other in enumerate(zone.adjacent):
            where = f"sea_zones[{i}].adjacent[{j}]"
            if other == zone.name:
                problems.append(_error("self-loop", f"sea zone {zone.name!r} lists itself as adjacent", [zone.name], where))
            elif other not in zones:
                problems.append(_error("unknown-sea-zone", f"{zone.name!r} is adjacent to {other!r}, which is not a sea zone of the map", [zone.name, other], where))
            elif zone.name not in zones[other].adjacent:
                problems.append(_error("one-way-adjacency", f"{zone.name!r} lists {other!r} as adjacent, but {other!r} does not list {zone.name!r}",
                                       [zone.name, other], where))
    touched = {zone for c in game_map.cities if c.port for zone in c.sea_zones}
    for i, zone in enumerate(game_map.sea_zones):
        if zone.name not in touched:
            problems.append(_error("sea-zone-without-port", f"no port touches sea zone {zone.name!r}", [zone.name], f"sea_zones[{i}]"))
    return problems


def check_connected(game_map: MapFile) -> list[MapProblem]:
    """Every city can reach every other by rail, air and sea."""
    if not game_map.cities:
        return [_error("no-cities", "the map has no cities", where="cities")]
    kind_of = places(game_map)
    parts = sorted(connected_parts(game_map), key=lambda part: (-sum(kind_of[n] == CITY for n in part), min(part)))
    problems = []
    for part in parts[1:]:
        names = sorted(part)
        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        problems.append(_error("disconnected", f"cut off from the rest of the map: {shown}", names))
    return problems


def check_tile_cities(game_map: MapFile, named: Iterable[tuple[str, str]]) -> list[MapProblem]:
    """Every city a tile names (as (tile id, city) pairs) is on the map."""
    cities = {c.name for c in game_map.cities}
    missing: dict[str, list[str]] = defaultdict(list)
    for tile_id, city in named:
        if city not in cities and tile_id not in missing[city]:
            missing[city].append(tile_id)
    index = NameIndex("city", sorted(cities))
    return [_error("missing-tile-city", f"{city!r} is named on tile(s) {', '.join(ids)} but is not on the map"
                   + "".join(f"; did you mean {near!r}?" for near in index.closest(city, 1)), [city])
            for city, ids in missing.items()]


def check_territory(game_map: MapFile, powers: Iterable[str] | None) -> list[MapProblem]:
    """Known powers, one capital in each power's home territory."""
    used = {c.power for c in game_map.cities if c.power is not None}
    known = set(powers) if powers is not None else used
    problems = []
    if not game_map.rules.home_territory:
        return [_error("home-territory", f"{city.name!r} belongs to {city.power!r}, but the map's rules give no side a home territory "
                       "(rules.home_territory: false)", [city.name], f"cities[{i}].power")
                for i, city in enumerate(game_map.cities) if city.power is not None]
    for i, city in enumerate(game_map.cities):
        where = f"cities[{i}]"
        if city.power is not None and city.power not in known:
            problems.append(_error("unknown-power", f"{city.name!r} belongs to unknown power {city.power!r}; known: {', '.join(sorted(known)) or 'none'}",
                                   [city.name], f"{where}.power"))
    for power in sorted(known):
        capitals = [c.name for c in game_map.cities if c.power == power and c.capital]
        if not capitals:
            problems.append(_error("missing-capital", f"power {power!r} has no capital in its home territory", [power]))
        elif len(capitals) > 1:
            problems.append(_error("several-capitals", f"power {power!r} has {len(capitals)} capitals in its home territory: {', '.join(capitals)}",
                                   [power, *capitals]))
    return problems


def check_regions(game_map: MapFile) -> list[MapProblem]:
    """Regions named once; every city in a region the map declares; with dice, each region numbered once for a face
    of the region die and each region holding one city for every face of the city die."""
    problems: list[MapProblem] = []
    problems += [_error("duplicate-region", f"region {name!r} appears {n} times", [name], f"regions[{i}].name")
                 for name, i, n in _repeated([r.name for r in game_map.regions])]
    declared = {r.name for r in game_map.regions}
    for i, city in enumerate(game_map.cities):
        if city.region is not None and city.region not in declared:
            known = ", ".join(sorted(declared)) or "none (the map declares no regions)"
            problems.append(_error("unknown-region", f"{city.name!r} is in region {city.region!r}, which the map does not declare; known: {known}",
                                   [city.name], f"cities[{i}].region"))
        elif game_map.regions and city.region is None:
            problems.append(_error("missing-region", f"{city.name!r} is in no region; every city of a map with regions is in one",
                                   [city.name], f"cities[{i}].region"))
    dice = game_map.dice
    if dice is None:
        return problems
    faces = dice.region.faces
    for i, region in enumerate(game_map.regions):
        if region.number is None or region.number > faces:
            problems.append(_error("die-face", f"region {region.name!r} needs a number from 1 to {faces} ({dice.region.name})",
                                   [region.name], f"regions[{i}].number"))
    for name, i, n in _repeated([str(r.number) for r in game_map.regions if r.number is not None]):
        problems.append(_error("die-face", f"{n} regions share number {name} of the {dice.region.name}", [name], "regions"))
    if len(game_map.regions) != faces:
        problems.append(_error("dice-regions", f"the {dice.region.name} has {faces} faces but the map has {len(game_map.regions)} regions; "
                               "every face must pick one", where="regions"))
    for i, city in enumerate(game_map.cities):
        if city.number is None or city.number > dice.city.faces:
            problems.append(_error("die-face", f"{city.name!r} needs a number from 1 to {dice.city.faces} ({dice.city.name})",
                                   [city.name], f"cities[{i}].number"))
    for r, region in enumerate(game_map.regions):
        numbers = Counter(c.number for c in game_map.cities if c.region == region.name and c.number is not None)
        shared = sorted(n for n, k in numbers.items() if k > 1)
        missing = [n for n in range(1, dice.city.faces + 1) if n not in numbers]
        if shared:
            names = [c.name for c in game_map.cities if c.region == region.name and c.number in shared]
            problems.append(_error("die-face", f"region {region.name!r}: {', '.join(names)} share number(s) {', '.join(map(str, shared))} "
                                   f"of the {dice.city.name}", names, f"regions[{r}]"))
        if missing:
            problems.append(_error("dice-cities", f"region {region.name!r} has no city for {'face' if len(missing) == 1 else 'faces'} "
                                   f"{', '.join(map(str, missing))} of the {dice.city.name}", [region.name], f"regions[{r}]"))
    return problems


def check_marks(game_map: MapFile) -> list[MapProblem]:
    """Every city's marks declared by the map, each where its rule allows, on as many cities as it says
    or on exactly the cities it names."""
    problems = []
    for i, city in enumerate(game_map.cities):
        for j, name in enumerate(city.marks):
            mark = game_map.marks.get(name)
            where = f"cities[{i}].marks[{j}]"
            if mark is None:
                known = ", ".join(sorted(game_map.marks)) or "none (the map declares no marks)"
                problems.append(_error("unknown-mark", f"{city.name!r} carries mark {name!r}, which the map does not declare; known: {known}",
                                       [city.name], where))
            elif mark.where == "home" and city.is_neutral:
                problems.append(_error("mark-outside-home", f"{city.name!r} is neutral, but {mark.legend.lower()!r} is only in a power's home territory"
                                       + (f" ({mark.cite})" if mark.cite else ""), [city.name], where))
            elif mark.where == "neutral" and not city.is_neutral:
                problems.append(_error("mark-not-neutral", f"{city.name!r} is in {city.power}'s home territory, but {mark.legend.lower()!r} is only "
                                       "in neutral cities", [city.name], where))
    for name, mark in game_map.marks.items():
        marked = [c.name for c in game_map.cities if c.has_mark(name)]
        if mark.count is not None and len(marked) != mark.count:
            problems.append(_error("mark-count", f"{len(marked)} cities carry {name!r}; the rules call for {mark.count}", marked, f"marks.{name}.count"))
        if mark.cities is None:
            continue
        on_map = {c.name for c in game_map.cities}
        for j, listed in enumerate(mark.cities):
            if listed not in on_map:
                problems.append(_error("mark-missing", f"{listed!r}, named for {name!r}, is not a city on the map", [listed], f"marks.{name}.cities[{j}]"))
            elif listed not in marked:
                problems.append(_error("mark-missing", f"{listed!r} is named for {name!r} but does not carry the mark", [listed], f"marks.{name}.cities[{j}]"))
        for city in marked:
            if city not in mark.cities:
                problems.append(_error("mark-unlisted", f"{city!r} carries {name!r}, but the rules name only {', '.join(mark.cities) or 'none'}",
                                       [city], f"marks.{name}.cities"))
    return problems


def check_looks(game_map: MapFile) -> list[MapProblem]:
    """Warnings: very long rail lines, ports reached only by sea, split countries, shared positions."""
    problems = []
    by_name = {c.name: c for c in game_map.cities}
    rail = [(i, line) for i, line in enumerate(game_map.routes) if line.kind == "rail" and line.from_ in by_name and line.to in by_name]
    lengths = {i: great_circle_km(by_name[line.from_], by_name[line.to]) for i, line in rail}
    if len(lengths) >= MIN_RAIL_LINES_FOR_LENGTHS:
        median = statistics.median(lengths.values())
        for i, line in rail:
            if lengths[i] > LONG_RAIL_FACTOR * median:
                problems.append(_warning("long-rail-line", f"rail line {line.from_} – {line.to} runs {lengths[i]:.0f} km, over {LONG_RAIL_FACTOR:g} times "
                                         f"the median rail line ({median:.0f} km); a city between may be missing", [line.from_, line.to], f"routes[{i}]"))
    on_lines = {name for line in game_map.routes for name in (line.from_, line.to)}
    for i, city in enumerate(game_map.cities):
        if city.port and city.name not in on_lines:
            problems.append(_warning("port-without-lines", f"port {city.name!r} has no rail or air line; it is reached only by sea", [city.name], f"cities[{i}]"))
    powers_of: dict[str, set] = defaultdict(set)
    for city in game_map.cities:
        powers_of[city.country].add(city.power)
    for country, owners in powers_of.items():
        if len(owners) > 1:
            shown = ", ".join(sorted(str(p) if p else "neutral" for p in owners))
            problems.append(_warning("country-split", f"cities of {country} belong to different powers ({shown})", [country]))
    capitals = Counter(c.country for c in game_map.cities if c.capital)
    for country, n in capitals.items():
        if n > 1:
            names = [c.name for c in game_map.cities if c.capital and c.country == country]
            problems.append(_warning("country-capitals", f"{country} has {n} capitals: {', '.join(names)}", [country, *names]))
    at: dict[tuple, list[str]] = defaultdict(list)
    for city in game_map.cities:
        at[(round(city.lat, 2), round(city.lon, 2))].append(city.name)
    for (lat, lon), names in at.items():
        if len(names) > 1:
            problems.append(_warning("same-position", f"{', '.join(names)} share the position {lat}, {lon}; they would print on top of each other", names))
    return problems


def check_game_map(game: "Game") -> list[Problem]:
    """The map's errors as the game's cross-checks report them (tile cities are checked with the tiles)."""
    if game.map is None:
        return []
    powers = [f.id for f in game.info.factions]
    return [p.to_problem(game.file("map.yaml")) for p in check_map(game.map, powers=powers) if p.is_error]
