"""`dossier export`: the Tabletop Simulator saved object, the VASSAL module and the print-on-demand images,
read back from the files themselves (JSON, zip, XML, PNG) with readers written here, not the exporters'."""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image, ImageChops, ImageStat

from generators.cli import main
from generators.core.cards import deck_cards, resolve_cards
from generators.core.faces import faces
from generators.export.parts import export_settings, game_parts
from generators.printing.counters import piece_label
from generators.validation import load_game

MM_PER_INCH = 25.4


def export(out: Path, *args: str) -> int:
    return main(["export", *args, "--out", str(out)])


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    """Spies! exported once for each format."""
    out = tmp_path_factory.mktemp("export")
    for fmt in ("tts", "vassal", "images"):
        assert export(out, fmt, "--game", "spies") == 0
    return out / "spies"


def all_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def colour(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def close(pixel, expected, tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, expected))


# ---------------------------------------------------------------- Tabletop Simulator

@pytest.fixture(scope="session")
def tts(exported):
    saved = json.loads((exported / "tts" / "spies.json").read_text(encoding="utf-8"))
    cards = []
    for obj in saved["ObjectStates"]:
        cards += obj.get("ContainedObjects", []) if obj["Name"] == "DeckCustom" else [obj] if obj["Name"] == "Card" else []
    return saved, cards


def file_of(url: str) -> Path:
    parts = urlsplit(url)
    assert parts.scheme == "file", url
    return Path(unquote(parts.path))


def test_tts_saved_object_holds_every_copy_of_every_roster_piece(spies, tts):
    _, cards = tts
    expected = Counter()
    for piece in spies.pieces:
        expected[piece_label(spies, piece)] += piece.count
    found = Counter(card["Description"].splitlines()[0] for card in cards)
    assert {label: found[label] for label in expected} == dict(expected)


def test_tts_saved_object_holds_every_tile_and_card(spies, tts):
    _, cards = tts
    names = Counter(card["Nickname"] for card in cards)
    for tile in spies.tiles:
        assert names[f"{tile.id}*" if tile.special else tile.id] == 1
    for card in deck_cards(spies):
        assert names[card.title] >= 1


