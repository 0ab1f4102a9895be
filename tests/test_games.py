"""The four other spy games built by the same products, measured in the PDFs `dossier build` writes.

Expected sizes are the ones each game's sources print or its data says it assumes (poker cards,
1/2 inch markers...), written here in millimetres; expected texts come from the game data.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from conftest import MM, columns_text, cut_boxes, delta_e, face_text, filled_boxes, grey, hex_of, mirrored, region, rgb, size_mm, squash, text_in

from generators.build import PRODUCTS
from generators.cli import main
from generators.core.cards import deck_cards
from generators.core.faces import faces
from generators.validation import load_game

TOL = 0.1  # mm
LETTER = (215.9, 279.4)
GAMES = ["spion-und-spion", "web-of-spies", "global-1936-spies", "special-action-tokens"]

# Cut outlines each game's counters.pdf must hold: (width, height) in mm -> how many.
OUTLINES = {
    "spion-und-spion": {(63.0, 88.0): 34,        # 22 Pass-Cards, 12 ZOFF cards
                        (19.05, 19.05): 24,      # 3/4 in: 16 spies, the GRAY SPY, 4 BAZONGs, 3 traps
                        (14.0, 14.0): 6,         # TRAP-B-GONE die faces
                        (40.0, 20.0): 60,        # ZILLION notes: 60 of 1
                        (63.0, 40.0): 12},       # 4 Hot-Envelopes (one a player), 4 traitor slips, 4 spare slips
    "web-of-spies": {(63.0, 88.0): 57,           # 28 Spy Cards, 12 other starting cards, 8 asset cards, 9 blank
                     (88.0, 125.0): 4,           # Player Mats
                     (12.7, 12.7): 23},          # 20 agents, 3 asset markers
    "global-1936-spies": {(12.7, 12.7): 27},     # 1/2 inch: one per power, two for Russia, three times (copies:)
    "special-action-tokens": {(19.05, 19.05): 6},  # three a player, as the rule gives them
}
# How many times each game's reference cards print (its layout's copies:): Global 1936's one card fills its sheet.
CARD_COPIES = {"spion-und-spion": 1, "web-of-spies": 4, "global-1936-spies": 9, "special-action-tokens": 2}


def card_sides(path: Path) -> tuple[list, str]:
    """The cards' cut boxes, and the text of every card's front and (mirrored) back, each read as one column."""
    with pdfplumber.open(path) as pdf:
        pages = list(pdf.pages)
        boxes = [b for page in pages[0::2] for b in cut_boxes(page)]
        regions = []
        for front, back in zip(pages[0::2], pages[1::2]):
            for x0, top, x1, bottom in cut_boxes(front):
                regions.append(region(front, (x0, top, x1, bottom)))
                regions.append(region(back, (back.width - x1, top, back.width - x0, bottom)))
    return boxes, "|".join(regions)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("games")
    for name in GAMES:  # every product by name: a game small enough for one sheet prints its counters and cards only so
        assert main(["build", "--game", name, "--out", str(out), "--only", ",".join(PRODUCTS)]) == 0
    return out


@pytest.fixture(scope="module")
def games() -> dict:
    """Each game's data, loaded and validated once for this module."""
    return {name: load_game(name) for name in GAMES}


@pytest.fixture(scope="module")
def card_texts(built) -> dict[str, tuple[list, str]]:
    """Per game: its cards.pdf read once, as card_sides gives it."""
    return {name: card_sides(built / name / "cards.pdf") for name in GAMES}


@pytest.fixture(scope="module")
def sheets(built):
    """Per game: each counters.pdf page as (width, height, cut boxes, filled boxes, page words by box)."""
    found = {}
    for name in GAMES:
        with pdfplumber.open(built / name / "counters.pdf") as pdf:
            pages = []
            for page in pdf.pages:
                cuts, fills, words = cut_boxes(page), filled_boxes(page), page.extract_words()
                pages.append((page.width, page.height, cuts, fills, {box: text_in(words, box) for box in cuts + fills}))
            found[name] = pages
    return found


# What each game prints beyond its counters, cards and player aid: its board, whole and tiled.
BOARDS = {"web-of-spies": ["map-tiles.pdf", "map.pdf"],
          "spion-und-spion": ["board-four-player-tiles.pdf", "board-four-player.pdf", "board-two-player-tiles.pdf", "board-two-player.pdf"]}


@pytest.mark.parametrize("name", GAMES)
def test_each_game_builds_counters_cards_a_player_aid_and_its_board_but_no_tiles(built, name):
    files = sorted(p.name for p in (built / name).iterdir() if not p.name.startswith("."))
    assert files == sorted(["cards.pdf", "counters.pdf", "player-aid.pdf", *BOARDS.get(name, [])])


@pytest.mark.parametrize("name", GAMES)
def test_every_page_is_letter(built, name):
    for product in ("counters", "cards", "player-aid"):
        with pdfplumber.open(built / name / f"{product}.pdf") as pdf:
            for page in pdf.pages:
                assert abs(page.width / MM - LETTER[0]) < 0.2 and abs(page.height / MM - LETTER[1]) < 0.2


@pytest.mark.parametrize("name", GAMES)
def test_piece_outlines_measure_as_the_game_asks(sheets, name):
    measured = Counter()
    for _, _, cuts, _, _ in sheets[name]:
        for box in cuts:
            width, height = size_mm(box)
            match = [s for s in OUTLINES[name] if abs(s[0] - width) <= TOL and abs(s[1] - height) <= TOL]
            assert match, f"{name}: an outline of {width:.2f} x {height:.2f} mm is no size this game uses"
            measured[match[0]] += 1
    assert measured == OUTLINES[name]


@pytest.mark.parametrize("name", GAMES)
def test_every_piece_is_printed_with_its_back_behind_it(sheets, games, name):
    game = games[name]
    expected_fronts = Counter()
    backs_of: dict[str, set[str]] = {}
    for piece in game.pieces:
        front, back = faces(game, piece)
        expected_fronts[face_text(front)] += piece.count * game.layout.copies.counters
        backs_of.setdefault(face_text(front), set()).add(face_text(back))
    printed = Counter()
    pages = sheets[name]
    for (width, _, fronts, _, texts), (_, _, _, back_fills, back_texts) in zip(pages[0::2], pages[1::2]):
        for x0, top, x1, bottom in fronts:
            text = texts[(x0, top, x1, bottom)]
            printed[text] += 1
            behind = [b for b in back_fills if all(abs(a - c) <= TOL * MM for a, c in zip(b, (width - x1, top, width - x0, bottom)))]
            assert behind, f"{name}: no back at the mirrored place of {text!r}"
            assert squash(back_texts[behind[0]]) in {squash(t) for t in backs_of[text]}  # small type may read letter by letter
    assert printed == expected_fronts


