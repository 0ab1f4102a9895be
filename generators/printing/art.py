"""Pictures a game's data names (`art:` on a piece, a kind's face or a tile): SVG kept as vector
drawings (svglib), PNG as images, each read once per build and placed into a box by the layout.

Validation refuses a picture that is missing, unreadable, oversized or broken before anything is
drawn, naming the file and the field that names it: every PNG is decoded whole; an SVG's sizes are
read strictly, and an SVG that would draw from outside itself (a reference to another file, an
<image>) is refused, so a picture never brings anything from beyond its game folder into a PDF.
What is drawn is made from the very bytes that were checked.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import DossierError, Problem
from ..core.faces import TemplateError, faces
from ..core.files import Kind, kind_of, kind_of_mode
from ..core.limits import shown

if TYPE_CHECKING:
    from ..core.game import Game

KINDS = (".svg", ".png")
MAX_BYTES = 4 * 1024 * 1024  # a picture larger than this would bloat every PDF it is placed in
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PIXELS = 4096  # longest side of a PNG: 4096 px is 350 dpi across a 30 cm poster, far past any piece
# An SVG's width, height and viewBox sizes, in its own units: far past a poster in points or millimetres.
MIN_SVG_SIZE, MAX_SVG_SIZE = 1e-3, 1e6
MAX_SVG_ELEMENTS = 200_000  # elements an SVG draws, each <use> counted as what it draws


class ArtError(DossierError):
    """A picture that cannot be used: missing, unreadable, of an unknown kind or too large."""


@dataclass(frozen=True)
class Picture:
    """A picture read from `path`: its natural size (any unit; only the ratio matters) and its content,
    a reportlab Drawing for SVG or the PNG's bytes."""

    path: Path
    width: float
    height: float
    drawing: object | None = None
    png: bytes | None = None

    @property
    def is_vector(self) -> bool:
        return self.drawing is not None

    def fitted(self, width: float, height: float) -> tuple[float, float]:
        """The largest (width, height) of this picture's shape inside `width` x `height`."""
        scale = min(width / self.width, height / self.height)
        return self.width * scale, self.height * scale


def _read_svg(path: Path, data: bytes) -> Picture:
    import io
    import logging
    import math

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.CRITICAL)  # unsupported SVG features are ignored quietly
    try:
        # drawn from the bytes checked, not the path: svglib then resolves no reference to another file
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib raises lxml's and its own errors for a broken file
        raise ArtError(f"cannot read SVG: {exc}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError("cannot read SVG: no drawing or no size in it")
    if not all(math.isfinite(float(v)) and 0 < float(v) <= MAX_SVG_SIZE for v in (drawing.width, drawing.height)):
        raise ArtError(f"cannot read SVG: its size {drawing.width} x {drawing.height} is not a size from "
                       f"{MIN_SVG_SIZE:g} to {MAX_SVG_SIZE:g}")
    return Picture(path, float(drawing.width), float(drawing.height), drawing=drawing)


def _decoded_png(data: bytes) -> tuple[int, int]:
    """A PNG's size, every pixel decoded, so that a truncated or corrupt file is caught; its header checked first."""
    import io
    import warnings

    from PIL import Image, UnidentifiedImageError

    width, height = _png_size(data)
    if max(width, height) > MAX_PIXELS:
        raise ArtError(f"{width} x {height} px is larger than {MAX_PIXELS} px on its longest side; scale it down")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                return image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombWarning) as exc:
        raise ArtError(f"cannot read PNG: {exc}") from None


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height from its header (signature, then the IHDR chunk)."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ArtError("not a PNG file")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


_LENGTH = re.compile(r"^\s*([+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*$")
_XLINK = "{http://www.w3.org/1999/xlink}href"


def _svg_length(text: str, what: str) -> float:
    found = _LENGTH.match(text)
    if not found:
        raise ArtError(f"cannot read SVG: {what}={shown(text)} is not a length")
    return _in_range(float(found.group(1)), what)


def _in_range(value: float, what: str) -> float:
    import math

    if not (math.isfinite(value) and MIN_SVG_SIZE <= value <= MAX_SVG_SIZE):
        raise ArtError(f"cannot read SVG: {what} {value:g} is outside {MIN_SVG_SIZE:g} to {MAX_SVG_SIZE:g}")
    return value


