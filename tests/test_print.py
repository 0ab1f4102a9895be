"""Counter sheets and event tiles, measured in the PDFs `dossier build` writes (pdfplumber, pypdf).

Positions are read from the drawn rectangles and the extracted text; expected texts come from
the game data (and, for spot checks, from the rulebook as printed), never from drawing constants.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from conftest import MM, TOL, char_size, cut_boxes, face_text, filled_boxes, has_box, mirrored, text_in, words_of
from pypdf import PdfReader

from generators.cli import main
from generators.core.faces import faces
from generators.validation import load_game

COUNTER_BLEED = (load_game("spies").layout.size("counter").bleed or 0.0) * MM  # each counter's colour past its cut


def bled(box: tuple[float, float, float, float], bleed: float = COUNTER_BLEED) -> tuple[float, float, float, float]:
    """A counter's cut box grown by the colour it carries past the cut: the face's fill as drawn."""
    x0, top, x1, bottom = box
    return x0 - bleed, top - bleed, x1 + bleed, bottom + bleed


def build(out: Path, *args: str) -> int:
    return main(["build", "--game", "spies", "--out", str(out), *args])


# ---------------------------------------------------------------- one default build for most tests

@pytest.fixture(scope="module")
def default_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    assert build(out, "--only", "counters", "--only", "tiles") == 0
    return out / "spies"


@pytest.fixture(scope="module")
def counters(default_build):
    with pdfplumber.open(default_build / "counters.pdf") as pdf:
        pages = [(p.width, p.height, cut_boxes(p), filled_boxes(p), words_of(p), p.chars) for p in pdf.pages]
    return pages


@pytest.fixture(scope="module")
def tiles_pdf(default_build):
    with pdfplumber.open(default_build / "tiles.pdf") as pdf:
        return [(p.width, p.height, cut_boxes(p), words_of(p), p.chars) for p in pdf.pages]


def test_pages_are_letter_by_default(counters):
    for width, height, *_ in counters:
        assert abs(width - 8.5 * 72) < 0.5 and abs(height - 11 * 72) < 0.5


def test_front_then_back_pages(counters):
    # one sheet of 200: a front page with every cut line, then its back page with none
    assert len(counters) == 2
    assert len(counters[0][2]) == 200
    assert counters[1][2] == []


def test_piece_outlines_are_half_an_inch(counters):
    for x0, top, x1, bottom in counters[0][2]:
        assert abs((x1 - x0) - 12.7 * MM) <= TOL
        assert abs((bottom - top) - 12.7 * MM) <= TOL


def test_every_roster_piece_is_on_the_sheet(spies, counters):
    words = counters[0][4]
    printed = Counter(text_in(words, box) for box in counters[0][2])
    expected = Counter()
    for piece in spies.pieces:
        expected[face_text(faces(spies, piece)[0])] += piece.count
    assert printed == expected


@pytest.mark.parametrize("text, copies", [
    ("Piccolo 1", 1), ("Atomic Bomb 5", 1), ("Wil'y 2", 1), ("Wide-lens DRF 3", 1),
    ("Counter Spy 5", 6), ("Counter Spy 3", 2), ("Drop 20–30£", 6), ("Russia £", 1), ("Game Year", 1),
])
def test_spot_check_fronts_as_printed(counters, text, copies):
    printed = Counter(text_in(counters[0][4], box) for box in counters[0][2])
    assert printed[text] == copies


def backs_by_front(game) -> dict[str, Counter]:
    """Every printed front's text -> how many copies of each back text the data puts behind it."""
    backs: dict[str, Counter] = {}
    for piece in game.pieces:
        front, back = faces(game, piece)
        backs.setdefault(face_text(front), Counter())[face_text(back)] += piece.count
    return backs


def backs_printed(fronts, front_words, back_words, width) -> dict[str, Counter]:
    """Every printed front's text -> how many copies of each text are printed at the mirrored places."""
    printed: dict[str, Counter] = {}
    for box in fronts:
        printed.setdefault(text_in(front_words, box), Counter())[text_in(back_words, mirrored(box, width))] += 1
    return printed


def test_each_back_is_behind_its_front(spies, counters):
    width, _, fronts, _, front_words, _ = counters[0]
    _, _, _, back_fills, back_words, _ = counters[1]
    for box in fronts:
        assert has_box(back_fills, bled(mirrored(box, width))), f"no back face at the mirrored place of {text_in(front_words, box)!r}"
    # as many of each back behind each front as the data says: a back printed blank is missed
    assert backs_printed(fronts, front_words, back_words, width) == backs_by_front(spies)


