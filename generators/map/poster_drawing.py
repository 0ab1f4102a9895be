"""The map poster drawn from its plan (poster.py): land and sea zones, lines, cities with their marks and
names, the map's aids, the frame with its grid letters, the title and the key (legend, sea zones, index of
places). Every size is the plan's style, the layout's `poster:`; nothing here decides where a thing goes.
"""

from __future__ import annotations

import string
from collections import defaultdict
from typing import TYPE_CHECKING

from ..core.errors import DataError, Problem
from ..core.layouts import PosterLines, PosterStyle
from ..core.map_models import MapFile
from ..core.units import pt_to_mm
from ..printing.card_text import cite_as_printed
from ..printing.fonts import FontSet, text_width
from ..printing.geometry import Box
from ..printing.painter import Anchor, Painter
from ..printing.recording import Recording, RecordingPainter
from ..printing.textfit import Paragraph, TextFitError, fit_text
from .aids import draw_aid

if TYPE_CHECKING:
    from .poster import CityLabel, Palette, PosterPlan

HALO_INK = "#ffffff"  # the halo round map names (its width is the layout's)
AREA_INK = "#333333"  # a map region's name
RIM = 0.2  # share of a space's radius its coloured rim takes: counters sit on the white inside
INSIDE = 0.15  # share of the rim's colour in a space's inside: pale, so counters and names read on it
# Tags are told apart by colour: the first kind of tag the map declares is black, the next in the sea's ink.
TAG_FILLS = ("#000000", None)

