"""Counter sheets: every piece of a game's roster, both faces, as `counters.pdf`.

A face shows what the roster fills into its kind's template (roster.py): a title, a symbol,
a text and a value, stacked top to bottom in the space each needs, on the face's colour from
the layout. Text wraps and shrinks to fit, never below the layout's minimum size.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.faces import Face, faces
from ..core.units import mm_to_pt
from .fonts import FontSet, register_fonts
from .item_sheets import Item, print_items
from .painter import Anchor
from .render import collector_paused
from .textfit import FittedText, Paragraph, TextFitError, fit_text

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..core.models import Piece
    from .geometry import Box
    from .options import BuildOptions
    from .painter import Painter

# Share of a face's height each part gets when present, top to bottom.
WEIGHTS = {"title": 1.0, "symbol": 1.4, "text": 1.2, "value": 1.0}
PADDING = 0.06  # of the face's shorter side
LINE = 1.15  # text line height as a multiple of its size (as textfit sets it)
TEXT_CAP = 0.35  # largest text size as a share of the face's shorter side
GROW, GROW_TRIES = 1.6, 3  # how a part that cannot fit its share takes more of the face


@dataclass(frozen=True)
class TextBlock:
    """Fitted text in a column of the face: left x, top y and width in mm from the face's corner."""

    x: float
    y: float
    width: float
    fitted: FittedText


@dataclass(frozen=True)
class FaceArt:
    """A face laid out for one size: its text blocks and its symbol (centre x, centre y, size), in mm."""

    blocks: tuple[TextBlock, ...]
    symbol: tuple[float, float, float] | None


class _PartTooLong(Exception):
    def __init__(self, part: str, error: TextFitError, beside: bool = False):
        self.part, self.error, self.beside = part, error, beside


class FacePainter:
    """Lays out and draws roster faces; each distinct face and size is laid out once per build."""

    def __init__(self, layout: "Layout", fonts: FontSet):
        self.layout = layout
        self.fonts = fonts
        self._art: dict[tuple, FaceArt] = {}

    def min_text(self, group: str) -> float:
        """The smallest text size (pt) the layout allows on pieces of size `group`."""
        sizes = self.layout.min_text_size
        return (getattr(sizes, group) if group in type(sizes).model_fields else None) or sizes.piece

    def art(self, face: Face, size: tuple[float, float], min_text: float, label: str) -> FaceArt:
        key = (face, size, min_text)
        art = self._art.get(key)
        if art is None:
            art = self._art[key] = self._lay_out(face, size, min_text, label)
        return art

    def _lay_out(self, face: Face, size: tuple[float, float], min_text: float, label: str) -> FaceArt:
        failure: _PartTooLong | None = None
        for beside in (True, False):  # a value too wide to sit beside the symbol goes below it
            weights = dict(WEIGHTS)
            for _ in range(GROW_TRIES + 1):
                try:
                    return self._lay_out_with(face, size, min_text, label, weights, beside)
                except _PartTooLong as exc:
                    failure = exc
                    if exc.beside:
                        break
                    weights[exc.part] *= GROW  # a long name borrows height from the parts around it
        assert failure is not None
        raise failure.error from None

    def _lay_out_with(self, face: Face, size: tuple[float, float], min_text: float, label: str,
                      weights: dict[str, float], beside: bool) -> FaceArt:
        width, height = size
        pad = PADDING * min(width, height)
        inner_w, inner_h = width - 2 * pad, height - 2 * pad
        parts = [p for p in weights if getattr(face, p)] if not face.blank else []
        beside = beside and "symbol" in parts and "value" in parts  # symbol and value share a row
        rows = [p for p in parts if not (beside and p == "value")]
        total = sum(weights[p] for p in rows) or 1.0
        top = pad
        blocks: list[TextBlock] = []
        symbol = None
        title_size = None
        cap = mm_to_pt(min(width, height)) * TEXT_CAP
        for part in rows:
            region = inner_h * weights[part] / total
            if part == "symbol":
                symbol_w = inner_w / 2 if beside else inner_w
                symbol = (pad + symbol_w / 2, top + region / 2, min(region, symbol_w) * 0.92)
                if beside:
                    try:
                        blocks.append(self._fit(face.value, "value", pad + inner_w / 2, inner_w / 2, top, region,
                                                cap, min_text, label, None))
                    except _PartTooLong as exc:
                        raise _PartTooLong(exc.part, exc.error, beside=True) from None
            else:
                block = self._fit(getattr(face, part), part, pad, inner_w, top, region, cap, min_text, label,
                                  title_size)
                title_size = block.fitted.size if part == "title" else title_size
                blocks.append(block)
            top += region
        return FaceArt(tuple(blocks), symbol)

    def _fit(self, text: str, part: str, x: float, width: float, top: float, region: float, cap: float,
             min_text: float, label: str, title_size: float | None) -> TextBlock:
        """`text` fitted into a region of the face, centred vertically in it, no larger than `cap` pt."""
        largest = min(cap, mm_to_pt(region) / LINE, getattr(self.layout.max_piece_text, part))
        if part == "text" and title_size:
            largest = min(largest, title_size * 0.8)  # the text never outshouts the title
        font = self.fonts.regular if part == "text" else self.fonts.bold
        try:
            fitted = fit_text(Paragraph(text, font), width, region, largest=max(min_text, largest),
                              smallest=min_text, what=f"{label}: {part}")
        except TextFitError as exc:
            raise _PartTooLong(part, exc) from None
        return TextBlock(x, top + (region - fitted.height) / 2, width, fitted)

    def draw(self, painter: "Painter", face: Face, box: "Box", bleed: float, min_text: float, label: str) -> None:
        """Draw `face` with its cut line at `box`, its colour carried `bleed` mm beyond."""
        colour = self.layout.colour(face.colour)
        art = self.art(face, (box.width, box.height), min_text, label)
        full = box.grown(bleed)
        painter.rect(full.x, full.y, full.width, full.height, fill=colour.fill)
        for block in art.blocks:
            painter.text_block(block.fitted, box.x + block.x, box.y + block.y, block.width, colour.ink, Anchor.MIDDLE)
        if art.symbol:
            cx, cy, size = art.symbol
            painter.symbol(face.symbol, box.x + cx, box.y + cy, size, colour.ink, colour.fill)


