"""Shared fixtures: running the real CLI in-process, and editable copies of the shipped games; the
helpers every test that measures a PDF reads it with, and a recording painter for unit tests of
layout code (test files import them from here)."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path

import pytest

from generators.cli import main
from generators.core import paths
from generators.printing.fonts import FontSet, register_font
from generators.printing.painter import Anchor, Painter
from generators.validation import load_game


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)


@pytest.fixture(scope="session", autouse=True)
def _own_configuration_for_the_session(tmp_path_factory):
    """What the session's own fixtures (a game loaded once, an export checked once) record in the user's
    configuration and cache stays in the session's folder too: they run before any test's own fixtures."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "configuration"))
        patch.setenv("DOSSIER_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        yield


@pytest.fixture(autouse=True)
def _own_configuration(tmp_path_factory, monkeypatch):
    """What a test records in the user's configuration (`dossier trust`) and cache (core.game_cache) stays in the
    test's own folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "configuration"))
    monkeypatch.setenv("DOSSIER_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    """A fresh folder made the current one, as a user who runs `dossier` from their own folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def cli(capsys):
    """Run `dossier ARGS...` through the same entry point as the installed script."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run


@pytest.fixture(scope="session", autouse=True)
def read_each_game_once():
    """Within the test session, a game folder whose files are byte for byte as already read is not parsed again.

    Hundreds of tests run the CLI on the shipped games, and each run used to re-read and re-check
    the same YAML. `load_game` still resolves the folder and runs through reading and checking
    for every call; only the parsing of unchanged bytes is skipped. Files are compared by
    content (not by modification time, which a quick edit can leave unchanged), so a test that
    edits a copy always gets its edit read; refusals are never remembered.
    """
    import hashlib

    import generators.validation as validation
    from generators.core.loader import resolve_game_folder

    read, check = validation.read_game, validation.problems
    games: dict[tuple, object] = {}
    found: dict[tuple, tuple[object, list]] = {}

    def fingerprint(folder: Path) -> tuple:
        files = [*folder.glob("*.yaml"), *folder.glob("*.csv"), *folder.glob("*.xlsx"), *folder.glob("layouts/*"),
                 *paths.layouts_dir().glob("*.yaml")]
        return (folder, *((str(f), hashlib.sha1(f.read_bytes()).digest()) for f in sorted(files) if f.is_file()))

    def read_once(game=None):
        key = fingerprint(resolve_game_folder(game))
        if key not in games:
            games[key] = read(game)
        return games[key]

    def check_once(game, *preflight):
        key = (id(game), *preflight)
        if key not in found or found[key][0] is not game:
            found[key] = (game, check(game, *preflight))
        return list(found[key][1])

    validation.read_game, validation.problems = read_once, check_once
    yield
    validation.read_game, validation.problems = read, check


@pytest.fixture(scope="session")
def spies():
    """The shipped Spies! data, loaded and validated once."""
    return load_game("spies")


@pytest.fixture
def game_copy(tmp_path):
    """Copy a shipped game folder into tmp_path so a test can break it; returns the copy's path."""

    def copy(name: str = "spies") -> Path:
        target = tmp_path / name
        shutil.copytree(paths.components_dir() / name, target, ignore=shutil.ignore_patterns("__pycache__"))
        return target

    return copy


# The rulebook sources beside the checkout (../shared/seeds), for the tests of fidelity to them ------------

SOURCES = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def source_text(prefix: str) -> str:
    """The text of source `prefix` ("000" is the Spies! rulebook) from the folder beside the checkout.

    Without it a fidelity test is skipped on a developer's machine, but fails under CI=true:
    there the sources are always laid beside the checkout, and a skip would hide that nothing was checked.
    """
    found = sorted(SOURCES.glob(f"{prefix}_*.txt"))
    if not found:
        reason = f"source {prefix} is not in {SOURCES}"
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"{reason}; under CI the rulebook sources must be beside the checkout")
        pytest.skip(reason)
    return found[0].read_text(encoding="utf-8")


# Reading the PDFs Dossier writes (pdfplumber pages: positions in pt from the top-left corner) ---------

MM = 72 / 25.4  # points per millimetre
TOL = 0.1 * MM  # 0.1 mm, in pt


def squash(text: str | None) -> str:
    """Text with all whitespace removed: extraction may drop or add spaces between runs and lines."""
    return re.sub(r"\s+", "", text or "")


def columns_text(page) -> list[str]:
    """The page's text column by column, top to bottom; columns are found from the gaps between
    the characters below the full-width header."""
    body = [c for c in page.chars if c["top"] > 30 * MM and c["upright"]]
    spans = sorted((c["x0"], c["x1"]) for c in body)
    columns, (start, end) = [], spans[0]
    for x0, x1 in spans[1:]:
        if x0 > end + 3 * MM:
            columns.append((start, end))
            start = x0
        end = max(end, x1)
    columns.append((start, end))
    cuts = [0.0] + [(a[1] + b[0]) / 2 for a, b in zip(columns, columns[1:])] + [page.width]
    inked = page.filter(lambda o: o.get("object_type") != "char" or not is_white(o.get("non_stroking_color")))
    return [squash(inked.within_bbox((x0, 0, x1, page.height)).extract_text()) for x0, x1 in zip(cuts, cuts[1:])]


