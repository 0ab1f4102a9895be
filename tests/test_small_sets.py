"""The small games' sheets: a set too small for its sheet prints as many copies as the layout asks,
same-size pieces share rows, and their texts stay inside their pages and pieces."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
import yaml
from conftest import MM, columns_text, cut_boxes, filled_boxes, grey, hex_of, size_mm, squash

from generators.cli import main
from generators.core.layouts import contrast

GAMES = ["global-1936-spies", "special-action-tokens", "web-of-spies"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small")
    args = ["build", "--out", str(out), "--only", "counters,cards,player-aid"]
    for game in GAMES:
        args += ["--game", game]
    assert main(args) == 0
    return out


def says(page, phrase: str) -> bool:
    """Whether the page's text holds `phrase`, read across or (a caption up the margin) turned."""
    text = squash(page.extract_text())
    wanted = squash(phrase)
    return wanted in text or wanted[::-1] in text


def _chars_in(chars: list[dict], rect: dict) -> list[dict]:
    """The characters whose centre lies inside pdfplumber's `rect`."""
    return [c for c in chars if rect["x0"] < (c["x0"] + c["x1"]) / 2 < rect["x1"]
            and rect["top"] < (c["top"] + c["bottom"]) / 2 < rect["bottom"]]


def sized(page, width: float, height: float) -> list[tuple[float, float, float, float]]:
    return [b for b in cut_boxes(page) if all(abs(a - b) < 0.3 for a, b in zip(size_mm(b), (width, height)))]


@pytest.mark.parametrize("game, cards, copies", [("global-1936-spies", 9, 9), ("special-action-tokens", 2, 2),
                                                 ("web-of-spies", 9, 4)])
def test_a_small_deck_prints_the_copies_its_layout_asks_and_says_so(built, game, cards, copies):
    """Global 1936's one card fills its sheet (`copies: fill`), one for each power and a spare; the two-player
    rule's card prints once for each player; Web of Spies' two cards fill the sheet four times over beside the
    one Alternate rules card for the table."""
    with pdfplumber.open(built / game / "cards.pdf") as pdf:
        assert len(pdf.pages) == 2
        front = pdf.pages[0]
        assert len(sized(front, 63, 88)) == cards
        assert says(front, f"{copies} copies of each")


def test_a_small_set_of_pieces_prints_spares_and_says_why(built):
    with pdfplumber.open(built / "global-1936-spies" / "counters.pdf") as pdf:
        assert len(pdf.pages) == 2
        front = pdf.pages[0]
        assert len(cut_boxes(front)) == 27
        assert says(front, "3 copies of each: a spy assassinated is bought again, and spares")


def test_the_special_action_tokens_print_three_a_player_as_the_rule_gives_them(built):
    """The rule gives each player three tokens; a second set read as six a player."""
    with pdfplumber.open(built / "special-action-tokens" / "counters.pdf") as pdf:
        front = pdf.pages[0]
        assert len(cut_boxes(front)) == 6
        assert not says(front, "copies of each")


def test_the_two_players_tokens_read_apart_and_their_words_read_on_a_mono_print(built):
    """Printed in greyscale, the players' token fills stay 60 grey levels apart, and every word keeps 7:1 against
    its token: black type on vermillion printed as black on a mid grey, 4.7:1."""
    def mono(colour: str) -> str:
        return "#" + f"{round(grey(colour)):02x}" * 3

    with pdfplumber.open(built / "special-action-tokens" / "counters.pdf") as pdf:
        page = pdf.pages[0]
        tokens = [r for r in page.rects if r["fill"] and not r["stroke"] and abs(r["width"] - 19.05 * MM) < 2 * MM]
        fills = {hex_of(r["non_stroking_color"]) for r in tokens}
        assert len(fills) == 2, fills
        low, high = sorted(grey(f) for f in fills)
        assert high - low >= 60, (low, high)
        for token in tokens:
            fill = hex_of(token["non_stroking_color"])
            chars = _chars_in(page.chars, token)
            assert chars
            for c in chars:
                assert contrast(mono(hex_of(c["non_stroking_color"])), mono(fill)) >= 7, (c["text"], fill)