def test_spot_check_backs(counters):
    width, _, fronts, _, front_words, _ = counters[0]
    back_words = counters[1][4]
    back = {text_in(front_words, b): text_in(back_words, mirrored(b, width)) for b in fronts}
    assert back["Piccolo 1"] == "ITALY"
    assert back["Atomic Bomb 5"] == "SECRET"
    assert back["Russia £"] == "Russia +100 £"
    assert back["Counter Spy 4"] == "SECRET"
    assert back["Game Year"] == ""


def test_text_is_never_below_the_minimum(counters, tiles_pdf):
    for page in counters:
        pieces = [c for c in page[5] if any(b[0] <= c["x0"] <= b[2] for b in counters[0][2])]
        assert min(c["size"] for c in pieces) >= 5 - 0.01
    for page in tiles_pdf:
        inside = [c for c in page[4] if any(b[0] <= c["x0"] <= b[2] and b[1] <= c["top"] <= b[3] for b in page[2])]
        assert min(c["size"] for c in inside) >= 5 - 0.01


def test_fonts_are_embedded_truetype(default_build):
    for name in ("counters.pdf", "tiles.pdf"):
        reader = PdfReader(default_build / name)
        seen = 0
        for page in reader.pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                assert "/FontFile2" in descriptor.get_object(), f"{name}: {font['/BaseFont']} is not embedded"
                seen += 1
        assert seen


def test_everything_is_vector(default_build):
    for name in ("counters.pdf", "tiles.pdf"):
        for page in PdfReader(default_build / name).pages:
            xobjects = page["/Resources"].get("/XObject") or {}
            assert not [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]


# ---------------------------------------------------------------- event tiles

def _years(years: list[int]) -> str:
    if years == list(range(1933, 1940)):
        return "Any Year"
    return str(years[0]) if len(years) == 1 else f"{years[0]}–{str(years[-1])[2:]}"


def tile_texts(tiles_pdf) -> list[str]:
    return [text_in(words, box) for _, _, boxes, words, _ in tiles_pdf for box in boxes]


def test_all_fifty_tiles_measure_one_and_a_half_by_one_inch(tiles_pdf):
    boxes = [box for page in tiles_pdf for box in page[2]]
    assert len(boxes) == 50
    for x0, top, x1, bottom in boxes:
        assert abs((x1 - x0) - 38.1 * MM) <= TOL and abs((bottom - top) - 25.4 * MM) <= TOL


def test_tiles_stand_apart_on_one_sheet_each_carrying_its_own_colours_into_the_gutter(default_build, tiles_pdf):
    """A cut a little off the line leaves no sliver of the neighbour: between tiles a gutter, each tile's band
    colour running up past its top cut and its body colour down past its bottom cut; all fifty still on one sheet."""
    import pypdfium2

    assert len(tiles_pdf) == 1
    boxes = tiles_pdf[0][2]
    gaps = [b[0] - a[2] for a in boxes for b in boxes if abs(a[1] - b[1]) < 1 and b[0] > a[2] - 1]
    gaps += [b[1] - a[3] for a in boxes for b in boxes if abs(a[0] - b[0]) < 1 and b[1] > a[3] - 1]
    assert min(gaps) >= 1.0 * MM - TOL
    scale = 300 / 72
    image = pypdfium2.PdfDocument(default_build / "tiles.pdf")[0].render(scale=scale).to_pil().convert("RGB")

    def at(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x * scale), round(y * scale)))

    for x0, top, x1, bottom in boxes:
        x = x0 + 0.8 * MM  # inside the padding, clear of the texts
        assert at(x, top - 0.4 * MM) == at(x, top + 0.8 * MM), "the band's colour stops at the cut"
        assert at(x, bottom + 0.4 * MM) == at(x, bottom - 0.8 * MM), "the body's colour stops at the cut"


def test_a_tiles_headline_is_set_larger_than_its_awards(tiles_pdf):
    words = [w for page in tiles_pdf for w in page[3]]
    headline = next(w for w in words if w["text"] == "Anschluss!")
    award = next(w for w in words if w["text"] == "Leipzig,")
    assert headline["size"] >= award["size"] * 1.1


def test_tile_pages_are_single_sided(tiles_pdf):
    assert all(page[2] for page in tiles_pdf)  # no page without tiles, i.e. no back pages


