"""Where the map's places lie on paper: latitudes and longitudes projected onto the flat map
with a Lambert azimuthal equal-area projection centred on the map (as European maps use,
EPSG:3035), so the same data serves any part of the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.map_models import City, MapFile

EARTH_RADIUS_KM = 6371.0


@dataclass(frozen=True)
class Point:
    """A place on the flat map: x to the east, y to the south (as on a page), in map units."""

    x: float
    y: float


def _equal_area(lat: float, lon: float, lat0: float, lon0: float) -> tuple[float, float]:
    """Lambert azimuthal equal-area: (east, north) in km from the centre (lat0, lon0)."""
    phi, lam, phi0 = math.radians(lat), math.radians(lon - lon0), math.radians(lat0)
    cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(lam)
    k = math.sqrt(2 / max(1 + cos_c, 1e-12))
    east = EARTH_RADIUS_KM * k * math.cos(phi) * math.sin(lam)
    north = EARTH_RADIUS_KM * k * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(lam))
    return east, north


def _sea_zone_places(game_map: MapFile) -> dict[str, tuple[float, float]]:
    """(lat, lon) of each sea zone's symbol: its own, else the mean of its ports'."""
    places = {}
    for zone in game_map.sea_zones:
        if zone.lat is not None and zone.lon is not None:
            places[zone.name] = (zone.lat, zone.lon)
            continue
        ports = [c for c in game_map.cities if zone.name in c.sea_zones]
        if ports:
            places[zone.name] = (sum(c.lat for c in ports) / len(ports), sum(c.lon for c in ports) / len(ports))
    return places


def positions(game_map: MapFile) -> dict[str, Point]:
    """Every city's and sea zone's place on the flat map, keyed by name.

    The box holding every place starts at (0, 0) in the north-west corner; its longer side
    measures 1, so distances keep their proportions. A sea zone with no position and no
    port is left out.
    """
    places = {c.name: (c.lat, c.lon) for c in game_map.cities} | _sea_zone_places(game_map)
    if not places:
        return {}
    lats = [lat for lat, _ in places.values()]
    lons = [lon for _, lon in places.values()]
    lat0, lon0 = (min(lats) + max(lats)) / 2, (min(lons) + max(lons)) / 2
    flat = {name: _equal_area(lat, lon, lat0, lon0) for name, (lat, lon) in places.items()}
    west = min(e for e, _ in flat.values())
    north = max(n for _, n in flat.values())
    span = max(max(e for e, _ in flat.values()) - west, north - min(n for _, n in flat.values())) or 1.0
    return {name: Point((e - west) / span, (north - n) / span) for name, (e, n) in flat.items()}


def great_circle_km(a: City, b: City) -> float:
    """The distance between two cities over the earth's surface, in km."""
    phi1, phi2 = math.radians(a.lat), math.radians(b.lat)
    dphi, dlam = phi2 - phi1, math.radians(b.lon - a.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))
