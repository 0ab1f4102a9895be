"""A large page printed on small paper: cut into overlapping sheets, each with alignment marks and its
place named, after an index page that shows where every sheet goes and how to join them.

Sheets are numbered row by row from the top left; the page is centred on them, so no end sheet is
mostly blank, and a sheet that would print nothing of its own (blank paper, or only what its neighbours
repeat) is left out. Neighbouring sheets repeat `overlap` mm of the page. A sheet is trimmed along its
dashed left and top edges and laid over its neighbours, its edge along the guide line they print
in the strip it covers (with a + at its corner), so nothing but the page shows once assembled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.units import pt_to_mm
from ..printing.fonts import FontSet, text_width
from ..printing.geometry import Box
from ..printing.imposition import scale_advice
from ..printing.painter import Anchor, Clip, Drawing, Painter, PdfPainter
from ..printing.render import Document, collector_paused, draw_document
from ..printing.textfit import Paragraph, fit_text

if TYPE_CHECKING:
    from ..printing.settings import PrintSettings

OVERLAP = 12.0  # mm of the page repeated on neighbouring sheets
SEAM_CLEARANCE = 2.0  # mm a seam keeps from a box it should not cut, where it can
ON_EDGE = 0.05  # mm: a seam this near a box's edge runs along it and cuts nothing (boxes side by side share an edge)
OFFSET_TRIES = 200  # shifts of the sheets tried across the paper left over
PAIRED_TRIES = 40  # shifts tried each way together when blank sheets can be left out (at most)
PAIRED_BUDGET = 20000  # sheets weighed in all, over every pair of shifts: a page of many sheets tries fewer shifts
FAIR_SHARE = 0.25  # a sheet showing less than this share of the ink the average sheet shows is nearly blank paper
PAIRED_BEST = 60  # the shifts each way that cut the fewest boxes, tried with the even ones for the fewest sheets
INK_RESOLUTION = 1.0  # pixels per mm of the page's picture that tells a sheet with ink from a blank one
INK_PIXELS = 4_000_000  # at most: a page larger than that is pictured more coarsely
PAPER_WHITE = 245  # a pixel lighter than this in every channel is blank paper
MARK = 3.0  # mm: half the length of an alignment mark's arms
LABEL_SIZE, HEADING_SIZE, TEXT_SIZE = 7.0, 20.0, 11.0
FOOTER = 6.7  # mm from the paper's bottom edge to the footer's baseline (its letters stay 6 mm clear)


@dataclass(frozen=True)
class Sheet:
    number: int
    row: int
    column: int
    window: Box


@dataclass(frozen=True)
class TilePlan:
    """How a `page` (width, height) is cut over `paper` (width, height, as it lies) with `margin` all round."""

    page: tuple[float, float]
    paper: tuple[float, float]
    margin: float
    overlap: float
    rows: int
    columns: int
    sheets: tuple[Sheet, ...]

    @property
    def step(self) -> tuple[float, float]:
        return self.paper[0] - 2 * self.margin - self.overlap, self.paper[1] - 2 * self.margin - self.overlap

    def sheet(self, row: int, column: int) -> Sheet | None:
        """The sheet printed at that place of the grid, None off the grid or where a blank sheet was left out."""
        return next((s for s in self.sheets if (s.row, s.column) == (row, column)), None)


def _count(length: float, shown: float, step: float) -> int:
    return 1 if length <= shown else math.ceil((length - shown) / step - 1e-9) + 1


@dataclass(frozen=True)
class _Axis:
    """One way across the page: the content from `start` to `end`, `count` sheets `step` apart whose first may
    start anywhere from `start` back to `start - spread` (the paper left over), and the `spans` of the boxes
    its seams should not cut."""

    start: float
    end: float
    spread: float
    step: float
    count: int
    spans: tuple[tuple[float, float], ...]

    def scores(self, firsts: Sequence[float]):
        """For each start of the first sheet: how many spans the seams cross; how many more they pass within
        SEAM_CLEARANCE of; how far the first sheet is from the middle of the paper left over (which shares it
        between the first and last sheet). A seam along a span's edge cuts nothing; one outside the content
        neither. An array (firsts, 3)."""
        import numpy as np

        first = np.asarray(firsts, dtype=float)
        seams = first[:, None] + self.step * np.arange(1, self.count)[None, :]  # (firsts, seams)
        seams = np.where((seams > self.start) & (seams < self.end), seams, np.nan)[:, :, None]
        lo, hi = (np.array([span[i] for span in self.spans], dtype=float).reshape(1, 1, -1) for i in (0, 1))
        cut = ((seams > lo + ON_EDGE) & (seams < hi - ON_EDGE)).sum(axis=(1, 2))
        near = ((seams > lo - SEAM_CLEARANCE) & (seams < hi + SEAM_CLEARANCE)).sum(axis=(1, 2)) - cut
        return np.stack([cut, near, np.abs(first - (self.start - self.spread / 2))], axis=1)

    def tries(self, count: int) -> list[float]:
        """The middle of the paper left over, then `count` + 1 shifts evenly across it."""
        return [self.start - self.spread / 2] + [self.start - self.spread * k / count for k in range(count + 1)]

    def ranked(self) -> list[float]:
        """Where the first sheet may start, best scored first: OFFSET_TRIES shifts across the paper left over,
        and every shift that lays a seam along a span's edge (boxes side by side are parted exactly between them)."""
        import numpy as np

        found = set(self.tries(OFFSET_TRIES))
        for lo, hi in self.spans:
            for edge in (lo, hi):
                found.update(first for k in range(1, self.count) for first in [edge - k * self.step]
                             if self.start - self.spread <= first <= self.start)
        found = sorted(found)
        scores = self.scores(found)
        return [found[i] for i in np.lexsort(scores.T[::-1])]