def is_white(colour) -> bool:
    """True for white ink: the step numbers in their discs and the table's header, read apart from the text."""
    return bool(colour) and all(abs(v - 1) < 0.01 for v in colour)


def rgb(hex_colour: str, places: int | None = 3) -> tuple[float, ...]:
    """A "#rrggbb" colour as pdfplumber reads it back: each channel 0..1, rounded to `places` (None: not rounded)."""
    channels = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return tuple(channels if places is None else (round(c, places) for c in channels))


def hex_of(colour) -> str:
    """A colour as pdfplumber reads it (grey or RGB, each 0..1) as "#rrggbb": rgb's inverse."""
    values = list(colour) * 3 if len(colour) == 1 else list(colour)
    return "#" + "".join(f"{round(v * 255):02x}" for v in values)


def grey(hex_colour: str) -> float:
    """A "#rrggbb" colour's grey level on a mono print, 0..255 (ITU-R 601 luma)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


# Viénot, Brettel and Mollon (1999): how protanopes and deuteranopes see a colour, in linear RGB
DICHROMATS = {"protanopia": ((0.11238, 0.88762, 0), (0.11238, 0.88762, 0), (0.00401, -0.00401, 1)),
              "deuteranopia": ((0.29275, 0.70725, 0), (0.29275, 0.70725, 0), (-0.02234, 0.02234, 1))}


def lab(colour: str, vision: str | None = None) -> tuple[float, float, float]:
    """CIELAB (D65) of "#rrggbb", as seen with full colour vision or as a dichromat of DICHROMATS sees it."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour, places=None)]
    if vision:
        lin = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, lin)))) for row in DICHROMATS[vision]]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.9505
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.089
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e(a: str, b: str, vision: str | None = None) -> float:
    """CIE76 colour difference of two "#rrggbb" colours: 2.3 is just noticed, 15 told apart at a glance."""
    return sum((p - q) ** 2 for p, q in zip(lab(a, vision), lab(b, vision))) ** 0.5


def cut_boxes(page) -> list[tuple[float, float, float, float]]:
    """The cut outlines of a page: stroked, unfilled rectangles, as (x0, top, x1, bottom) in pt."""
    return [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects if r["stroke"] and not r["fill"]]


def filled_boxes(page) -> list[tuple[float, float, float, float]]:
    """The faces of a page: filled, unstroked rectangles (with their bleed), as (x0, top, x1, bottom) in pt."""
    return [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects if r["fill"] and not r["stroke"]]


def text_in(words: list[dict], box: tuple[float, float, float, float]) -> str:
    """The words whose centre lies in `box`, in reading order, joined by spaces."""
    x0, top, x1, bottom = box
    inside = [w for w in words if x0 <= (w["x0"] + w["x1"]) / 2 <= x1 and top <= (w["top"] + w["bottom"]) / 2 <= bottom]
    inside.sort(key=lambda w: (round(w["top"]), w["x0"]))
    return " ".join(w["text"] for w in inside)


def is_turned(char: dict) -> bool:
    """True for a character set on a slant (a back stamped along its diagonal)."""
    return abs(char["matrix"][1]) > 1e-6


def char_size(char: dict) -> float:
    """A character's font size (pt). pdfplumber's `size` is the height of its box on the page, which a
    turned character's box exceeds: the glyph box (advance x font size) turned by its matrix is undone."""
    if not is_turned(char):
        return char["size"]
    a, b = (abs(v) for v in char["matrix"][:2])
    return (char["height"] - char["adv"] * b) / a if a > 1e-6 else char["width"]


def reading_order(chars: list[dict]) -> list[dict]:
    """One face's characters as a reader takes them: level lines top to bottom, left to right; a turned
    line (a diagonal stamp) along its direction."""
    def key(char):
        if not is_turned(char):
            return (0, round(char["top"], 1), char["x0"])
        a, b, _, _, e, f = char["matrix"]
        norm = math.hypot(a, b)
        return (1, round((-b * e + a * f) / norm, 1), (a * e + b * f) / norm)
    return sorted(chars, key=key)


