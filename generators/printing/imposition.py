"""Imposition: same-size items (counters, tiles, cards) placed in a grid on paper, with their backs.

A sheet is a front page followed by its back page. Backs are laid out so that each lands behind
its front when the printer flips the paper: mirrored left-right for a long-edge flip of portrait
paper, top-bottom for a short-edge flip. With `fold`, fronts fill one half of a page and backs the
other, mirrored about a fold line, for printers without duplex. A back offset shifts the back
faces to correct a printer's misregistration (x to the right, y upwards, as the back page is seen).

Positions are in mm from the page's top-left corner (see painter.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING

from ..core.errors import DossierError
from ..core.models import ASSUMED_MARK
from ..core.units import mm_to_pt, pt_to_mm
from .fonts import text_width
from .geometry import Box

if TYPE_CHECKING:
    from ..core.layouts import Layout
    from .settings import PrintSettings
    from .painter import Painter


MIN_MARK = 1.5  # mm: a crop mark shorter than this is left out
EDGE_ROOM = 0.5  # share of the sheet margin at the paper's edge that crop marks keep clear of
MIN_CAPTION = 5.0  # pt: a sheet's caption is not set smaller to fit beside its items


class SheetError(DossierError):
    """Items that cannot be laid out on the chosen paper (too large for the printable area)."""


class Backs(str, Enum):
    """How backs are printed: not at all, duplex flipped on the long or short edge, or folded."""

    NONE = "none"
    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"
    FOLD = "fold"


class Side(str, Enum):
    FRONT = "front"
    BACK = "back"


@dataclass(frozen=True)
class Placed:
    """Item `index` (its position in the list imposed) on one side, at `box` (the cut line)."""

    index: int
    side: Side
    box: Box
    group: int = 0  # which size group it belongs to (see impose_groups)
    block: int = 0  # which run of rows of its group: crop marks go round each block


@dataclass(frozen=True)
class Page:
    """One printed page: its number (from 1), which side(s) it carries, and the items on it."""

    number: int
    sheet: int
    side: Side | None  # None: a fold page with fronts and backs
    items: tuple[Placed, ...]
    fold: tuple[float, float, float, float] | None = None  # the fold line (x1, y1, x2, y2)

    @property
    def fronts(self) -> tuple[Placed, ...]:
        return tuple(p for p in self.items if p.side is Side.FRONT)

    @property
    def backs(self) -> tuple[Placed, ...]:
        return tuple(p for p in self.items if p.side is Side.BACK)


@dataclass(frozen=True)
class SheetSpec:
    """Everything imposition needs, in mm: paper, item size, margin, gutter, bleed, backs, back offset.

    `header` reserves space at the top of each page (below the margin) for a caption.
    """

    paper: tuple[float, float]
    item: tuple[float, float]
    margin: float = 10.0
    gutter: float = 0.0
    bleed: float = 0.0
    backs: Backs = Backs.LONG_EDGE
    back_offset: tuple[float, float] = (0.0, 0.0)
    header: float = 0.0
    group_gap: float = 12.0  # between groups of different sizes sharing a page: room for both groups' crop marks
    paper_name: str = ""  # as the layout or --paper names it ("letter"), for the print advice

    def __post_init__(self) -> None:
        dx, dy = self.back_offset
        if max(abs(dx), abs(dy)) > self.margin:
            raise SheetError(f"--back-offset {dx:g},{dy:g} mm: a shift beyond the {self.margin:g} mm margin would push "
                             "the backs off the sheet; measure the real one with `dossier calibrate`")

    @property
    def pitch(self) -> float:
        """Space between neighbouring cut lines: the gutter, or room for both items' bleed."""
        return max(self.gutter, 2 * self.bleed)


@dataclass(frozen=True)
class Plan:
    """The pages of an imposition, with the grid they use."""

    spec: SheetSpec
    columns: int
    rows: int
    pages: tuple[Page, ...]

    @property
    def paper(self) -> tuple[float, float]:
        return self.spec.paper


