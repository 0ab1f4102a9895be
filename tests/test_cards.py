"""Reference cards and the player aid: the card data, its checks, and the PDFs measured."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
import yaml
from conftest import columns_text, cut_boxes, is_white, region, squash
from pypdf import PdfReader

from generators.cli import main
from generators.core.cards import all_items, deck_cards, resolve_cards
from generators.printing.card_text import citation_text, section_tags

PT_PER_MM = 72 / 25.4
LETTER = (215.9, 279.4)
A4 = (210.0, 297.0)


def mm(points: float) -> float:
    return points / PT_PER_MM


def build(out: Path, *args: str) -> Path:
    code = main(["build", "--game", "spies", "--out", str(out), *args])
    assert code == 0
    return out / "spies"


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    """cards.pdf and player-aid.pdf built once with the default options."""
    return build(tmp_path_factory.mktemp("cards"), "--only", "cards", "--only", "player-aid")


def face_of(cards, text: str, face: str):
    """The card whose `face` side title the text of a card region opens with."""
    found = [c for c in cards if dict(c.sides()).get(face) and text.startswith(squash(dict(c.sides())[face].title))]
    assert len(found) == 1, f"expected one card {face} title in {text[:80]!r}"
    return found[0]


def assert_side_printed(game, card, face: str, text: str) -> None:
    side = dict(card.sides())[face]
    assert squash(side.title) in text
    cited: set[str] = set()
    for section in side.sections:
        assert squash(section.heading) in text
        for item in section.items:
            assert squash(item.text) in text, f"{card.id} {face}: {item.text!r} not printed whole"
        for tag in section_tags(game, list(section.items), cited):  # one short tag a section, once a side
            assert squash(citation_text([tag])) in text, f"{card.id} {face}: tag {tag!r} missing"
    assert squash(card.title) in text  # the footer names the card on both sides


# --- the data ----------------------------------------------------------------------------------

def test_every_item_cites_a_rule_and_names_a_known_variant(spies):
    cards = resolve_cards(spies)
    assert len(cards) >= 9
    for card in cards:
        for _, _, item in all_items(card):
            assert item.rules and all(r.strip() for r in item.rules)
            assert item.variant in (None, *spies.info.variants)


def test_the_cards_cover_the_issue_topics(spies):
    text = " ".join(item.text for card in resolve_cards(spies) for _, _, item in all_items(card))
    for phrase in ("Germany, Italy, Russia, France, Britain", "1933", "counterspy", "Spies Captured in Neutral Countries",
                   "5 spaces", "at sea", "Original", "Foreign", "20£", "12 Action Points", "spy haven", "Cousin",
                   "Four players", "Two players", "Atomic Bomb", "Scotland Yard"):
        assert phrase in text, phrase


def test_standard_and_long_game_are_told_apart(spies):
    variants = {item.variant for card in resolve_cards(spies) for _, _, item in all_items(card)}
    assert {"standard", "long", None} <= variants


def test_a_value_printed_elsewhere_is_pointed_to_where_players_find_it(spies):
    texts = {c.id: [item.text for _, _, item in all_items(c)] for c in resolve_cards(spies)}
    assert any("Action Points too (display)" in t for t in texts["action-chits"])
    assert any("Starting Set-Up, on the map" in t for t in texts["players-and-setup"])


@pytest.mark.parametrize("product", ["cards.pdf", "player-aid.pdf"])
def test_no_card_or_aid_text_talks_about_the_sources(tmp_path_factory, product):
    out = tmp_path_factory.mktemp("sources")
    assert main(["build", "--game", "spies", "--only", "cards,player-aid", "--out", str(out)]) == 0
    with pdfplumber.open(out / "spies" / product) as pdf:
        text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages).lower()
    for remark in ("rulebook", "the rules do not", "mapsheet", "does not say", "booklet"):
        assert remark not in text, remark


def role_sizes(pdf_path) -> dict[str, set[float]]:
    """The sizes each role is set in, told by ink: body (black, and the bold headings and variant labels beside it),
    grey notes (citations, lighter still, and footers), white (card titles, or the aid's table headers and step numbers)."""
    sizes: dict[str, set[float]] = {}
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            for c in (c for c in page.chars if c["upright"]):
                colour = tuple(round(v, 2) for v in (c["non_stroking_color"] or ()))
                role = ("white" if colour == (1.0, 1.0, 1.0) else "grey" if colour in ((0.33, 0.33, 0.33), (0.44, 0.44, 0.44))
                        else "body" if "Regular" in c["fontname"] else "bold")
                sizes.setdefault(role, set()).add(c["size"])
    return sizes


def distinct(sizes: set[float]) -> list[float]:
    """`sizes` told apart to a twentieth of a point (the PDF's text matrices carry rounding)."""
    found: list[float] = []
    for size in sorted(sizes):
        if not found or size - found[-1] > 0.05:
            found.append(size)
    return found


def test_the_deck_sets_each_role_in_one_size_its_body_at_9_25_pt(letter, spies):
    sizes = {role: distinct(found) for role, found in role_sizes(letter / "cards.pdf").items()}
    assert sizes["body"] == [pytest.approx(9.25, abs=0.01)] == [pytest.approx(spies.layout.cards.text_size)]
    assert sizes["bold"] == sizes["body"]  # headings and variant labels run at the body's size
    assert len(sizes["white"]) == 1  # every card title
    assert len(sizes["grey"]) == 2  # citations and footers


def test_the_aid_sets_each_role_in_one_size(letter):
    sizes = {role: distinct(found) for role, found in role_sizes(letter / "player-aid.pdf").items()}
    assert len(sizes["body"]) == 1 and sizes["white"] == [pytest.approx(sizes["body"][0], abs=0.05)]  # table headers and step numbers at the body's size
    assert len(sizes["bold"]) == 3  # body-size headings, the panel titles, the sheet's title
    assert len(sizes["grey"]) == 2  # citations and the header's notes


def test_the_chit_card_leads_each_chit_with_its_symbol(spies, letter):
    """The deck's chit card sets each chit's drawn symbol (the chit's own) before its name, where a bullet would be."""
    with pdfplumber.open(letter / "cards.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        shapes = page.curves + page.rects
    for chit in (p for p in spies.pieces if p.kind == "chit"):
        read = "*" if "games" in (chit.assumed or {}) else ""  # its game a reading: marked after its name
        first = chit.name.split()[0] + ("" if " " in chit.name else f"{read}:")
        [name] = [w for w in words if w["text"] == first and any(
            v["text"] == chit.cost and abs(v["top"] - w["top"]) < 1 and 0 < v["x0"] - w["x0"] < 30 * PT_PER_MM for v in words)]
        middle = (name["top"] + name["bottom"]) / 2
        label = [w["x0"] for w in words if w["text"] == "Long" and abs(w["top"] - name["top"]) < 1 and w["x0"] < name["x0"]]
        start = max(label) if chit.games == ["long"] else name["x0"]  # a Long Game chit's label comes first
        left = [c for c in shapes if start - 6 * PT_PER_MM < c["x0"] and c["x1"] < start
                and abs((c["top"] + c["bottom"]) / 2 - middle) < 2]
        assert left, f"{chit.name}: no symbol before it"
        assert not any(w["text"] == "•" and abs(w["top"] - name["top"]) < 1 and start - 6 * PT_PER_MM < w["x0"] < start
                       for w in words)


def test_the_spies_and_police_lines_lead_with_their_powers_colour(spies, letter):
    """Each power's spies and police line opens with a patch of the power's own colour, as its pieces are filled."""
    with pdfplumber.open(letter / "cards.pdf") as pdf:
        page = pdf.pages[1]
        words = page.extract_words()
        rects = page.rects
    for faction in spies.info.factions:
        fill = spies.layout.colour(faction.id).fill.lstrip("#")
        wanted = tuple(round(int(fill[i:i + 2], 16) / 255, 2) for i in (0, 2, 4))
        starts = [w for w in words if w["text"].startswith(faction.name) and w["text"][len(faction.name):] in (":", "")
                  and any(w["x0"] - r["x1"] < 3 * PT_PER_MM and r["x1"] < w["x0"] and r["top"] < w["bottom"]
                          and w["top"] < r["bottom"] for r in rects)]  # lines led by a patch (a word mid-line is not)
        assert len(starts) == 2, faction.name  # its spies and its police
        for word in starts:
            patch = [r for r in rects if r["x1"] < word["x0"] and word["x0"] - r["x1"] < 3 * PT_PER_MM
                     and r["top"] < (word["top"] + word["bottom"]) / 2 < r["bottom"]]
            assert patch and tuple(round(v, 2) for v in patch[0]["non_stroking_color"]) == wanted, faction.name


def card_faces(pdf_path) -> list[tuple[str, list[dict]]]:
    """Every card face of the deck: its squashed text and its body's lines (text, top and bottom in pt), title band
    and footer left out."""
    faces = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            for box in cut_boxes(page):
                crop = page.within_bbox(box)
                lines = [line for line in crop.extract_text_lines() if line["chars"][0]["size"] > 8]
                faces.append((region(page, box), lines[1:]))  # the first line is the card's title
    return faces


def test_what_costs_what_cites_the_action_point_cost_summary(letter):
    text = next(t for t, _ in card_faces(letter / "cards.pdf") if "Whatcostswhat" in t)
    assert "Whatcostswhat§3.11" in text


def test_a_secret_handed_on_moves_on_only_with_a_spy_that_has_not_moved(letter):
    text = next(t for t, _ in card_faces(letter / "cards.pdf") if "Carryingsecrets" in t)
    assert squash("moves on with it only if it has not moved yet") in text


def test_no_card_face_ends_on_an_orphaned_number_and_none_is_half_empty(letter):
    faces = card_faces(letter / "cards.pdf")
    for text, lines in faces:
        assert not re.fullmatch(r"[\d,\s]+", lines[-1]["text"]), f"{text[:30]}: last line {lines[-1]['text']!r}"
    body = max(lines[-1]["bottom"] - lines[0]["top"] for _, lines in faces)
    emptiest = min(lines[-1]["bottom"] - lines[0]["top"] for _, lines in faces) / body
    assert emptiest >= 0.5, f"the emptiest face fills {emptiest:.0%} of what the fullest does"


def test_each_section_prints_at_most_one_rule_tag(tmp_path):
    assert main(["build", "--game", "spies", "--only", "cards", "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "spies" / "cards.pdf") as pdf:
        text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    tags = re.findall(r"§\s?(\S+)", text)
    assert tags and all(not tag.endswith(",") for tag in tags), [t for t in tags if t.endswith(",")]
    assert not re.findall(r"\[[\d.]+\]", text), "a citation in brackets"


def test_tiles_by_year_lists_exactly_the_tiles_playable_each_year(spies):
    items = {i.text.split(":")[0]: i.text for c in resolve_cards(spies) for _, _, i in all_items(c)
             if "Event Tile Reference" in i.rules}

    def ids(text: str) -> set[str]:
        return [int(t.strip().replace("\u00a0", " ")) for t in text.split(":", 1)[1].split(",")]

    every_year = set(ids(items["Any year"]))
    for year in spies.info.years:
        printed = every_year | (set(ids(items[str(year)])) if str(year) in items else set())
        assert printed == {t.number for t in spies.tiles if year in t.years}, year
    for text in items.values():  # by number, as the tiles print them
        assert ids(text) == sorted(ids(text))


def test_secrets_by_value_and_rosters_match_the_pieces(spies):
    items = [i.text for c in resolve_cards(spies) for _, _, i in all_items(c) if "Playing Piece Roster" in i.rules]
    for piece in spies.pieces:
        if piece.kind == "secret":
            line = next(t for t in items if t.startswith(f"Value {piece.value}:"))
            assert piece.name in line.split(": ", 1)[1].split(", ")
        if piece.kind == "spy":
            nation = spies.faction(piece.nation).name
            line = next(t for t in items if t.startswith(f"{nation}:"))
            assert f"{piece.name}\u00a0{piece.strength}" in line


def test_chit_costs_come_from_the_roster(spies):
    chit_card = next(c for c in resolve_cards(spies) if c.id == "action-chits")
    texts = {i.text: i for _, _, i in all_items(chit_card)}
    for chit in (p for p in spies.pieces if p.kind == "chit"):
        read = "*" if "games" in (chit.assumed or {}) else ""  # Cover in both games: this edition's reading, marked
        item = texts[f"{chit.name}{read}: {chit.cost}"]
        assert item.variant == (chit.games[0] if len(chit.games) == 1 else None)
    assert sum(text.startswith("Cover*") for text in texts) == 1


# --- bad card data ---------------------------------------------------------------------------------

def edit_cards(folder: Path, change) -> None:
    file = folder / "cards.yaml"
    document = yaml.safe_load(file.read_text(encoding="utf-8"))
    change(document)
    file.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")


def first_item(document: dict) -> dict:
    return document["cards"][0]["front"]["sections"][0]["items"][0]


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["cards"].append(dict(d["cards"][0])), "id 'turn-sequence' is used by cards[0] too"),
    (lambda d: first_item(d).update(variant="short"), "unknown game variant 'short'"),
    (lambda d: first_item(d).update(rules=[]), "cites no rule"),
    (lambda d: first_item(d).update(rules=["3.44"]), "citation '3.44' is not in the file's citations list"),
    (lambda d: d["cards"][0]["front"]["sections"].append({"heading": "X", "from": "nope"}), "unknown derivation 'nope'"),
    (lambda d: d["derived"]["chit-costs"].update(item="{name}: {price}"), "names unknown field 'price'"),
    (lambda d: d["derived"]["chit-costs"].update(where={"knd": "chit"}), "where names unknown field 'knd'"),
])
def test_bad_card_data_is_refused_with_file_field_and_problem(cli, game_copy, change, expected):
    folder = game_copy("spies")
    edit_cards(folder, change)
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert "cards.yaml" in result.stderr and expected in result.stderr
    assert "Traceback" not in result.stderr


# --- cards.pdf ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, flip", [
    ((), "long-edge"),
    (("--duplex", "short-edge", "--paper", "a4"), "short-edge"),
    (("--fold",), "fold"),
])
def test_every_card_face_is_printed_whole_with_its_back_behind_it(spies, tmp_path, args, flip):
    folder = build(tmp_path, "--only", "cards", *args)
    cards = deck_cards(spies)
    seen = []
    with pdfplumber.open(folder / "cards.pdf") as pdf:
        pages = list(pdf.pages)
        step = 1 if flip == "fold" else 2
        for i in range(0, len(pages), step):
            front, back = pages[i], pages[i + step - 1] if flip == "fold" else pages[i + 1]
            width, height = front.width, front.height
            for box in cut_boxes(front):
                x0, top, x1, bottom = box
                card = face_of(cards, region(front, box), "front")
                assert_side_printed(spies, card, "front", region(front, box))
                mirrored = (x0, height - bottom, x1, height - top) if flip == "short-edge" else (width - x1, top, width - x0, bottom)
                assert_side_printed(spies, card, "back", region(back, mirrored))
                seen.append(card.id)
    assert sorted(seen) == sorted(c.id for c in cards)


