"""A game's playing aids as data: the tracks, records, boxes, tables and lists printed on its map
(map.yaml `aids:`) and on its display (display.yaml), drawn by generic code from this description.

Each aid has a title, the rules it rests on (`cite`), an optional note, and one kind:
- track: a row of numbered (or named) boxes a marker moves along, `per_row` to a row; `marks`
  prints texts in given boxes (a faction id prints the faction's name in its colour);
- record: a grid of boxes, one row per entry of `rows` (faction ids or words) and one column per
  entry of `columns`; `values` prints a text in every box of a column (e.g. a victory multiple),
  `marker_row` adds a row of boxes on top for a marker (e.g. the Game Year), each box named by its
  column, `write_in` leaves
  room in each box to write the real value;
- box: one box that holds pieces, `holds` counters in size, with a line saying what goes in it;
- table: columns of texts; the rows are `rows` (written out) or the game's records (`from`),
  each column filling a template from them or left blank to write in; or `table` names one of the
  game's reference tables (tables.yaml), printed with one line naming what of it the source does not print;
- list: lines of text, written out or made from the game's records or a card's section, each
  with a ruled line to write on when `write_in`;
- dice: the table of which city two dice pick, made from the map's `dice`, `regions` and each city's
  `number` (one row per region, one column per face of the city die);
- slots: places to lay cards on the board, one per entry of `slots` (a label and whether the card lies
  face up or down), each the size of the layout size `card` names (the layout's `card` unless given),
  `per_row` to a row;
- setup: the game's set-up as printed on the board it lies on: a line for each of the board's places that
  pieces start on (pieces.yaml `start`), saying what starts there, then the lines of `items` for what
  starts off the board (money in hand, say).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, model_validator

from .card_models import Derivation
from .limits import MAX_AID_ENTRIES, MAX_AIDS, MAX_BOARD_SPACES
from .models import Record

Label = Union[int, str]


class Place(Record):
    """A latitude and longitude: where on the map an aid would like to sit."""

    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class Cells(Record):
    """Numbered boxes from `first` to `last` (counting down when `last` is smaller)."""

    first: int
    last: int

    def labels(self) -> list[int]:
        step = 1 if self.last >= self.first else -1
        return list(range(self.first, self.last + step, step))


class Column(Record):
    """A table column: its heading and the text of each row (a template filled from the row's record),
    or `variant: true` to name the game variant(s) a row holds for, or nothing to leave a line to write on."""

    heading: str
    text: Optional[str] = None
    variant: bool = False


class CardSection(Record):
    """A section of one of the game's reference cards, by card id and heading."""

    card: str
    section: str


class Slot(Record):
    """A place on the board for one card (or a pile): its label and whether the card lies face up or down."""

    label: str = Field(min_length=1)
    face: Literal["up", "down"] = "up"


class Aid(Record):
    """One track, record, box, table or list (see the module's docstring)."""

    id: str = Field(min_length=1)
    kind: Literal["track", "record", "box", "table", "list", "dice", "slots", "setup"]
    title: Optional[str] = Field(default=None, min_length=1)  # a reference table's own title when it names one
    cite: Optional[str] = None
    note: Optional[str] = None
    near: Optional[Place] = None
    span: int = Field(default=1, ge=1, le=2)
    # track
    cells: Union[Cells, Annotated[list[Label], Field(max_length=MAX_AID_ENTRIES)], None] = None
    per_row: Optional[int] = Field(default=None, ge=1)
    marks: dict[Label, list[str]] = Field(default_factory=dict, max_length=MAX_AID_ENTRIES)
    # record
    rows: Optional[list[Union[str, list[str]]]] = Field(default=None, max_length=MAX_AID_ENTRIES)
    columns: Optional[list[Union[Label, Column]]] = Field(default=None, max_length=MAX_AID_ENTRIES)
    values: dict[Label, str] = Field(default_factory=dict, max_length=MAX_AID_ENTRIES)
    marker_row: Optional[str] = None
    write_in: bool = False
    write_in_lines: int = Field(default=1, ge=1, le=6)
    # box
    holds: int = Field(default=4, ge=1, le=MAX_AID_ENTRIES)
    text: Optional[str] = None
    # table, list
    from_: Optional[Derivation] = Field(default=None, alias="from")
    from_card: Optional[CardSection] = None
    items: list[str] = Field(default_factory=list, max_length=MAX_AID_ENTRIES)
    table: Optional[str] = Field(default=None, min_length=1)
    # slots
    slots: list[Slot] = Field(default_factory=list, max_length=MAX_AID_ENTRIES)
    card: str = "card"

    model_config = {"populate_by_name": True}

    @model_validator(mode="after")
    def _has_what_its_kind_needs(self):
        if self.table is not None:
            if self.kind != "table" or self.columns is not None or self.rows is not None or self.from_ is not None:
                raise ValueError("an aid naming a reference table (table) is a table and takes its columns and rows from it")
            return self
        if self.title is None:
            raise ValueError("an aid needs a title")
        if isinstance(self.cells, Cells) and abs(self.cells.last - self.cells.first) + 1 > MAX_AID_ENTRIES:
            raise ValueError(f"cells: {abs(self.cells.last - self.cells.first) + 1:,} boxes from {self.cells.first:,} to "
                             f"{self.cells.last:,}; at most {MAX_AID_ENTRIES:,} are allowed here")
        needs = {"track": ("cells",), "record": ("rows", "columns"), "table": ("columns",)}
        missing = [name for name in needs.get(self.kind, ()) if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.kind} needs {' and '.join(missing)}")
        if self.kind == "table" and self.rows is None and self.from_ is None:
            raise ValueError("a table needs rows or from")
        if self.kind == "list" and not (self.items or self.from_ or self.from_card):
            raise ValueError("a list needs items, from or from_card")
        if self.kind == "slots" and not self.slots:
            raise ValueError("slots need at least one slot")
        return self

    def cell_labels(self) -> list[Label]:
        """A track's boxes, in order."""
        return self.cells.labels() if isinstance(self.cells, Cells) else list(self.cells or [])

    def room_names(self, names: dict[str, str]) -> list[str]:
        """The names of the places a piece is laid on in this aid, in the order it lays them out: a box's title,
        each card place's label, each box of a track ("Bank Track 50": the title before any colon, then the box as
        printed, a faction id by its name from `names`), each box of a record ("Game Year 1933", "Germany 1933")."""
        short = (self.title or "").split(":")[0].strip()
        if self.kind == "box":
            return [self.title] if self.title else []
        if self.kind == "slots":
            return [slot.label for slot in self.slots]
        if self.kind == "track":
            return [f"{short} {names.get(str(label), label)}" for label in self.cell_labels()]
        if self.kind == "record":
            columns = [str(col.heading if isinstance(col, Column) else col) for col in self.columns or []]
            rows = ([self.marker_row] if self.marker_row else []) + [names.get(str(r), str(r)) for r in self.rows or []]
            return [f"{row} {col}" for row in rows for col in columns]
        return []


class Sheet(Record):
    """The paper a display is printed on (a layout paper name) and how many columns its aids flow in."""

    paper: str = "tabloid"
    columns: int = Field(default=2, ge=1, le=4)


class DisplayFile(Record):
    """display.yaml: a sheet of playing aids beside the map (tracks, summaries, tables)."""

    title: str = Field(min_length=1)
    note: Optional[str] = None
    sheet: Sheet = Field(default_factory=Sheet)
    aids: list[Aid] = Field(min_length=1, max_length=MAX_AIDS)


class SpaceKind(Record):
    """A kind of space on a track board: the legend's wording, a word printed in each such space (`mark`), the
    layout colour it is printed in, and the rule it comes from."""

    legend: str = Field(min_length=1)
    mark: Optional[str] = Field(default=None, min_length=1)
    colour: Optional[str] = None
    cite: Optional[str] = None


class Space(Record):
    """One space of a track, in the track's order: its id (printed in it unless it has a `name`), its kind (one
    of the board's `kinds`, or a plain space), the faction it belongs to (`owner`, e.g. a home space) and whether
    the board puts it on a corner."""

    id: str = Field(min_length=1)
    kind: Optional[str] = None
    name: Optional[str] = Field(default=None, min_length=1)
    owner: Optional[str] = None
    corner: bool = False

    @property
    def label(self) -> str:
        return self.name or self.id


class TrackBoard(Record):
    """A board of spaces in order (see BoardsFile). `loop`: the last space leads back to the first. `directions`
    gives each faction's way along the order (forward or backward), printed as arrows in its colour. The spaces
    are laid round the board's edge, the `corner` spaces on its four corners; `middle` aids sit inside the track,
    `border` aids along its inner edge, `below` aids under the track beside the legend (the set-up, say). `space`
    names the layout size of one space."""

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    variant: Optional[str] = None
    note: Optional[str] = None
    loop: bool = True
    space: str = "space"
    kinds: dict[str, SpaceKind] = Field(default_factory=dict)
    directions: dict[str, Literal["forward", "backward"]] = Field(default_factory=dict)
    spaces: list[Space] = Field(min_length=2, max_length=MAX_BOARD_SPACES)
    middle: list[Aid] = Field(default_factory=list, max_length=MAX_AIDS)
    border: list[Aid] = Field(default_factory=list, max_length=MAX_AIDS)
    below: list[Aid] = Field(default_factory=list, max_length=MAX_AIDS)
    cite: dict[str, str] = Field(default_factory=dict)

    @property
    def aids(self) -> list[Aid]:
        """Every aid on the board: in the middle, along the border, below the track."""
        return self.middle + self.border + self.below

    def space_of(self, space_id: str) -> Space:
        """The space with id `space_id`; KeyError when there is none."""
        for space in self.spaces:
            if space.id == space_id:
                return space
        raise KeyError(space_id)


class BoardsFile(Record):
    """boards.yaml: a game's track boards (spaces in order, their kinds, each side's direction, what lies in the
    middle and along the border), one per variant or table size."""

    boards: list[TrackBoard] = Field(min_length=1)
