"""The nouns of a game, as typed records read from its YAML: factions, piece kinds, pieces, tiles."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Record(BaseModel):
    """A record from a data file. Unknown fields are refused so that a typo never passes silently.

    `assumed` maps a field of the record to a one-line reason, for values the source does not print.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    assumed: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _assumed_fields_exist(self):
        unknown = sorted(set(self.assumed) - set(type(self).model_fields) - {"assumed"})
        if unknown:
            raise ValueError(f"assumed names unknown field(s): {', '.join(unknown)}")
        return self


class Faction(Record):
    """A side in the game (a nation, a colour, an agency)."""

    id: str
    name: str
    code: Optional[str] = None
    symbol: Optional[str] = None


class FaceTemplate(Record):
    """What one face of a piece kind shows; texts are templates such as "{name}" filled per piece."""

    title: Optional[str] = None
    value: Optional[str] = None
    text: Optional[str] = None
    symbol: Optional[str] = None
    colour: str = "neutral"
    blank: bool = False


class Kind(Record):
    """A kind of piece: its size on the sheet, how copies are told apart, and its two faces."""

    label: str
    size: str
    unique_by: list[str] = Field(default_factory=list)
    front: Optional[FaceTemplate] = None
    back: FaceTemplate = Field(default_factory=lambda: FaceTemplate(blank=True))


class Piece(Record):
    """One entry of the roster; `count` copies of it are printed."""

    kind: str
    name: str
    nation: Optional[str] = None
    count: int = Field(default=1, ge=1)
    strength: Optional[int] = Field(default=None, ge=0)
    value: Optional[int] = Field(default=None, ge=0)
    cost: Optional[str] = None
    games: Optional[list[str]] = None
    cousin: bool = False
    symbol: Optional[str] = None
    bonus: Optional[int] = Field(default=None, ge=0)
    text: Optional[str] = None


class Award(Record):
    """One printed award group on an Event Tile: "2c: Paris, Moscow"."""

    amount: int = Field(ge=1)
    kind: Literal["c", "£"]
    cities: list[str] = Field(min_length=1)


class Tile(Record):
    """An Event Tile, every field as printed."""

    id: str
    nation: Optional[str] = None
    number: int
    special: bool = False
    years: list[int] = Field(min_length=1)
    event: str
    awards: list[Award] = Field(default_factory=list)


class GameInfo(Record):
    """game.yaml: the game's identity, its factions and the kinds of piece it is made of.

    `lists` names groups of kinds a player looks up together (`dossier list NAME`).
    """

    name: str
    title: str
    publisher: Optional[str] = None
    published: Optional[int] = None
    layout: str = "default"
    years: list[int] = Field(default_factory=list)
    variants: list[str] = Field(default_factory=list)
    sheet_total: Optional[int] = Field(default=None, ge=1)
    sheet_total_note: Optional[str] = None
    factions: list[Faction] = Field(default_factory=list)
    tile_pool: Optional[str] = None
    kinds: dict[str, Kind] = Field(default_factory=dict)
    lists: dict[str, list[str]] = Field(default_factory=dict)


class PiecesFile(Record):
    """pieces.yaml."""

    pieces: list[Piece]


class TilesFile(Record):
    """tiles.yaml."""

    tiles: list[Tile]


class AliasesFile(Record):
    """aliases.yaml: other spellings, each mapped to the name as printed."""

    aliases: dict[str, str]
