"""Layout presets: paper, piece and card sizes, margins, bleed, colours, read from YAML a designer edits.

A preset may `extends:` another; values merge key by key, the child winning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from . import paths
from .errors import DataError, OptionError, Problem, UnknownNameError
from .names import NameIndex
from .schema_errors import COLOUR_PATTERN, problems_from_validation
from .units import parse_length, pt_to_mm
from .yamlio import read_yaml


def _mm(value: Any) -> float:
    try:
        return parse_length(value, None)
    except OptionError as exc:
        raise ValueError(str(exc)) from None


def _pt(value: Any) -> float:
    return _mm(value) / pt_to_mm(1)


Pt = Annotated[float, BeforeValidator(_pt)]
PositiveMm = Annotated[float, BeforeValidator(_mm), Field(gt=0)]
UnsignedMm = Annotated[float, BeforeValidator(_mm), Field(ge=0)]
PositivePt = Annotated[float, BeforeValidator(_pt), Field(gt=0)]
UnsignedPt = Annotated[float, BeforeValidator(_pt), Field(ge=0)]
PositiveFloat = Annotated[float, Field(gt=0)]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    assumed: dict[str, str] = Field(default_factory=dict)


class Size(_Part):
    """Width and height in millimetres; `safe_zone` overrides the layout's for pieces of this size, and
    `back_safe_zone` for their backs (a duplex printer's shift moves a back against its cut: what a back
    must show whole, a hidden number, keeps this far in); `bleed` carries each piece's own colours that far
    past its cut, the pieces standing twice that apart, so a shifted back or cut shows no neighbour's colour
    (the layout's or the command line's `bleed` where that is more)."""

    width: PositiveMm
    height: PositiveMm
    safe_zone: Optional[UnsignedMm] = None
    back_safe_zone: Optional[UnsignedMm] = None
    bleed: Optional[UnsignedMm] = None


def luminance(colour: str) -> float:
    """The relative luminance (WCAG 2) of a #rrggbb colour."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """The WCAG contrast ratio of two #rrggbb colours, from 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


class Colour(_Part):
    """A fill and the ink that reads on it; `edge` rings the face in a second colour (two-colour
    pieces), `edge_width` its width (mm; unset: a share of the safe zone). `backs: outline` prints a back in this colour as its texts in the colour on white paper,
    with nothing near the cut, which uses little ink and hides the duplex misregistration a solid
    dark back (or a frame inside its edge) shows; `auto` (the default) does so for near-black fills only.
    `backs: edge` prints a two-colour piece's back solid in its `edge` colour, with no frame inside the cut,
    its texts in black or white, whichever reads better on it: the back's colour is the front's ring.
    `backs: inset` prints a back's fill as a panel the back's safe zone inside the cut, white paper around it: a dark
    back that must look alike in its pile under a duplex shift, as no shift up to that width carries its colour onto a
    neighbour or leaves a sliver of paper on it.
    `means`: what a piece whose front is in this colour is at the table ("ringed in red: Long Game only"), which
    the caption of each sheet holding one says."""

    fill: str = Field(pattern=COLOUR_PATTERN)
    ink: str = Field(default="#000000", pattern=COLOUR_PATTERN)
    edge: Optional[str] = Field(default=None, pattern=COLOUR_PATTERN)
    edge_width: Optional[PositiveMm] = None
    backs: Literal["auto", "solid", "outline", "edge", "inset"] = "auto"
    means: Optional[str] = Field(default=None, min_length=1, max_length=80)

    @property
    def edge_ink(self) -> str:
        """Black or white, whichever has the more contrast (WCAG) against the `edge` colour."""
        return "#000000" if contrast(self.edge or self.fill, "#000000") >= contrast(self.edge or self.fill, "#ffffff") \
            else "#ffffff"

    @property
    def is_outline_back(self) -> bool:
        """True when a back in this colour prints as an outline."""
        if self.backs != "auto":
            return self.backs == "outline"
        red, green, blue = (int(self.fill[i:i + 2], 16) for i in (1, 3, 5))
        return max(red, green, blue) < 0x30


class CropMarks(_Part):
    length: UnsignedMm = 4.0
    offset: UnsignedMm = 1.0
    width: Pt = 0.25


class Line(_Part):
    width: Pt = 0.25
    colour: str = Field(default="#7f7f7f", pattern=COLOUR_PATTERN)


class Fonts(_Part):
    """TrueType files: `regular` and `bold` for the map and notices, the condensed pair for pieces,
    tiles, cards and the player aid (names fit small pieces without shrinking)."""

    regular: str = "Vera.ttf"
    bold: str = "VeraBd.ttf"
    condensed: str = "fonts/FiraSansCondensed-Regular.ttf"
    condensed_bold: str = "fonts/FiraSansCondensed-Bold.ttf"


