"""The other seed games' boards: Web of Spies' world map read by the same network and checks as Spies!, and
Spion & Spion's track boards (boards.yaml) checked and moved on by the generic track code."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import cut_boxes, grey, rgb, squash
from conftest import region as card_text
from generators.map.network import Network
from generators.map.track import Track, board_for
from generators.printing.settings import PrintSettings
from generators.validation import load_game

GENERATORS = Path(__file__).resolve().parents[1] / "generators"


@pytest.fixture(scope="module")
def web():
    return load_game("web-of-spies")


@pytest.fixture(scope="module")
def spion():
    return load_game("spion-und-spion")


# ---- Web of Spies: the world map ----------------------------------------------------------------------

def test_web_of_spies_map_is_valid_through_the_cli(cli):
    result = cli("map", "check", "--game", "web-of-spies", "--json")
    assert result.code == 0, result.stdout
    assert result.json()["valid"] and result.json()["errors"] == 0


def test_caracas_to_dakar_is_one_space(cli):
    found = cli("map", "route", "caracas", "DAKAR", "--game", "web-of-spies", "--json").json()
    assert (found["from"], found["to"], found["spaces"]) == ("Caracas", "Dakar", 1)


def test_every_city_reaches_every_other(web):
    network = Network(web.map)
    cities = [c.name for c in web.map.cities]
    assert all(set(network.reachable(c, spaces=len(network.graph))) == set(cities) for c in cities)


def test_each_region_has_one_city_per_face_of_the_city_die(web):
    dice = web.map.dice
    assert [r.number for r in sorted(web.map.regions, key=lambda r: r.number)] == list(range(1, dice.region.faces + 1))
    for region in web.map.regions:
        numbers = sorted(c.number for c in web.map.cities if c.region == region.name)
        assert numbers == list(range(1, dice.city.faces + 1)), region.name


def test_reach_lists_the_cities_a_hand_can_pay_for(cli):
    found = cli("map", "reach", "Caracas", "--spaces", "1", "--game", "web-of-spies", "--json").json()
    assert {p["name"] for p in found["places"] if p["spaces"] == 1} >= {"Dakar", "Bogotá", "Havana", "Rio de Janeiro"}


def test_every_reconstruction_of_the_world_map_is_marked(web):
    document = web.documents["map.yaml"]
    for field in ("cities", "regions", "number", "routes", "lat", "lon", "dice"):
        assert field in document["assumed"], field


@pytest.mark.parametrize("edit, code, where", [
    (lambda m: m["cities"][1].update(number=1), "die-face", "regions[0]"),
    (lambda m: m["cities"].pop(5), "dice-cities", "regions[0]"),
    (lambda m: m["cities"][0].update(region="Atlantis"), "unknown-region", "cities[0].region"),
    (lambda m: m["regions"][1].update(number=7), "die-face", "regions[1].number"),
    (lambda m: m["cities"][0].update(power="yellow"), "home-territory", "cities[0].power"),
])
def test_a_broken_world_map_reports_its_code_and_field(cli, game_copy, edit, code, where):
    folder = game_copy("web-of-spies")
    file = folder / "map.yaml"
    document = yaml.safe_load(file.read_text(encoding="utf-8"))
    edit(document)
    file.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    rows = cli("map", "check", "--game", folder, "--json").json()["problems"]
    assert any(r["code"] == code and r["where"] == where for r in rows), rows
    result = cli("validate", "--game", folder)
    assert result.code == 2 and f"map.yaml: {where}:" in result.stderr


# ---- Spion & Spion: the track boards ----------------------------------------------------------------

def test_both_boards_are_valid_through_the_cli(cli):
    result = cli("map", "check", "--game", "spion-und-spion")
    assert result.code == 0, result.stdout
    assert "boards.yaml: valid (four-player: 20 spaces, two-player: 10 spaces)" in result.stdout


@pytest.mark.parametrize("board_id, players", [("four-player", 4), ("two-player", 2)])
def test_every_space_is_reached_going_each_sides_way(spion, board_id, players):
    board = board_for(spion, board_id=board_id)
    track = Track(board)
    assert len(board.directions) == players
    ways = Counter(board.directions.values())
    assert ways["forward"] == ways["backward"]  # BLACK and WHITE always go against each other
    for side in board.directions:
        for space in board.spaces:
            assert set(track.ahead(space.id, side)) | {space.id} == {s.id for s in board.spaces}


@pytest.mark.parametrize("board_id", ["four-player", "two-player"])
def test_embassies_stand_on_corners_prison_in_the_middle(spion, board_id):
    board = board_for(spion, board_id=board_id)
    embassies = [s for s in board.spaces if s.kind == "embassy"]
    assert embassies and all(s.corner and s.owner for s in embassies)
    assert sum(s.corner for s in board.spaces) == 4
    assert "coal-box" in {a.id for a in board.middle}
    # every player copies the set-up "in their own colors": a prison of each colour, in the middle
    assert {a.title for a in board.middle if a.id.endswith("-prison")} == {f"{s.upper()} PRISON" for s in board.directions}
    assert any(a.kind == "slots" and len(a.slots) == 2 for a in board.border)
    assert any(s.kind == "alfred" for s in board.spaces)


def test_a_move_counts_an_embassy_as_one_space_and_stops_before_a_block(spion):
    track = Track(board_for(spion, board_id="four-player"))
    assert track.advance("4", "black", 2).path == ("white-embassy", "5")
    assert track.advance("5", "white", 2).path == ("white-embassy", "4")
    blocked = track.advance("1", "black", 4, blocked=["3"])
    assert blocked.path == ("2",) and blocked.blocked_by == "3" and not blocked.is_complete


def test_advance_through_the_cli(cli):
    found = cli("map", "advance", "BLACK embassy", "--side", "black", "--spaces", "3", "--game", "spion-und-spion", "--json").json()
    assert found["path"] == ["1", "2", "3"] and found["end"] == "3"
    bad = cli("map", "advance", "1", "--side", "white-blue", "--board", "two-player", "--game", "spion-und-spion")
    assert bad.code == 2 and "no direction" in bad.stderr


@pytest.mark.parametrize("old, new, where, words", [
    ('{id: "3"}', '{id: "3", kind: trapdoor}', "boards[0].spaces[3].kind", "does not declare"),
    ('{id: "5"}', '{id: "5", owner: purple}', "boards[0].spaces[6].owner", "not a faction"),
    ('{id: "7"}', '{id: "6"}', "boards[0].spaces[8].id", "appears 2 times"),
    ("black: forward, black-red: forward", "black: forward, black-red: sideways", "boards[0].directions.black-red", "forward"),
    ('owner: black-red, corner: true}', 'owner: black-red}', "boards[0].spaces", "4 corners"),
])
def test_a_broken_board_file_names_its_file_and_field(cli, game_copy, old, new, where, words):
    folder = game_copy("spion-und-spion")
    file = folder / "boards.yaml"
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2
    line = next(line for line in result.stderr.splitlines() if f"boards.yaml: {where}" in line)
    assert words in line and "Traceback" not in result.stderr


# ---- the core stays game-neutral ------------------------------------------------------------------------

GAME_WORDS = re.compile(r"cousin|haven|gestapo|nkvd|sanction|spies!|zoff|bazong|alfred|zillion|froehn|embassy|embassies|"
                        r"pass-card|\basset|agency|agencies|caracas|dakar", re.IGNORECASE)
# Beyond the command line's help, whose examples name the game Dossier ships and opens by default, no
# word of one game's concepts either: its pieces, its tiles' ids ("Ge 1", "random 36") and fields, its texts.
CONCEPT_WORDS = re.compile(r"police|\bsecret\b|\bspies\b|any year|award|event tile|\b(ge|it|rs|fr|br|random) \d", re.IGNORECASE)
# Tabletop Simulator's own documentation page, cited by name where the exports follow it.
QUOTED = ("Asset Creation",)


def game_words_in(folder: Path, words: re.Pattern, skip: tuple[str, ...] = ()) -> list[str]:
    found = []
    for file in sorted(folder.rglob("*")):
        if file.is_file() and file.suffix in (".py", ".yaml", ".txt", ".md", ".toml") and \
                not file.relative_to(folder).parts[0] in skip:
            for n, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
                for quoted in QUOTED:
                    line = line.replace(quoted, "")
                if words.search(line):
                    found.append(f"{file.relative_to(folder)}:{n}: {line.strip()}")
    return found


def test_the_core_names_no_game():
    found = game_words_in(GENERATORS, GAME_WORDS)
    assert not found, "\n".join(found)


def test_the_core_holds_no_games_concepts():
    found = game_words_in(GENERATORS, CONCEPT_WORDS, skip=("cli",))
    assert not found, "\n".join(found)


# ---- the referee counts on the boards ---------------------------------------------------------------

def ask(cli, game, *args):
    result = cli("referee", "--game", game, *args, "--json")
    assert result.code == 0, result.stderr
    return result.json()


def test_advance_counts_an_embassy_as_one_space(cli):
    found = ask(cli, "spion-und-spion", "advance", "3", "--colour", "black", "--spaces", "3")
    assert found["path"] == ["4", "white-embassy", "5"] and found["end"] == "5" and found["board"] == "four-player"


def test_advance_goes_each_sides_own_way(cli):
    black = ask(cli, "spion-und-spion", "advance", "6", "--colour", "black-red", "--spaces", "1")
    white = ask(cli, "spion-und-spion", "advance", "6", "--colour", "white-blue", "--spaces", "1")
    assert (black["end"], white["end"]) == ("7", "5")


def test_landing_on_alfred_shows_the_number(cli):
    found = ask(cli, "spion-und-spion", "advance", "black embassy", "--colour", "black", "--spaces", "2")
    assert found["kind"] == "alfred" and "Traitor" in found["rules"] and "number" in found["explanation"]


def test_landing_exactly_on_an_enemy_embassy_means_zoff(cli):
    found = ask(cli, "spion-und-spion", "advance", "3", "--colour", "black", "--spaces", "2")
    assert found["end"] == "white-embassy" and "The Bazong" in found["rules"]


def test_a_trap_stops_the_spy_in_front_of_it(cli):
    found = ask(cli, "spion-und-spion", "advance", "1", "--colour", "black", "--spaces", "4", "--trap", "3")
    assert found["verdict"] == "stops at a trap" and found["end"] == "2" and "Register S2" in found["rules"]


def test_the_two_player_board_is_counted_in_the_two_player_game(cli):
    found = ask(cli, "spion-und-spion:two-player", "advance", "4", "--colour", "white", "--spaces", "1")
    assert found["board"] == "two-player" and found["end"] == "3"


@pytest.mark.parametrize("args, words", [
    (["advance", "3", "--colour", "black", "--spaces", "5"], "up to 4"),
    (["advance", "3", "--colour", "black", "--trap", "white embassy"], "embassy"),
    (["advance", "99", "--colour", "black"], "unknown space"),
    (["advance", "3", "--colour", "purple"], "unknown faction"),
])
def test_advance_refuses_what_the_board_cannot_hold(cli, args, words):
    result = cli("referee", "--game", "spion-und-spion", *args)
    assert result.code == 2 and words in result.stderr


def test_travel_counts_cities_on_the_world_map(cli):
    found = ask(cli, "web-of-spies", "travel", "Caracas", "Dakar", "--cards", "1")
    assert found["verdict"] == "allowed" and found["spaces"] == 1
    far = ask(cli, "web-of-spies", "travel", "Caracas", "Tokyo", "--cards", "2")
    assert far["verdict"] == "too few cards" and far["spaces"] == len(far["path"]) - 1 > 2


# ---- printed ----------------------------------------------------------------------------------------------

MM = 72 / 25.4


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    from generators.cli import main

    out = tmp_path_factory.mktemp("boards")
    assert main(["build", "--game", "spion-und-spion", "--only", "boards", "--out", str(out)]) == 0
    assert main(["build", "--game", "web-of-spies", "--only", "map", "--out", str(out)]) == 0
    return out


def squares(page, side_mm: float) -> list:
    return [r for r in page.rects if abs(r["width"] / MM - side_mm) < 0.1 and abs(r["height"] / MM - side_mm) < 0.1]


@pytest.mark.parametrize("board_id, spaces, alfred", [("four-player", 20, 4), ("two-player", 10, 2)])
def test_each_board_prints_every_space_at_the_layouts_size(printed, spion, board_id, spaces, alfred):
    import pdfplumber

    size = spion.layout.size("space").width
    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        [page] = pdf.pages
        assert len(squares(page, size)) == spaces
        words = [w["text"] for w in page.extract_words()]
        text = " ".join(words)
    assert words.count("ALFRED") == alfred + 1  # each ALFRED space, and the legend
    for printed_text in ("BLACK PRISON", "COAL BOX", "BLACK Pass-Cards", "WHITE Pass-Cards", "BLACK embassy", "WHITE embassy"):
        assert printed_text in text
    assert size >= 2 * spion.layout.size("counter").width  # two spies side by side


@pytest.mark.parametrize("board_id, sheets", [("four-player", 6), ("two-player", 6)])
def test_each_board_is_tiled_over_letter_with_a_guide(printed, board_id, sheets):
    """Sized to its content and its blank border left off, each board takes 6 Letter sheets (3 x 2): the boxes'
    type set at 10 pt and more, to be read from every corner, widens the four-player board past two sheets across."""
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}-tiles.pdf") as pdf:
        assert len(pdf.pages) == 1 + sheets
        assert all(sorted((round(p.width / MM, 1), round(p.height / MM, 1))) == [215.9, 279.4] for p in pdf.pages)
        assert "how the sheets fit" in pdf.pages[0].extract_text()


def test_the_world_map_prints_its_dice_table_and_asset_slots(printed, web):
    import pdfplumber

    with pdfplumber.open(printed / "web-of-spies" / "map.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        card = web.layout.size("card")
        slots = [r for r in pdf.pages[0].rects if abs(r["width"] / MM - card.width) < 0.1 and abs(r["height"] / MM - card.height) < 0.1]
    for name in ("Caracas", "Dakar", "Region die (white)", "Public Asset", "Secret Asset", "North America"):
        assert name in text
    assert len(slots) == 3
    assert (printed / "web-of-spies" / "map-tiles.pdf").is_file()


def test_the_world_maps_flights_read_on_every_region_and_in_mono(printed, web):
    """Every route on the world board is a flight, once thin purple dashes that faded on a mono print: each is
    drawn 2 pt or wider, 60 grey levels darker than the darkest region, over a white edge 1.5 pt wider."""
    import pdfplumber

    def fill(name: str) -> str:
        return web.layout.colour(name).fill

    assert grey(fill("map-air")) < min(grey(fill(r.colour)) for r in web.map.regions) - 60
    with pdfplumber.open(printed / "web-of-spies" / "map.pdf") as pdf:
        lines = [(tuple(round(v, 3) for v in line["stroking_color"]), line["linewidth"], (round(line["x0"]), round(line["top"])))
                 for line in pdf.pages[0].lines if line.get("stroking_color") and len(line["stroking_color"]) == 3]
    flights = [(colour, width, at) for colour, width, at in lines if colour == rgb(fill("map-air"))]
    edges = {at: width for colour, width, at in lines if colour == (1, 1, 1)}
    assert len(flights) == sum(r.kind == "air" for r in web.map.routes) + 1  # and the legend's
    assert all(width >= 2 and edges.get(at, 0) >= width + 1.5 for _, width, at in flights), flights


def test_the_world_boards_names_and_tables_read_across_the_table(printed, web):
    """A 22 x 34 inch board is read from the far side of the table: its city names 12 pt (they were 10) and the dice
    table's and the asset slots' type 1.3 times an aid's usual size (it was 8.5 pt, from a Letter page's sizes)."""
    import pdfplumber

    style = web.layout.poster
    assert round(style.city_size, 2) == round(style.capital_size, 2) == 12 and style.aid_type == 1.3
    with pdfplumber.open(printed / "web-of-spies" / "map.pdf") as pdf:
        words = pdf.pages[0].dedupe_chars().extract_words(extra_attrs=["size"])  # a name's halo is a second copy
    frame_right = max(w["x1"] for w in words if w["text"] == "P")  # the grid letters' last column: the map, not the key
    for name in ("Caracas", "Dakar", "Tokyo", "Santiago"):  # each named beside its space and in the dice table
        sizes = sorted(round(w["size"], 1) for w in words if w["text"] == name and w["x1"] < frame_right)
        assert sizes[-1] == 12.0 and sizes[0] >= 11.0, (name, sizes)


def test_each_world_city_shows_its_city_die_face_on_its_rim(printed, web):
    """With counters on a space its name beside it can stand apart: each city's face of the city die is printed
    white on a black badge on the space's own rim, nearer its centre than any other city's."""
    import pdfplumber

    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    plan = plan_poster(web, PrintSettings.of_layout(web.layout), register_fonts(web.layout.fonts, web.folder))
    with pdfplumber.open(printed / "web-of-spies" / "map.pdf") as pdf:
        page = pdf.pages[0]
        discs = [((c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM) for c in page.curves
                 if c.get("fill") and c.get("non_stroking_color") in ((0, 0, 0), (0,), [0, 0, 0], [0])
                 and abs((c["x1"] - c["x0"]) / MM - plan.style.badge) < 0.2]
        digits = [(c["text"], (c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM) for c in page.chars
                  if abs(c["size"] - plan.style.badge_size) < 0.1]
    def nearest(x, y) -> str:
        return min(plan.at, key=lambda name: (plan.at[name][0] - x) ** 2 + (plan.at[name][1] - y) ** 2)

    shown = {}
    for disc in discs:
        city = nearest(*disc)
        assert 0.75 < math.dist(plan.at[city], disc) / plan.radius(city) < 1.2, city  # on that city's rim
        shown[city] = "".join(text for text, x, y in digits if math.dist(disc, (x, y)) < plan.style.badge / 2)
    assert len(discs) == len(web.map.cities) and shown == {c.name: str(c.number) for c in web.map.cities}


def _tile_seams(path: Path, page_height: float) -> tuple[list[float], list[float]]:
    """Where a tiles PDF joins its page (page mm): the left and top edges of its sheets' windows after the first,
    read from where each sheet places the page (its clip's corner is the 10 mm margin's)."""
    import pypdf
    from pypdf.generic import ContentStream

    margin = 10.0
    reader = pypdf.PdfReader(path)
    corners = set()
    for page in reader.pages[1:]:
        ops = [(o, op) for o, op in ContentStream(page.get_contents(), reader).operations if op in (b"re", b"cm")]
        matrix = next(o for o, op in ops[1:] if op == b"cm")  # after the clip rectangle
        height = float(page.mediabox.height) / MM
        corners.add((round(margin - float(matrix[4]) / MM, 3), round(page_height - (height - margin - float(matrix[5]) / MM), 3)))
    return sorted({x for x, _ in corners})[1:], sorted({y for _, y in corners})[1:]


def test_the_world_maps_seams_keep_off_most_cities(printed, web):
    """The tiled world map's seams once ran through 7 of its 36 cities' spaces (Mexico City, Paris, Lisbon...):
    shifted within the paper left over, they cut at most 4, and never Lisbon."""
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    plan = plan_poster(web, PrintSettings.of_layout(web.layout), register_fonts(web.layout.fonts, web.folder))
    xs, ys = _tile_seams(printed / "web-of-spies" / "map-tiles.pdf", plan.height)
    def through(seams, at, name) -> bool:  # a seam along the space's edge cuts nothing
        return any(abs(s - at) < plan.radius(name) - 0.1 for s in seams)

    cut = [name for name, (x, y) in plan.at.items() if through(xs, x, name) or through(ys, y, name)]
    assert len(cut) <= 4 and "Lisbon" not in cut, cut


def test_the_world_map_fills_a_landscape_sheet_with_spaces_for_its_pieces(web):
    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    plan = plan_poster(web, PrintSettings.of_layout(web.layout), register_fonts(web.layout.fonts, web.folder))
    assert (round(plan.width / 25.4), round(plan.height / 25.4)) == (34, 22)
    assert plan.frame.width * plan.frame.height / (plan.width * plan.height) > 0.65  # the map, not blank paper
    assert plan.style.space >= 1.8 * web.layout.size("counter").width  # an asset marker and an agent side by side
    centres = [plan.at[c.name] for c in web.map.cities]
    closest = min(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for i, a in enumerate(centres) for b in centres[i + 1:])
    assert closest >= plan.style.space + 10  # Europe's twelve cities are not crowded together


def test_the_world_map_numbers_its_regions_and_cities_for_the_dice_and_speaks_of_nothing_it_lacks(printed, web):
    import pdfplumber

    from generators.map.poster import plan_poster
    from generators.printing.fonts import register_fonts

    key = plan_poster(web, PrintSettings.of_layout(web.layout), register_fonts(web.layout.fonts, web.folder)).key
    with pdfplumber.open(printed / "web-of-spies" / "map.pdf") as pdf:
        page = pdf.pages[0].dedupe_chars()  # names are drawn twice: halo, then ink
        text = " ".join(page.extract_text().split())
        # the key read apart from the map, whose names may stand on the same lines as the key's
        key_text = " ".join(page.crop((key.x * MM, key.y * MM, key.right * MM, key.bottom * MM)).extract_text().split())
    for region in web.map.regions:
        assert f"{region.number} · {region.name}" in text
    for city in web.map.cities:
        assert f"{city.number} · {city.name}" in text
    # the rules give a card a space and no limit a turn: the note says so, in the map's own words
    assert web.map.rules.note in key_text and "at most" not in text and "spaces a turn" not in text
    for word in ("sea zone", "Port", "Capital", "Neutral", "rail", "Rail", "home territory"):
        assert word not in text, word


def _faint_pictures(page) -> list[int]:
    """Per card on `page` holding faint grey drawings, how many pictures they make: drawings less than 2 mm apart
    across the card are one picture."""
    faint = [o for o in page.rects + page.curves if o.get("fill") and o.get("non_stroking_color")
             and len(set(o["non_stroking_color"])) == 1 and 0.6 < o["non_stroking_color"][0] < 0.8]
    counts = []
    for x0, top, x1, bottom in cut_boxes(page):
        xs = sorted((o["x0"] + o["x1"]) / 2 for o in faint if x0 < o["x0"] and o["x1"] < x1 and top < o["top"] and o["bottom"] < bottom)
        if xs:
            counts.append(1 + sum(b - a > 2 * MM for a, b in zip(xs, xs[1:])))
    return counts


def test_an_asset_card_a_user_adds_is_printed(cli, game_copy, tmp_path):
    import pdfplumber

    folder = game_copy("web-of-spies")
    roster = folder / "pieces.yaml"
    roster.write_text(roster.read_text(encoding="utf-8") + '  - {kind: asset-card, name: "Dead Drop", cost: "7", text: "Hide a card.", '
                      'marks: [shield], icons: [document]}\n', encoding="utf-8")
    assert cli("build", "--game", folder, "--only", "counters", "--out", tmp_path / "out").code == 0
    with pdfplumber.open(tmp_path / "out" / "web-of-spies" / "counters.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
        cards = [card_text(page, box) for page in pdf.pages[0::2] for box in cut_boxes(page)]
        blanks = sum(squash(card) == "Ability:" for card in cards)  # no name, no agency: a blank to write
        cost = [(c, page) for page in pdf.pages for c in page.chars if c["text"] == "7"]
        pictures = [_faint_pictures(page) for page in pdf.pages]
    assert "Dead Drop" in text and blanks == 9  # the blank sheet's nine cards
    # an agency's name read as an asset (the examples play it from hand) is marked where it prints
    assert any(squash("American CIA *") in card for card in cards) and any(squash("Egyptian GID *") in card for card in cards)
    assert not any(squash("Dead Drop *") in card for card in cards)
    # each card's six boxes to ink over hold their symbol's picture, faint: the 9 blanks and each agency's
    # Black Car and False Identity, whose symbols the rulebook does not print, 6 pictures each
    assert sorted(n for per_page in pictures for n in per_page) == [6] * (9 + 4 * 2)
    # its cost sits in the ring in the card's upper right corner
    ringed = [c for c, page in cost for ring in page.curves if ring["stroke"] and ring["width"] > 5 * 72 / 25.4
              and ring["x0"] < c["x0"] and c["x1"] < ring["x1"] and ring["top"] < c["top"] and c["bottom"] < ring["bottom"]]
    assert len(ringed) == 1


def test_the_docs_smallest_board_works_as_written(cli, tmp_path, monkeypatch):
    docs = (Path(__file__).resolve().parents[1] / "docs" / "boards.md").read_text(encoding="utf-8")
    board = re.search(r"## The smallest track board.*?```yaml\n(.*?)```", docs, re.S).group(1)
    dice_map = re.search(r"## The smallest map with dice.*?```yaml\n(.*?)```", docs, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    assert cli("new", "my-game").code == 0
    folder = tmp_path / "my-game"
    preset = next((folder / "layouts").glob("*.yaml"))
    preset.write_text(preset.read_text(encoding="utf-8").replace("sizes:\n", "sizes:\n  space: {width: 30mm, height: 30mm}\n", 1), encoding="utf-8")
    (folder / "boards.yaml").write_text(board, encoding="utf-8")
    (folder / "map.yaml").write_text(dice_map, encoding="utf-8")
    assert cli("map", "check", "--game", folder).code == 0
    moved = cli("map", "advance", "red home", "--side", "red", "--spaces", "2", "--game", folder, "--json").json()
    assert moved["end"] == "2"
    assert cli("build", "--game", folder, "--only", "boards", "--out", tmp_path / "out").code == 0
    assert (tmp_path / "out" / "my-game" / "board-ring.pdf").is_file()
    built = cli("build", "--game", folder, "--only", "map", "--out", tmp_path / "out")  # a tiny map's poster keeps room for its key
    assert built.code == 0, built.stderr
    import pdfplumber

    with pdfplumber.open(tmp_path / "out" / "my-game" / "map.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "Each city entered is one space; at most 3 spaces a turn, by rail; a move ends in a city." in " ".join(text.split())
    for word in ("sea zone", "Port", "Capital", "Neutral"):
        assert word not in text  # the legend shows only what this map has


@pytest.mark.parametrize("board_id", ["four-player", "two-player"])
def test_an_exports_track_spaces_sit_on_the_printed_spaces_and_rooms(spion, board_id):
    from generators.export.boards import track_drawings
    from generators.export.parts import export_settings
    from generators.map.track_board import plan_board
    from generators.printing.fonts import register_fonts

    fonts = register_fonts(spion.layout.fonts, spion.folder)
    board = board_for(spion, board_id=board_id)
    picture = next(p for p in track_drawings(spion, export_settings(spion), fonts) if p.name == board_id)
    plan = plan_board(spion, PrintSettings.of_layout(spion.layout), board, fonts)
    spaces = {s.name: s for s in picture.spaces}
    assert len(spaces) == len(picture.spaces)  # a name a piece is logged at is one place
    for at in plan.spaces:
        space = spaces[at.space.label]
        assert (space.x, space.y) == at.centre and space.diameter == at.size
    for laid, x, y in plan.aids:
        for room in laid.rooms:
            space = spaces[room.label]
            assert x + room.x < space.x < x + room.x + room.width and y + room.y < space.y < y + room.y + room.height
            assert x <= x + room.x and x + room.x + room.width <= x + laid.width  # the room lies inside its aid
            assert y < y + room.y and y + room.y + room.height <= y + laid.height
    assert {"BLACK PRISON", "COAL BOX", "BLACK Pass-Cards", "WHITE Pass-Cards"} <= set(spaces)


def _plans(spion):
    from generators.map.track_board import plan_board
    from generators.printing.fonts import register_fonts

    fonts = register_fonts(spion.layout.fonts, spion.folder)
    return {b.id: plan_board(spion, PrintSettings.of_layout(spion.layout), b, fonts) for b in spion.boards.boards}


def test_the_four_player_board_is_square_with_an_embassy_at_each_corner_and_the_two_player_board_is_wider_than_tall(spion):
    plans = _plans(spion)
    four = [at.centre for at in plans["four-player"].spaces if at.space.corner]
    xs, ys = sorted({round(x, 3) for x, _ in four}), sorted({round(y, 3) for _, y in four})
    assert len(xs) == len(ys) == 2 and abs((xs[1] - xs[0]) - (ys[1] - ys[0])) < 0.01  # players sit at a square's corners
    two = [at.centre for at in plans["two-player"].spaces if at.space.corner]
    assert max(x for x, _ in two) - min(x for x, _ in two) > max(y for _, y in two) - min(y for _, y in two)
    big, small = plans["four-player"], plans["two-player"]
    assert small.width * small.height < big.width * big.height  # the small board is the smaller


@pytest.mark.parametrize("board_id, players", [("four-player", 4), ("two-player", 2)])
def test_every_place_the_table_needs_lies_inside_the_ring(spion, board_id, players):
    plan = _plans(spion)[board_id]
    corners = [at for at in plan.spaces if at.space.corner]
    left, top = min(at.x + at.size for at in corners), min(at.y + at.size for at in corners)
    right, bottom = max(at.x for at in corners), max(at.y for at in corners)
    titles = []
    below = {aid.title for aid in plan.board.below}  # the set-up, read before play, lies under the ring or beside it
    for laid, x, y in plan.aids:
        inside = left <= x and x + laid.width <= right and top <= y and y + laid.height <= bottom
        assert inside != (laid.aid.title in below), laid.aid.title
        titles.append(laid.aid.title)
    for i, (a, ax, ay) in enumerate(plan.aids):  # and none lies over another
        for b, bx, by in plan.aids[i + 1:]:
            assert ax + a.width <= bx or bx + b.width <= ax or ay + a.height <= by or by + b.height <= ay
    assert {"BLACK PRISON", "COAL BOX", "Pass-Cards", "Hot-Envelopes", "TRAP-B-GONE die"} <= set(titles)
    envelopes = next(laid for laid, _, _ in plan.aids if laid.aid.title == "Hot-Envelopes")
    slip = spion.layout.size("slip")
    assert len(envelopes.rooms) == players  # one sealed envelope per player
    assert all((r.width, r.height) == (slip.width, slip.height) for r in envelopes.rooms)


@pytest.mark.parametrize("board_id, edged", [("four-player", ("black-red", "white-blue")), ("two-player", ())])
def test_a_partners_embassy_is_ringed_in_its_second_colour_as_its_pieces_are(printed, spion, board_id, edged):
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        strokes = {tuple(round(c, 3) for c in r["stroking_color"]) for r in pdf.pages[0].rects
                   if r["stroke"] and r["stroking_color"] and len(r["stroking_color"]) == 3}
    for faction in edged:  # Black-Red's embassy shows its red, White-Blue's its blue
        assert rgb(spion.layout.colour(faction).edge) in strokes, faction
    assert not edged or rgb(spion.layout.colour("black").fill) not in {rgb(spion.layout.colour(f).edge) for f in edged}


@pytest.mark.parametrize("board_id, zillions", [("four-player", 37), ("two-player", 25)])
def test_each_board_prints_how_its_game_is_won(printed, board_id, zillions):
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
    # THE GOAL OF THE GAME: an enemy BAZONG home, or 37 ZILLIONS the team gathers together; The Game for 2 Players: 25
    assert f"{zillions} ZILLIONS" in text and "BAZONG" in text
    assert ("37 ZILLIONS between its two partners" in text) == (zillions == 37)


def _board_text(folder: Path, board_id: str) -> str:
    import pdfplumber

    with pdfplumber.open(folder / f"board-{board_id}.pdf") as pdf:
        return "\n".join(pdf.pages[0].extract_text(layout=False).splitlines())


@pytest.mark.parametrize("board_id, players", [("four-player", ("BLACK", "WHITE", "BLACK-RED", "WHITE-BLUE")),
                                               ("two-player", ("BLACK", "WHITE"))])
def test_each_board_prints_its_set_up_read_from_where_the_pieces_start(printed, board_id, players):
    """PREPARATION on the board itself: two spies and the BAZONG in each embassy, the third spy in its prison, the GRAY
    SPY and the traps in the COAL BOX, each colour's Pass-Cards face down on its pile, 10 ZILLIONS in each hand; the
    2-player board names only its own two sides' places. A spy's secret number is not printed."""
    text = " ".join(_board_text(printed / "spion-und-spion", board_id).split()) + " "
    for colour in players:
        assert f"{colour} embassy: Spy ×2, BAZONG " in text, colour
        assert f"{colour} PRISON: Spy " in text, colour
        assert f"{colour}'s Hot-Envelope: HOT-ENVELOPE, face down" in text, colour
    for colour in ("BLACK", "WHITE"):
        assert f"{colour} Pass-Cards: Pass-Card ×11, face down" in text
    assert "COAL BOX: GRAY SPY, Snake, Magnet, Bottle" in text
    assert "10 ZILLIONS in hand" in text
    assert ("BLACK-RED embassy:" in text) == (len(players) == 4)
    assert not any(f"Spy {n}" in text for n in "123")


def test_the_set_up_printed_follows_the_pieces_data(cli, game_copy, tmp_path):
    """Move the GRAY SPY's start into the BLACK PRISON and the board's set-up says so: it is read from pieces.yaml."""
    folder = game_copy("spion-und-spion")
    pieces = folder / "pieces.yaml"
    text = pieces.read_text(encoding="utf-8")
    old = '{kind: gray-spy, name: "GRAY SPY", start: "COAL BOX"}'
    assert old in text
    pieces.write_text(text.replace(old, '{kind: gray-spy, name: "GRAY SPY", start: "BLACK PRISON"}'), encoding="utf-8")
    assert cli("build", "--game", str(folder), "--only", "boards", "--out", str(tmp_path)).code == 0
    text = " ".join(_board_text(tmp_path / "spion-und-spion", "four-player").split())
    assert "BLACK PRISON: Spy, GRAY SPY" in text and "COAL BOX: Snake, Magnet, Bottle" in text


def test_a_players_board_carries_no_editorial_words(printed):
    """The legend says what the spaces and footsteps mean, not where the reconstruction took them from."""
    for board_id in ("four-player", "two-player"):
        text = _board_text(printed / "spion-und-spion", board_id)
        assert "Source:" not in text and "THE PLAYER TURN: the footsteps" not in text


ANSI_C, A2 = (431.8, 558.8), (420.0, 594.0)


@pytest.mark.parametrize("paper, sheets", [("letter", {"four-player": (ANSI_C, "ANSI C"), "two-player": (ANSI_C, "ANSI C")}),
                                           ("a4", {"four-player": (A2, "A2"), "two-player": (None, "")})])
def test_each_whole_board_prints_on_the_smallest_stock_sheet_that_holds_it(cli, tmp_path, paper, sheets):
    """The whole board lies on the smallest stock sheet of the paper's family that holds it (layout `board_sheet`),
    turned the board's way, and says so; the board fills most of it (it once took 40 % of an ARCH C sheet). A board
    no sheet of the family holds (the two-player board beside A4: wider than A2) prints at its own size."""
    import pdfplumber

    assert cli("build", "--game", "spion-und-spion", "--only", "boards", "--paper", paper, "--out", str(tmp_path)).code == 0
    for board_id, (sheet, name) in sheets.items():
        with pdfplumber.open(tmp_path / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
            [page] = pdf.pages
            size = sorted((page.width / MM, page.height / MM))
            text = " ".join(page.extract_text().split())
            inked = [c for c in page.chars] + list(page.rects)
            left, right = min(o["x0"] for o in inked) / MM, max(o["x1"] for o in inked) / MM
            top, bottom = min(o["top"] for o in inked) / MM, max(o["bottom"] for o in inked) / MM
        if sheet is None:
            assert "Print at 100 % (" in text and (right - left) * (bottom - top) / (size[0] * size[1]) > 0.85, board_id
            continue
        assert size == pytest.approx(sorted(sheet), abs=0.3), board_id
        assert f"Print at 100 % on {name}" in text, board_id
        assert right <= page.width / MM and left >= 0
        assert (right - left) * (bottom - top) / (sheet[0] * sheet[1]) > 0.7, board_id


def test_no_region_of_the_world_map_surrounds_another_regions_city_and_each_is_named_on_its_own_land(web):
    from shapely.geometry import MultiPoint, Point

    from generators.map.poster import AREA_KEY, plan_poster
    from generators.map.territories import polygons
    from generators.printing.fonts import register_fonts

    plan = plan_poster(web, PrintSettings.of_layout(web.layout), register_fonts(web.layout.fonts, web.folder))
    lands = {r.country: r.shape for r in plan.regions}
    assert set(lands) == {r.name for r in web.map.regions}
    for region in web.map.regions:
        if len(polygons(lands[region.name])) > 1:
            continue  # a region in pieces (Africa and the Middle East, across the Mediterranean) surrounds the sea between
        hull = MultiPoint([plan.at[c.name] for c in web.map.cities if c.region == region.name]).convex_hull
        # Berlin in Western Europe left Prague inside the West's cities and Berlin on a tongue of the West in the East
        assert not [c.name for c in web.map.cities if c.region != region.name and hull.contains(Point(plan.at[c.name]))], region.name
    for region in web.map.regions:
        label = plan.placed[f"{AREA_KEY}{region.name}"].rect
        assert lands[region.name].contains(Point(label.x + label.width / 2, label.y + label.height / 2)), region.name


@pytest.mark.parametrize("paper, size", [("letter", (215.9, 279.4)), ("a4", (210.0, 297.0))])
def test_tiled_boards_are_joined_off_their_spaces_and_boxes_where_the_paper_allows(spion, paper, size):
    """The seams between tiled sheets run where they cut the fewest spaces, boxes and card places (space 14, the
    prisons and the Pass-Cards were once cut): never more than sheets centred on the board would, and fewer on A4."""
    from generators.map.poster_sheets import plan_tiles, seams
    from generators.map.track_board import board_boxes, plan_board
    from generators.printing.fonts import register_fonts

    fonts = register_fonts(spion.layout.fonts, spion.folder)
    fewer = 0
    for board in spion.boards.boards:
        plan = plan_board(spion, PrintSettings.of_layout(spion.layout), board, fonts)  # laid out for the home paper, as the tiles show it
        boxes = board_boxes(plan)

        def cut(tiles) -> int:
            xs, ys = seams(tiles)
            return sum(1 for b in boxes if any(b.x < x < b.right for x in xs) or any(b.y < y < b.bottom for y in ys))

        centred = plan_tiles((plan.width, plan.height), size, spion.layout.margin)
        chosen = plan_tiles((plan.width, plan.height), size, spion.layout.margin, avoid=boxes)
        assert len(chosen.sheets) == len(centred.sheets) and cut(chosen) <= cut(centred), board.id
        fewer += cut(chosen) < cut(centred)
    assert fewer >= (2 if paper == "a4" else 1)


def test_each_embassy_says_on_itself_what_starts_there(printed, spion):
    """The review found nothing marking where the BAZONG sits: the embassy's own space says it, at its foot."""
    import pdfplumber

    plan = _plans(spion)["four-player"]
    assert plan.starts["BLACK embassy"] == "Spy ×2, BAZONG" and "1" not in plan.starts  # plain spaces start empty
    at = next(a for a in plan.spaces if a.space.label == "BLACK embassy")
    with pdfplumber.open(printed / "spion-und-spion" / "board-four-player.pdf") as pdf:
        page = pdf.pages[0]
        dx, dy = (page.width / MM - plan.width) / 2, (page.height / MM - plan.height) / 2  # centred on its stock sheet
        inside = page.within_bbox(((at.x + dx) * MM, (at.y + dy) * MM, (at.x + dx + at.size) * MM, (at.y + dy + at.size) * MM))
        assert "Spy ×2, BAZONG" in " ".join(inside.extract_text().split())


