"""Pictures a game's data names (`art:` on a piece, a kind's face or a tile): SVG kept as vector
drawings (svglib), PNG as images, each read once per build and placed into a box by the layout.

Validation refuses a picture that is missing, unreadable or oversized before anything is drawn,
naming the file and the field that names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import DossierError, Problem
from ..core.faces import TemplateError, faces

if TYPE_CHECKING:
    from ..core.game import Game

KINDS = (".svg", ".png")
MAX_BYTES = 4 * 1024 * 1024  # a picture larger than this would bloat every PDF it is placed in
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_PIXELS = 4096  # longest side of a PNG: 4096 px is 350 dpi across a 30 cm poster, far past any piece


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


def _read_svg(path: Path) -> Picture:
    import logging

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.ERROR)  # unsupported SVG features are ignored quietly
    try:
        drawing = svg2rlg(str(path))
    except Exception as exc:  # svglib raises lxml's and its own errors for a broken file
        raise ArtError(f"cannot read SVG: {exc}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtError("cannot read SVG: no drawing or no size in it")
    return Picture(path, float(drawing.width), float(drawing.height), drawing=drawing)


def _read_png(path: Path) -> Picture:
    from PIL import Image, UnidentifiedImageError

    data = path.read_bytes()
    try:
        import io

        with Image.open(io.BytesIO(data)) as image:
            image.load()
            width, height = image.size
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise ArtError(f"cannot read PNG: {exc}") from None
    return Picture(path, float(width), float(height), png=data)


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height from its header (signature, then the IHDR chunk)."""
    if data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ArtError("not a PNG file")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _svg_size(path: Path) -> tuple[float, float]:
    """An SVG's size from its root element: width and height, else its viewBox."""
    import re
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as exc:
        raise ArtError(f"cannot read SVG: {exc}") from None
    if not root.tag.endswith("svg"):
        raise ArtError("not an SVG file: its root element is not <svg>")
    number = re.compile(r"^\s*([0-9.]+)")
    sizes = [number.match(root.get(side) or "") for side in ("width", "height")]
    if all(sizes):
        return float(sizes[0].group(1)), float(sizes[1].group(1))
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        return float(box[2]), float(box[3])
    raise ArtError("the SVG gives no width and height and no viewBox")


def inspect_picture(path: Path) -> tuple[float, float]:
    """The size of the picture at `path`, read from its header only; raises ArtError saying what is wrong."""
    if path.suffix.lower() not in KINDS:
        raise ArtError(f"unknown picture kind {path.suffix or '(no suffix)'!r}; use .svg or .png")
    if not path.is_file():
        raise ArtError("file not found")
    stat = path.stat()
    return _inspected(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1024)
def _inspected(path: Path, modified: int, size: int) -> tuple[float, float]:
    """inspect_picture's answer for one version of a file (a file changed since is read again)."""
    if size > MAX_BYTES:
        raise ArtError(f"{size / 1024 / 1024:.1f} MB is larger than {MAX_BYTES // 1024 // 1024} MB")
    if path.suffix.lower() == ".svg":
        width, height = _svg_size(path)
    else:
        with path.open("rb") as file:
            width, height = _png_size(file.read(24))
        if max(width, height) > MAX_PIXELS:
            raise ArtError(f"{width} x {height} px is larger than {MAX_PIXELS} px on its longest side; scale it down")
    if width <= 0 or height <= 0:
        raise ArtError("the picture has no size")
    return width, height


def read_picture(path: Path) -> Picture:
    """The picture at `path`, read once per version of the file for drawing (a picture replaced since,
    as while `dossier watch` runs, is read again); raises ArtError saying what is wrong with it."""
    inspect_picture(path)
    stat = path.stat()
    return _picture(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _picture(path: Path, modified: int, size: int) -> Picture:
    """read_picture's answer for one version of a file."""
    return _read_svg(path) if path.suffix.lower() == ".svg" else _read_png(path)


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
