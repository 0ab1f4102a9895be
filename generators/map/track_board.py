"""A track board printed (board-ID.pdf, and board-ID-tiles.pdf over the home printer's paper), drawn from boards.yaml.

The spaces run clockwise round the board's edge in the track's order: the `corner` spaces on the four corners,
the spaces between two corners spread evenly along that side. Each space is the layout's `space` size (corner
spaces its `corner-space` size when the layout has one), coloured by its kind, its owner's colour in a band
across its top, arrows in each direction's colour pointing the way that side walks, and at its foot what starts
on it (pieces.yaml `start`). The `middle` aids are
set inside the ring, the `border` aids along its lower inner edge; the legend under the ring, and the `below`
aids beside it, left to right, a new row when the ring's width is full. `plan_board` works out every position,
`draw_board` draws the plan onto any painter page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from ..core.board_models import Aid, Space, TrackBoard
from ..core.models import ASSUMED_MARK
from ..core.units import pt_to_mm
from ..printing.card_text import cite_as_printed
from ..printing.fonts import FontSet, ink_extent, register_fonts, text_width
from ..printing.geometry import Box
from ..printing.painter import Anchor, Drawing, Painter
from .aids import Ink, Laid, draw_aid, kept_whole, lay_out
from .poster_sheets import sheet_advice, whole_and_tiled
from .starts import setup_as_list, setup_at

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..printing.render import Document
    from ..printing.settings import PrintSettings

CORNERS = 4
TITLE_SIZE, LABEL_SIZE, MARK_SIZE, NOTE_SIZE, LEGEND_SIZE, START_SIZE = 28.0, 14.0, 11.0, 11.0, 10.0, 8.0  # pt
GAP = 4.0  # mm, at least, between neighbouring spaces
AID_GAP = 10.0  # mm between aids, and between the ring and what lies inside or below it
AID_WIDTH = 110.0  # mm: the width a list or table inside the ring is set to
BAND = 0.22  # share of a space's height its owner's band takes
EDGE = 2.5  # mm: the ring of an owner's second colour round its space
RING_INSET = 0.6  # mm between a space's frame and its owner's ring
LEGEND_LEADING = 1.6  # a legend line's height, as a multiple of its type size
PT_MM = 25.4 / 72  # mm in a point: line widths are in points


@dataclass(frozen=True)
class SpaceAt:
    """A space placed: its top-left corner and size (mm), the way the track leaves it and the way it comes in
    (unit vectors; they differ on a corner, where the track turns)."""

    space: Space
    x: float
    y: float
    size: float
    heading: tuple[float, float]
    back: tuple[float, float]

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.size / 2, self.y + self.size / 2


@dataclass(frozen=True)
class BoardPlan:
    """A track board laid out: the page, the title, every space, the aids with their corners, the legend."""

    board: TrackBoard
    width: float
    height: float
    margin: float
    title: str
    advice: str
    spaces: list[SpaceAt]
    aids: list[tuple[Laid, float, float]]
    legend_at: tuple[float, float]
    title_at: tuple[float, float]  # the title's top-left corner, inside the ring
    fonts: FontSet
    colours: dict[str, tuple[str, str]]  # layout colour name or faction id -> (fill, ink)
    arrows: list[tuple[str, str]]  # (direction, faction id whose colour draws it)
    names: dict[str, str]  # faction id -> name
    edges: dict[str, str] = field(default_factory=dict)  # faction id -> the second colour ringing its pieces, if any
    sheet: tuple[float, float] | None = None  # the stock sheet (width, height, mm) the whole board prints on, if any
    starts: dict[str, str] = field(default_factory=dict)  # space label -> what starts on it, printed at its foot
    safe: float = 1.5  # mm text keeps inside a space's frame (the layout's safe zone)
    clearance: float = 0.0  # mm text keeps inside an owner's ring (the layout's edge clearance)
    steps: dict[str, str] = field(default_factory=dict)  # faction id -> the fill of its footsteps
    step: float = 0.16  # a footstep's length, as a share of a space
    step_line: float = 0.8  # pt: a footstep's outline


def _sides(board: TrackBoard) -> tuple[list[list[Space]], list[Space]]:
    """The spaces between corners on each side, clockwise from the top; with no corners declared, a quarter each."""
    spaces = board.spaces
    corners = [i for i, s in enumerate(spaces) if s.corner]
    if len(corners) != CORNERS:
        corners = [round(k * len(spaces) / CORNERS) for k in range(CORNERS)]
    start = corners[0]
    turned = spaces[start:] + spaces[:start]
    at = [c - start if c >= start else c - start + len(spaces) for c in corners]
    return [turned[at[k] + 1:(at[k + 1] if k + 1 < CORNERS else len(turned))] for k in range(CORNERS)], [turned[a] for a in at]


def plan_board(game: "Game", settings: "PrintSettings", board: TrackBoard, fonts: FontSet) -> BoardPlan:
    """Where everything on `board` goes, sized from the layout's space size and the aids' content: the ring just
    large enough for its spaces and what lies inside it (the aids, then the legend at its foot), the `below`
    aids under it, a list as wide as the ring, so it takes no more height than it must; the title inside the
    ring or above it, whichever makes the smaller board."""
    layout = settings.layout
    return min((_plan(game, board, layout, fonts, inside) for inside in (True, False)), key=lambda p: p.width * p.height)


def _plan(game: "Game", board: TrackBoard, layout: "Layout", fonts: FontSet, title_inside: bool) -> BoardPlan:
    size = layout.size(board.space)
    s = max(size.width, size.height)
    corner = layout.sizes.get("corner-space")
    c = max(corner.width, corner.height) if corner else s
    m = layout.margin
    style = layout.track_board
    ink = replace(Ink.of(game, layout, fonts).at(style.aid_type), list_column=style.list_column)
    file = str(game.file("boards.yaml"))
    middle, border = ([lay_out(_shown(aid, game, board), game, ink, AID_WIDTH, file, f"{board.id}.{part}[{i}]")
                       for i, aid in enumerate(getattr(board, part))] for part in ("middle", "border"))
    (top, right, bottom, left), corners = _sides(board)
    across, down = max(len(top), len(bottom)), max(len(left), len(right))
    names = {f.id: f.name for f in game.info.factions}
    legend_w, legend_h = _legend_size(board, names, fonts)
    title = f"{game.info.title}: {board.title}"
    title_w = max(text_width(title, fonts.bold, TITLE_SIZE), text_width(board.note or "", fonts.regular, NOTE_SIZE))
    title_h = pt_to_mm(TITLE_SIZE) * 1.2 + (pt_to_mm(NOTE_SIZE) * 1.3 if board.note else 0)
    heading = [(title_w, title_h)] if title_inside else []
    inner_w, inner_h, inside = _interior(heading + [(a.width, a.height) for a in middle],
                                         [(a.width, a.height) for a in border] + [(legend_w, legend_h)],
                                         across * (s + GAP) + GAP + 2 * (c - s), down * (s + GAP) + GAP + 2 * (c - s),
                                         (down + 1) / (across + 1), c - s, down == across)
    inner_w, inner_h = inner_w - 2 * (c - s), inner_h - 2 * (c - s)
    ring_x, ring_y = m, m + (0.0 if title_inside else title_h + AID_GAP)
    ring_w, ring_h = inner_w + 2 * c, inner_h + 2 * c
    placed: list[SpaceAt] = []
    x0, y0, x1, y1 = ring_x, ring_y, ring_x + ring_w, ring_y + ring_h

    def along(spaces: list[Space], start: tuple[float, float], end: tuple[float, float], heading: tuple[float, float]) -> None:
        for k, space in enumerate(spaces, 1):
            t = k / (len(spaces) + 1)
            cx, cy = start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t
            placed.append(SpaceAt(space, cx - s / 2, cy - s / 2, s, heading, heading))

    corner_at = [(x0, y0), (x1 - c, y0), (x1 - c, y1 - c), (x0, y1 - c)]
    headings = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
    mid = c / 2
    lines = [((x0 + mid, y0 + mid), (x1 - mid, y0 + mid)), ((x1 - mid, y0 + mid), (x1 - mid, y1 - mid)),
             ((x1 - mid, y1 - mid), (x0 + mid, y1 - mid)), ((x0 + mid, y1 - mid), (x0 + mid, y0 + mid))]
    for k in range(CORNERS):
        placed.append(SpaceAt(corners[k], *corner_at[k], c, headings[k], headings[k - 1]))
        along((top, right, bottom, left)[k], *lines[k], headings[k])
    order = {sp.id: i for i, sp in enumerate(board.spaces)}
    placed.sort(key=lambda p: order[p.space.id])
    title_at = (x0 + s + inside[0][0], y0 + s + inside[0][1]) if title_inside else (m, m)
    aids = [(laid, x0 + s + x, y0 + s + y) for laid, (x, y) in zip(middle + border, inside[len(heading):])]
    legend_at = (x0 + s + inside[-1][0], y0 + s + inside[-1][1])
    below = [lay_out(_shown(aid, game, board), game, ink, max(AID_WIDTH, x1 - x0), file, f"{board.id}.below[{i}]")
             for i, aid in enumerate(board.below)]
    corners, right, bottom = _flow([(a.width, a.height) for a in below], x0, y1 + AID_GAP, x1 - x0)
    aids += [(laid, x, y) for laid, (x, y) in zip(below, corners)]
    width, height = max(x1, right) - x0 + 2 * m, (bottom if below else y1) + m + _advice_room()
    colours = {name: (col.fill, col.ink) for name, col in layout.colours.items()}
    colours.update({f.id: (layout.colour(f.id).fill, layout.colour(f.id).ink) for f in game.info.factions})
    arrows = _arrows(board)
    edges = {f.id: layout.colour(f.id).edge for f in game.info.factions if layout.colour(f.id).edge}
    starts = setup_at(game, [sp.label for sp in board.spaces])
    steps = {side: layout.colour(style.step_colours[side]).fill if side in style.step_colours else colours[side][0]
             for _, side in arrows}
    return BoardPlan(board, width, height, m, title, sheet_advice("", (width, height)), placed, aids, legend_at, title_at,
                     fonts, colours, arrows, names, edges, None, starts, layout.safe_zone, layout.edge_clearance,
                     steps, style.step, style.step_line)


def _advice_room() -> float:
    """The height (mm) of the line of printing advice at the board's foot, below everything else."""
    return pt_to_mm(LEGEND_SIZE) * LEGEND_LEADING


