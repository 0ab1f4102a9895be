"""Counter sheets: every piece of a game's roster, both faces, as `counters.pdf`.

A face shows what the roster fills into its kind's template: a title, a picture (the face's art,
its symbol or a row of marks and icons), a text and a value, stacked top to bottom inside the layout's safe
zone, on the face's colour; a corner ring (a cost) at the top right, ruled lines to write on under the text. Every face of one side of a kind shares one arrangement and one size
per role (title, text, value): the layout's `type` size, or else the largest at which the longest
text of that role fits, so type never jumps from piece to piece. Arrangements are worked out once
per kind, side and size, from every piece of that kind in the roster (replacement pieces match
the full sheet).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.faces import Face, faces
from ..core.models import ASSUMED_MARK
from ..core.units import mm_to_pt, pt_to_mm
from .art import art_path, read_picture
from .fonts import FontSet, piece_fonts, unit_width
from .geometry import Box
from .item_sheets import Item, print_items
from .painter import Anchor
from .print_checks import ROLES
from .render import collector_paused
from .textfit import (LEADING, FittedText, Line, Paragraph, TextFitError, diagonal_angle, diagonal_size, ink_box,
                      set_diagonally, set_text, shared_size)

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Colour, FaceEmphasis
    from ..core.models import Piece
    from .render import Document
    from .settings import PrintSettings
    from .painter import Painter

PARTS = ("title", "picture", "text", "value")  # top to bottom
TEXT_CAP = 0.35  # largest text size as a share of the face's shorter side
TEXT_UNDER_TITLE = 0.8  # the text never outshouts the title
GROW, CLIMB = 1.4, 8  # how much a part's share changes in one step, and how many steps are tried
SPLIT = 0.5  # the picture's share of a row it shares with the value, to start with
SAMPLE = 3  # faces per role and measure an arrangement is judged on
ICON_SHARE = 0.2  # a row of icons: each at most this share of the face's shorter side
PICTURE_FILL = 0.92  # a symbol or picture's share of its box
ASSUMED_SHARE = 0.6  # the mark after symbols read rather than given: its size as a share of a symbol's side
EDGE = 0.8  # share of the safe zone a two-colour piece's second colour rings the face with, where its colour sets no width
CORNER = 0.15  # a corner ring's diameter as a share of the face's shorter side
ICON_STEP = 1.35  # a row of symbols: the distance between centres, in symbol sides
MARK_GLYPH = 0.7  # a mark's symbol as a share of its solid tab
MARKS_GAP = 0.35  # the space between a row's marks and its icons, in places
WRITE_IN_PITCH = 6.0  # mm between the ruled lines players write on
WRITE_IN_LINE = 0.35  # pt
FOLD_DASH = (2.0, 1.5)  # mm on, off: the fold line of a face that folds in half
WRITE_IN_DASH = (1.2, 0.8)  # mm: the frame of a write-in face's symbols


@dataclass(frozen=True)
class Arrangement:
    """One side of a kind laid out at one size: each part's box (mm from the face's top-left corner),
    each text role's size (pt), the safe zone (mm) from the cut, where an edge's ring and a corner lie
    (the boxes may keep further in), and whether the title runs along the face's diagonal (a back too
    long to be set level at its sheet's size)."""

    boxes: dict[str, Box]
    sizes: dict[str, float]
    safe: float
    turned: bool = False

    def score(self, emphasis: "FaceEmphasis") -> float:
        """How well the arrangement reads: its smallest role size (and picture) against the emphasis the layout
        gives each."""
        scores = [self.sizes[r] / getattr(emphasis, r) for r in self.sizes]
        if "picture" in self.boxes:
            box = self.boxes["picture"]
            scores.append(mm_to_pt(min(box.width, box.height) * PICTURE_FILL) / emphasis.picture)
        return min(scores, default=0.0)


@dataclass(frozen=True)
class SetFace:
    """A face ready to draw: its arrangement and its texts set at their role's size."""

    face: Face
    arrangement: Arrangement
    texts: tuple[tuple[str, FittedText], ...]