def piece_label(game: "Game", piece: "Piece") -> str:
    """How a piece is named in messages: "Piccolo (spy, Italy)"."""
    kind = game.info.kinds[piece.kind].label.lower()
    nation = f", {game.faction(piece.nation).name}" if piece.nation else ""
    return f"{piece.name} ({kind}{nation})"


def counter_size_name(game: "Game") -> str | None:
    """The layout size most of the game's pieces share (its counters), which --piece-size replaces."""
    sizes = Counter()
    for piece in game.pieces:
        size = game.info.kinds[piece.kind].size
        if size != "card":
            sizes[size] += piece.count
    return sizes.most_common(1)[0][0] if sizes else None


def piece_size(game: "Game", layout: "Layout", options: "BuildOptions", size_name: str,
               counters: str | None = None) -> tuple[float, float]:
    """The size (mm) pieces of layout size `size_name` print at: the command line's, else the layout's.

    `counters` is the game's counter size name (counter_size_name), when the caller already knows it.
    """
    if options.piece_size and size_name == (counters or counter_size_name(game)):
        return options.piece_size
    if options.card_size and size_name == "card":
        return options.card_size
    size = layout.size(size_name)
    return size.width, size.height


def piece_items(game: "Game", pieces: list["Piece"], layout: "Layout", options: "BuildOptions",
                painter: FacePainter, copies: int | None = None) -> list[Item]:
    """An Item per printed copy of each piece, in the order given: `copies` of each, else its roster count."""
    items: list[Item] = []
    counters = counter_size_name(game)
    for piece in pieces:
        front, back = faces(game, piece)
        group = game.info.kinds[piece.kind].size
        size = piece_size(game, layout, options, group, counters)
        min_text = painter.min_text(group)
        label = piece_label(game, piece)
        for face in (front, back):
            painter.art(face, size, min_text, label)  # refuse a face that cannot fit before drawing anything

        def side(face: Face, label: str = label, min_text: float = min_text):
            return lambda p, box, bleed: painter.draw(p, face, box, bleed, min_text, label)

        item = Item(label, group, size, side(front), side(back))
        items += [item] * (piece.count if copies is None else copies)
    return items


def build_counters(game: "Game", layout: "Layout", options: "BuildOptions") -> list[Path]:
    """The `counters` product: OUT/<game>/counters.pdf with every roster piece, fronts and backs."""
    if not game.pieces:
        return []
    fonts = register_fonts(layout.fonts, game.folder)
    with collector_paused():
        items = piece_items(game, game.pieces, layout, options, FacePainter(layout, fonts))
        written = print_items(items, options.game_dir(game) / "counters.pdf", layout=layout, options=options,
                              fonts=fonts, title=f"{game.info.title} counters")
        del items  # freed before the collector wakes, so it does not scan a build's worth of objects
    return written
