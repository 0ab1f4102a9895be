"""`player-aid.pdf`: the cards' content as one designed sheet of the chosen paper.

Panels (card sides) come in the order cards.yaml's `aid` gives (set-up first, say), each a title
and its sections; a section is set as a list, as numbered steps drawn as a flow with arrows, or
as a table with ruled rows, as the section's `show` asks. Sections flow down the layout's columns
and are never split between columns; a panel never runs onto the other side of the sheet. All
text shares one size: the largest from the layout's aid size down to its aid minimum at which
everything fits on one side, else on both; nothing fits, and the aid is refused, naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.card_models import Card, Item, Section, Side
from ..core.cards import WRITE_IN, resolve_cards, variant_label
from ..core.models import ASSUMED_MARK
from ..core.units import pt_to_mm
from .card_text import NOTE_INK, SECTION_SIGN, CardInk, card_ink, heading_paragraphs, section_paragraphs
from .chips import ASSUMED_VALUE, WRITE_TINT, draw_assumed_chips, draw_chip
from .counters import FacePainter, piece_items
from .fonts import FontSet, piece_fonts, text_width, unit_width
from .geometry import Box
from .imposition import READING_NOTE, scale_advice
from .item_sheets import FoldStrip, fold_strip
from .painter import Anchor, Painter
from .render import Document, collector_paused, draw_document
from .symbols import draw_symbol
from .textfit import LEADING, STEP, FittedText, Paragraph, TextFitError, set_text

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout
    from .settings import PrintSettings

SECTION_GAP = 0.7  # space above a section, as a multiple of the text size
PANEL_GAP = 1.6  # space above a panel's title
TITLE_SCALE = 1.3  # a panel's title against the body size
UNBOUNDED = 1e6  # mm: measuring a block's natural height
PAD = 0.8  # mm inside a step's box and a table's cells
STEP_TINT = "#eef2f6"  # the fill of a step's box and of every other table row
STEP_NUMBER = re.compile(r"^\s*(\d+)\.\s+")
ICON_SCALE = 1.5  # a table row's symbol against the body size
WRAPPED_SHARE = 0.5  # the least share of a table's width its wrapped column is given while the others fit on one line
SLACK = 0.2  # mm a table cell keeps beyond its text's measured width, so a word set to its width still fits
FIELD_LINES = 1.6  # a write-in field's height, in lines of the body


@dataclass(frozen=True)
class Drawn:
    """A block set at one size and width: its height (mm) and how to draw it with its top-left at (x, y)."""

    height: float
    draw: object  # Callable[[Painter, float, float], None]


@dataclass(frozen=True)
class Block:
    """A section of the aid, never split across columns: how it is shown, its heading and items, and
    whether it opens its panel (then the panel's title rides on it)."""

    panel_title: str | None
    section: Section
    cited: frozenset[str]  # citation tags the panel printed before this section


def aid_panels(game: "Game", cards: list[Card]) -> list[tuple[str, Side]]:
    """The card sides cards.yaml's `aid` names, in its order, then (unless `aid_only_named`) every other side
    in card order."""
    sides = {f"{card.id}.{face}": side for card in cards for face, side in card.sides()}
    first = game.cards.aid if game.cards else []
    rest = [] if game.cards and game.cards.aid_only_named and first else list(sides)
    order = list(dict.fromkeys(list(first) + rest))
    return [(name, sides[name]) for name in order]


def aid_blocks(game: "Game", panels: list[tuple[str, Side]], ink: CardInk) -> list[list[Block]]:
    """Each panel's sections as blocks, the citation tags each must not repeat worked out in order."""
    result = []
    for _, side in panels:
        cited: set[str] = set()
        blocks = []
        for i, section in enumerate(side.sections):
            blocks.append(Block(side.title if i == 0 else None, section, frozenset(cited)))
            heading_paragraphs(game, section.heading, list(section.items), ink, cited)  # records the section's tags
        result.append(blocks)
    return result


class AidSetter:
    """Sets the aid's blocks at a size and column width, and draws them."""

    def __init__(self, game: "Game", ink: CardInk, base: float):
        self.game, self.ink, self.base = game, ink, base  # `ink`'s hanging indent is a bullet's width at `base` pt
        self.note = note_size(game.layout)
        variants = len(game.info.variants)
        self._every = "both" if variants == 2 else "all"  # the variant cell of an item that holds for every game

    def _title(self, block: Block) -> list[Paragraph]:
        if block.panel_title is None:
            return []
        return [Paragraph(block.panel_title, self.ink.fonts.bold, TITLE_SCALE, colour=self.ink.heading)]

    def set(self, block: Block, width: float, size: float) -> Drawn | None:
        """`block` set `width` mm wide at `size` pt, or None when a word is wider than the column."""
        items = list(block.section.items)
        cited = set(block.cited)
        ink = replace(self.ink, indent=self.ink.indent * size / self.base)
        if block.section.show == "list":
            paragraphs = self._title(block) + section_paragraphs(self.game, block.section.heading, items, ink, cited)
            return self._text(paragraphs, width, size)
        head = self._text(self._title(block) + heading_paragraphs(self.game, block.section.heading, items, ink, cited),
                          width, size)
        body = (self._steps if block.section.show == "steps" else self._table)(block.section, items, width, size)
        if head is None or body is None:
            return None
        gap = pt_to_mm(size) * 0.4

        def draw(painter: Painter, x: float, y: float) -> None:
            head.draw(painter, x, y)
            body.draw(painter, x, y + head.height + gap)

        return Drawn(head.height + gap + body.height, draw)

    @staticmethod
    def _text(paragraphs: list[Paragraph], width: float, size: float, colour: str = "#000000") -> Drawn | None:
        fitted = set_text(paragraphs, width, UNBOUNDED, size)
        if fitted is None:
            return None

        def draw(painter: Painter, x: float, y: float) -> None:
            draw_assumed_chips(painter, fitted, x, y)  # a value read in running text stands out as in a table
            painter.text_block(fitted, x, y, width, colour, Anchor.START)

        return Drawn(fitted.height, draw)

    def _steps(self, section: Section, items: list[Item], width: float, size: float) -> Drawn | None:
        """Numbered boxes joined by arrows: the sequence of play as a graphic."""
        fonts, ink = self.ink.fonts, self.ink
        disc = pt_to_mm(size) * 1.9
        text_x = PAD + disc + 1.2
        arrow = pt_to_mm(size) * 0.9
        steps = []
        for n, item in enumerate(items, start=1):
            match = STEP_NUMBER.match(item.text)
            number, text = (match.group(1), item.text[match.end():]) if match else (str(n), item.text)
            label, _, rest = text.partition(": ")
            paragraphs = [Paragraph(f"{label}:", fonts.bold), Paragraph(rest, fonts.regular, run_in=True)] if rest and \
                len(label.split()) <= 3 else [Paragraph(text, fonts.regular)]
            if item.variant:
                paragraphs.insert(0, Paragraph(f"{variant_label(self.game, item.variant)}:", fonts.bold,
                                               colour=ink.variants.get(item.variant)))
                paragraphs[1] = Paragraph(paragraphs[1].text, paragraphs[1].font, run_in=True)
            fitted = set_text(paragraphs, width - text_x - PAD, UNBOUNDED, size)
            if fitted is None:
                return None
            steps.append((number, fitted, max(disc, fitted.height) + 2 * PAD))
        height = sum(h for _, _, h in steps) + arrow * (len(steps) - 1)

        def draw(painter: Painter, x: float, y: float) -> None:
            top = y
            for k, (number, fitted, h) in enumerate(steps):
                painter.rect(x, top, width, h, fill=STEP_TINT, stroke=ink.heading, line_width=0.5)
                cx, cy = x + PAD + disc / 2, top + h / 2
                painter.circle(cx, cy, disc / 2, fill=ink.heading)
                painter.text(cx, cy + pt_to_mm(size) * 0.36, number, fonts.bold, size, "#ffffff", Anchor.MIDDLE)
                painter.text_block(fitted, x + text_x, top + (h - fitted.height) / 2, width - text_x - PAD,
                                   "#000000", Anchor.START)
                top += h
                if k < len(steps) - 1:
                    painter.polygon([(cx - arrow * 0.6, top + arrow * 0.15), (cx + arrow * 0.6, top + arrow * 0.15),
                                     (cx, top + arrow * 0.9)], fill=ink.heading)
                    top += arrow

        return Drawn(height, draw)

    def _table(self, section: Section, items: list[Item], width: float, size: float) -> Drawn | None:
        """A ruled table: a header row of the section's columns, then one row per item (its text split
        at ": ", and its variant in the last column when the columns name one more, else run in before
        its last cell); an item's symbol is drawn before its first cell."""
        fonts, ink = self.ink.fonts, self.ink
        columns = section.columns or ["", ""]
        icon = pt_to_mm(size) * ICON_SCALE if any(item.symbol for item in items) else 0.0
        headed = len({item.variant for item in items}) == 1  # the heading names the one variant of every row
        rows, labels = [], []
        for item in items:
            cells = item.text.split(": ", len(columns) - 1)
            label = None
            if len(cells) < len(columns):
                cells.append(variant_label(self.game, item.variant) or self._every)
            elif item.variant and not headed:
                label = variant_label(self.game, item.variant)
            rows.append(cells + [""] * (len(columns) - len(cells)))
            labels.append(label)
        natural = [max([unit_width(columns[c], fonts.bold)] + [unit_width(r[c], fonts.regular) for r in rows])
                   for c in range(len(columns))]
        words = [max(unit_width(word, fonts.bold if k == 0 else fonts.regular)
                     for k, r in enumerate([columns] + rows) for word in (r[c].split() or [""]))
                 for c in range(len(columns))]
        natural, words = ([pt_to_mm(n * size) + 2 * PAD + SLACK for n in widths] for widths in (natural, words))
        natural[0] += icon
        words[0] += icon
        widths = _column_widths(natural, words, width)

        def set_row(cells: list[str], font: str, colour: str, label: str | None = None,
                    variant: str | None = None) -> list[FittedText] | None:
            fitted = []
            for c, (cell, w) in enumerate(zip(cells, widths)):
                inner = w - 2 * PAD - (icon if c == 0 else 0.0)
                paragraphs = [Paragraph(cell, font, colour=colour)]
                if label and c == len(cells) - 1:
                    paragraphs = [Paragraph(f"{label}:", fonts.bold, colour=ink.variants.get(variant)),
                                  Paragraph(cell, font, colour=colour, run_in=True)]
                fitted.append(set_text(paragraphs, inner, UNBOUNDED, size) if cell or label else FittedText(size, (), 0.0))
            return None if any(f is None for f in fitted) else fitted

        header = set_row(columns, fonts.bold, "#ffffff")
        fields = [[_is_write_in(cell) for cell in r] for r in rows]
        body = [set_row([("" if field else cell) for cell, field in zip(r, row_fields)], fonts.regular, "#000000",
                        label, item.variant)
                for r, row_fields, label, item in zip(rows, fields, labels, items)]
        if header is None or any(r is None for r in body):
            return None
        line = pt_to_mm(size) * LEADING
        field = line * FIELD_LINES
        heights = [max([line] + [f.height + (field + PAD * 0.5 if write else 0.0) for f, write in zip(row, writes)])
                   + 2 * PAD * 0.6 for row, writes in zip([header] + body, [[False] * len(columns)] + fields)]
        symbols = [None] + [item.symbol for item in items]
        note = self.note

        def draw(painter: Painter, x: float, y: float) -> None:
            top = y
            for k, (row, h, symbol) in enumerate(zip([header] + body, heights, symbols)):
                if k == 0:
                    painter.rect(x, top, width, h, fill=ink.heading)
                elif k % 2 == 0:
                    painter.rect(x, top, width, h, fill=STEP_TINT)
                if symbol:
                    draw_symbol(painter, symbol, x + PAD + icon * 0.45, top + h / 2, icon * 0.9, ink.heading,
                                STEP_TINT if k % 2 == 0 else "#ffffff")
                left = x
                writes = fields[k - 1] if k else [False] * len(row)
                for c, (fitted, w, write) in enumerate(zip(row, widths, writes)):
                    shift = icon if c == 0 else 0.0
                    cell_x, cell_w = left + PAD + shift, w - 2 * PAD - shift
                    if write:  # the label at the top, and below it a tinted field to write the value in
                        text_top = top + PAD * 0.6
                        field_top = text_top + fitted.height + (PAD * 0.5 if fitted.lines else 0.0)
                        painter.rect(cell_x, field_top, cell_w, field, fill=WRITE_TINT)
                        painter.line(cell_x, field_top + field, cell_x + cell_w, field_top + field, ink.heading, 0.4)
                        painter.text(cell_x + cell_w - PAD * 0.5, field_top + pt_to_mm(note) * 1.0, "write in",
                                     fonts.regular, note, NOTE_INK, Anchor.END)
                    else:
                        text_top = top + (h - fitted.height) / 2
                        draw_assumed_chips(painter, fitted, cell_x, text_top)
                    painter.text_block(fitted, cell_x, text_top, cell_w, anchor=Anchor.START)
                    left += w
                top += h
                painter.line(x, top, x + width, top, ink.heading, 0.4)

        return Drawn(sum(heights), draw)


def note_size(layout: "Layout") -> float:
    """The size of the aid's notes: its header's advice and legend, and a write-in field's label."""
    return max(layout.min_text_size.card, layout.cards.aid_min_text * 0.9)


def _is_write_in(cell: str) -> bool:
    """True for a table cell that holds only the line a value is written on."""
    return bool(cell) and WRITE_IN[:4] in cell and not cell.strip("_ ")


def _column_widths(natural: list[float], words: list[float], width: float) -> list[float]:
    """Each column its natural width (one line a cell) but the widest, which takes what is left and wraps; when that
    leaves the widest less than WRAPPED_SHARE of the table, the others wrap too, each as wide as its longest word;
    when even that leaves it less, the others keep their natural width while the widest still holds its longest
    word; all shrunk alike when nothing else fits."""
    widest = max(range(len(natural)), key=natural.__getitem__)
    for others in (natural, words):
        rest = width - (sum(others) - others[widest])
        if rest >= min(natural[widest], width * WRAPPED_SHARE):
            return [rest if c == widest else n for c, n in enumerate(others)]
    for others in (natural, words):
        rest = width - (sum(others) - others[widest])
        if rest >= words[widest]:
            return [rest if c == widest else n for c, n in enumerate(others)]
    return [width * n / sum(natural) for n in natural]


@dataclass(frozen=True)
class PlacedBlock:
    """A block set at the aid's size, at its place: side, column and top (mm within the column)."""

    drawn: Drawn
    side: int
    column: int
    top: float
    opens_panel: bool


def _place(panel: list[tuple[Block, Drawn]], size: float, height: float, slot: int, used: float):
    """Positions (slot, top) of a panel's blocks poured from `slot` with `used` mm taken; None if a block is taller than a column."""
    positions = []
    for block, drawn in panel:
        gap = pt_to_mm(size * (PANEL_GAP if block.panel_title else SECTION_GAP))
        top = used + gap if used else 0.0
        if top + drawn.height > height:
            if drawn.height > height:
                return None
            slot, top = slot + 1, 0.0
        positions.append((slot, top))
        used = top + drawn.height
    return positions


def _pack(setter: AidSetter, panels: list[list[Block]], size: float, width: float, height: float, columns: int,
          sides: int) -> list[PlacedBlock] | None:
    """The panels set at `size` and poured into columns over `sides` sides, or None when they overflow.

    A panel may go on in the next column but never onto the other side of the sheet; one that
    would is started afresh at the top of that side.
    """
    placed: list[PlacedBlock] = []
    slot, used = 0, 0.0
    for panel in panels:
        drawn = [(block, setter.set(block, width, size)) for block in panel]
        if any(d is None for _, d in drawn):
            return None
        positions = _place(drawn, size, height, slot, used)
        if positions and positions[0][0] // columns != positions[-1][0] // columns:
            positions = _place(drawn, size, height, positions[-1][0] // columns * columns, 0.0)
            if positions and positions[0][0] // columns != positions[-1][0] // columns:
                return None
        if positions is None or positions[-1][0] >= sides * columns:
            return None
        for (block, d), (at, top) in zip(drawn, positions):
            side, column = divmod(at, columns)
            placed.append(PlacedBlock(d, side, column, top, block.panel_title is not None))
        slot, used = positions[-1][0], positions[-1][1] + drawn[-1][1].height
    return placed


def legend(game: "Game", panels: list[list[Block]]) -> list[tuple[str, str]]:
    """What the marks on the aid mean, from the game's variants and the marks its items carry: (kind, text) parts,
    the kind "text", or "chip" (a value set on the assumed values' tint) or "field" (a write-in field's swatch)."""
    labels = [variant_label(game, v) for v in game.info.variants]
    parts = [("text", f"{' or '.join(labels)}: that game only; the rest for every game.  ")] \
        if len(labels) > 1 else []
    texts = [item.text for panel in panels for block in panel for item in block.section.items]
    values = any(ASSUMED_VALUE.search(t) for t in texts)
    readings = any(t.endswith(f" {ASSUMED_MARK}") for t in texts)
    if values:
        parts += [("chip", f"1{ASSUMED_MARK}"), ("text", f"{f' or {ASSUMED_MARK}' if readings else ''} this edition's "
                                                      f"reading: write over it if yours differs.  ")]
    elif readings:
        parts += [("text", f"{READING_NOTE}.  ")]
    if any(WRITE_IN[:4] in t for t in texts):
        parts += [("field", ""), ("text", " write it in.  ")]
    return parts + [("text", f"{SECTION_SIGN.strip()} after a heading: the rule it rests on.")]


def draw_legend(painter: Painter, parts: list[tuple[str, str]], x: float, baseline: float, font: str, size: float) -> None:
    """The legend's parts in one line from (x, baseline): its chips and field swatch drawn as the aid draws them."""
    cap = pt_to_mm(size)
    for kind, text in parts:
        if kind == "field":
            width = cap * 4
            painter.rect(x, baseline - cap * 0.85, width, cap * 1.1, fill=WRITE_TINT)
            painter.line(x, baseline + cap * 0.25, x + width, baseline + cap * 0.25, NOTE_INK, 0.4)
            x += width
            continue
        width = pt_to_mm(unit_width(text, font) * size)
        if kind == "chip":
            draw_chip(painter, x, baseline, width, size)
        painter.text(x, baseline, text, font, size, NOTE_INK)
        x += width


def lay_out_aid(setter: AidSetter, panels: list[list[Block]], layout: "Layout", width: float, height: float
                ) -> tuple[list[PlacedBlock], int, float] | None:
    """The blocks placed at the largest size that fits one side, else two; with the number of sides and the size."""
    style = layout.cards
    for sides in (1, 2):
        size = style.aid_max_text or style.aid_text_size
        while size >= style.aid_min_text - 1e-9:
            placed = _pack(setter, panels, size, width, height, style.aid_columns, sides)
            if placed is not None:
                return placed, sides, size
            size -= STEP
    return None


def pieces_strip(game: "Game", settings: "PrintSettings", fonts: FontSet, width: float) -> FoldStrip | None:
    """The game's pieces in a band to fold across the aid's foot when its layout puts the game on one sheet."""
    layout = settings.layout
    if not (layout.one_sheet and game.pieces):
        return None
    with collector_paused():
        items = piece_items(game, game.pieces, settings, FacePainter(game, fonts))
    kinds = dict.fromkeys(game.info.kinds[piece.kind].label for piece in game.pieces)
    what = " and ".join(f"{kind}s" for kind in kinds)
    what = what[:1].upper() + what[1:]
    copies = 1 if layout.copies.counters == "fill" else layout.copies.counters  # a band holds one set: "fill" is one
    return fold_strip(items, width, settings=settings, what=what, copies=copies, why=layout.copies.why.get("counters", ""))


def build_player_aid(game: "Game", settings: "PrintSettings") -> list[Document]:
    """<game>/player-aid.pdf (and SVG/PNG as asked): one sheet, one side when it fits; [] without cards."""
    cards = resolve_cards(game)
    if not cards:
        return []
    layout = settings.layout
    style = layout.cards
    paper = settings.paper
    fonts = piece_fonts(layout.fonts, game.folder)
    margin = layout.margin
    title_size = style.aid_text_size * 1.6
    notes = note_size(layout)
    copies = style.aid_copies
    strip = pieces_strip(game, settings, fonts, paper.width)
    sides_advice = {sides: f"{scale_advice(settings.paper_name)}, {'one-sided' if sides == 1 else '2-sided'}"
                    + (f", {copies} copies on the sheet: cut on the dashed line{'s' if copies > 2 else ''}"
                       if copies > 1 else "") for sides in (1, 2)}
    print_notes = [advice if sides == 1 else f"side 2 of 2 · {advice}" for sides, advice in sides_advice.items()]
    note_room = max(text_width(note, fonts.regular, notes) for note in print_notes) + pt_to_mm(title_size)
    title = set_text([Paragraph(f"{game.info.heading} player aid", fonts.bold)], paper.width - 2 * margin - note_room,
                     UNBOUNDED, title_size)  # a long title wraps beside the print note rather than running over it
    if title is None:
        raise TextFitError(f"player aid: a word of the title {game.info.heading!r} is wider than the room beside the "
                           f"print note")
    first = title.lines[0].baseline
    header = title.height + pt_to_mm(notes) * 2.4 - pt_to_mm(title_size) * (LEADING - 1.2)
    room = paper.height - (strip.height if strip else 0.0)
    band = (room - 2 * margin * copies) / copies  # each copy within its own margins, the cut between two
    area = Box(margin, margin + header, paper.width - 2 * margin, band - header)
    columns = style.aid_columns
    width = (area.width - (columns - 1) * style.aid_gap) / columns
    ink = card_ink(game, settings, fonts, style.aid_text_size)
    setter = AidSetter(game, ink, style.aid_text_size)
    panels = aid_blocks(game, aid_panels(game, cards), ink)
    laid = lay_out_aid(setter, panels, layout, width, area.height)
    if laid is None:
        raise TextFitError(f"player aid: the cards' text does not fit on both sides of one "
                           f"{paper.width:g} x {paper.height:g} mm sheet even at {style.aid_min_text:g} pt")
    placed, sides, size = laid
    if strip and sides > 1:
        raise TextFitError(f"player aid: the layout's one_sheet asks for one side, but the cards' text needs both even "
                           f"at {style.aid_min_text:g} pt; shorten the cards or set one_sheet: false")

    advice = sides_advice[sides]
    marks = legend(game, panels)

    def draw_copy(painter: Painter, side: int, top: float, first_copy: bool) -> None:
        baseline = top + margin + first
        painter.text_block(title, margin, top + margin, paper.width - 2 * margin - note_room,
                           ink.heading, Anchor.START)
        if first_copy:  # how to print is the sheet's, said once; a copy cut off needs it no more
            note = advice if sides == 1 else f"side {side + 1} of {sides} · {advice}"
            painter.text(area.right, baseline, note, fonts.regular, notes, NOTE_INK, Anchor.END)
        last = top + margin + title.lines[-1].baseline
        draw_legend(painter, marks, margin, last + pt_to_mm(notes) * 2.2, fonts.regular, notes)
        for block in (b for b in placed if b.side == side):
            x = area.x + block.column * (width + style.aid_gap)
            y = top + area.y + block.top
            if block.opens_panel and block.top > 0:
                rule = y - pt_to_mm(size * PANEL_GAP) / 2
                painter.line(x, rule, x + width, rule, ink.heading, 0.5)
            block.drawn.draw(painter, x, y)

    def draw(painter: Painter) -> None:
        for side in range(sides):
            painter.new_page(paper.width, paper.height)
            for copy in range(copies):
                top = copy * (band + 2 * margin)
                draw_copy(painter, side, top, first_copy=not copy)
                if copy:
                    painter.line(0, top, paper.width, top, NOTE_INK, 0.25, dash=(2.0, 1.5))
            if strip and side == 0:
                strip.draw(painter, room, layout, fonts.regular)

    return [draw_document(settings.game_dir(game) / "player-aid.pdf", draw, fonts, settings.formats,
                          title=f"{game.info.title} player aid", advice=advice, dpi=settings.dpi)]
