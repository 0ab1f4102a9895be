"""Movement on the map as a graph, built once per map and asked many questions: how many spaces
between places, and which places a move can end in.

Cities and sea zones are the nodes. Rail and air lines join cities; a port joins each sea
zone it touches; adjacent sea zones join. Every place entered is one space, and a move has
at most the map's `rules.spaces_per_turn` spaces. The map's `rules.move_ends_in` says which
kinds of place a move may end in; a place of another kind is only passed through, so the
network refuses it as an origin or destination (PlaceKindError) rather than answer a
question the rules never ask.

Questions are answered from a plain graph of dicts (`MovementGraph`): a route is one breadth-first
search, and a question about the map should not pay for importing a graph library. `movement_graph`
gives the same graph as networkx's, for analysis beyond what the network answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.errors import DossierError
from ..core.names import NameIndex

if TYPE_CHECKING:  # a network kept in the cache is made without the map's records
    import networkx as nx

    from ..core.map_models import MapFile

CITY, SEA = "city", "sea"  # the kinds of place, as map.yaml's rules.move_ends_in names them
# When two cities are joined by both a rail and an air line, a step between them is reported as the first.
STEP_KINDS = ("rail", "air", "sea")


class PlaceKindError(DossierError, ValueError):
    """A move asked to start or end in a kind of place the map's rules never let a move end in."""

    def __init__(self, place: str, kind: str, role: str, allowed: Iterable[str]):
        self.place, self.kind, self.role = place, kind, role
        words = {CITY: "a city", SEA: "a sea zone"}
        named = " or ".join(words.get(k, k) for k in allowed)
        super().__init__(f"{place!r} is {words.get(kind, kind)}: a move may not {'end' if role == 'destination' else 'start'} "
                         f"there (the map's rules: a move ends in {named}); name {named}")


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


@dataclass(frozen=True)
class Journey:
    """A move over several turns: how many turns, the place each turn ends in (the last is the destination)
    and each turn's route. `turns` is None when no route joins the ends; 0 when they are the same place."""

    turns: int | None
    stops: list[str] = field(default_factory=list)
    legs: list[Route] = field(default_factory=list)


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


class MovementGraph:
    """The map's places and the steps between them: `nodes[place]["place"]` is CITY or SEA, `adj[a][b]["kinds"]`
    the kinds of the step between a and b, each place's neighbours in the order networkx would hold them."""

    def __init__(self, kinds: Mapping[str, str], steps: Iterable[tuple[str, str, set[str]]]):
        self.nodes: dict[str, dict[str, str]] = {name: {"place": place} for name, place in kinds.items()}
        self.adj: dict[str, dict[str, dict]] = {name: {} for name in self.nodes}
        for a, b, kinds_of_step in steps:
            self.adj[a][b] = self.adj[b][a] = {"kinds": kinds_of_step}

    @classmethod
    def of(cls, game_map: MapFile) -> MovementGraph:
        return cls(places(game_map), links(game_map))

    def __len__(self) -> int:
        return len(self.nodes)

    def has_edge(self, a: str, b: str) -> bool:
        return b in self.adj.get(a, {})

    def shortest_path(self, source: str, target: str) -> list[str] | None:
        """The fewest steps from `source` to `target` (both included), or None when none joins them; searched
        from both ends at once, level by level, as networkx's bidirectional search does, so that of several
        equally short paths the same one is found."""
        if source == target:
            return [source]
        pred: dict[str, str | None] = {source: None}
        succ: dict[str, str | None] = {target: None}
        forward, reverse = [source], [target]
        meet = None
        while forward and reverse and meet is None:
            if len(forward) <= len(reverse):
                forward, level = [], forward
                for v in level:
                    for w in self.adj[v]:
                        if w not in pred:
                            forward.append(w)
                            pred[w] = v
                        if w in succ:
                            meet = w
                            break
                    if meet is not None:
                        break
            else:
                reverse, level = [], reverse
                for v in level:
                    for w in self.adj[v]:
                        if w not in succ:
                            succ[w] = v
                            reverse.append(w)
                        if w in pred:
                            meet = w
                            break
                    if meet is not None:
                        break
        if meet is None:
            return None
        path, step = [], meet
        while step is not None:
            path.append(step)
            step = pred[step]
        path.reverse()
        step = succ[path[-1]]
        while step is not None:
            path.append(step)
            step = succ[step]
        return path

    def distances(self, source: str, cutoff: int) -> dict[str, int]:
        """Each place within `cutoff` steps of `source`, with its fewest steps."""
        found = {source: 0}
        level = [source]
        for n in range(1, cutoff + 1):
            after = []
            for v in level:
                for w in self.adj[v]:
                    if w not in found:
                        found[w] = n
                        after.append(w)
            if not after:
                break
            level = after
        return found