def _fits(size: tuple[float, float], sheet: tuple[float, float]) -> bool:
    """Whether a page of `size` fits on `sheet` either way up."""
    return min(size) <= min(sheet) + 1e-6 and max(size) <= max(sheet) + 1e-6


def _shown(aid: Aid, game: "Game", board: TrackBoard) -> Aid:
    """The aid as printed on `board`: a set-up aid becomes the list of what starts on this board's places."""
    if aid.kind != "setup":
        return aid
    names = {f.id: f.name for f in game.info.factions}
    places = [s.label for s in board.spaces] + [name for a in board.aids for name in a.room_names(names)]
    face_down = {slot.label for a in board.aids if a.kind == "slots" for slot in a.slots if slot.face == "down"}
    return setup_as_list(aid, game, places, face_down)


def _interior(middle: list[tuple[float, float]], border: list[tuple[float, float]], least_w: float, least_h: float,
              ratio: float, inset: float, square: bool = False) -> tuple[float, float, list[tuple[float, float]]]:
    """The room inside the ring (width, height, mm) and the aids' corners in it: the `middle` aids in rows across
    its middle, the `border` aids in rows along its lower edge; at least `least_w` x `least_h`, widened until
    the aids fit a room `ratio` times as tall as wide (the ring's own shape), and no taller than they need but
    when `square`. `inset`: room the corner spaces take
    beyond the others."""
    width = max([least_w] + [w + 2 * (AID_GAP + inset) for w, _ in middle + border])
    while True:
        room = width - 2 * (AID_GAP + inset)
        upper, _, upper_bottom = _flow(middle, 0.0, 0.0, room)
        lower, _, lower_bottom = _flow(border, 0.0, 0.0, room)
        needed = upper_bottom + lower_bottom + (AID_GAP if middle and border else 0.0) + 2 * (AID_GAP + inset)
        if needed <= max(least_h, width * ratio) or width > least_w + 2000:
            break
        width += 1.0
    # as many spaces down as across: a square, its corners where the players sit; else as tall as the aids need
    height = max(least_h, needed, width if square else 0.0)
    spare = (height - needed) / 3  # above the middle aids, between them and the border's, below the border's
    lower_top = height - AID_GAP - inset - spare - lower_bottom
    corners = _centred_rows(upper, middle, width, AID_GAP + inset + spare) + _centred_rows(lower, border, width, lower_top)
    return width, height, corners