def test_marker_sizes_follow_the_command_line(tmp_path):
    assert main(["build", "--game", "global-1936-spies", "--out", str(tmp_path), "--only", "counters", "--piece-size", "16mm"]) == 0
    with pdfplumber.open(tmp_path / "global-1936-spies" / "counters.pdf") as pdf:
        sizes = {tuple(round(v, 1) for v in size_mm(b)) for b in cut_boxes(pdf.pages[0])}
    assert sizes == {(16.0, 16.0)}


@pytest.mark.parametrize("name", GAMES)
def test_every_reference_card_is_printed_whole_at_poker_size(card_texts, games, name):
    cards = deck_cards(games[name])  # a card kept for the player aid is not dealt
    assert cards
    boxes, text = card_texts[name]
    assert len(boxes) == sum(card.copies or CARD_COPIES[name] for card in cards)  # a card may give its own number
    for box in boxes:
        width, height = size_mm(box)
        assert abs(width - 63) <= TOL and abs(height - 88) <= TOL
    for card in cards:
        for _, side in card.sides():
            assert squash(side.title) in text
            for section in side.sections:
                assert squash(section.heading) in text
                for item in section.items:
                    assert squash(item.text) in text, f"{name} {card.id}: {item.text!r} not printed whole"


def test_pass_card_pile_on_the_card_lists_every_pass_card(card_texts):
    _, text = card_texts["spion-und-spion"]
    for name, count in {"FAHR": 3, "FLITZ": 2, "DUES": 1, "GAEHN": 1, "SCHECK": 1, "LECHZ": 1, "ANSICHTS": 1, "SCHLUCHZ": 1}.items():
        assert f"{name}×{count}:" in text


def test_mission_odds_on_the_card_agree_with_the_referee(card_texts, cli):
    _, text = card_texts["global-1936-spies"]
    for mission in ("diplomacy", "espionage", "assassinate", "double-agent", "reverse"):
        ruling = cli("referee", "--game", "global-1936-spies", "mission", "--mission", mission, "--json").json()
        faces_, _, die = ruling["chance"].partition("/")
        assert squash(f"{ruling['success']} on a D{die} ({faces_} in {die},") in text, mission


@pytest.mark.parametrize("name", GAMES)
def test_every_game_prints_folded_for_printers_without_duplex(tmp_path, name):
    assert main(["build", "--game", name, "--out", str(tmp_path), "--only", "counters", "--fold"]) == 0
    with pdfplumber.open(tmp_path / name / "counters.pdf") as pdf:
        fronts = sum(len(cut_boxes(page)) for page in pdf.pages)
    assert fronts == sum(OUTLINES[name].values())


def test_replacement_pieces_for_a_game_without_tiles(tmp_path):
    path = tmp_path / "lost.pdf"
    assert main(["replace", "FAHR", "--all", "--game", "spion-und-spion", "--out", str(path)]) == 0
    with pdfplumber.open(path) as pdf:
        boxes = cut_boxes(pdf.pages[0])
        words = Counter(w["text"] for w in pdf.pages[0].extract_words())
    assert [tuple(round(v) for v in size_mm(b)) for b in boxes] == [(63, 88), (63, 88)]  # the Black and the White FAHR
    assert words["FAHR"] == 2


def test_text_on_card_sized_pieces_stops_growing_at_the_layouts_largest_size(built):
    """A Pass-Card's text reads as a sentence on one line, not as a poster: sizes capped by max_piece_text."""
    layout_max = {"title": 16.0, "text": 11.0}
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        words = [w for page in pdf.pages for w in page.extract_words(extra_attrs=["size"])]
    fahr = [w for w in words if w["text"] == "FAHR"]
    assert fahr and all(w["size"] <= layout_max["title"] + 0.01 for w in fahr)
    advance = [w for w in words if w["text"] == "Advance"]
    assert advance and all(w["size"] <= layout_max["text"] + 0.01 for w in advance)
    for word in advance:  # "Advance N spaces." stays on the word's own line
        same_line = [w["text"] for w in words if abs(w["top"] - word["top"]) < 0.5 and 0 < w["x0"] - word["x1"] < 60]
        assert "spaces." in same_line


def test_the_60_zillion_are_60_notes_of_1_so_every_payment_is_exact(built):
    """"1 Bunch of Money: 60 ZILLION!" and "there is no change!": as notes of 1 every rate is paid exactly, whether
    the line says the rates never change or that no change is given; the cards say so, unmarked."""
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        notes = [text_in(page.extract_words(), box) for page in pdf.pages[::2] for box in cut_boxes(page)]
    notes = [text for text in notes if "ZILLION Spion" in text]
    assert len(notes) == 60 and set(notes) == {"1 ZILLION Spion & Spion"}, (len(notes), set(notes))
    with pdfplumber.open(built / "spion-und-spion" / "cards.pdf") as pdf:
        text = squash(" ".join(page.extract_text() for page in pdf.pages))
    assert squash("There is no change: every note is 1 ZILLION,") in text  # the line wraps; the cards stand side by side
    assert "makeschange" not in text


def test_the_froehn_cards_mark_only_the_reading_not_the_rule_that_a_wrong_guess_is_out(built):
    """The rulebook says plainly that a wrong FROEHN puts you out of the game; only where the exposed spy's
    replacement stands is this edition's reading, so the mark goes there and not on the line that says so."""
    with pdfplumber.open(built / "spion-und-spion" / "cards.pdf") as pdf:
        cards = [text_in(page.extract_words(), box) for page in pdf.pages for box in cut_boxes(page)]
    exposing = [text for text in cards if "Exposing" in text]
    assert exposing
    for text in exposing:
        assert "stands where it stood. *" in text and "you are out of the game." in text, text
        assert text.count("*") == 2, text  # the reading's mark and the footer that says what it means


