"""The nouns of a game, as typed records read from its YAML: factions, piece kinds, pieces, tiles."""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, model_validator

from .files import folder_name_problem
from .limits import MAX_PIECES, MAX_TEXT, shown
from .slots import template_problem


class Record(BaseModel):
    """A record from a data file. Unknown fields are refused so that a typo never passes silently.

    Types are strict: a strength is a whole number, not "1" or true; a name is text, not 1936.
    `assumed` maps a field of the record to a one-line reason, for values the source does not print.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, str_max_length=MAX_TEXT)

    assumed: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _assumed_fields_exist(self):
        unknown = sorted(set(self.assumed) - set(type(self).model_fields) - {"assumed"})
        if unknown:
            raise ValueError(f"assumed names unknown field(s): {', '.join(unknown)}")
        return self


def _template(text: str) -> str:
    problem = template_problem(text)
    if problem:
        raise ValueError(problem)
    return text


def _folder_name(text: str) -> str:
    problem = folder_name_problem(text)
    if problem:
        raise ValueError(f"{shown(text)} is not a plain folder name: it {problem}")
    return text


# A text with {field} slots filled per record (see templates.py).
Template = Annotated[str, AfterValidator(_template)]
# A name that becomes a folder or a file's name (the game's output folder, a layout preset).
FolderName = Annotated[str, AfterValidator(_folder_name)]


class Faction(Record):
    """A side in the game (a nation, a colour, a team)."""

    id: str
    name: str
    code: Optional[str] = None
    symbol: Optional[str] = None


class FaceTemplate(Record):
    """What one face of a piece kind shows; texts are templates such as "{name}" filled per piece.

    `art` names a picture file in the game folder (SVG or PNG; a template, so "art/{name}.svg"
    gives each piece its own); `icons` shows the piece's icons in a row. `colour_by` picks another
    colour by one of the piece's fields, as the field prints: `{games: {long: chit-long}}` prints
    the pieces whose `games` reads "long" in the layout's colour `chit-long`.
    """

    title: Optional[Template] = None
    value: Optional[Template] = None
    text: Optional[Template] = None
    symbol: Optional[Template] = None
    art: Optional[str] = None
    icons: bool = False
    colour: str = "neutral"
    colour_by: dict[str, dict[str, str]] = Field(default_factory=dict)
    blank: bool = False

    def colours(self) -> list[str]:
        """Every colour this face may print in besides a NATION one: its own and each `colour_by` colour."""
        return [self.colour, *(c for choices in self.colour_by.values() for c in choices.values())]


class Kind(Record):
    """A kind of piece: its size on the sheet, how copies are told apart, and its two faces.

    `hidden`: the game keeps these pieces face down, seen only by their owner (online tables mask
    them to every other side); `drawn`: players draw them at random from a shuffled pile or cup.
    """

    label: str
    size: str
    unique_by: list[str] = Field(default_factory=list)
    front: Optional[FaceTemplate] = None
    back: FaceTemplate = Field(default_factory=lambda: FaceTemplate(blank=True))
    hidden: bool = False
    drawn: bool = False


class Die(Record):
    """A die the game rolls: `sides` numbered faces, or the pictures or words of `faces` in order."""

    name: str
    sides: int = Field(default=6, ge=2, le=100)
    count: int = Field(default=1, ge=1, le=20)
    faces: list[str] = Field(default_factory=list)


class Piece(Record):
    """One entry of the roster; `count` copies of it are printed."""

    kind: str
    name: str
    nation: Optional[str] = None
    count: int = Field(default=1, ge=1, le=MAX_PIECES)
    strength: Optional[int] = Field(default=None, ge=0)
    value: Optional[int] = Field(default=None, ge=0)
    cost: Optional[str] = None
    games: Optional[list[str]] = None
    symbol: Optional[str] = None
    bonus: Optional[int] = Field(default=None, ge=0)
    text: Optional[str] = None
    art: Optional[str] = None
    icons: Optional[list[str]] = None


class Award(Record):
    """One printed award group on an Event Tile: "2c: Paris, Moscow"; `kind` is one the game declares."""

    amount: int = Field(ge=1)
    kind: str
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
    art: Optional[str] = None


class PieceField(Record):
    """A field a game's pieces carry beyond the generic ones (a flag one piece of each side has): its type, its
    value when a piece leaves it out, and how listings head it."""

    type: Literal["bool", "int", "text"]
    default: Optional[Union[bool, int, str]] = None
    label: Optional[str] = None

    @model_validator(mode="after")
    def _default_has_the_type(self):
        if self.default is not None and not isinstance(self.default, FIELD_TYPES[self.type]) \
                or (self.type == "int" and isinstance(self.default, bool)):
            raise ValueError(f"default {self.default!r} is not a {self.type}")
        return self


FIELD_TYPES: dict[str, type] = {"bool": bool, "int": int, "text": str}


class AwardKind(Record):
    """A kind of award the game's Event Tiles give, by the sign printed after the amount ("c")."""

    name: str


class GameInfo(Record):
    """game.yaml: the game's identity, its factions and the kinds of piece it is made of.

    `lists` names groups of kinds a player looks up together (`dossier list NAME`);
    `piece_fields` and `award_kinds` declare what the game's pieces and tiles carry beyond
    the fields every game has.
    """

    name: FolderName
    title: str
    publisher: Optional[str] = None
    published: Optional[int] = None
    layout: FolderName = "default"
    years: list[int] = Field(default_factory=list)
    variants: list[str] = Field(default_factory=list)
    sheet_total: Optional[int] = Field(default=None, ge=1, le=MAX_PIECES)
    sheet_total_note: Optional[str] = None
    factions: list[Faction] = Field(default_factory=list)
    tile_pool: Optional[str] = None
    kinds: dict[str, Kind] = Field(default_factory=dict)
    lists: dict[str, list[str]] = Field(default_factory=dict)
    piece_fields: dict[str, PieceField] = Field(default_factory=dict)
    award_kinds: dict[str, AwardKind] = Field(default_factory=dict)
    dice: list[Die] = Field(default_factory=list)

    @model_validator(mode="after")
    def _piece_fields_are_new(self):
        taken = sorted(set(self.piece_fields) & set(Piece.model_fields))
        if taken:
            raise ValueError(f"piece_fields: {', '.join(taken)} is a field every piece already has")
        return self


class PiecesFile(Record):
    """pieces.yaml."""

    pieces: list[Piece]


class TilesFile(Record):
    """tiles.yaml."""

    tiles: list[Tile]


class AliasesFile(Record):
    """aliases.yaml: other spellings, each mapped to the name as printed."""

    aliases: dict[str, str]


def roster_schema(info: GameInfo) -> type[PiecesFile]:
    """pieces.yaml's record for this game: Piece with the fields game.yaml declares."""
    if not info.piece_fields:
        return PiecesFile
    extra: dict = {name: (Optional[FIELD_TYPES[spec.type]], spec.default) for name, spec in info.piece_fields.items()}
    piece = create_model("Piece", __base__=Piece, **extra)
    return create_model("PiecesFile", __base__=PiecesFile, pieces=(list[piece], ...))


def tiles_schema(info: GameInfo) -> type[TilesFile]:
    """tiles.yaml's record for this game: awards of the kinds game.yaml declares (any sign when it declares none)."""
    if not info.award_kinds:
        return TilesFile
    award = create_model("Award", __base__=Award, kind=(Literal[tuple(info.award_kinds)], ...))
    tile = create_model("Tile", __base__=Tile, awards=(list[award], Field(default_factory=list)))
    return create_model("TilesFile", __base__=TilesFile, tiles=(list[tile], ...))
