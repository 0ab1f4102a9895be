"""Where the map's places go on the poster: each city a round space a stack of counters fits on, moved
from its true (projected) position only as much as spacing needs, and one smooth warp of the whole
drawing that carries the land, borders, sea zones and routes along with the cities.

The spacing: every space (and every sea zone's ship) is pushed apart from its neighbours until no two
come within the layout's `space_gap` of each other, edge to edge (marker_spread.py). The warp: a
thin-plate spline through every place's true and moved position, pinned at the frame's edge, so that
nothing moves that spacing does not need to move and the map bends without tearing.

`poster_places` is the one answer every product asks (the poster, the exports' regions and snap points,
`dossier map show --json`): `space` there is measured in mm from the poster sheet's top-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

from ..core.map_models import MapFile
from ..printing.geometry import Box
from .geography import projection
from .line_grid import LineGrid
from .marker_spread import spread_markers
from .thin_plate import ThinPlate

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout

ROUNDS = 400  # spacing rounds: enough for the most crowded corner of a large map to settle
PIN_STEP = 30.0  # mm between the points that pin the warp to the frame's edge
SPREAD_SETTLED = 0.05  # mm: each step's spreading stops once no two places overlap by more than this
STEPS = 40  # at most this many gentle warp steps
SETTLED = 0.3  # mm: spacing holds once no place needs to move further than this (the gap asked for, less a little)
FOLD_SAFE = 0.5  # a step's shifts differ between nearby places by at most this share of their distance
STEEP_REACH = 60.0  # mm: places this near each other are compared for steepness
LINE_CLEARANCE = 2.5  # mm kept between a space and a rail or air line it does not end
COAST_GAP = 2.0  # mm: a space slid by its coast keeps at least this from every other (the least gap spaces may have)


@dataclass(frozen=True)
class Space:
    """A city's printed space: its centre and diameter, in mm from the poster sheet's top-left corner."""

    x_mm: float
    y_mm: float
    diameter_mm: float

    def as_json(self) -> dict[str, float]:
        return {"x_mm": round(self.x_mm, 2), "y_mm": round(self.y_mm, 2), "diameter_mm": round(self.diameter_mm, 2)}


@dataclass(frozen=True)
class Warp:
    """The smooth map from true poster positions to the drawn ones (mm to mm), applied to arrays of points."""

    move: Callable = field(repr=False)

    def __call__(self, xs, ys):
        import numpy as np

        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        if xs.size == 0:
            return xs, ys
        moved = self.move(np.column_stack([xs.ravel(), ys.ravel()]))
        return moved[:, 0].reshape(xs.shape), moved[:, 1].reshape(ys.shape)


@dataclass(frozen=True)
class Places:
    """The poster's page size, map frame and every place: true and drawn positions, each city's space, the
    warp between them and the projection from longitude and latitude to the drawn page (warp included)."""

    width: float
    height: float
    frame: Box
    true_at: dict[str, tuple[float, float]]
    at: dict[str, tuple[float, float]]
    spaces: dict[str, Space]
    warp: Warp = field(repr=False)
    flat_project: Callable = field(repr=False)
    regions: list = field(default_factory=list, repr=False)  # each country's land as drawn (land.Region), warp included
    key: str | None = field(default=None, repr=False)  # what they are kept under on disk (places_key), None when not kept
    design: str | None = field(default=None, repr=False)  # what the game ships them under (places_key(code=DESIGN))
    shipped: dict = field(default_factory=dict, repr=False)  # what the game ships worked out (core.shipped), by design key

    def kept(self, part: str) -> object:
        """What was kept of `part` beside these places (in the cache, else shipped with the game), or None."""
        from ..core.shipped import recalled

        return recalled(self.key, self.design, self.shipped, part)

    def project(self, lons, lats):
        """Longitudes and latitudes (arrays) to drawn page mm: projected, then warped."""
        return self.warp(*self.flat_project(lons, lats))

    def displacements(self) -> list[float]:
        """How far (mm) each city's space moved from its true position."""
        return [((self.at[n][0] - x) ** 2 + (self.at[n][1] - y) ** 2) ** 0.5 for n, (x, y) in self.true_at.items() if n in self.spaces]


