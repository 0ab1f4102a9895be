"""Drawing a game's playing aids (tracks, records, boxes, tables, lists; see core/board_models.py) onto a
painter, sized from their content: boxes big enough for the game's counters, text as real text.

An aid is first laid out (`lay_out`: its size and everything it will print, resolved from the game's
data), then drawn at any place (`draw_aid`), so the map can look for room before it draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..core.board_models import Aid, Column
from ..core.models import ASSUMED_MARK
from ..core.units import pt_to_mm
from ..printing.card_text import cite_as_printed
from ..printing.chips import draw_assumed_chips, draw_line_chips
from ..printing.fonts import FontSet, text_width
from ..printing.geometry import Box
from ..printing.painter import Anchor, Painter
from ..printing.textfit import Paragraph, fit_text
from ..core.tables import resolved_table
from .aid_content import dice_rows, list_items, table_rows
from .starts import setup_as_list, start_places

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout

TITLE_SIZE, TEXT_SIZE, SMALL_SIZE, CELL_SIZE = 11.0, 8.5, 6.5, 9.0
PAD = 2.0  # mm inside the aid's frame
GAP = 1.5  # mm between the title and the boxes
CELL_ROOM = 2.0  # mm a box is larger than a counter, so the counter sits inside it
WRITE_IN = "×____"
LINE = 0.4  # pt: box lines
WRITE_IN_WIDTH = 26.0  # mm of a blank table column
LIST_LINE = 5.0  # mm: the height of a ruled line to write on
SLOT_PAD = 1.5  # mm a card slot's label keeps inside its dashed outline
ITEM_GAP = 1.2  # mm between the items of a list
MIN_SIZE = 5.0  # pt: nothing an aid prints is set smaller
WIDE_COLUMN = 0.45  # a reference table's column wider than this share of the aid wraps its texts
COLUMN_GAP = 3.0  # mm between a table's columns
TINT_OVER = 1.0  # mm a tinted head row reaches past its texts on either side


@dataclass(frozen=True)
class Ink:
    """What an aid needs of the layout: fonts, the size of a box and each faction's colour; and how many times
    their usual size an aid's type (and the room round it) and its title are set: a sheet of aids sets them
    larger."""

    fonts: FontSet
    cell: float
    factions: dict[str, tuple[str, str, str]]  # id -> (name, fill, ink)
    line: str = "#000000"
    paper: str = "#ffffff"
    type: float = 1.0
    heading: float = 1.0
    resolved: dict = field(default_factory=dict, repr=False, compare=False)  # each aid's rows or items, worked out once
    codes: dict = field(default_factory=dict)  # faction id -> its short code, where its name does not fit
    sizes: dict[str, tuple[float, float]] = field(default_factory=dict)  # the layout's piece and card sizes (mm), for slots
    band: tuple[str, str] | None = None  # (fill, ink) of a title band across the top of each aid; None: a plain title
    tint: str | None = None  # fill of a table's head row; None: none
    room: float = 0.0  # mm: the least width of an aid (a sheet of aids sets each to its column's width)
    assumed_foot: str | None = None  # what a reference table's foot says of its assumed values; None: their reasons
    note_size: float | None = None  # pt of an aid's note; None: in proportion to the type
    box_size: float | None = None  # pt of a box's number or value; None: in proportion to the type
    cell_most: float | None = None  # mm: a track's boxes grow up to this to fill the aid's least width; None: they keep `cell`
    list_column: float = 0.0  # mm: a list at least twice this wide flows in columns this wide or wider; 0: one column

    @property
    def cell_pt(self) -> float:
        """The type size (pt) of a box's number or value."""
        return self.box_size or self.size(CELL_SIZE)

    def at(self, type: float, heading: float | None = None) -> "Ink":
        """The same ink with type `type` times its usual size, and titles `heading` times theirs (as the type)."""
        return replace(self, type=type, heading=type if heading is None else heading)

    def size(self, points: float) -> float:
        """A type size (pt) or a length that goes with the type (mm), at this ink's scale."""
        return points * self.type

    @classmethod
    def of(cls, game: "Game", layout: "Layout", fonts: FontSet) -> "Ink":
        counter = layout.sizes.get("counter")
        cell = (max(counter.width, counter.height) if counter else 12.7) + CELL_ROOM
        factions = {f.id: (f.name, layout.colour(f.id).fill, layout.colour(f.id).ink) for f in game.info.factions}
        sizes = {name: (size.width, size.height) for name, size in layout.sizes.items()}
        return cls(fonts, cell, factions, sizes=sizes)