def test_web_of_spies_agents_and_asset_markers_print_25_grey_levels_apart(built):
    """On a mono print an agent's agency and an asset marker are told apart by their fill's grey (ITU-R 601),
    read off the counter sheet: a fill holding the word AGENT is its agency's, one holding ASSET a marker's (the
    markers' near-black backs print as outlines on white paper, and are left out)."""
    greys: dict[str, set[int]] = {}
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        for page in pdf.pages:
            words = page.extract_words()
            for rect in (r for r in page.rects if r["fill"] and not r["stroke"] and r["width"] < 20 * 72 / 25.4):
                inside = text_in(words, (rect["x0"], rect["top"], rect["x1"], rect["bottom"])).split()
                r, g, b = (round(v * 255) for v in rect["non_stroking_color"])
                if ("AGENT" in inside or "ASSET" in inside) and (r, g, b) != (255, 255, 255):
                    name = " ".join(inside[1:]) if "AGENT" in inside else "ASSET"
                    greys.setdefault(name, set()).add(round(0.299 * r + 0.587 * g + 0.114 * b))
    assert len(greys) == 5, greys  # four agencies and the markers
    levels = sorted((min(v), name) for name, v in greys.items())
    assert all(len(v) == 1 for v in greys.values()), greys
    assert min(b[0] - a[0] for a, b in zip(levels, levels[1:])) >= 25, levels


def test_special_action_backs_keep_their_words_clear_of_the_edges(built):
    """"SPECIAL ACTION" is set with room to spare inside the token: at least 2.5 mm from each side of the cut."""
    with pdfplumber.open(built / "special-action-tokens" / "counters.pdf") as pdf:
        page = pdf.pages[1]  # the backs: each token's face is its filled square (no bleed by default)
        boxes = filled_boxes(page)
        words = [w for w in page.extract_words() if w["text"] == "SPECIAL"]
    assert words
    for word in words:
        x0, _, x1, _ = next(b for b in boxes if b[0] <= word["x0"] and word["x1"] <= b[2] and b[1] <= word["top"] <= b[3])
        assert min(word["x0"] - x0, x1 - word["x1"]) >= 2.5 * MM, word


def test_the_house_rules_markers_have_a_double_agent_side_with_nothing_near_the_cut(built, games):
    """The rule turns spies into Double Agents and back: each marker's back is that side, solid in the colour of
    its front's ring, with no frame inside its edge to show a duplex shift."""
    with pdfplumber.open(built / "global-1936-spies" / "counters.pdf") as pdf:
        back = pdf.pages[1]
        text = " ".join(back.extract_text().split())
        inset = [r for r in back.rects if r["fill"] and r["width"] < 12.6 * MM]
    markers = [p for p in games["global-1936-spies"].pieces if p.kind == "spy-marker"]
    copies = games["global-1936-spies"].layout.copies.counters
    assert text.count("DOUBLE") == sum(p.count for p in markers) * copies
    assert not inset, inset[:2]


# Web of Spies' cards and mats ----------------------------------------------------------------------

def _card_fronts(built, game, kind: str) -> list[tuple[object, tuple, list, list]]:
    """(piece, cut box, the filled squares and the circles inside it) for every front of `kind`'s pieces."""
    names = {p.name for p in game.pieces if p.kind == kind}
    found = []
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        for page in pdf.pages[0::2]:
            words = page.extract_words()
            for box in cut_boxes(page):
                x0, top, x1, bottom = box
                text = text_in(words, box)
                piece = next((p for p in game.pieces if p.kind == kind and p.name in names and text.startswith(p.name)), None)
                if piece is None:
                    continue
                squares = [r for r in page.rects if r["fill"] and x0 < r["x0"] and r["x1"] < x1 and top < r["top"] and r["bottom"] < bottom
                           and abs(r["width"] - r["height"]) < 0.1 and r["width"] > 5 * MM]
                rings = [c for c in page.curves if c["stroke"] and x0 < c["x0"] and c["x1"] < x1 and top < c["top"] and c["bottom"] < bottom
                         and abs(c["width"] - c["height"]) < 0.2 and c["width"] > 5 * MM]
                found.append((piece, box, squares, rings))
    return found


def test_every_asset_card_has_its_cost_ring_in_the_upper_right_corner(built, games):
    """Anatomy of an Asset Card: the cost sits in the upper right corner; a card whose cost the rulebook
    does not print gets the ring empty, to write in. The ring keeps 3 mm inside the cut (1.3 mm once), so a cut a
    little inside the line leaves it whole."""
    fronts = _card_fronts(built, games["web-of-spies"], "asset-card")
    assert len(fronts) == 8
    for piece, (x0, top, x1, bottom), _, rings in fronts:
        assert len(rings) == 1, piece.name
        ring = rings[0]
        assert x1 - ring["x1"] < 4 * MM and ring["top"] - top < 4 * MM, (piece.name, ring["x1"], ring["top"])
        assert x1 - ring["x1"] >= 2.9 * MM and ring["top"] - top >= 2.9 * MM, (piece.name, ring["x1"], ring["top"])
        assert ring["x0"] > (x0 + x1) / 2 and ring["bottom"] < top + (bottom - top) / 4


def test_attack_and_defend_print_as_solid_tabs_and_combat_symbols_do_not(built, games):
    """A card's marks (Attack, Defend, Sabotage) are solid squares of ink; its combat symbols are not,
    so the two kinds of symbol never look alike."""
    for kind in ("asset-card", "starting-card"):
        for piece, _, squares, _ in _card_fronts(built, games["web-of-spies"], kind):
            assert len(squares) == len(piece.marks or ()), (piece.name, len(squares))


def test_the_mats_backs_are_the_symbol_key(built):
    """The mats' page is not printed blank on its back: each mat's back names every symbol a card shows."""
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        fronts, back = pdf.pages[0].extract_text(), " ".join(pdf.pages[1].extract_text().split())
    assert "Agency" in fronts
    for name in ("Symbol key", "Attack", "Defend", "Sabotage", "Surveillance", "Information", "Violence"):
        assert back.count(name) == 4, name


def test_every_card_a_deck_can_hold_has_one_back(built, games):
    """Bought assets join a player's deck and discards go face down "to preserve secrecy": a Spy Card, a
    Starting Card and an Asset Card must look alike from behind, or the backs tell how many assets a hand holds."""
    card = games["web-of-spies"].layout.size("card")
    backs = set()
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            for x0, top, x1, bottom in cut_boxes(front):
                if abs((x1 - x0) - card.width * MM) > 0.5 or abs((bottom - top) - card.height * MM) > 0.5:
                    continue  # mats, agents and markers are not cards
                mirrored = (back.width - x1, top, back.width - x0, bottom)
                fills = {tuple(r["non_stroking_color"]) for r in back.rects if r["fill"]
                         and abs(r["x0"] - mirrored[0]) < 3 and abs(r["top"] - top) < 3 and r["width"] > card.width * MM / 2}
                backs.add((region(back, mirrored), frozenset(fills)))
    assert len(backs) == 1, backs


