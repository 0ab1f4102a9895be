"""One drawing interface, two outputs: a PDF through reportlab (vector, real text, embedded fonts)
and SVG through svgwrite (one document per page). A generator draws once against `Painter`.

Units: positions and lengths in millimetres from the page's top-left corner, y downwards (as a
designer measures a sheet); text sizes and line widths in points. Colours are "#rrggbb" strings.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

from ..core.units import mm_to_pt, pt_to_mm
from .fonts import FontSet, text_width
from .symbols import draw_symbol
from .textfit import SWATCH, FittedText

SYMBOL_SCALE = 1.1  # a symbol set in a line of text against the line's size: a little taller than its capitals

if TYPE_CHECKING:
    from .art import Picture

Point = tuple[float, float]


class Anchor(str, Enum):
    """Which point of a line of text its x position names."""

    START = "start"
    MIDDLE = "middle"
    END = "end"


PT = mm_to_pt(1.0)  # points per millimetre, multiplied in place where a page's thousands of positions are written
_SHARES = {Anchor.START: 0.0, Anchor.MIDDLE: 0.5, Anchor.END: 1.0}


def _share_left_of(anchor: Anchor | str) -> float:
    """How much of a line's width lies left of the x its `anchor` names."""
    share = _SHARES.get(anchor)
    if share is None:
        raise ValueError(f"unknown anchor {anchor!r}; choose from {', '.join(a.value for a in Anchor)}")
    return share


@dataclass(frozen=True)
class Drawing:
    """What `draw` draws on a page of `width` x `height` mm, as a thing to place (a poster on each of its
    tile sheets) or to rasterise (a piece's side); `key` names it within a document, where it is
    drawn once however often it is placed."""

    width: float
    height: float
    draw: Callable[["Painter"], None]
    key: str = ""


@dataclass(frozen=True)
class Clip:
    """A rectangle of the page (mm from its top-left corner) outside which nothing placed shows."""

    x: float
    y: float
    width: float
    height: float