def sheet_spec(settings: "PrintSettings", item: tuple[float, float], backs: bool = True,
               header: float = 0.0, gutter: float = 0.0, bleed: float = 0.0,
               heights: Sequence[float] = ()) -> SheetSpec:
    """The cut sheet `settings` print `item`-sized pieces on: paper, bleed, duplex or fold and back offset;
    `header` mm for the caption when it costs no row of `item` nor of any of `heights` (see captioned);
    at least `gutter` mm between pieces and at least `bleed` mm of bleed."""
    layout = settings.layout
    spec = SheetSpec(
        paper=(settings.paper.width, settings.paper.height), item=item, margin=layout.cut_sheet_margin,
        gutter=max(layout.gutter, gutter), bleed=max(settings.bleed, bleed), backs=Backs(settings.backs) if backs else Backs.NONE,
        back_offset=settings.back_offset,
        group_gap=group_gap(layout), paper_name=settings.paper_name,
    )
    return captioned(spec, header, heights) if header else spec


def group_gap(layout: "Layout") -> float:
    """The room (mm) between groups of pieces sharing a page: both groups' crop marks and a little paper."""
    return 2 * (layout.crop_marks.offset + layout.crop_marks.length) + 2.0


def captioned(spec: SheetSpec, header: float, heights: Sequence[float] = ()) -> SheetSpec:
    """`spec` with `header` mm kept free above the items for the caption, unless that costs a row of
    the item's size (or of any of `heights`, the other sizes sharing the sheets) on every sheet; then
    the caption finds its room beside the items (draw_caption)."""
    with_header = replace(spec, header=header)
    bleed = spec.bleed

    def rows(s: SheetSpec, height: float) -> int:
        _, top, _, bottom = _area(s)
        return _count_fitting(bottom - top - 2 * bleed, height, spec.pitch)

    costs_a_row = any(rows(with_header, h) < rows(spec, h) for h in {spec.item[1], *heights})
    return replace(spec, header=0.0) if costs_a_row else with_header