def test_every_tile_text_is_extracted_whole(spies, tiles_pdf):
    texts = tile_texts(tiles_pdf)
    for tile in spies.tiles:
        label = tile.id + ("*" if tile.special else "")
        matches = [t for t in texts if re.match(rf"^{re.escape(label)}(\s|$)", t)]
        assert len(matches) == 1, f"tile {label} printed {len(matches)} times"
        text = matches[0]
        assert _years(tile.years) in text
        assert tile.event in text
        for award in tile.awards:
            assert f"{award.amount}{award.kind}: {', '.join(award.cities)}." in text
        if tile.nation:
            assert spies.faction(tile.nation).name in text


@pytest.mark.parametrize("label, printed", [
    # as printed in the rulebook's Event Tile Reference
    ("Ge 1*", ["1937–39", "Czech Crisis!", "3c: Berlin, Prague.", "2c: Paris, Moscow, Bucharest, Warsaw.",
               "2£: Budapest, Vienna, Bratislava."]),
    ("Fr 24*", ["Any Year", "Hungary moves closer to the Axis over Rumania.", "1c: Sophia, Istanbul."]),
    ("Ge 7*", ["1935–37", "Anschluss!", "4£: London, Paris, Moscow, Riga, Warsaw, Belgrade, Rome, Munich, "
               "Leipzig, Nurnberg, Trieste."]),
])
def test_spot_check_tiles_against_the_rulebook(tiles_pdf, label, printed):
    text = next(t for t in tile_texts(tiles_pdf) if t.startswith(label + " "))
    for part in printed:
        assert part in text


# ---------------------------------------------------------------- options

def _first_pages(out: Path, name: str = "counters.pdf"):
    with pdfplumber.open(out / "spies" / name) as pdf:
        return [(p.width, p.height, cut_boxes(p), filled_boxes(p), p.lines) for p in pdf.pages[:2]]


@pytest.mark.parametrize("size, mm", [("5/8in", 15.875), ("16mm", 16.0)])
def test_piece_size_from_the_command_line(tmp_path, size, mm):
    assert build(tmp_path, "--only", "counters", "--piece-size", size) == 0
    boxes = [b for page in _first_pages(tmp_path) for b in page[2]]
    assert boxes
    for x0, top, x1, bottom in boxes:
        assert abs((x1 - x0) - mm * MM) <= TOL and abs((bottom - top) - mm * MM) <= TOL


def test_a4_paper(tmp_path):
    assert build(tmp_path, "--only", "counters", "--paper", "a4") == 0
    width, height, *_ = _first_pages(tmp_path)[0]
    assert abs(width - 210 * MM) < 0.5 and abs(height - 297 * MM) < 0.5


def test_short_edge_backs_are_mirrored_top_to_bottom(tmp_path):
    assert build(tmp_path, "--only", "counters", "--duplex", "short-edge") == 0
    (width, height, fronts, _, _), (_, _, _, back_fills, _) = _first_pages(tmp_path)
    for x0, top, x1, bottom in fronts:
        assert has_box(back_fills, bled((x0, height - bottom, x1, height - top)))


def test_back_offset_shifts_every_back(tmp_path):
    assert build(tmp_path, "--only", "counters", "--back-offset", "0.4mm,-0.2mm") == 0
    (width, _, fronts, _, _), (_, _, _, back_fills, _) = _first_pages(tmp_path)
    dx, dy = 0.4 * MM, 0.2 * MM  # x to the right; y -0.2 mm is 0.2 mm down the page
    for box in fronts:
        x0, top, x1, bottom = mirrored(box, width)
        assert has_box(back_fills, bled((x0 + dx, top + dy, x1 + dx, bottom + dy)), tol=0.02 * MM)
        assert not has_box(back_fills, bled((x0, top, x1, bottom)), tol=0.02 * MM)