def _ring(colour, safe: float) -> float:
    """The width (mm) of the ring a two-colour piece's edge draws: the colour's own, else a share of the safe zone."""
    return colour.edge_width if colour.edge_width is not None else safe * EDGE


def _has_picture(face: Face) -> bool:
    return bool(face.art or face.symbol or face.symbols)


def corner_diameter(size: tuple[float, float]) -> float:
    """The corner ring's diameter (mm) on a face of `size`."""
    return min(size) * CORNER


_face_texts: dict[int, tuple[Face, dict[str, str]]] = {}  # id -> (the face, kept so its id is not reused; its texts)


def _texts(face: Face) -> dict[str, str]:
    """The roles a face prints, with their texts (asked many times while a kind is arranged: remembered, by the
    face's identity, as hashing its twelve fields costs more than working the texts out)."""
    found = _face_texts.get(id(face))
    if found is None or found[0] is not face:
        texts = {} if face.blank else {role: getattr(face, role) for role in ROLES if getattr(face, role)}
        if face.title_assumed and "title" in texts:
            texts["title"] += f" {ASSUMED_MARK}"
        found = _face_texts[id(face)] = (face, texts)
    return found[1]


def _parts(side_faces: list[Face]) -> list[str]:
    present = set()
    for face in side_faces:
        present |= set(_texts(face))
        if _has_picture(face) and not face.blank:
            present.add("picture")
    return [p for p in PARTS if p in present]


def _boxes(parts: list[str], size: tuple[float, float], safe: float, weights: dict[str, float],
           beside: bool, split: float = 0.5, corner: float = 0.0) -> dict[str, Box]:
    """Each part's box: rows inside the safe zone by weight; with `beside` the value sits right of the
    picture, which takes `split` of the row's width; the title keeps `corner` mm clear at each side
    (a corner ring's room, kept on both so the title stays centred)."""
    inner = Box(safe, safe, size[0] - 2 * safe, size[1] - 2 * safe)
    rows = [p for p in parts if not (beside and p == "value")]
    total = sum(weights[p] for p in rows) or 1.0
    boxes: dict[str, Box] = {}
    y = inner.y
    for part in rows:
        height = inner.height * weights[part] / total
        if part == "picture" and beside:
            boxes["picture"] = Box(inner.x, y, inner.width * split, height)
            boxes["value"] = Box(inner.x + inner.width * split, y, inner.width * (1 - split), height)
            boxes["row"] = Box(inner.x, y, inner.width, height)
        elif part == "title" and corner:
            boxes[part] = Box(inner.x + corner, y, inner.width - 2 * corner, height)
        else:
            boxes[part] = Box(inner.x, y, inner.width, height)
        y += height
    return boxes


def _widest(labelled: list[tuple[str, Face]], font) -> list[tuple[str, Face]]:
    """The faces whose texts are widest in each role, overall or by their longest word: the ones that
    decide a role's size, so an arrangement can be judged on a few faces instead of every one."""
    chosen: dict[int, tuple[str, Face]] = {}
    for role in ROLES:
        having = [(text, pair) for pair in labelled if (text := _texts(pair[1]).get(role))]
        role_font = font(role)
        whole: dict[str, float] = {}  # each distinct text measured once: a roster repeats its backs' texts
        word: dict[str, float] = {}
        for text, _ in having:
            if text not in whole:
                whole[text] = unit_width(text, role_font)
                word[text] = max(unit_width(w, role_font) for w in text.split())
        for measure in (whole, word):
            widest = heapq.nlargest(SAMPLE, having, key=lambda entry: measure[entry[0]])
            chosen.update((id(pair[1]), pair) for _, pair in widest)
    return list(chosen.values())


def _neighbours(state: tuple, parts: list[str]) -> list[tuple]:
    """Arrangements one step away: one part's share of the height grown or shrunk, or grown at one other's
    expense, or the picture's share of its row changed."""
    weights, beside, split = state
    found = []
    for part in parts:
        for factor in (GROW, 1 / GROW):
            found.append((tuple((p, w * factor if p == part else w) for p, w in weights), beside, split))
        for other in parts:  # one part takes share from one other, the rest kept as they are
            if other != part:
                found.append((tuple((p, w * GROW if p == part else w / GROW if p == other else w) for p, w in weights),
                              beside, split))
    if beside:
        found += [(weights, beside, s) for s in (split - 0.1, split + 0.1) if 0.25 <= s <= 0.75]
    return found