def test_the_aid_carries_the_symbol_key_the_mats_have_face_down(built):
    """The mats' backs hold the Symbol Key, but a mat lies face up in play: the aid a player keeps at hand
    names every symbol too, and points to its own Combat section, not to another product."""
    with pdfplumber.open(built / "web-of-spies" / "player-aid.pdf") as pdf:
        text = " ".join(" ".join(page.extract_text().split()) for page in pdf.pages)
    key = text[text.index("Symbol key"):]
    for name in ("Attack", "Defend", "Sabotage", "Surveillance", "Information", "Violence"):
        assert name in key, name
    assert "Combat card" not in text


def test_spy_cards_say_what_they_do(built, games):
    """A Spy Card carries no symbol or ability in the rulebook, but any card moves an agent or pays toward an
    asset when discarded: that is what its face says, not a bare title."""
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        text = "|".join(region(page, box) for page in pdf.pages[2::2] for box in cut_boxes(page))
    assert text.count(squash("discard face down to move one agent 1 space")) == 28
    assert "rulebook" not in text  # the note about blanks is said once, on the mats' backs, not per card


def test_the_aid_says_how_agents_are_placed(built):
    """Setup Step 2: the roll for the starting player and one agency to a region."""
    with pdfplumber.open(built / "web-of-spies" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        thirds = [page.crop((page.width * i / 3, 0, page.width * (i + 1) / 3, page.height)) for i in range(3)]
        text = "".join(squash(column.extract_text()) for column in thirds)
    assert squash("the highest roll starts") in text
    assert squash("one agency per region") in text


def test_the_caption_names_the_reference_cards_printed_twice(built):
    """Spion & Spion prints the three cards asked every turn twice, one for each side of the table, filling its
    sheet; the caption says which, by their numbers."""
    with pdfplumber.open(built / "spion-und-spion" / "cards.pdf") as pdf:
        assert len(cut_boxes(pdf.pages[0])) == 9
        text = squash(pdf.pages[0].extract_text())
    assert squash("2 copies of cards 2, 3 and 4") in text + text[::-1]  # the turn, the rates and ZOFF


def test_the_blank_asset_cards_print_on_a_sheet_of_their_own_to_print_again(built):
    """60 asset cards are to be written (Asset Cards): their sheet holds nothing else, so printing it again
    gives more blanks and no second set of agents or named assets; its caption says how many times covers the 60
    and how to fill a card in, once, where each card once repeated it."""
    def text_of(page) -> str:
        text = squash(page.extract_text())
        return text + text[::-1]  # the caption runs up the margin

    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        blank = [text_of(page) for page in pdf.pages[::2] if "60*towrite:printthissheet" in text_of(page)]
    assert len(blank) == 1
    text = blank[0]
    cards = text[:len(text) // 2].count("Ability:")
    times = int(re.search(r"printthissheet(\d+)times", text).group(1))
    assert cards == 9 and cards * times >= 60 > cards * (times - 1)
    assert text.count(squash("ink over its symbols and tabs")) == 1
    assert squash("Spy Card") not in text and "AGENT" not in text and "Shotgun" not in text


# Spion & Spion's pieces ------------------------------------------------------------------------------

def _darkness(page, box, dpi: int = 50) -> float:
    """The share of ink inside `box` (pt) of a pdfplumber page, 0 for white paper and 1 for solid black."""
    x0, top, x1, bottom = box
    image = page.crop((x0 + 1, top + 1, x1 - 1, bottom - 1)).to_image(resolution=dpi).original.convert("L")
    pixels = image.tobytes()  # one byte a pixel in mode L
    return 1 - sum(pixels) / (255 * len(pixels))


def test_the_die_faces_backs_print_no_ink(built, games):
    """A die face is stuck on a die: nothing prints behind it (its back was solid trap yellow, ink wasted and
    wrong on sticker stock)."""
    game = games["spion-und-spion"]
    names = {p.name for p in game.pieces if p.kind == "die-face"}  # the traps' names too: told apart by size
    side = game.layout.size("die-face")
    checked = 0
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            words = front.extract_words()
            for box in cut_boxes(front):
                if text_in(words, box) in names and all(abs(a - b) < 0.1 for a, b in zip(size_mm(box), (side.width, side.height))):
                    assert _darkness(back, mirrored(box, front.width)) < 0.01, text_in(words, box)
                    checked += 1
    assert checked == 6


def test_the_pieces_fill_their_sheets(built):
    """Six Letter sheets hold every piece, and each sheet is at least 60 % pieces (seven, three half empty, before)."""
    area = (LETTER[0] - 14) * (LETTER[1] - 14)  # inside the 7 mm sheet margin
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        used = [sum((x1 - x0) * (bottom - top) for x0, top, x1, bottom in cut_boxes(page)) / MM ** 2 / area
                for page in pdf.pages[0::2]]
    assert len(used) <= 6, len(used)
    assert min(used) >= 0.6, [round(u, 2) for u in used]


def _card_name(text: str) -> str:
    """A card's name as its front reads: its first word, after the spaces a moving Pass-Card shows in its corner."""
    words = text.split(" ")
    return words[1] if len(words) > 1 and words[0].isdigit() else words[0]


def _spion_fronts(built):
    """(page, cut box, the text inside it) for every piece front on Spion & Spion's sheets."""
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages[0::2]:
            words = page.extract_words()
            for box in cut_boxes(page):
                yield page, box, text_in(words, box)


def test_traitor_slips_and_pass_cards_are_light_enough_to_write_on_and_print(built, games):
    """A FROEHN slip is paper to write a number on: white, its type at most a fifth ink. A BLACK Pass-Card's front
    is a black frame on white, at most half ink (it was solid black, 63 x 88 mm of toner a card)."""
    pass_cards = {p.name for p in games["spion-und-spion"].pieces if p.kind == "pass-card"}
    slips = cards = 0
    for page, box, text in _spion_fronts(built):
        if text.startswith("FROEHN"):
            slips += 1
            assert _darkness(page, box) < 0.2, text
        elif _card_name(text) in pass_cards:
            cards += 1
            assert _darkness(page, box) < 0.5, text
    assert (slips, cards) == (8, 22)  # a slip for each colour and 4 spare


def test_white_blue_keeps_clear_of_its_frame(built):
    """Every word on a ringed piece keeps at least 0.5 mm inside the ring (the layout asks 0.8 mm)."""
    checked = 0
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages[0::2]:
            words = page.extract_words()
            cuts = cut_boxes(page)
            fills = [r for r in page.rects if r["fill"] and not r["stroke"]]
            for x0, top, x1, bottom in cuts:
                inner = [r for r in fills if x0 < r["x0"] - 0.5 and r["x1"] + 0.5 < x1 and top < r["top"] - 0.5 and r["bottom"] + 0.5 < bottom
                         and r["width"] > 0.6 * (x1 - x0)]
                if not inner:
                    continue
                ring = max(inner, key=lambda r: r["width"])
                for word in (w for w in words if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom):
                    checked += 1
                    room = min(word["x0"] - ring["x0"], ring["x1"] - word["x1"])
                    assert room >= 0.5 * MM, (word["text"], round(room / MM, 2))
    assert checked >= 8


def test_traps_and_die_faces_show_their_pictures(built, games):
    """Snake, Magnet and Bottle are drawn, on the traps and on the TRAP-B-GONE die faces alike."""
    names = {"Snake", "Magnet", "Bottle"}
    shown = Counter()
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages[0::2]:
            words = page.extract_words()
            for box in cut_boxes(page):
                text = text_in(words, box)
                if text in names:
                    x0, top, x1, bottom = box
                    drawn = [c for c in page.curves if x0 <= c["x0"] and c["x1"] <= x1 and top <= c["top"] and c["bottom"] <= bottom]
                    assert drawn, text
                    shown[text] += 1
    assert shown == {name: 3 for name in names}  # one trap and two die faces each


def test_a_spys_number_stays_whole_under_a_2_mm_duplex_shift(built, games):
    """The number under a spy keeps at least 3.5 mm from the cut (2 mm of shift and the 1.5 mm safe zone)."""
    numbers = {p.name for p in games["spion-und-spion"].pieces if p.kind == "spy"}
    side = games["spion-und-spion"].layout.size("counter").width
    found = 0
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            chars = back.chars
            for x0, top, x1, bottom in cut_boxes(front):
                if abs((x1 - x0) / MM - side) > 0.1:
                    continue
                bx0, bx1 = back.width - x1, back.width - x0
                inside = [c for c in chars if bx0 <= c["x0"] and c["x1"] <= bx1 and top <= c["top"] and c["bottom"] <= bottom]
                if len(inside) == 1 and inside[0]["text"] in numbers:
                    found += 1
                    c = inside[0]
                    room = min(c["x0"] - bx0, bx1 - c["x1"], c["top"] - top, bottom - c["bottom"])
                    assert room >= 3.4 * MM, round(room / MM, 2)
    assert found == 12
    # and the room the number is set in, whatever size the sheet's backs take
    from generators.printing.counters import FacePainter
    from generators.printing.fonts import piece_fonts

    game = games["spion-und-spion"]
    painter = FacePainter(game, piece_fonts(game.layout.fonts, game.folder))
    box = painter.arrangement("spy", "back", (side, side)).boxes["title"]
    assert min(box.x, box.y, side - box.x - box.width, side - box.y - box.height) >= 3.5 - 1e-6, box


def test_every_spion_card_face_leaves_room_above_its_footer(built):
    """The ZOFF card once ran to its footer while others were half empty: every face's last line of text keeps at
    least 8 mm above the footer, and the fullest front and the emptiest differ by at most 8 mm."""
    gaps = []
    with pdfplumber.open(built / "spion-und-spion" / "cards.pdf") as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2]):
            for x0, top, x1, bottom in cut_boxes(front):
                for page, (left, right) in ((front, (x0, x1)), (back, (back.width - x1, back.width - x0))):
                    words = [w for w in page.extract_words(extra_attrs=["size"])
                             if left <= w["x0"] and w["x1"] <= right and top <= w["top"] and w["bottom"] <= bottom]
                    if not words:  # a card with nothing on its back
                        continue
                    footer = max(w["size"] for w in words if w["top"] > top + 70 * MM and w["size"] < 7.5)
                    foot = min(w["top"] for w in words if w["size"] == footer and w["top"] > top + 70 * MM)
                    text = max(w["bottom"] for w in words if w["bottom"] < foot - 0.5)
                    gaps.append(((foot - text) / MM, page is front))
    fronts = [gap for gap, is_front in gaps if is_front]
    assert len(gaps) >= 11 and min(g for g, _ in gaps) >= 8 and max(fronts) - min(fronts) <= 8, [round(g, 1) for g, _ in gaps]


