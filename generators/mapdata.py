"""The map as data (map.yaml): cities, sea zones and the rail and air lines between cities.

Positions are real latitudes and longitudes; `positions()` projects them onto the flat map
with a Lambert azimuthal equal-area projection centred on the map (as European maps use,
EPSG:3035), so the same data serves any part of the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Optional

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import DataError
from .loader_errors import problems_from_validation
from .models import Record
from .yamlio import read_yaml

EARTH_RADIUS_KM = 6371.0


def _field_names(model: type[BaseModel]) -> set[str]:
    """The names a data file uses for the model's fields (the alias where there is one)."""
    return {info.alias or name for name, info in model.model_fields.items()} - {"assumed"}


def _refuse_unknown_assumed(record: Record, known: set[str]) -> None:
    unknown = sorted(set(record.assumed) - known)
    if unknown:
        raise ValueError(f"assumed names unknown field(s): {', '.join(unknown)}")


class City(Record):
    """A city: whose home territory it is (power None = neutral) and what is printed on it."""

    name: str = Field(min_length=1)
    country: str
    power: Optional[str] = None
    capital: bool = False
    port: bool = False
    sea_zones: list[str] = Field(default_factory=list)
    police: bool = False
    secret: bool = False
    haven: bool = False
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class SeaZone(Record):
    """A sea zone, the zones a ship may sail on to, and where its ship symbol sits.

    Without lat/lon the symbol sits amid the ports touching the zone.
    """

    name: str = Field(min_length=1)
    adjacent: list[str] = Field(default_factory=list)
    lat: Optional[float] = Field(default=None, ge=-90, le=90)
    lon: Optional[float] = Field(default=None, ge=-180, le=180)


class Line(Record):
    """A rail or air line between two cities; movement along it runs both ways."""

    model_config = ConfigDict(populate_by_name=True)

    from_: str = Field(alias="from")
    to: str
    kind: Literal["rail", "air"]

    @model_validator(mode="after")
    def _assumed_fields_exist(self):
        _refuse_unknown_assumed(self, _field_names(Line))
        return self


class Rules(Record):
    """The printed rules the map is checked and moved on, each cited in `cite` (field -> rule)."""

    spaces_per_turn: int = Field(ge=1)
    secret_cities: Optional[int] = Field(default=None, ge=0)
    havens: list[str] = Field(default_factory=list)
    cite: dict[str, str] = Field(default_factory=dict)


class MapFile(Record):
    """map.yaml: the whole map. A file-level `assumed` reason may name a field of every city,
    sea zone or line (e.g. `lat`), saying why that field is assumed throughout the file."""

    title: Optional[str] = None
    reconstruction: Optional[str] = None
    rules: Rules
    sea_zones: list[SeaZone] = Field(default_factory=list)
    cities: list[City] = Field(default_factory=list)
    routes: list[Line] = Field(default_factory=list)

    @model_validator(mode="after")
    def _assumed_fields_exist(self):
        _refuse_unknown_assumed(self, _field_names(MapFile) | _field_names(City) | _field_names(SeaZone) | _field_names(Line))
        return self

    def city(self, name: str) -> City:
        """The city printed as `name` exactly; KeyError when there is none."""
        for city in self.cities:
            if city.name == name:
                return city
        raise KeyError(name)


def read_map_file(file: Path) -> MapFile:
    """The map in `file` (any map.yaml, not only a game's own); raises DataError naming every bad field."""
    try:
        return MapFile.model_validate(read_yaml(file))
    except ValidationError as exc:
        raise DataError(problems_from_validation(exc, file)) from None


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