class _RoleTooLong(Exception):
    """A role that does not fit an arrangement tried. It is kept while the search goes on, so it holds no traceback
    (nor does its error): their frames hold the search's closure, and the cycle would keep every face the build sets
    alive until the collector next scans them all."""

    def __init__(self, role: str, error: TextFitError):
        super().__init__()
        self.role, self.error = role, error.with_traceback(None)


class FacePainter:
    """Arranges and draws roster faces: one arrangement per kind, side and size, one set face per distinct face."""

    def __init__(self, game: "Game", fonts: FontSet):
        self.game, self.layout, self.fonts = game, game.layout, fonts
        self._faces: dict[str, list[tuple[str, Face, Face]]] = {}  # kind -> (label, front, back) of each piece
        for piece in game.pieces:
            front, back = faces(game, piece)
            self._faces.setdefault(piece.kind, []).append((piece_label(game, piece), front, back))
        self._colours: dict[str, tuple["Colour", bool]] = {}
        self._arrangements: dict[tuple, Arrangement | TextFitError] = {}
        self._role_sizes: dict[tuple, float] = {}
        self._back_titles: dict[tuple, float | None] = {}
        self._set: dict[tuple, SetFace] = {}
        self._sides: dict[tuple[str, str], list[tuple[str, Face]]] = {}

    def font(self, role: str) -> str:
        return self.fonts.regular if role == "text" else self.fonts.bold

    def min_text(self, group: str) -> float:
        """The smallest text size (pt) the layout allows on pieces of size `group`."""
        sizes = self.layout.min_text_size
        return (getattr(sizes, group) if group in type(sizes).model_fields else None) or sizes.piece

    def arrangement(self, kind: str, side: str, size: tuple[float, float]) -> Arrangement:
        """How every face on `side` of `kind` is laid out at `size`; raises TextFitError naming a piece that cannot fit."""
        key = (kind, side, size)
        if key not in self._arrangements:
            try:
                self._arrangements[key] = self._arrange(kind, side, size)
            except TextFitError as exc:  # remembered too: every face of the kind asks again, and would search again
                self._arrangements[key] = exc
        found = self._arrangements[key]
        if isinstance(found, TextFitError):
            raise found.with_traceback(None)
        return found

    def _side(self, kind: str, side: str) -> list[tuple[str, Face]]:
        """(label, face) of every piece of `kind` on `side`, listed once: each arrangement tried asks again."""
        found = self._sides.get((kind, side))
        if found is None:
            index = 1 if side == "front" else 2
            found = self._sides[(kind, side)] = [(entry[0], entry[index]) for entry in self._faces.get(kind, [])]
        return found

    def _arrange(self, kind: str, side: str, size: tuple[float, float]) -> Arrangement:
        """The arrangement that reads best: hill-climbing over the parts' shares of the face (and, with a
        picture and a value, whether they share a row and how), judged on the widest texts of each role,
        then sized on every face of the kind."""
        labelled = self._side(kind, side)
        if any(face.fold for _, face in labelled):  # set in the upper half, the half that shows once folded
            size = (size[0], size[1] / 2)
        parts = _parts([face for _, face in labelled])
        group = self.game.info.kinds[kind].size
        safe = self.layout.safe(group)
        inset = self.layout.safe(group, back=side == "back")  # where the parts' boxes start
        rings = [_ring(self.layout.colour(face.colour), safe) for _, face in labelled if self.layout.colour(face.colour).edge]
        if side == "back" and any(self.layout.colour(face.colour).backs == "inset" for _, face in labelled):
            rings.append(safe)  # an inset back's panel starts where the front's safe zone ends: its texts keep inside it
        if rings:  # clear of the ring the edge draws
            inset = max(inset, max(rings) + self.layout.edge_clearance)
        corner = corner_diameter(size) + safe if any(face.corner is not None for _, face in labelled) else 0.0
        sample = _widest(labelled, self.font)
        shares = [(True, SPLIT), (False, SPLIT)] if "picture" in parts and "value" in parts else [(False, SPLIT)]
        best: tuple[float, tuple] | None = None
        failure: _RoleTooLong | None = None

        def judge(state: tuple) -> float | None:
            nonlocal failure
            weights, beside, split = state
            boxes = _boxes(parts, size, inset, dict(weights), beside, split, corner)
            try:
                return Arrangement(boxes, self._sizes(kind, side, sample, boxes, size, group), safe).score(self.layout.faces.emphasis)
            except _RoleTooLong as exc:
                failure = exc.with_traceback(None)  # see _RoleTooLong
                return None

        for beside, split in shares:
            state = (tuple(self.layout.faces.shares.model_dump(exclude={"assumed"}).items()), beside, split)
            score = judge(state)
            for _ in range(CLIMB):  # a role too long for its share takes more of the face until it fits
                if score is not None or failure.role not in parts:
                    break
                state = (tuple((p, w * GROW if p == failure.role else w) for p, w in state[0]), beside, split)
                score = judge(state)
            if score is None:
                continue
            for _ in range(CLIMB):  # take the first step that reads better, until none does
                better = next(((s, n) for n in _neighbours(state, parts) if (s := judge(n)) is not None and s > score + 1e-6),
                              None)
                if better is None:
                    break
                score, state = better
            if best is None or score > best[0] + 1e-6:
                best = (score, state)
        if best is None:
            assert failure is not None
            raise failure.error
        weights, beside, split = best[1]
        boxes = _boxes(parts, size, inset, dict(weights), beside, split, corner)
        try:
            sizes = self._sizes(kind, side, labelled, boxes, size, group)
        except _RoleTooLong as exc:
            raise exc.error from None
        turned = self._turnable(side, boxes) and any(
            set_text(Paragraph(text, self.font("title")), boxes["title"].width, boxes["title"].height, sizes["title"]) is None
            for text in {_texts(face)["title"] for _, face in labelled})
        return Arrangement(boxes, sizes, safe, turned)

    def _turnable(self, side: str, boxes: dict[str, Box]) -> bool:
        """Whether this side's title may run along the diagonal: a back of nothing but its title, where
        the layout asks for diagonal backs."""
        return side == "back" and self.layout.faces.diagonal_backs and set(boxes) == {"title"}

    def _fixed(self, kind: str, side: str, size: tuple[float, float]) -> dict[str, float]:
        """The sizes the layout's `type` sets for this kind's side: `title` for the front, `back_title` for
        the back; a back title the layout leaves open takes the size every back of its sheet shares."""
        given = self.layout.type.get(kind, {})
        prefix = "" if side == "front" else "back_"
        fixed = {role: given[prefix + role] for role in ROLES if prefix + role in given}
        info = self.game.info.kinds[kind]
        if side == "back" and "title" not in fixed and (info.hidden or info.drawn) and (
                shared := self.back_title_size(info.size, size)):
            fixed["title"] = shared
        return fixed

    def back_title_size(self, group: str, size: tuple[float, float]) -> float | None:
        """The one size the back titles of every face-down kind (hidden or drawn) of size `group` share
        at `size` (pt): the largest at which each fits, as set by the layout's `type` where it sets one.
        Face-down pieces are the faces players read all game, so one does not shout over another; a
        marker's back is a state of the marker (a bank's "+100 £"), read like a front, and takes its own size."""
        key = (group, size)
        if key not in self._back_titles:
            self._back_titles[key] = None  # while the kinds are sized on their own
            found = []
            for kind, info in self.game.info.kinds.items():
                if info.size != group or not (info.hidden or info.drawn) or not any(
                        _texts(face).get("title") for _, face in self._side(kind, "back")):
                    continue
                given = self.layout.type.get(kind, {}).get("back_title")
                found.append(given if given is not None else self._arrange(kind, "back", size).sizes["title"])
            self._back_titles[key] = min(found, default=None)
        return self._back_titles[key]

    def _sizes(self, kind: str, side: str, labelled: list[tuple[str, Face]], boxes: dict[str, Box],
               size: tuple[float, float], group: str) -> dict[str, float]:
        smallest = self.min_text(group)
        fixed = self._fixed(kind, side, size)
        cap = mm_to_pt(min(size)) * TEXT_CAP
        sizes: dict[str, float] = {}
        # each distinct text once, named by the first face that prints it (a text that does not fit is refused
        # naming that face, as it is the first to fail); each face's texts looked up once, not once per role
        by_role: dict[str, dict[str, str]] = {role: {} for role in ROLES}
        for label, face in labelled:
            for role, text in _texts(face).items():
                by_role[role].setdefault(text, label)
        for role in ROLES:
            texts = list(by_role[role].items())
            if not texts or role not in boxes:
                continue
            box = boxes[role]
            font = self.font(role)
            texts.sort(key=lambda pair: unit_width(pair[0], font), reverse=True)  # the widest lowers the size first
            blocks = [(Paragraph(text, font), f"{label}: {role}") for text, label in texts]
            turnable = role == "title" and self._turnable(side, boxes)
            try:
                if role in fixed:  # every face of the kind level, or (where it may turn) every one on the diagonal
                    setters = (set_text, set_diagonally) if turnable else (set_text,)
                    if not any(all(setter(p, box.width, box.height, fixed[role]) for p, _ in blocks) for setter in setters):
                        what = next(w for p, w in blocks if set_text(p, box.width, box.height, fixed[role]) is None)
                        raise TextFitError(f"{what}: does not fit in {box.width:.1f} x {box.height:.1f} mm "
                                           f"at the layout's {fixed[role]:g} pt")
                    sizes[role] = fixed[role]
                    continue
                largest = min(cap, mm_to_pt(box.height) / LEADING, getattr(self.layout.max_piece_text, role))
                if role == "text" and "title" in sizes:
                    largest = min(largest, sizes["title"] * TEXT_UNDER_TITLE)
                largest = max(smallest, largest)
                # neighbouring arrangements often give a role the same box: its size is worked out once
                key = (kind, side, role, len(blocks), round(box.width, 3), round(box.height, 3), round(largest, 3))
                if key not in self._role_sizes:
                    self._role_sizes[key] = self._role_size(blocks, box, largest, smallest, turnable)
                sizes[role] = self._role_sizes[key]
            except TextFitError as exc:
                raise _RoleTooLong(role, exc) from None
        return sizes

    @staticmethod
    def _role_size(blocks: list, box: Box, largest: float, smallest: float, turnable: bool) -> float:
        """The largest size every block of a role fits its box at: level, or, where the role may turn,
        along the box's diagonal when that is larger."""
        try:
            level = shared_size(blocks, box.width, box.height, largest=largest, smallest=smallest)
        except TextFitError:
            if not turnable:
                raise
            level = None
        if not turnable:
            return level
        try:
            turned = diagonal_size(blocks, box.width, box.height, largest=largest, smallest=smallest)
        except TextFitError:
            if level is None:
                raise
            return level
        return turned if level is None else max(level, turned)

    def set_face(self, kind: str, side: str, face: Face, size: tuple[float, float]) -> SetFace:
        """`face` (on `side` of a piece of `kind`) set at its kind's arrangement for `size`."""
        key = (kind, side, face, size)
        found = self._set.get(key)
        if found is None:
            arrangement = self.arrangement(kind, side, size)
            texts = []
            for role, text in _texts(face).items():
                box = self._box(arrangement, face, role)
                setter = set_diagonally if arrangement.turned and role == "title" else set_text
                fitted = setter(Paragraph(text, self.font(role)), box.width, box.height, arrangement.sizes[role])
                assert fitted is not None, "the arrangement was sized to fit every face"
                texts.append((role, fitted))
            found = self._set[key] = SetFace(face, arrangement, tuple(texts))
        return found

    @staticmethod
    def _box(arrangement: Arrangement, face: Face, part: str) -> Box:
        """A part's box; a value whose face has no picture takes the whole row it would share."""
        if part == "value" and "row" in arrangement.boxes and not _has_picture(face):
            return arrangement.boxes["row"]
        return arrangement.boxes[part]

    def draw(self, painter: "Painter", set_face: SetFace, box: Box, bleed: float, back: bool = False) -> None:
        """Draw a set face with its cut line at `box`, its colour carried `bleed` mm beyond."""
        face = set_face.face
        colour, outline = self._colour(face.colour)
        full = box.grown(bleed)
        if back and outline:  # white paper and the colour's fill as ink; no frame near the cut to show a duplex shift
            painter.rect(full.x, full.y, full.width, full.height, fill="#ffffff")
            ink, paper = colour.edge or colour.fill, "#ffffff"
        elif back and colour.backs == "inset":  # paper at the cut, the fill as a panel inside the back's safe zone
            painter.rect(full.x, full.y, full.width, full.height, fill="#ffffff")
            panel = box.grown(-set_face.arrangement.safe)
            painter.rect(panel.x, panel.y, panel.width, panel.height, fill=colour.fill)
            ink, paper = colour.ink, colour.fill
        elif back and colour.backs == "edge" and colour.edge:  # the front's ring colour, solid: no frame to show a shift
            painter.rect(full.x, full.y, full.width, full.height, fill=colour.edge)
            ink, paper = colour.edge_ink, colour.edge
        else:
            painter.rect(full.x, full.y, full.width, full.height, fill=colour.edge or colour.fill)
            if colour.edge:
                ring = _ring(colour, set_face.arrangement.safe)
                painter.rect(box.x + ring, box.y + ring, box.width - 2 * ring, box.height - 2 * ring, fill=colour.fill)
            ink, paper = colour.ink, colour.fill
        for role, fitted in set_face.texts:
            part = self._box(set_face.arrangement, face, role)
            if set_face.arrangement.turned and role == "title":
                _draw_turned(painter, fitted, part.shifted(box.x, box.y), ink)
                continue
            ruled = face.write_in and role == "text"
            top = box.y + part.y + (0.0 if ruled else (part.height - fitted.height) / 2)
            painter.text_block(fitted, box.x + part.x, top, part.width, ink, Anchor.MIDDLE)
            if ruled:
                self._draw_write_in(painter, part.shifted(box.x, box.y), fitted.height, ink)
        if face.fold:
            painter.line(box.x, box.y + box.height / 2, box.x + box.width, box.y + box.height / 2, stroke=ink,
                         line_width=WRITE_IN_LINE, dash=FOLD_DASH)
        picture = set_face.arrangement.boxes.get("picture")
        if picture is not None and not face.blank and _has_picture(face):
            self._draw_picture(painter, face, picture.shifted(box.x, box.y), min(box.width, box.height), ink, paper)
        elif picture is not None and not face.blank and face.write_in:
            self._draw_symbols_write_in(painter, picture.shifted(box.x, box.y), ink)
        if face.corner is not None and not face.blank:
            self._draw_corner(painter, face.corner, box, set_face.arrangement.safe, ink, paper)

    def _colour(self, name: str) -> tuple["Colour", bool]:
        """The layout's colour `name` and whether a back in it prints as an outline, looked up once per colour."""
        found = self._colours.get(name)
        if found is None:
            colour = self.layout.colour(name)
            found = self._colours[name] = (colour, colour.is_outline_back)
        return found

    @staticmethod
    def _draw_write_in(painter: "Painter", part: Box, used: float, ink: str) -> None:
        """Ruled lines across the text's box below its `used` mm, one every WRITE_IN_PITCH mm."""
        y = part.y + used + WRITE_IN_PITCH
        while y <= part.y + part.height + 1e-6:
            painter.line(part.x, y, part.x + part.width, y, stroke=ink, line_width=WRITE_IN_LINE)
            y += WRITE_IN_PITCH

    @staticmethod
    def _draw_symbols_write_in(painter: "Painter", part: Box, ink: str) -> None:
        """A dashed frame where a write-in face's symbols go, to draw them in."""
        inset = part.grown(-min(part.width, part.height) * (1 - PICTURE_FILL) / 2)
        corners = [(inset.x, inset.y), (inset.right, inset.y), (inset.right, inset.bottom), (inset.x, inset.bottom)]
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):  # lines, not a box that reads as a cut
            painter.line(x1, y1, x2, y2, ink, WRITE_IN_LINE * 2, dash=WRITE_IN_DASH)

    def _draw_corner(self, painter: "Painter", text: str, box: Box, safe: float, ink: str, paper: str) -> None:
        """`text` in a ring at the face's top-right corner inside the safe zone; an empty ring when `text` is ""."""
        diameter = corner_diameter((box.width, box.height))
        cx, cy = box.x + box.width - safe - diameter / 2, box.y + safe + diameter / 2
        painter.circle(cx, cy, diameter / 2, fill=paper, stroke=ink, line_width=1.0)
        if text:
            font = self.fonts.bold
            size = min(mm_to_pt(diameter) * 0.55, mm_to_pt(diameter) * 0.7 / max(unit_width(text, font), 1e-6))
            painter.text(cx, cy + pt_to_mm(size) * 0.36, text, font, size, ink, Anchor.MIDDLE)

    def _draw_picture(self, painter: "Painter", face: Face, box: Box, face_side: float, ink: str, paper: str) -> None:
        if face.art:
            inset = box.grown(-min(box.width, box.height) * (1 - PICTURE_FILL) / 2)
            painter.picture(read_picture(art_path(self.game, face.art)), inset.x, inset.y, inset.width, inset.height)
            return
        if face.labels:
            self._draw_legend(painter, face, box, ink, paper)
            return
        names = face.symbols or (face.symbol,)
        gap = MARKS_GAP if face.marks and face.icons else 0.0
        step = box.width / (len(names) + gap)
        side = min(box.height, step) * PICTURE_FILL
        if face.symbols:  # a row of symbols stands together in the middle
            side = min(side, face_side * ICON_SHARE)
            step = min(step, side * ICON_STEP)
        left = box.x + (box.width - step * (len(names) + gap)) / 2
        for i, name in enumerate(names):
            cx = left + step * (i + 0.5 + (gap if i >= len(face.marks) else 0.0))
            self._draw_symbol(painter, name, i < len(face.marks), cx, box.y + box.height / 2, side, ink, paper)
        if face.symbols_assumed:  # beside the last symbol's top right, as a value read rather than given is marked
            size = mm_to_pt(side) * ASSUMED_SHARE
            painter.text(cx + side / 2 + pt_to_mm(size) * 0.15, box.y + box.height / 2 - side / 2 + pt_to_mm(size) * 0.7,
                         ASSUMED_MARK, self.fonts.bold, size, ink)

    @staticmethod
    def _draw_symbol(painter: "Painter", name: str, mark: bool, cx: float, cy: float, side: float,
                     ink: str, paper: str) -> None:
        """A symbol; a mark is the symbol in the face's colour on a solid tab of ink."""
        if mark:
            painter.rect(cx - side / 2, cy - side / 2, side, side, fill=ink)
            painter.symbol(name, cx, cy, side * MARK_GLYPH, paper, ink)
        else:
            painter.symbol(name, cx, cy, side, ink, paper)

    def _draw_legend(self, painter: "Painter", face: Face, box: Box, ink: str, paper: str) -> None:
        """The marks in one column and the icons in the next, each symbol with its name to its right."""
        columns = [list(zip(face.marks, face.labels)), list(zip(face.icons, face.labels[len(face.marks):]))]
        columns = [column for column in columns if column]
        rows = max(len(column) for column in columns)
        width, pitch = box.width / len(columns), box.height / rows
        side = min(pitch * 0.8, width * 0.3)
        font = self.fonts.regular
        widest = max(unit_width(label, font) for label in face.labels)
        size = min(mm_to_pt(side) * 0.6, mm_to_pt(width - side * 1.5) / max(widest, 1e-6))
        for c, column in enumerate(columns):
            for r, (name, label) in enumerate(column):
                cx, cy = box.x + c * width + side * 0.6, box.y + pitch * (r + 0.5)
                self._draw_symbol(painter, name, c == 0 and bool(face.marks), cx, cy, side, ink, paper)
                painter.text(cx + side * 0.8, cy + pt_to_mm(size) * 0.35, label, font, size, ink, Anchor.START)