def mix(colour: str, other: str, share: float) -> str:
    """`share` of `colour` over the rest of `other`, as #rrggbb."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * share + y * (1 - share)):02x}" for x, y in zip(a, b))


def column_name(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... for 0, 1, ..."""
    letters = string.ascii_uppercase
    return letters[index] if index < 26 else column_name(index // 26 - 1) + letters[index % 26]


def draw_poster(painter: Painter, plan: PosterPlan) -> None:
    """The whole poster on the painter's current page (page coordinates of the poster)."""
    _draw_map(painter, plan)
    _draw_title(painter, plan)
    (plan.key_drawing or recorded_key(plan)).replay(painter)


def recorded_key(plan: PosterPlan) -> Recording:
    """The key drawn once, when the poster is planned, so that a list with no room is refused before anything
    is drawn (DataError naming the map file)."""
    painter = RecordingPainter(plan.fonts)
    _draw_key(painter, plan)
    return painter.recording


def _sea_rules(painter: Painter, plan: PosterPlan, box: Box) -> None:
    """Level rules across `box`, `sea_rule` mm apart, under whatever is drawn on the sea after them; filled bands
    rather than stroked lines, since a viewer widens a stroke to a whole pixel and so darkens the sea when zoomed out."""
    pitch = plan.style.sea_rule
    if pitch <= 0:
        return
    width = pt_to_mm(plan.style.lines.sea)
    y = box.y + (pitch - width) / 2
    while y + width < box.bottom:
        painter.rect(box.x, y, box.width, width, fill=plan.palette.sea_rule)
        y += pitch


def _draw_map(painter: Painter, plan: PosterPlan) -> None:
    game_map, f, pal, st = plan.game_map, plan.frame, plan.palette, plan.style
    widths, dashes, halo = st.lines, st.dashes, (HALO_INK, st.halo)
    painter.rect(f.x, f.y, f.width, f.height, fill=pal.sea)
    _sea_rules(painter, plan, f)
    for fill, ring in plan.land:
        painter.polygon(ring, fill=fill, stroke=pal.border, line_width=widths.country)
    for colour, ring in plan.power_edges:
        painter.polyline(ring, stroke=colour, line_width=widths.power)
    for edge in plan.zone_edges:
        painter.polyline(edge, stroke=pal.sea_ink, line_width=widths.zone, dash=dashes.zone)
    _draw_grid_lines(painter, plan)
    for lane in plan.lanes:
        painter.polyline(lane, stroke=pal.sea_ink, line_width=widths.lane, dash=dashes.lane)
    for kind, colour, dash in (("air", pal.air, dashes.air), ("rail", pal.rail, None)):  # flights under the rails
        lines = [(*plan.at[r.from_], *plan.at[r.to]) for r in game_map.routes
                 if r.kind == kind and r.from_ in plan.at and r.to in plan.at]
        for line in lines:  # every edge first, so no line's edge cuts across another line of its kind
            _draw_casing(painter, *line, kind, widths)
        for line in lines:
            painter.line(*line, stroke=colour, line_width=getattr(widths, kind), dash=dash)
    for zone in game_map.sea_zones:
        if zone.name in plan.at:
            x, y = plan.at[zone.name]
            painter.circle(x, y, st.ship / 2, fill=pal.sea, stroke=pal.sea_ink, line_width=0.8)
            painter.symbol("ship", x, y, st.ship * 0.8, ink=pal.sea_ink, paper=pal.sea)
    for laid, x, y in plan.aids:
        draw_aid(painter, laid, x, y)
    for key, placed in plan.placed.items():
        if placed.far and key in plan.at:
            start, end = placed.leader(plan.at[key], plan.radius(key))
            painter.line(*start, *end, stroke=HALO_INK, line_width=widths.leader + 2 * st.leader_halo)  # cased, so it reads across lines
            painter.line(*start, *end, stroke=st.leader_ink, line_width=widths.leader, dash=dashes.leader)
    for city in game_map.cities:
        _draw_city(painter, plan, city.name)
    for key, placed in plan.placed.items():
        if key in plan.city_labels:
            _draw_city_label(painter, plan, plan.city_labels[key], placed.rect)
        elif key in plan.area_labels:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, plan.area_labels[key], plan.fonts.bold, st.region_size,
                         colour=AREA_INK, anchor=Anchor.MIDDLE, halo=halo)
        elif key in plan.country_labels:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, plan.country_labels[key], plan.fonts.regular, st.country_size,
                         colour=AREA_INK, anchor=Anchor.MIDDLE, halo=halo)
        else:
            r = placed.rect
            painter.text(r.x + r.width / 2, r.y + r.height * 0.78, key, plan.fonts.regular, st.sea_size, colour=pal.sea_ink,
                         anchor=Anchor.MIDDLE, halo=(pal.sea, st.halo))
    _draw_frame(painter, plan)
    small_print = f.bottom + st.border + pt_to_mm(st.credit_size) * 1.2
    painter.text(f.x - st.border, small_print, plan.advice[:1].upper() + plan.advice[1:] + ".", plan.fonts.regular, st.credit_size,
                 colour="#333333")
    credit = " ".join(t for t in (plan.game_map.reconstruction, plan.credit) if t)
    if credit:
        painter.text(f.right + st.border, small_print, credit, plan.fonts.regular, st.credit_size, colour="#333333", anchor=Anchor.END)


def _draw_casing(painter: Painter, x1: float, y1: float, x2: float, y2: float, kind: str, widths: PosterLines) -> None:
    """The paper-coloured edge under a rail or air line (the layout's `lines.rail_casing` or `air_casing` each side;
    none where it is 0)."""
    casing = getattr(widths, f"{kind}_casing")
    if casing:
        painter.line(x1, y1, x2, y2, stroke=HALO_INK, line_width=getattr(widths, kind) + 2 * casing)


def draw_space(painter: Painter, x: float, y: float, radius: float, fill: str, ink: str, capital: bool, port: str | None,
               ring: float = 0.0, edge: float = 0.0) -> None:
    """A city's space: pale inside for the counters, a rim in its power's colour (white for a neutral city),
    a double black edge and a star on the rim for a capital, a ring `ring` mm wide in the sea's ink (`port`)
    round a port, edged `edge` pt in paper colour inside its outer edge."""
    if port:
        if edge:
            painter.circle(x, y, radius + ring - pt_to_mm(edge) / 2, fill=port, stroke=HALO_INK, line_width=edge)
        else:
            painter.circle(x, y, radius + ring, fill=port)
    painter.circle(x, y, radius, fill=fill, stroke="#000000", line_width=1.4 if capital else 0.7)
    painter.circle(x, y, radius * (1 - RIM), fill=mix(fill, "#ffffff", INSIDE), stroke="#000000" if capital else None, line_width=0.5)
    if capital:
        painter.symbol("star", x, y - radius * (1 - RIM / 2), radius * RIM * 1.6, ink=ink, paper=fill)