def _count_fitting(space: float, size: float, pitch: float) -> int:
    return max(0, int((space + pitch + 1e-9) // (size + pitch)))


def _mirror(box: Box, spec: SheetSpec, axis: str) -> Box:
    width, height = spec.paper
    if axis == "x":
        return Box(width - box.right, box.y, box.width, box.height)
    return Box(box.x, height - box.bottom, box.width, box.height)


def back_box(box: Box, spec: SheetSpec) -> Box:
    """Where the back of `box` goes on the back page (or the other half of a fold page), back offset applied."""
    width, height = spec.paper
    flips_on_long_edge = spec.backs in (Backs.LONG_EDGE, Backs.FOLD)
    axis = "x" if (width <= height) == flips_on_long_edge else "y"
    dx, dy = spec.back_offset
    return _mirror(box, spec, axis).shifted(dx, -dy)


def impose(count: int, spec: SheetSpec, what: str = "item") -> Plan:
    """Place `count` items of size spec.item in reading order on as many sheets as they need, backs behind fronts."""
    return impose_groups([(spec.item, count)], spec, what)


def copies_that_fit(copies: int | str, plan: Callable[[int], Plan], most: int = 50) -> int:
    """`copies` as a number: `fill` is as many whole sets (up to `most`) as the sheets one set needs
    hold, `plan(k)` imposing k sets."""
    if copies != "fill":
        return int(copies)
    sheets = plan(1).pages[-1].sheet
    k = 1
    while k < most and plan(k + 1).pages[-1].sheet == sheets:
        k += 1
    return k


def copies_note(copies: int, why: str = "") -> str:
    """What a caption says of a product printed `copies` times over ("3 copies of each: spares"), else nothing."""
    return f" · {copies} copies of each" + (f": {why}" if why else "") if copies > 1 else ""


def _area(spec: SheetSpec) -> tuple[float, float, float, float]:
    """The printable area (left, top, right, bottom) for fronts, in mm."""
    width, height = spec.paper
    left, top = spec.margin, spec.margin + spec.header
    right, bottom = width - spec.margin, height - spec.margin
    if spec.backs is Backs.FOLD:  # fronts on one half, backs on the other; half a margin each side of the fold
        if width <= height:
            right = width / 2 - spec.margin / 2
        else:
            bottom = height / 2 - spec.margin / 2
    return left, top, right, bottom


def impose_groups(groups: list[tuple[tuple[float, float], int]], spec: SheetSpec, what: str = "item",
                  alone: Sequence[bool] = ()) -> Plan:
    """Place groups of same-size items ((width, height), count) on as few sheets as fit, backs behind fronts.

    Each group is set in whole rows (shelves), its rows centred across the printable area (or
    against the fold). Groups are placed tallest first, each row on the first sheet that still has
    room for it, so small items fill the space larger ones leave instead of taking sheets of their
    own; a group `alone` says so of (by its number) takes sheets that hold nothing else. Items are
    numbered across groups in the order given; `Placed.group` says which group an item is in and
    `Placed.block` which run of rows, for crop marks.
    """
    width, height = spec.paper
    left, top, right, bottom = _area(spec)
    pitch, bleed = spec.pitch, spec.bleed
    portrait = width <= height
    against_fold = spec.backs is Backs.FOLD and portrait
    sheets: list[list[Placed]] = []
    free: list[float] = []  # per sheet: where the next row may start
    last: list[int] = []  # per sheet: the group of its last row
    owner: list[int | None] = []  # per sheet: the group it is kept for, if any
    alone = list(alone) + [False] * (len(groups) - len(alone))
    starts = [sum(count for _, count in groups[:n]) for n in range(len(groups))]
    blocks = 0
    first_columns = first_rows = 0
    order = sorted(range(len(groups)), key=lambda n: -groups[n][0][1])
    for number in order:
        (item_w, item_h), count = groups[number]
        columns = _count_fitting(right - left - 2 * bleed, item_w, pitch)
        rows_per_page = _count_fitting(bottom - top - 2 * bleed, item_h, pitch)
        if columns < 1 or rows_per_page < 1:
            raise SheetError(
                f"a {item_w:g} x {item_h:g} mm {what} does not fit on {width:g} x {height:g} mm paper "
                f"with {spec.margin:g} mm margins" + (" folded in half" if spec.backs is Backs.FOLD else "")
            )
        if number == 0:
            first_columns, first_rows = columns, rows_per_page
        row_width = min(columns, max(count, 1)) * (item_w + pitch) - pitch
        x0 = right - bleed - row_width if against_fold else (left + right - row_width) / 2
        index = starts[number]
        for row_start in range(0, count, columns):
            for sheet in range(len(sheets) + 1):
                if sheet == len(sheets):
                    sheets.append([])
                    free.append(top + bleed)
                    last.append(-1)
                    owner.append(number if alone[number] else None)
                if owner[sheet] != (number if alone[number] else None):
                    continue
                continues = last[sheet] == number
                y = free[sheet] + (0.0 if not sheets[sheet] else pitch if continues else spec.group_gap)
                if y + item_h <= bottom - bleed + 1e-9:
                    break
            if not continues:
                blocks += 1
            for column in range(min(columns, count - row_start)):
                box = Box(x0 + column * (item_w + pitch), y, item_w, item_h)
                sheets[sheet].append(Placed(index, Side.FRONT, box, number, blocks))
                index += 1
            free[sheet], last[sheet] = y + item_h, number
    pages: list[Page] = []
    for sheet, fronts in enumerate(sheets, start=1):
        fronts.sort(key=lambda p: (p.box.y, p.box.x))
        backs = [replace(p, side=Side.BACK, box=back_box(p.box, spec)) for p in fronts]
        if spec.backs is Backs.NONE:
            pages.append(Page(len(pages) + 1, sheet, Side.FRONT, tuple(fronts)))
        elif spec.backs is Backs.FOLD:
            fold = (width / 2, 0.0, width / 2, height) if portrait else (0.0, height / 2, width, height / 2)
            pages.append(Page(len(pages) + 1, sheet, None, tuple(fronts + backs), fold))
        else:
            pages.append(Page(len(pages) + 1, sheet, Side.FRONT, tuple(fronts)))
            pages.append(Page(len(pages) + 1, sheet, Side.BACK, tuple(backs)))
    return Plan(spec, first_columns, first_rows, tuple(pages))


def _edges(boxes: Sequence[Box]) -> tuple[list[float], list[float]]:
    # a row of items shares its top and bottom, a column its sides: round each distinct edge once
    lefts, tops = {(b.x, b.width) for b in boxes}, {(b.y, b.height) for b in boxes}
    xs = {round(x, 4) for x, w in lefts} | {round(x + w, 4) for x, w in lefts}
    ys = {round(y, 4) for y, h in tops} | {round(y + h, 4) for y, h in tops}
    return sorted(xs), sorted(ys)


def draw_crop_marks(painter: "Painter", boxes: Iterable[Box], layout: "Layout", bleed: float = 0.0,
                    page_size: tuple[float, float] = (1e9, 1e9), edge_room: float = 0.0) -> None:
    """Short marks outside the group of `boxes` (and their bleed), in line with every cut, for knife and ruler.

    A mark stops `edge_room` mm short of the paper's edge, where printers leave paper bare; one
    that would be shorter than MIN_MARK there is left out (the cut lines still show the cut).
    """
    boxes = list(boxes)
    if not boxes:
        return
    marks = layout.crop_marks
    xs, ys = _edges(boxes)
    left, right = min(b.x for b in boxes) - bleed, max(b.right for b in boxes) + bleed
    top, bottom = min(b.y for b in boxes) - bleed, max(b.bottom for b in boxes) + bleed
    gap, end = marks.offset, marks.offset + marks.length
    width, height = page_size

    def reach(room: float) -> float | None:
        """How far out a mark goes where `room` mm separate the cut from the paper's printable edge."""
        far = min(end, room)
        return far if far - gap >= MIN_MARK else None

    edge = edge_room
    for x in xs:
        if (far := reach(top - edge)) is not None:
            painter.line(x, top - gap, x, top - far, "#000000", marks.width)
        if (far := reach(height - edge - bottom)) is not None:
            painter.line(x, bottom + gap, x, bottom + far, "#000000", marks.width)
    for y in ys:
        if (far := reach(left - edge)) is not None:
            painter.line(left - gap, y, left - far, y, "#000000", marks.width)
        if (far := reach(width - edge - right)) is not None:
            painter.line(right + gap, y, right + far, y, "#000000", marks.width)


def draw_cut_lines(painter: "Painter", boxes: Iterable[Box], layout: "Layout") -> None:
    """A thin outline on every cut, drawn over the faces."""
    line = layout.cut_line
    for b in boxes:
        painter.rect(b.x, b.y, b.width, b.height, stroke=line.colour, line_width=line.width)


def draw_gutter_lines(painter: "Painter", boxes: Sequence[Box], layout: "Layout") -> None:
    """Where pieces stand apart, each cut line carried on across the gutters between them (and never into a
    piece), so knife and ruler follow one line from crop mark to crop mark."""
    if not boxes:
        return
    line = layout.cut_line
    xs, ys = _edges(boxes)
    # pieces of a sheet stand in a few columns and rows: each edge is tested against those, not every piece
    columns: dict[tuple[float, float], list[tuple[float, float]]] = {}
    rows: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for b in boxes:
        columns.setdefault((b.x, b.right), []).append((b.y, b.bottom))
        rows.setdefault((b.y, b.bottom), []).append((b.x, b.right))
    for x in xs:
        covered = [span for (left, right), spans in columns.items() if left - 1e-3 <= x <= right + 1e-3 for span in spans]
        for start, end in _gaps(covered):
            painter.line(x, start, x, end, line.colour, line.width)
    for y in ys:
        covered = [span for (top, bottom), spans in rows.items() if top - 1e-3 <= y <= bottom + 1e-3 for span in spans]
        for start, end in _gaps(covered):
            painter.line(start, y, end, y, line.colour, line.width)


def _gaps(covered: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches between the (from, to) spans of `covered` that none of them spans."""
    gaps: list[tuple[float, float]] = []
    spans = sorted(covered)
    if not spans:
        return gaps
    at = spans[0][1]
    for low, high in spans[1:]:
        if low > at + 1e-6:
            gaps.append((at, low))
        at = max(at, high)
    return gaps


def caption_space(layout: "Layout", size: float) -> float:
    """The header (mm) a page caption of `size` pt needs above the crop marks; pass it as SheetSpec.header."""
    return layout.crop_marks.offset + layout.crop_marks.length + pt_to_mm(size) * 1.6


# What a caption's notes say of the mark a reading of the rules is printed with, where a sheet carries one.
READING_NOTE = f"{ASSUMED_MARK} this edition's reading of the rules"


def draw_caption(painter: "Painter", page: Page, spec: SheetSpec, layout: "Layout", text: str, font: str,
                 size: float, colour: str = "#000000", notes: str = "") -> None:
    """One line saying what the sheet is and how to print it, clear of the items and their crop marks:
    in the top margin, else the bottom one (backs mirrored top to bottom land where the fronts left
    room), else up the left margin when the items fill the sheet's height (smaller, down to MIN_CAPTION,
    where the room between the crop marks and the paper's bare edge is narrower than its line). `notes`, what
    the pieces ask of the players, take a line of their own, in the other margin or under the caption where
    a margin holds two, else follow the caption on its line."""
    room = spec.paper[0] - 2 * spec.margin
    marks = layout.crop_marks.offset + layout.crop_marks.length + spec.bleed
    width, height = spec.paper
    line = pt_to_mm(size) * 1.6
    boxes = [p.box for p in page.items] or [Box(width / 2, height / 2, 0.0, 0.0)]
    top, bottom = min(b.y for b in boxes) - marks, max(b.bottom for b in boxes) + marks
    left = min(b.x for b in boxes) - marks
    if notes:
        above, below = top - spec.margin, height - spec.margin - bottom  # the room each margin leaves
        first, last = spec.margin + pt_to_mm(size), height - spec.margin  # a line's baseline at the top, the foot
        lines = None
        if max(text_width(text, font, size), text_width(notes, font, size)) <= room:
            if above >= line - 1e-6 and below >= line - 1e-6:
                lines = (first, last)
            elif above >= 2 * line - 1e-6:
                lines = (first, first + line)
            elif below >= 2 * line - 1e-6:
                lines = (last - line, last)
        if lines:
            painter.text(spec.margin, lines[0], text, font, size, colour)
            painter.text(spec.margin, lines[1], notes, font, size, colour)
            return
        text = f"{text} · {notes}"
    size = min(size, size * room / max(text_width(text, font, size), 1e-9))  # a long title shrinks the line to fit
    line = pt_to_mm(size) * 1.6
    edge = spec.margin * EDGE_ROOM
    if top >= spec.margin + line - 1e-6:
        painter.text(spec.margin, spec.margin + pt_to_mm(size), text, font, size, colour)
    elif bottom <= height - spec.margin - line + 1e-6:
        painter.text(spec.margin, height - spec.margin, text, font, size, colour)
    elif left - edge >= line:
        painter.text(left - pt_to_mm(size) * 0.4, height - spec.margin, text, font, size, colour, angle=90.0)
    elif left - edge >= pt_to_mm(MIN_CAPTION):  # still up the left margin, set as large as the room there allows
        fit = min(size, mm_to_pt(left - edge))
        painter.text(left - pt_to_mm(fit) * 0.25, height - spec.margin, text, font, fit, colour, angle=90.0)
    elif top - spec.margin >= height - spec.margin - bottom:  # no margin holds the whole line: the roomier one
        painter.text(spec.margin, spec.margin + pt_to_mm(size), text, font, size, colour)
    else:
        painter.text(spec.margin, height - spec.margin, text, font, size, colour)


def scale_advice(paper_name: str) -> str:
    """The start of every print advice: actual size, on the paper named ("print at 100 % on A4")."""
    if re.fullmatch(r"[abc]\d+|(arch|ansi)-[a-e]", paper_name.lower()):  # ISO A2, ARCH C, ANSI C
        label = paper_name.upper().replace("-", " ")
    else:
        label = paper_name.capitalize()
    return "print at 100 %" + (f" on {label}" if label else "")


def print_advice(spec: SheetSpec) -> str:
    """How to print the sheets: at actual size on their paper, so that backs land behind fronts."""
    scale = scale_advice(spec.paper_name)
    if spec.backs is Backs.FOLD:
        return f"{scale}, one-sided; fold on the dashed line, glue, cut"
    if spec.backs is Backs.NONE:
        return f"{scale}, one-sided"
    edge = "long" if spec.backs is Backs.LONG_EDGE else "short"
    return f"{scale}, 2-sided, flip on {edge} edge"


def draw_guides(painter: "Painter", page: Page, layout: "Layout", spec: SheetSpec) -> None:
    """Cut lines on the fronts, crop marks around fronts and backs (clear of the paper's bare edge),
    and the fold line of a fold page."""
    bleed, edge_room = spec.bleed, spec.margin * EDGE_ROOM
    for side in (page.fronts, page.backs):
        for block in sorted({p.block for p in side}):
            draw_crop_marks(painter, [p.box for p in side if p.block == block], layout, bleed,
                            (painter.width, painter.height), edge_room)
    draw_cut_lines(painter, [p.box for p in page.fronts], layout)
    if spec.pitch > 0:
        for block in sorted({p.block for p in page.fronts}):
            draw_gutter_lines(painter, [p.box for p in page.fronts if p.block == block], layout)
    if page.fold:
        x1, y1, x2, y2 = page.fold
        painter.line(x1, y1, x2, y2, layout.cut_line.colour, layout.cut_line.width * 2, dash=(3.0, 2.0))