def _draw_turned(painter: "Painter", fitted: FittedText, part: Box, ink: str) -> None:
    """Set lines drawn along `part`'s rising diagonal, their ink centred on the box's centre."""
    angle, lines = _turned(fitted, part.width, part.height)
    cx, cy = part.x + part.width / 2, part.y + part.height / 2
    for line, across, down in lines:
        painter.text(cx + across, cy + down, line.text, line.font, line.size, line.colour or ink, Anchor.MIDDLE,
                     angle=angle)


@lru_cache(maxsize=1024)
def _turned(fitted: FittedText, width: float, height: float) -> tuple[float, tuple[tuple[Line, float, float], ...]]:
    """The angle of a `width` x `height` box's diagonal and each set line with how far its anchor lies right of and
    below the box's centre (mm); worked out once, as thousands of backs share a few titles."""
    angle = diagonal_angle(width, height)
    sin, cos = math.sin(math.radians(angle)), math.cos(math.radians(angle))
    _, top, bottom = ink_box(fitted)
    shifts = []
    for line in fitted.lines:
        below = line.baseline - (top + bottom) / 2  # the baseline's distance below the ink's middle, across the line
        shifts.append((line, below * sin, below * cos))
    return angle, tuple(shifts)


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


def piece_size(game: "Game", settings: "PrintSettings", size_name: str,
               counters: str | None = None) -> tuple[float, float]:
    """The size (mm) pieces of layout size `size_name` print at: the command line's, else the layout's.

    `counters` is the game's counter size name (counter_size_name), when the caller already knows it.
    """
    if settings.piece_size and size_name == (counters or counter_size_name(game)):
        return settings.piece_size
    if settings.card_size and size_name == "card":
        return settings.card_size
    size = settings.layout.size(size_name)
    return size.width, size.height


