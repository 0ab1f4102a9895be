"""The display: display.pdf on one 11 x 17 inch sheet and tiled, built by `dossier build`; measured in the files."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from generators.cli import main
from conftest import region, rgb, squash

MM_PER_PT = 25.4 / 72


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("display")
    assert main(["build", "--game", "spies", "--only", "display", "--out", str(out)]) == 0
    return out / "spies"


@pytest.fixture(scope="module")
def text(built) -> str:
    with pdfplumber.open(built / "display.pdf") as pdf:
        return " ".join(pdf.pages[0].extract_text().split())


def test_only_display_builds_just_the_display(built):
    assert sorted(p.name for p in built.iterdir() if not p.name.startswith(".")) == ["display-pages.pdf", "display.pdf"]


def test_display_is_one_11_by_17_inch_sheet(built):
    pages = pypdf.PdfReader(built / "display.pdf").pages
    assert len(pages) == 1
    width, height = float(pages[0].mediabox.width) * MM_PER_PT, float(pages[0].mediabox.height) * MM_PER_PT
    assert abs(width - 11 * 25.4) <= 0.5 and abs(height - 17 * 25.4) <= 0.5


def test_action_point_track_runs_from_12_down_to_0(built):
    with pdfplumber.open(built / "display.pdf") as pdf:
        words = pdf.pages[0].extract_words()
    title = next(w for w in words if w["text"] == "Expenditure")
    row = [w for w in words if w["text"].isdigit() and 0 < w["top"] - title["bottom"] < 20]
    assert [int(w["text"]) for w in sorted(row, key=lambda w: w["x0"])] == list(range(12, -1, -1))


def test_every_special_tile_is_listed_with_its_event(built, spies):
    special = [t for t in spies.tiles if t.special]
    assert len(special) == 9  # the asterisked ids of the Event Tile Reference
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        panel = _panel_titled(page, page.extract_words(), "Event Tile Special Effect Summary")
        listed = region(page, (panel["x0"], panel["top"], panel["x1"], panel["bottom"]))
    for tile in special:
        assert squash(tile.id) in listed and squash(tile.event) in listed
    assert "*" not in listed  # nothing in it is marked cell by cell: the note says once what the tiles are


def _panels(page) -> list[dict]:
    """The display's panels: stroked frames filled with the paper's white, wider than 60 mm."""
    return [r for r in page.rects if r["stroke"] and r["width"] * MM_PER_PT > 60 and r["non_stroking_color"] == (1.0, 1.0, 1.0)]


def _lines_in(page, panel: dict) -> list[dict]:
    """The ruled lines to write on inside a panel: thin grey strokes."""
    return [ln for ln in page.lines if panel["x0"] < ln["x0"] < panel["x1"] and panel["top"] < ln["top"] < panel["bottom"]
            and ln["stroking_color"] == (0.466667, 0.466667, 0.466667)]


def _panel_titled(page, words, title: str) -> dict:
    """The panel whose title band reads `title`."""
    return next(p for p in _panels(page) if " ".join(w["text"] for w in words if p["x0"] < w["x0"] < p["x1"]
                                                     and 0 < w["top"] - p["top"] < 12) == title)


def _chit_row(words, panel, chit) -> list[str]:
    """The words printed on a chit's row of the Action Chit Summary after its name's first word."""
    row = next(w for w in words if w["text"] == chit.name.split()[0] and panel["x0"] < w["x0"] < panel["x1"])
    return [w["text"] for w in sorted(words, key=lambda w: w["x0"]) if abs(w["top"] - row["top"]) < 1 and w["x0"] > row["x0"]]


def test_unprinted_effects_are_ruled_lines_and_chit_action_points_are_marked_assumed_once(built, spies):
    """Nine special effects, at least two lines each (as many more as the row has room for), from tables.yaml; the
    four Long Game chits' effects likewise, the others' printed; each chit's Action Points from pieces.yaml,
    assumed, so each marked as the player aid marks a value read (1*, on its chip), the heading plain."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        effects = _lines_in(page, _panel_titled(page, words, "Event Tile Special Effect Summary"))
        panel = _panel_titled(page, words, "Action Chit Summary (Long Game)")
        chits = _lines_in(page, panel)
    assert len(effects) >= 9 * 2
    chits_of = [p for p in spies.pieces if p.kind == "chit"]
    unknown = [p for p in chits_of if not getattr(p, "does", None)]
    assert [p.name for p in unknown] == ["Intercept", "Drop", "Source", "Double Cross"]
    assert len(chits) >= 2 * len(unknown)
    for chit in chits_of:
        after = _chit_row(words, panel, chit)[len(chit.name.split()) - 1:]
        assert after[:2] == [chit.cost, f"{chit.action_points}*"], (chit.name, after)
    heading = next(w for w in words if w["text"] == "Cost" and panel["x0"] < w["x0"] < panel["x1"] and panel["top"] < w["top"] < panel["bottom"])
    assert [w["text"] for w in words if abs(w["top"] - heading["top"]) < 1 and w["x0"] > heading["x0"]][:3] == ["AP,", "own", "turn"]  # on an opponent's turn none are paid