def _centred_rows(corners: list[tuple[float, float]], sizes: list[tuple[float, float]], width: float, top: float) -> list[tuple[float, float]]:
    """Corners set by _flow, each row moved to the middle of `width` and the whole down by `top`."""
    ends: dict[float, float] = {}
    for (x, y), (w, _) in zip(corners, sizes):
        ends[y] = max(ends.get(y, 0.0), x + w)
    return [(x + (width - ends[y]) / 2, y + top) for x, y in corners]


def _flow(sizes: list[tuple[float, float]], left: float, top: float, width: float) -> tuple[list[tuple[float, float]], float, float]:
    """Top-left corners for boxes of `sizes` set left to right from (left, top), a new row when `width` is full;
    and the right and bottom edges of what was set."""
    corners, x, y, row, right = [], left, top, 0.0, left
    for w, h in sizes:
        if x > left and x + w > left + width:
            x, y, row = left, y + row + AID_GAP, 0.0
        corners.append((x, y))
        x, row, right = x + w + AID_GAP, max(row, h), max(right, x + w)
    return corners, right, y + row


def _legend_lines(board: TrackBoard, names: dict[str, str], arrows: list[tuple[str, str]]) -> list[str]:
    """The legend's lines after its heading: each kind of space (marked when where it stands is assumed), each
    side's footsteps."""
    placed = "spaces" in board.assumed
    lines = [kind.legend + (f" ({cite_as_printed(kind.cite)})" if kind.cite else "") + (f" {ASSUMED_MARK}" if placed else "")
             for kind in board.kinds.values()]
    for way, _ in arrows:
        walkers = [names[k] for k, w in board.directions.items() if w == way]
        walks = "they walk" if len(walkers) > 1 else "it walks"
        lines.append(f"Footsteps of {' and '.join(walkers)}: the way {walks}, never backwards")
    return lines


