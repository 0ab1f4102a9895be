"""The nouns of a game, as typed records read from its YAML: factions, piece kinds, pieces, tiles of a declared kind."""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, model_validator

from .files import folder_name_problem
from .limits import MAX_PIECES, MAX_TEXT, shown
from .slots import slots, template_problem


ASSUMED_MARK = "*"  # printed after a value or a reading the source does not give (a record's `assumed`)


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
    gives each piece its own); `icons` shows the piece's marks and icons in a row (marks as solid
    tabs, so a game's kinds of symbol read apart), with `legend` each with its name from the game's
    `symbol_names` under it. `corner` is a text set in a ring in the face's top-right corner (a cost);
    a piece without a value for it gets the empty ring to write in on a `write_in` face, and no ring on any other
    (a moving card's spaces, say, where only some cards have them). `write_in` rules the room left
    under the text for players to write on. `fold`: the piece folds in half across its height (a folder to
    hide a slip in): the face's parts are set in its upper half and a dashed fold line crosses its middle. `colour_by` picks another
    colour by one of the piece's fields, as the field prints: `{games: {long: chit-long}}` prints
    the pieces whose `games` reads "long" in the layout's colour `chit-long`.
    """

    title: Optional[Template] = None
    value: Optional[Template] = None
    text: Optional[Template] = None
    symbol: Optional[Template] = None
    art: Optional[str] = None
    icons: bool = False
    legend: bool = False
    corner: Optional[Template] = None
    write_in: bool = False
    fold: bool = False
    colour: str = "neutral"
    colour_by: dict[str, dict[str, str]] = Field(default_factory=dict)
    blank: bool = False

    def colours(self) -> list[str]:
        """Every colour this face may print in besides a NATION one: its own and each `colour_by` colour."""
        return [self.colour, *(c for choices in self.colour_by.values() for c in choices.values())]


class Kind(Record):
    """A kind of piece: its size on the sheet, how copies are told apart, and its two faces.

    `hidden`: the game keeps these pieces face down, seen only by their owner (online tables mask
    them to every other side); `drawn`: players draw them at random from a shuffled pile or cup; `note`: a
    short line for the table that the caption of each sheet holding them carries (how to make them up, or a
    reading they rest on, marked with ASSUMED_MARK); `own_sheets`: they print on sheets that hold nothing else,
    so a sheet can be printed again for more of them (blank cards to write on).
    """

    label: str
    size: str
    unique_by: list[str] = Field(default_factory=list)
    front: Optional[FaceTemplate] = None
    back: FaceTemplate = Field(default_factory=lambda: FaceTemplate(blank=True))
    hidden: bool = False
    drawn: bool = False
    note: Optional[str] = Field(default=None, min_length=1, max_length=100)
    own_sheets: bool = False


class Die(Record):
    """A die the game rolls: `sides` numbered faces, or the pictures or words of `faces` in order."""

    name: str
    sides: int = Field(default=6, ge=2, le=100)
    count: int = Field(default=1, ge=1, le=20)
    faces: list[str] = Field(default_factory=list)


class Piece(Record):
    """One entry of the roster; `count` copies of it are printed. `start`: where the copies stand when a game
    begins, on the game's boards (a city, a sea zone, a track space, a box or a card place, named as printed):
    one place for every copy, or a list of places, one a copy in order (copies left over start off the boards)."""

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
    marks: Optional[list[str]] = None
    start: Optional[Union[str, list[str]]] = None

    @property
    def starts(self) -> tuple[str, ...]:
        """The place each copy starts on, in order, as far as `start` gives them."""
        if self.start is None:
            return ()
        return (self.start,) * self.count if isinstance(self.start, str) else tuple(self.start)


class Tile(Record):
    """A tile of tiles.yaml: its id as printed and its picture; every other field is one the game declares
    under `tiles.fields` in game.yaml (see tiles_schema)."""

    id: str
    art: Optional[str] = None


TILE_TYPES = ("bool", "int", "text", "faction", "ints", "texts", "list")


class TileField(Record):
    """A field every tile of the game carries beyond `id` and `art`, declared in game.yaml's `tiles.fields`.

    `type`: bool, int, text, faction (a faction id), ints and texts (lists), or list (entries with their own
    `fields`). A field is required unless it is `optional` or has a `default`; a required list holds at least
    one value. The limits the values keep: `unique` (no two tiles share it), `min`/`max` (ints), `ordered`
    (in order without repeats), `distinct` (no value twice), `choices` (the only values a text may take, each
    with the name players know it by), `cities` (each text names a city of the game's map). How the tile
    prints it: `mark` (what a true bool prints), `all` (what a list of ints prints when it holds every value
    from `min` to `max`; other lists print as runs, "1936–38, 1940"), `shown` (how each entry of a list
    prints, a template over its fields).
    """

    type: Literal[TILE_TYPES]
    optional: bool = False
    default: Optional[Union[bool, int, str]] = None
    label: Optional[str] = None
    unique: bool = False
    min: Optional[int] = None
    max: Optional[int] = None
    ordered: bool = False
    distinct: bool = False
    choices: dict[str, str] = Field(default_factory=dict)
    cities: bool = False
    mark: Optional[str] = None
    all: Optional[str] = None
    shown: Optional[Template] = None
    fields: dict[str, "TileField"] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _fits_its_type(self):
        allowed = {"bool": {"mark", "default"}, "int": {"min", "max", "unique", "default"},
                   "text": {"choices", "unique", "default"}, "faction": set(),
                   "ints": {"min", "max", "ordered", "distinct", "all"}, "texts": {"ordered", "distinct", "cities"},
                   "list": {"fields", "shown"}}[self.type]
        given = {name for name in ("default", "unique", "min", "max", "ordered", "distinct", "choices", "cities",
                                   "mark", "all", "shown", "fields") if name in self.model_fields_set}
        wrong = sorted(given - allowed)
        if wrong:
            raise ValueError(f"{', '.join(wrong)} does not apply to a field of type {self.type}")
        if self.type == "list" and not self.fields:
            raise ValueError("a list names the fields of its entries under `fields`")
        if self.default is not None and not isinstance(self.default, FIELD_TYPES[self.type]):
            raise ValueError(f"default {self.default!r} is not a {self.type}")
        if self.all is not None and (self.min is None or self.max is None):
            raise ValueError("`all` needs the `min` and `max` a list holding every value runs between")
        if self.shown is not None:
            unknown = sorted(set(slots(self.shown)) - set(self.fields))
            if unknown:
                raise ValueError(f"shown names {', '.join(unknown)}, which no entry has (fields: {', '.join(self.fields)})")
        return self

    @property
    def required(self) -> bool:
        return not self.optional and self.default is None


class TileFront(Record):
    """What a tile's front prints: `band` (the texts of its head band: the first and the last in bold at the
    left and the right, any between in regular after the first), the band's `colour` (a layout colour name),
    `text` (the body's bold heading) and `entries` (a list field, each entry printed as its `shown`, in bold
    up to its first space). Where a value may be missing, `colour` lists templates and the first whose
    slots are all filled is taken."""

    band: list[Template] = Field(min_length=1, max_length=3)
    colour: list[Template] = Field(min_length=1)
    text: Optional[Template] = None
    entries: Optional[str] = None


class TileKind(Record):
    """game.yaml `tiles`: what the game's tiles (tiles.yaml) are. `kind` names the kind in `kinds` whose size
    and back they print with; `id` the id each tile must carry, as templates (the first whose slots are all
    filled applies: a tile of no faction takes the next); `group` how exports group them, the same way;
    `columns` the fields `dossier list tiles` shows (all when unset)."""

    kind: str = "tile"
    id: list[Template] = Field(default_factory=list)
    group: list[Template] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    fields: dict[str, TileField] = Field(default_factory=dict)
    front: TileFront

    @model_validator(mode="after")
    def _templates_name_fields(self):
        reserved = sorted(set(self.fields) & set(Tile.model_fields))
        if reserved:
            raise ValueError(f"fields: {', '.join(reserved)} is a field every tile already has")
        known = tile_slots(self.fields)
        named = [*self.id, *self.group, *self.front.band, *self.front.colour, *filter(None, [self.front.text])]
        unknown = sorted({s for template in named for s in slots(template)} - known)
        if unknown:
            raise ValueError(f"{', '.join(unknown)} is no field of a tile (fields: {', '.join(sorted(known))})")
        unlisted = sorted(set(self.columns) - set(self.fields))
        if unlisted:
            raise ValueError(f"columns: {', '.join(unlisted)} is no field of a tile (fields: {', '.join(self.fields)})")
        entries = self.fields.get(self.front.entries) if self.front.entries else None
        if self.front.entries and (entries is None or entries.type != "list" or entries.shown is None):
            raise ValueError(f"front.entries: {self.front.entries!r} is not a list field with `shown`")
        return self


def tile_slots(fields: dict[str, TileField]) -> set[str]:
    """The slots a tile template may fill: id, each field, and a faction field's `_id`, `_code` and CAPITALS."""
    names = {"id"} | set(fields)
    for name, spec in fields.items():
        if spec.type == "faction":
            names |= {f"{name}_id", f"{name}_code", name.upper()}
    return names


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


class GameInfo(Record):
    """game.yaml: the game's identity, its factions and the kinds of piece it is made of.

    `lists` names groups of kinds a player looks up together (`dossier list NAME`);
    `piece_fields` declares what the game's pieces carry beyond the fields every game has, and
    `tiles` what its tiles are; `symbol_names` what each symbol means in this game, printed under it
    where a face shows a legend.
    """

    name: FolderName
    title: str
    short_title: Optional[str] = None  # what a sheet's heading calls the game when `title` is a sentence long
    publisher: Optional[str] = None
    published: Optional[int] = None
    layout: FolderName = "default"
    years: list[int] = Field(default_factory=list)
    variants: list[str] = Field(default_factory=list)
    sheet_total: Optional[int] = Field(default=None, ge=1, le=MAX_PIECES)
    sheet_total_note: Optional[str] = None
    factions: list[Faction] = Field(default_factory=list)
    kinds: dict[str, Kind] = Field(default_factory=dict)
    lists: dict[str, list[str]] = Field(default_factory=dict)
    piece_fields: dict[str, PieceField] = Field(default_factory=dict)
    tiles: Optional[TileKind] = None
    dice: list[Die] = Field(default_factory=list)
    symbol_names: dict[str, str] = Field(default_factory=dict)

    @property
    def heading(self) -> str:
        """What a sheet's heading calls the game: its short title, else its title."""
        return self.short_title or self.title

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


class UndeclaredTile(Tile):
    """A tile of a game whose game.yaml declares no `tiles`: read only to be refused for that (checks.py)."""

    model_config = ConfigDict(extra="allow")


def tiles_schema(info: GameInfo) -> type[TilesFile]:
    """tiles.yaml's record for this game: Tile with the fields game.yaml's `tiles` declares."""
    if info.tiles is None:
        return create_model("TilesFile", __base__=TilesFile, tiles=(list[UndeclaredTile], ...))
    tile = _tile_model("Tile", Tile, info.tiles.fields)
    return create_model("TilesFile", __base__=TilesFile, tiles=(list[tile], ...))


def _tile_model(name: str, base: type[Record], fields: dict[str, TileField]) -> type[Record]:
    extra = {field: _tile_field(field, spec) for field, spec in fields.items()}
    model = create_model(name, __base__=base, **extra)
    model.FACTION_FIELDS = tuple(f for f, spec in fields.items() if spec.type == "faction")
    return model


def _tile_field(name: str, spec: TileField) -> tuple:
    if spec.type == "list":
        kind = list[_tile_model(name.capitalize(), Record, spec.fields)]
    elif spec.type == "text" and spec.choices:
        kind = Literal[tuple(spec.choices)]
    else:
        kind = {"bool": bool, "int": int, "text": str, "faction": str, "ints": list[int], "texts": list[str]}[spec.type]
    limits = {"ge": spec.min, "le": spec.max} if spec.type == "int" else {}
    limits = {k: v for k, v in limits.items() if v is not None}
    listed = spec.type in ("ints", "texts", "list")
    if spec.required:
        return kind, Field(min_length=1, **limits) if listed else Field(**limits)
    if listed:
        return kind, Field(default_factory=list)
    return Optional[kind], Field(default=spec.default, **limits)
