"""Printing a list of pieces: items of one size share sheets, each sheet's backs land behind its fronts.

Counters, tiles and replacement pieces all come through here: a product makes `Item`s
(what to draw on each side) and `print_items` imposes them (groups of different sizes share a
page where they fit), draws every page once, adds captions, cut lines and crop marks, and
writes the files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.models import ASSUMED_MARK
from ..core.units import pt_to_mm
from .fonts import FontSet
from .geometry import Box
from .imposition import (
    READING_NOTE,
    Backs,
    Page,
    Plan,
    SheetError,
    SheetSpec,
    Side,
    caption_space,
    copies_note,
    copies_that_fit,
    draw_caption,
    draw_guides,
    group_gap,
    impose_groups,
    print_advice,
    sheet_spec,
)
from .render import Document, draw_document

if TYPE_CHECKING:
    from ..core.layouts import Layout
    from .settings import PrintSettings
    from .painter import Painter

# Draws one side of an item: (painter, cut-line box, bleed in mm).
DrawSide = Callable[["Painter", Box, float], None]


@dataclass(frozen=True)
class Item:
    """One piece to print: a label for messages, the name and size (mm) of its group, and its two sides.

    `back` is None when the back is left unprinted (tiles); a group with no printed backs
    is printed single-sided. `gutter` is the least space (mm) the item asks between itself and its
    neighbours on the sheet (the layout's `gutter` where that is more), `bleed` how far past its cut it
    asks its colours carried (the settings' bleed where that is more; a sheet takes its items' largest);
    `marked` when its front prints the mark of a reading, which the caption of the fronts' sheet then explains,
    as it carries the item's `notes` (what its front's colour means, a line on its kind); `alone` when its group
    prints on sheets of its own.
    """

    label: str
    group: str
    size: tuple[float, float]
    front: DrawSide
    back: DrawSide | None
    gutter: float = 0.0
    bleed: float = 0.0
    marked: bool = False
    notes: tuple[str, ...] = ()
    alone: bool = False


def _caption(title: str, groups: list[tuple[str, tuple[float, float]]], page: Page, plan: Plan, copies: int, why: str) -> str:
    sizes = ", ".join(dict.fromkeys(f"{name} {w:g} × {h:g} mm" for name, (w, h) in
                                    (groups[g] for g in sorted({p.group for p in page.items}))))
    side = "" if page.side is None else f" {page.side.value}"
    sheets = plan.pages[-1].sheet
    advice = f"back of sheet {page.sheet}" if page.side is Side.BACK else print_advice(plan.spec)
    return f"{title} · {sizes}{copies_note(copies, why)} · sheet {page.sheet} of {sheets}{side} · {advice}"


def _notes(fronts: list[Item]) -> str:
    """What the pieces on a sheet of fronts ask the players to know: their notes, and what the mark of a reading means."""
    keys = list(dict.fromkeys(note for item in fronts for note in item.notes))
    if any(item.marked for item in fronts) or any(ASSUMED_MARK in key for key in keys):
        keys.append(READING_NOTE)
    return " · ".join(keys)


def print_items(items: Sequence[Item], path: Path, *, settings: "PrintSettings", fonts: FontSet,
                title: str, copies: int | str = 1, why: str = "") -> Document:
    """`items` imposed by group, as the document of `path` (plus SVG/PNG per settings.formats); `copies`
    of each item, side by side (`fill`: as many as the sheets one of each needs hold), the caption saying `why`."""
    layout = settings.layout
    grouped: dict[tuple[str, tuple[float, float], bool], list[Item]] = {}
    for item in items:
        grouped.setdefault((item.group, item.size, item.alone), []).append(item)
    groups = [(group, size) for group, size, _ in grouped]
    tallest = max((size for _, size in groups), key=lambda size: size[1])  # the caption may cost no row of any size
    spec = sheet_spec(settings, tallest, backs=any(i.back for i in items),
                      header=caption_space(layout, layout.caption.size), gutter=max(i.gutter for i in items),
                      bleed=max(i.bleed for i in items), heights=[size[1] for _, size in groups])
    what = " or ".join(dict.fromkeys(g for g, _ in groups))

    def impose_sets(k: int) -> Plan:
        return impose_groups([(size, k * len(members)) for (_, size, _), members in grouped.items()], spec, what=what,
                             alone=[alone for _, _, alone in grouped])

    copies = copies_that_fit(copies, impose_sets)
    plan = impose_sets(copies)
    ordered = [item for members in grouped.values() for item in members for _ in range(copies)]

    def draw(painter: "Painter") -> None:
        for page in plan.pages:
            painter.new_page(*plan.paper)
            fronts = [] if page.side is Side.BACK else [ordered[placed.index] for placed in page.items]
            draw_caption(painter, page, spec, layout, _caption(title, groups, page, plan, copies, why), fonts.regular,
                         layout.caption.size, layout.caption.colour, notes=_notes(fronts))
            for placed in page.items:
                item = ordered[placed.index]
                side = item.front if placed.side is Side.FRONT else item.back
                if side is not None:
                    side(painter, placed.box, spec.bleed)
            draw_guides(painter, page, layout, spec)

    return draw_document(path, draw, fonts, settings.formats, title=title, advice=print_advice(spec), dpi=settings.dpi)


@dataclass(frozen=True)
class FoldStrip:
    """Items laid across a band `height` mm tall at the foot of another product's page, to fold rather than
    print 2-sided: fronts above the band's middle line, each back mirrored below it, so that folding on the line,
    gluing and cutting puts every back behind its front. `caption` says what the band holds and how to make it."""

    height: float
    page: Page
    spec: SheetSpec
    items: tuple[Item, ...]
    caption: str

    def draw(self, painter: "Painter", top: float, layout: "Layout", font: str) -> None:
        """The band with its top edge `top` mm down the page: caption, faces, cut lines, crop marks and the fold."""
        page = replace(self.page, items=tuple(replace(p, box=p.box.shifted(0.0, top)) for p in self.page.items),
                       fold=_lowered(self.page.fold, top))
        caption = layout.caption
        painter.text(self.spec.margin, top + self.spec.margin + pt_to_mm(caption.size), self.caption, font,
                     caption.size, caption.colour)
        for placed in page.items:
            item = self.items[placed.index]
            side = item.front if placed.side is Side.FRONT else item.back
            if side is not None:
                side(painter, placed.box, self.spec.bleed)
        draw_guides(painter, page, layout, self.spec)


def _fold_under_pieces(page: Page, layout: "Layout", bleed: float) -> Page:
    """`page` with its fold line only as wide as its pieces and their crop marks: across the whole page it read
    like the cut between the copies of the aid the band sits under."""
    if page.fold is None or not page.items:
        return page
    reach = layout.crop_marks.offset + layout.crop_marks.length + bleed
    _, y, _, _ = page.fold
    left = min(p.box.x for p in page.items) - reach
    right = max(p.box.right for p in page.items) + reach
    return replace(page, fold=(left, y, right, y))


def _lowered(line: tuple[float, float, float, float] | None, by: float) -> tuple[float, float, float, float] | None:
    if line is None:
        return None
    x1, y1, x2, y2 = line
    return x1, y1 + by, x2, y2 + by


def fold_strip(items: Sequence[Item], width: float, *, settings: "PrintSettings", what: str,
               copies: int = 1, why: str = "") -> FoldStrip:
    """`copies` of each of `items` in the shortest band `width` mm wide that holds them all to fold (FoldStrip),
    the caption naming them as `what`; SheetError when they need more than half the page's height."""
    layout = settings.layout
    ordered = tuple(item for item in items for _ in range(copies))
    groups: dict[tuple[float, float], int] = {}
    for item in ordered:
        groups[item.size] = groups.get(item.size, 0) + 1
    base = SheetSpec(paper=(width, 0.0), item=max(groups, key=lambda size: size[1]), margin=layout.margin,
                     gutter=max(layout.gutter, *(i.gutter for i in ordered)),
                     bleed=max(settings.bleed, *(i.bleed for i in ordered)), backs=Backs.FOLD,
                     header=caption_space(layout, layout.caption.size), group_gap=group_gap(layout),
                     paper_name=settings.paper_name)
    height = 2 * (base.header + 1.5 * base.margin + 2 * base.bleed + min(h for _, h in groups))
    while height <= settings.paper.height / 2:
        spec = replace(base, paper=(width, height))
        plan = _plan_or_none(list(groups.items()), spec)
        if plan is not None and len(plan.pages) == 1:
            note = f"{what}{copies_note(copies, why)} · fold on the short line between fronts and backs, glue, cut"
            return FoldStrip(height, _fold_under_pieces(plan.pages[0], layout, spec.bleed), spec,
                             _in_group_order(ordered, groups), note)
        height += 1.0
    raise SheetError(f"{len(ordered)} {what} do not fit in a band across half of the "
                     f"{settings.paper.width:g} x {settings.paper.height:g} mm page to fold")


def _plan_or_none(groups: list[tuple[tuple[float, float], int]], spec: SheetSpec) -> Plan | None:
    try:
        return impose_groups(groups, spec)
    except SheetError:
        return None


def _in_group_order(items: tuple[Item, ...], groups: dict[tuple[float, float], int]) -> tuple[Item, ...]:
    """`items` in the order impose_groups numbers them: by group, each group's members in the order given."""
    return tuple(item for size in groups for item in items if item.size == size)