def test_a_board_sheet_naming_no_paper_is_refused_naming_its_preset(cli, game_copy, tmp_path):
    """A designer's preset whose board_sheet names a paper paper.yaml lacks gets the file and the field, exit 2."""
    folder = game_copy("spion-und-spion")
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / "mine.yaml").write_text("extends: spion-und-spion\nboard_sheet: {letter: nonsense}\n", encoding="utf-8")
    game_file = folder / "game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("layout: spion-und-spion", "layout: mine"), encoding="utf-8")
    result = cli("build", "--game", str(folder), "--only", "boards", "--out", str(tmp_path / "out"))
    assert result.code == 2 and "mine.yaml" in result.stderr and "board_sheet" in result.stderr and "'nonsense'" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def _inside_frames(page, plan, dx: float, dy: float, layout) -> list[str]:
    """The characters printed on a space that come closer to its frame (or its owner's ring) than the layout allows."""
    from generators.map.track_board import EDGE, RING_INSET

    wrong = []
    for at in plan.spaces:
        keep = RING_INSET + EDGE + layout.edge_clearance if at.space.owner in plan.edges else layout.safe_zone
        x0, y0, x1, y1 = at.x + dx, at.y + dy, at.x + dx + at.size, at.y + dy + at.size
        for c in page.chars:
            cx, cy = (c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM
            if not (x0 < cx < x1 and y0 < cy < y1) or not c["text"].strip():
                continue
            left, right = c["x0"] / MM, c["x1"] / MM
            if left < x0 + keep - 0.05 or right > x1 - keep + 0.05 or c["bottom"] / MM > y1 - keep + 0.6:
                wrong.append(f"{at.space.label}: {c['text']!r}")
    return wrong


def test_every_text_on_a_space_keeps_inside_its_frame_and_ring(printed, spion):
    """The review found WHITE-BLUE's and BLACK-RED's names over their coloured ring and 'Spy ×2, BAZONG' on the
    frame's bottom line: every letter on a space keeps the layout's safe zone from its frame, the edge clearance
    inside an owner's ring."""
    import pdfplumber

    plans = _plans(spion)
    for board_id, plan in plans.items():
        with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
            page = pdf.pages[0]
            dx, dy = (page.width / MM - plan.width) / 2, (page.height / MM - plan.height) / 2
            assert _inside_frames(page, plan, dx, dy, spion.layout) == [], board_id


def _arrows_on(page, box) -> list[tuple[str, tuple[float, float]]]:
    """Each filled triangle inside `box` (mm): its fill and the way its tip points (a unit vector, y down)."""
    found = []
    for curve in page.curves:
        points = [(x / MM, y / MM) for x, y in curve["pts"]]
        unique = list(dict.fromkeys((round(x, 3), round(y, 3)) for x, y in points))
        cx, cy = sum(x for x, _ in unique) / len(unique), sum(y for _, y in unique) / len(unique)
        if len(unique) != 3 or not (box[0] < cx < box[2] and box[1] < cy < box[3]):
            continue
        sides = [math.dist(unique[i], unique[(i + 1) % 3]) for i in range(3)]
        tip = unique[(sides.index(min(sides)) + 2) % 3]  # the corner opposite the short side (the arrow's back)
        length = math.dist(tip, (cx, cy))
        found.append((str(curve.get("non_stroking_color")), ((tip[0] - cx) / length, (tip[1] - cy) / length)))
    return found


def test_on_each_corner_every_side_is_shown_the_way_it_leaves(printed, spion):
    """The corner embassies once showed the way along the next side for both directions, so the side walking
    backwards was pointed off the board: on a corner, each side's arrow points along the side it leaves by."""
    import pdfplumber

    plan = _plans(spion)["four-player"]
    with pdfplumber.open(printed / "spion-und-spion" / "board-four-player.pdf") as pdf:
        page = pdf.pages[0]
        dx, dy = (page.width / MM - plan.width) / 2, (page.height / MM - plan.height) / 2
        centre = (plan.width / 2 + dx, plan.height / 2 + dy)
        for at in [a for a in plan.spaces if a.space.corner]:
            arrows = _arrows_on(page, (at.x + dx, at.y + dy, at.x + dx + at.size, at.y + dy + at.size))
            assert len(arrows) == 2, at.space.label
            ways = [w for _, w in arrows]
            # both point along the board's edge (one across, one up or down), each towards a neighbouring corner,
            # never away from the board
            assert sorted(round(abs(w[0])) for w in ways) == [0, 1], at.space.label
            x, y = at.x + dx + at.size / 2, at.y + dy + at.size / 2
            for w in ways:
                assert (centre[0] - x) * w[0] + (centre[1] - y) * w[1] > 0, at.space.label


BOARDS = ("four-player", "two-player")


@pytest.mark.parametrize("board_id", BOARDS)
def test_the_boards_boxes_and_set_up_read_at_10_pt(printed, board_id):
    """Read from every corner of the table: the prisons' and boxes' texts at 10 pt or more and the set-up list larger
    (they were 7 pt on a mostly white sheet)."""
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    texts = " ".join(w["text"] for w in words)
    boxes = [w["size"] for i, w in enumerate(words) if w["text"] == "lost" and words[i + 2]["text"] == "ZOFF."]
    setup = [w["size"] for i, w in enumerate(words) if w["text"] == "Each" and words[i + 1]["text"] == "player:"]
    assert boxes and setup and "Set-up" in texts
    assert min(boxes) >= 10 and min(setup) >= min(boxes), (boxes, setup)


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_space_shows_each_sides_footstep_in_the_same_place_in_two_tones(printed, spion, board_id):
    """Each side's footstep stands at the same place in every space, corners too (they sat off-centre there), a
    sixth of the space long or more; White's is a mid tone, not white on the white spaces, and Black's black."""
    import pdfplumber

    plan = _plans(spion)[board_id]
    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        page = pdf.pages[0]
        dx, dy = (page.width / MM - plan.width) / 2, (page.height / MM - plan.height) / 2
        places: dict[str, set] = {}
        for at in plan.spaces:
            box = (at.x + dx, at.y + dy, at.x + dx + at.size, at.y + dy + at.size)
            found = [c for c in page.curves if len({(round(x, 2), round(y, 2)) for x, y in c["pts"]}) == 3
                     and box[0] < c["x0"] / MM and c["x1"] / MM < box[2] and box[1] < c["top"] / MM and c["bottom"] / MM < box[3]]
            assert len(found) == 2, at.space.label
            for curve in found:
                shade = sum(curve["non_stroking_color"][:3]) / 3 if len(curve["non_stroking_color"]) >= 3 else curve["non_stroking_color"][0]
                centre = ((curve["x0"] + curve["x1"]) / 2 / MM - box[0], (curve["top"] + curve["bottom"]) / 2 / MM - box[1])
                assert max(curve["x1"] - curve["x0"], curve["bottom"] - curve["top"]) / MM >= at.size / 6, at.space.label
                places.setdefault(round(shade, 2), set()).add((round(centre[0] / 2, 0), round(centre[1] / 2, 0)))  # 2 mm
    tones = sorted(places)
    assert len(tones) == 2 and tones[0] < 0.1 and 0.3 < tones[1] < 0.8, tones
    assert all(len(spots) == 1 for spots in places.values()), places


@pytest.mark.parametrize("board_id", BOARDS)
def test_the_printing_advice_stands_below_the_board_not_in_its_legend(printed, board_id):
    """The "Print at 100 %" line sat inside the legend box; it stands under everything the board prints."""
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        advice = next(w for i, w in enumerate(words) if w["text"] == "Print" and words[i + 1]["text"] == "at")
        frames = [r for r in page.rects if r["stroke"]]
    assert advice["top"] > max(r["bottom"] for r in frames)


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_card_slot_label_fits_inside_its_slot(printed, spion, board_id):
    """"WHITE-BLUE's Hot-Envelope" ran out of its slip-sized slot: each label keeps inside its dashed outline."""
    import pdfplumber

    plan = _plans(spion)[board_id]
    labels = {slot.label for laid, _, _ in plan.aids if laid.aid.kind == "slots" for slot in laid.aid.slots}
    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        page = pdf.pages[0]
        found = {label: page.search(label, regex=False) for label in labels}
        slots = [r for r in page.rects if r["stroke"] and not r["fill"] and r.get("dash") and r["dash"][0]]
    for label, matches in found.items():  # the label in its slot (the set-up list names the places too)
        held = [(line, r) for line in matches for r in slots
                if r["x0"] <= (line["x0"] + line["x1"]) / 2 <= r["x1"] and r["top"] <= line["top"] <= r["bottom"]]
        assert len(held) == 1, label
        line, slot = held[0]
        assert line["x0"] >= slot["x0"] and line["x1"] <= slot["x1"], label


@pytest.mark.parametrize("game, product", [("web-of-spies", "map"), ("spion-und-spion", "board-four-player"),
                                           ("spion-und-spion", "board-two-player")])
def test_every_tile_sheet_prints_ink_of_its_own(printed, game, product):
    """Web of Spies' map tiles once ended with a sheet of blank paper: every sheet printed shows ink in the part
    of it no neighbour repeats (inside the margins and the overlap strips), and the footers count only those."""
    import pypdfium2 as pdfium

    from generators.map.poster_sheets import OVERLAP

    margin = 10.0
    document = pdfium.PdfDocument(printed / game / f"{product}-tiles.pdf")
    try:
        pages = len(document)
        for i in range(1, pages):
            picture = document[i].render(scale=2 * 25.4 / 72).to_numpy()  # 2 pixels a mm
            per_mm = picture.shape[1] / (document[i].get_size()[0] / MM)
            keep = round((margin + OVERLAP + 1) * per_mm)
            core = picture[keep:-keep, keep:-keep, :3]
            assert (core < 200).any(axis=2).sum() > 20, f"sheet {i} of {product}"
            assert f"sheet {i} of {pages - 1}" in document[i].get_textpage().get_text_range()
    finally:
        document.close()
    if product == "map":
        # 12 places in 3 rows of 4: the tiling cropped to the ink lays the key's foot on the second row, so the
        # two below it are blank and left out (there were 11 sheets)
        assert pages - 1 == 10


@pytest.mark.parametrize("board_id", ["four-player", "two-player"])
def test_a_boards_paths_are_solid_not_dashed_like_a_cut_line(printed, board_id):
    import pdfplumber

    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        paths = [line for line in pdf.pages[0].lines if line["stroking_color"] and line["linewidth"] >= 1.9]
    assert paths
    assert all(not (line.get("dash") and line["dash"][0]) for line in paths)


def test_alfred_and_embassy_spaces_differ_by_40_grey_levels(spion):
    assert abs(grey(spion.layout.colour("alfred").fill) - grey(spion.layout.colour("embassy").fill)) >= 40


@pytest.mark.parametrize("board_id", ["four-player", "two-player"])
def test_a_board_whose_spaces_are_assumed_marks_them_so(printed, spion, board_id):
    import pdfplumber

    board = next(b for b in spion.boards.boards if b.id == board_id)
    assert "spaces" in board.assumed
    with pdfplumber.open(printed / "spion-und-spion" / f"board-{board_id}.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "* The number of spaces and where each kind stands" in text
    assert "this edition's reading of the rules" in text
    assert "TRAITOR) *" in text
    assert ("37 ZILLIONS between its two partners. *" in text) == ("note" in board.assumed)
