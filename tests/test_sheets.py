"""Sheets a publisher would ship, measured in the PDFs: one type size per role per kind, a safe zone
no text or symbol enters, full sheets (all 50 tiles on one, cards 9-up, no sheet under a third used
but the last), tiles' bands and awards in one form, compact card citations, and the other games'
colours, backs and icons."""

from __future__ import annotations

import bisect
from collections import defaultdict
from pathlib import Path

import pdfplumber
import pytest
from conftest import char_size, face_text, reading_order

from generators.cli import main
from generators.core.faces import faces
from generators.core.tile_text import tile_text
from generators.validation import load_game

MM = 72 / 25.4
TOL = 0.05 * MM  # how far a measured glyph box may stray: rounding in the PDF's numbers
GAMES = ("spies", "spion-und-spion", "web-of-spies", "global-1936-spies", "special-action-tokens")


def cut_boxes(page) -> list[tuple[float, float, float, float]]:
    return [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects if r["stroke"] and not r["fill"]]


def inside(obj, box, slack: float = 0.5) -> bool:
    x0, top, x1, bottom = box
    cx, cy = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
    return x0 - slack <= cx <= x1 + slack and top - slack <= cy <= bottom + slack


def bucket(objects, boxes, slack: float = 0.5) -> dict[tuple, list]:
    """The objects whose centre lies in each box, found through the grid the boxes form (not box by box)."""
    xs, ys = sorted({b[0] for b in boxes}), sorted({b[1] for b in boxes})
    index = {(b[0], b[1]): b for b in boxes}
    found: dict[tuple, list] = {b: [] for b in boxes}
    for obj in objects:
        cx, cy = (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2
        i, j = bisect.bisect_right(xs, cx + slack) - 1, bisect.bisect_right(ys, cy + slack) - 1
        box = index.get((xs[i], ys[j])) if i >= 0 and j >= 0 else None
        if box is not None and inside(obj, box, slack):
            found[box].append(obj)
    return found


def mirrored(box, width):
    x0, top, x1, bottom = box
    return (width - x1, top, width - x0, bottom)


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """Every game's counters, tiles, cards and player aid on Letter, and the Spies! tiles and cards on A4."""
    folder = tmp_path_factory.mktemp("sheets")
    assert main(["build", "--out", str(folder / "letter"), "--only", "counters", "--only", "tiles",
                 "--only", "cards", "--only", "player-aid"]) == 0
    assert main(["build", "--game", "spies", "--out", str(folder / "a4"), "--paper", "a4",
                 "--only", "tiles", "--only", "cards"]) == 0
    return folder


@pytest.fixture(scope="module")
def spies_counters(out):
    """The Spies! counters' pages, read once: width, cut boxes, characters, curves (symbols and pictures), rects, images."""
    with pdfplumber.open(out / "letter" / "spies" / "counters.pdf") as pdf:
        return [(p.width, cut_boxes(p), p.chars, p.curves, p.rects, p.images) for p in pdf.pages]


@pytest.fixture(scope="module")
def spies_cards(out):
    """The Spies! cards' pages, read once: width, cut boxes and characters."""
    with pdfplumber.open(out / "letter" / "spies" / "cards.pdf") as pdf:
        return [(p.width, cut_boxes(p), p.chars) for p in pdf.pages]


def piece_text(chars, box) -> str:
    """The characters in `box` in reading order, without spaces: what identifies a piece's face."""
    inner = reading_order([c for c in chars if inside(c, box)])
    return "".join(c["text"] for c in inner if not c["text"].isspace())


# ---------------------------------------------------------------- one type scale

def test_each_role_of_each_kind_prints_in_one_size(spies, spies_counters):
    # every face is found by its printed text; its title, text and value characters are measured
    # separately (front and back), so "Merinka" and "Alexi", "Germany £" and "Italy £" must match
    roles_of: dict[str, list[tuple[str, str, str]]] = {}
    for piece in spies.pieces:
        for side, face in zip(("front", "back"), faces(spies, piece)):
            parts = [(role, getattr(face, role)) for role in ("title", "text", "value") if getattr(face, role) and not face.blank]
            key = "".join("".join(t.split()) for _, t in parts)
            roles_of.setdefault((side, key), [(piece.kind, role, "".join(t.split())) for role, t in parts])
    sizes: dict[tuple[str, str, str], set[float]] = defaultdict(set)
    (width, fronts, front_chars, *_), (_, _, back_chars, *_) = spies_counters
    on_front = bucket(front_chars, fronts)
    on_back = bucket(back_chars, [mirrored(b, width) for b in fronts])
    for box in fronts:
        for side, found in (("front", on_front[box]), ("back", on_back[mirrored(box, width)])):
            inner = reading_order([c for c in found if not c["text"].isspace()])
            text = "".join(c["text"] for c in inner)
            if not text:
                continue
            assert (side, text) in roles_of, f"{side} {text!r} is no face of the roster"
            at = 0
            for kind, role, part in roles_of[side, text]:
                for c in inner[at:at + len(part)]:
                    sizes[kind, side, role].add(round(char_size(c), 2))
                at += len(part)
    assert ("spy", "front", "title") in sizes and ("bank", "back", "title") in sizes
    for (kind, side, role), found in sizes.items():
        assert len(found) == 1, f"{kind} {side} {role} prints in {sorted(found)} pt"
        assert min(found) >= 5 - 0.01


def test_type_size_set_by_the_layout_is_used_on_every_piece_of_the_kind(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "typed.yaml").write_text("extends: spies\ntype: {spy: {title: 6pt, back_title: 6.5pt}}\n",
                                                  encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: spies", "layout: typed"), encoding="utf-8")
    # replacement pieces are set in their kind's sizes, as on the full sheet
    assert cli("replace", "--game", folder, "Merinka", "Alexi", "Piccolo", "--out", tmp_path / "some.pdf").code == 0
    with pdfplumber.open(tmp_path / "some.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        names = {round(w["size"], 2) for w in front.extract_words(extra_attrs=["size"]) if w["text"] in ("Merinka", "Alexi", "Piccolo")}
        nations = {round(w["size"], 2) for w in back.extract_words(extra_attrs=["size"]) if w["text"] in ("GERMANY", "ITALY")}
    assert names == {6.0} and nations == {6.5}


def test_a_type_size_for_an_unknown_kind_or_role_is_refused(cli, game_copy):
    folder = game_copy("spies")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "typed.yaml").write_text("extends: spies\ntype: {spyy: {title: 6pt}, spy: {titel: 6pt}}\n",
                                                  encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: spies", "layout: typed"), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert "typed.yaml: type.spyy: unknown kind 'spyy'" in result.stderr
    assert "typed.yaml: type.spy.titel: unknown role 'titel'" in result.stderr


def test_pieces_are_set_in_the_bundled_condensed_face(spies_counters):
    fonts = {c["fontname"].split("+")[-1] for page in spies_counters for c in page[2] if any(inside(c, b) for b in spies_counters[0][1])}
    assert fonts == {"FiraSansCondensed-Bold", "FiraSansCondensed-Regular"} or fonts == {"FiraSansCondensed-Bold"}


# ---------------------------------------------------------------- the safe zone

def _safe_zone_breaches(pages, safe_mm: float) -> list[str]:
    """Every character, symbol or picture inside a cut box that comes closer than `safe_mm` to the cut."""
    safe = safe_mm * MM - TOL
    found = []
    for width, boxes, chars, curves, images in pages:
        text, drawn = bucket(chars, boxes), bucket(curves + images, boxes, 0.0)
        for box in boxes:
            x0, top, x1, bottom = box
            for obj in text[box] + drawn[box]:
                near = min(obj["x0"] - x0, x1 - obj["x1"], obj["top"] - top, bottom - obj["bottom"])
                if near < safe:
                    found.append(f"{obj.get('text', obj['object_type'])!r} {near / MM:.2f} mm from the cut")
    return found


def test_no_text_or_symbol_comes_closer_than_the_safe_zone_to_a_cut(spies_counters, tiles_page):
    counters = [(width, boxes, chars, curves, images) for width, boxes, chars, curves, _, images in spies_counters[:1]]
    boxes, chars, _, curves = tiles_page
    assert not _safe_zone_breaches(counters, 1.5)
    assert not _safe_zone_breaches([(0, boxes, chars, curves, [])], 1.5)


def test_the_safe_zone_is_the_layouts(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "wide.yaml").write_text("extends: spies\nsafe_zone: 2mm\n", encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: spies", "layout: wide"), encoding="utf-8")
    assert cli("replace", "--game", folder, "Merinka", "Winston", "Radiobeam Navigation", "Drop", "Game Year",
               "--out", tmp_path / "some.pdf").code == 0
    with pdfplumber.open(tmp_path / "some.pdf") as pdf:
        pages = [(p.width, cut_boxes(p), p.chars, p.curves, p.images) for p in pdf.pages[:1]]
    assert len(pages[0][1]) == 5
    assert not _safe_zone_breaches(pages, 2.0)
    assert _safe_zone_breaches(pages, 2.5)  # the measure itself can fail


# ---------------------------------------------------------------- full sheets

@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_all_fifty_tiles_fit_one_sheet(out, paper):
    with pdfplumber.open(out / paper / "spies" / "tiles.pdf") as pdf:
        assert len(pdf.pages) == 1
        boxes = cut_boxes(pdf.pages[0])
    assert len(boxes) == 50
    assert all(abs((x1 - x0) / MM - 38.1) < 0.1 and abs((bottom - top) / MM - 25.4) < 0.1 for x0, top, x1, bottom in boxes)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_cards_print_nine_to_a_sheet(out, paper):
    with pdfplumber.open(out / paper / "spies" / "cards.pdf") as pdf:
        boxes = cut_boxes(pdf.pages[0])
    assert len(boxes) == 9
    assert all(abs((x1 - x0) / MM - 63) < 0.1 and abs((bottom - top) / MM - 88) < 0.1 for x0, top, x1, bottom in boxes)


@pytest.mark.parametrize("name", GAMES)
def test_no_sheet_is_less_than_a_third_used_but_the_last(out, name):
    for product in ("counters", "tiles", "cards"):
        path = out / "letter" / name / f"{product}.pdf"
        if not path.exists():
            continue
        with pdfplumber.open(path) as pdf:
            step = 1 if product == "tiles" else 2
            fronts = pdf.pages[::step]
            for number, page in enumerate(fronts[:-1], start=1):
                used = sum((x1 - x0) * (bottom - top) for x0, top, x1, bottom in cut_boxes(page))
                printable = (page.width - 14 * MM) * (page.height - 14 * MM)
                assert used >= printable / 3, f"{name} {product} sheet {number} is {used / printable:.0%} used"


def test_pieces_of_different_sizes_share_a_sheet(out):
    with pdfplumber.open(out / "letter" / "spion-und-spion" / "counters.pdf") as pdf:
        sizes_per_sheet = [{(round((x1 - x0) / MM), round((b - t) / MM)) for x0, t, x1, b in cut_boxes(p)} for p in pdf.pages[::2]]
    assert any(len(sizes) > 1 for sizes in sizes_per_sheet)


# ---------------------------------------------------------------- event tiles

@pytest.fixture(scope="module")
def tiles_page(out):
    """The Spies! tile sheet, read once: cut boxes, characters, filled rectangles and curves."""
    with pdfplumber.open(out / "letter" / "spies" / "tiles.pdf") as pdf:
        page = pdf.pages[0]
        return cut_boxes(page), page.chars, [r for r in page.rects if r["fill"] and not r["stroke"]], page.curves


def test_every_tile_shares_one_band_size_one_headline_size_and_one_body_size(tiles_page):
    boxes, chars, *_ = tiles_page
    band, body = set(), set()
    for x0, top, x1, bottom in boxes:
        for c in chars:
            if inside(c, (x0, top, x1, bottom)) and not c["text"].isspace():
                (band if c["top"] < top + 0.2 * (bottom - top) else body).add(round(c["size"], 2))
    assert len(band) == 1 and len(body) == 2, (band, body)  # the event's headline, and the awards below it
    assert min(body) >= 5 and max(body) >= 1.1 * min(body)


def test_random_tiles_have_a_band_of_their_own(spies, tiles_page):
    boxes, chars, fills, _ = tiles_page
    band_colour = {}
    for box in boxes:
        x0, top, x1, bottom = box
        label = piece_text([c for c in chars if c["top"] < top + 0.2 * (bottom - top)], box)
        band = next(f for f in fills if top - 2 * MM < f["top"] <= top + 0.5 and abs(f["x0"] - x0) < 2 * MM and f["bottom"] < bottom - 1)
        band_colour[label] = tuple(round(v, 3) for v in band["non_stroking_color"])
    pool = {c for label, c in band_colour.items() if label.startswith("random")}
    nations = {c for label, c in band_colour.items() if not label.startswith("random")}
    body = {tuple(round(v, 3) for v in f["non_stroking_color"]) for f in fills if f["bottom"] - f["top"] >= 25.4 * MM - 0.5}
    assert len(pool) == 1 and not pool & nations and not pool & body


def test_award_amounts_keep_one_form(spies, tiles_page):
    _, chars, *_ = tiles_page
    words = []
    line = sorted(chars, key=lambda c: (round(c["top"], 1), c["x0"]))
    amounts = {f"{a.amount}{a.kind}:" for t in spies.tiles for a in t.awards}
    text = "".join(c["text"] for c in line)
    for amount in amounts:
        at = text.find(amount)
        while at >= 0:
            words.append(line[at:at + len(amount)])
            at = text.find(amount, at + 1)
    assert len(words) >= sum(len(t.awards) for t in spies.tiles)
    forms = {(c["fontname"].split("+")[-1], round(c["size"], 2)) for word in words for c in word}
    assert len(forms) == 1 and "Bold" in next(iter(forms))[0]


# ---------------------------------------------------------------- cards

def test_card_citations_are_at_most_a_tenth_of_a_card(spies_cards):
    def text_in(chars, box) -> str:
        inner = sorted((c for c in chars if inside(c, box)), key=lambda c: (round(c["top"], 1), c["x0"]))
        return "".join(c["text"] for c in inner if not c["text"].isspace())

    for (width, boxes, front), (_, _, back) in zip(spies_cards[::2], spies_cards[1::2]):
        for box in boxes:
            text = text_in(front, box) + text_in(back, mirrored(box, width))
            cited = sum(len(group) + 2 for group in (part.split("]")[0] for part in text.split("[")[1:]))
            assert text and cited <= len(text) / 10, f"citations are {cited} of {len(text)} characters: {text[:40]!r}"


def test_a_deck_shares_one_title_and_one_body_size(spies_cards):
    boxes = spies_cards[0][1]
    sizes = set()
    for number, (width, _, chars) in enumerate(spies_cards):
        faces = boxes if number % 2 == 0 else [mirrored(b, width) for b in boxes]
        sizes |= {round(c["size"], 2) for c in chars if c["upright"] and any(inside(c, b) for b in faces)}
    assert len(sizes) <= 4, sizes  # title, body, citations (smaller) and the footer


# ---------------------------------------------------------------- the other games

def _named_colour(colour) -> str | None:
    r, g, b = (list(colour) * 3)[:3] if len(colour) == 1 else colour[:3]
    if max(r, g, b) < 0.1:
        return "black"
    if min(r, g, b) > 0.9:
        return "white"
    if r > 0.6 and g < 0.3 and b < 0.3:
        return "red"
    if b > 0.5 and r < 0.3:
        return "blue"
    return None


def test_two_colour_teams_print_both_their_colours(out):
    game = load_game("spion-und-spion")
    with pdfplumber.open(out / "letter" / "spion-und-spion" / "counters.pdf") as pdf:
        for faction in game.info.factions:
            wanted = {w.lower() for w in faction.name.split("-")}
            label = f"ZOFF{faction.name.upper()}"
            found = False
            for page in pdf.pages[::2]:
                for box in cut_boxes(page):
                    if piece_text(page.chars, box).startswith(label) and piece_text(page.chars, box)[len(label):] in ("A", "B", "C"):
                        # in fills, frames or type: a card framed in one colour on white, set in the other, shows both
                        fills = {_named_colour(r["non_stroking_color"]) for r in page.rects
                                 if r["fill"] and not r["stroke"] and inside(r, box, 1.0)}
                        fills |= {_named_colour(c["non_stroking_color"]) for c in page.chars if inside(c, box, 1.0)}
                        assert wanted <= fills, f"{faction.name} prints as {fills}"
                        found = True
            assert found, faction.name


@pytest.mark.parametrize("name", GAMES)
def test_no_back_is_solid_black_unless_its_colour_asks_for_it(out, spies_counters, name):
    """A near-black back prints as an outline, which saves ink and hides a duplex shift, unless the layout's colour
    says `backs: solid` (Spion & Spion's BLACK Pass-Card pile, told from the WHITE pile across the table)."""
    game = load_game(name)
    asked = {"".join(face_text(back).split()) for back in (faces(game, piece)[1] for piece in game.pieces)
             if game.layout.colour(back.colour).backs == "solid"}
    if name == "spies":
        pages = [(width, boxes, rects, chars) for width, boxes, chars, _, rects, _ in spies_counters]
    else:
        with pdfplumber.open(out / "letter" / name / "counters.pdf") as pdf:
            pages = [(p.width, cut_boxes(p), p.rects, p.chars) for p in pdf.pages]
    for (width, fronts, _, _), (_, _, rects, chars) in zip(pages[::2], pages[1::2]):
        for box in fronts:
            behind = mirrored(box, width)
            solid = [r for r in rects if r["fill"] and _named_colour(r["non_stroking_color"]) == "black"
                     and all(abs(a - b) < 0.5 for a, b in zip((r["x0"], r["top"], r["x1"], r["bottom"]), behind))]
            assert not solid or piece_text(chars, behind) in asked, \
                f"{name}: a solid black back at {[round(v / MM) for v in behind]} mm"


def test_card_symbols_print_as_icons_not_words(out):
    game = load_game("web-of-spies")
    with_icons = {p.name: len(p.icons) for p in game.pieces if p.icons and game.info.kinds[p.kind].front.icons}
    assert with_icons
    with pdfplumber.open(out / "letter" / "web-of-spies" / "counters.pdf") as pdf:
        # the cards' pages: the mats' backs (page 2) are the Symbol Key, which names each symbol beside it
        text = " ".join(page.extract_text() for page in pdf.pages[2:]).lower()
        drawn = {}
        for page in pdf.pages[::2]:
            for box in cut_boxes(page):
                name = next((n for n in with_icons if piece_text(page.chars, box).startswith(n.replace(" ", ""))), None)
                if name:
                    drawn[name] = [c for c in page.curves if inside(c, box, 0.0)]
    for word in ("binoculars", "surveillance"):
        assert word not in text
    assert set(drawn) == set(with_icons) and all(drawn.values())


def test_tile_texts_are_the_datas(spies, tiles_page):
    boxes, chars, *_ = tiles_page
    printed = {piece_text(chars, b) for b in boxes}
    for tile in spies.tiles:
        text = tile_text(spies, tile)
        whole = "".join(("".join(text.band) + text.heading + "".join(text.entries)).split())
        assert whole in printed, tile.id


def test_every_picture_named_in_the_data_appears_on_its_pieces(spies, spies_counters):
    named = {p.name: p.art for p in spies.pieces if p.art}
    assert len(named) == 30
    _, boxes, chars, curves, *_ = spies_counters[0]
    text, pictures = bucket(chars, boxes), bucket(curves, boxes, 0.0)
    drawn = {}
    for box in boxes:
        name = next((n for n in named if piece_text(text[box], box).startswith(n.replace(" ", ""))), None)
        if name:
            drawn[name] = pictures[box]
    assert set(drawn) == set(named) and all(drawn.values())


def test_each_svg_goes_into_the_pdf_once(spies, out):
    from pypdf import PdfReader

    forms = set()
    for page in PdfReader(out / "letter" / "spies" / "counters.pdf").pages:
        forms |= {str(n) for n in (page["/Resources"].get("/XObject") or {}) if str(n).startswith("/FormXob.picture")}
    assert len(forms) == len({p.art for p in spies.pieces if p.art})
