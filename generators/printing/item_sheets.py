"""Printing a list of pieces: items of one size share sheets, each sheet's backs land behind its fronts.

Counters, tiles and replacement pieces all come through here: a product makes `Item`s
(what to draw on each side) and `print_items` imposes them (groups of different sizes share a
page where they fit), draws every page once, adds captions, cut lines and crop marks, and
writes the files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .fonts import FontSet
from .geometry import Box
from .imposition import (
    Page,
    Plan,
    Side,
    caption_space,
    copies_note,
    copies_that_fit,
    draw_caption,
    draw_guides,
    impose_groups,
    print_advice,
    sheet_spec,
)
from .render import Document, draw_document

if TYPE_CHECKING:
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
    asks its colours carried (the settings' bleed where that is more; a sheet takes its items' largest).
    """

    label: str
    group: str
    size: tuple[float, float]
    front: DrawSide
    back: DrawSide | None
    gutter: float = 0.0
    bleed: float = 0.0


def _caption(title: str, groups: list[tuple[str, tuple[float, float]]], page: Page, plan: Plan, copies: int, why: str) -> str:
    sizes = ", ".join(dict.fromkeys(f"{name} {w:g} × {h:g} mm" for name, (w, h) in
                                    (groups[g] for g in sorted({p.group for p in page.items}))))
    side = "" if page.side is None else f" {page.side.value}"
    sheets = plan.pages[-1].sheet
    advice = f"back of sheet {page.sheet}" if page.side is Side.BACK else print_advice(plan.spec)
    return f"{title} · {sizes}{copies_note(copies, why)} · sheet {page.sheet} of {sheets}{side} · {advice}"


def print_items(items: Sequence[Item], path: Path, *, settings: "PrintSettings", fonts: FontSet,
                title: str, copies: int | str = 1, why: str = "") -> Document:
    """`items` imposed by group, as the document of `path` (plus SVG/PNG per settings.formats); `copies`
    of each item, side by side (`fill`: as many as the sheets one of each needs hold), the caption saying `why`."""
    layout = settings.layout
    grouped: dict[tuple[str, tuple[float, float]], list[Item]] = {}
    for item in items:
        grouped.setdefault((item.group, item.size), []).append(item)
    groups = list(grouped)
    tallest = max((size for _, size in groups), key=lambda size: size[1])  # the caption may cost no row of any size
    spec = sheet_spec(settings, tallest, backs=any(i.back for i in items),
                      header=caption_space(layout, layout.caption.size), gutter=max(i.gutter for i in items),
                      bleed=max(i.bleed for i in items), heights=[size[1] for _, size in groups])
    what = " or ".join(dict.fromkeys(g for g, _ in groups))

    def impose_sets(k: int) -> Plan:
        return impose_groups([(size, k * len(members)) for (_, size), members in grouped.items()], spec, what=what)

    copies = copies_that_fit(copies, impose_sets)
    plan = impose_sets(copies)
    ordered = [item for members in grouped.values() for item in members for _ in range(copies)]

    def draw(painter: "Painter") -> None:
        for page in plan.pages:
            painter.new_page(*plan.paper)
            caption = _caption(title, groups, page, plan, copies, why)
            draw_caption(painter, page, spec, layout, caption, fonts.regular, layout.caption.size, layout.caption.colour)
            for placed in page.items:
                item = ordered[placed.index]
                side = item.front if placed.side is Side.FRONT else item.back
                if side is not None:
                    side(painter, placed.box, spec.bleed)
            draw_guides(painter, page, layout, spec)

    return draw_document(path, draw, fonts, settings.formats, title=title, advice=print_advice(spec), dpi=settings.dpi)
