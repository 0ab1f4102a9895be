"""Where the map's places lie on paper: latitudes and longitudes projected onto the flat map
with a Lambert azimuthal equal-area projection centred on the map (as European maps use,
EPSG:3035), so the same data serves any part of the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.map_models import City, Extent, MapFile

EARTH_RADIUS_KM = 6371.0


@dataclass(frozen=True)
class Point:
    """A place on the flat map: x to the east, y to the south (as on a page), in map units."""

    x: float
    y: float


def _equal_area(lat, lon, lat0: float, lon0: float):
    """Lambert azimuthal equal-area: (east, north) in km from the centre (lat0, lon0); numbers or numpy arrays."""
    import numpy as np  # here, so that checking a map never loads it

    phi, lam, phi0 = np.radians(lat), np.radians(np.asarray(lon) - lon0), math.radians(lat0)
    cos_c = math.sin(phi0) * np.sin(phi) + math.cos(phi0) * np.cos(phi) * np.cos(lam)
    k = np.sqrt(2 / np.maximum(1 + cos_c, 1e-12))
    east = EARTH_RADIUS_KM * k * np.cos(phi) * np.sin(lam)
    north = EARTH_RADIUS_KM * k * (math.cos(phi0) * np.sin(phi) - math.sin(phi0) * np.cos(phi) * np.cos(lam))
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


def _extent_outline(extent: Extent, steps: int = 16) -> list[tuple[float, float]]:
    """(lat, lon) points along the edges of the extent: its curved edges bound the flat map."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        lon = extent.west + (extent.east - extent.west) * t
        lat = extent.south + (extent.north - extent.south) * t
        out += [(extent.south, lon), (extent.north, lon), (lat, extent.west), (lat, extent.east)]
    return out


@dataclass(frozen=True)
class Projection:
    """Latitude and longitude to the flat map: the equal-area projection centred on the map, shifted and
    scaled so that the map's box starts at (0, 0) in the north-west corner and its longer side measures 1."""

    lat0: float
    lon0: float
    west: float
    north: float
    span: float
    width: float
    height: float

    def point(self, lat: float, lon: float) -> Point:
        east, north = _equal_area(lat, lon, self.lat0, self.lon0)
        return Point((float(east) - self.west) / self.span, (self.north - float(north)) / self.span)

    def points(self, lons, lats):
        """Arrays of x and y for arrays of longitudes and latitudes."""
        import numpy as np

        east, north = _equal_area(np.asarray(lats, dtype=float), np.asarray(lons, dtype=float), self.lat0, self.lon0)
        return (east - self.west) / self.span, (self.north - north) / self.span


def projection(game_map: MapFile) -> Projection | None:
    """The map's projection: its box holds every place and the map's extent; None for a map with no places."""
    places = [(c.lat, c.lon) for c in game_map.cities] + list(_sea_zone_places(game_map).values())
    if game_map.extent is not None:
        places += _extent_outline(game_map.extent)
    if not places:
        return None
    lats = [lat for lat, _ in places]
    lons = [lon for _, lon in places]
    if game_map.extent is not None:
        lat0, lon0 = (game_map.extent.south + game_map.extent.north) / 2, (game_map.extent.west + game_map.extent.east) / 2
    else:
        lat0, lon0 = (min(lats) + max(lats)) / 2, (min(lons) + max(lons)) / 2
    import numpy as np

    east, north = _equal_area(np.array(lats), np.array(lons), lat0, lon0)
    west, top = float(east.min()), float(north.max())
    width, height = float(east.max()) - west, top - float(north.min())
    span = max(width, height) or 1.0
    return Projection(lat0, lon0, west, top, span, width / span, height / span)


def positions(game_map: MapFile) -> dict[str, Point]:
    """Every city's and sea zone's place on the flat map, keyed by name (see Projection).

    A sea zone with no position and no port is left out.
    """
    flat = projection(game_map)
    if flat is None:
        return {}
    places = {c.name: (c.lat, c.lon) for c in game_map.cities} | _sea_zone_places(game_map)
    return {name: flat.point(lat, lon) for name, (lat, lon) in places.items()}


def great_circle_km(a: City, b: City) -> float:
    """The distance between two cities over the earth's surface, in km."""
    phi1, phi2 = math.radians(a.lat), math.radians(b.lat)
    dphi, dlam = phi2 - phi1, math.radians(b.lon - a.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))