def _draw_city(painter: Painter, plan: PosterPlan, name: str) -> None:
    city = plan.game_map.city(name)
    pal = plan.palette
    x, y = plan.at[name]
    draw_space(painter, x, y, plan.style.space / 2, pal.powers.get(city.power, "#ffffff"), pal.power_inks.get(city.power, "#000000"),
               city.capital, pal.sea_ink if city.port else None, plan.style.port_ring, plan.style.port_edge)
    for letter, bx, by in plan.badges.get(name, ()):
        _draw_badge(painter, plan.fonts, plan.style, letter, bx, by)


def _draw_badge(painter: Painter, fonts: FontSet, st: PosterStyle, letter: str, x: float, y: float) -> None:
    painter.circle(x, y, st.badge / 2, fill="#000000", stroke="#ffffff", line_width=0.6)
    size = st.badge_size / max(1, len(letter)) ** 0.5
    painter.text(x, y + pt_to_mm(size) * 0.36, letter, fonts.bold, size, colour="#ffffff", anchor=Anchor.MIDDLE)


def _tag_width(tag: str, fonts: FontSet, st: PosterStyle) -> float:
    """A mark's tag as a city's label and the legend set it: its text and a margin each side."""
    return text_width(tag, fonts.bold, st.tag_size) + st.tag_pad


def _tag_fill(game_map: MapFile, tag: str, palette: "Palette") -> str:
    tags = [mark.tag for mark in game_map.marks.values() if mark.tag]
    return TAG_FILLS[tags.index(tag) % len(TAG_FILLS)] or palette.sea_ink


def _draw_city_label(painter: Painter, plan: PosterPlan, label: CityLabel, rect: Box) -> None:
    right_aligned = rect.x + rect.width <= plan.at[label.name][0]
    anchor = Anchor.END if right_aligned else Anchor.START if rect.x >= plan.at[label.name][0] else Anchor.MIDDLE
    x = {Anchor.START: rect.x, Anchor.END: rect.right, Anchor.MIDDLE: rect.x + rect.width / 2}[anchor]
    line = pt_to_mm(label.size) * label.line
    painter.text(x, rect.y + line * 0.7, label.text, label.font, label.size, anchor=anchor, halo=(HALO_INK, plan.style.halo))
    top = rect.y + line + 0.2
    for tag in label.tags:
        w = label.tag_width(tag)
        left = {Anchor.START: x, Anchor.END: x - w, Anchor.MIDDLE: x - w / 2}[anchor]
        painter.rect(left, top, w, label.tag_height, fill=_tag_fill(plan.game_map, tag, plan.palette))
        painter.text(left + w / 2, top + label.tag_height * 0.74, tag, plan.fonts.bold, label.tag_size, colour="#ffffff", anchor=Anchor.MIDDLE)
        top += label.tag_height + 0.4


def _draw_grid_lines(painter: Painter, plan: PosterPlan) -> None:
    f, g = plan.frame, plan.grid
    colour = mix(plan.palette.sea_ink, "#ffffff", 0.25)
    for i in range(1, g.columns):
        x = f.x + f.width * i / g.columns
        painter.line(x, f.y, x, f.bottom, stroke=colour, line_width=0.3)
    for j in range(1, g.rows):
        y = f.y + f.height * j / g.rows
        painter.line(f.x, y, f.right, y, stroke=colour, line_width=0.3)