def page_size(layout: "Layout") -> tuple[float, float]:
    """The poster sheet's width and height (mm), turned when the layout asks for landscape."""
    paper = layout.paper_size(layout.poster.paper)
    w, h = paper.width, paper.height
    return (max(w, h), min(w, h)) if layout.poster.landscape else (w, h)


def map_frame(game_map: MapFile, layout: "Layout"):
    """The map's frame on the poster and the function taking arrays of longitudes and latitudes to true
    (unwarped) page mm inside it: the map as wide as the page allows, or as tall when that is smaller (a key
    below the map keeps at least the layout's `key_height`); a map narrower than the page is centred."""
    style = layout.poster
    width, height = page_size(layout)
    flat = projection(game_map)
    pad = 0.0 if game_map.extent is not None else style.frame_pad
    span_x, span_y = (flat.width or 1.0, flat.height or 1.0) if flat else (1.0, 1.0)
    side = style.key_width + style.key_gap if style.key_width else 0.0
    room_w = width - 2 * (style.margin + style.border) - side - 2 * pad
    top = style.margin + style.title_band + style.border
    room_h = height - top - style.border - style.margin - 2 * pad
    wide = span_x * style.stretch
    if side:
        scale = min(room_w / wide, room_h / span_y)
    else:  # the key goes below: as wide as the page, unless that leaves the key less than its least room
        scale = min(room_w / wide, max(room_h - style.key_height - style.key_gap, room_h / 4) / span_y)
    frame_w = wide * scale + 2 * pad
    left = style.margin + style.border + (0.0 if side else (room_w + 2 * pad - frame_w) / 2)
    frame = Box(left, top, frame_w, span_y * scale + 2 * pad)

    def project(lons, lats):
        xs, ys = flat.points(lons, lats)
        return frame.x + pad + xs * scale * style.stretch, frame.y + pad + ys * scale

    return frame, project


def _true_positions(game_map: MapFile, project) -> dict[str, tuple[float, float]]:
    import numpy as np

    places = {c.name: (c.lat, c.lon) for c in game_map.cities}
    places |= {z.name: (z.lat, z.lon) for z in game_map.sea_zones if z.lat is not None and z.lon is not None}
    names = list(places)
    xs, ys = project(np.array([places[n][1] for n in names]), np.array([places[n][0] for n in names]))
    at = {n: (float(x), float(y)) for n, x, y in zip(names, xs, ys)}
    for zone in game_map.sea_zones:  # a zone without a place: its ship sits amid its ports
        ports = [at[c.name] for c in game_map.cities if zone.name in c.sea_zones]
        if zone.name not in at and ports:
            at[zone.name] = (sum(x for x, _ in ports) / len(ports), sum(y for _, y in ports) / len(ports))
    return at