class PieceText(_Part):
    """The largest size (pt) each part of a piece face may grow to; large pieces (cards, mats) stay readable
    rather than shouting."""

    title: PositivePt = 16.0
    value: PositivePt = 20.0
    text: PositivePt = 11.0


class FaceShares(_Part):
    """The share of a piece face's height each part starts with, before the layout search moves them
    (a part too long for its share takes more of the face)."""

    title: PositiveFloat = 1.0
    picture: PositiveFloat = 1.4
    text: PositiveFloat = 1.2
    value: PositiveFloat = 1.0


class FaceEmphasis(_Part):
    """How large each text role of a piece face should read against the title: the arrangement whose
    smallest role, so weighed, is largest wins; `picture` weighs a picture's side (pt) the same way."""

    title: PositiveFloat = 1.0
    text: PositiveFloat = 0.8
    value: PositiveFloat = 1.4
    picture: PositiveFloat = 2.0


class Faces(_Part):
    """How piece faces are arranged (see FaceShares and FaceEmphasis). With `diagonal_backs`, a kind
    whose backs hold only a title too long to reach, set level, the one size its sheet's backs share
    is set along the face's rising diagonal, like a rubber stamp (on a square the diagonal is 1.41
    times the side); the other backs stay level."""

    shares: FaceShares = Field(default_factory=FaceShares)
    emphasis: FaceEmphasis = Field(default_factory=FaceEmphasis)
    diagonal_backs: bool = False


class Caption(_Part):
    """The line above each cut sheet (what it holds, its sizes, the sheet's number and how to print it)."""

    size: PositivePt = 7.0
    colour: str = Field(default="#4d4d4d", pattern=r"^#[0-9a-fA-F]{6}$")


class MinText(_Part):
    piece: PositivePt = 5.0
    tile: PositivePt = 5.0
    card: PositivePt = 6.0


class CardStyle(_Part):
    """How reference cards and the player aid are set: padding inside a card, the largest sizes
    text starts at before shrinking (down to min_text_size.card), and the player aid's columns. The
    aid's body is the largest size from `aid_max_text` down to `aid_min_text` at which it fits one side
    (else two), so an aid with little to say fills its page rather than a corner of it."""

    padding: UnsignedMm = 2.5
    title_size: PositivePt = 9.0
    text_size: PositivePt = 8.0
    aid_text_size: PositivePt = 9.0
    aid_columns: int = Field(default=3, ge=1)
    aid_gap: UnsignedMm = 5.0
    aid_min_text: PositivePt = 7.5
    aid_max_text: Optional[PositivePt] = None  # None: aid_text_size
    aid_copies: int = Field(default=1, ge=1, le=4)  # copies of the aid stacked on its sheet, to cut apart


Copies = Annotated[int, Field(ge=1, le=50)] | Literal["fill"]


class ProductCopies(_Part):
    """How many copies of its set a product prints: a number, or `fill`, as many whole sets as the
    sheets one set needs hold (a reference card for each player, spare markers), so a small set does
    not leave its sheet all but blank. The sheet's caption says how many, and why when `why` says
    (by product: "one for each power and a spare")."""

    cards: Copies = 1
    counters: Copies = 1
    why: dict[Literal["cards", "counters"], str] = Field(default_factory=dict)


class TileStyle(_Part):
    """How tiles are set: padding inside the cut line, the share of the tile's height the head
    band takes, the gap between the band's texts, and the largest size the heading and entries
    start at before shrinking (down to min_text_size.tile). Every tile
    of a sheet shares one band size and one body size; a tile's picture takes `picture` of the
    body's width, on the right. `gutter` keeps tiles apart on their sheet, each tile's colours carried
    half way into it, so a cut a little off the line leaves no sliver of the neighbour's band; the
    event's `headline` is set that many times the size of the entries below it."""

    padding: UnsignedMm = 1.0
    band: float = Field(default=0.2, gt=0, lt=1)
    gap: UnsignedMm = 1.5
    text_size: PositivePt = 8.0
    picture: float = Field(default=0.3, gt=0, lt=1)
    gutter: UnsignedMm = 0.0
    headline: float = Field(default=1.0, ge=1, le=2)