class Painter:
    """The drawing operations every generator uses; the backends below implement them."""

    def __init__(self, fonts: FontSet):
        self.fonts = fonts
        self.width = 0.0
        self.height = 0.0
        self.pages = 0

    def new_page(self, width: float, height: float) -> None:
        """Start a page of `width` x `height` mm; everything drawn next lands on it."""
        raise NotImplementedError

    def rect(self, x: float, y: float, width: float, height: float, fill: str | None = None,
             stroke: str | None = None, line_width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        """A rectangle with its top-left corner at (x, y); `dash` is (on, off) in mm."""
        raise NotImplementedError

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000000",
             line_width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        raise NotImplementedError

    def polyline(self, points: Sequence[Point], stroke: str = "#000000", line_width: float = 0.25,
                 dash: Sequence[float] | None = None) -> None:
        raise NotImplementedError

    def polygon(self, points: Sequence[Point], fill: str | None = None, stroke: str | None = None,
                line_width: float = 0.25) -> None:
        raise NotImplementedError

    def circle(self, cx: float, cy: float, r: float, fill: str | None = None, stroke: str | None = None,
               line_width: float = 0.25) -> None:
        raise NotImplementedError

    def text(self, x: float, y: float, text: str, font: str, size: float, colour: str = "#000000",
             anchor: Anchor | str = Anchor.START, angle: float = 0.0,
             halo: tuple[str, float] | None = None) -> None:
        """One line of real (selectable) text with its baseline at y; `font` is a registered font name.

        `angle` turns the line anticlockwise about (x, y), in degrees (90: reading upwards); `halo`
        (colour, width in pt) rings the letters so they read over lines and colours (map names)."""
        raise NotImplementedError

    def symbol(self, name: str, cx: float, cy: float, size: float, ink: str = "#000000",
               paper: str = "#ffffff") -> None:
        """A named symbol (see symbols.py) in a `size` mm square centred on (cx, cy)."""
        draw_symbol(self, name, cx, cy, size, ink, paper)

    def picture(self, picture: "Picture", x: float, y: float, width: float, height: float) -> None:
        """`picture` (a piece's art, see art.py) as large as fits the box with top-left (x, y), centred in
        it, its shape kept."""
        raise NotImplementedError

    def place(self, drawing: Drawing, x: float, y: float, scale: float = 1.0, clip: Clip | None = None) -> None:
        """`drawing` with its top-left corner at (x, y), `scale` times its size, showing only what lies
        inside `clip`. It is drawn once per document however often it is placed."""
        raise NotImplementedError

    def text_block(self, fitted: FittedText, x: float, y: float, width: float, colour: str = "#000000",
                   anchor: Anchor | str = Anchor.MIDDLE) -> None:
        """Lines fitted by fit_text, the block's top at y, aligned in the column [x, x + width].

        A line's own colour wins over `colour`; its indent (line.x) applies to start-aligned text.
        """
        share = _share_left_of(anchor)
        lx = x + width * share
        for line in fitted.lines:
            shift = line.x if share == 0.0 else 0.0
            if line.symbol == SWATCH:  # a patch of colour the size of the capitals, edged so a pale one shows on white
                side = pt_to_mm(line.size) * 0.72
                self.rect(lx + shift, y + line.baseline - side, side * 1.4, side, fill=line.colour or colour,
                          stroke="#000000", line_width=0.15)
                continue
            if line.symbol:  # set start-aligned, its left edge where the text would begin
                side = pt_to_mm(line.size) * SYMBOL_SCALE
                draw_symbol(self, line.symbol, lx + shift + side / 2, y + line.baseline - pt_to_mm(line.size) * 0.36, side,
                            line.colour or colour)
                continue
            self.text(lx + shift, y + line.baseline, line.text, line.font, line.size, line.colour or colour, anchor)


@lru_cache(maxsize=None)
def _rgb(hex_colour: str) -> str:
    """The PDF operands "r g b" of "#rrggbb", worked out once (reportlab would parse the colour and set its alpha
    on every call)."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.rl_accel import fp_str

    colour = HexColor(hex_colour)
    return fp_str(colour.red, colour.green, colour.blue)


class PdfPainter(Painter):
    """Draws onto a reportlab canvas held in memory; `pdf_bytes()` ends the document.

    The operators a counter sheet repeats thousands of times (colours, rectangles, text, placed
    symbols) are written straight into the canvas's page stream, each worked out once and
    only when it changes: through the canvas's own methods every string and colour would be
    parsed, measured and encoded again for each piece.
    """

    def __init__(self, fonts: FontSet, title: str = "", author: str = "Dossier", advice: str = ""):
        super().__init__(fonts)
        from reportlab import rl_config
        from reportlab.lib.rl_accel import escapePDF, fp_str
        from reportlab.pdfbase.pdfmetrics import getFont
        from reportlab.pdfgen.canvas import Canvas

        rl_config.useA85 = 0  # binary streams: ASCII85 would make every page a quarter larger and slower to write
        self._buffer = io.BytesIO()
        # the initial font is the layout's own, so no unembedded Helvetica is listed in the PDF;
        # the build date is now, or SOURCE_DATE_EPOCH when set (reportlab reads it), for reproducible builds
        self._canvas = Canvas(self._buffer, pageCompression=1, invariant=0, initialFontName=fonts.regular)
        self._canvas.setTitle(title)
        self._canvas.setAuthor(author)
        self._canvas.setCreator("Dossier")
        self._advice = advice
        self._first = (0.0, 0.0)
        self._fp, self._escape, self._font = fp_str, escapePDF, getFont
        self._state: dict[str, object] = {}
        self._forms: dict[tuple, str] = {}
        self._shown: dict[tuple[str, str, float], str] = {}

    def _emit(self, operators: str) -> None:
        self._canvas._code.append(operators)  # the stream being drawn: the page's, or a symbol form's

    def _fill(self, colour: str) -> None:
        if self._state.get("fill") != colour:
            self._state["fill"] = colour
            self._emit(f"{_rgb(colour)} rg")

    def _stroke(self, colour: str, line_width: float, dash, join: int = 0) -> None:
        state = self._state
        if state.get("stroke") != colour:
            state["stroke"] = colour
            self._emit(f"{_rgb(colour)} RG")
        if state.get("width") != line_width:
            state["width"] = line_width
            self._emit(f"{self._fp(line_width)} w")
        dash = tuple(dash or ())
        if state.get("dash", ()) != dash:
            state["dash"] = dash
            self._canvas.setDash([mm_to_pt(v) for v in dash]) if dash else self._canvas.setDash()
        if state.get("join", 0) != join:
            state["join"] = join
            self._emit(f"{join} j")

    def _style(self, fill: str | None, stroke: str | None, line_width: float, dash=None, join: int = 0) -> None:
        if fill:
            self._fill(fill)
        if stroke:
            self._stroke(stroke, line_width, dash, join)

    def _x(self, x: float) -> float:
        return mm_to_pt(x)

    def _y(self, y: float) -> float:
        return mm_to_pt(self.height - y)

    def new_page(self, width: float, height: float) -> None:
        if self.pages:
            self._canvas.showPage()
            self._state.clear()
        else:
            self._first = (width, height)
        self.width, self.height = width, height
        self._canvas.setPageSize((mm_to_pt(width), mm_to_pt(height)))
        self.pages += 1

    def rect(self, x, y, width, height, fill=None, stroke=None, line_width=0.25, dash=None):
        self._style(fill, stroke, line_width, dash)
        operator = ("B*" if stroke else "f*") if fill else ("S" if stroke else "n")  # reportlab's even-odd rule
        self._canvas._code.append(f"n {self._fp(x * PT, (self.height - y - height) * PT, width * PT, height * PT)} re {operator}")

    def line(self, x1, y1, x2, y2, stroke="#000000", line_width=0.25, dash=None):
        self._stroke(stroke, line_width, dash)
        top = self.height
        self._canvas._code.append(f"n {self._fp(x1 * PT, (top - y1) * PT)} m {self._fp(x2 * PT, (top - y2) * PT)} l S")

    def _path(self, points, close: bool):
        # the operators written directly: reportlab's lineTo formats each number in Python, the cost of a long coastline
        path = self._canvas.beginPath()
        k, h = mm_to_pt(1.0), self.height
        code = [f"{x * k:.2f} {(h - y) * k:.2f} l" for x, y in points]
        path._code_append(code[0][:-1] + "m")
        path._code.extend(code[1:])
        if close:
            path.close()
        return path

    def polyline(self, points, stroke="#000000", line_width=0.25, dash=None):
        self._stroke(stroke, line_width, dash)
        self._canvas.drawPath(self._path(points, False), stroke=1, fill=0)

    def polygon(self, points, fill=None, stroke=None, line_width=0.25):
        self._style(fill, stroke, line_width)
        self._canvas.drawPath(self._path(points, True), stroke=1 if stroke else 0, fill=1 if fill else 0)

    def circle(self, cx, cy, r, fill=None, stroke=None, line_width=0.25):
        self._style(fill, stroke, line_width)
        self._canvas.circle(self._x(cx), self._y(cy), mm_to_pt(r), stroke=1 if stroke else 0, fill=1 if fill else 0)

    def symbol(self, name, cx, cy, size, ink="#000000", paper="#ffffff"):
        # each distinct symbol is drawn once per document as a form and placed wherever it recurs
        key = (name, round(size, 4), ink, paper)
        form = self._forms.get(key)
        c = self._canvas
        if form is None:
            form = f"symbol{len(self._forms)}"
            half = mm_to_pt(size)
            page_state, self._state = self._state, {}
            c.beginForm(form, -half, -half, half, half)
            draw_symbol(self, name, 0.0, self.height, size, ink, paper)  # centred on the form's origin
            c.endForm()
            self._state = page_state
            self._forms[key] = form
        self._emit(f"q 1 0 0 1 {self._fp(cx * PT, (self.height - cy) * PT)} cm")
        c.doForm(form)
        self._emit("Q")

    def _show(self, text: str, font: str, size: float) -> str:
        """The operators that set `text` in `font` at `size`, encoded once per document.

        Fonts are TrueType (fonts.py registers no other kind), embedded as subsets the document
        grows as it meets new characters: a string, once encoded, keeps its codes to the end.
        """
        key = (text, font, size)
        shown = self._shown.get(key)
        if shown is None:
            doc, face, points = self._canvas._doc, self._font(font), self._fp(size)
            shown = self._shown[key] = " ".join(
                f"{face.getSubsetInternalName(subset, doc)} {points} Tf ({self._escape(chunk)}) Tj"
                for subset, chunk in face.splitString(text, doc))
        return shown

    def picture(self, picture, x, y, width, height):
        # each picture goes into the document once (an SVG as a form, a PNG as one image) and is placed wherever it recurs
        c = self._canvas
        w, h = picture.fitted(width, height)
        left, bottom = self._x(x + (width - w) / 2), self._y(y + (height + h) / 2)
        if picture.is_vector:
            key = ("picture", str(picture.path))
            form = self._forms.get(key)
            if form is None:
                from reportlab.graphics import renderPDF

                form = f"picture{len(self._forms)}"
                page_state, self._state = self._state, {}
                c.beginForm(form, 0, 0, picture.width, picture.height)
                picture.drawing.initialFontName = self.fonts.regular  # else reportlab lists an unembedded Helvetica
                renderPDF.draw(picture.drawing, c, 0, 0)
                c.endForm()
                self._state = page_state
                self._forms[key] = form
            c.saveState()
            c.translate(left, bottom)
            c.scale(mm_to_pt(w) / picture.width, mm_to_pt(h) / picture.height)
            c.doForm(form)
            c.restoreState()
        else:
            c.drawImage(self._image(picture), left, bottom, mm_to_pt(w), mm_to_pt(h), mask="auto")

    def _image(self, picture):
        key = ("image", str(picture.path))
        if key not in self._forms:
            from reportlab.lib.utils import ImageReader

            self._forms[key] = ImageReader(io.BytesIO(picture.png))
        return self._forms[key]

    def text(self, x, y, text, font, size, colour="#000000", anchor=Anchor.START, angle=0.0, halo=None):
        if self._state.get("fill") != colour:
            self._fill(colour)
        shift = text_width(text, font, size) * _share_left_of(anchor) if anchor != Anchor.START else 0.0
        px, py = x * PT, (self.height - y) * PT
        if angle:  # the text matrix turns the line about its anchor, counter-clockwise as the page is seen
            cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            matrix = self._fp(cos, sin, -sin, cos, px - shift * PT * cos, py - shift * PT * sin)
        else:
            matrix = f"1 0 0 1 {self._fp(px - shift * PT, py)}"
        shown = self._show(text, font, size)
        if halo:  # the letters stroked wide in the halo's colour first (round joins: no spikes), then filled over it
            self._stroke(halo[0], halo[1] * 2, None, join=1)
            self._canvas._code.append(f"BT {matrix} Tm 1 Tr {shown} 0 Tr ET")
        self._canvas._code.append(f"BT {matrix} Tm {shown} ET")

    def place(self, drawing, x, y, scale=1.0, clip=None):
        form = self._forms.get(drawing.key)
        c = self._canvas
        if form is None:  # drawn into a form in its own page coordinates, with the style it starts from unknown
            form = self._forms[drawing.key] = f"drawing{len(self._forms)}"  # named first: it may hold drawings of its own
            page = (self.width, self.height, self._state)
            self.width, self.height, self._state = drawing.width, drawing.height, {}
            c.beginForm(form, 0, 0, mm_to_pt(drawing.width), mm_to_pt(drawing.height))
            drawing.draw(self)
            c.endForm()
            self.width, self.height, self._state = page
        c.saveState()
        if clip is not None:
            box = c.beginPath()
            box.rect(self._x(clip.x), self._y(clip.y + clip.height), mm_to_pt(clip.width), mm_to_pt(clip.height))
            c.clipPath(box, stroke=0, fill=0)
        c.translate(self._x(x), self._y(y + drawing.height * scale))
        c.scale(scale, scale)
        c.doForm(form)
        c.restoreState()


    def pdf_bytes(self) -> bytes:
        """The finished PDF document, how to print it as its subject (the first page's size when no advice was given)."""
        advice = self._advice or f"print at 100 % (actual size) on {self._first[0]:.1f} × {self._first[1]:.1f} mm paper"
        self._canvas.setSubject(advice[:1].upper() + advice[1:])
        self._canvas.save()
        return self._buffer.getvalue()


def _css_font(font: str) -> dict[str, str]:
    """SVG font attributes for a registered font: its family (with metric-compatible fallbacks) and weight."""
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(font).face
    family = face.familyName.decode("latin-1") if isinstance(face.familyName, bytes) else str(face.familyName)
    style = getattr(face, "styleName", b"")
    style = style.decode("latin-1") if isinstance(style, bytes) else str(style or "")
    return {
        "font_family": f"'{family}', 'DejaVu Sans', sans-serif",
        "font_weight": "bold" if "bold" in style.lower() else "normal",
    }


class SvgPainter(Painter):
    """Draws each page into its own svgwrite document; `svg_pages()` returns them as text."""

    def __init__(self, fonts: FontSet):
        super().__init__(fonts)
        self._documents: list = []
        self._fonts: dict[str, dict[str, str]] = {}
        self._into: list = []  # the groups being drawn into, innermost last (a drawing being defined)
        self._drawings: dict[str, str] = {}  # a drawing's key -> its group's id in the current document

    @property
    def _page(self):
        return self._documents[-1]

    def _add(self, element) -> None:
        (self._into[-1] if self._into else self._page).add(element)

    def new_page(self, width: float, height: float) -> None:
        import svgwrite

        self.width, self.height = width, height
        self._documents.append(svgwrite.Drawing(size=(f"{width:g}mm", f"{height:g}mm"),
                                                viewBox=f"0 0 {width:g} {height:g}", debug=False))
        self._drawings = {}
        self.pages += 1

    @staticmethod
    def _paint(fill, stroke, line_width, dash=None) -> dict:
        attrs = {"fill": fill or "none"}
        if stroke:
            attrs.update(stroke=stroke, stroke_width=f"{pt_to_mm(line_width):.4g}")
            if dash:
                attrs["stroke_dasharray"] = " ".join(f"{d:g}" for d in dash)
        return attrs

    def rect(self, x, y, width, height, fill=None, stroke=None, line_width=0.25, dash=None):
        self._add(self._page.rect((f"{x:.3f}", f"{y:.3f}"), (f"{width:.3f}", f"{height:.3f}"),
                                       **self._paint(fill, stroke, line_width, dash)))

    def line(self, x1, y1, x2, y2, stroke="#000000", line_width=0.25, dash=None):
        self._add(self._page.line((f"{x1:.3f}", f"{y1:.3f}"), (f"{x2:.3f}", f"{y2:.3f}"),
                                       **self._paint(None, stroke, line_width, dash)))

    def polyline(self, points, stroke="#000000", line_width=0.25, dash=None):
        self._add(self._page.polyline([(round(x, 3), round(y, 3)) for x, y in points],
                                           **self._paint(None, stroke, line_width, dash)))

    def polygon(self, points, fill=None, stroke=None, line_width=0.25):
        self._add(self._page.polygon([(round(x, 3), round(y, 3)) for x, y in points],
                                          **self._paint(fill, stroke, line_width)))

    def circle(self, cx, cy, r, fill=None, stroke=None, line_width=0.25):
        self._add(self._page.circle((f"{cx:.3f}", f"{cy:.3f}"), f"{r:.3f}", **self._paint(fill, stroke, line_width)))

    def picture(self, picture, x, y, width, height):
        import base64

        w, h = picture.fitted(width, height)
        kind = "svg+xml" if picture.is_vector else "png"
        data = picture.path.read_bytes() if picture.is_vector else picture.png
        self._add(self._page.image(f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}",
                                        insert=(f"{x + (width - w) / 2:.3f}", f"{y + (height - h) / 2:.3f}"),
                                        size=(f"{w:.3f}", f"{h:.3f}")))

    def text(self, x, y, text, font, size, colour="#000000", anchor=Anchor.START, angle=0.0, halo=None):
        if font not in self._fonts:
            self._fonts[font] = _css_font(font)
        turn = {"transform": f"rotate({-angle:g} {x:.3f} {y:.3f})"} if angle else {}
        ring = {"stroke": halo[0], "stroke_width": f"{pt_to_mm(halo[1] * 2):.3f}", "paint_order": "stroke",
                "stroke_linejoin": "round"} if halo else {}
        self._add(self._page.text(text, insert=(f"{x:.3f}", f"{y:.3f}"), font_size=f"{pt_to_mm(size):.3f}",
                                  fill=colour, text_anchor=Anchor(anchor).value, **self._fonts[font], **turn, **ring))

    def place(self, drawing, x, y, scale=1.0, clip=None):
        page = self._page
        ident = self._drawings.get(drawing.key)
        if ident is None:  # defined once per document, used wherever placed
            ident = f"drawing{len(self._drawings)}"
            group = page.g(id=ident)
            self._into.append(group)
            drawing.draw(self)
            self._into.pop()
            page.defs.add(group)
            self._drawings[drawing.key] = ident
        use = page.use(f"#{ident}", transform=f"translate({x:.3f} {y:.3f}) scale({scale:.6g})")
        if clip is None:
            self._add(use)
            return
        window = page.clipPath(id=f"{ident}-clip{len(page.defs.elements)}")
        window.add(page.rect((f"{clip.x:.3f}", f"{clip.y:.3f}"), (f"{clip.width:.3f}", f"{clip.height:.3f}")))
        page.defs.add(window)
        shown = page.g(clip_path=f"url(#{window.get_id()})")
        shown.add(use)
        self._add(shown)

    def svg_pages(self) -> list[str]:
        """Each page as a standalone SVG document."""
        return [document.tostring() for document in self._documents]