def test_fold_puts_backs_beside_fronts_across_a_fold_line(spies, tmp_path):
    assert build(tmp_path, "--only", "counters", "--fold") == 0
    with pdfplumber.open(tmp_path / "spies" / "counters.pdf") as pdf:
        pages = [(p.width, cut_boxes(p), filled_boxes(p), p.lines, words_of(p)) for p in pdf.pages]
    assert sum(len(fronts) for _, fronts, *_ in pages) == 200  # every piece, on several folded pages
    printed: dict[str, Counter] = {}
    for width, fronts, fills, lines, words in pages:
        assert [ln for ln in lines if abs(ln["x0"] - width / 2) < 0.5 and abs(ln["x1"] - width / 2) < 0.5], "no fold line"
        assert all(x1 <= width / 2 for _, _, x1, _ in fronts)
        for box in fronts:
            assert has_box(fills, bled(mirrored(box, width)))
        for front, backs in backs_printed(fronts, words, words, width).items():
            printed.setdefault(front, Counter()).update(backs)
    assert printed == backs_by_front(spies)  # each back beside its own front, none of them blank by mistake


def test_bleed_carries_colour_past_the_cut(tmp_path):
    assert build(tmp_path, "--only", "counters", "--bleed", "1mm") == 0
    (_, _, fronts, fills, _), _ = _first_pages(tmp_path)
    for x0, top, x1, bottom in fronts:
        assert abs((x1 - x0) - 12.7 * MM) <= TOL
        assert has_box(fills, (x0 - MM, top - MM, x1 + MM, bottom + MM))
    # neighbours sit far enough apart for both bleeds
    xs = sorted({round(b[0], 2) for b in fronts})
    assert min(b - a for a, b in zip(xs, xs[1:])) >= (12.7 + 2) * MM - TOL


def test_crop_marks_line_up_with_the_cuts(counters, default_build):
    with pdfplumber.open(default_build / "counters.pdf") as pdf:
        lines = pdf.pages[0].lines
    fronts = counters[0][2]
    top = min(b[1] for b in fronts)
    marks = {round(ln["x0"], 1) for ln in lines if ln["x0"] == ln["x1"] and ln["bottom"] <= top}
    cuts = {round(x, 1) for b in fronts for x in (b[0], b[2])}
    assert cuts <= marks


def test_svg_and_png_per_page(tmp_path):
    assert build(tmp_path, "--only", "counters", "--format", "pdf,svg,png") == 0
    folder = tmp_path / "spies"
    svgs = sorted(folder.glob("counters-*.svg"))
    pngs = sorted(folder.glob("counters-*.png"))
    assert [p.name for p in svgs] == ["counters-1.svg", "counters-2.svg"]
    assert [p.name for p in pngs] == ["counters-1.png", "counters-2.png"]
    svg = svgs[0].read_text(encoding="utf-8")
    assert 'width="215.9mm"' in svg and ">Piccolo</text>" in svg
    assert pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_installed_game_builds_its_counters(tmp_path):
    assert main(["build", "--out", str(tmp_path), "--only", "counters"]) == 0
    built = sorted(p.parent.name for p in tmp_path.glob("*/counters.pdf"))
    assert "spies" in built and len(built) >= 2


# ---------------------------------------------------------------- refusals and atomic writes

def test_tile_too_long_is_refused_naming_it(cli, game_copy, tmp_path):
    folder = game_copy()
    tiles = folder / "tiles.yaml"
    text = tiles.read_text(encoding="utf-8")
    tiles.write_text(text.replace('event: "Czech Crisis!"', 'event: "' + "Czech Crisis! " * 40 + '"'), encoding="utf-8")
    result = cli("build", "--game", folder, "--out", tmp_path, "--only", "tiles")
    assert result.code == 2
    assert "tiles.yaml: tiles: tile Ge 1" in result.stderr and "does not fit" in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(tmp_path.rglob("*.pdf")) and not list(tmp_path.rglob("*.part"))


def test_unknown_symbol_is_a_data_error(cli, game_copy, tmp_path):
    folder = game_copy()
    pieces = folder / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace("symbol: key,", "symbol: kye,"), encoding="utf-8")
    result = cli("build", "--game", folder, "--out", tmp_path)
    assert result.code == 2
    assert "pieces.yaml" in result.stderr and ".symbol" in result.stderr and "'kye'" in result.stderr
    assert "key" in result.stderr
    assert not list(tmp_path.rglob("*.pdf"))


def test_refused_data_leaves_the_previous_build_untouched(cli, game_copy, tmp_path):
    folder = game_copy()
    assert cli("build", "--game", folder, "--out", tmp_path, "--only", "counters").code == 0
    pdf = tmp_path / "spies" / "counters.pdf"
    before = pdf.read_bytes()
    pieces = folder / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace('name: "Piccolo", strength: 1', 'name: "Piccolo", strength: one'),
                      encoding="utf-8")
    result = cli("build", "--game", folder, "--out", tmp_path, "--only", "counters")
    assert result.code == 2 and "strength" in result.stderr
    assert pdf.read_bytes() == before