def turned_words(chars: list[dict]) -> list[dict]:
    """Words of characters set on a slant: grouped by direction and baseline, in order along it, with
    their box on the page, their font size and the angle (degrees) they run at."""
    lines: dict[tuple, list[tuple[float, dict]]] = {}
    for char in chars:
        a, b, _, _, e, f = char["matrix"]
        norm = math.hypot(a, b)
        a, b = a / norm, b / norm
        lines.setdefault((round(a, 3), round(b, 3), round(-b * e + a * f, 1)), []).append((a * e + b * f, char))
    words = []
    for (a, b, _), placed in lines.items():
        placed.sort(key=lambda entry: entry[0])
        current: list[dict] = []
        end = None
        for along, char in placed + [(math.inf, None)]:
            if current and (char is None or char["text"].isspace() or along - end > 0.3 * char_size(char)):
                words.append({"text": "".join(c["text"] for c in current), "x0": min(c["x0"] for c in current),
                              "x1": max(c["x1"] for c in current), "top": min(c["top"] for c in current),
                              "bottom": max(c["bottom"] for c in current), "size": char_size(current[0]),
                              "angle": math.degrees(math.atan2(b, a))})
                current = []
            if char is not None and not char["text"].isspace():
                current.append(char)
                end = along + char["adv"]
    return words


def words_of(page) -> list[dict]:
    """A page's words with their font size: level words as pdfplumber groups them, turned ones by turned_words."""
    level = page.filter(lambda obj: obj.get("object_type") != "char" or not is_turned(obj))
    words = level.extract_words(keep_blank_chars=False, use_text_flow=False, extra_attrs=["size"])
    return words + turned_words([c for c in page.chars if is_turned(c)])


def region(page, box: tuple[float, float, float, float]) -> str:
    """The squashed text inside `box` (a card's cut line, say), read as one column."""
    x0, top, x1, bottom = box
    pad = 0.5
    return squash(page.within_bbox((x0 - pad, top - pad, x1 + pad, bottom + pad)).extract_text())


def size_mm(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """A box's width and height in mm."""
    x0, top, x1, bottom = box
    return (x1 - x0) / MM, (bottom - top) / MM


def mirrored(box: tuple[float, float, float, float], page_width: float) -> tuple[float, float, float, float]:
    """Where a box lands when the page is mirrored left to right (a long-edge back)."""
    x0, top, x1, bottom = box
    return (page_width - x1, top, page_width - x0, bottom)


def has_box(boxes, wanted, tol: float = TOL) -> bool:
    """True when one of `boxes` matches `wanted` within `tol` pt on every edge."""
    return any(all(abs(a - b) <= tol for a, b in zip(box, wanted)) for box in boxes)


def face_text(face) -> str:
    """What a printed face reads as, from the data: its corner ring's text (above the title), its title, its legend's
    names (read row by row: the marks' column beside the icons'), text and value, single-spaced."""
    marks, icons = list(face.labels[:len(face.marks)]), list(face.labels[len(face.marks):])
    rows = [name for pair in zip_longest(marks, icons) for name in pair if name] if marks and icons else marks + icons
    legend = " ".join(rows) if face.labels else None
    read = "*" if face.symbols_assumed and not face.labels else None  # the mark after symbols read, not given
    title = f"{face.title} *" if face.title and face.title_assumed else face.title  # its kind read, not given
    beside = bool(face.symbol or face.art)  # a value stands beside the face's picture, above its text
    parts = (title, legend, read, face.value, face.text) if beside else (title, legend, read, face.text, face.value)
    parts = (face.corner, *parts)
    return " ".join(" ".join(part.split()) for part in parts
                    if part and not face.blank)


# Drawing without a PDF, for fast unit tests of layout code ---------------------------------------------

class Recorder(Painter):
    """A painter that keeps every call as (operation, arguments...) on its page instead of drawing it."""

    def __init__(self):
        super().__init__(FontSet(regular=register_font("Vera.ttf"), bold=register_font("VeraBd.ttf")))
        self.calls: list[tuple] = []

    def of(self, operation: str, page: int | None = None) -> list[tuple]:
        """The calls of one kind ("rect", "line", "text"...), each as (page, arguments...), on `page` or all pages."""
        return [c[1:] for c in self.calls if c[0] == operation and (page is None or c[1] == page)]

    def _keep(self, operation: str, *arguments) -> None:
        self.calls.append((operation, self.pages, *arguments))

    def new_page(self, width, height):
        self.width, self.height = width, height
        self.pages += 1
        self._keep("page", width, height)

    def rect(self, x, y, width, height, fill=None, stroke=None, line_width=0.25, dash=None):
        self._keep("rect", x, y, width, height, fill, stroke)

    def line(self, x1, y1, x2, y2, stroke="#000000", line_width=0.25, dash=None):
        self._keep("line", x1, y1, x2, y2, stroke, tuple(dash or ()))

    def polyline(self, points, stroke="#000000", line_width=0.25, dash=None):
        self._keep("polyline", tuple(points), stroke)

    def polygon(self, points, fill=None, stroke=None, line_width=0.25):
        self._keep("polygon", tuple(points), fill, stroke)

    def circle(self, cx, cy, r, fill=None, stroke=None, line_width=0.25):
        self._keep("circle", cx, cy, r, fill, stroke)

    def text(self, x, y, text, font, size, colour="#000000", anchor=Anchor.START, angle=0.0, halo=None):
        self._keep("text", x, y, text, font, size, Anchor(anchor))

    def place(self, drawing, x, y, scale=1.0, clip=None):
        self._keep("place", drawing, x, y, scale, clip)
