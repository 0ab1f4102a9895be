"""The layout's TrueType fonts, registered once with reportlab (embedded in every PDF), and text measuring.

A layout names its fonts by file ("Vera.ttf"): a file in the game's or the shared layouts/
folder, or one of the fonts that ship with reportlab. Measuring uses the same font metrics
the PDF is written with, so text fitted here fits on paper.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..core.errors import DossierError
from ..core.units import pt_to_mm
from .font_files import font_file, reportlab_font_file


class FontError(DossierError):
    """A font file named by a layout that cannot be found or read."""


@dataclass(frozen=True)
class FontSet:
    """The registered names of a layout's regular and bold fonts, as reportlab and SVG know them."""

    regular: str
    bold: str


def register_font(file_name: str, game_folder: Path | None = None) -> str:
    """Register the TrueType font `file_name` (once per content) and return the name to draw with.

    A font in a layouts folder is named after its file and its content ("Body-3f9a0c21"), so two
    games that ship different `Body.ttf` files each print their own, and a file replaced while
    `dossier watch` runs is read again; one of reportlab's own fonts is named by its stem."""
    found = font_file(file_name, game_folder)
    try:
        if found is None:
            return _registered(str(reportlab_font_file(file_name) or file_name), Path(file_name).stem)
        stat = found.stat()
        return _registered_file(found, Path(file_name).stem, stat.st_size, stat.st_mtime_ns)
    except (TTFError, OSError) as exc:
        raise FontError(f"font {file_name!r} named by the layout cannot be used: {exc}") from None


@lru_cache(maxsize=None)
def _registered_file(path: Path, stem: str, size: int, modified: int) -> str:
    """The drawing name of one version of the font file at `path` (size and modification time tell
    versions apart; the name itself comes from the bytes)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
    return _registered(str(path), f"{stem}-{digest}")  # by its path, so the face knows its file


def _registered(source, font_name: str) -> str:
    if font_name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(font_name, source))
    return font_name


def register_fonts(fonts, game_folder: Path | None = None) -> FontSet:
    """Register a layout's `fonts` (regular and bold file names) and return their drawing names."""
    return FontSet(regular=register_font(fonts.regular, game_folder), bold=register_font(fonts.bold, game_folder))


def piece_fonts(fonts, game_folder: Path | None = None) -> FontSet:
    """Register the layout's condensed pair, which pieces, tiles, cards and the player aid are set in."""
    return FontSet(regular=register_font(fonts.condensed, game_folder),
                   bold=register_font(fonts.condensed_bold, game_folder))


@lru_cache(maxsize=65536)
def unit_width(text: str, font: str) -> float:
    """Width of `text` in points at 1 pt (widths scale with size); words recur, so they are remembered."""
    return pdfmetrics.stringWidth(text, font, 1.0)


def text_width(text: str, font: str, size: float) -> float:
    """Width of `text` in mm, set in registered `font` at `size` pt."""
    return pt_to_mm(unit_width(text, font) * size)


def fit_size(text: str, font: str, width_pt: float, largest: float, smallest: float) -> float | None:
    """The largest size in [smallest, largest] pt at which `text` fits on one line of `width_pt`, or None."""
    natural = unit_width(text, font)
    if natural <= 0:
        return largest
    size = min(largest, width_pt / natural)
    return size if size >= smallest else None


@lru_cache(maxsize=None)
def extent(font: str) -> tuple[float, float]:
    """(ascent, descent) of registered `font` at 1 pt, both positive: how far its glyph boxes reach above and below the baseline."""
    face = pdfmetrics.getFont(font).face
    return face.ascent / 1000.0, -face.descent / 1000.0


def ascent(font: str, size: float) -> float:
    """Height of the font's capitals above the baseline, in points (for centring text vertically)."""
    face = pdfmetrics.getFont(font).face
    cap = getattr(face, "capHeight", None) or face.ascent * 0.72
    return cap * size / 1000.0



@lru_cache(maxsize=None)
def _outlines(font: str):
    """The glyph table and character map of registered `font`'s file, read with fontTools (once per font)."""
    from fontTools.ttLib import TTFont as ToolsFont

    tools = ToolsFont(pdfmetrics.getFont(font).face.filename, lazy=True)
    return tools["glyf"], tools.getBestCmap() or {}, float(tools["head"].unitsPerEm)


@lru_cache(maxsize=None)
def _glyph_height(font: str, char: str) -> tuple[float, float] | None:
    """The ink of one character (top above, bottom below the baseline) at 1 pt, or None for no ink."""
    glyphs, cmap, per_em = _outlines(font)
    name = cmap.get(ord(char))
    if name is None:
        return None
    glyph = glyphs[name]
    if not getattr(glyph, "numberOfContours", 0):
        return None
    glyph.recalcBounds(glyphs)
    return glyph.yMax / per_em, -glyph.yMin / per_em


@lru_cache(maxsize=65536)
def ink_extent(text: str, font: str) -> tuple[float, float]:
    """How far the ink of `text` in registered `font` reaches above and below the baseline at 1 pt
    (points): the letters' own outlines, not the font's line box, so "GERMANY" is as tall as its capitals."""
    found = [height for c in set(text) if (height := _glyph_height(font, c)) is not None]
    if not found:
        return 0.0, 0.0
    return max(top for top, _ in found), max(0.0, max(bottom for _, bottom in found))