class PageInk:
    """Where a page has ink: a picture of it at `resolution` pixels a mm, summed so that the ink in any rectangle
    is read at once."""

    def __init__(self, inked, resolution: float = INK_RESOLUTION):
        import numpy as np

        self.resolution = resolution
        self.height, self.width = inked.shape
        self.mask = inked
        self.sums = np.zeros((self.height + 1, self.width + 1), dtype=np.int64)
        self.sums[1:, 1:] = inked.cumsum(0).cumsum(1)

    @classmethod
    def of(cls, page: Drawing, fonts: FontSet, pdf: bytes | None = None) -> "PageInk":
        """The ink of `page`, pictured from `pdf` when given (a PDF whose first page is `page` drawn alone), else
        from the page drawn afresh."""
        import pypdfium2 as pdfium

        resolution = min(INK_RESOLUTION, math.sqrt(INK_PIXELS / (page.width * page.height)))
        if pdf is None:
            with collector_paused():
                painter = PdfPainter(fonts)
                painter.new_page(page.width, page.height)
                page.draw(painter)
                pdf = painter.pdf_bytes()
        document = pdfium.PdfDocument(pdf)
        try:
            picture = document[0].render(scale=resolution * 25.4 / 72).to_numpy()
        finally:
            document.close()
        return cls((picture[:, :, :3] < PAPER_WHITE).any(axis=2), resolution)

    def _px(self, x: float, y: float) -> tuple[int, int]:
        return (min(max(round(x * self.resolution), 0), self.width), min(max(round(y * self.resolution), 0), self.height))

    def inside(self, x0: float, y0: float, x1: float, y1: float) -> int:
        """How many inked pixels lie in the rectangle (page mm)."""
        (a, b), (c, d) = self._px(x0, y0), self._px(x1, y1)
        if c <= a or d <= b:
            return 0
        return int(self.sums[d, c] - self.sums[b, c] - self.sums[d, a] + self.sums[b, a])

    def unshown(self, windows: Sequence[Box]):
        """The inked pixels no window shows, as a picture of the page (True where so)."""
        import numpy as np

        shown = np.zeros_like(self.mask)
        for w in windows:
            (a, b), (c, d) = self._px(w.x, w.y), self._px(w.right, w.bottom)
            shown[b:d, a:c] = True
        return self.mask & ~shown

    def bounds(self) -> Box | None:
        """The smallest rectangle (page mm) holding all the ink, None on a blank page."""
        import numpy as np

        rows, columns = np.flatnonzero(self.mask.any(axis=1)), np.flatnonzero(self.mask.any(axis=0))
        if not len(rows):
            return None
        r = self.resolution
        return Box(float(columns[0] / r), float(rows[0] / r), float((columns[-1] + 1 - columns[0]) / r), float((rows[-1] + 1 - rows[0]) / r))

    def uncovered(self, windows: Sequence[Box]) -> int:
        """How many inked pixels no window shows."""
        return int(self.unshown(windows).sum())