def piece_items(game: "Game", pieces: list["Piece"], settings: "PrintSettings", painter: FacePainter,
                copies: int | None = None) -> list[Item]:
    """An Item per printed copy of each piece, in the order given: `copies` of each, else its roster count."""
    items: list[Item] = []
    counters = counter_size_name(game)
    for piece in pieces:
        front, back = faces(game, piece)
        kind = game.info.kinds[piece.kind]
        group = kind.size
        size = piece_size(game, settings, group, counters)
        # every face is set before anything is drawn, so a piece that cannot fit is refused first
        sides = [painter.set_face(piece.kind, side, face, size) for side, face in (("front", front), ("back", back))]

        def side(set_face: SetFace, back: bool = False):
            return lambda p, box, bleed: painter.draw(p, set_face, box, bleed, back)

        notes = (game.layout.colour(front.colour).means, kind.note)
        item = Item(piece_label(game, piece), group, size, side(sides[0]), side(sides[1], back=True),
                    bleed=game.layout.size(group).bleed or 0.0, marked=front.symbols_assumed or front.title_assumed,
                    notes=tuple(note for note in notes if note), alone=kind.own_sheets)
        items += [item] * (piece.count if copies is None else copies)
    return items


def build_counters(game: "Game", settings: "PrintSettings") -> list["Document"]:
    """The `counters` product: <game>/counters.pdf with every roster piece, fronts and backs."""
    if not game.pieces:
        return []
    fonts = piece_fonts(game.layout.fonts, game.folder)
    with collector_paused():
        items = piece_items(game, game.pieces, settings, FacePainter(game, fonts))
        document = print_items(items, settings.game_dir(game) / "counters.pdf", settings=settings, fonts=fonts,
                               title=f"{game.info.title} counters", copies=game.layout.copies.counters,
                               why=game.layout.copies.why.get("counters", ""))
        del items  # freed before the collector wakes, so it does not scan a build's worth of objects
    return [document]