def _pins(frame: Box):
    import numpy as np

    nx, ny = max(2, int(frame.width // PIN_STEP)), max(2, int(frame.height // PIN_STEP))
    edge = [(frame.x + frame.width * i / nx, y) for i in range(nx + 1) for y in (frame.y, frame.bottom)]
    edge += [(x, frame.y + frame.height * j / ny) for j in range(1, ny) for x in (frame.x, frame.right)]
    return np.array(edge, dtype=float)


def _steepness(xy, shift) -> float:
    """The most any two nearby places' shifts differ, per mm between them: above 1 the drawing would fold."""
    import numpy as np
    import shapely

    tree = shapely.STRtree(shapely.points(xy))
    a, b = tree.query(shapely.points(xy), predicate="dwithin", distance=STEEP_REACH)
    keep = a < b
    a, b = a[keep], b[keep]
    if not len(a):
        return 0.0
    apart = np.hypot(*(xy[a] - xy[b]).T)
    return float((np.hypot(*(shift[a] - shift[b]).T) / np.maximum(apart, 1e-6)).max())


def _clear_of_lines(xy, radii, lines, clearance: float):
    """`xy` with each place pushed off any line it does not end, to `clearance` beyond its radius; only the lines
    passing near a place are measured (see LineGrid), so the work grows with the pairs that are close."""
    import numpy as np

    if not len(lines):
        return xy
    reach = np.asarray(radii, dtype=float) + clearance
    grid = LineGrid(np.column_stack([xy[lines[:, 0]], xy[lines[:, 1]]]))
    place, line, _ = grid.near(xy[:, 0] - reach, xy[:, 1] - reach, xy[:, 0] + reach, xy[:, 1] + reach)
    a, b, p = xy[lines[line, 0]], xy[lines[line, 1]], xy[place]
    ab = b - a
    length2 = np.maximum((ab ** 2).sum(1), 1e-9)
    t = np.clip(((p - a) * ab).sum(1) / length2, 0.0, 1.0)
    away = p - (a + t[:, None] * ab)
    distance = np.hypot(away[:, 0], away[:, 1])
    short = reach[place] - distance
    short[(lines[line, 0] == place) | (lines[line, 1] == place) | (t <= 0.0) | (t >= 1.0)] = 0.0
    short = np.maximum(short, 0.0)
    push = np.zeros_like(xy)
    np.add.at(push, place, away / np.maximum(distance, 1e-9)[:, None] * short[:, None])
    return xy + push


def _distinct(points, shifts):
    """`points` and their `shifts`, each point that recurs (places that start on one spot, such as a sea zone
    placed on its one port) kept once with its shifts averaged: a warp is fitted through distinct points only."""
    import numpy as np

    unique, inverse = np.unique(points, axis=0, return_inverse=True)
    if len(unique) == len(points):
        return points, shifts
    inverse = inverse.ravel()
    total = np.zeros((len(unique), shifts.shape[1]))
    np.add.at(total, inverse, shifts)
    return unique, total / np.bincount(inverse)[:, None]


def _spaced_warp(frame: Box, names: list[str], true_at: dict, radii: list[float], gap: float, lines=()):
    """Places moved apart and the warp that carries the drawing with them: small thin-plate steps, each
    gentle enough (nearby places' shifts differ by at most half their distance) that it cannot fold the
    drawing, repeated until the spacing holds; their composition is the warp, one smooth map without folds.
    Once the spacing's turns are gentle enough to be taken whole, those that follow are taken in the same
    step: the places end where they would step by step, and the land is warped a few times, not twenty."""
    import numpy as np

    pins = _pins(frame)
    xy = np.array([true_at[n] for n in names], dtype=float)
    steps = []
    within = (frame.x, frame.y, frame.right, frame.bottom)
    lines = np.asarray(lines, dtype=int).reshape(-1, 2)

    r = np.asarray(radii, dtype=float)

    def turn(at):  # places spread apart, then pushed off the lines they do not end, and kept inside the frame
        spread = spread_markers([tuple(p) for p in at], radii, gap=gap, rounds=ROUNDS, within=within, settled=SPREAD_SETTLED)
        clear = _clear_of_lines(np.array(spread), radii, lines, LINE_CLEARANCE)
        return np.column_stack([np.clip(clear[:, 0], frame.x + r, frame.right - r), np.clip(clear[:, 1], frame.y + r, frame.bottom - r)])

    for _ in range(STEPS):
        target = turn(xy)
        shift = target - xy
        if np.abs(shift).max() < SETTLED:
            break
        steepness = _steepness(xy, shift)
        if steepness > FOLD_SAFE:
            shift *= FOLD_SAFE / steepness
        else:  # a step taken whole: the turns after it join it while they move places and it stays gentle
            while np.abs((further := turn(target)) - target).max() >= SETTLED and _steepness(xy, further - xy) <= FOLD_SAFE:
                target = further
            shift = target - xy
        steps.append(ThinPlate.through(*_distinct(np.vstack([xy, pins]), np.vstack([shift, np.zeros_like(pins)]))))
        xy = xy + shift

    return {n: (float(x), float(y)) for n, (x, y) in zip(names, xy)}, steps



def _by_the_coasts(game: "Game", frame: Box, at: dict, warp: Warp, flat_project):
    """The land as drawn (each country warped, small islands enlarged, coasts kept off inland spaces) and `at`
    with spaces slid to suit their coasts (coasts.py)."""
    from shapely.geometry import Polygon

    from .coasts import coast_kept_off, fitted_to_coasts, islands_enlarged, sea_brought_to_ports
    from .land import land_regions, read_geography, union_of
    from .sea_zones import map_sea_zones
    from .territories import Region

    geography = read_geography(game.file(game.map.geography))
    box = Polygon([(frame.x, frame.y), (frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom)])
    regions = land_regions(geography, game.map, lambda lons, lats: warp(*flat_project(lons, lats)), box)
    if not regions:
        return at, regions
    style = game.layout.poster
    radius = style.space / 2
    countries = islands_enlarged(game.map, at, radius, {r.country: r.shape for r in regions})
    land = union_of(list(countries.values()))
    zones = map_sea_zones(game.map, at, lambda lons, lats: warp(*flat_project(lons, lats)), box.difference(land),
                          radius + style.port_water)  # as they lie before the slide: each port slides to its own zones' water
    at = fitted_to_coasts(game.map, at, radius, COAST_GAP, countries, land, zones, radius + style.port_water)
    countries = coast_kept_off(game.map, at, radius, sea_brought_to_ports(game.map, at, radius, countries, zones))
    return at, [Region(r.country, r.power, countries[r.country]) for r in regions]


KEPT = "poster-places"  # the game_cache part holding the spaced, warped places and the land drawn with them
# The layout's settings the poster's places never read (other products', and the colours they are drawn in):
# left out of their key, so that setting a card's type, a sheet's gutter or a land's colour neither works the
# map out afresh nor stales what a game ships.
NOT_ON_THE_MAP = frozenset({"cards", "copies", "tiles", "display", "track_board", "one_sheet", "caption", "crop_marks", "colours",
                            "cut_line", "faces", "type", "min_text_size", "max_piece_text", "gutter", "bleed",
                            "board_sheet", "safe_zone", "edge_clearance", "sheet_margin"})


def places_key(game: "Game", code: str | None = None) -> str | None:
    """The key the places are kept under on disk (core.game_cache): the sha256 of the code, of the map and the
    layout as read (not their files: a game changed in memory gets its own key; without the settings NOT_ON_THE_MAP)
    and of the geography's bytes.
    `code=DESIGN` gives the key the game ships them under (core.shipped)."""
    import hashlib

    from ..core.game_cache import code_version

    digest = hashlib.sha256(f"{KEPT}\n{code or code_version()}\n".encode())
    digest.update(game.map.model_dump_json().encode())
    digest.update(game.layout.model_dump_json(exclude=set(NOT_ON_THE_MAP)).encode())
    if game.map.geography is not None:
        try:
            digest.update(game.file(game.map.geography).read_bytes())
        except OSError:
            return None  # reported when the land is read
    return digest.hexdigest()


def _as_data(places: Places, steps) -> dict:
    """`places` as plain JSON data: numbers as they are (a float's repr reads back exactly), shapes as WKB."""
    import base64

    import shapely

    return {"width": places.width, "height": places.height, "frame": [places.frame.x, places.frame.y, places.frame.width, places.frame.height],
            "true_at": places.true_at, "at": places.at,
            "steps": [{name: getattr(step, name).tolist() for name in ("centres", "weights", "plane", "shift", "scale")} for step in steps],
            "regions": [[r.country, r.power, base64.b64encode(shapely.to_wkb(r.shape)).decode()] for r in places.regions]}


def _from_data(data, game: "Game") -> Places | None:
    """The places kept as `data` (see _as_data), or None when it is not such an entry."""
    import base64

    import numpy as np
    import shapely

    from .territories import Region

    try:
        steps = [ThinPlate(*(np.asarray(step[name], dtype=float) for name in ("centres", "weights", "plane", "shift", "scale")))
                 for step in data["steps"]]
        regions = [Region(country, power, shapely.from_wkb(base64.b64decode(shape))) for country, power, shape in data["regions"]]
        at = {name: (float(x), float(y)) for name, (x, y) in data["at"].items()}
        true_at = {name: (float(x), float(y)) for name, (x, y) in data["true_at"].items()}
        frame = Box(*(float(v) for v in data["frame"]))
        width, height = float(data["width"]), float(data["height"])
    except (KeyError, TypeError, ValueError, shapely.errors.GEOSException):
        return None
    _, flat_project = map_frame(game.map, game.layout)
    spaces = {c.name: Space(*at[c.name], game.layout.poster.space) for c in game.map.cities if c.name in at}
    return Places(width, height, frame, true_at, at, spaces, Warp(_composed(steps)), flat_project, regions)


def _composed(steps):
    def move(points):
        for step in steps:
            points = points + step(points)
        return points

    return move


def poster_places(game: "Game") -> Places:
    """The poster's places for `game` (see the module's docstring); worked out once per game, and kept on disk
    for the next command while the code, the map, the layout and the geography stay as they are. A game that
    ships them worked out for its data as it is (core.shipped) has them read from its folder instead."""
    from ..core.game_cache import DESIGN, keep
    from ..core.shipped import recalled, shipped_answers

    cached = game.derived.get("poster_places")
    if cached is not None:
        return cached
    keys = {"key": places_key(game), "design": places_key(game, DESIGN), "shipped": shipped_answers(game)}
    kept = recalled(keys["key"], keys["design"], keys["shipped"], KEPT)
    places = _from_data(kept, game) if isinstance(kept, dict) else None
    if places is None:
        places, steps = _worked_out(game)
        keep(keys["key"], KEPT, _as_data(places, steps), keys["design"])
    places = replace(places, **keys)
    game.derived["poster_places"] = places
    return places


def _worked_out(game: "Game") -> tuple[Places, list]:
    game_map, layout = game.map, game.layout
    style = layout.poster
    width, height = page_size(layout)
    frame, flat_project = map_frame(game_map, layout)
    true_at = _true_positions(game_map, flat_project) if projection(game_map) is not None else {}
    zones = {z.name for z in game_map.sea_zones}
    names = list(true_at)
    radii = [style.ship / 2 if n in zones else style.space / 2 for n in names]
    if names:
        index = {n: i for i, n in enumerate(names)}
        lines = [(index[r.from_], index[r.to]) for r in game_map.routes if r.from_ in index and r.to in index]
        at, steps = _spaced_warp(frame, names, true_at, radii, style.space_gap, lines)
    else:
        at, steps = {}, []
    warp = Warp(_composed(steps))
    regions = []
    if game_map.geography is not None and at:
        at, regions = _by_the_coasts(game, frame, at, warp, flat_project)
    spaces = {c.name: Space(*at[c.name], style.space) for c in game_map.cities if c.name in at}
    return Places(width, height, frame, true_at, at, spaces, warp, flat_project, regions), steps


def city_spaces(game: "Game") -> dict[str, Space]:
    """Each city's printed space on the poster, by name (mm from the sheet's top-left corner)."""
    return dict(poster_places(game).spaces)