@dataclass(frozen=True)
class Room:
    """A place in an aid where pieces or cards are laid (a box's room, a card's slot): its label and its
    rectangle in mm from the aid's top-left corner; `face_down`: what is laid there lies face down."""

    label: str
    x: float
    y: float
    width: float
    height: float
    face_down: bool = False


@dataclass
class Laid:
    """An aid laid out: its size in mm, a drawing function taking the top-left corner, the rooms it holds
    pieces or cards in (an export names and snaps to them), and whether it has lines to write on (`writable`:
    room to spare on a sheet is worth giving it)."""

    aid: Aid
    width: float
    height: float
    draw: object = field(repr=False)
    rooms: tuple[Room, ...] = ()
    writable: bool = False


def kept_whole(aids: Sequence[tuple[Laid, float, float]]) -> list[Box]:
    """What a seam between tiled sheets should not cut of aids laid at (x, y) on a page (page mm): each room of
    an aid holding several (a track's boxes, card places), so a seam may part them along their shared edges, and
    every other aid whole (a box with its title and text, a list, a table)."""
    boxes = []
    for laid, x, y in aids:
        rooms = [Box(x + r.x, y + r.y, r.width, r.height) for r in laid.rooms] if len(laid.rooms) > 1 else []
        boxes += rooms or [Box(x, y, laid.width, laid.height)]
    return boxes


def _title_height(ink: Ink) -> float:
    return pt_to_mm(TITLE_SIZE * ink.heading) * 1.25


def _foot(aid: Aid) -> str:
    parts = [aid.note or "", f"{cite_as_printed(aid.cite)}." if aid.cite else ""]
    return " ".join(p for p in parts if p)


def _foot_fitted(aid: Aid, ink: Ink, width: float):
    text = _foot(aid)
    if not text:
        return None
    largest = ink.note_size or ink.size(SMALL_SIZE) + 0.5
    return fit_text(Paragraph(text, ink.fonts.regular), width, 60, largest=largest, smallest=min(largest, ink.size(SMALL_SIZE) - 1),
                    what=f"the note of {aid.title!r}")


def _content_top(ink: Ink) -> float:
    """How far below an aid's top edge its content starts: under its title (in its band, when the ink has one)
    and the gap below it."""
    return ink.size(PAD) + _title_height(ink) + ink.size(GAP) + (ink.size(PAD) if ink.band else 0.0)


def _draw_headings(painter: Painter, ink: Ink, left: float, x: float, width: float, top: float, headings: list[str],
                   widths: list[float], font: str, size: float, baseline: float, band: float) -> None:
    """A table's column headings on their tinted band (where the ink tints), ruled off below it."""
    if ink.tint is not None:
        painter.rect(left - TINT_OVER, top, width - 2 * ink.size(PAD) + 2 * TINT_OVER, band, fill=ink.tint)
    cx = left
    for heading, column_width in zip(headings, widths):
        painter.text(cx, top + baseline, heading, font, size)
        cx += column_width
    painter.line(left, top + band, x + width - ink.size(PAD), top + band, stroke=ink.line, line_width=0.6)


def _frame(painter: Painter, aid: Aid, ink: Ink, x: float, y: float, width: float, height: float) -> float:
    """The aid's background, frame and title; returns where its content starts."""
    painter.rect(x, y, width, height, fill=ink.paper, stroke=ink.line, line_width=0.8)
    title_ink = "#000000"
    if ink.band is not None:
        painter.rect(x, y, width, _content_top(ink) - ink.size(GAP), fill=ink.band[0], stroke=ink.line, line_width=0.8)
        title_ink = ink.band[1]
    baseline = y + ink.size(PAD) * (1.5 if ink.band else 1.0) + pt_to_mm(TITLE_SIZE * ink.heading) * 0.8
    painter.text(x + ink.size(PAD), baseline, aid.title, ink.fonts.bold, TITLE_SIZE * ink.heading, colour=title_ink)
    return y + _content_top(ink)


def _draw_foot(painter: Painter, aid: Aid, ink: Ink, x: float, bottom: float, width: float) -> None:
    fitted = _foot_fitted(aid, ink, width - 2 * ink.size(PAD))
    if fitted is not None:
        painter.text_block(fitted, x + ink.size(PAD), bottom - ink.size(PAD) - fitted.height, width - 2 * ink.size(PAD), colour="#333333", anchor=Anchor.START)