class PosterLines(_Part):
    """The widths (pt) of the poster's lines: rail and air lines, sea lanes, the borders between countries,
    round a power's home territory and between sea zones, the leader from a name set apart to its place, and
    the rules across the sea (where `sea_rule` asks for them); `rail_casing` and `air_casing`, the paper-coloured
    edge each side of a rail or air line, so the line reads across land of any colour, dark land too (0: none)."""

    rail: PositivePt = 1.7
    air: PositivePt = 1.1
    lane: PositivePt = 1.2
    country: PositivePt = 0.5
    power: PositivePt = 1.6
    zone: PositivePt = 0.8
    leader: PositivePt = 0.6
    sea: PositivePt = 0.35
    rail_casing: UnsignedPt = 0.0
    air_casing: UnsignedPt = 0.0


class PosterDashes(_Part):
    """The dashes (on, off in mm) of the poster's air lines, sea lanes, borders between sea zones and the leaders
    from a name set apart to its place (dotted, so a leader never reads as a rail line)."""

    air: tuple[PositiveMm, PositiveMm] = (3.2, 1.8)
    lane: tuple[PositiveMm, PositiveMm] = (0.7, 1.3)
    zone: tuple[PositiveMm, PositiveMm] = (2.5, 1.5)
    leader: tuple[PositiveMm, PositiveMm] = (0.6, 0.45)


class PosterStyle(_Part):
    """The map poster's named boxes and sizes (mm; type in pt), which a game's preset may override: the
    paper and its margin, the title band above the map, the frame's border of grid letters and the grid's
    squares, a city's space and the least paper between two spaces, the key's strip beside the map (0: the
    key goes below it; then `key_height` is the least room kept for it under the map), and how much wider
    than true the map is drawn (`stretch`, to fill the frame); the marks on a space (a port's ring and the
    paper-coloured edge round it, so it reads on dark land; the water round a port kept its own sea zone's, a mark's badge and its letter), a city name's line as a
    share of its size (room for its tags below) and the halo round names, how far a map region's name keeps
    inside its own land, the narrowest column of the
    index of places, the grid the aids' corners sit on and how near two aids' edges come before they are
    lined up, the legend's rows, the spaces and swatches drawn in it and the gap before its text, the paper
    beside a mark's tag, and the lines and their dashes; `tint`, the share of a power's or a region's colour in
    its land's fill (the rest white), where no `map-<power>` colour names the land's own; `sea_rule`, the
    distance between level rules drawn across the sea in the `map-sea-rule` colour (0: a plain sea), so that
    sea and land stay apart where both print as light greys; `country_size`, the size the name of each country
    holding a city is set in, in capitals on its own land where it finds room clear of the rest (0: no names);
    `aid_type`, the type of the tables and lists printed on the map (and the room round it) as a multiple of their
    usual size, for a board read across the table."""

    paper: str = "poster-22x34"
    landscape: bool = False
    tint: float = Field(default=0.6, gt=0, le=1)
    sea_rule: UnsignedMm = 0.0
    margin: UnsignedMm = 12.7
    title_band: UnsignedMm = 30.0
    border: UnsignedMm = 7.0
    frame_pad: UnsignedMm = 14.0
    grid_cell: PositiveMm = 45.0
    space: PositiveMm = 14.0
    space_gap: UnsignedMm = 2.0
    ship: PositiveMm = 10.0
    key_width: UnsignedMm = 0.0
    key_gap: UnsignedMm = 6.0
    key_height: UnsignedMm = 90.0
    stretch: float = Field(default=1.0, ge=0.8, le=1.25)
    aid_width: PositiveMm = 110.0
    aid_gap: UnsignedMm = 6.0
    title_size: PositivePt = 40.0
    subtitle_size: PositivePt = 18.0
    note_size: PositivePt = 9.0
    city_size: PositivePt = 8.0
    capital_size: PositivePt = 9.0
    sea_size: PositivePt = 9.0
    region_size: PositivePt = 12.0
    region_inset: UnsignedMm = 1.0
    country_size: UnsignedPt = 0.0
    tag_size: PositivePt = 6.0
    grid_size: PositivePt = 10.0
    key_size: PositivePt = 8.0
    heading_size: PositivePt = 11.0
    credit_size: PositivePt = 7.0
    aid_type: PositiveFloat = 1.0
    port_ring: UnsignedMm = 0.9
    port_edge: UnsignedPt = 0.0
    port_water: UnsignedMm = 3.0
    badge: PositiveMm = 3.6
    badge_size: PositivePt = 6.5
    name_line: float = Field(default=1.35, ge=1.0, le=3.0)
    halo: UnsignedPt = 1.1
    leader_halo: UnsignedPt = 0.5
    leader_ink: str = Field(default="#3c3c3c", pattern=COLOUR_PATTERN)
    index_column: PositiveMm = 52.0
    aid_grid: PositiveMm = 2.0
    aid_align: UnsignedMm = 6.0
    legend_row: PositiveMm = 7.0
    legend_space: PositiveMm = 6.0
    legend_swatch: PositiveMm = 12.0
    legend_gap: UnsignedMm = 2.0
    tag_pad: UnsignedMm = 1.6
    lines: PosterLines = Field(default_factory=PosterLines)
    dashes: PosterDashes = Field(default_factory=PosterDashes)


