"""Fitting text into a box: wrap at word boundaries and shrink until it fits, never below a minimum size.

A box that cannot hold its text at the minimum size is an error naming the item, so that a
printed piece is never silently clipped. Sizes are in points, box sizes and positions in mm.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import DossierError
from ..core.units import mm_to_pt, pt_to_mm
from .fonts import extent, ink_extent, text_width, unit_width

STEP = 0.25  # pt between the sizes tried, largest first
LEADING = 1.15  # line height as a multiple of the text size
MEASURES = (1.0, 0.8, 0.65, 0.5, 0.35)  # a diagonal's length shares tried as the measure of text set along it


class TextFitError(DossierError):
    """Text that does not fit its box even at the smallest allowed size."""


@dataclass(frozen=True)
class Paragraph:
    """A run of text set in one font; `scale` sizes it relative to the block's body size.

    `indent` (mm) sets every line of it in from the block's left; `space_before` adds room above
    it (a multiple of the body size); `run_in` continues the previous paragraph's last line when
    the first word fits there (a bold label, then the text, then a smaller note); `colour` inks it.
    """

    text: str
    font: str
    scale: float = 1.0
    indent: float = 0.0
    space_before: float = 0.0
    run_in: bool = False
    colour: str | None = None
    symbol: str | None = None  # drawn in place of the text (a bullet's), as large as the line's capitals and more;
    # SWATCH: a patch of the paragraph's colour


SWATCH = "\x00swatch"  # a Paragraph's symbol that is a patch of colour, not a drawing (no drawing has this name)


@dataclass(frozen=True)
class Line:
    """One set line: its text, font and size (pt), and its baseline in mm below the block's top."""

    text: str
    font: str
    size: float
    baseline: float
    x: float = 0.0
    colour: str | None = None
    symbol: str | None = None  # a drawn symbol in place of the text


@dataclass(frozen=True)
class FittedText:
    """Text wrapped and sized to a box: the body size (pt), the lines, and the block's height in mm."""

    size: float
    lines: tuple[Line, ...]
    height: float


def _wrap(words: Sequence[str], widths: Sequence[float], space: float, limit: float,
          first_limit: float | None = None) -> list[str] | None:
    """Greedy word wrap in unit-size widths; None when one word alone is wider than `limit`.

    With `first_limit`, the first line has only that much room and may come back empty ("").
    """
    lines: list[str] = []
    current: list[str] = []
    used = 0.0
    room = limit if first_limit is None else first_limit
    for word, width in zip(words, widths):
        if width > limit:
            return None
        if (current and used + space + width > room) or (not current and width > room):
            lines.append(" ".join(current))
            current, used, room = [word], width, limit
        else:
            used = used + space + width if current else width
            current.append(word)
    if current:
        lines.append(" ".join(current))
    return lines


_BREAKS = re.compile(r"[^\S\u00a0]+")  # white space a line may break at: any but the no-break space


def _words(text: str) -> list[str]:
    """The unbreakable pieces of `text`: its words, a lone sign ("$", "·") kept with the word before it.

    A no-break space (U+00A0) joins the words on either side of it ("Br\u00a032" stays on one line).
    """
    words: list[str] = []
    for word in filter(None, _BREAKS.split(text)):
        if words and len(word) == 1 and not word.isalnum():
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def _set(paragraphs: Sequence[Paragraph], measured: list, size: float, width_pt: float,
         height_pt: float, leading: float, smallest: float = 0.0) -> FittedText | None:
    lines: list[Line] = []
    top = 0.0
    end = 0.0  # where the last line set ends, pt from the block's left
    for paragraph, (words, widths, space) in zip(paragraphs, measured):
        line_size = max(size * paragraph.scale, smallest)  # a scaled-down paragraph never goes below the minimum either
        indent = mm_to_pt(paragraph.indent)
        limit = (width_pt - indent) / line_size
        joins = paragraph.run_in and bool(lines)
        start = max(end + space * line_size, indent) if joins else indent
        wrapped = _wrap(words, widths, space, limit, (width_pt - start) / line_size if joins else None)
        if wrapped is None:
            return None
        if joins:
            first = wrapped.pop(0)
            if first:
                # a real space joins the run-on text, so it reads (and copies) as words, not one run
                spaced = start == end + space * line_size
                text, x = (" " + first, end) if spaced else (first, start)
                lines.append(Line(text, paragraph.font, line_size, lines[-1].baseline, pt_to_mm(x), paragraph.colour,
                                  paragraph.symbol))
                end = start + unit_width(first, paragraph.font) * line_size
        elif paragraph.space_before and lines:
            top += paragraph.space_before * size
        for text in wrapped:
            line_height = line_size * leading
            # baseline sits so that the capitals are centred in the line box, the ascenders inside it
            baseline = top + max((line_height + 0.72 * line_size) / 2, extent(paragraph.font)[0] * line_size)
            lines.append(Line(text, paragraph.font, line_size, pt_to_mm(baseline), paragraph.indent, paragraph.colour,
                              paragraph.symbol))
            end = indent + unit_width(text, paragraph.font) * line_size
            top += line_height
            if top > height_pt + 1e-6:
                return None
    if lines:  # the block reaches down to the last line's descenders, which may hang below its line box
        top = max(top, mm_to_pt(lines[-1].baseline) + extent(lines[-1].font)[1] * lines[-1].size)
        if top > height_pt + 1e-6:
            return None
    return FittedText(size, tuple(lines), pt_to_mm(top))