def _faction_text(label, ink: Ink) -> tuple[str, str | None, str | None]:
    """How a label prints: a faction id as (name, fill, ink), anything else as itself."""
    key = str(label)
    if key in ink.factions:
        name, fill, text = ink.factions[key]
        return name, fill, text
    return key, None, None


def _shell(aid: Aid, ink: Ink, inner_w: float, inner_h: float):
    """The aid's outer width and height around content of inner_w x inner_h, with its title and note."""
    width = max(max(inner_w, text_width(aid.title, ink.fonts.bold, TITLE_SIZE * ink.heading)) + 2 * ink.size(PAD), ink.room)
    fitted = _foot_fitted(aid, ink, width - 2 * ink.size(PAD))
    foot = fitted.height + 1.0 if fitted is not None else 0.0
    return width, _content_top(ink) + inner_h + foot + ink.size(PAD)


def _lay_track(aid: Aid, ink: Ink) -> Laid:
    aid = _marks_foot(aid)
    labels = aid.cell_labels()
    per_row = aid.per_row or len(labels)
    c = ink.cell
    fit = int((ink.room - 2 * ink.size(PAD)) // c) if ink.room else per_row
    if 0 < fit < per_row:  # narrower than its boxes: rows of as even a length as can be
        per_row = -(-len(labels) // -(-len(labels) // fit))
    rows = -(-len(labels) // per_row)
    if ink.cell_most is not None and ink.room:
        c = max(c, min(ink.cell_most, (ink.room - 2 * ink.size(PAD)) / per_row))
    width, height = _shell(aid, ink, per_row * c, rows * c)
    marks = {str(k): v for k, v in aid.marks.items()}
    name_size = ink.cell_pt  # one size for every box's name, the largest at which the longest fits
    while name_size > MIN_SIZE and max(text_width(_faction_text(label, ink)[0], ink.fonts.bold, name_size) for label in labels) > c - 1.6:
        name_size -= 0.25

    def draw(painter: Painter, x: float, y: float) -> None:
        top = _frame(painter, aid, ink, x, y, width, height)
        left = x + (width - per_row * c) / 2
        for i, label in enumerate(labels):
            row, col = divmod(i, per_row)
            cx, cy = left + col * c, top + row * c
            text, fill, text_ink = _faction_text(label, ink)
            painter.rect(cx, cy, c, c, fill=fill, stroke=ink.line, line_width=LINE)
            painter.text(cx + 0.8, cy + pt_to_mm(ink.cell_pt) * 0.9, text, ink.fonts.bold, name_size, colour=text_ink or "#000000")
            chips = marks.get(str(label), [])
            h = (c - pt_to_mm(ink.cell_pt) - 1.5) / max(1, len(chips))
            size = max(MIN_SIZE, min(ink.size(SMALL_SIZE), h / 0.45))  # one size for the box's chips
            while size > MIN_SIZE and max((text_width(_faction_text(m, ink)[0], ink.fonts.bold, size) for m in chips), default=0) > c - 1.0:
                size -= 0.25
            for j, mark in enumerate(chips):
                name, fill, text_ink = _faction_text(mark, ink)
                if text_width(name, ink.fonts.bold, size) > c - 1.0:  # a faction's short code where its name does not fit
                    name = ink.codes.get(str(mark), name)
                chip_y = cy + pt_to_mm(ink.cell_pt) + 1.0 + j * h
                painter.rect(cx + 0.4, chip_y, c - 0.8, h - 0.3, fill=fill or "#eeeeee")
                painter.text(cx + c / 2, chip_y + h * 0.72, name, ink.fonts.bold, size, colour=text_ink or "#000000",
                             anchor=Anchor.MIDDLE)
        _draw_foot(painter, aid, ink, x, y + height, width)

    left, top = (width - per_row * c) / 2, _content_top(ink)
    rooms = tuple(Room(name, left + i % per_row * c, top + i // per_row * c, c, c)
                  for i, name in enumerate(aid.room_names({k: v[0] for k, v in ink.factions.items()})))
    return Laid(aid, width, height, draw, rooms)


def _values_foot(aid: Aid, ink: Ink) -> Aid:
    """`aid` with a line added to its note when the values in its boxes are assumed: the ink's mark, or (the poster)
    in words for the players, who have only the sheet, like a reference table's."""
    if "values" not in aid.assumed or not aid.values:
        return aid
    shown = list(dict.fromkeys(str(v) for v in aid.values.values()))
    line = (f"{ASSUMED_MARK} {ink.assumed_foot}" if ink.assumed_foot is not None
            else f"This edition's reading, not in the rulebook: the boxes' values ({', '.join(shown)}).")
    return _noted(aid, line)


def _marks_foot(aid: Aid) -> Aid:
    """`aid` (a track) with a line added to its note when the boxes its markers start in are assumed, in words for
    the players at the table, who have only the sheet: the start is this edition's reading."""
    if "marks" not in aid.assumed or not aid.marks:
        return aid
    boxes = " and ".join(str(box) for box in aid.marks)
    return _noted(aid, f"This edition's reading, not in the rulebook: the start{'s' if len(aid.marks) > 1 else ''} at {boxes}.")


def _noted(aid: Aid, line: str) -> Aid:
    """`aid` with `line` added after its note."""
    return aid.model_copy(update={"note": " ".join(t for t in (aid.note, line) if t)})


def _lay_record(aid: Aid, ink: Ink) -> Laid:
    aid = _values_foot(aid, ink)
    columns = [str(col.heading if isinstance(col, Column) else col) for col in aid.columns or []]
    rows = [str(r) for r in aid.rows or []]
    c = ink.cell
    names = [_faction_text(r, ink)[0] for r in rows]
    label_w = max([text_width(n, ink.fonts.bold, ink.size(TEXT_SIZE)) for n in names] + [text_width(aid.marker_row or "", ink.fonts.bold, ink.size(TEXT_SIZE))]) + 3
    head = 0.0 if aid.marker_row else pt_to_mm(ink.size(TEXT_SIZE)) * 1.6  # a marker row's boxes carry the columns' names
    body_rows = len(rows) + (1 if aid.marker_row else 0)
    width, height = _shell(aid, ink, label_w + len(columns) * c, head + body_rows * c)
    values = {str(k): v for k, v in aid.values.items()}

    def draw(painter: Painter, x: float, y: float) -> None:
        top = _frame(painter, aid, ink, x, y, width, height)
        left = x + ink.size(PAD) + label_w
        if not aid.marker_row:
            for j, col in enumerate(columns):
                painter.text(left + j * c + c / 2, top + head * 0.7, col, ink.fonts.bold, ink.size(TEXT_SIZE), anchor=Anchor.MIDDLE)
        row_y = top + head
        if aid.marker_row:
            painter.text(x + ink.size(PAD), row_y + c / 2 + 1, aid.marker_row, ink.fonts.bold, ink.size(TEXT_SIZE))
            for j, col in enumerate(columns):
                painter.rect(left + j * c, row_y, c, c, fill="#f2f2f2", stroke=ink.line, line_width=LINE)
                painter.text(left + j * c + c / 2, row_y + c / 2 + pt_to_mm(ink.size(CELL_SIZE)) * 0.35, col, ink.fonts.bold,
                             ink.size(CELL_SIZE), anchor=Anchor.MIDDLE)
            row_y += c
        for row, name in zip(rows, names):
            _, fill, _ = _faction_text(row, ink)
            if fill:
                painter.rect(x + ink.size(PAD), row_y + 0.6, label_w - 2, c - 1.2, fill=fill)
                painter.text(x + ink.size(PAD) + 1, row_y + c / 2 + 1, name, ink.fonts.bold, ink.size(TEXT_SIZE), colour=_faction_text(row, ink)[2] or "#000000")
            else:
                painter.text(x + ink.size(PAD), row_y + c / 2 + 1, name, ink.fonts.bold, ink.size(TEXT_SIZE))
            for j, col in enumerate(columns):
                cx = left + j * c
                painter.rect(cx, row_y, c, c, stroke=ink.line, line_width=LINE)
                value = values.get(col)
                if value and ink.assumed_foot is not None and "values" in aid.assumed:
                    value += ASSUMED_MARK
                if value:
                    painter.text(cx + c - 0.8, row_y + pt_to_mm(ink.cell_pt) * 0.9, value, ink.fonts.bold, ink.cell_pt, anchor=Anchor.END)
                if aid.write_in:
                    painter.text(cx + c / 2, row_y + c - 1.0, WRITE_IN, ink.fonts.regular, ink.size(SMALL_SIZE) - 1, colour="#555555", anchor=Anchor.MIDDLE)
            row_y += c
        _draw_foot(painter, aid, ink, x, y + height, width)

    left, top = ink.size(PAD) + label_w, _content_top(ink) + head
    rooms = tuple(Room(name, left + i % len(columns) * c, top + i // len(columns) * c, c, c)
                  for i, name in enumerate(aid.room_names({k: v[0] for k, v in ink.factions.items()})))
    return Laid(aid, width, height, draw, rooms)


def _lay_box(aid: Aid, ink: Ink) -> Laid:
    c = ink.cell
    per_row = min(aid.holds, 4)
    inner_w = per_row * c
    text_w = max(inner_w, text_width(aid.title, ink.fonts.bold, TITLE_SIZE * ink.heading))  # the text runs the frame's width
    text = fit_text(Paragraph(aid.text or "", ink.fonts.regular), text_w, 40, largest=ink.size(SMALL_SIZE) + 1, smallest=ink.size(SMALL_SIZE) - 1,
                    what=f"the text of {aid.title!r}") if aid.text else None
    room = -(-aid.holds // per_row) * c
    width, height = _shell(aid, ink, inner_w, (text.height + 1 if text else 0) + room)
    room_top = _content_top(ink) + (text.height + 1 if text else 0)

    def draw(painter: Painter, x: float, y: float) -> None:
        top = _frame(painter, aid, ink, x, y, width, height)
        if text:
            painter.text_block(text, x + ink.size(PAD), top, width - 2 * ink.size(PAD), anchor=Anchor.START)
            top += text.height + 1
        painter.rect(x + ink.size(PAD), top, width - 2 * ink.size(PAD), room, stroke=ink.line, line_width=LINE, dash=(1.5, 1.0))
        _draw_foot(painter, aid, ink, x, y + height, width)

    return Laid(aid, width, height, draw, (Room(aid.title, ink.size(PAD), room_top, width - 2 * ink.size(PAD), room),))


def _lay_table(aid: Aid, game: "Game", ink: Ink, file: str, where: str, height: float | None = None) -> Laid:
    columns = [col if isinstance(col, Column) else Column(heading=str(col)) for col in aid.columns or []]
    rows = ink.resolved.get(id(aid)) or ink.resolved.setdefault(id(aid), table_rows(aid, game, file, where))
    blank = [col.text is None and not col.variant and aid.from_ is not None for col in columns]
    return _lay_grid(aid, ink, columns, rows, blank, height)


def _lay_dice(aid: Aid, game: "Game", ink: Ink, file: str, where: str, height: float | None = None) -> Laid:
    headings, rows = ink.resolved.get(id(aid)) or ink.resolved.setdefault(id(aid), dice_rows(game, file, where))
    columns = [Column(heading=h) for h in headings]
    return _lay_grid(aid, ink, columns, rows, [False] * len(columns), height)


def _lay_slots(aid: Aid, ink: Ink) -> Laid:
    card_w, card_h = ink.sizes.get(aid.card, (63.0, 88.0))
    gap = ink.size(PAD) * 2
    per_row = min(aid.per_row or len(aid.slots), len(aid.slots))
    rows = -(-len(aid.slots) // per_row)
    inner_w = per_row * card_w + (per_row - 1) * gap
    label = pt_to_mm(ink.size(SMALL_SIZE)) * 1.8
    width, height = _shell(aid, ink, inner_w, rows * card_h + (rows - 1) * gap + label)
    corners = [((width - inner_w) / 2 + (i % per_row) * (card_w + gap), _content_top(ink) + (i // per_row) * (card_h + gap))
               for i in range(len(aid.slots))]
    label_size = ink.size(TEXT_SIZE) + 1  # one size for every slot's label, the largest at which the longest fits inside it
    while label_size > MIN_SIZE and max(text_width(slot.label, ink.fonts.bold, label_size) for slot in aid.slots) > card_w - 2 * SLOT_PAD:
        label_size -= 0.25

    def draw(painter: Painter, x: float, y: float) -> None:
        _frame(painter, aid, ink, x, y, width, height)
        for slot, (left, down) in zip(aid.slots, corners):
            sx, top = x + left, y + down
            painter.rect(sx, top, card_w, card_h, stroke=ink.line, line_width=0.8, dash=(3.0, 1.5))
            face = "face up" if slot.face == "up" else "face down"
            painter.text(sx + card_w / 2, top + card_h / 2, slot.label, ink.fonts.bold, label_size, anchor=Anchor.MIDDLE)
            painter.text(sx + card_w / 2, top + card_h / 2 + pt_to_mm(ink.size(TEXT_SIZE)) * 1.6, face, ink.fonts.regular,
                         ink.size(SMALL_SIZE), colour="#555555", anchor=Anchor.MIDDLE)
        _draw_foot(painter, aid, ink, x, y + height, width)

    rooms = tuple(Room(slot.label, left, down, card_w, card_h, slot.face == "down") for slot, (left, down) in zip(aid.slots, corners))
    return Laid(aid, width, height, draw, rooms)


def _lay_grid(aid: Aid, ink: Ink, columns: list[Column], rows: list[list[str]], blank: list[bool], height: float | None) -> Laid:
    widths = []
    for j, col in enumerate(columns):
        texts = [r[j] for r in rows if j < len(r)]
        natural = max([text_width(t, ink.fonts.regular, ink.size(TEXT_SIZE)) for t in texts] + [text_width(col.heading, ink.fonts.bold, ink.size(TEXT_SIZE))])
        widths.append(max(natural, ink.size(WRITE_IN_WIDTH) if blank[j] else 0) + 3)
    line = pt_to_mm(ink.size(TEXT_SIZE)) * 1.55
    width, natural = _shell(aid, ink, sum(widths), line * (len(rows) + 1))
    widths[-1] += width - 2 * ink.size(PAD) - sum(widths)  # a table wider than its texts gives its last column the room
    if height is not None and height > natural:  # room to spare goes between the rows
        line += (height - natural) / (len(rows) + 1)
    width, height = _shell(aid, ink, sum(widths), line * (len(rows) + 1))

    def draw(painter: Painter, x: float, y: float) -> None:
        top = _frame(painter, aid, ink, x, y, width, height)
        left = x + ink.size(PAD)
        _draw_headings(painter, ink, left, x, width, top, [col.heading for col in columns], widths,
                       ink.fonts.bold, ink.size(TEXT_SIZE), baseline=line * 0.7, band=line * 0.95)
        for i, row in enumerate(rows):
            base = top + line * (i + 1)
            cx = left
            for j in range(len(columns)):
                if blank[j]:
                    painter.line(cx, base + line * 0.8, cx + widths[j] - 3, base + line * 0.8, stroke="#777777", line_width=0.4)
                elif j < len(row):
                    draw_line_chips(painter, row[j], cx, base + line * 0.7, ink.fonts.regular, ink.size(TEXT_SIZE))
                    painter.text(cx, base + line * 0.7, row[j], ink.fonts.regular, ink.size(TEXT_SIZE))
                cx += widths[j]
        _draw_foot(painter, aid, ink, x, y + height, width)

    return Laid(aid, width, height, draw, writable=any(blank))


def _lay_list(aid: Aid, game: "Game", ink: Ink, width: float, file: str, where: str, height: float | None = None) -> Laid:
    items = ink.resolved.get(id(aid)) or ink.resolved.setdefault(id(aid), list_items(aid, game, file, where))
    inner = width - 2 * ink.size(PAD)
    count = max(1, int((inner + COLUMN_GAP) // (ink.list_column + COLUMN_GAP))) if ink.list_column else 1
    column = (inner - (count - 1) * COLUMN_GAP) / count
    fitted = [fit_text(Paragraph(t, ink.fonts.regular), column, 80, largest=ink.size(TEXT_SIZE), smallest=ink.size(TEXT_SIZE) - 1.5,
                       what=f"an item of {aid.title!r}") for t in items]
    lines = aid.write_in_lines if aid.write_in else 0
    rule = LIST_LINE  # lines to write on are as far apart as handwriting needs, whatever the type
    gap = rule * lines + ink.size(ITEM_GAP)
    runs = _columns([f.height + gap for f in fitted], count)
    tallest = max(runs, key=lambda run: sum(fitted[i].height + gap for i in run))
    _, natural = _shell(aid, ink, inner, sum(fitted[i].height + gap for i in tallest))
    if height is not None and height > natural:  # room to spare goes to the lines to write on, or between the items
        extra = (height - natural) / len(tallest)
        gap += extra
        rule += extra / lines if lines else 0.0
    _, height = _shell(aid, ink, inner, max(sum(fitted[i].height + gap for i in run) for run in runs))

    def draw(painter: Painter, x: float, y: float) -> None:
        first = _frame(painter, aid, ink, x, y, width, height)
        for k, run in enumerate(runs):
            left, top = x + ink.size(PAD) + k * (column + COLUMN_GAP), first
            for f in (fitted[i] for i in run):
                painter.text_block(f, left, top, column, anchor=Anchor.START)
                top += f.height
                for n in range(lines):
                    at = top + rule * (n + 1) - 0.6
                    painter.line(left + 4, at, left + column, at, stroke="#777777", line_width=0.4)
                top += gap
        _draw_foot(painter, aid, ink, x, y + height, width)

    return Laid(aid, width, height, draw, writable=lines > 0)


def _columns(heights: list[float], count: int) -> list[list[int]]:
    """The items (by index, in order) of each of at most `count` columns read down then across, the tallest
    column as short as it can be."""
    def split(limit: float) -> list[list[int]] | None:
        runs, used = [[]], 0.0
        for i, h in enumerate(heights):
            if runs[-1] and used + h > limit + 1e-9:
                runs.append([])
                used = 0.0
            runs[-1].append(i)
            used += h
        return runs if len(runs) <= count else None

    limits = sorted({sum(heights[i:j]) for i in range(len(heights)) for j in range(i + 1, len(heights) + 1)})
    return next(runs for limit in limits if limit >= max(heights) - 1e-9 and (runs := split(limit)) is not None)


def _assumed_footnote(table) -> str:
    """One short line under a table naming what of it the rules do not print (a column, or some rows' cells of
    it), in words for the players at the table, who have only the sheet; the reasons are in the data (tables.yaml)
    and `dossier assumptions`, so the aid reads as a finished one."""
    parts = []
    for j, heading in enumerate(table.headings):
        rows = [row[0].text for row in table.rows if row[j].assumed]
        if rows:
            parts.append(heading if len(rows) == len(table.rows) else f"{heading} ({', '.join(rows)})")
    return f"This edition's reading, not in the rulebook: {', '.join(parts)}."


def _lay_reference(aid: Aid, game: "Game", ink: Ink, width: float, height: float | None = None) -> Laid:
    """One of the game's reference tables (tables.yaml): narrow columns at their texts' width, wide ones
    wrapped into what is left (a blank column takes what the others leave); assumed values marked with the ink's
    `assumed_foot` under the table, or (the poster) printed plainly with one line under it naming what the source
    does not print; a blank cell a ruled line (or lines) to write on; a taller `height` gives the rows with such
    lines more of them (or, with none, spaces every row)."""
    table = resolved_table(game, aid.table)
    foot = [table.note or "", f"{cite_as_printed(table.cite)}." if table.cite else ""]
    marked = ink.assumed_foot is not None  # a sheet that marks its assumed values; else plain values and one footnote
    if table.has_assumptions:
        foot.append(f"{ASSUMED_MARK} {ink.assumed_foot}" if marked else _assumed_footnote(table))
    shown = aid.model_copy(update={"title": table.title, "cite": None, "note": " ".join(t for t in foot if t)})
    size, font, bold = ink.size(TEXT_SIZE), ink.fonts.regular, ink.fonts.bold
    line = pt_to_mm(size) * 1.3
    headings = list(table.headings)
    texts = [[c.text + (ASSUMED_MARK if c.assumed and marked else "") for c in row] for row in table.rows]
    inner = width - 2 * ink.size(PAD)
    natural = []
    for j, heading in enumerate(table.headings):
        blank = all(row[j].write_in for row in table.rows)
        widths = [text_width(t[j], font, size) for t in texts] + [text_width(headings[j], bold, size)]
        natural.append(max(max(widths), ink.size(WRITE_IN_WIDTH) if blank else 0) + COLUMN_GAP + 0.01)  # + what rounding takes
    blanks = [j for j in range(len(table.headings)) if all(row[j].write_in for row in table.rows)]
    wide = [j for j, w in enumerate(natural) if w > inner * WIDE_COLUMN]
    handwritten = [j for j in blanks if any(row[j].lines > 1 for row in table.rows)]
    if handwritten and wide:  # a blank of several lines is for sentences: it takes its share of a wrapped table
        least = inner * WIDE_COLUMN / len(handwritten)
        natural = [max(w, least) if j in handwritten else w for j, w in enumerate(natural)]
        wide = [j for j in wide if j not in handwritten]
    while sum(natural) > inner and wide:  # a wrapped column left narrower than an unwrapped one: wrap that too
        room = (inner - sum(w for j, w in enumerate(natural) if j not in wide)) / len(wide)
        rest = [j for j in range(len(natural)) if j not in wide and j not in blanks]
        widest = max(rest, key=lambda j: natural[j], default=None)
        if widest is None or natural[widest] <= room:
            break
        wide.append(widest)
    if sum(natural) > inner and wide:
        room = (inner - sum(w for j, w in enumerate(natural) if j not in wide)) / len(wide)
        natural = [room if j in wide else w for j, w in enumerate(natural)]
    if blanks and sum(natural) < inner:  # lines to write on run to the table's edge
        natural[blanks[-1]] += inner - sum(natural)
    widths = natural
    cells = [[fit_text(Paragraph(t or " ", font), widths[j] - COLUMN_GAP, 200, largest=size, smallest=size,
                       what=f"a cell of {table.title!r}", leading=1.3) for j, t in enumerate(row)] for row in texts]
    heights = [max([c.height + 0.8 for c in row] + [LIST_LINE * cell.lines + 0.8 for cell in resolved if cell.write_in])
               for row, resolved in zip(cells, table.rows)]
    _, natural_height = _shell(shown, ink, sum(widths), line * 1.2 + sum(heights))
    if height is not None and height > natural_height:  # room to spare goes to the rows with lines to write on, else to all
        writing = [i for i, row in enumerate(table.rows) if any(cell.write_in for cell in row)] or list(range(len(heights)))
        heights = [h + ((height - natural_height) / len(writing) if i in writing else 0.0) for i, h in enumerate(heights)]
    _, height = _shell(shown, ink, sum(widths), line * 1.2 + sum(heights))

    def draw(painter: Painter, x: float, y: float) -> None:
        top = _frame(painter, shown, ink, x, y, width, height)
        left = x + ink.size(PAD)
        _draw_headings(painter, ink, left, x, width, top, headings, widths, bold, size,
                       baseline=line * 0.75, band=line * 1.05)
        row_top = top + line * 1.2
        for i, row in enumerate(cells):
            cx = left
            for j, fitted in enumerate(row):
                cell = table.rows[i][j]
                if cell.write_in:  # its lines, and as many more as the row has room for: room to write
                    for n in range(max(cell.lines, int((heights[i] - 0.8) // LIST_LINE))):
                        at = row_top + 0.4 + LIST_LINE * (n + 1)  # under the row's first line of text, then a line's height apart
                        painter.line(cx, at, cx + widths[j] - COLUMN_GAP, at, stroke="#777777", line_width=0.4)
                else:
                    draw_assumed_chips(painter, fitted, cx, row_top + 0.4)
                    painter.text_block(fitted, cx, row_top + 0.4, widths[j] - COLUMN_GAP, anchor=Anchor.START)
                cx += widths[j]
            row_top += heights[i]
            if i < len(cells) - 1:
                painter.line(left, row_top, x + width - ink.size(PAD), row_top, stroke="#bbbbbb", line_width=0.3)
        _draw_foot(painter, shown, ink, x, y + height, width)

    return Laid(shown, width, height, draw, writable=any(cell.write_in for row in table.rows for cell in row))


def lay_out(aid: Aid, game: "Game", ink: Ink, width: float, file: str, where: str, height: float | None = None) -> Laid:
    """`aid` laid out (tables and lists to `width` mm; tracks, records and boxes to their boxes' size; a table
    or list given a taller `height` spaces its rows, lines to write on or items to fill it); DataError naming
    `file` and `where` when its data cannot be printed."""
    if aid.kind == "track":
        return _lay_track(aid, ink)
    if aid.kind == "record":
        return _lay_record(aid, ink)
    if aid.kind == "box":
        return _lay_box(aid, ink)
    if aid.kind == "table" and aid.table is not None:
        return _lay_reference(aid, game, ink, width, height)
    if aid.kind == "table":
        return _lay_table(aid, game, ink, file, where, height)
    if aid.kind == "dice":
        return _lay_dice(aid, game, ink, file, where, height)
    if aid.kind == "slots":
        return _lay_slots(aid, ink)
    if aid.kind == "setup":  # on a map or display: what starts on every place the game's boards have
        aid = setup_as_list(aid, game, start_places(game))
    return _lay_list(aid, game, ink, width, file, where, height)


def draw_aid(painter: Painter, laid: Laid, x: float, y: float) -> None:
    """Draw a laid-out aid with its top-left corner at (x, y)."""
    laid.draw(painter, x, y)