def test_recruit_is_left_to_write_in_for_the_long_game_where_every_spy_starts_on_the_map(built, spies):
    """The Standard Game's reading of Recruit (a spy not yet in play joins the map) has nothing to bring in once every
    spy starts on the map [2.6]: the Long Game summary rules its effect to write in, as the four Long Game chits'."""
    recruit = next(p for p in spies.pieces if p.kind == "chit" and p.name == "Recruit")
    assert "not yet in play" in recruit.does  # the Standard Game's cards and aid keep the reading
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        panel = _panel_titled(page, words, "Action Chit Summary (Long Game)")
        row = next(w for w in words if w["text"] == "Recruit" and panel["x0"] < w["x0"] < panel["x1"])
        following = min(w["top"] for w in words if w["text"] == "Escape" and panel["x0"] < w["x0"] < panel["x1"])
        lines = [ln for ln in _lines_in(page, panel) if row["top"] < ln["top"] < following]
    assert "yet" not in _chit_row(words, panel, recruit)
    assert len(lines) >= 2


def test_values_given_in_the_data_print_in_place_of_the_lines_and_marks(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    file = folder / "tables.yaml"
    text = file.read_text(encoding="utf-8")
    assert text.count("    values: {}") == 1
    text = text.replace("    values: {}", '    values: {"Ge 7": {effect: "Austria joins the Reich at once"}}', 1)
    file.write_text(text.replace('    values: {Recruit: {does: ""}}',
                                 '    values: {Recruit: {does: ""}, "Intercept": {does: "Stops an enemy spy on its way"}}', 1),
                    encoding="utf-8")
    pieces = folder / "pieces.yaml"
    text = pieces.read_text(encoding="utf-8")
    start = text.index('name: "Sanction"')
    end = text.index("}}", start)
    sanction = text[start:end].replace("action_points: 1,", "action_points: 3,")
    sanction = sanction[:sanction.index("assumed: {") + len("assumed: {")] + sanction[sanction.index("count: ", sanction.index("assumed: {")):]
    pieces.write_text(text[:start] + sanction + text[end:], encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "display", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / folder.name / "display.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        panel = _panel_titled(page, words, "Event Tile Special Effect Summary")
        effects = _lines_in(page, panel)
        # read within the panel: a wrapped cell's lines fall between the next panel's when the whole page is read
        flat = " ".join(page.crop((panel["x0"], panel["top"], panel["x1"], panel["bottom"])).extract_text().split())
        chits = _panel_titled(page, words, "Action Chit Summary (Long Game)")
        chit_text = " ".join(page.crop((chits["x0"], chits["top"], chits["x1"], chits["bottom"])).extract_text().split())
        chit_lines = _lines_in(page, chits)
    assert "Austria joins the Reich at once" in flat
    assert len(effects) >= 8 * 2
    assert "Stops an enemy spy on its way" in chit_text and 3 * 2 <= len(chit_lines)
    sanction = next(p for p in game_copy_pieces(folder) if p.name == "Sanction")
    assert _chit_row(words, chits, sanction)[:2] == ["20£", "3"]  # the value as corrected, no longer marked assumed


def game_copy_pieces(folder: Path):
    from generators.validation import load_game
    return [p for p in load_game(str(folder)).pieces if p.kind == "chit"]


def validate_with_values(cli, game_copy, values: str):
    """`dossier validate` on a copy of Spies! whose special-effect table's `values:` reads `values`."""
    folder = game_copy("spies")
    file = folder / "tables.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("    values: {}", f"    values: {values}", 1), encoding="utf-8")
    return cli("validate", "--game", folder)


def test_a_value_for_a_row_the_table_lacks_is_refused(cli, game_copy):
    result = validate_with_values(cli, game_copy, '{"Ge 99": {effect: "x"}}')
    assert result.code == 2 and "tables.yaml" in result.stderr and "Ge 99" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_value_for_a_field_the_sources_print_is_refused(cli, game_copy):
    result = validate_with_values(cli, game_copy, '{"Ge 7": {event: "x"}}')
    assert result.code == 2 and "tables.yaml" in result.stderr and "unprinted" in result.stderr, result.stderr


def test_the_lines_left_to_write_in_are_listed_with_the_assumptions(cli):
    result = cli("assumptions", "--game", "spies", "--json")
    assert result.code == 0, result.stderr
    blank = [a for a in json.loads(result.stdout) if a["reason"].startswith("left blank to write in")]
    assert [(a["subject"], a["field"]) for a in blank] == [("special-effects", "effect"), ("chit-costs", "does")]


def test_chit_costs_of_both_games_and_sequence_of_play(text, spies):
    for chit in (p for p in spies.pieces if p.kind == "chit"):
        assert chit.name in text and chit.cost in text
    assert "Both games" in text and "Long Game" in text
    assert "rulebook" not in text.lower() and "the rules do not" not in text.lower()
    for words in ("Action Point Cost Summary", "Sequence of Play", "Event Tile:", "Police:", "Search:", "Move:"):
        assert words in text


def test_on_letter_the_panels_are_laid_out_afresh_each_whole_on_three_full_pages(built):
    """No sheet to trim and join, none mostly empty: each of the five panels whole on one of three Letter pages,
    inside the margins, and each page's panels reaching its bottom margin."""
    with pdfplumber.open(built / "display-pages.pdf") as pdf:
        assert len(pdf.pages) == 3
        titles = []
        for page in pdf.pages:
            assert (float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT) == pytest.approx((215.9, 279.4), abs=0.3)
            frames = _panels(page)
            words = page.extract_words()
            assert frames
            for r in frames:
                assert min(r["x0"], r["top"], page.width - r["x1"], page.height - r["bottom"]) * MM_PER_PT >= 9.9
                titles.append(" ".join(w["text"] for w in words if r["x0"] < w["x0"] < r["x1"] and 0 < w["top"] - r["top"] < 12))
            assert (page.height - max(r["bottom"] for r in frames)) * MM_PER_PT == pytest.approx(10.0, abs=0.3)
    assert titles == ["Action Point Expenditure Track (Long Game)", "Action Point Cost Summary (Long Game)", "Sequence of Play",
                      "Event Tile Special Effect Summary", "Action Chit Summary (Long Game)"]


def test_every_letter_page_carries_a_fair_share_of_the_content(built):
    """No page of display-pages.pdf is mostly empty, however far its panels are spaced to fill it: the characters
    inside its panels and its lines to write on (a character every 2 mm of line) reach at least half the average
    page's."""
    content = []
    with pdfplumber.open(built / "display-pages.pdf") as pdf:
        for page in pdf.pages:
            top = min(r["top"] for r in _panels(page))
            lines = sum((ln["x1"] - ln["x0"]) * MM_PER_PT / 2 for ln in _lines_in(page, {"x0": 0, "x1": page.width, "top": 0, "bottom": page.height}))
            content.append(sum(1 for c in page.chars if c["top"] > top) + lines)
    assert min(content) >= 0.5 * sum(content) / len(content), content


def _track_boxes(page) -> list[dict]:
    """The Action Point Expenditure Track's boxes: stroked squares of a counter's size or more, in its panel."""
    words = page.extract_words()
    panel = _panel_titled(page, words, "Action Point Expenditure Track (Long Game)")
    return sorted((r for r in page.rects if r["stroke"] and panel["top"] < r["top"] < panel["bottom"]
                   and abs(r["width"] - r["height"]) < 0.5 and r["width"] * MM_PER_PT >= 12.7), key=lambda r: (r["top"], r["x0"]))


def test_the_track_holds_a_counter_in_each_box_and_fills_its_panel(built, spies):
    """Thirteen boxes in one row, each larger than a half-inch counter: on the sheet as wide as the panel allows
    (up to the layout's largest box), on Letter as many as still take one row."""
    style = spies.layout.display
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        boxes = _track_boxes(page)
        panel = _panel_titled(page, page.extract_words(), "Action Point Expenditure Track (Long Game)")
    assert len(boxes) == 13 and len({round(b["top"]) for b in boxes}) == 1
    side = boxes[0]["width"] * MM_PER_PT
    assert side == pytest.approx(min(style.box_most, ((panel["x1"] - panel["x0"]) * MM_PER_PT - 2 * 2.0 * 10.5 / 8.5) / 13), abs=0.05)
    with pdfplumber.open(built / "display-pages.pdf") as pdf:
        boxes = _track_boxes(pdf.pages[0])
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    assert len(boxes) == 13 and len({round(b["top"]) for b in boxes}) == 1
    assert all(b["width"] * MM_PER_PT >= 12.7 + style.box_room - 0.05 for b in boxes)
    numbers = [w for w in words if w["text"].isdigit() and w["size"] == style.heading_size]
    assert [int(w["text"]) for w in sorted(numbers, key=lambda w: w["x0"])] == list(range(12, -1, -1))


def test_a_panel_too_large_for_the_paper_falls_back_to_the_sheet_tiled(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    (folder / "display.yaml").write_text(
        'title: "A big box"\naids:\n  - {id: box, kind: box, title: "Pieces", holds: 72, span: 2}\n', encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "display", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr
    built = tmp_path / "out" / folder.name
    assert sorted(p.name for p in built.glob("*.pdf")) == ["display-tiles.pdf", "display.pdf"]
    assert len(pypdf.PdfReader(built / "display-tiles.pdf").pages) >= 3  # the index page and at least two sheets


def test_on_paper_that_takes_the_sheet_the_display_is_one_file(cli, tmp_path):
    result = cli("build", "--game", "spies", "--only", "display", "--paper", "tabloid", "--out", tmp_path)
    assert result.code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "spies").glob("*.pdf")) == ["display.pdf"]


def test_the_display_fills_its_sheet_inside_the_margins(built):
    """The panels reach down to the bottom margin and keep the layout's 10 mm margin all round."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        frames = _panels(page)
        words = page.extract_words()
        width, height = float(page.width), float(page.height)
    assert len(frames) == 5
    assert (height - max(r["bottom"] for r in frames)) * MM_PER_PT == pytest.approx(10.0, abs=0.5)
    for thing in frames + words:
        assert min(thing["x0"], thing["top"], width - thing["x1"], height - thing["bottom"]) * MM_PER_PT >= 9.9


def test_the_panels_stand_on_one_grid(built):
    """Every panel's left and right edges are those of the sheet's columns; the two columns of a band end level,
    the last panel at the bottom margin; panels one above the other are the layout's gap apart: within 0.3 mm."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        frames = _panels(page)
        height = float(page.height)
    lefts = sorted({round(r["x0"] * MM_PER_PT, 1) for r in frames})
    rights = sorted({round(r["x1"] * MM_PER_PT, 1) for r in frames})
    assert len(lefts) == 2 and len(rights) == 2, (lefts, rights)
    for edge in ("x0", "x1"):
        for r in frames:
            assert min(abs(r[edge] * MM_PER_PT - e) for e in (lefts if edge == "x0" else rights)) <= 0.3
    half = [r for r in frames if r["x1"] - r["x0"] < page.width / 2]
    columns = [[r for r in half if abs(r["x0"] * MM_PER_PT - left) <= 0.3] for left in lefts]
    assert all(columns)
    assert abs(max(r["bottom"] for r in columns[0]) - max(r["bottom"] for r in columns[1])) * MM_PER_PT <= 0.3
    assert abs((height - max(r["bottom"] for r in frames)) * MM_PER_PT - 10.0) <= 0.3
    for column in [columns[0] + [r for r in frames if r not in half], columns[1] + [r for r in frames if r not in half]]:
        column.sort(key=lambda r: r["top"])
        gaps = [(b["top"] - a["bottom"]) * MM_PER_PT for a, b in zip(column, column[1:])]
        assert all(abs(g - 6.0) <= 0.3 for g in gaps), gaps  # the layout's gap, not space left over


def test_the_display_sets_one_size_per_role(built, spies):
    """The layout's sizes and no others: the title, notes, headings (and box numbers), the text of tables and lists."""
    style = spies.layout.display
    with pdfplumber.open(built / "display.pdf") as pdf:
        chars = pdf.pages[0].chars
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    assert {round(c["size"], 2) for c in chars} == {style.title_size, style.note_size, style.heading_size, style.text_size}
    assert {w["size"] for w in words if w["text"] in {"(Long", "Sequence", "Expenditure"}} == {style.heading_size}
    assert {w["size"] for w in words if w["text"] in {"Anschluss!", "Czech", "Papers", "Police:"}} == {style.text_size}
    assert min(c["size"] for c in chars) >= 9.0  # read across the table


def test_the_panels_wear_the_maps_colours(built, spies):
    """Title bands in the map's sea ink, table heads in its land colour."""
    layout = spies.layout
    with pdfplumber.open(built / "display.pdf") as pdf:
        fills = [tuple(round(v, 2) for v in r["non_stroking_color"]) for r in pdf.pages[0].rects if r["fill"]]
    assert layout.colour("display-band").fill == layout.colour("map-sea").ink
    assert layout.colour("display-tint").fill == layout.colour("map-land").fill
    assert fills.count(rgb(layout.colour("display-band").fill, places=2)) == 5
    assert fills.count(rgb(layout.colour("display-tint").fill, places=2)) == 3


def test_the_display_says_how_to_print_it(built):
    with pdfplumber.open(built / "display.pdf") as pdf:
        subject = pdf.metadata.get("Subject", "")
        text = " ".join(pdf.pages[0].extract_text().split())
    assert subject.startswith("Print at 100 % on Tabloid (11 × 17 in), one-sided")
    assert "Print at 100 % on Tabloid (11 × 17 in), one-sided" in text
    with pdfplumber.open(built / "display-pages.pdf") as pdf:
        assert pdf.metadata.get("Subject", "") == "Print at 100 % on Letter (no fit to page), one-sided"
        assert "page 3 of 3" in pdf.pages[2].extract_text()


@pytest.mark.parametrize("find, put, field", [
    ('section: "In this order"', 'section: "Nowhere"', "aids[2].from_card"),
    ("card: aid-turn", "card: no-such-card", "aids[2].from_card"),
    ("table: chit-costs", "table: no-such-table", "aids[4].table"),
])
def test_validate_refuses_a_display_reference_the_game_lacks(cli, game_copy, find, put, field):
    folder = game_copy("spies")
    file = folder / "display.yaml"
    text = file.read_text(encoding="utf-8")
    assert find in text
    file.write_text(text.replace(find, put), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "display.yaml" in result.stderr and field in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_display_aid_naming_an_unknown_card_section_is_refused(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    file = folder / "display.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace('section: "In this order"', 'section: "Nowhere"'), encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "display", "--out", tmp_path / "out")
    assert result.code == 2 and "display.yaml" in result.stderr and "Nowhere" in result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


def test_the_display_speaks_to_players_not_to_the_toolkit(text):
    assert "This edition's reading of the rules." in text
    assert "dossier" not in text.lower() and "`" not in text  # a player at the table has only the sheet


def test_the_sequence_of_play_gives_the_talks_beside_the_four_steps(built):
    """Talks are open all turn long [3.9]: the display's Sequence of Play says so beside its four numbered steps."""
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        panel = _panel_titled(page, page.extract_words(), "Sequence of Play")
        text = " ".join(page.crop((panel["x0"], panel["top"], panel["x1"], panel["bottom"])).extract_text().split())
    for step in ("1. Event Tile:", "2. Police:", "3. Search:", "4. Move:", "talks with any opponent"):
        assert step in text, step


def test_each_value_read_rather_than_given_sits_on_a_tint_chip_as_on_the_aid(built):
    """Every chit's Action Points and the cost of playing one are this edition's reading: each prints as 1* on the
    chip the player aid uses, so a player sees at once what to write over; values the rulebook gives have none."""
    from generators.printing.chips import WRITE_TINT

    tint = tuple(int(WRITE_TINT[i:i + 2], 16) / 255 for i in (1, 3, 5))
    with pdfplumber.open(built / "display.pdf") as pdf:
        page = pdf.pages[0]
        chips = [r for r in page.rects if r["fill"] and all(abs(a - b) < 0.002 for a, b in zip(r["non_stroking_color"] or (), tint))]
        marked = [w for w in page.extract_words() if w["text"] == "1*"]
    assert len(marked) == 11  # ten chits and the Action Point Cost Summary's row for playing one (the note's is text)
    inside = [w for w in marked if any(c["x0"] <= w["x0"] and w["x1"] <= c["x1"] and c["top"] <= w["top"] and w["bottom"] <= c["bottom"] + 0.5
                                       for c in chips)]
    assert len(inside) == 10 + 1
