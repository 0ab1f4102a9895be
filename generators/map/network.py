"""Movement on the map as a graph: how many spaces between places, and which cities a move can reach.

Cities and sea zones are the nodes. Rail and air lines join cities; a port joins each sea
zone it touches; adjacent sea zones join. Every city or sea zone entered is one space, a
move has at most the map's `rules.spaces_per_turn` spaces, and it may not end at sea.

Because a move may neither end nor (having ended) start at sea, `route` and `reachable`
refuse a sea zone as origin or destination with AtSeaError rather than answer a question
the rules never ask; sea zones are only passed through.

networkx is imported only where a graph is searched: loading a game checks that its map holds
together with `connected_parts`, which needs none, so commands that never move stay quick.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.errors import DossierError
from ..core.map_models import MapFile
from ..core.names import NameIndex

if TYPE_CHECKING:
    import networkx as nx

CITY, SEA = "city", "sea"
# When two cities are joined by both a rail and an air line, a step between them is reported as the first.
STEP_KINDS = ("rail", "air", "sea")


class AtSeaError(DossierError, ValueError):
    """A move asked to start or end in a sea zone, which the rules never allow."""

    def __init__(self, zone: str, role: str):
        self.zone = zone
        self.role = role
        super().__init__(f"{zone!r} is a sea zone: a move may not {'end' if role == 'destination' else 'start'} at sea; name a city")


@dataclass(frozen=True)
class Route:
    """The fewest spaces from one city to another, the places passed (both ends included) and each step's kind.

    `spaces` is None (and `path`, `kinds` empty) when no route joins them.
    """

    spaces: int | None
    path: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)

    @property
    def is_reachable(self) -> bool:
        return self.spaces is not None

    def is_within(self, spaces: int) -> bool:
        """True when the route fits in a move of `spaces` spaces."""
        return self.spaces is not None and self.spaces <= spaces


def places(game_map: MapFile) -> dict[str, str]:
    """Every place a move can enter, by name: CITY or SEA (a name used for both counts as a city)."""
    found = {z.name: SEA for z in game_map.sea_zones}
    found.update((c.name, CITY) for c in game_map.cities)
    return found


def links(game_map: MapFile) -> list[tuple[str, str, set[str]]]:
    """Each pair of places one step joins, once, with the kinds of that step, in the map's order.

    Lines or sea zones naming places the map does not have are left out (`check_map` reports them).
    """
    kind_of = places(game_map)
    found: dict[frozenset[str], tuple[str, str, set[str]]] = {}

    def join(a: str, b: str, kind: str, place_a: str, place_b: str) -> None:
        if a != b and kind_of.get(a) == place_a and kind_of.get(b) == place_b:
            found.setdefault(frozenset((a, b)), (a, b, set()))[2].add(kind)

    for line in game_map.routes:
        join(line.from_, line.to, line.kind, CITY, CITY)
    for city in game_map.cities:
        if city.port:
            for zone in city.sea_zones:
                join(city.name, zone, SEA, CITY, SEA)
    for zone in game_map.sea_zones:
        for other in zone.adjacent:
            join(zone.name, other, SEA, SEA, SEA)
    return list(found.values())


def connected_parts(game_map: MapFile) -> list[set[str]]:
    """The groups of places joined to each other by steps; a map that holds together has one."""
    neighbours: dict[str, set[str]] = {name: set() for name in places(game_map)}
    for a, b, _ in links(game_map):
        neighbours[a].add(b)
        neighbours[b].add(a)
    parts: list[set[str]] = []
    seen: set[str] = set()
    for start in neighbours:
        if start in seen:
            continue
        part, todo = {start}, [start]
        while todo:
            for other in neighbours[todo.pop()] - part:
                part.add(other)
                todo.append(other)
        seen |= part
        parts.append(part)
    return parts


def movement_graph(game_map: MapFile) -> nx.Graph:
    """The map as an undirected graph: node attribute `place` ("city" or "sea"), edge attribute `kinds`."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from((name, {"place": place}) for name, place in places(game_map).items())
    graph.add_edges_from((a, b, {"kinds": kinds}) for a, b, kinds in links(game_map))
    return graph


def place_index(game_map: MapFile, aliases: Mapping[str, str] | None = None) -> NameIndex:
    """Every city and sea zone, looked up by any case or accents and by the game's other spellings."""
    names = [c.name for c in game_map.cities] + [z.name for z in game_map.sea_zones]
    return NameIndex("place", names, dict(aliases or {}))


def resolve_place(game_map: MapFile, name: str, aliases: Mapping[str, str] | None = None) -> str:
    """The printed name of the place `name`; raises UnknownNameError with the closest names on a miss."""
    return place_index(game_map, aliases).resolve(name)


def _city(graph: nx.Graph, game_map: MapFile, name: str, role: str, aliases: Mapping[str, str] | None) -> str:
    found = resolve_place(game_map, name, aliases)
    if graph.nodes[found]["place"] == SEA:
        raise AtSeaError(found, role)
    return found


def _step_kind(graph: nx.Graph, a: str, b: str) -> str:
    kinds = graph.edges[a, b]["kinds"]
    return next(k for k in STEP_KINDS if k in kinds)


def route(game_map: MapFile, origin: str, destination: str, aliases: Mapping[str, str] | None = None) -> Route:
    """The fewest spaces from city `origin` to city `destination`, with the path and each step's kind.

    Names are looked up forgivingly (see `resolve_place`). Raises UnknownNameError for a
    place not on the map and AtSeaError when either end is a sea zone.

    >>> route(game_map, "Berlin", "Warsaw").spaces
    1
    """
    import networkx as nx

    graph = movement_graph(game_map)
    start = _city(graph, game_map, origin, "origin", aliases)
    end = _city(graph, game_map, destination, "destination", aliases)
    try:
        path = nx.shortest_path(graph, start, end)
    except nx.NetworkXNoPath:
        return Route(spaces=None)
    return Route(spaces=len(path) - 1, path=path, kinds=[_step_kind(graph, a, b) for a, b in zip(path, path[1:])])


def reachable(game_map: MapFile, origin: str, spaces: int | None = None, aliases: Mapping[str, str] | None = None) -> dict[str, int]:
    """The cities a move from city `origin` can end in within `spaces` spaces (default: the map's
    spaces_per_turn), each with its fewest spaces; `origin` itself is included at 0.

    Sea zones passed through count as spaces but are never listed, since a move may not end at sea.
    """
    import networkx as nx

    limit = game_map.rules.spaces_per_turn if spaces is None else spaces
    graph = movement_graph(game_map)
    start = _city(graph, game_map, origin, "origin", aliases)
    found = nx.single_source_shortest_path_length(graph, start, cutoff=max(limit, 0))
    cities = {name: n for name, n in found.items() if graph.nodes[name]["place"] == CITY}
    return dict(sorted(cities.items(), key=lambda item: (item[1], item[0])))


def all_spaces(game_map: MapFile) -> dict[str, dict[str, int]]:
    """The fewest spaces between every pair of connected cities: {origin: {destination: spaces}}."""
    import networkx as nx

    graph = movement_graph(game_map)
    cities = {n for n, place in graph.nodes(data="place") if place == CITY}
    return {
        origin: {d: n for d, n in lengths.items() if d in cities}
        for origin, lengths in nx.all_pairs_shortest_path_length(graph)
        if origin in cities
    }