def test_back_offset_shifts_every_back_by_the_amount_asked(spies, tmp_path):
    folder = build(tmp_path, "--only", "cards", "--back-offset", "6mm,0")
    cards = deck_cards(spies)
    shift = 6 * PT_PER_MM  # more than the card's padding, so the unshifted box must lose some text
    with pdfplumber.open(folder / "cards.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        for x0, top, x1, bottom in cut_boxes(front):
            card = face_of(cards, region(front, (x0, top, x1, bottom)), "front")
            mirrored = (front.width - x1, top, front.width - x0, bottom)
            assert_side_printed(spies, card, "back", region(back, (mirrored[0] + shift, top, mirrored[2] + shift, bottom)))
            with pytest.raises(AssertionError):
                assert_side_printed(spies, card, "back", region(back, mirrored))


def test_cards_are_poker_size_by_default_and_any_size_on_request(letter, tmp_path):
    with pdfplumber.open(letter / "cards.pdf") as pdf:
        boxes = [b for page in pdf.pages for b in cut_boxes(page)]
        assert pdf.pages[0].width == pytest.approx(LETTER[0] * PT_PER_MM, abs=0.3)
    assert boxes and all(mm(x1 - x0) == pytest.approx(63, abs=0.1) and mm(bottom - top) == pytest.approx(88, abs=0.1)
                         for x0, top, x1, bottom in boxes)
    folder = build(tmp_path, "--only", "cards", "--card-size", "2.5x3.5in")
    with pdfplumber.open(folder / "cards.pdf") as pdf:
        boxes = [b for page in pdf.pages for b in cut_boxes(page)]
    assert boxes and all(mm(x1 - x0) == pytest.approx(63.5, abs=0.1) and mm(bottom - top) == pytest.approx(88.9, abs=0.1)
                         for x0, top, x1, bottom in boxes)


def test_crop_marks_sit_outside_the_cards_in_line_with_the_cuts(letter):
    with pdfplumber.open(letter / "cards.pdf") as pdf:
        page = pdf.pages[0]
        boxes = cut_boxes(page)
        xs = {round(x, 1) for b in boxes for x in (b[0], b[2])}
        left = min(b[0] for b in boxes)
        top = min(b[1] for b in boxes)
        vertical = [l for l in page.lines if abs(l["x0"] - l["x1"]) < 0.01 and l["bottom"] < top]
    assert vertical and {round(l["x0"], 1) for l in vertical} == xs
    assert all(mm(top - l["bottom"]) >= 0.5 for l in vertical)
    assert left > 0


def test_no_text_is_smaller_than_6_pt_and_fonts_are_embedded(letter):
    for name in ("cards.pdf", "player-aid.pdf"):
        with pdfplumber.open(letter / name) as pdf:
            assert min(c["size"] for page in pdf.pages for c in page.chars if c["upright"]) >= 6 - 0.01
        for page in PdfReader(letter / name).pages:
            for font in page["/Resources"]["/Font"].values():
                descriptor = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"] \
                    if "/DescendantFonts" in font.get_object() else font.get_object()["/FontDescriptor"]
                assert "/FontFile2" in descriptor.get_object()


def test_svg_pages_match_the_pdf(tmp_path):
    folder = build(tmp_path, "--only", "cards", "--format", "pdf,svg")
    svgs = sorted(folder.glob("cards-*.svg"))
    assert len(svgs) == len(PdfReader(folder / "cards.pdf").pages)
    assert "Your turn" in svgs[0].read_text(encoding="utf-8")


def test_a_card_that_cannot_fit_is_refused_by_name_and_nothing_is_written(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    edit_cards(folder, lambda d: first_item(d).update(text="An endless rule. " * 120))
    result = cli("build", "--game", folder, "--only", "cards", "--out", tmp_path)
    assert result.code == 2
    assert "card 'turn-sequence' (front)" in result.stderr and "6 pt" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "spies" / "cards.pdf").exists()


# --- player-aid.pdf ----------------------------------------------------------------------------------

def aid_parts(section, item) -> list[str]:
    """What the aid prints of an item: a step without its number (drawn in a disc), a table row word by word (a
    wrapped cell's lines fall between its neighbours' when a column is read as text)."""
    if section.show == "steps":
        return [re.sub(r"^\d+\.\s+", "", item.text)]
    if section.show == "table":  # a value to write in prints as a tinted field, not as its line
        return [word for cell in item.text.split(": ") for word in cell.split() if word.strip("_")]
    return [item.text]


def aid_sides(spies):
    """The card sides the Spies! aid prints: those cards.yaml's `aid` names, and only those."""
    sides = {f"{card.id}.{face}": side for card in resolve_cards(spies) for face, side in card.sides()}
    assert spies.cards.aid_only_named
    return [sides[name] for name in spies.cards.aid]


@pytest.mark.parametrize("paper, size", [("letter", LETTER), ("a4", A4)])
def test_player_aid_is_one_side_of_the_chosen_paper_holding_every_item_it_names(spies, letter, tmp_path, paper, size):
    folder = letter if paper == "letter" else build(tmp_path, "--only", "player-aid", "--paper", paper)
    with pdfplumber.open(folder / "player-aid.pdf") as pdf:
        assert len(pdf.pages) == 1  # the one sheet beside the map, one-sided
        for page in pdf.pages:
            assert (mm(page.width), mm(page.height)) == pytest.approx(size, abs=0.1)
        text = "|".join(column for page in pdf.pages for column in columns_text(page))
    for side in aid_sides(spies):
        assert squash(side.title) in text
        for section in side.sections:
            for item in section.items:
                for part in aid_parts(section, item):
                    assert squash(part) in text, item.text
            assert all(squash(tag) in text for tag in section_tags(spies, list(section.items), set()))
    assert squash(next(c for c in resolve_cards(spies) if c.id == "secrets").back.title) not in text  # the cards' own


def test_the_aid_gives_every_chit_its_symbol_cost_and_effect_or_a_line_to_write_it_on(spies, letter):
    """Each chit a row of the aid's chit table: its symbol, name, cost and the first words of its effect on one line
    (an assumed effect marked at its end, a chit whose game is a reading marked after its name), or a ruled line to
    write it on."""
    with pdfplumber.open(letter / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        curves = page.curves + page.rects
        lines = [line for line in page.lines if abs(line["top"] - line["bottom"]) < 0.1]
    chits = [p for p in spies.pieces if p.kind == "chit"]
    assert len(chits) == 10
    for chit in chits:
        first = chit.name.split()[0] + ("*" if "games" in (chit.assumed or {}) and " " not in chit.name else "")
        [name] = [w for w in words if w["text"] == first and w["x0"] < page.width * 2 / 3
                  and any(v["text"] == chit.cost and abs(v["top"] - w["top"]) < 8 for v in words)]
        table = [line for line in lines if line["x0"] < name["x0"] < line["x1"]]
        above = max(line["top"] for line in table if line["top"] < name["top"])
        below = min(line["top"] for line in table if line["top"] > name["top"])  # the row between the table's rules
        [cost] = [v for v in words if v["text"] == chit.cost and above < v["top"] < below and v["x0"] > name["x1"]]
        after = " ".join(w["text"] for w in words if above < w["top"] < below and cost["x1"] < w["x0"] < table[0]["x1"])
        effect = getattr(chit, "does", None)
        if effect:
            assert after.startswith(" ".join(effect.split()[:2])), (chit.name, after)
        else:
            assert "____" in after or "Game:" in after, (chit.name, after)  # a variant's label runs in before the line
        assert any(c["x1"] <= name["x0"] + 0.5 and abs((c["top"] + c["bottom"]) / 2 - (name["top"] + name["bottom"]) / 2) < 3
                   and c["x1"] - c["x0"] < 6 * PT_PER_MM for c in curves), f"{chit.name}: no symbol before its name"
    does = [w for w in words if w["text"].endswith("stands*.")]  # Recruit's effect is assumed: marked
    assert does


def test_player_aid_too_full_for_one_sheet_is_refused(cli, game_copy, tmp_path):
    folder = game_copy("spies")

    def triple(document):
        copies = [dict(card, id=f"{card['id']}-{n}") for n in (2, 3) for card in document["cards"]]
        document["cards"] += copies
        document["aid"] += [f"{card['id']}.{face}" for card in copies for face in ("front", "back") if card.get(face)]

    edit_cards(folder, triple)
    result = cli("build", "--game", folder, "--only", "player-aid", "--out", tmp_path)
    assert result.code == 2
    assert "player aid" in result.stderr and "one" in result.stderr
    assert not (tmp_path / "spies" / "player-aid.pdf").exists()


# --- the player aid as a designed sheet ----------------------------------------------------------------

@pytest.fixture(scope="module")
def aid(letter):
    """The Letter player aid read once: per page its width, columns' text, words (with size and ink), characters, curves and lines."""
    with pdfplumber.open(letter / "player-aid.pdf") as pdf:
        return [dict(width=p.width, columns=columns_text(p), words=p.extract_words(extra_attrs=["size", "non_stroking_color"]),
                     chars=p.chars, curves=p.curves, lines=p.lines) for p in pdf.pages]


def aid_sections(spies):
    """(heading, the parts of its items the aid prints) for every section of every card."""
    return [(section.heading, [p for item in section.items for p in aid_parts(section, item)])
            for side in aid_sides(spies) for section in side.sections]


def test_player_aid_opens_with_the_side_cards_yaml_names_first(spies, aid):
    first = spies.cards.aid[0]
    card_id, face = first.split(".")
    title = dict(next(c for c in resolve_cards(spies) if c.id == card_id).sides())[face].title
    words = aid[0]["words"]
    sizes = sorted({round(w["size"], 2) for w in words}, reverse=True)
    panel_titles = sorted((w for w in words if round(w["size"], 2) == sizes[1]), key=lambda w: (w["x0"] > aid[0]["width"] / 3, w["top"]))
    assert " ".join(w["text"] for w in panel_titles).startswith(title)


def test_no_section_of_the_aid_is_split_across_columns(spies, aid):
    columns = [column for page in aid for column in page["columns"]]
    for heading, parts in aid_sections(spies):
        holding = [c for c in columns if squash(heading) in c and all(squash(p) in c for p in parts)]
        assert holding, f"section {heading!r} is not whole in one column"


def test_player_aid_body_is_at_least_7_5_pt(aid):
    grey = 0x55 / 255  # citations are set smaller, in grey
    for page in aid:
        body = [c for c in page["chars"] if c["top"] > 30 * PT_PER_MM and c["upright"]
                and not (c["non_stroking_color"] and all(abs(v - grey) < 0.01 for v in c["non_stroking_color"]))]
        assert body and min(c["size"] for c in body) >= 7.5 - 0.01


def test_the_sequence_of_play_is_a_graphic_of_numbered_steps(spies, aid):
    steps = [s for side in aid_sides(spies) for s in side.sections if s.show == "steps"]
    assert steps
    page = aid[0]
    numbers = [c for c in page["chars"] if is_white(c["non_stroking_color"]) and c["text"].isdigit()]
    discs = [c for c in page["curves"] if c["fill"] and not is_white(c["non_stroking_color"])
             and abs((c["x1"] - c["x0"]) - (c["bottom"] - c["top"])) < 0.5]
    wanted = sum(len(s.items) for s in steps)
    assert sorted(int(c["text"]) for c in numbers) == sorted(range(1, wanted + 1))
    for number in numbers:  # each number sits in its disc
        assert any(d["x0"] <= number["x0"] and number["x1"] <= d["x1"] and d["top"] <= number["top"] for d in discs)


def test_the_sequence_of_play_gives_the_talks_and_the_long_games_12_action_points(aid):
    """Every phase of a turn: the four steps, the talks open all turn long [3.9], a Long Game turn's 12 Action Points
    [3.1] with what each step costs, and what a player does in another's turn [4.0]."""
    text = "|".join(aid[0]["columns"])
    for phase in ("Event Tile:", "Police:", "Search:", "Move:", "Talks:", "12 Action Points a turn", "Open talks with an opponent",
                  "Other players' turns", "Answer talks"):
        assert squash(phase) in text, phase


def test_the_aid_gives_the_set_up_each_powers_share_the_end_and_fewer_players(spies, aid):
    text = "|".join(aid[0]["columns"])
    for part in ("Starting Set-Up", "Each power's share", "After Britain's 1939 turn", "Most points wins", "Fewer than five players"):
        assert squash(part) in text, part
    words = aid[0]["words"]
    for faction in spies.info.factions:  # the share table: a row for every power, its values marked as the edition's reading
        assert any(w["text"] == faction.name and any(re.fullmatch(r"\d+\*", v["text"]) and abs(v["top"] - w["top"]) < 1
                                                       for v in words) for w in words), faction.name
    assert "*" in text and squash("* this edition's reading") in text


def test_a_player_aid_that_fits_one_side_is_one_sided(tmp_path):
    assert main(["build", "--game", "special-action-tokens", "--out", str(tmp_path), "--only", "player-aid"]) == 0
    with pdfplumber.open(tmp_path / "special-action-tokens" / "player-aid.pdf") as pdf:
        assert len(pdf.pages) == 1
        assert "one-sided" in pdf.pages[0].extract_text()


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(aid=["turn-sequence.side"]), "aid[0]: unknown card side 'turn-sequence.side'"),
    (lambda d: d["citation_tags"].update({"Components": "Piece Roster"}), "tag 'Piece Roster' is already"),
    (lambda d: d["citation_tags"].update({"Components": "Parts"}), "tag 'Parts' is not words of 'Components'"),
    (lambda d: d["cards"][0]["front"]["sections"][1].update(columns=["A", "B"]), "columns are for a section shown as a table"),
])
def test_bad_aid_data_is_refused(cli, game_copy, change, expected):
    folder = game_copy("spies")
    edit_cards(folder, change)
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "cards.yaml" in result.stderr and expected in result.stderr