def test_tts_every_card_names_a_face_and_a_back_sheet_that_exist(tts):
    _, cards = tts
    for card in cards:
        sheet = card["CustomDeck"][str(card["CardID"] // 100)]
        assert sheet["UniqueBack"] is True
        assert file_of(sheet["FaceURL"]).is_file() and file_of(sheet["BackURL"]).is_file()
        assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1  # the last slot is the hidden image


def test_tts_decks_list_the_ids_of_the_cards_they_hold(tts):
    saved, _ = tts
    for deck in (o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"):
        assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
        assert {str(i // 100) for i in deck["DeckIDs"]} == set(deck["CustomDeck"])


def test_tts_sheets_keep_to_ten_by_seven_and_4096_pixels_in_rgb(tts):
    saved, cards = tts
    sheets = {json.dumps(s, sort_keys=True): s for c in cards for s in c["CustomDeck"].values()}
    assert sheets
    for sheet in sheets.values():
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        for url in (sheet["FaceURL"], sheet["BackURL"]):
            with Image.open(file_of(url)) as image:
                assert image.format == "PNG" and image.mode == "RGB"
                assert max(image.size) <= 4096
                assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0


def test_tts_a_size_with_more_than_69_faces_takes_several_sheets(tts):
    _, cards = tts
    slots = {}
    for card in cards:
        slots.setdefault(card["CardID"] // 100, set()).add(card["CardID"] % 100)
    counters = [s for s, used in slots.items() if any("spy" in c["Description"] for c in cards if c["CardID"] // 100 == s)]
    assert all(len(used) <= 69 for used in slots.values())
    assert sum(len(slots[s]) for s in slots) > 69 and len(slots) >= 2 and counters


@lru_cache(maxsize=None)
def sheet_image(path: Path) -> Image.Image:
    with Image.open(path) as image:
        return image.convert("RGB")


def slot_image(card: dict, url_key: str) -> Image.Image:
    sheet = card["CustomDeck"][str(card["CardID"] // 100)]
    image = sheet_image(file_of(sheet[url_key]))
    width, height = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
    row, column = divmod(card["CardID"] % 100, sheet["NumWidth"])
    return image.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))


def test_tts_each_card_id_shows_its_own_piece_front_and_back(spies, tts):
    """The slot a card id points at carries the colours of that piece's faces, so ids and sheets agree."""
    _, cards = tts
    layout = spies.layout
    by_label = {}
    for piece in spies.pieces:
        by_label.setdefault(piece_label(spies, piece), faces(spies, piece))
    checked = 0
    for card in cards:
        found = by_label.get(card["Description"].splitlines()[0])
        if found is None:
            continue
        front, back = found
        face = layout.colour(front.colour)  # a two-colour face shows its ring at the corner
        assert close(slot_image(card, "FaceURL").getpixel((2, 2)), colour(face.edge or face.fill))
        assert close(slot_image(card, "BackURL").getpixel((2, 2)), colour(layout.colour(back.colour).fill))
        checked += 1
    assert checked == spies.count()


def test_tts_event_tiles_show_their_nation_in_front_and_a_blank_back(spies, tts):
    _, cards = tts
    tiles = {t.id: t for t in spies.tiles}
    for card in cards:
        tile = tiles.get(card["Nickname"].rstrip("*"))
        if tile is None:
            continue
        band = spies.layout.colour(tile.nation or "random").fill  # the random tiles have a band of their own
        assert close(slot_image(card, "FaceURL").getpixel((2, 2)), colour(band))
        back = slot_image(card, "BackURL")
        assert back.getcolors(1) is not None  # one colour: nothing printed


def test_tts_boards_are_the_poster_and_the_display_within_4096_pixels(exported, tts):
    saved, _ = tts
    boards = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert [b["Nickname"] for b in boards] == ["Spies! map", "Spies! display"]
    for board, (width, height) in zip(boards, ((34, 22), (11, 17))):  # the mapsheet (landscape), the tabloid display
        with Image.open(file_of(board["CustomImage"]["ImageURL"])) as image:
            # 150 dpi, or what TTS's 4,096-pixel limit leaves (the 34-inch map: about 120 dpi)
            assert max(image.size) == min(4096, round(max(width, height) * 150)) and image.mode == "RGB"
            assert abs(image.width / image.height - width / height) < 0.001


def test_tts_image_url_names_every_image_under_the_address_given(tmp_path):
    assert export(tmp_path, "tts", "--game", "special-action-tokens", "--image-url", "https://example.org/sat/") == 0
    folder = tmp_path / "special-action-tokens" / "tts"
    text = (folder / "special-action-tokens.json").read_text(encoding="utf-8")
    urls = re.findall(r'"(?:FaceURL|BackURL|ImageURL)": "([^"]*)"', text)
    assert urls and all(u.startswith("https://example.org/sat/") for u in urls)
    assert all((folder / u.rsplit("/", 1)[1]).is_file() for u in urls)


def _tts_urls(folder: Path, game: str) -> list[str]:
    text = (folder / game / "tts" / f"{game}.json").read_text(encoding="utf-8")
    return re.findall(r'"(?:FaceURL|BackURL|ImageURL)": "([^"]*)"', text)


def test_tts_image_url_for_several_games_gives_each_game_its_own_folder(cli, tmp_path):
    games = ("special-action-tokens", "global-1936-spies")
    result = cli("export", "tts", "--game", games[0], "--game", games[1], "--image-url", "https://example.org/i", "--out", tmp_path)
    assert result.code == 0, result.stderr
    for game in games:
        urls = _tts_urls(tmp_path, game)
        assert urls and all(u.startswith(f"https://example.org/i/{game}/") for u in urls)
        assert all((tmp_path / game / "tts" / u.rsplit("/", 1)[1]).is_file() for u in urls)
        assert f"{game}: upload the images of " in result.stdout and f"to https://example.org/i/{game}/" in result.stdout


def test_tts_image_url_places_the_game_where_it_says_game(cli, tmp_path):
    result = cli("export", "tts", "--game", "special-action-tokens", "--image-url", "https://example.org/{game}/png", "--out", tmp_path)
    assert result.code == 0, result.stderr
    urls = _tts_urls(tmp_path, "special-action-tokens")
    assert urls and all(u.startswith("https://example.org/special-action-tokens/png/") for u in urls)


def test_tts_image_url_with_another_placeholder_is_refused(cli, tmp_path):
    result = cli("export", "tts", "--game", "special-action-tokens", "--image-url", "https://example.org/{name}", "--out", tmp_path)
    assert result.code == 2 and "the one placeholder an address may hold is {game}" in result.stderr
    assert not tmp_path.joinpath("special-action-tokens").exists()


def test_tts_names_local_images_by_their_path_as_written(tmp_path):
    out = tmp_path / "My Games"
    assert export(out, "tts", "--game", "special-action-tokens") == 0
    folder = (out / "special-action-tokens" / "tts").resolve()
    text = (folder / "special-action-tokens.json").read_text(encoding="utf-8")
    urls = re.findall(r'"(?:FaceURL|BackURL)": "([^"]*)"', text)
    assert urls and all(u.startswith(f"file:///{str(folder).lstrip('/')}/") and "%20" not in u for u in urls)
    assert all(Path(u[len("file://"):]).is_file() for u in urls)


# ---------------------------------------------------------------- VASSAL

def decode(text: str, delimiter: str) -> list[str]:
    """VASSAL's SequenceEncoder.Decoder: split at delimiters not preceded by a backslash, drop that
    backslash, strip one pair of enclosing single quotes."""
    tokens, current, i = [], "", 0
    while i < len(text):
        char = text[i]
        if char == delimiter and i > 0 and text[i - 1] == "\\":
            current = current[:-1] + char
        elif char == delimiter:
            tokens.append(current)
            current = ""
        else:
            current += char
        i += 1
    tokens.append(current)
    return [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in tokens]


def traits(definition: str) -> list[tuple[str, str]]:
    """(type, state) of each trait of a piece slot's AddPiece command, outermost first."""
    assert definition.startswith("+/")
    _, piece_type, state = decode(definition[2:], "/")
    found = []
    while True:
        types, states = decode(piece_type, "\t"), decode(state, "\t")
        found.append((types[0], states[0]))
        if len(types) == 1:
            return found
        piece_type, state = types[1], states[1]


@pytest.fixture(scope="session")
def vmod(exported):
    with zipfile.ZipFile(exported / "spies.vmod") as archive:
        names = set(archive.namelist())
        build = ET.fromstring(archive.read("buildFile.xml"))
        data = ET.fromstring(archive.read("moduledata"))
        sizes = {}
        for name in names:
            if name.startswith("images/"):
                with Image.open(archive.open(name)) as image:
                    sizes[name[len("images/"):]] = image.size
    return names, build, data, sizes


@pytest.fixture(scope="session")
def module_build(tmp_path_factory):
    """The buildFile.xml of another game's module, exported once a session."""
    @lru_cache(maxsize=None)
    def read(game: str) -> ET.Element:
        out = tmp_path_factory.mktemp(game)
        assert export(out, "vassal", "--game", game) == 0
        with zipfile.ZipFile(out / game / f"{game}.vmod") as archive:
            return ET.fromstring(archive.read("buildFile.xml"))

    return read


def slots(build: ET.Element, element: str) -> list[ET.Element]:
    return list(build.iter(f"VASSAL.build.widget.{element}"))


def test_vmod_is_a_zip_of_buildfile_moduledata_and_images(vmod):
    names, build, data, _ = vmod
    assert {"buildFile.xml", "moduledata"} <= names
    assert build.tag == "VASSAL.build.GameModule" and build.get("name") == "Spies!"
    assert build.get("VassalVersion").startswith("3.7")
    assert data.tag == "data" and data.get("version") == "1" and data.findtext("name") == "Spies!"
    assert all(n.startswith("images/") for n in names - {"buildFile.xml", "moduledata", "rules-summary.html"})


def test_vmod_builds_the_standard_components_before_the_first_map(spies, vmod):
    _, build, _, _ = vmod
    tags = [child.tag.rsplit(".", 1)[-1] for child in build]
    first_map = tags.index("Map")
    for component in ("BasicCommandEncoder", "Documentation", "PlayerRoster", "GlobalOptions", "Chatter"):
        assert tags.index(component) < first_map, component
    assert {"PieceWindow", "NotesWindow", "Inventory"} <= set(tags)
    roster = build.find("VASSAL.build.module.PlayerRoster")
    assert [e.text for e in roster] == [f.name for f in spies.info.factions]
    assert "DiceButton" not in tags  # Spies! rolls no dice


def test_vmod_help_menu_holds_the_rules_summary_with_its_citations(spies, exported, vmod):
    _, build, _, _ = vmod
    help_file = build.find("VASSAL.build.module.Documentation/VASSAL.build.module.documentation.HelpFile")
    assert help_file.get("fileType") == "archive"
    with zipfile.ZipFile(exported / "spies.vmod") as archive:
        page = archive.read(help_file.get("fileName")).decode("utf-8")
    for card in resolve_cards(spies):
        assert f"<h2>{card.title}</h2>" in page.replace("&#x27;", "'")
    assert page.count("<li>") == sum(len(s.items) for c in resolve_cards(spies) for _, side in c.sides() for s in side.sections)


def test_vmod_rolls_the_dice_a_game_declares(module_build):
    for game, kind in (("web-of-spies", "DiceButton"), ("spion-und-spion", "SpecialDiceButton")):
        data = load_game(game)
        build = module_build(game)
        buttons = list(build.iter(f"VASSAL.build.module.{kind}"))
        assert [b.get("name") for b in buttons] == [d.name for d in data.info.dice]


def test_vmod_every_piece_shows_images_present_in_the_module(vmod):
    names, build, _, _ = vmod
    for slot in slots(build, "PieceSlot") + slots(build, "CardSlot"):
        found = traits(slot.text)
        basic = found[-1][0]
        assert basic.startswith("piece;")
        image = decode(basic, ";")[3]
        assert f"images/{image}" in names, slot.get("entryName")
        assert decode(found[-1][1], ";")[3] == slot.get("gpid")


def test_vmod_every_open_palette_piece_flips_to_its_back_layer_with_ctrl_f(spies, vmod):
    names, build, _, sizes = vmod
    window = build.find("VASSAL.build.module.PieceWindow")
    open_labels = {k.label for k in spies.info.kinds.values() if not (k.hidden or k.drawn) and not k.back.blank}
    checked = 0
    for slot in window.iter("VASSAL.build.widget.PieceSlot"):
        layers = [t for t, _ in traits(slot.text) if t.startswith("emb2;")]
        masks = [t for t, _ in traits(slot.text) if t.startswith("obs;")]
        if masks:
            continue
        assert len(layers) == 1, slot.get("entryName")
        checked += 1
        fields = decode(layers[0][len("emb2;"):], ";")
        back = decode(fields[15], ",")[0]  # the level images
        assert f"images/{back}" in names
        assert fields[24] == "1" and fields[25] == "false" and fields[26] == "70,130"  # version 1, activated by Ctrl+F
        front = decode(traits(slot.text)[-1][0], ";")[3]
        assert sizes[back] == sizes[front]
    assert checked and open_labels


def test_vmod_hidden_and_drawn_pieces_are_masked_by_their_sides(spies, vmod):
    _, build, _, _ = vmod
    window = build.find("VASSAL.build.module.PieceWindow")
    for listing in window.find("VASSAL.build.widget.TabWidget"):
        kind = next(k for k in spies.info.kinds.values() if k.label == listing.get("entryName"))
        for slot in listing.iter("VASSAL.build.widget.PieceSlot"):
            masks = [t for t, _ in traits(slot.text) if t.startswith("obs;")]
            assert bool(masks) == (kind.hidden or kind.drawn), slot.get("entryName")
            if masks:
                access = decode(masks[0][4:], ";")[5]
                nation = next((h.get("entryName") for h in listing if slot in list(h)), None)
                assert access == (f"sides:{nation}" if nation and nation != kind.label else "side:"), slot.get("entryName")


def test_vmod_a_piece_printed_alike_on_both_sides_has_no_flip(module_build):
    build = module_build("web-of-spies")
    agents = [s for s in build.iter("VASSAL.build.widget.PieceSlot") if s.get("entryName") == "Agent"]
    assert agents and all(len(traits(s.text)) == 2 for s in agents)  # Delete and the piece: nothing to turn over


def test_vmod_palette_holds_every_roster_piece_by_kind_and_nation(spies, vmod):
    _, build, _, _ = vmod
    window = build.find("VASSAL.build.module.PieceWindow")
    placed = set()
    for kind_widget in window.find("VASSAL.build.widget.TabWidget"):
        for holder in [kind_widget] if kind_widget.tag.endswith("PanelWidget") else list(kind_widget):
            for slot in holder:
                placed.add((kind_widget.get("entryName"), holder.get("entryName") if holder is not kind_widget else None,
                            slot.get("entryName")))
    for piece in spies.pieces:
        kind = spies.info.kinds[piece.kind].label
        nation = spies.faction(piece.nation).name if piece.nation else None
        assert any(k == kind and n == nation and name.startswith(piece.name) for k, n, name in placed), piece
    distinct = {(p.kind, p.nation, faces(spies, p)) for p in spies.pieces}
    assert len(placed) == len(distinct)


def test_vmod_tiles_and_cards_are_draw_piles(spies, vmod):
    names, build, _, _ = vmod
    piles = list(build.iter("VASSAL.build.module.map.DrawPile"))
    tiles = [s for p in piles if p.get("faceDown") == "Always" and p.get("name").startswith("Event Tile") for s in p]
    cards = [s for p in piles if p.get("faceDown") == "Never" for s in p]
    drawn = {p.get("name"): len(p) for p in piles if p.get("faceDown") == "Always" and not p.get("name").startswith("Event")}
    assert drawn == {"Secret & Counterspy": 40, "Action chit": sum(p.count for p in spies.pieces if p.kind == "chit")}
    assert all(p.get("shuffle") == "Always" for p in piles if p.get("faceDown") == "Always")
    assert sorted(s.get("entryName").rstrip("*") for s in tiles) == sorted(t.id for t in spies.tiles)
    assert [s.get("entryName") for s in cards] == [c.title for c in deck_cards(spies)]
    for slot in tiles:
        mask = [t for t, _ in traits(slot.text) if t.startswith("obs;")]
        assert len(mask) == 1 and f"images/{decode(mask[0][4:], ';')[1]}" in names


def test_vmod_main_map_is_the_poster_at_the_pieces_scale(vmod):
    _, build, _, sizes = vmod
    main = build.find("VASSAL.build.module.Map")
    board = main.find("VASSAL.build.module.map.BoardPicker/VASSAL.build.module.map.boardPicker.Board")
    width, height = sizes[board.get("image")]
    counter = next(s for s in slots(build, "PieceSlot"))
    piece = sizes[decode(traits(counter.text)[-1][0], ";")[3]]
    assert abs(width / piece[0] - 34 / 0.5) < 0.1 and abs(height / piece[1] - 22 / 0.5) < 0.1  # 1/2 inch counters
    for part in ("PieceMover", "KeyBufferer", "MenuDisplayer", "ForwardToKeyBuffer", "StackMetrics"):
        assert main.find(f"VASSAL.build.module.map.{part}") is not None  # drag, select, right-click, keys


def test_vmod_each_faction_starts_with_all_its_pieces_in_its_own_stack(spies, vmod):
    _, build, _, _ = vmod
    stacks = {s.get("name"): s for s in build.iter("VASSAL.build.module.map.SetupStack")}
    for faction in spies.info.factions:
        stack = stacks[f"{faction.name} pieces"]
        expected = sum(p.count - len(p.starts) for p in spies.pieces if p.nation == faction.id)
        assert len(stack) == expected  # all but those starting on the map (its Bank marker)
        for slot in stack:
            masks = [(t, state) for t, state in traits(slot.text) if t.startswith("obs;")]
            for _, state in masks:
                assert decode(state, ";")[0] == faction.name  # starts masked, to all but its side


def test_vmod_main_map_has_a_named_region_on_every_city_and_sea_zone(spies, vmod):
    _, build, _, _ = vmod
    board = build.find("VASSAL.build.module.Map/VASSAL.build.module.map.BoardPicker/VASSAL.build.module.map.boardPicker.Board")
    grid = board.find("VASSAL.build.module.map.boardPicker.board.RegionGrid")
    assert grid.get("snapto") == "true"
    names = [r.get("name") for r in grid]
    places = [c.name for c in spies.map.cities] + [z.name for z in spies.map.sea_zones]
    assert names[:len(places)] == places and "Bank Track 50" in names[len(places):]  # then the boxes of its aids


def test_vmod_regions_stand_on_the_spaces_the_poster_prints(spies, vmod):
    from generators.export.vassal import DPI
    from generators.map.spaces import city_spaces

    _, build, _, sizes = vmod
    board = build.find("VASSAL.build.module.Map/VASSAL.build.module.map.BoardPicker/VASSAL.build.module.map.boardPicker.Board")
    regions = {r.get("name"): (int(r.get("originx")), int(r.get("originy"))) for r in board.iter(
        "VASSAL.build.module.map.boardPicker.board.Region")}
    width_px = sizes[board.get("image")][0]
    for name, space in city_spaces(spies).items():
        x, y = (round(mm / 25.4 * DPI) for mm in (space.x_mm, space.y_mm))
        assert regions[name] == (x, y), name
        assert 0 < x < width_px


def test_vmod_piece_slot_ids_are_unique_and_below_the_next_id(vmod):
    _, build, _, _ = vmod
    ids = [int(s.get("gpid")) for s in slots(build, "PieceSlot") + slots(build, "CardSlot")]
    assert len(ids) == len(set(ids)) and max(ids) < int(build.get("nextPieceSlotId"))


# ---------------------------------------------------------------- images for print on demand

@pytest.fixture(scope="session")
def manifest(exported):
    with open(exported / "images" / "images.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def expected_pixels(mm: float, dpi: int = 300) -> int:
    return round(mm / MM_PER_INCH * dpi)


def test_images_are_the_piece_plus_bleed_to_the_pixel(exported, manifest):
    for row in manifest:
        with Image.open(exported / "images" / row["file"]) as image:
            assert image.size == (int(row["width_px"]), int(row["height_px"])), row["file"]
            assert image.size == (expected_pixels(float(row["trim_width_mm"]) + 2 * 3.175),
                                  expected_pixels(float(row["trim_height_mm"]) + 2 * 3.175))
            assert round(image.info["dpi"][0]) == 300


def test_images_of_half_inch_counters_with_eighth_inch_bleed_are_225_pixels(exported, manifest):
    spy = next(r for r in manifest if r["kind"] == "spy" and r["face"] == "front")
    with Image.open(exported / "images" / spy["file"]) as image:
        assert image.size == (225, 225)  # (0.5 + 2 x 0.125) inch x 300 dpi


def test_images_give_every_piece_a_front_and_a_back(spies, manifest):
    sides = Counter((row["piece"], row["face"]) for row in manifest)
    for piece in spies.pieces:
        label = piece_label(spies, piece)
        assert sides[(label, "front")] >= 1 and sides[(label, "back")] >= 1
    counters = [r for r in manifest if r["face"] == "front" and r["kind"] not in ("tile", "card")]
    assert sum(int(r["copies"]) for r in counters) == spies.count()
    assert sum(1 for r in manifest if r["kind"] == "tile") == 2 * len(spies.tiles)


# The services' published template sizes (docs/print-services.md): an image of a poker card, bleed included.
SERVICE_POKER = {"thegamecrafter": ((825, 1125), "The Game Crafter", "Poker Card"),
                 "makeplayingcards": ((822, 1122), "MakePlayingCards", "Poker size card (2.5 x 3.5 in)")}


@pytest.fixture(scope="session")
def service_images(tmp_path_factory):
    """Spies!' images for each service: service -> (folder, manifest rows)."""
    found = {}
    for name in SERVICE_POKER:
        out = tmp_path_factory.mktemp(name)
        assert export(out, "images", "--game", "spies", "--service", name) == 0
        folder = out / "spies" / "images"
        with open(folder / "images.csv", encoding="utf-8", newline="") as handle:
            found[name] = (folder, list(csv.DictReader(handle)))
    return found


@pytest.mark.parametrize("service", SERVICE_POKER)
def test_service_prints_every_card_at_its_poker_template_to_the_pixel(service_images, service, spies):
    folder, rows = service_images[service]
    size, label, product = SERVICE_POKER[service]
    cards = [r for r in rows if r["kind"] == "card"]
    assert len(cards) == 2 * len(deck_cards(spies))
    for row in cards:
        with Image.open(folder / row["file"]) as image:
            assert image.size == size and round(image.info["dpi"][0]) == 300, row["file"]
        assert (row["service"], row["product"]) == (label, product)
        assert (row["trim_width_mm"], row["trim_height_mm"]) == ("63.50", "88.90")  # 2.5 x 3.5 in


# A face no product of the service comes near: (kind, bleed in pixels a side) per service.
SERVICE_CUSTOM = {"thegamecrafter": ("tile", 37.5), "makeplayingcards": ("spy", 36)}


@pytest.mark.parametrize("service", SERVICE_POKER)
def test_service_prints_a_face_no_product_fits_at_its_own_size_and_says_so(service_images, service, spies):
    folder, rows = service_images[service]
    kind, bleed_px = SERVICE_CUSTOM[service]
    row = next(r for r in rows if r["kind"] == kind)
    part = next(p for p in game_parts(spies, export_settings(spies)) if p.kind == kind)
    with Image.open(folder / row["file"]) as image:
        assert image.size == tuple(round(mm / 25.4 * 300 + 2 * bleed_px) for mm in part.size)
    assert row["product"].startswith("custom size")


def test_the_game_crafter_prints_half_inch_counters_as_small_square_chits_to_the_pixel(service_images):
    folder, rows = service_images["thegamecrafter"]
    counters = [r for r in rows if r["kind"] not in ("tile", "card")]
    assert counters
    for row in counters:
        assert row["product"] == "Small Square Chit" and (row["trim_width_mm"], row["trim_height_mm"]) == ("12.70", "12.70")
        with Image.open(folder / row["file"]) as image:
            assert image.size == (225, 225), row["file"]  # 0.5 in + 1/8 in bleed a side, at 300 dpi


def test_the_game_crafter_prints_a_face_between_chit_sizes_as_the_nearest_scaled_and_says_so(tmp_path):
    assert export(tmp_path, "images", "--game", "spion-und-spion", "--service", "thegamecrafter") == 0
    folder = tmp_path / "spion-und-spion" / "images"
    with open(folder / "images.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    die = next(r for r in rows if r["kind"] == "die-face")  # 14 mm: between the 1/2 and 3/4 in chits, nearer 1/2 in
    assert die["product"] == "Small Square Chit (scaled 91%)"
    with Image.open(folder / die["file"]) as image:
        assert image.size == (225, 225)
    assert next(r for r in rows if r["kind"] == "spy")["product"] == "Medium Square Chit"  # 3/4 in: its own size
    assert next(r for r in rows if r["kind"] == "hot-envelope")["product"].startswith("custom size")


@pytest.mark.parametrize("size, expected", [
    ((63.0, 88.0), "Poker Card"),                        # within 1 mm of 2.5 x 3.5 in: its own size
    ((88.0, 63.0), "Poker Card"),                        # a landscape card lies turned on it
    ((12.7, 12.7), "Small Square Chit"),
    ((19.05, 19.05), "Medium Square Chit"),
    ((15.875, 15.875), "Medium Square Chit (scaled 120%)"),  # nearer 3/4 in than 1/2 in
    ((14.0, 14.0), "Small Square Chit (scaled 91%)"),    # 1.3 mm off is not its own size
    ((38.1, 25.4), None),                                # 3:2: no product of that shape
    ((8.0, 8.0), None),                                  # too small for any chit without shrinking it past 1/1.25
])
def test_a_face_is_printed_as_its_own_product_or_the_nearest_of_its_shape(size, expected):
    from generators.export.print_services import service

    fit = service("thegamecrafter").product_for(size)
    assert (fit.label if fit else None) == expected


def test_service_bleed_is_the_face_drawn_past_its_cut_line(service_images, spies):
    folder, rows = service_images["thegamecrafter"]
    card = next(r for r in rows if r["kind"] == "card" and r["face"] == "front")
    with Image.open(folder / card["file"]) as image:
        rgb = image.convert("RGB")
        band = rgb.getpixel((412, 60))  # the title band, inside the cut line
        assert band != (255, 255, 255)
        for x in (0, 20, 412, 804, 824):  # the band carried through the bleed above it, corner to corner
            assert close(rgb.getpixel((x, 0)), band), x


def test_images_follow_dpi_and_bleed(tmp_path):
    assert export(tmp_path, "images", "--game", "special-action-tokens", "--dpi", "100", "--bleed", "0") == 0
    folder = tmp_path / "special-action-tokens" / "images"
    tokens = [p for p in all_files(folder) if p.suffix == ".png" and "card" not in p.parts]
    assert tokens
    for path in tokens:
        with Image.open(path) as image:
            assert image.size == (75, 75)  # a 3/4 inch token at 100 dpi, no bleed


# ---------------------------------------------------------------- refusals write nothing

@pytest.mark.parametrize("args, message", [
    (("tts", "--game", "no-such-game"), "unknown game 'no-such-game'"),
    (("pdf", "--game", "spies"), "unknown export 'pdf'"),
    (("tts", "--game", "spies", "--dpi", "200"), "--dpi: not used by `dossier export tts`"),
    (("images", "--game", "spies", "--dpi", "0"), "--dpi 0"),
    (("images", "--game", "spies", "--bleed", "-1mm"), "--bleed: cannot be negative"),
    (("tts", "--game", "spies", "--image-url", "example"), "--image-url 'example'"),
    (("images", "--game", "spies", "--service", "kinkos"), "--service 'kinkos': choose from generic, thegamecrafter"),
    (("images", "--game", "spies", "--service", "thegamecrafter", "--dpi", "200"), "--service thegamecrafter sets its own"),
    (("vassal", "--game", "spies", "--service", "thegamecrafter"), "--service: not used by `dossier export vassal`"),
])
def test_export_refuses_bad_input_with_exit_2_and_writes_nothing(cli, tmp_path, args, message):
    result = cli("export", *args, "--out", tmp_path / "out")
    assert result.code == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_export_refuses_an_out_folder_that_is_a_file(cli, tmp_path):
    target = tmp_path / "taken"
    target.write_text("mine", encoding="utf-8")
    result = cli("export", "vassal", "--game", "special-action-tokens", "--out", target)
    assert result.code == 2 and "is a file, not a folder" in result.stderr
    assert target.read_text(encoding="utf-8") == "mine"


def test_export_refuses_when_a_file_is_in_the_way_and_writes_nothing(cli, tmp_path):
    game = tmp_path / "special-action-tokens"
    game.mkdir()
    (game / "tts").write_text("mine", encoding="utf-8")
    result = cli("export", "tts", "--game", "special-action-tokens", "--out", tmp_path)
    assert result.code == 2 and "tts" in result.stderr and "Traceback" not in result.stderr
    assert all_files(tmp_path) == [game / "tts"] and (game / "tts").read_text(encoding="utf-8") == "mine"


def test_tts_cards_look_like_the_print_on_demand_images_of_the_same_side(exported, tts, manifest):
    """A card's front slot is the same picture as the piece's front image for print (bleed trimmed), not its back."""
    _, cards = tts
    rows: dict[tuple[str, str], list[dict]] = {}
    for row in manifest:
        rows.setdefault((row["piece"], row["face"]), []).append(row)

    def printed(row: dict, size: tuple[int, int]) -> Image.Image:
        with Image.open(exported / "images" / row["file"]) as image:
            bleed = float(row["bleed_mm"]) / MM_PER_INCH * int(row["dpi"])
            return image.convert("RGB").resize(size, box=(bleed, bleed, image.width - bleed, image.height - bleed))

    def difference(a: Image.Image, b: Image.Image) -> float:
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3

    checked = 0
    for card in {c["CardID"]: c for c in cards}.values():  # each distinct face once
        label = card["Description"].splitlines()[0]
        fronts, backs = rows.get((label, "front"), []), rows.get((label, "back"), [])
        if len(fronts) != 1 or len(backs) != 1:
            continue  # several pieces share this label (police of different strengths)
        slot = slot_image(card, "FaceURL")
        size = (48, round(48 * slot.height / slot.width))  # small: enough to tell two sides apart, quick to compare
        front = slot.resize(size)
        same, other = difference(front, printed(fronts[0], size)), difference(front, printed(backs[0], size))
        assert 2 * same < other, label  # resampling blurs fine print a little; the other side differs far more
        checked += 1
    assert checked > 50


def test_export_refuses_a_folder_it_may_not_write_into(cli, tmp_path, monkeypatch):
    from generators.export import output

    locked = tmp_path / "locked"
    locked.mkdir()
    monkeypatch.setattr(output.os, "access", lambda path, mode: Path(path) != locked)  # as the system answers for a read-only folder
    result = cli("export", "images", "--game", "special-action-tokens", "--out", locked / "out")
    assert result.code == 2 and "no permission to write into" in result.stderr and "locked" in result.stderr
    assert all_files(tmp_path) == [] and not (locked / "out").exists()