def _overlong_tile(folder):
    tiles = folder / "tiles.yaml"
    text = tiles.read_text(encoding="utf-8")
    tiles.write_text(text.replace('event: "Czech Crisis!"', 'event: "' + "Czech Crisis! " * 40 + '"'), encoding="utf-8")


def test_a_product_refused_late_leaves_no_earlier_product(cli, game_copy, tmp_path):
    folder = game_copy()
    _overlong_tile(folder)  # the counters draw fine, the tiles are refused after them
    out = tmp_path / "out"
    result = cli("build", "--game", folder, "--out", out)
    assert result.code == 2 and "tile Ge 1" in result.stderr
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_a_game_refused_late_leaves_no_earlier_game(cli, game_copy, tmp_path, monkeypatch):
    import generators.cli.data

    good, bad = game_copy("spion-und-spion"), game_copy()
    _overlong_tile(bad)
    monkeypatch.setattr(generators.cli.data.paths, "installed_games", lambda: [str(good), str(bad)])
    out = tmp_path / "out"
    result = cli("build", "--out", out)
    assert result.code == 2 and "tile Ge 1" in result.stderr
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_a_failed_write_leaves_no_truncated_pdf(cli, tmp_path, monkeypatch):
    import generators.core.atomic

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(generators.core.atomic.os, "fsync", disk_full)
    result = cli("build", "--game", "spies", "--out", tmp_path, "--only", "counters")
    assert result.code == 2
    assert "cannot write" in result.stderr and "counters.pdf" in result.stderr and "No space" in result.stderr
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def _luminance(colour) -> float:
    """Relative luminance (WCAG) of a pdfplumber colour: grey (1 value) or RGB (3 values), 0..1."""
    values = list(colour) * 3 if len(colour) == 1 else list(colour)

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in values[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_text_contrasts_with_its_face_in_colour_and_greyscale(default_build):
    # WCAG's 4.5:1 for normal text; luminance contrast is what survives a greyscale print
    with pdfplumber.open(default_build / "counters.pdf") as pdf:
        for page in pdf.pages:
            fills = [r for r in page.rects if r["fill"] and not r["stroke"]]
            for char in page.chars:
                cx, cy = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
                under = [r for r in fills if r["x0"] <= cx <= r["x1"] and r["top"] <= cy <= r["bottom"]]
                if not under:
                    continue  # the caption, on white paper
                face = min(under, key=lambda r: r["width"] * r["height"])
                light, dark = sorted((_luminance(char["non_stroking_color"]), _luminance(face["non_stroking_color"])),
                                     reverse=True)
                ratio = (light + 0.05) / (dark + 0.05)
                assert ratio >= 4.5, f"{char['text']!r} on {face['non_stroking_color']}: contrast {ratio:.2f}"


# ---------------------------------------------------------------- telling pieces apart at a glance

def _grey(colour) -> float:
    """The grey (0..255, ITU-R 601 as a greyscale print or photocopy sees it) of a pdfplumber colour."""
    values = list(colour) * 3 if len(colour) == 1 else list(colour)
    return 255 * (0.299 * values[0] + 0.587 * values[1] + 0.114 * values[2])


def _face_fills(pdf_path: Path, page: int = 0) -> dict[str, list[tuple]]:
    """Each front's text -> the fill colours drawn inside its cut box, outermost first."""
    with pdfplumber.open(pdf_path) as pdf:
        p = pdf.pages[page]
        words = words_of(p)
        fills = [r for r in p.rects if r["fill"] and not r["stroke"]]
        found: dict[str, list[tuple]] = {}
        for box in cut_boxes(p):
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            area = (box[2] - box[0]) * (box[3] - box[1]) * 1.6  # the face with its bleed and what is drawn on it, not the sheet
            under = sorted((r for r in fills if r["x0"] <= cx <= r["x1"] and r["top"] <= cy <= r["bottom"]
                            and r["width"] * r["height"] <= area), key=lambda r: -r["width"] * r["height"])
            found.setdefault(text_in(words, box), [tuple(r["non_stroking_color"]) for r in under])
        return found


def test_chits_only_the_long_game_plays_are_told_apart_from_the_others(spies, default_build):
    fills = _face_fills(default_build / "counters.pdf")
    chits = [p for p in spies.pieces if p.kind == "chit"]
    def printed(chit):
        return next(fills[text][:2] for text in fills if text.startswith(chit.name + " "))  # face, and its ring
    standard = {tuple(printed(c)) for c in chits if "standard" in c.games}
    long_only = {tuple(printed(c)) for c in chits if "standard" not in c.games}
    assert {c.name for c in chits if "standard" not in c.games} >= {"Double Cross", "Intercept", "Drop", "Source"}
    assert len(standard) == 1 and len(long_only) == 1 and standard != long_only
    ring, _ = next(iter(long_only))  # a dark ring: apart in greyscale too, not only in colour
    assert abs(_grey(ring) - _grey(next(iter(standard))[0])) >= 60


def test_nations_fills_stay_apart_in_greyscale(spies, default_build):
    """Each power's spies 40 grey levels from the next on a mono print: Germany and Italy, once 35 apart, read alike."""
    fills = _face_fills(default_build / "counters.pdf")
    grey = {}
    for piece in spies.pieces:
        if piece.kind == "spy" and not piece.cousin:  # every power has a Cousin 4: its name tells no power apart
            front = faces(spies, piece)[0]
            grey[piece.nation] = _grey(fills[face_text(front)][0])
    assert len(grey) == 5
    ordered = sorted(grey.values())
    assert min(b - a for a, b in zip(ordered, ordered[1:])) >= 40, grey


def test_each_powers_spies_carry_their_own_symbol_so_colour_is_not_all_that_tells_them_apart(spies, default_build):
    """The five Cousin 4s print the same words: each power's draws its own picture (its police's symbol), read from
    the paths drawn inside each one's cut, measured from the cut's corner; the runner all spies once shared did not."""
    with pdfplumber.open(default_build / "counters.pdf") as pdf:
        page = pdf.pages[0]
        words = words_of(page)
        drawn = [c for c in page.curves + page.rects if c.get("non_stroking_color") and c.get("fill")]
        pictures = []
        for box in cut_boxes(page):
            if text_in(words, box) == "Cousin 4":
                inside = [c for c in drawn if box[0] < c["x0"] and c["x1"] < box[2] and box[1] < c["top"] and c["bottom"] < box[3]]
                pictures.append(frozenset((round(c["x0"] - box[0]), round(c["top"] - box[1]), round(c["width"]), round(c["height"]))
                                          for c in inside))
    assert len(pictures) == len(spies.info.factions) == 5
    assert len(set(pictures)) == 5, pictures


def _back_boxes(spies, counters, kinds) -> list[tuple[tuple, dict]]:
    """(back's box, its front) for the printed pieces of `kinds`, read by their front's text."""
    width, _, fronts, _, front_words, _ = counters[0]
    wanted = {face_text(faces(spies, p)[0]) for p in spies.pieces if p.kind in kinds}
    return [(mirrored(box, width), text) for box in fronts if (text := text_in(front_words, box)) in wanted]


def test_face_down_backs_of_one_sheet_share_one_size(spies, counters):
    hidden = {k for k, info in spies.info.kinds.items() if info.hidden or info.drawn}
    assert hidden == {"spy", "police", "secret", "counterspy", "chit"}
    back_chars = counters[1][5]
    backs = [box for box, _ in _back_boxes(spies, counters, hidden)]
    sizes = {round(char_size(c), 2) for c in back_chars if not c["text"].isspace()
             and any(b[0] <= (c["x0"] + c["x1"]) / 2 <= b[2] and b[1] <= (c["top"] + c["bottom"]) / 2 <= b[3] for b in backs)}
    assert len(sizes) == 1, sizes
    # set level, GERMANY reaches only 6.8 pt inside the safe zone; along the diagonal it reaches 8 pt and more
    assert sizes.pop() >= 8.0


def test_spies_backs_run_along_the_diagonal_and_the_others_stay_level(spies, counters):
    spies_backs = {box for box, _ in _back_boxes(spies, counters, {"spy"})}
    words = counters[1][4]
    for word in words:
        centre = ((word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2)
        if any(b[0] <= centre[0] <= b[2] and b[1] <= centre[1] <= b[3] for b in spies_backs):
            assert abs(word.get("angle", 0.0) - 45.0) < 0.5, word["text"]
        else:
            assert word.get("angle", 0.0) == 0.0, word["text"]
    assert sum("angle" in w for w in words) == sum(p.count for p in spies.pieces if p.kind == "spy")


def test_spies_backs_keep_their_ink_inside_the_safe_zone(spies, counters, default_build):
    # rendered at 300 dpi as a player prints it: no letter of a turned back comes nearer the cut than the safe zone
    import numpy
    import pypdfium2

    from generators.core.layouts import load_layout

    safe = load_layout(spies.info.layout).safe("counter") * MM
    scale = 300 / 72
    image = numpy.asarray(pypdfium2.PdfDocument(default_build / "counters.pdf")[1].render(scale=scale).to_pil()
                          .convert("RGB")).astype(int)
    checked = 0
    for (x0, top, x1, bottom), _ in _back_boxes(spies, counters, {"spy"}):
        left, up, right, down = (round(v * scale) for v in (x0 + 0.3, top + 0.3, x1 - 0.3, bottom - 0.3))  # off the cut lines
        face = image[up:down, left:right]
        colours, counts = numpy.unique(face.reshape(-1, 3), axis=0, return_counts=True)
        inked = numpy.abs(face - colours[counts.argmax()]).sum(axis=2) > 120  # letters: far from the face's own fill
        assert inked.any(), "a spy's back prints no letters"
        rows, columns = numpy.nonzero(inked)
        margin = (safe - 0.3) * scale - 1  # the safe zone, in pixels from the crop's edge, less a pixel of antialiasing
        assert min(rows.min(), columns.min(), face.shape[0] - 1 - rows.max(), face.shape[1] - 1 - columns.max()) >= margin
        checked += 1
    assert checked == sum(p.count for p in spies.pieces if p.kind == "spy")


def test_every_secret_has_its_own_picture(spies, default_build):
    import hashlib

    import pypdfium2

    from generators.core.layouts import load_layout
    from generators.printing.counters import FacePainter
    from generators.printing.fonts import piece_fonts

    layout = load_layout(spies.info.layout)
    size = (layout.size("counter").width, layout.size("counter").height)
    picture = FacePainter(spies, piece_fonts(layout.fonts, spies.folder)).arrangement("secret", "front", size).boxes["picture"]
    scale = 200 / 72
    pdf = pypdfium2.PdfDocument(default_build / "counters.pdf")
    image = pdf[0].render(scale=scale).to_pil().convert("L")
    with pdfplumber.open(default_build / "counters.pdf") as plumbed:
        page = plumbed.pages[0]
        words = words_of(page)
        boxes = {text_in(words, box): box for box in cut_boxes(page)}
    seen = {}
    for piece in spies.pieces:
        if piece.kind != "secret":
            continue
        x0, top = boxes[face_text(faces(spies, piece)[0])][:2]
        crop = image.crop(tuple(round(v * scale) for v in (x0 + picture.x * MM, top + picture.y * MM,
                                                             x0 + picture.right * MM, top + picture.bottom * MM)))
        digest = hashlib.sha256(crop.point(lambda v: 255 if v > 128 else 0).tobytes()).hexdigest()
        assert digest not in seen, f"{piece.name} prints the same picture as {seen.get(digest)}"
        seen[digest] = piece.name
    assert len(seen) == 30


@pytest.mark.parametrize("format_", ["pdf", "svg"])
def test_a_data_error_raised_while_drawing_is_one_message_and_writes_nothing(cli, tmp_path, monkeypatch, format_):
    from generators.core.errors import DataError, Problem
    from generators.printing import counters

    def refuse(*_args, **_kwargs):
        raise DataError([Problem(Path("components/spies/pieces.yaml"), "pieces[3].art", "cannot be drawn")])

    monkeypatch.setattr(counters.FacePainter, "draw", refuse)
    result = cli("build", "--game", "spies", "--only", "counters", "--format", format_, "--out", tmp_path)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("dossier: error: components/spies/pieces.yaml: pieces[3].art: cannot be drawn (")
    assert result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- misregistration, greyscale, tile type

def test_a_back_or_a_cut_up_to_the_bleed_off_shows_the_counters_own_colour(default_build, counters):
    """Each counter's colours run a bleed past its cut on both sides of the sheet, so a duplex shift or a cut
    that far off shows the counter's own colour, never a sliver of its neighbour's."""
    import pypdfium2

    assert COUNTER_BLEED >= 1.0 * MM - TOL
    width = counters[0][0]
    scale = 300 / 72
    document = pypdfium2.PdfDocument(default_build / "counters.pdf")
    for page, boxes in ((0, counters[0][2]), (1, [mirrored(box, width) for box in counters[0][2]])):
        image = document[page].render(scale=scale).to_pil().convert("RGB")

        def at(x: float, y: float) -> tuple[int, int, int]:
            return image.getpixel((round(x * scale), round(y * scale)))

        out, inside = COUNTER_BLEED * 0.8, 0.4 * MM
        for x0, top, x1, bottom in boxes:
            cx, cy = (x0 + x1) / 2, (top + bottom) / 2
            for (ox, oy), (ix, iy) in (((cx, top - out), (cx, top + inside)), ((cx, bottom + out), (cx, bottom - inside)),
                                       ((x0 - out, cy), (x0 + inside, cy)), ((x1 + out, cy), (x1 - inside, cy))):
                assert at(ox, oy) == at(ix, iy), f"page {page + 1}: the colour of the counter at {x0:.0f},{top:.0f} stops at its cut"


def test_markers_and_chits_stay_25_grey_levels_from_every_powers_colour(spies, default_build):
    """In greyscale France's orange and the pink markers, Britain's yellow and the chits, do not look alike."""
    fills = _face_fills(default_build / "counters.pdf")
    nations = {_grey(fills[face_text(faces(spies, p)[0])][0]) for p in spies.pieces if p.kind == "spy" and not p.cousin}
    others = {p.kind if p.kind != "chit" else ("chit-long" if p.games == ["long"] else "chit"):
              _grey(fills[face_text(faces(spies, p)[0])][0 if p.games != ["long"] else 1])
              for p in spies.pieces if p.kind in ("chit", "sanctioned", "game-year", "action-points")}
    assert len(nations) == 5 and {"chit", "chit-long", "sanctioned"} <= set(others)
    for kind, grey in others.items():
        nearest = min(abs(grey - n) for n in nations)
        assert nearest >= 25, f"{kind}: {grey:.0f} is {nearest:.0f} grey levels from a power's colour"


def test_tile_awards_are_set_at_7_25_pt_at_least_in_one_size(tiles_pdf):
    words = [w for page in tiles_pdf for w in page[3]]
    awards = {round(w["size"], 2) for w in words if w["text"] in ("Leipzig,", "Moscow.", "Berlin.", "Geneva.")}
    assert len(awards) == 1 and awards.pop() >= 7.25


def test_random_tiles_band_stands_40_grey_levels_from_every_nations_band(spies, default_build, tiles_pdf):
    """In greyscale the random tiles' band is not one more dark band beside Germany's charcoal."""
    with pdfplumber.open(default_build / "tiles.pdf") as pdf:
        page = pdf.pages[0]
        fills = [r for r in page.rects if r["fill"] and not r["stroke"]]
    words = tiles_pdf[0][3]
    bands = {}
    for x0, top, x1, bottom in tiles_pdf[0][2]:
        first = min((w for w in words if x0 < w["x0"] < x1 and top < w["top"] < top + 5 * MM), key=lambda w: w["x0"])
        band = next(f for f in fills if top - 2 * MM < f["top"] <= top + 0.5 and abs(f["x0"] - x0) < 2 * MM
                    and f["bottom"] < bottom - 1)
        bands.setdefault(first["text"] == "random", set()).add(_grey(band["non_stroking_color"]))
    [random] = bands[True]
    assert min(abs(random - grey) for grey in bands[False]) >= 40, (random, bands[False])


def test_cut_lines_run_on_through_the_gutters(tiles_pdf, default_build):
    """Where pieces stand apart, every cut is one line from crop mark to crop mark: each gutter between two
    tiles is crossed by the cut lines of the tiles' sides."""
    with pdfplumber.open(default_build / "tiles.pdf") as pdf:
        lines = pdf.pages[0].lines
    boxes = tiles_pdf[0][2]
    crossings = 0
    for a in boxes:
        below = [b for b in boxes if abs(b[0] - a[0]) < 1 and 0 < b[1] - a[3] < 5 * MM]
        for b in below:
            for x in (a[0], a[2]):
                assert any(abs(ln["x0"] - x) < 0.1 and abs(ln["x1"] - x) < 0.1 and ln["top"] <= a[3] + 0.1
                           and ln["bottom"] >= b[1] - 0.1 for ln in lines), f"no cut line across the gutter at x {x:.1f}"
                crossings += 1
    assert crossings >= 80  # 5 columns of tiles, 9 gutters down each, both sides