def _assumed_foot(board: TrackBoard) -> str:
    """What the board's marks stand for, said at its foot beside the printing advice; empty when nothing is marked."""
    read = (["the number of spaces and where each kind stands"] if "spaces" in board.assumed else []) + \
        (["the line under the title"] if "note" in board.assumed else [])
    said = " and ".join(read)
    return f"{ASSUMED_MARK} {said[:1].upper()}{said[1:]}: this edition's reading of the rules." if read else ""


def _arrows(board: TrackBoard) -> list[tuple[str, str]]:
    """(direction, the first side walking it) for each direction a side walks: the side's colour draws its arrows."""
    arrows = []
    for way in ("forward", "backward"):
        sides = [side for side, w in board.directions.items() if w == way]
        if sides:
            arrows.append((way, sides[0]))
    return arrows


def _legend_size(board: TrackBoard, names: dict[str, str], fonts: FontSet) -> tuple[float, float]:
    """The legend's width and height (mm): its heading and its lines."""
    line = pt_to_mm(LEGEND_SIZE) * LEGEND_LEADING
    key = line * 0.7
    texts = _legend_lines(board, names, _arrows(board))
    widest = max(text_width(t, fonts.regular, LEGEND_SIZE) + key + 3 for t in texts)
    return widest, line * (len(texts) + 1)