class DisplayStyle(_Part):
    """The display's named sizes (type in pt, lengths in mm) and colours (names of the layout's colours), which
    a game's preset may override: one size per role (the sheet's title; notes: the sheet's, its how-to-print
    line and each panel's; each panel's heading, also the numbers in its boxes; the text of tables and lists),
    the gap between panels, a track's boxes (`box_room`: how much larger than a counter a box is at least;
    `box_most`: how large its boxes grow to fill the panel's width), the colour of the panels' title bands and
    frames (`band`: its fill, and its ink for the titles) and of table heads (`tint`: its fill)."""

    title_size: PositivePt = 28.0
    note_size: PositivePt = 9.0
    heading_size: PositivePt = 14.0
    text_size: PositivePt = 10.5
    gap: PositiveMm = 6.0
    box_room: PositiveMm = 1.5
    box_most: PositiveMm = 20.0
    band: str = "display-band"
    tint: str = "display-tint"


class TrackBoardStyle(_Part):
    """A track board's (boards.yaml) named sizes, which a game's preset may override: its aids' type (and the
    room round it) as a multiple of their usual size, a footstep's length as a share of a space and its outline
    (pt), and per side (faction id) the layout colour whose fill draws its footsteps, where the side's own fill
    would not read on the spaces (white on white); a list at least twice `list_column` wide (mm) flows in
    columns at least that wide (0: one column)."""

    aid_type: PositiveFloat = 1.0
    step: PositiveFloat = 0.16
    step_line: PositivePt = 0.8
    step_colours: dict[str, str] = Field(default_factory=dict)
    list_column: UnsignedMm = 0.0


class Layout(_Part):
    """A resolved layout preset (lengths in mm, text sizes in pt).

    `sheet_margin` is the border of cut sheets (counters, tiles, cards; `margin` when unset);
    `safe_zone` how far text and symbols keep from a cut, and `edge_clearance` how far they keep inside the
    ring a two-colour piece's `edge` draws in it; `type` sets a text size per kind and
    role ({spy: {title: 7pt}}) where the largest size that fits every piece would otherwise be used.
    `one_sheet` puts a small game whole on its player aid's sheet: the pieces in a band at its foot to fold,
    so neither a counter sheet nor a card sheet is printed all but blank (both still build when asked by name).
    """

    extends: Optional[str] = None
    paper: str = "letter"
    margin: UnsignedMm = 10.0
    sheet_margin: Optional[UnsignedMm] = None
    safe_zone: UnsignedMm = 1.5
    edge_clearance: UnsignedMm = 0.0
    gutter: UnsignedMm = 0.0
    bleed: UnsignedMm = 0.0
    one_sheet: bool = False
    crop_marks: CropMarks = Field(default_factory=CropMarks)
    cut_line: Line = Field(default_factory=Line)
    fonts: Fonts = Field(default_factory=Fonts)
    min_text_size: MinText = Field(default_factory=MinText)
    max_piece_text: PieceText = Field(default_factory=PieceText)
    faces: Faces = Field(default_factory=Faces)
    caption: Caption = Field(default_factory=Caption)
    cards: CardStyle = Field(default_factory=CardStyle)
    copies: ProductCopies = Field(default_factory=ProductCopies)
    tiles: TileStyle = Field(default_factory=TileStyle)
    poster: PosterStyle = Field(default_factory=PosterStyle)
    display: DisplayStyle = Field(default_factory=DisplayStyle)
    track_board: TrackBoardStyle = Field(default_factory=TrackBoardStyle)
    sizes: dict[str, Size] = Field(default_factory=dict)
    type: dict[str, dict[str, PositivePt]] = Field(default_factory=dict)
    colours: dict[str, Colour] = Field(default_factory=dict)
    papers: dict[str, Size] = Field(default_factory=dict)
    board_sheet: dict[str, str | list[str]] = Field(default_factory=dict)  # home paper -> the stock sheets a whole board may print on

    @model_validator(mode="after")
    def _board_sheets_are_papers(self):
        unknown = sorted({name for paper in self.board_sheet for name in self.board_sheets(paper) if name not in self.papers})
        if unknown:
            raise ValueError(f"board_sheet names no paper size {unknown[0]!r}; papers: {', '.join(sorted(self.papers))}")
        return self

    def board_sheets(self, paper: str) -> list[str]:
        """The stock sheets a whole board may print on beside home `paper` (a board takes the smallest that holds it)."""
        names = self.board_sheet.get(paper, [])
        return [names] if isinstance(names, str) else list(names)

    @property
    def cut_sheet_margin(self) -> float:
        """The border (mm) of cut sheets: `sheet_margin`, else `margin`."""
        return self.margin if self.sheet_margin is None else self.sheet_margin

    def colour(self, name: str) -> Colour:
        """The colour called `name`, falling back to "neutral" (black on white)."""
        return self.colours.get(name) or self.colours.get("neutral") or Colour(fill="#ffffff")

    def paper_size(self, name: str | None = None) -> Size:
        """The paper called `name` (default: the preset's own paper); unknown names raise UnknownNameError."""
        index = NameIndex("paper size", self.papers)
        return self.papers[index.resolve(name or self.paper)]

    def safe(self, size_name: str, back: bool = False) -> float:
        """How far (mm) text and symbols keep from the cut on pieces of size `size_name` (on their backs with `back`)."""
        size = self.sizes.get(size_name)
        if back and size is not None and size.back_safe_zone is not None:
            return size.back_safe_zone
        return self.safe_zone if size is None or size.safe_zone is None else size.safe_zone

    def size(self, name: str) -> Size:
        """The piece size called `name` (counter, tile, card...)."""
        if name not in self.sizes:
            raise UnknownNameError("size", name, NameIndex("size", self.sizes).closest(name))
        return self.sizes[name]