def _prepared(paragraphs: str | Paragraph | Sequence[Paragraph], font: str | None) -> tuple[list[Paragraph], list]:
    """The non-empty paragraphs and, for each, its words, their widths at 1 pt and a space's width."""
    if isinstance(paragraphs, str):
        if font is None:
            raise TypeError("fit_text needs a font for plain text")
        paragraphs = [Paragraph(paragraphs, font)]
    elif isinstance(paragraphs, Paragraph):
        paragraphs = [paragraphs]
    paragraphs = [p for p in paragraphs if p.text.strip()]
    return paragraphs, [_measured(p.text, p.font) for p in paragraphs]


@lru_cache(maxsize=16384)
def _measured(text: str, font: str) -> tuple[list[str], list[float], float]:
    """A text's words, their widths at 1 pt in `font` and a space's width; texts recur, so they are remembered."""
    words = _words(text)
    return words, [unit_width(w, font) for w in words], unit_width(" ", font)


def set_text(paragraphs: str | Paragraph | Sequence[Paragraph], width: float, height: float, size: float, *,
             font: str | None = None, leading: float = LEADING, smallest: float = 0.0) -> FittedText | None:
    """The paragraphs set at exactly `size` pt in `width` x `height` mm, or None when they do not fit."""
    paragraphs, _ = _prepared(paragraphs, font)
    return _set_at(tuple(paragraphs), width, height, size, leading, smallest)


@lru_cache(maxsize=65536)
def _set_at(paragraphs: tuple[Paragraph, ...], width: float, height: float, size: float, leading: float,
            smallest: float) -> FittedText | None:
    """set_text's answer, remembered: a kind's size is found by setting its texts, which are then set
    again at that size to be drawn."""
    measured = [_measured(p.text, p.font) for p in paragraphs]
    return _set(paragraphs, measured, size, mm_to_pt(width), mm_to_pt(height), leading, smallest)


def shared_size(blocks: Sequence[tuple[str | Paragraph | Sequence[Paragraph], str]], width: float, height: float, *,
                largest: float, smallest: float, font: str | None = None, leading: float = LEADING) -> float:
    """The largest size (pt) at which every block fits `width` x `height` mm: one size for a whole set.

    `blocks` are (paragraphs, what) pairs; raises TextFitError naming the first `what` that does not
    fit even at `smallest`. Each block is tried once at the size so far and only lowers it when it must.
    A plain one-paragraph block that fits the width on one line is not set at all once another such
    line has fitted at that size in that font (or at a larger one): one line of a font at a size
    needs the same height whatever it says.
    """
    size = largest
    one_line: dict[str, float] = {}  # font -> the largest size a single line has been set at and fitted
    width_pt = mm_to_pt(width)
    for paragraphs, what in blocks:
        lone = _lone_line(paragraphs, font)
        if lone is not None and size <= one_line.get(lone[1], 0.0) and unit_width(lone[0], lone[1]) * size <= width_pt:
            continue
        if set_text(paragraphs, width, height, size, font=font, leading=leading, smallest=smallest) is None:
            size = fit_text(paragraphs, width, height, largest=size, smallest=smallest, what=what, font=font,
                            leading=leading).size
        if lone is not None and unit_width(lone[0], lone[1]) * size <= width_pt:
            one_line[lone[1]] = max(one_line.get(lone[1], 0.0), size)
    return size