def with_copies(game_copy, copies: str) -> Path:
    """A copy of the Special Action tokens printed with a preset that extends its own by `copies`."""
    folder = game_copy("special-action-tokens")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "edited.yaml").write_text(f"extends: special-action-tokens\ncopies: {copies}\n",
                                                     encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: special-action-tokens", "layout: edited"),
                    encoding="utf-8")
    return folder


def test_fill_prints_whole_sets_to_the_sheets_one_set_needs(cli, game_copy, tmp_path):
    folder = with_copies(game_copy, "{cards: fill, counters: 1}")
    result = cli("build", "--game", folder, "--out", tmp_path, "--only", "cards,counters")
    assert result.code == 0, result.stderr
    with pdfplumber.open(tmp_path / "special-action-tokens" / "cards.pdf") as pdf:
        assert len(pdf.pages) == 2 and len(sized(pdf.pages[0], 63, 88)) == 9
        assert says(pdf.pages[0], "9 copies of each")
    with pdfplumber.open(tmp_path / "special-action-tokens" / "counters.pdf") as pdf:
        assert len(cut_boxes(pdf.pages[0])) == 6 and not says(pdf.pages[0], "copies of each")


def test_bad_copies_are_refused_by_file_and_field(cli, game_copy):
    folder = with_copies(game_copy, "{cards: lots}")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "edited.yaml" in result.stderr and "copies" in result.stderr
    assert "Traceback" not in result.stderr


def test_web_of_spies_cards_fill_three_rows_of_three(built):
    """63 x 88 mm cards fit Letter three by three; mats and cards sharing the file once cost the cards a row."""
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        counts = [len(sized(page, 63, 88)) for page in pdf.pages[::2]]
    cards = [n for n in counts if n]
    assert max(cards) == 9 and sum(1 for n in cards if n < 9) <= 1, counts
    assert len(pdf.pages) <= 16


@pytest.mark.parametrize("game", GAMES)
def test_the_aid_keeps_every_letter_on_its_page_and_its_title_clear_of_the_print_note(built, game):
    with pdfplumber.open(built / game / "player-aid.pdf") as pdf:
        for page in pdf.pages:
            chars = [c for c in page.chars if c["text"].strip()]
            assert all(c["x0"] >= 9 * MM and c["x1"] <= page.width - 9 * MM for c in chars)
            lines = {}
            for c in chars:
                lines.setdefault(round(c["bottom"], 1), []).append(c)
            for row in lines.values():  # letters of one line never overlap: the title does not run over the note
                row.sort(key=lambda c: c["x0"])
                assert all(a["x1"] <= b["x0"] + 0.3 for a, b in zip(row, row[1:])), "".join(c["text"] for c in row)