def _draw_frame(painter: Painter, plan: PosterPlan) -> None:
    st = plan.style
    f, g, font = plan.frame, plan.grid, plan.fonts.bold
    painter.rect(f.x - st.border, f.y - st.border, f.width + 2 * st.border, st.border, fill="#ffffff")
    painter.rect(f.x - st.border, f.bottom, f.width + 2 * st.border, st.border, fill="#ffffff")
    painter.rect(f.x - st.border, f.y, st.border, f.height, fill="#ffffff")
    painter.rect(f.right, f.y, st.border, f.height, fill="#ffffff")
    painter.rect(f.x, f.y, f.width, f.height, stroke="#000000", line_width=1.2)
    painter.rect(f.x - st.border, f.y - st.border, f.width + 2 * st.border, f.height + 2 * st.border, stroke="#000000", line_width=0.6)
    baseline = pt_to_mm(st.grid_size) * 0.36
    for i in range(g.columns):
        x = f.x + f.width * (i + 0.5) / g.columns
        for y in (f.y - st.border / 2 + baseline, f.bottom + st.border / 2 + baseline):
            painter.text(x, y, column_name(i), font, st.grid_size, anchor=Anchor.MIDDLE)
    for j in range(g.rows):
        y = f.y + f.height * (j + 0.5) / g.rows + baseline
        for x in (f.x - st.border / 2, f.right + st.border / 2):
            painter.text(x, y, str(j + 1), font, st.grid_size, anchor=Anchor.MIDDLE)


def _draw_title(painter: Painter, plan: PosterPlan) -> None:
    st = plan.style
    x, y, fonts = st.margin, st.margin, plan.fonts
    painter.text(x, y + pt_to_mm(st.title_size) * 0.75, plan.game_title, fonts.bold, st.title_size)
    title_w = text_width(plan.game_title, fonts.bold, st.title_size)
    sub = plan.game_map.title or ""
    if sub:
        painter.text(x + title_w + 8, y + pt_to_mm(st.title_size) * 0.75, sub, fonts.regular, st.subtitle_size)


def _draw_key(painter: Painter, plan: PosterPlan) -> None:
    """In the key's room (beside or below the map): the legend and the movement rules; each sea zone with
    the zones it sails to and its ports; the index of places with their grid squares; above any aids set
    at its foot."""
    st, key = plan.style, plan.key
    in_key = [y for laid, x, y in plan.aids if x >= key.x - 0.01 and y >= key.y]
    bottom = min(in_key) - st.aid_gap if in_key else key.bottom
    below = _draw_legend(painter, plan, Box(key.x, key.y, key.width, bottom - key.y))
    if plan.game_map.sea_zones:
        below = _draw_sea_zones(painter, plan, Box(key.x, below + st.key_gap, key.width, bottom - below - st.key_gap))
    _draw_index(painter, plan, Box(key.x, below + st.key_gap, key.width, bottom - below - st.key_gap))


def _heading(painter: Painter, plan: PosterPlan, x: float, y: float, text: str) -> float:
    """A heading of the key at (x, y), its top; returns where what follows it starts."""
    st = plan.style
    painter.text(x, y + pt_to_mm(st.heading_size) * 0.8, text, plan.fonts.bold, st.heading_size)
    return y + pt_to_mm(st.heading_size) * 1.3