def test_the_traitors_number_is_written_everywhere_never_circled(built, card_texts):
    """THE HOT ENVELOPE: "Write down a Number from 1 to 3 and a Letter". The Preparation card once said to circle it,
    the traitor card to write it: cards, aid, slips and boards all say write."""
    _, cards = card_texts["spion-und-spion"]
    texts = {"cards": cards}
    for product in ("player-aid", "counters", "board-four-player", "board-two-player"):
        with pdfplumber.open(built / "spion-und-spion" / f"{product}.pdf") as pdf:
            texts[product] = squash(" ".join(page.extract_text() or "" for page in pdf.pages))
    for product, text in texts.items():
        assert "circle" not in text.lower(), product
        assert "write" in text.lower(), product
    assert texts["cards"].count(squash("Write the traitor's number (1 to 3) and your enemy's letter")) == 1
    assert texts["cards"].count(squash("write the traitor's number (1 to 3) and your enemy's letter")) == 1


def test_the_zoff_cards_when_is_tagged_with_the_zoff_rule_alone(card_texts):
    """Who attacks is the ZOFF section's; passing over an enemy (said at the end of Pass Cards) is on the turn card."""
    _, cards = card_texts["spion-und-spion"]
    zoff = next(face for face in cards.split("|") if face.startswith("ZOFF"))
    assert squash("When § ZOFF") in zoff and "§PassCards" not in zoff
    assert squash("passing over an enemy does nothing") in cards