def test_the_aid_is_headed_by_the_games_short_title_clear_of_the_print_note(built):
    with pdfplumber.open(built / "special-action-tokens" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        first = min(page.chars, key=lambda c: c["top"])
        title = [c for c in page.chars if c["size"] == first["size"] and c["top"] < 40 * MM]
        note = next(w for w in page.extract_words() if w["text"] == "print")
    assert "".join(c["text"] for c in title) == "Special Action Tokens player aid"
    assert len({round(c["bottom"]) for c in title}) == 1 and max(c["x1"] for c in title) < note["x0"]


def test_a_long_title_wraps_beside_the_print_note(game_copy, tmp_path):
    folder = game_copy("special-action-tokens")
    info = folder / "game.yaml"
    info.write_text(re.sub(r"(?m)^short_title:.*\n", "", info.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["build", "--game", str(folder), "--only", "player-aid", "--out", str(tmp_path / "out")]) == 0
    with pdfplumber.open(tmp_path / "out" / "special-action-tokens" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        first = min(page.chars, key=lambda c: c["top"])
        title = [c for c in page.chars if c["size"] == first["size"] and c["top"] < 40 * MM]
        note = next(w for w in page.extract_words() if w["text"] == "print")
    assert len({round(c["bottom"]) for c in title}) >= 2  # on more than one line
    assert max(c["x1"] for c in title) < note["x0"]


def test_the_special_action_names_keep_clear_of_the_cut(built):
    with pdfplumber.open(built / "special-action-tokens" / "counters.pdf") as pdf:
        page = pdf.pages[0]
        boxes = cut_boxes(page)
        for x0, top, x1, bottom in boxes:
            chars = [c for c in page.chars if x0 <= (c["x0"] + c["x1"]) / 2 <= x1 and top <= (c["top"] + c["bottom"]) / 2 <= bottom]
            assert chars
            room = min(min(c["x0"] for c in chars) - x0, x1 - max(c["x1"] for c in chars)) / MM
            assert room >= 2.5, f"{''.join(c['text'] for c in chars)}: {room:.2f} mm from the cut"
            name = [c for c in chars if c["size"] == max(c["size"] for c in chars)]
            assert len({round(c["bottom"], 1) for c in name}) == 1, "".join(c["text"] for c in name)  # one line


def test_a_double_agent_side_is_its_fronts_ring_colour_and_its_words_read_on_it(built):
    """The turned side prints solid in the power's colour, the front's ring, its words black or white for contrast
    (WCAG 4.5:1 at least), not pale coloured ink on white paper."""

    with pdfplumber.open(built / "global-1936-spies" / "counters.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        rings = {hex_of(r["non_stroking_color"]) for r in front.rects if r["fill"] and r["width"] > 12.6 * MM
                 and r["width"] < 13 * MM}
        faces = [r for r in back.rects if r["fill"] and 12.6 * MM < r["width"] < 13 * MM]
        assert {hex_of(r["non_stroking_color"]) for r in faces} == rings and len(rings) == 8
        for face in faces:
            chars = _chars_in(back.chars, face)
            assert chars
            for c in chars:
                ratio = contrast(hex_of(c["non_stroking_color"]), hex_of(face["non_stroking_color"]))
                assert ratio >= 4.5, (c["text"], ratio)


def test_global_1936_cards_carry_the_rules_once_left_out(built):
    with pdfplumber.open(built / "global-1936-spies" / "cards.pdf") as pdf:
        text = squash(" ".join(page.extract_text() for page in pdf.pages))
    for rule in ("atonceformoretasks", "losesnoneofitsspybenefits", "afteryourboughttechnologyrolls",
                 "addarolltoaneutralyouboughtarollfor", "1-3becomes1-4", "FlipitsmarkertoDOUBLEAGENT"):
        assert rule in text, rule


def test_the_special_action_card_says_what_the_double_agent_actions_are(built):
    with pdfplumber.open(built / "special-action-tokens" / "cards.pdf") as pdf:
        text = squash(pdf.pages[0].extract_text())
    assert "actionsofanotheroptionalrule" in text


def test_web_of_spies_agencies_differ_in_name_and_in_lightness():
    root = Path(__file__).resolve().parents[1]
    factions = yaml.safe_load((root / "components" / "web-of-spies" / "game.yaml").read_text())["factions"]
    colours = yaml.safe_load((root / "layouts" / "web-of-spies.yaml").read_text())["colours"]
    names = [f["name"] for f in factions]
    words = [set(name.lower().split()) - {"agency"} for name in names]
    assert all(not (a & b) for i, a in enumerate(words) for b in words[i + 1:]), names  # no "Blue" beside "Sky Blue"

    def lightness(hex_colour: str) -> float:
        r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        return 116 * (y ** (1 / 3) if y > 0.008856 else 7.787 * y + 16 / 116) - 16

    values = sorted(lightness(colours[f["id"]]["fill"]) for f in factions)
    assert all(b - a >= 12 for a, b in zip(values, values[1:])), values


def test_a_starting_card_without_symbols_has_a_frame_to_draw_them_in(built):
    with pdfplumber.open(built / "web-of-spies" / "counters.pdf") as pdf:
        for page in pdf.pages[::2]:
            words = page.extract_words()
            if any(w["text"] == "Car" for w in words):
                dashed = [line for line in page.lines if line.get("dash") and line["dash"][0]]
                assert len(dashed) >= 4
                return
    pytest.fail("no Black Car card found")


# --- a game small enough for one sheet ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def one_sheet(tmp_path_factory) -> Path:
    """The two house rules built as a user builds them, naming no product."""
    out = tmp_path_factory.mktemp("one-sheet")
    assert main(["build", "--out", str(out), "--game", "special-action-tokens", "--game", "global-1936-spies"]) == 0
    return out


@pytest.mark.parametrize("game, pieces", [("special-action-tokens", 6), ("global-1936-spies", 27)])
def test_a_one_sheet_game_prints_its_aid_with_its_pieces_folded_at_the_foot(one_sheet, game, pieces):
    """The whole game on one single-sided sheet: no counter or card sheet all but blank, the pieces in a band below
    the aid's copies with a fold line across it, each back mirrored across that line behind its front."""
    assert sorted(p.name for p in (one_sheet / game).iterdir() if not p.name.startswith(".")) == ["player-aid.pdf"]
    with pdfplumber.open(one_sheet / game / "player-aid.pdf") as pdf:
        [page] = pdf.pages
        boxes = cut_boxes(page)
        pieces_top = min(b[1] for b in cut_boxes(page))
        folds = [line for line in page.lines if line["dash"] and line["x1"] - line["x0"] > 20
                 and line["top"] > pieces_top]  # below the fronts' tops: not the cut between the aid's copies
        faces = filled_boxes(page)
        text = squash(page.extract_text())
    [fold_line] = folds
    fold = fold_line["top"]
    # the fold no wider than the pieces and their crop marks, so it never reads as the cut between the copies
    assert fold_line["x0"] >= min(b[0] for b in boxes) - 6 * MM and fold_line["x1"] <= max(b[2] for b in boxes) + 6 * MM
    fronts = sorted((b for b in boxes if b[3] <= fold), key=lambda b: (b[0], b[1]))
    assert len(boxes) == pieces and len(fronts) == pieces  # cut lines go round the fronts only, as on a fold sheet
    assert min(b[1] for b in fronts) > 0.6 * page.height  # below the aid's copies
    assert squash("fold on the short line between fronts and backs, glue, cut") in text
    for x0, top, x1, bottom in fronts:  # each front's back is its mirror image across the fold
        mirrored = (x0, 2 * fold - bottom, x1, 2 * fold - top)
        assert any(all(abs(a - b) < 0.3 for a, b in zip(face, mirrored)) for face in faces), (x0, top)


def test_a_one_sheet_game_still_prints_its_counter_sheet_when_asked_by_name(cli, tmp_path):
    assert cli("build", "--game", "special-action-tokens", "--only", "counters", "--out", str(tmp_path)).code == 0
    assert (tmp_path / "special-action-tokens" / "counters.pdf").exists()


def test_a_one_sheet_aid_that_needs_both_sides_is_refused_not_printed_two_sided(cli, game_copy, tmp_path):
    """The pieces fold across side 1 only: an aid running onto side 2 would leave its back half without them."""
    folder = game_copy("global-1936-spies")
    file = folder / "cards.yaml"
    document = yaml.safe_load(file.read_text(encoding="utf-8"))
    document["cards"].append(dict(document["cards"][0], id="missions-again"))  # twice the text: two sides' worth
    file.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = cli("build", "--game", folder, "--out", tmp_path)
    assert result.code == 2
    assert "one_sheet" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / folder.name / "player-aid.pdf").exists()


def test_an_item_read_from_an_unclear_rule_prints_marked_and_the_aid_says_what_the_mark_means(one_sheet):
    with pdfplumber.open(one_sheet / "global-1936-spies" / "player-aid.pdf") as pdf:
        text = squash(pdf.pages[0].extract_text())
    assert squash("(1-3 becomes 1-4). *") in text and squash("flip it back when reversed. *") in text
    assert squash("* this edition's reading of the rules.") in text
    assert squash("Used in your Production Phase.") in text


def test_the_special_action_aid_says_the_tokens_may_handicap_play(one_sheet):
    with pdfplumber.open(one_sheet / "special-action-tokens" / "player-aid.pdf") as pdf:
        page = pdf.pages[0]
        cut = min(line["top"] for line in page.lines if line["dash"] and line["x1"] - line["x0"] > 0.9 * page.width)
        first = page.crop((0, 0, page.width, cut))  # the first of the aid's two copies
        text = "".join(columns_text(first)).replace("•", "")  # column by column, so lines do not interleave
    assert squash("fewer tokens, or none, for the stronger player. *") in text
    assert squash("one of your eliminated spies may be picked, and goes back in the box") in text