def _own_ink(ink: PageInk, window: Box, overlap: float, neighbours: tuple[bool, bool, bool, bool]) -> int:
    """The ink a sheet shows that none of its neighbours (left, right, above, below: whether there is one) repeats."""
    left, right, above, below = neighbours
    return ink.inside(window.x + (overlap if left else 0.0), window.y + (overlap if above else 0.0),
                      window.right - (overlap if right else 0.0), window.bottom - (overlap if below else 0.0))


def _own_inks(ink: PageInk, windows: list[Box], rows: int, columns: int, overlap: float) -> list[int]:
    """For each place of the grid (row * columns + column): the ink its sheet shows that its neighbours do not repeat."""
    return [_own_ink(ink, w, overlap, (i % columns > 0, i % columns < columns - 1, i >= columns, i < (rows - 1) * columns))
            for i, w in enumerate(windows)]


def _inked(ink: PageInk, windows: list[Box], rows: int, columns: int, overlap: float) -> list[int]:
    """The places of the grid whose sheets show ink their neighbours do not repeat."""
    return [i for i, own in enumerate(_own_inks(ink, windows, rows, columns, overlap)) if own > 0]


def _spans(ink: PageInk, starts: Sequence[float], step: float, shown: float, count: int, overlap: float, axis: int):
    """For each start of the first sheet along `axis` (0 across, 1 down), the pixels (from, to) along it that each of
    the `count` sheets shows and its neighbours do not repeat, read as _own_ink reads them: an array (starts, count, 2)."""
    import numpy as np

    def px(at: float) -> int:
        return ink._px(at, at)[axis]

    spans = [[(px(first + k * step + (overlap if k > 0 else 0.0)),
               px(first + k * step + shown - (overlap if k < count - 1 else 0.0))) for k in range(count)]
             for first in starts]
    return np.array(spans, dtype=np.int64).reshape(len(starts), count, 2)


def _own_inks_at(ink: PageInk, xs: Sequence[float], ys: Sequence[float], step: tuple[float, float],
                 shown: tuple[float, float], rows: int, columns: int, overlap: float):
    """_own_inks for the sheets whose first starts at (xs[i], ys[j]), for every i and j together: an array
    (xs, ys, rows, columns), 0 for a sheet clipped to nothing."""
    import numpy as np

    across = _spans(ink, xs, step[0], shown[0], columns, overlap, 0)
    down = _spans(ink, ys, step[1], shown[1], rows, overlap, 1)
    a, c = across[:, None, None, :, 0], across[:, None, None, :, 1]  # (x, 1, 1, column)
    b, d = down[None, :, :, None, 0], down[None, :, :, None, 1]  # (1, y, row, 1)
    s = ink.sums
    return np.where((c > a) & (d > b), s[d, c] - s[b, c] - s[d, a] + s[b, a], 0)


def _paper_used(own):
    """From the sheets' own ink (_own_inks_at): how many print ink of their own, and how many of those are nearly
    blank (under FAIR_SHARE of the average's own ink): the fewer of each, the better the paper is used. Two
    arrays (xs, ys)."""
    import numpy as np

    printed = (own > 0).sum(axis=(2, 3))
    average = own.sum(axis=(2, 3)) / np.maximum(printed, 1)
    return printed, ((own > 0) & (own < FAIR_SHARE * average[:, :, None, None])).sum(axis=(2, 3))