def test_preparation_is_on_the_aid_and_the_cards(built, card_texts):
    """PREPARATION: two spies in the embassy, one in prison, the BAZONG on the embassy, 10 ZILLION each."""
    with pdfplumber.open(built / "spion-und-spion" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        thirds = [page.crop((page.width * i / 3, 0, page.width * (i + 1) / 3, page.height)) for i in range(3)]
        aid = "".join(squash(column.extract_text()) for column in thirds)
    _, cards = card_texts["spion-und-spion"]
    for text in (aid, cards):
        assert squash("Preparation") in text
        assert squash("two in your embassy, one in your prison in the middle") in text
        assert squash("Your BAZONG on your embassy and 10 ZILLIONS") in text


# The house rule's markers and the Special Action tokens ---------------------------------------------

def test_the_house_rules_markers_are_told_apart_by_a_ring_in_the_powers_colour(built, games):
    """All nine fronts are black acrylic; each power's ring differs from every other's by delta E >= 15."""

    rings: dict[str, set[str]] = {}
    with pdfplumber.open(built / "global-1936-spies" / "counters.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        for x0, top, x1, bottom in cut_boxes(page):
            power = text_in(words, (x0, top, x1, bottom))
            outer = [r for r in page.rects if r["fill"] and not r["stroke"] and abs(r["x0"] - x0) < 0.5 and abs(r["top"] - top) < 0.5
                     and abs(r["width"] - (x1 - x0)) < 0.5]
            assert outer, power
            rings.setdefault(power, set()).add(hex_of(outer[0]["non_stroking_color"]))
    powers = {game_power.name for game_power in games["global-1936-spies"].info.factions}
    assert set(rings) == powers and all(len(c) == 1 for c in rings.values()), rings
    colours = [next(iter(c)) for c in rings.values()]
    assert "#000000" not in colours
    assert min(delta_e(a, b) for i, a in enumerate(colours) for b in colours[i + 1:]) >= 15, rings


def test_the_special_action_sheets_say_which_game_they_serve(built):
    """The source names no base game; every sheet says what the rule shows of it (hidden Spies, a Briefcase)."""
    for product in ("counters", "cards", "player-aid"):
        with pdfplumber.open(built / "special-action-tokens" / f"{product}.pdf") as pdf:
            for page in pdf.pages:
                assert "Briefcase" in " ".join(page.extract_text().split()), (product, page.page_number)


def test_zoff_cards_are_framed_not_solid(built):
    """Every ZOFF card's front is at most half ink (the Black and Black-Red ones were solid black) and still says
    ZOFF, its colour and its plan's letter."""
    fronts = 0
    for page, box, text in _spion_fronts(built):
        if text.startswith("ZOFF"):
            fronts += 1
            assert _darkness(page, box) < 0.5, text
            assert text.split(" ")[-1] in ("A", "B", "C"), text
    assert fronts == 12


def test_no_piece_prints_an_assumption(built, games):
    """The Ingredients list 3 Hot-Envelopes and 4 are printed: the data says why (`assumed`), the pieces do not
    (they once read "(assumed: the box lists 3)")."""
    envelope = next(p for p in games["spion-und-spion"].pieces if p.kind == "hot-envelope")
    assert "count" in envelope.assumed
    texts = [text for _, _, text in _spion_fronts(built)]
    assert sum(t.startswith("HOT-ENVELOPE") for t in texts) == 4
    assert not [t for t in texts if "assumed" in t.lower()]


def test_each_hot_envelope_folds_in_half_over_its_slip(built):
    """THE HOT ENVELOPE hides the slip in an envelope: each Hot-Envelope is set in its upper half, a dashed fold line
    across its middle, so folded it holds a slip and shows its name and its owner's colour, so the four face down by
    the board are told apart unopened. It folds back, the slip between its blank halves and its printed side out: it
    once said to fold the printed half down over the slip, which hid the name inside."""
    folds, owners = 0, set()
    for page, box, text in _spion_fronts(built):
        if not text.startswith("HOT-ENVELOPE"):
            continue
        owners.add(text.split()[2])
        x0, top, x1, bottom = box
        middle = (top + bottom) / 2
        across = [line for line in page.lines if abs(line["top"] - middle) < 0.2 and x0 - 0.5 <= line["x0"]
                  and line["x1"] <= x1 + 0.5 and line["x1"] - line["x0"] > 0.8 * (x1 - x0)]
        assert across and all(line["dash"] and line["dash"][0] for line in across), text  # dashed: a fold, not a cut
        words = [w for w in page.extract_words() if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom]
        assert words and all(w["bottom"] < middle - 1 for w in words), text
        assert squash("Fold this card back") in squash(text) and squash("this side out") in squash(text), text
        folds += 1
    assert folds == 4 and owners == {"BLACK", "WHITE", "BLACK-RED", "WHITE-BLUE"}, owners


def test_pass_cards_name_their_pile_in_a_thin_frame(built, games):
    """A Pass-Card's front says which pile it belongs to (BLACK or WHITE), below its name and smaller; a BLACK card's
    frame is at most 1.2 mm (it was 2.4 mm, the text close against it)."""
    names = {p.name for p in games["spion-und-spion"].pieces if p.kind == "pass-card"}
    piles = Counter()
    for page, box, text in _spion_fronts(built):
        if _card_name(text) not in names:
            continue
        x0, top, x1, bottom = box
        words = [w for w in page.extract_words(extra_attrs=["size"]) if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom]
        pile = next((w for w in words if w["text"] in ("BLACK", "WHITE")), words[-1])
        title = next(w for w in words if not w["text"].isdigit())
        assert pile["text"] in ("BLACK", "WHITE") and pile["size"] < title["size"], text
        piles[pile["text"]] += 1
        frames = [r for r in page.rects if r["fill"] and abs(r["x0"] - x0) < 0.5 and abs(r["top"] - top) < 0.5]
        inner = [r for r in page.rects if r["fill"] and x0 + 0.1 < r["x0"] < x0 + 5 * MM and top + 0.1 < r["top"] < top + 5 * MM]
        if pile["text"] == "BLACK":
            assert frames and inner and (inner[0]["x0"] - x0) <= 1.2 * MM, text
    assert piles == {"BLACK": 11, "WHITE": 11}


def test_spare_froehn_slips_are_printed_blank(built):
    """The rulebook asks for some small blank sheets of paper besides: four spare slips, their colour and letter to be
    written, each ruled."""
    spare = 0
    for page, box, text in _spion_fronts(built):
        if text.startswith("FROEHN") and not text.startswith("FROEHN ·"):
            x0, top, x1, bottom = box
            assert [e for e in page.edges if e["orientation"] == "h" and x0 < e["x0"] < x1 and top < e["top"] < bottom], text
            spare += 1
    assert spare == 4


def test_the_spies_colour_reads_at_8_pt(built):
    """A spy's front names its colour at 8 pt or more (6.6 pt on 5/8 inch counters), and its team's letter larger
    still, so Black and Black-Red, White and White-Blue stay apart on a mono print."""
    sizes, letters = Counter(), Counter()
    codes = {f.name.upper(): f.code for f in load_game("spion-und-spion").info.factions}
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages[0::2]:
            words = page.extract_words(extra_attrs=["size"])
            for x0, top, x1, bottom in cut_boxes(page):
                inside = [w for w in words if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] and w["bottom"] <= bottom]
                if inside and inside[0]["text"] in codes and [w["text"] for w in inside][1:2] == ["SPY"]:
                    sizes[round(inside[0]["size"], 2)] += 1
                    assert [w["text"] for w in inside][2:] == [codes[inside[0]["text"]]]
                    letters[inside[2]["size"] > inside[0]["size"]] += 1
    assert sum(sizes.values()) == 16 and min(sizes) >= 8, sizes
    assert letters == {True: 16}


def test_web_of_spies_regions_print_20_grey_levels_apart_and_24_from_the_sea(built, games):
    """The white die picks a region: on a mono print each region's land (as the poster prints it) keeps 20 grey
    levels (ITU-R 601, whole levels) from every other region's and 24 from the sea."""
    game = games["web-of-spies"]
    layout = game.layout

    with pdfplumber.open(built / "web-of-spies" / "map.pdf") as pdf:
        page = pdf.pages[0]
        printed = {tuple(round(v, 3) for v in o["non_stroking_color"]) for o in page.curves + page.rects
                   if o.get("fill") and isinstance(o.get("non_stroking_color"), (tuple, list))
                   and len(o["non_stroking_color"]) == 3 and (o["x1"] - o["x0"]) * (o["bottom"] - o["top"]) > 2000}
    fills = [layout.colour(region.colour).fill for region in game.map.regions]
    assert all(rgb(fill) in printed for fill in fills)  # the layout's colours, as printed
    region_greys = sorted(round(grey(fill)) for fill in fills)
    sea_grey = round(grey(layout.colour("map-sea").fill))
    assert all(b - a >= 20 for a, b in zip(region_greys, region_greys[1:])), region_greys
    assert sea_grey - max(region_greys) >= 24


def test_web_of_spies_symbols_read_rather_than_given_print_marked_and_the_aid_says_so(built, games):
    """Every card whose combat symbols or tabs are this edition's reading (an `assumed` icons or marks) carries a *
    beside them; a card whose symbols are all given, or which has none, carries none; the aid says what it means."""
    game = games["web-of-spies"]
    read = sum(p.count for p in game.pieces if {"icons", "marks"} & set(p.assumed or {}))
    kinds_read = sum(p.count for p in game.pieces if "kind" in (p.assumed or {}))  # its name marked: an agency as an asset
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        caption = game.layout.caption.size
        stars = sum(1 for page in pdf.pages for c in page.chars  # on the faces, not in the captions and their notes
                    if c["text"] == "*" and c["upright"] and abs(c["size"] - caption) > 0.01)
    with pdfplumber.open(built / "web-of-spies" / "player-aid.pdf") as pdf:
        aid = "".join(columns_text(pdf.pages[0])).replace("•", "")  # column by column, so lines do not interleave
    assert read == 12 and kinds_read == 2 and stars == read + kinds_read
    assert squash("A * after a card's symbols: this edition's reading") in aid
    assert squash("The asset deck: 80 Asset Cards less the 12* dealt as Starting Cards, so 68*. This set prints 8 of them") in aid


def _squashed_text(pdf_path: Path) -> str:
    """A PDF's words, column by column and page by page, squashed (see squash)."""
    with pdfplumber.open(pdf_path) as pdf:
        return squash("".join("".join(columns_text(page)) for page in pdf.pages))


def test_the_single_region_variant_keeps_assets_out_of_the_agents_region_only_at_the_start(built):
    """Setup Variants: assets cannot start the game in the region, so one rolled there is rolled again; later in the
    game an asset may land there (the referee's place-asset rules so too). The card and the aid once dropped "at the
    start", which bans the region all game."""
    for product in ("cards.pdf", "player-aid.pdf"):
        text = _squashed_text(built / "web-of-spies" / product)
        rule = text[text.index(squash("Single Region:")):][:160]
        assert squash("at the start") in rule, (product, rule)


def test_each_moving_pass_card_shows_its_spaces_large_in_its_corner_and_no_other_card_has_a_ring(built, games):
    """FAHR, FLITZ and DUES share the runner's picture: each prints its spaces (2, 3, 4) in a ring in its top-right
    corner, larger than its line of text; GAEHN, SCHECK and the rest carry no ring, as nothing goes in one."""
    from generators.printing.counters import corner_diameter

    game = games["spion-und-spion"]
    moving = {p.name: p.value for p in game.pieces if p.kind == "pass-card" and p.value is not None}
    assert moving == {"FAHR": 2, "FLITZ": 3, "DUES": 4}
    card = game.layout.size("card")
    ring = corner_diameter((card.width, card.height)) * MM
    seen = Counter()
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages:
            words = page.extract_words()
            rings = [c for c in page.curves if abs(c["width"] - ring) < 0.5 and abs(c["height"] - ring) < 0.5]
            for box in cut_boxes(page):
                name = next((w["text"] for w in words if (w["text"] in moving or w["text"] in {"GAEHN", "SCHECK", "LECHZ"})
                             and box[0] <= w["x0"] <= box[2] and box[1] <= w["top"] <= box[3]), None)
                if name is None:
                    continue
                inside = [c for c in rings if box[0] < c["x0"] and c["x1"] < box[2] and box[1] < c["top"] and c["bottom"] < box[3]]
                chars = [c for c in page.chars if box[0] <= c["x0"] <= box[2] and box[1] <= c["top"] <= box[3]]
                if name in moving:
                    (circle,) = inside
                    digits = [c for c in chars if c["text"] == str(moving[name]) and circle["x0"] < c["x0"] < circle["x1"]
                              and circle["top"] < c["top"] < circle["bottom"]]
                    body = max(c["size"] for c in chars if c["text"] == "v")  # the v of "Advance n spaces."
                    assert digits and digits[0]["size"] > body, name
                else:
                    assert not inside, name
                seen[name] += 1
    assert seen["FAHR"] == 6 and seen["DUES"] == 2 and seen["GAEHN"] == 2


def test_the_special_action_aid_reads_each_token_before_what_two_of_them_share(built):
    """The limits Move 2 and Swap 2 share once came before either token's own entry: the aid now reads Move 2, Swap 2,
    then what holds for both."""
    for product, column in (("player-aid.pdf", 150), ("cards.pdf", 1000)):  # the aid's three columns; a card's one
        with pdfplumber.open(built / "special-action-tokens" / product) as pdf:
            words = [w for page in pdf.pages for w in page.extract_words()]

        def where(first: str, then: str) -> tuple[float, float]:  # (column, line) of the first copy's phrase
            w = next(w for w, after in zip(words, words[1:]) if w["text"] == first and after["text"] == then)
            return w["x0"] // column, w["top"]

        move, swap, both = where("Attempt", "moves"), where("Swap", "two"), where("Only", "spies")
        assert move < swap < both, (product, move, swap, both)


def test_the_sheet_of_spies_says_to_print_them_on_card_so_no_number_shows_through(built):
    """A spy's number is printed on its back, under a white or white-blue front that plain paper lets it show
    through: the sheet holding the spies says to print them on card stock or glue them to card."""
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        sheets = [squash(page.extract_text()) for page in pdf.pages[0::2] if "WHITE-BLUE" in page.extract_text()
                  and any(w["text"] == "SPY" for w in page.extract_words())]
    assert sheets and all(squash("print the spies on card stock, or glue them to card") in text for text in sheets)


def test_an_acquired_asset_is_looked_at_before_it_goes_face_down_on_the_card_and_the_aid(built):
    """Acquire Action: look at the asset, then put it face down on your discard pile (the Secret Asset is bought
    unseen); the card and the aid left out the look."""
    for product in ("cards.pdf", "player-aid.pdf"):
        text = _squashed_text(built / "web-of-spies" / product)
        assert squash("look at it and put it face down on your discard pile") in text, product


def test_a_card_with_a_star_says_what_it_means_on_the_card_itself(built):
    """Once cut out, a reference card's * no longer has the sheet's caption beside it: each face whose text carries a
    * says in its footer that it marks this edition's reading, and a face without one does not."""
    starred = plain = 0
    with pdfplumber.open(built / "spion-und-spion" / "cards.pdf") as pdf:
        for page in pdf.pages:
            words = page.extract_words()
            for box in cut_boxes(page):
                inside = [w for w in words if box[0] <= w["x0"] and w["x1"] <= box[2] and box[1] <= w["top"] and w["bottom"] <= box[3]]
                if not inside:
                    continue
                last = max(w["top"] for w in inside)
                footer = " ".join(w["text"] for w in inside if w["top"] > last - 1)
                marked = any("*" in w["text"] for w in inside if w["top"] <= last - 1)
                assert ("this edition's reading" in footer) == marked, footer
                starred, plain = starred + marked, plain + (not marked)
    assert starred and plain


def test_the_symbol_keys_tabs_are_marked_as_this_editions_reading(built):
    """The rulebook's Symbol Key names Attack, Defend and Sabotage but does not show them: the card's key says they
    are tabs on the card, which is this edition's drawing, and marks each line so."""
    text = _squashed_text(built / "web-of-spies" / "cards.pdf")
    for line in ("may be played to attack (a tab on the card). *", "may be played to defend (a tab). *",
                 "agree its effect before adding one. *"):
        assert squash(line) in text, line


def test_the_spion_aid_and_deck_give_the_turn_right_after_the_preparation(built):
    """A new player looks for the turn first: the deck's second card, and the aid's first column, give it, where it
    once came fifth, at the top of the aid's last column."""
    with pdfplumber.open(built / "spion-und-spion" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
    turn = next(w for w, after in zip(words, words[1:]) if w["text"] == "Your" and after["text"] == "turn")
    assert turn["x0"] < page.width / 3


def test_the_pass_card_piles_backs_differ_at_a_glance_and_a_duplex_shift_marks_no_card(built):
    """The BLACK and WHITE piles must never mix, and no card of a pile may be told from its fellows: the BLACK
    pile's backs are a black panel 3 mm (the cards' safe zone) inside a white border, so a shift of the back up
    to that much carries no black onto a WHITE neighbour and leaves no sliver of paper on a BLACK card."""
    panels = {"BLACK": [], "WHITE": []}
    with pdfplumber.open(built / "spion-und-spion" / "counters.pdf") as pdf:
        for page in pdf.pages:
            words = page.extract_words()
            if not any(w["text"] == "PASS-CARD" for w in words):
                continue
            cards = [r for r in page.rects if r["fill"] and abs(r["width"] / MM - 63) < TOL and abs(r["height"] / MM - 88) < TOL]
            for card in cards:
                on_card = set(text_in(words, (card["x0"], card["top"], card["x1"], card["bottom"])).split())
                pile = on_card & set(panels)
                if not pile or "PASS-CARD" not in on_card:
                    continue
                inside = [r for r in page.rects if r["fill"] and r is not card and card["x0"] - 0.01 <= r["x0"]
                          and r["x1"] <= card["x1"] + 0.01 and card["top"] - 0.01 <= r["top"] and r["bottom"] <= card["bottom"] + 0.01]
                assert tuple(card["non_stroking_color"]) in ((1,), (1, 1, 1)), card["non_stroking_color"]
                margins = [min(r["x0"] - card["x0"], card["x1"] - r["x1"], r["top"] - card["top"], card["bottom"] - r["bottom"]) / MM
                           for r in inside if tuple(r["non_stroking_color"]) in ((0,), (0, 0, 0))]
                panels[pile.pop()].append(margins)
    assert len(panels["BLACK"]) == len(panels["WHITE"]) == 11, {k: len(v) for k, v in panels.items()}
    assert all(m == [] for m in panels["WHITE"]), panels["WHITE"]
    assert all(len(m) == 1 and m[0] >= 3.0 - TOL for m in panels["BLACK"]), panels["BLACK"]