def _lone_line(paragraphs: str | Paragraph | Sequence[Paragraph], font: str | None) -> tuple[str, str] | None:
    """(text, font) of a block that is one plain paragraph (body size, no indent), else None."""
    if isinstance(paragraphs, str):
        return (paragraphs, font) if font is not None else None
    if isinstance(paragraphs, Paragraph):
        paragraphs = [paragraphs]
    if len(paragraphs) != 1 or paragraphs[0].scale != 1 or paragraphs[0].indent or "\u00a0" in paragraphs[0].text:
        return None
    return paragraphs[0].text, paragraphs[0].font


def fit_text(paragraphs: str | Paragraph | Sequence[Paragraph], width: float, height: float, *,
             largest: float, smallest: float, what: str, font: str | None = None,
             leading: float = LEADING) -> FittedText:
    """The largest size (from `largest` down to `smallest` pt) at which the paragraphs fit `width` x `height` mm.

    A plain string needs `font`. Raises TextFitError naming `what` when even `smallest` is too large.
    """
    paragraphs, _ = _prepared(paragraphs, font)
    if width <= 0 or height <= 0:
        raise TextFitError(f"{what}: no room is left for it: what comes before it leaves {max(width, 0):.1f} x "
                           f"{max(height, 0):.1f} mm")
    fitted = _fitted(tuple(paragraphs), width, height, largest, smallest, leading)
    if fitted is not None:
        return fitted
    shown = " / ".join(p.text for p in paragraphs)
    raise TextFitError(
        f"{what}: text does not fit in {width:.1f} x {height:.1f} mm even at {smallest:g} pt: {shown[:80]!r}"
        + ("..." if len(shown) > 80 else "")
    )


def _first_at_most(sizes: list[float], bound: float) -> int:
    """The index of the first (largest) of the descending `sizes` not above `bound`; len(sizes) when none is."""
    return next((i for i, size in enumerate(sizes) if size <= bound + 1e-9), len(sizes))


def _lone_paragraph_bound(measured: tuple, indent: float, width_pt: float, height_pt: float, leading: float) -> float:
    """The size above which a paragraph set alone at its body size cannot fit: no word may be wider
    than the line; on one line it fits up to where it fills the width or the height, on two lines or
    more only up to where two lines fill the height."""
    _, widths, space = measured
    if not widths or max(widths) <= 0:
        return float("inf")
    line = width_pt - indent
    one_line = line / (sum(widths) + space * (len(widths) - 1))
    room = height_pt + 1e-6  # the tolerance _set allows
    return min(line / max(widths), max(min(one_line, room / leading), room / (2 * leading)))


@lru_cache(maxsize=4096)
def _fitted(paragraphs: tuple[Paragraph, ...], width: float, height: float, largest: float, smallest: float,
            leading: float) -> FittedText | None:
    """fit_text's answer, or None; remembered, as a sheet sets the same strengths and labels on many pieces."""
    measured = [_measured(p.text, p.font) for p in paragraphs]
    width_pt, height_pt = mm_to_pt(width), mm_to_pt(height)
    sizes = [largest - i * STEP for i in range(max(0, int((largest - smallest) / STEP + 1e-9)) + 1)]
    if sizes[-1] > smallest + 1e-9:
        sizes.append(smallest)  # the smallest allowed size is always tried

    def attempt(size: float) -> FittedText | None:
        return _set(paragraphs, measured, size, width_pt, height_pt, leading, smallest)

    # A lone paragraph cannot fit above a size worked out from its widths: when the largest size below
    # that fits, it is the answer (the case of every short label) and no search is needed.
    if len(paragraphs) == 1 and paragraphs[0].scale == 1:
        first = _first_at_most(sizes, _lone_paragraph_bound(measured[0], mm_to_pt(paragraphs[0].indent),
                                                            width_pt, height_pt, leading))
        best = attempt(sizes[first]) if first < len(sizes) else None
        if best is not None:
            return best
    # a smaller size almost never needs more lines, so the sizes that fit follow those that do not:
    # bisect for the largest that fits, and scan every size only before refusing
    low, high, best = 0, len(sizes) - 1, None
    while low <= high:
        middle = (low + high) // 2
        fitted = attempt(sizes[middle])
        if fitted is not None:
            best, high = fitted, middle - 1
        else:
            low = middle + 1
    if best is None:
        best = next((f for f in map(attempt, sizes) if f is not None), None)
    return best