def movement_graph(game_map: MapFile) -> nx.Graph:
    """The map as an undirected graph: node attribute `place` (CITY or SEA), edge attribute `kinds`."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from((name, {"place": place}) for name, place in places(game_map).items())
    graph.add_edges_from((a, b, {"kinds": kinds}) for a, b, kinds in links(game_map))
    return graph


def place_names(game_map: MapFile) -> list[str]:
    """Every city and sea zone's printed name, cities first, in the map's order."""
    return [c.name for c in game_map.cities] + [z.name for z in game_map.sea_zones]


def place_index(game_map: MapFile, aliases: Mapping[str, str] | None = None) -> NameIndex:
    """Every city and sea zone, looked up by any case or accents and by the game's other spellings."""
    return NameIndex("place", place_names(game_map), dict(aliases or {}))


class Network:
    """A map's movement graph, built once, answering route and reach questions from it.

    >>> from generators.core.map_models import MapFile
    >>> game_map = MapFile.model_validate({"rules": {"spaces_per_turn": 5},
    ...     "cities": [{"name": name, "country": "Land", "lat": 52.0, "lon": lon}
    ...                for name, lon in [("Berlin", 13.4), ("Warsaw", 21.0), ("Moscow", 37.6)]],
    ...     "routes": [{"from": "Berlin", "to": "Warsaw", "kind": "rail"},
    ...                {"from": "Warsaw", "to": "Moscow", "kind": "rail"}]})
    >>> network = Network(game_map)
    >>> network.route("berlin", "Moscow").spaces
    2
    >>> network.reachable("Berlin", 1)
    {'Berlin': 0, 'Warsaw': 1}
    """

    def __init__(self, game_map: MapFile, aliases: Mapping[str, str] | None = None):
        self._setup(place_names(game_map), dict(aliases or {}), game_map.rules.move_ends_in, game_map.rules.spaces_per_turn,
                    MovementGraph.of(game_map))

    def _setup(self, names: list[str], aliases: dict[str, str], ends_in: Iterable[str], spaces_per_turn: int,
               graph: MovementGraph) -> None:
        self.names, self.aliases = names, aliases
        self.places = NameIndex("place", names, aliases)
        self.ends_in = tuple(ends_in)
        self.spaces_per_turn = spaces_per_turn
        self.graph = graph

    def as_data(self) -> dict:
        """The network as plain JSON data, which `from_data` makes the same network of again (each place's
        neighbours in the same order, so that of equally short routes the same one is found)."""
        return {"names": self.names, "aliases": self.aliases, "ends_in": list(self.ends_in),
                "spaces_per_turn": self.spaces_per_turn,
                "places": {name: node["place"] for name, node in self.graph.nodes.items()},
                "neighbours": {a: [[b, sorted(step["kinds"])] for b, step in around.items()]
                               for a, around in self.graph.adj.items()}}

    @classmethod
    def from_data(cls, data: dict) -> Network | None:
        """The network `as_data` gave, or None when `data` is not such a network (a damaged cache entry)."""
        try:
            graph = MovementGraph({str(name): str(kind) for name, kind in data["places"].items()}, ())
            for a, around in data["neighbours"].items():
                for b, kinds in around:
                    graph.adj[str(a)][str(b)] = {"kinds": {str(k) for k in kinds}}
            names = [str(n) for n in data["names"]]
            if set(graph.adj) != set(graph.nodes) or any(b not in graph.nodes for around in graph.adj.values() for b in around) \
                    or set(names) - set(graph.nodes):
                return None
            network = cls.__new__(cls)
            network._setup(names, {str(k): str(v) for k, v in data["aliases"].items()}, [str(k) for k in data["ends_in"]],
                           int(data["spaces_per_turn"]), graph)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        return network

    def resolve(self, name: str) -> str:
        """The printed name of the place `name`; raises UnknownNameError with the closest names on a miss."""
        return self.places.resolve(name)

    def kind_of(self, place: str) -> str:
        """CITY or SEA for a printed place name."""
        return self.graph.nodes[place]["place"]

    def may_end_in(self, place: str) -> bool:
        """True when the map's rules let a move end in `place`."""
        return self.kind_of(place) in self.ends_in

    def _end(self, name: str, role: str) -> str:
        found = self.resolve(name)
        if not self.may_end_in(found):
            raise PlaceKindError(found, self.kind_of(found), role, self.ends_in)
        return found

    def _step_kind(self, a: str, b: str) -> str:
        kinds = self.graph.adj[a][b]["kinds"]
        return next(k for k in STEP_KINDS if k in kinds)

    def route(self, origin: str, destination: str) -> Route:
        """The fewest spaces from `origin` to `destination`, with the path and each step's kind.

        Names are looked up forgivingly (see `resolve`). Raises UnknownNameError for a place not on
        the map and PlaceKindError for an end the rules never let a move end in.
        """
        start, end = self._end(origin, "origin"), self._end(destination, "destination")
        path = self.graph.shortest_path(start, end)
        if path is None:
            return Route(spaces=None)
        return Route(spaces=len(path) - 1, path=path, kinds=[self._step_kind(a, b) for a, b in zip(path, path[1:])])

    def journey(self, origin: str, destination: str, spaces: int | None = None) -> Journey:
        """The fewest turns from `origin` to `destination`, moving at most `spaces` a turn (default: the map's
        spaces_per_turn) and ending every turn where a move may end (never at sea); of those, the fewest spaces.

        Each leg is the fewest spaces between two stops. A journey with no route has `turns` None.
        """
        import heapq

        limit = self.spaces_per_turn if spaces is None else spaces
        start, end = self._end(origin, "origin"), self._end(destination, "destination")
        best: dict[str, tuple[int, int]] = {start: (0, 0)}
        before: dict[str, str] = {}
        queue = [(0, 0, start)]
        while queue:
            turns, used, place = heapq.heappop(queue)
            if place == end:
                break
            if best[place] < (turns, used):
                continue
            for stop, n in self.reachable(place, limit).items():
                if n == 0:
                    continue
                found = (turns + 1, used + n)
                if stop not in best or found < best[stop]:
                    best[stop], before[stop] = found, place
                    heapq.heappush(queue, (*found, stop))
        if end not in best:
            return Journey(turns=None)
        stops = [end]
        while stops[-1] != start:
            stops.append(before[stops[-1]])
        stops.reverse()
        legs = [self.route(a, b) for a, b in zip(stops, stops[1:])]
        return Journey(turns=best[end][0], stops=stops[1:], legs=legs)

    def reachable(self, origin: str, spaces: int | None = None) -> dict[str, int]:
        """The places a move from `origin` can end in within `spaces` spaces (default: the map's
        spaces_per_turn), each with its fewest spaces; `origin` itself is included at 0.

        Places a move may not end in count as spaces when passed through but are never listed.
        """
        limit = self.spaces_per_turn if spaces is None else spaces
        start = self._end(origin, "origin")
        found = self.graph.distances(start, max(limit, 0))
        ends = {name: n for name, n in found.items() if self.may_end_in(name)}
        return dict(sorted(ends.items(), key=lambda item: (item[1], item[0])))