def _merge(base: dict, child: dict) -> dict:
    merged = dict(base)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def preset_file(name: str, game_folder: Path | None = None) -> Path:
    """The YAML file of preset `name`: the game folder's `layouts/` first, then the shared layouts/."""
    folders = ([game_folder / "layouts"] if game_folder else []) + [paths.layouts_dir()]
    for folder in folders:
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    known = sorted({p.stem for f in folders if f.is_dir() for p in f.glob("*.yaml")} - {"paper", "print-services"})
    raise UnknownNameError("layout preset", name, NameIndex("layout preset", known).closest(name))


def preset_chain(name: str, game_folder: Path | None = None) -> list[tuple[Path, dict]]:
    """The preset and each one it extends, base first, as (file, document) pairs."""
    chain: list[tuple[Path, dict]] = []
    seen: set[Path] = set()
    current: str | None = name
    while current:
        file = preset_file(current, game_folder)
        if file in seen:
            raise DataError([Problem(file, "extends", f"preset {current!r} extends itself in a loop", "layout-loop")])
        seen.add(file)
        own = game_folder is not None and file.parent == game_folder / "layouts"
        document = read_yaml(file, within=game_folder if own else None) or {}
        if not isinstance(document, dict):
            raise DataError([Problem(file, "", "expected a mapping of layout settings", "invalid")])
        chain.insert(0, (file, document))
        current = document.get("extends")
        if current:
            try:
                preset_file(current, game_folder)
            except UnknownNameError as exc:
                raise DataError([Problem(file, "extends", str(exc), "unknown-layout")]) from None
    return chain


def load_layout(name: str, game_folder: Path | None = None) -> Layout:
    """The preset `name`, merged over what it extends, with the paper sizes of layouts/paper.yaml."""
    chain = preset_chain(name, game_folder)
    merged: dict = {}
    for _, document in chain:
        merged = _merge(merged, document)
    paper_file = paths.layouts_dir() / "paper.yaml"
    papers = (read_yaml(paper_file) or {}).get("paper", {}) if paper_file.is_file() else {}
    merged["papers"] = _merge(papers, merged.get("papers", {}))
    from pydantic import ValidationError

    try:
        return Layout.model_validate(merged)
    except ValidationError as exc:
        found = problems_from_validation(exc, chain[-1][0], model=Layout)
        raise DataError([_in_setting_file(problem, chain) for problem in found]) from None


def setting_file(chain: list[tuple[Path, dict]], path: tuple[str, ...]) -> Path | None:
    """The preset file of `chain` that sets the field at `path` last (the one a designer edits), or None."""
    for file, document in reversed(chain):
        node: object = document
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return file
    return None


def _in_setting_file(problem: Problem, chain: list[tuple[Path, dict]]) -> Problem:
    """`problem` named against the preset file that sets its field: a preset may inherit the wrong value."""
    file = setting_file(chain, tuple(problem.where.split(".")))
    return Problem(file, problem.where, problem.message, problem.code) if file else problem