@pytest.fixture(scope="module")
def every_aid(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("aids")
    assert main(["build", "--out", str(out), "--only", "player-aid"]) == 0
    return out


@pytest.mark.parametrize("game", ["global-1936-spies", "special-action-tokens", "web-of-spies", "spion-und-spion"])
def test_every_games_aid_fills_one_side_and_speaks_of_play_not_of_the_product(every_aid, game):
    """An aid with little to say is set larger until it fills its page, rather than a third of it."""
    with pdfplumber.open(every_aid / game / "player-aid.pdf") as pdf:
        [page] = pdf.pages
        lowest = max(c["bottom"] for c in page.chars)
        text = page.extract_text()
    assert lowest >= 0.75 * page.height, f"{game}'s aid ends {lowest / page.height:.0%} of the way down its page"
    assert "acrylic" not in text


def test_the_house_rules_short_aid_prints_twice_on_its_sheet_to_cut_apart(every_aid):
    """Global 1936's aid fills a third of a page at the usual size: two copies share the sheet, one above the other,
    with a dashed cut line between them, rather than one copy and an empty page; how to print the sheet is said once,
    on the first copy (the second once repeated it)."""
    with pdfplumber.open(every_aid / "global-1936-spies" / "player-aid.pdf") as pdf:
        [page] = pdf.pages
        across = [line for line in page.lines if line["x1"] - line["x0"] > 0.9 * page.width and line["dash"]]
        cut = min(line["top"] for line in across)  # the first line across the page: the cut between the copies
        top, bottom = (page.crop((0, y, page.width, y + cut)) for y in (0, cut))
        texts = [" ".join((part.extract_text() or "").split()) for part in (top, bottom)]
        tops = [min(c["top"] for c in part.chars) for part in (top, bottom)]
    note = "print at 100 % on Letter, one-sided, 2 copies on the sheet: cut on the dashed line"
    assert note in texts[0] and note not in texts[1]
    assert texts[0].replace(note, " ").split() == texts[1].split()
    assert cut > 0.3 * page.height  # each copy takes more than a third of the page; the pieces most of the rest
    assert tops[1] - tops[0] == pytest.approx(cut, abs=0.5)  # the copies' frames are the same, one above the other


def test_web_of_spies_aid_opens_with_what_to_make_then_the_setup(every_aid):
    """What the set lacks (60 asset cards to write, two dice) first, then the set-up: combat comes later."""
    with pdfplumber.open(every_aid / "web-of-spies" / "player-aid.pdf") as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    titles = [w["text"] for w in words if round(w["size"], 1) == max(round(v["size"], 1) for v in words if v["top"] > 60)]
    assert " ".join(titles).startswith("Before the first game Setup and the end"), titles


# --- the aid's unknowns, designed -----------------------------------------------------------------

WRITE_TINT = (0.984314, 0.933333, 0.768627)  # the aid's write-in fields and the chips behind assumed values


def tinted(page) -> list[dict]:
    return [r for r in page.rects if r["fill"] and tuple(round(v, 6) for v in r["non_stroking_color"]) == WRITE_TINT]


def test_a_chit_without_an_effect_gets_a_tinted_field_to_write_in_never_a_bare_line(spies, letter):
    with pdfplumber.open(letter / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        words, fields = page.extract_words(), tinted(page)
    assert "___" not in text
    for chit in (p for p in spies.pieces if p.kind == "chit" and not getattr(p, "does", None)):
        [(name, cost)] = [(w, v) for w in words for v in words if w["text"] == chit.name.split()[0] and v["text"] == chit.cost
                          and abs(v["top"] - w["top"]) < 8 and 0 < v["x0"] - w["x0"] < 30 * PT_PER_MM]
        field = [r for r in fields if r["x0"] > cost["x1"] and r["top"] - 12 < name["top"] < r["bottom"] + 4
                 and r["width"] > 20 * PT_PER_MM and r["height"] > 3 * PT_PER_MM]
        assert field, f"{chit.name}: no field to write its effect in"
        assert any(w["text"] == "write" and field[0]["x0"] < w["x0"] < field[0]["x1"]
                   and field[0]["top"] < w["top"] < field[0]["bottom"] for w in words), f"{chit.name}: field unlabelled"


def test_every_assumed_value_on_the_aid_sits_on_a_tinted_chip_the_legend_explains(letter):
    with pdfplumber.open(letter / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        words, chips = page.extract_words(), tinted(page)
    [legend] = [w for w in words if w["text"] == "reading:"]
    values = [w for w in words if re.fullmatch(r"[^\s*]{1,4}\*,?", w["text"]) and w["top"] > legend["bottom"]]
    assert len(values) >= 16  # the share table's 15 and the chit's Action Point
    for w in values:
        cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
        assert any(r["x0"] <= cx <= r["x1"] and r["top"] <= cy <= r["bottom"] for r in chips), f"{w['text']} has no chip"
    top = legend["top"]
    assert any(abs(r["top"] - top) < 4 and r["width"] > 4 * PT_PER_MM for r in chips), "the legend shows no field"
    assert any(abs(r["top"] - top) < 4 and r["width"] < 4 * PT_PER_MM for r in chips), "the legend shows no chip"


def test_the_aid_fills_its_page_at_9_5_pt_or_more(letter):
    with pdfplumber.open(letter / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        body = Counter(round(c["size"], 2) for c in page.chars).most_common(1)[0][0]
        lowest = max(c["bottom"] for c in page.chars)
    assert body >= 9.5
    assert lowest / page.height >= 0.88, f"the text ends at {lowest / page.height:.0%} of the page"


def test_the_aid_gives_how_many_of_each_chit_are_made_each_count_marked_as_a_reading(aid):
    """The rulebook gives no chit mix: the aid says the counts the sheet prints, each with the mark of a reading."""
    text = squash(" ".join(page["columns"][1] for page in aid))
    assert squash("Made: 12* Papers, 16* Discovery, 8* Recruit, 8* Escape, 8* Sanction, 10* Cover, 6* Intercept, "
                  "6* Drop, 5* Source, 7* Double Cross") in text


def test_a_card_with_its_own_copies_prints_that_many_beside_the_layouts_fill(cli, tmp_path):
    """Web of Spies: a Combat and a Your turn card for each of four agencies and one Alternate rules card for the
    table, all nine on one sheet, the caption saying so."""
    import pypdfium2

    assert cli("build", "--game", "web-of-spies", "--only", "cards", "--out", tmp_path).code == 0
    document = pypdfium2.PdfDocument(tmp_path / "web-of-spies" / "cards.pdf")
    assert len(document) == 2  # one sheet, fronts and backs
    text = document[0].get_textpage().get_text_range()
    footers = re.findall(r"Web of Spies · (Combat|Your turn|Alternate rules)\s", text)
    assert sorted(footers) == ["Alternate rules"] + ["Combat"] * 4 + ["Your turn"] * 4
    assert "4 copies of each, 1 of Alternate rules" in text
