"""The map as data (map.yaml): cities, sea zones and the rail and air lines between cities.

Positions are real latitudes and longitudes; `map.geography` projects them onto the flat map.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .board_models import Aid, Place
from .errors import DataError
from .limits import MAX_AIDS, MAX_CITIES, MAX_ROUTES, MAX_SEA_ZONES, MAX_ZONE_WATERS
from .models import Record
from .schema_errors import problems_from_validation
from .yamlio import read_yaml


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
    marks: list[str] = Field(default_factory=list)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    region: Optional[str] = Field(default=None, min_length=1)
    number: Optional[int] = Field(default=None, ge=1)

    def has_mark(self, mark: str) -> bool:
        """True when the map prints `mark` (one of the map's `marks`) on this city."""
        return mark in self.marks

    @property
    def is_neutral(self) -> bool:
        """True when the city is no power's home territory."""
        return self.power is None


class SeaZone(Record):
    """A sea zone, the zones a ship may sail on to, and where its ship symbol sits.

    Without lat/lon the symbol sits amid the ports touching the zone. `waters`: points of open sea, far
    from its ship and its ports, that are the zone's too (an ocean zone's far side), where the water would
    otherwise fall to a smaller zone whose ship or ports are nearer.
    """

    name: str = Field(min_length=1)
    adjacent: list[str] = Field(default_factory=list)
    lat: Optional[float] = Field(default=None, ge=-90, le=90)
    lon: Optional[float] = Field(default=None, ge=-180, le=180)
    waters: list[Place] = Field(default_factory=list, max_length=MAX_ZONE_WATERS)


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


PlaceKind = Literal["city", "sea"]


class Rules(Record):
    """The printed rules the map is moved on, each cited in `cite` (field -> rule): how many spaces a
    move may have, the places (cities, sea zones) a move may end in, and whether each faction holds a
    home territory with one capital (`home_territory`; false where the sides own no part of the map).
    `note` is the poster's movement note in the game's own words, for a game whose rules limit a move
    otherwise than by spaces a turn (the poster then prints it instead of "at most N spaces a turn");
    `spaces_per_turn` is still the route and reach questions' limit."""

    spaces_per_turn: int = Field(ge=1)
    note: Optional[str] = Field(default=None, min_length=1)
    home_territory: bool = True
    move_ends_in: list[PlaceKind] = Field(default_factory=lambda: ["city", "sea"], min_length=1)
    cite: dict[str, str] = Field(default_factory=dict)


class Mark(Record):
    """A mark the map prints on some cities, read from the game's data: the legend's wording, how it is
    printed (`badge`: a letter in a disc beside the city; `tag`: a word in a box under its name), where
    the rules allow it (`home`: a power's home territory; `neutral`; `any`), and how many cities carry
    it (`count`) or exactly which (`cities`). `cite` is the rule it comes from."""

    legend: str = Field(min_length=1)
    badge: Optional[str] = Field(default=None, min_length=1, max_length=2)
    tag: Optional[str] = Field(default=None, min_length=1)
    where: Literal["any", "home", "neutral"] = "any"
    count: Optional[int] = Field(default=None, ge=0)
    cities: Optional[list[str]] = None
    cite: Optional[str] = None

    @model_validator(mode="after")
    def _printed_one_way(self):
        if (self.badge is None) == (self.tag is None):
            raise ValueError("a mark is printed either as a badge (a letter or two) or as a tag (a word); give one")
        return self


class Die(Record):
    """A die the game rolls to pick a place: what the rules call it and how many faces it has."""

    name: str = Field(min_length=1)
    faces: int = Field(default=6, ge=2, le=100)


class Dice(Record):
    """Two dice that pick a city: `region` picks one of the map's regions by its number, `city` one of
    that region's cities by its number (so each region has one city per face of the city die)."""

    region: Die
    city: Die
    cite: Optional[str] = None


class MapRegion(Record):
    """A region of the map: its name, its number on the region die (when the map has dice) and the colour its
    land and cities are printed in (a layout colour name or #rrggbb)."""

    name: str = Field(min_length=1)
    number: Optional[int] = Field(default=None, ge=1)
    colour: Optional[str] = None


class Extent(Record):
    """The part of the earth the printed map shows, in degrees: its west, east, south and north limits."""

    west: float = Field(ge=-180, le=180)
    east: float = Field(ge=-180, le=180)
    south: float = Field(ge=-90, le=90)
    north: float = Field(ge=-90, le=90)

    @model_validator(mode="after")
    def _ordered(self):
        if self.west >= self.east or self.south >= self.north:
            raise ValueError("west must be less than east and south less than north")
        return self


class MapFile(Record):
    """map.yaml: the whole map. A file-level `assumed` reason may name a field of every city,
    sea zone or line (e.g. `lat`), saying why that field is assumed throughout the file.

    `geography` names a file of land and countries in the game's folder (see map/land.py); without
    one the poster shapes land from the cities. `territories` gives the power of countries the
    geography draws but no city stands in. `aids` are the tracks, records and boxes printed on the map.
    `regions` group the cities (each city's `region`); with `dice`, each region and each of its cities
    carry a `number`, the face of the die that picks it.
    """

    title: Optional[str] = None
    reconstruction: Optional[str] = None
    geography: Optional[str] = Field(default=None, min_length=1)
    extent: Optional[Extent] = None
    territories: dict[str, Optional[str]] = Field(default_factory=dict)
    rules: Rules
    marks: dict[str, Mark] = Field(default_factory=dict)
    regions: list[MapRegion] = Field(default_factory=list)
    dice: Optional[Dice] = None
    aids: list[Aid] = Field(default_factory=list, max_length=MAX_AIDS)
    sea_zones: list[SeaZone] = Field(default_factory=list, max_length=MAX_SEA_ZONES)
    cities: list[City] = Field(default_factory=list, max_length=MAX_CITIES)
    routes: list[Line] = Field(default_factory=list, max_length=MAX_ROUTES)

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
        raise DataError(problems_from_validation(exc, file, model=MapFile)) from None