def _draw_sea_zones(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """Each sea zone, the zones it sails to and its ports; returns where the list ends."""
    st, fonts, ink = plan.style, plan.fonts, plan.palette.sea_ink
    top = _heading(painter, plan, area.x, area.y, "Sea zones")
    ports: dict[str, list[str]] = defaultdict(list)
    for city in plan.game_map.cities:
        for zone in city.sea_zones if city.port else ():
            ports[zone].append(city.name)
    paragraphs = [p for z in plan.game_map.sea_zones for p in (
        Paragraph(z.name, fonts.bold, colour=ink, space_before=0.3),
        Paragraph(f"sails to {', '.join(z.adjacent) or 'no other zone'}; ports: {', '.join(ports[z.name]) or 'none'}.",
                  fonts.regular, run_in=True))]
    try:
        fitted = fit_text(paragraphs, area.width, area.bottom - top, largest=st.key_size, smallest=st.key_size,
                          what=f"the poster's key has no room for the list of {len(plan.game_map.sea_zones):,} sea zones")
    except TextFitError as exc:  # the zones are the map's: say so, and what gives the list room
        raise DataError([Problem(plan.map_file, "sea_zones",
                                 f"{exc}; shorten the zones' names, or give the key room in the layout "
                                 "(poster: key_width, key_size)", "no-room")]) from None
    painter.text_block(fitted, area.x, top, area.width, anchor=Anchor.START)
    return top + fitted.height


def _draw_legend(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """What each colour, space, mark and line means, and how far a move goes; returns where it ends."""
    st, fonts, pal, m = plan.style, plan.fonts, plan.palette, plan.game_map
    widths, dashes, ring = st.lines, st.dashes, st.port_ring
    row = max(pt_to_mm(st.key_size) * 1.6, st.legend_row)
    y = _heading(painter, plan, area.x, area.y, "Legend") + row / 2
    r = st.legend_space / 2
    sw, sh = st.legend_swatch, st.legend_space  # a swatch of land or sea, and the lines drawn across one
    tags = [mark.tag for name, mark in m.marks.items() if not mark.badge and mark.tag and any(c.has_mark(name) for c in m.cities)]
    column = max([sw, st.legend_space + 2 * ring, st.badge, st.ship * 0.6] + [_tag_width(t, fonts, st) for t in tags])
    sx, tx = area.x + column / 2, area.x + column + st.legend_gap

    def entry(text: str) -> None:
        nonlocal y
        painter.text(tx, y + pt_to_mm(st.key_size) * 0.36, text, fonts.regular, st.key_size)
        y += row

    used = {c.power for c in m.cities}
    for power, colour in pal.powers.items():
        if power in used:
            painter.rect(sx - sw / 2, y - sh / 2, sw, sh, fill=pal.shade(power), stroke=mix(colour, "#000000", 0.75), line_width=widths.power)
            draw_space(painter, sx, y, r, colour, pal.power_inks[power], False, None)
            entry(f"{plan.factions.get(power, power)}: home territory and its cities")
    for part in m.regions:
        if part.name in pal.areas:
            painter.rect(sx - sw / 2, y - sh / 2, sw, sh, fill=pal.shade(None, part.name), stroke=pal.border, line_width=widths.country)
            entry(f"{part.number} · {part.name}" if part.number is not None else part.name)
    if any(c.is_neutral for c in m.cities) and not (m.regions and all(r.name in pal.areas for r in m.regions)):
        painter.rect(sx - sw / 2, y - sh / 2, sw, sh, fill=pal.land, stroke=pal.border, line_width=widths.country)
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, None)
        entry("Neutral country and city" if m.rules.home_territory else "Land and city")
    painter.rect(sx - sw / 2, y - sh / 2, sw, sh, fill=pal.sea)
    _sea_rules(painter, plan, Box(sx - sw / 2, y - sh / 2, sw, sh))
    painter.rect(sx - sw / 2, y - sh / 2, sw, sh, stroke=pal.sea_ink, line_width=widths.country)
    if m.sea_zones:
        painter.line(sx - sw / 2, y, sx + sw / 2, y, stroke=pal.sea_ink, line_width=widths.zone, dash=dashes.zone)
    entry("Sea, and the border between two sea zones" if m.sea_zones else "Sea")
    if m.dice is not None and any(c.number is not None for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, None)
        entry(f"A city and its face of the {m.dice.city.name}, in its region (see the dice table)")
    if any(c.capital for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", True, None)
        entry("Capital (star on the rim, double edge, name in bold)")
    if any(c.port for c in m.cities):
        draw_space(painter, sx, y, r, "#ffffff", "#000000", False, pal.sea_ink, ring, st.port_edge)
        entry("Port: sails to the ship of each sea zone it touches")
    tag_h = pt_to_mm(st.tag_size) * 1.5
    for name, mark in m.marks.items():
        if not any(c.has_mark(name) for c in m.cities):
            continue
        if mark.badge:
            _draw_badge(painter, fonts, st, mark.badge, sx, y)
        else:
            w = _tag_width(mark.tag, fonts, st)
            painter.rect(sx - w / 2, y - tag_h / 2, w, tag_h, fill=_tag_fill(m, mark.tag, pal))
            painter.text(sx, y + tag_h * 0.24, mark.tag, fonts.bold, st.tag_size, colour="#ffffff", anchor=Anchor.MIDDLE)
        entry(mark.legend)
    for kind, colour, width, dash in (("rail", pal.rail, widths.rail, None), ("air", pal.air, widths.air, dashes.air)):
        if any(r.kind == kind for r in m.routes):
            _draw_casing(painter, sx - sw / 2, y, sx + sw / 2, y, kind, widths)
            painter.line(sx - sw / 2, y, sx + sw / 2, y, stroke=colour, line_width=width, dash=dash)
            entry(f"{kind.capitalize()} line")
    if m.sea_zones:
        painter.symbol("ship", sx, y, st.ship * 0.6, ink=pal.sea_ink, paper=pal.sea)
        entry("Sea zone (its ship symbol)")
        painter.line(sx - sw / 2, y, sx + sw / 2, y, stroke=pal.sea_ink, line_width=widths.lane, dash=dashes.lane)
        entry("Sea lane: port to ship, ship to ship")
    rules = m.rules
    y = _heading(painter, plan, area.x, y - row / 2 + 1, "Moving")
    ends = " or ".join({"city": "a city", "sea": "a sea zone"}[k] for k in rules.move_ends_in)
    ways = [kind for kind in ("rail", "air") if any(r.kind == kind for r in m.routes)] + (["sea"] if m.sea_zones else [])
    by = f"by any mix of {', '.join(ways[:-1])} and {ways[-1]}" if len(ways) > 1 else f"by {ways[0]}" if ways else ""
    if rules.note:
        text, cite = rules.note, rules.cite.get("note")
    else:
        text = (f"Each city{' or sea zone' if m.sea_zones else ''} entered is one space; at most {rules.spaces_per_turn} "
                f"spaces a turn{', ' + by if by else ''}; a move ends in {ends}.")
        cite = rules.cite.get("spaces_per_turn")
    paragraphs = [Paragraph(text + (f" ({cite_as_printed(cite.split(':')[0])})" if cite else ""), fonts.regular)]
    fitted = fit_text(paragraphs, area.width, area.bottom - y, largest=st.key_size, smallest=st.key_size, what="the poster's movement note")
    painter.text_block(fitted, area.x, y, area.width, anchor=Anchor.START)
    return y + fitted.height


def _draw_index(painter: Painter, plan: PosterPlan, area: Box) -> float:
    """Every place with its grid square, in columns; returns where the index ends."""
    st, fonts = plan.style, plan.fonts
    top = _heading(painter, plan, area.x, area.y, "Index of places")
    zones = {z.name for z in plan.game_map.sea_zones}
    names = sorted((n for n in plan.at), key=str.casefold)
    line = pt_to_mm(st.key_size) * 1.3
    columns = max(1, int(area.width // st.index_column))
    while top + -(-len(names) // columns) * line > area.bottom and columns < 6:  # short of room: narrower columns
        columns += 1
    per_column = -(-len(names) // columns)
    col_w = area.width / columns
    for i, name in enumerate(names):
        col, row = divmod(i, per_column)
        x, y = area.x + col * col_w, top + (row + 0.8) * line
        sea = name in zones
        painter.text(x, y, name, fonts.regular, st.key_size, colour=plan.palette.sea_ink if sea else "#000000")
        painter.text(x + col_w - 4, y, plan.grid.ref(*plan.at[name]), fonts.bold, st.key_size, anchor=Anchor.END)
    return top + per_column * line