def ink_box(fitted: FittedText) -> tuple[float, float, float]:
    """(width, top, bottom) in mm of the ink of set lines: the widest line, and how far below the block's top
    the highest letter starts and the lowest one ends (the letters' outlines, not the line boxes)."""
    width, top, bottom = 0.0, math.inf, -math.inf
    for line in fitted.lines:
        above, below = ink_extent(line.text, line.font)
        width = max(width, text_width(line.text, line.font, line.size))
        top = min(top, line.baseline - pt_to_mm(above * line.size))
        bottom = max(bottom, line.baseline + pt_to_mm(below * line.size))
    return (width, top, bottom) if fitted.lines else (0.0, 0.0, 0.0)


def diagonal_angle(width: float, height: float) -> float:
    """The angle (degrees, anticlockwise) of a `width` x `height` box's rising diagonal."""
    return math.degrees(math.atan2(height, width))


def set_diagonally(paragraphs: str | Paragraph | Sequence[Paragraph], width: float, height: float, size: float, *,
                   font: str | None = None, leading: float = LEADING) -> FittedText | None:
    """The paragraphs set at exactly `size` pt to run along the rising diagonal of a `width` x `height` mm
    box, like a rubber stamp, or None when their ink, so turned, does not stay inside the box. A
    word too long for the box level may fit this way: on a square the diagonal is 1.41 times the side."""
    paragraphs, _ = _prepared(paragraphs, font)
    return _diagonal_at(tuple(paragraphs), width, height, size, leading)


@lru_cache(maxsize=4096)
def _diagonal_at(paragraphs: tuple[Paragraph, ...], width: float, height: float, size: float,
                 leading: float) -> FittedText | None:
    turn = math.atan2(height, width)
    cos, sin = math.cos(turn), math.sin(turn)
    diagonal = math.hypot(width, height)
    for share in MEASURES:  # the longest measure first: fewer, longer lines
        fitted = _set_at(paragraphs, diagonal * share, diagonal, size, leading, 0.0)
        if fitted is None:
            continue
        long, top, bottom = ink_box(fitted)
        tall = bottom - top
        if long * cos + tall * sin <= width + 1e-6 and long * sin + tall * cos <= height + 1e-6:
            return fitted
    return None


def diagonal_size(blocks: Sequence[tuple[str | Paragraph | Sequence[Paragraph], str]], width: float, height: float, *,
                  largest: float, smallest: float, font: str | None = None, leading: float = LEADING) -> float:
    """The largest size (pt, in STEPs down from `largest`) at which every block fits along the diagonal of a
    `width` x `height` mm box (set_diagonally); raises TextFitError naming the first that does not fit at `smallest`."""
    sizes = [largest - i * STEP for i in range(max(0, int((largest - smallest) / STEP + 1e-9)) + 1)]
    if sizes[-1] > smallest + 1e-9:
        sizes.append(smallest)
    low = 0
    for paragraphs, what in blocks:
        if set_diagonally(paragraphs, width, height, sizes[low], font=font, leading=leading) is not None:
            continue
        high, found = len(sizes) - 1, None  # bisect the sizes below for the largest that fits
        while low <= high:
            middle = (low + high) // 2
            if set_diagonally(paragraphs, width, height, sizes[middle], font=font, leading=leading) is not None:
                found, high = middle, middle - 1
            else:
                low = middle + 1
        if found is None:
            raise TextFitError(f"{what}: text does not fit along the diagonal of {width:.1f} x {height:.1f} mm "
                               f"even at {smallest:g} pt")
        low = found
    return sizes[low]