def _svg_size(data: bytes) -> tuple[float, float]:
    """An SVG's size from its root element (width and height, else its viewBox), every size read strictly;
    refused when it draws anything from outside itself (a reference to another file, an <image>)."""
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise ArtError(f"cannot read SVG: {exc}") from None
    if not root.tag.endswith("svg"):
        raise ArtError("not an SVG file: its root element is not <svg>")
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag == "image":
            raise ArtError("holds an <image>, which Dossier does not draw inside an SVG; "
                           "name the picture as its own .png in the data instead")
        href = element.get(_XLINK) or element.get("href")
        if href is not None and not href.strip().startswith("#"):
            raise ArtError(f"<{tag}> refers to {shown(href)}, outside this file; an SVG may refer only to "
                           "its own parts (href=\"#id\")")
    _check_expansion(root)
    box_text = root.get("viewBox")
    box = None
    if box_text is not None:
        parts = box_text.replace(",", " ").split()
        try:
            box = [float(v) for v in parts]
        except ValueError:
            box = None
        if box is None or len(box) != 4:
            raise ArtError(f"cannot read SVG: viewBox={shown(box_text)} is not four numbers")
        import math

        if not all(math.isfinite(v) and abs(v) <= MAX_SVG_SIZE for v in box[:2]):
            raise ArtError(f"cannot read SVG: viewBox={shown(box_text)} starts outside {MAX_SVG_SIZE:g}")
        _in_range(box[2], "its viewBox width")
        _in_range(box[3], "its viewBox height")
    width, height = root.get("width"), root.get("height")
    sizes = [_svg_length(v, side) if v is not None and not v.strip().endswith("%") else None
             for v, side in ((width, "width"), (height, "height"))]
    if sizes[0] is not None and sizes[1] is not None:
        return sizes[0], sizes[1]
    if box is not None:
        return box[2], box[3]
    raise ArtError("the SVG gives no width and height and no viewBox")


def _check_expansion(root) -> None:
    """Refuse an SVG whose <use> elements, each drawing what it names again, would draw more than MAX_SVG_ELEMENTS
    elements, or one that holds itself (a few nested <use> can multiply a small file into billions of shapes)."""
    ids = {element.get("id"): element for element in root.iter() if element.get("id")}
    size: dict[int, int] = {}
    opened: set[int] = set()
    stack = [root]
    while stack:
        element = stack[-1]
        key = id(element)
        if key in size:
            stack.pop()
            continue
        href = (element.get(_XLINK) or element.get("href") or "").strip()
        parts = [*element, *([ids[href[1:]]] if href.startswith("#") and href[1:] in ids else [])]
        if key not in opened:
            opened.add(key)
            pending = [part for part in parts if id(part) not in size]
            if any(id(part) in opened for part in pending):
                raise ArtError("an SVG <use> draws an element that holds it, which would never end")
            if pending:
                stack.extend(pending)
                continue
        total = 1 + sum(size[id(part)] for part in parts)
        if total > MAX_SVG_ELEMENTS:
            raise ArtError(f"its <use> elements draw more than {MAX_SVG_ELEMENTS:,} elements, more than any picture needs")
        opened.discard(key)
        size[key] = total
        stack.pop()