def _arrow(painter: Painter, x: float, y: float, dx: float, dy: float, length: float, fill: str, edge: str,
           line: float) -> None:
    """A footstep arrow centred on (x, y) pointing along (dx, dy), outlined `line` pt."""
    half = length / 2
    tip = (x + dx * half, y + dy * half)
    back = (x - dx * half, y - dy * half)
    px, py = -dy * half * 0.7, dx * half * 0.7
    painter.polygon([tip, (back[0] + px, back[1] + py), (back[0] - px, back[1] - py)], fill=fill, stroke=edge, line_width=line)


def _draw_space(painter: Painter, plan: BoardPlan, at: SpaceAt) -> None:
    board, fonts = plan.board, plan.fonts
    space = at.space
    kind = board.kinds.get(space.kind) if space.kind else None
    fill = plan.colours.get(kind.colour, ("#ffffff", "#000000"))[0] if kind and kind.colour else "#ffffff"
    painter.rect(at.x, at.y, at.size, at.size, fill=fill, stroke="#000000", line_width=1.2)
    cx, cy = at.centre
    keep = plan.safe  # how far text keeps inside the space's frame, or inside its owner's ring
    band = at.size * BAND if space.owner else 0.0
    if space.owner:
        band_fill, band_ink = plan.colours.get(space.owner, ("#ffffff", "#000000"))
        painter.rect(at.x, at.y, at.size, band, fill=band_fill, stroke="#000000", line_width=1.2)
        if space.owner in plan.edges:  # a partner's colour rings its space as it rings its pieces
            inset = EDGE / 2 + RING_INSET
            painter.rect(at.x + inset, at.y + inset, at.size - 2 * inset, at.size - 2 * inset, stroke=plan.edges[space.owner],
                         line_width=EDGE / PT_MM)
            keep = RING_INSET + EDGE + plan.clearance
        _fit_text(painter, fonts.bold, space.label, cx, at.y + keep, at.y + band, at.size - 2 * keep, LABEL_SIZE, band_ink)
    else:
        _fit_text(painter, fonts.bold, space.label, cx, at.y + keep, at.y + keep + pt_to_mm(LABEL_SIZE), at.size - 2 * keep,
                  LABEL_SIZE, "#000000")
    foot = at.y + at.size - keep
    if kind and kind.mark:
        _fit_text(painter, fonts.bold, kind.mark, cx, foot - pt_to_mm(MARK_SIZE), foot, at.size - 2 * keep, MARK_SIZE, "#000000")
    elif space.label in plan.starts:  # where the set-up puts pieces, said on the space itself
        _fit_text(painter, fonts.regular, plan.starts[space.label], cx, foot - pt_to_mm(START_SIZE), foot, at.size - 2 * keep,
                  START_SIZE, "#000000")
    length = at.size * plan.step
    for k, (way, side) in enumerate(plan.arrows):
        dx, dy = at.heading if way == "forward" else (-at.back[0], -at.back[1])  # the way this side leaves the space
        # each side's footstep stands in the same place on every space, side by side across the page
        offset = (k - (len(plan.arrows) - 1) / 2) * length * 1.4
        _arrow(painter, cx + offset, cy, dx, dy, length, plan.steps.get(side, "#000000"), "#000000", plan.step_line)


def _fit_text(painter: Painter, font: str, text: str, x: float, top: float, bottom: float, width: float, size: float,
              colour: str) -> None:
    """One line centred on x, its ink inside `width` mm and between `top` and `bottom` (mm), set smaller if need be."""
    rise, fall = ink_extent(text, font)
    natural = text_width(text, font, size)
    if natural > width:
        size *= width / natural
    if (rise + fall) * size > (bottom - top) / PT_MM:
        size = (bottom - top) / PT_MM / (rise + fall)
    baseline = (top + bottom) / 2 + (rise - fall) * size * PT_MM / 2
    painter.text(x, baseline, text, font, size, colour=colour, anchor=Anchor.MIDDLE)