def _printed(ink: PageInk | None, windows: list[Box], rows: int, columns: int, overlap: float) -> list[int]:
    """The places of the grid whose sheets are printed: every one without `ink`, else those with ink of their own
    (_inked), and those left out that show ink no printed sheet does (two neighbours sharing it in their overlap)."""
    if ink is None:
        return list(range(len(windows)))
    kept = _inked(ink, windows, rows, columns, overlap)
    unshown = PageInk(ink.unshown([windows[i] for i in kept]), ink.resolution)  # ink only sheets left out share
    kept += [i for i, w in enumerate(windows) if i not in kept and unshown.inside(w.x, w.y, w.right, w.bottom)]
    return sorted(kept) or [0]


def plan_tiles(page: tuple[float, float], paper: tuple[float, float], margin: float, overlap: float = OVERLAP,
               inset: float = 0.0, avoid: Sequence[Box] = (), ink: PageInk | None = None) -> TilePlan:
    """The fewest sheets of `paper` (portrait or landscape, whichever needs fewer) covering `page` inside its own
    blank border of `inset` mm, which needs no paper of its own, and given the page's `ink`, only the rectangle
    that holds it: a page whose content fits a sheet takes one. Within the paper left over, the sheets are
    shifted so that their seams cross as few of the `avoid` boxes (spaces, boxes on the page; page mm) as they
    can, then pass near as few (_Axis). Given the `ink`, a sheet that would show none of its own is left out,
    and the shift is chosen first to leave out as many as it can. Of the two ways up, the one with fewer sheets,
    then the one whose seams cut fewer boxes."""
    plans = []
    inset = max(0.0, min(inset, page[0] / 2, page[1] / 2))
    x0, y0, x1, y1 = inset, inset, page[0] - inset, page[1] - inset
    inked = ink.bounds() if ink is not None else None
    if inked is not None:  # a pixel's grace each side: the picture is coarser than the page
        grace = 1 / ink.resolution
        x0, y0 = max(x0, min(inked.x - grace, x1)), max(y0, min(inked.y - grace, y1))
        x1, y1 = max(x0, min(x1, inked.right + grace)), max(y0, min(y1, inked.bottom + grace))
    content = (x1 - x0, y1 - y0)
    spans_x, spans_y = tuple((b.x, b.right) for b in avoid), tuple((b.y, b.bottom) for b in avoid)
    for width, height in ((min(paper), max(paper)), (max(paper), min(paper))):
        shown_w, shown_h = width - 2 * margin, height - 2 * margin
        if shown_w <= overlap or shown_h <= overlap:
            continue
        step_w, step_h = shown_w - overlap, shown_h - overlap
        columns = _count(content[0], shown_w, step_w)
        rows = _count(content[1], shown_h, step_h)
        spread_w, spread_h = columns * step_w + overlap - content[0], rows * step_h + overlap - content[1]

        def windows(left: float, top: float) -> list[Box]:
            return [Box(left + c * step_w, top + r * step_h, shown_w, shown_h) for r in range(rows) for c in range(columns)]

        across = _Axis(x0, x1, spread_w, step_w, columns, spans_x)
        down = _Axis(y0, y1, spread_h, step_h, rows, spans_y)
        ranked_x, ranked_y = across.ranked(), down.ranked()
        left, top = ranked_x[0], ranked_y[0]
        if ink is not None and rows * columns > 1:
            count = max(1, min(PAIRED_TRIES, math.isqrt(PAIRED_BUDGET // (rows * columns))))
            xs = sorted(set(across.tries(count) + ranked_x[:PAIRED_BEST]))
            ys = sorted(set(down.tries(count) + ranked_y[:PAIRED_BEST]))
            own = _own_inks_at(ink, xs, ys, (step_w, step_h), (shown_w, shown_h), rows, columns, overlap)
            left, top = _best_pair(xs, ys, _paper_used(own), across.scores(xs), down.scores(ys))
        boxes = windows(left, top)
        kept = _printed(ink, boxes, rows, columns, overlap)
        sheets = tuple(Sheet(n, i // columns, i % columns, boxes[i]) for n, i in enumerate(kept, 1))
        plans.append(TilePlan(page, (width, height), margin, overlap, rows, columns, sheets))
    if not plans:
        from ..core.errors import OptionError

        raise OptionError(f"paper of {paper[0]:g} x {paper[1]:g} mm leaves no room to print inside {margin:g} mm margins")
    return min(plans, key=lambda p: (len(p.sheets), _boxes_cut(p, avoid)))


def _boxes_cut(plan: TilePlan, avoid: Sequence[Box]) -> int:
    """How many of the `avoid` boxes the plan's seams cut: of two ways up that take as many sheets, the one that
    parts fewer spaces is printed."""
    xs, ys = seams(plan)
    return sum(1 for b in avoid if any(b.x + ON_EDGE < x < b.right - ON_EDGE for x in xs)
               or any(b.y + ON_EDGE < y < b.bottom - ON_EDGE for y in ys))


def _best_pair(xs: list[float], ys: list[float], used, scores_x, scores_y) -> tuple[float, float]:
    """The shift of the sheets (xs[i], ys[j]) that prints the fewest sheets, then the fewest nearly blank ones
    (`used`: _paper_used), then whose seams cut the fewest boxes, pass near the fewest, and lie nearest the
    middle (`scores_x`, `scores_y`: _Axis.scores each way)."""
    import numpy as np

    printed, blank = used
    keys = [printed, blank] + [scores_x[:, None, k] + scores_y[None, :, k] for k in range(3)]
    order = np.lexsort([np.broadcast_to(key, printed.shape).ravel() for key in reversed(keys)])
    i, j = np.unravel_index(order[0], printed.shape)
    return xs[i], ys[j]


def seams(plan: TilePlan) -> tuple[list[float], list[float]]:
    """Where the assembled page is joined (page mm): the x of each upright seam, the y of each level one (the
    trimmed left and top edges of the sheets after the first column and row)."""
    xs = sorted({s.window.x for s in plan.sheets if s.column > 0})
    ys = sorted({s.window.y for s in plan.sheets if s.row > 0})
    return xs, ys


def sheet_advice(paper_name: str, size: tuple[float, float]) -> str:
    """How to print a one-page sheet larger than a home printer's: actual size on its paper, one-sided."""
    width, height = (round(v / 25.4, 1) for v in size)
    return f"{scale_advice(paper_name)} ({width:g} × {height:g} in), one-sided, at a print shop if need be"


def tiles_advice(paper_name: str, plan: TilePlan) -> str:
    """How to print and join the sheets of a tiled page."""
    return (f"{scale_advice(paper_name)} (no fit to page), one-sided; trim each sheet along its dashed edges and lay it "
            f"{plan.overlap:g} mm over its neighbours")


def whole_and_tiled(folder: Path, name: str, page: Drawing, advice: str, fonts: FontSet, settings: "PrintSettings",
                    title: str, page_margin: float = 0.0, sheet: tuple[float, float] | None = None,
                    avoid: Sequence[Box] = (), tiled: Drawing | None = None) -> list[Document]:
    """NAME.pdf, `page` whole on one sheet of its size, or centred on a stock `sheet` (width, height, mm: turned
    the page's way) that holds it (for a print shop, or a printer that takes it), and NAME-tiles.pdf, the same
    page over the chosen paper when it takes more than one sheet (the page's own blank border of `page_margin`
    mm left off the sheets, its seams off the `avoid` boxes where the paper left over allows: plan_tiles), or
    the `tiled` page instead when given (the same content laid out for the home paper).
    The tiles have no SVG pages: they are windows onto the page, whose own SVG holds it whole."""

    def whole(painter: Painter) -> None:
        if sheet is None:
            painter.new_page(page.width, page.height)
            page.draw(painter)
            return
        tall = page.height >= page.width
        width, height = (min(sheet), max(sheet)) if tall else (max(sheet), min(sheet))
        painter.new_page(width, height)
        painter.place(page, (width - page.width) / 2, (height - page.height) / 2)

    documents = [draw_document(folder / f"{name}.pdf", whole, fonts, settings.formats, title=title, advice=advice,
                               dpi=settings.dpi)]
    paper = settings.paper
    cut = tiled or page
    drawn = documents[0].files.get(f"{name}.pdf") if sheet is None and tiled is None else None  # the page alone
    tiles = plan_tiles((cut.width, cut.height), (paper.width, paper.height), settings.layout.margin, inset=page_margin,
                       avoid=avoid, ink=PageInk.of(cut, fonts, drawn))
    if len(tiles.sheets) > 1:
        tiled_advice = tiles_advice(settings.paper_name, tiles)
        draw = partial(draw_tiled, plan=tiles, page=cut, fonts=fonts, title=title, advice=tiled_advice)
        documents.append(draw_document(folder / f"{name}-tiles.pdf", draw, fonts,
                                       [f for f in settings.formats if f != "svg"], title=f"{title}, tiled",
                                       advice=tiled_advice, dpi=settings.dpi))
    return documents


def draw_tiled(painter: Painter, plan: TilePlan, page: Drawing, fonts: FontSet, title: str, advice: str) -> None:
    """The index page (saying how to print: `advice`), then one page per sheet showing its window of `page`
    (drawn once, placed on every sheet)."""
    _draw_index(painter, plan, page, fonts, title, advice)
    for sheet in plan.sheets:
        _draw_sheet(painter, plan, sheet, page, fonts, title)


def _draw_index(painter: Painter, plan: TilePlan, page: Drawing, fonts: FontSet, title: str, advice: str) -> None:
    width, height = plan.paper
    m = plan.margin
    painter.new_page(width, height)
    heading = f"{title}: how the sheets fit"
    natural = text_width(heading, fonts.bold, HEADING_SIZE)
    size = HEADING_SIZE * min(1.0, (width - 2 * m) / natural)  # a long title is set smaller rather than run off the sheet
    painter.text(m, m + pt_to_mm(HEADING_SIZE), heading, fonts.bold, size)
    grid = f"{plan.rows} rows of {plan.columns}"
    if len(plan.sheets) < plan.rows * plan.columns:
        grid = f"in {plan.rows} rows of up to {plan.columns} (where the diagram shows no number the sheet would be blank and is not printed)"
    note = (f"{advice[:1].upper()}{advice[1:]}. {len(plan.sheets)} sheets, {grid}. A sheet has a dashed edge only on a side "
            "where another sheet lies under it: trim it there. Lay each sheet over its neighbours with its dashed "
            "edges along their solid guide lines, which name it, and its corner on the + mark, and tape it from behind.")
    text_top = m + pt_to_mm(HEADING_SIZE) + 4
    fitted = fit_text(Paragraph(note, fonts.regular), width - 2 * m, 40, largest=TEXT_SIZE, smallest=7, what="the tiling instructions")
    painter.text_block(fitted, m, text_top, width - 2 * m, anchor=Anchor.START)
    top = text_top + fitted.height + 6
    scale = min((width - 2 * m) / plan.page[0], (height - m - top) / plan.page[1])
    left = m + ((width - 2 * m) - plan.page[0] * scale) / 2
    painter.place(page, left, top, scale)
    painter.rect(left, top, plan.page[0] * scale, plan.page[1] * scale, stroke="#000000", line_width=0.5)
    for sheet in plan.sheets:
        w = sheet.window
        x0, y0 = max(w.x, 0.0), max(w.y, 0.0)
        x, y = left + x0 * scale, top + y0 * scale
        cw, ch = min(w.right, plan.page[0]) - x0, min(w.bottom, plan.page[1]) - y0
        painter.rect(x, y, cw * scale, ch * scale, stroke="#c0392b", line_width=1.0)
        size = min(28.0, ch * scale * 1.2)
        painter.circle(x + cw * scale / 2, y + ch * scale / 2, pt_to_mm(size) * 0.8, fill="#ffffff", stroke="#c0392b", line_width=1.0)
        painter.text(x + cw * scale / 2, y + ch * scale / 2 + pt_to_mm(size) * 0.36, str(sheet.number), fonts.bold, size,
                     colour="#c0392b", anchor=Anchor.MIDDLE)


def _draw_sheet(painter: Painter, plan: TilePlan, sheet: Sheet, page: Drawing, fonts: FontSet, title: str) -> None:
    width, height = plan.paper
    m, w = plan.margin, sheet.window
    painter.new_page(width, height)
    painter.place(page, m - w.x, m - w.y, clip=Clip(m, m, w.width, w.height))
    step_x, step_y = plan.step
    trim = dict(stroke="#7f7f7f", line_width=0.4, dash=(2.0, 1.5))
    if plan.sheet(sheet.row, sheet.column - 1) is not None:
        painter.line(m, m, m, height - m, **trim)
    if plan.sheet(sheet.row - 1, sheet.column) is not None:
        painter.line(m, m, width - m, m, **trim)
    # Guides only in the strips the next sheet to the right and below will cover: where its trimmed
    # edge goes, with its corner marked; nothing is printed over what stays in view.
    # Each guide is solid and names the sheet laid along it, so it never reads as an edge to trim.
    if (right := plan.sheet(sheet.row, sheet.column + 1)) is not None:
        x = m + step_x
        _guide(painter, x, m, x, height - m)
        _mark(painter, x, m + MARK)
        painter.text(x + pt_to_mm(LABEL_SIZE) * 1.4, height - m - MARK, _laid_here(right), fonts.regular, LABEL_SIZE,
                     angle=90.0, halo=("#ffffff", 1.6))
    if (below := plan.sheet(sheet.row + 1, sheet.column)) is not None:
        y = m + step_y
        _guide(painter, m, y, width - m, y)
        _mark(painter, m + MARK, y)
        painter.text(m + 3 * MARK, y + pt_to_mm(LABEL_SIZE) * 1.4, _laid_here(below), fonts.regular, LABEL_SIZE,
                     halo=("#ffffff", 1.6))
    neighbours = [f"{side} {n.number}" for side, n in (("left", plan.sheet(sheet.row, sheet.column - 1)),
                                                         ("right", plan.sheet(sheet.row, sheet.column + 1)),
                                                         ("above", plan.sheet(sheet.row - 1, sheet.column)),
                                                         ("below", plan.sheet(sheet.row + 1, sheet.column))) if n]
    label = f"{title} · sheet {sheet.number} of {len(plan.sheets)} · row {sheet.row + 1}, column {sheet.column + 1}"
    if neighbours:
        label += " · " + ", ".join(neighbours)
    painter.text(m, height - FOOTER, label, fonts.regular, LABEL_SIZE)


def _laid_here(neighbour: Sheet) -> str:
    return f"sheet {neighbour.number} lies over this strip: its dashed edge on this line"


def _guide(painter: Painter, x1: float, y1: float, x2: float, y2: float) -> None:
    """The line the next sheet's trimmed edge is laid along: solid, unlike the dashed edges cut, black over white so
    it shows on any colour."""
    painter.line(x1, y1, x2, y2, stroke="#ffffff", line_width=1.6)
    painter.line(x1, y1, x2, y2, stroke="#000000", line_width=0.4)


def _mark(painter: Painter, x: float, y: float) -> None:
    """An alignment mark: a cross in a ring, in black over white so it shows on any colour."""
    painter.circle(x, y, MARK * 0.55, stroke="#ffffff", line_width=1.6)
    painter.line(x - MARK, y, x + MARK, y, stroke="#ffffff", line_width=1.6)
    painter.line(x, y - MARK, x, y + MARK, stroke="#ffffff", line_width=1.6)
    painter.circle(x, y, MARK * 0.55, stroke="#000000", line_width=0.4)
    painter.line(x - MARK, y, x + MARK, y, stroke="#000000", line_width=0.4)
    painter.line(x, y - MARK, x, y + MARK, stroke="#000000", line_width=0.4)