def _read_bytes(path: Path) -> bytes:
    """The picture file's bytes: a regular file only (never a FIFO or device, which would never end), at most MAX_BYTES."""
    import os

    kind = kind_of(path)
    if kind is Kind.MISSING:
        raise ArtError("file not found")
    if kind is not Kind.FILE:
        raise ArtError(f"is {kind}, not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            found = kind_of_mode(os.fstat(handle.fileno()).st_mode)
            if found is not Kind.FILE:
                raise ArtError(f"is {found}, not a regular file")
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ArtError(f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise ArtError(f"is larger than {MAX_BYTES // 1024 // 1024} MB")
    return data


def _read_picture_bytes(path: Path) -> bytes:
    """The bytes of a picture file of a kind Dossier draws, checked by _read_bytes."""
    if path.suffix.lower() not in KINDS:
        raise ArtError(f"unknown picture kind {path.suffix or '(no suffix)'!r}; use .svg or .png")
    return _read_bytes(path)


def _size_of(suffix: str, data: bytes) -> tuple[float, float]:
    width, height = _svg_size(data) if suffix == ".svg" else _decoded_png(data)
    if width <= 0 or height <= 0:
        raise ArtError("the picture has no size")
    return float(width), float(height)


class _ByContent:
    """What was made from a file's bytes, remembered by the sha256 of those bytes (and the path, which
    a Picture names): a file replaced by another of the same size and the same modification time, as
    an editor or `dossier watch` can leave it, is still seen as new, because its bytes are read each time."""

    def __init__(self, size: int):
        self.size = size
        self.made: OrderedDict[tuple[Path, bytes], object] = OrderedDict()

    def get(self, path: Path, data: bytes, make):
        key = (path, hashlib.sha256(data).digest())
        if key in self.made:
            self.made.move_to_end(key)
            return self.made[key]
        value = make()  # an ArtError is not remembered: the file is read and judged again next time
        self.made[key] = value
        if len(self.made) > self.size:
            self.made.popitem(last=False)
        return value


_SIZES = _ByContent(1024)
_PICTURES = _ByContent(256)


def inspect_picture(path: Path) -> tuple[float, float]:
    """The size of the picture at `path`, the whole file checked; raises ArtError saying what is wrong."""
    data = _read_picture_bytes(path)
    return _SIZES.get(path, data, lambda: _size_of(path.suffix.lower(), data))


def read_picture(path: Path) -> Picture:
    """The picture at `path` for drawing, made once per content of the file (a picture replaced since,
    as while `dossier watch` runs, is made again); raises ArtError saying what is wrong with it."""
    data = _read_picture_bytes(path)

    def make() -> Picture:
        width, height = _size_of(path.suffix.lower(), data)
        return _read_svg(path, data) if path.suffix.lower() == ".svg" else Picture(path, width, height, png=data)

    return _PICTURES.get(path, data, make)


def art_path(game: "Game", name: str) -> Path:
    """Where a picture named in `game`'s data lives: relative to the game folder."""
    return (game.folder / name).resolve()


def art_named(game: "Game") -> list[tuple[Path, str, str]]:
    """Every picture the game's data names, as (data file, field, picture name), each field once."""
    named: list[tuple[Path, str, str]] = []
    info = game.file("game.yaml")
    for kind_name, kind in game.info.kinds.items():
        for side in ("front", "back"):
            template = getattr(kind, side)
            if template is not None and template.art and "{" not in template.art:
                named.append((info, f"kinds.{kind_name}.{side}.art", template.art))
    pieces = game.file("pieces.yaml")
    templated = {name for name, kind in game.info.kinds.items()
                 if any(t is not None and t.art and "{" in t.art for t in (kind.front, kind.back))}
    for i, piece in enumerate(game.pieces):
        if piece.art:
            named.append((pieces, f"pieces[{i}].art", piece.art))
        if piece.kind not in templated:
            continue
        try:
            front, back = faces(game, piece)
        except TemplateError:
            continue  # reported by the roster's own check
        for side, face in (("front", front), ("back", back)):
            template = getattr(game.info.kinds[piece.kind], side)
            if face.art and template is not None and template.art and "{" in template.art and face.art != piece.art:
                named.append((info, f"kinds.{piece.kind}.{side}.art (pieces[{i}])", face.art))
    tiles = game.file("tiles.yaml")
    named += [(tiles, f"tiles[{i}].art", tile.art) for i, tile in enumerate(game.tiles) if tile.art]
    return named


def check_art(game: "Game") -> list[Problem]:
    """Every picture named in the data exists in the game folder, reads as SVG or PNG, and is not too large."""
    problems = []
    for file, field, name in art_named(game):
        path = art_path(game, name)
        if not path.is_relative_to(game.folder.resolve()):
            problems.append(Problem(file, field, f"{name}: a picture must lie inside the game folder", "bad-art"))
            continue
        try:
            inspect_picture(path)
        except ArtError as exc:
            problems.append(Problem(file, field, f"{name}: {exc}", "bad-art"))
    return problems