def draw_board(painter: Painter, plan: BoardPlan) -> None:
    """The whole board onto the painter's current page."""
    fonts = plan.fonts
    x, y = plan.title_at
    painter.text(x, y + pt_to_mm(TITLE_SIZE) * 0.8, plan.title, fonts.bold, TITLE_SIZE)
    if plan.board.note:
        note = plan.board.note + (f" {ASSUMED_MARK}" if "note" in plan.board.assumed else "")
        painter.text(x, y + pt_to_mm(TITLE_SIZE) * 1.2 + pt_to_mm(NOTE_SIZE) * 1.2, note, fonts.regular, NOTE_SIZE)
    for a, b in zip(plan.spaces, plan.spaces[1:] + (plan.spaces[:1] if plan.board.loop else [])):
        (ax, ay), (bx, by) = a.centre, b.centre
        # a solid path, never dashed: dashes are what the tiled sheets and the cards are cut along
        painter.line(ax, ay, bx, by, stroke="#999999", line_width=2.0)
    for at in plan.spaces:
        _draw_space(painter, plan, at)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)
    _draw_legend(painter, plan)


def _draw_legend(painter: Painter, plan: BoardPlan) -> None:
    fonts, board = plan.fonts, plan.board
    line = pt_to_mm(LEGEND_SIZE) * LEGEND_LEADING
    x, y = plan.legend_at
    painter.text(x, y + line * 0.6, "Legend", fonts.bold, LEGEND_SIZE + 2)
    y += line
    key = line * 0.7
    texts = iter(_legend_lines(board, plan.names, plan.arrows))
    for kind in board.kinds.values():
        fill = plan.colours.get(kind.colour, ("#ffffff", "#000000"))[0] if kind.colour else "#ffffff"
        painter.rect(x, y, key, key, fill=fill, stroke="#000000", line_width=0.8)
        painter.text(x + key + 3, y + key * 0.8, next(texts), fonts.regular, LEGEND_SIZE)
        y += line
    for way, side in plan.arrows:
        _arrow(painter, x + key / 2, y + key / 2, 1.0, 0.0, key, plan.steps.get(side, "#000000"), "#000000", plan.step_line)
        painter.text(x + key + 3, y + key * 0.8, next(texts), fonts.regular, LEGEND_SIZE)
        y += line
    advice = plan.advice[:1].upper() + plan.advice[1:] + "."  # at the board's foot, apart from what the board says
    foot = _assumed_foot(board)
    if foot:
        advice += "   " + foot
    painter.text(plan.margin, plan.height - plan.margin - _advice_room() * 0.3, advice, fonts.regular, LEGEND_SIZE - 1,
                 colour="#555555")


def board_boxes(plan: BoardPlan) -> list[Box]:
    """What a seam should not cut on the board (page mm): every space, each card place of an aid holding several,
    and every other aid whole (a box with its title and text, a list)."""
    return [Box(at.x, at.y, at.size, at.size) for at in plan.spaces] + kept_whole(plan.aids)


def build_boards(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """board-ID.pdf for each track board, on the smallest of the layout's stock sheets for the chosen paper
    (`board_sheet`) that holds it, or at its own size when none does; board-ID-tiles.pdf, the board over the
    chosen paper, its blank border needing no paper of its own."""
    if game.boards is None:
        return []
    layout = settings.layout
    fonts = register_fonts(layout.fonts, game.folder)
    documents: list["Document"] = []
    stocks = [(name, (size.width, size.height)) for name in layout.board_sheets(settings.paper_name)
              for size in [layout.paper_size(name)]]
    for board in game.boards.boards:
        plan = plan_board(game, settings, board, fonts)
        holding = [(name, size) for name, size in stocks if _fits((plan.width, plan.height), size)]
        if holding:
            name, size = min(holding, key=lambda stock: stock[1][0] * stock[1][1])
            plan = replace(plan, sheet=size, advice=sheet_advice(name, size))
        page = Drawing(plan.width, plan.height, partial(draw_board, plan=plan), key=plan.title)
        documents += whole_and_tiled(settings.game_dir(game), f"board-{board.id}", page, plan.advice, fonts, settings,
                                     plan.title, page_margin=plan.margin, sheet=plan.sheet, avoid=board_boxes(plan))
    return documents
