"""The exports judged by the programs that read them: VASSAL 3.7.26's own engine opens every game's
module as a player does (../shared/vassal/check-vmod), and reports the module's regions, masks and
move log (vassal/RegionsAndMasks.java, run on the same engine); PyPI's tabletop-tools unpacks and
repacks every Tabletop Simulator save.

The VASSAL checks take 20-40 s a module, so every module is exported and checked once, several at
a time, in one session fixture. They are skipped only where Java is absent."""

from __future__ import annotations

import json
import os
from collections import Counter
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from generators.cli import main
from generators.validation import load_game

pytestmark = pytest.mark.slow  # VASSAL's own engine and the TTS tools: the full suite, not the inner loop

GAMES = sorted(p.parent.name for p in (Path(__file__).resolve().parents[1] / "components").glob("*/game.yaml"))
# ../shared beside the checkout (CI), or beside a folder further up that holds the checkout
VASSAL = next((p / "shared" / "vassal" for p in Path(__file__).resolve().parents[1:] if (p / "shared" / "vassal").is_dir()),
              Path("../shared/vassal"))
CHECK = VASSAL / "check-vmod"
HELPER = Path(__file__).with_name("vassal") / "RegionsAndMasks.java"
TTS = Path(sys.executable).with_name("tts")
CHECKS_AT_ONCE = 4  # a check spends most of its 20-40 s waiting on VASSAL's own timers, not on a core
REPORTED = ("spies", "spion-und-spion", "web-of-spies")  # a map, track boards, a map with dice: regions and masks read back

needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="VASSAL's engine needs Java (CI installs it)")


@pytest.fixture(scope="session", autouse=True)
def _engine_present():
    if shutil.which("java") is not None:
        assert (VASSAL / "check-vmod").is_file(), f"no VASSAL check at {VASSAL}: CI keeps it in ../shared/vassal"


def engine_classpath() -> str:
    """The engine and the Debian jars it runs on, as check-vmod lists them."""
    line = next(l for l in CHECK.read_text().splitlines() if l.startswith("VCP="))
    return f"{VASSAL / 'vassal-3.7.26-engine.jar'}:" + line[len("VCP="):].replace("$J", "/usr/share/java")


def regions_and_masks(module: Path, work: Path) -> list[list[str]]:
    """RegionsAndMasks' report on `module`: its lines split at '|'."""
    (work / "conf").mkdir(parents=True, exist_ok=True)
    classpath = f"{engine_classpath()}:{work}"
    subprocess.run(["javac", "--release", "17", "-proc:none", "-cp", classpath, "-d", str(work), str(HELPER)],
                   check=True, capture_output=True)
    run = subprocess.run(["xvfb-run", "-a", "java", "-Djava.awt.headless=false", f"-DVASSAL.conf={work / 'conf'}",
                          f"-Duser.home={work}", "-cp", classpath, "RegionsAndMasks", str(module)],
                         capture_output=True, text=True, timeout=300, cwd=work)
    lines = [line.split("|") for line in run.stdout.splitlines() if "|" in line or line == "DONE"]
    assert ["DONE"] in lines, run.stdout[-3000:] + run.stderr[-3000:]
    return lines


def _engine_start_raced(folder: Path) -> bool:
    """Whether the one warning VASSAL logged is one of its own start-up races on a loaded machine, which say
    nothing of the module: the Player it launches reads the Module Manager's key file before the manager has
    written it (an EOFException in ModuleManager.main, "VASSAL: IO error"), or the image tiler it launches has its
    output stream closed under it ("Error during tiling", an IOException "Stream closed"). Such a check is run
    once more."""
    try:
        warnings = (folder / "errorlog-warnings.txt").read_text(encoding="utf-8").splitlines()
        printed = (folder / "stdout.txt").read_text(encoding="utf-8")
        tiling = (folder / "tiling-stdout.txt").read_text(encoding="utf-8") if (folder / "tiling-stdout.txt").exists() else ""
    except OSError:
        return False
    manager = (all("VASSAL: IO error" in line for line in warnings)
               and "java.io.EOFException" in printed and "at VASSAL.launch.ModuleManager.main" in printed)
    tiler = (all("TilingHandler - Error during tiling" in line for line in warnings)
             and "java.io.IOException: Stream closed" in tiling)
    return bool(warnings) and (manager or tiler)


@pytest.fixture(scope="session")
def vassal_checked(tmp_path_factory):
    """Every game's module, checked by check-vmod: game -> (exit code, report text); and, for the REPORTED games,
    game -> their regions, masks and move log as VASSAL reports them."""
    if shutil.which("java") is None:
        pytest.skip("VASSAL's engine needs Java (CI installs it)")
    out = tmp_path_factory.mktemp("vassal")
    for game in GAMES:
        assert main(["export", "vassal", "--game", game, "--out", str(out)]) == 0

    def check(game: str, again: bool = True) -> tuple[int, str]:
        folder = out / f"check-{game}"
        run = subprocess.run([str(CHECK), str(out / game / f"{game}.vmod"), str(folder)], capture_output=True,
                             text=True, timeout=900)
        if again and _engine_start_raced(folder):
            return check(game, again=False)
        report = folder / "report.txt"
        return run.returncode, report.read_text(encoding="utf-8") if report.exists() else run.stdout + run.stderr

    with ThreadPoolExecutor(max_workers=CHECKS_AT_ONCE) as pool:
        reports = {game: pool.submit(regions_and_masks, out / game / f"{game}.vmod", out / f"helper-{game}")
                   for game in REPORTED}
        checked = dict(zip(GAMES, pool.map(check, GAMES)))
        return checked, {game: report.result() for game, report in reports.items()}


@needs_java
@pytest.mark.parametrize("game", GAMES)
def test_vassal_opens_every_game_as_a_player_does_without_a_problem(vassal_checked, game):
    code, report = vassal_checked[0][game]
    assert code == 0, "\n".join(l for l in report.splitlines() if "PROBLEM" in l) or report[-3000:]
    assert "errorLog warnings/errors: 0" in report


@needs_java
@pytest.mark.parametrize("game", GAMES)
def test_vassal_docks_the_main_map_into_the_player_window(vassal_checked, game):
    report = vassal_checked[0][game][1]
    first = re.search(r"map '([^']+)' view is in window: (.*)", report)
    assert first and "(main window, docked)" in first.group(2), report[-3000:]


@needs_java
def test_vassal_flip_changes_every_piece_that_has_a_flip(vassal_checked):
    for game, (_, report) in vassal_checked[0].items():
        assert "image UNCHANGED" not in report, game


@needs_java
def test_vassal_spies_map_has_one_named_region_per_city_and_sea_zone(vassal_checked, spies):
    lines = vassal_checked[1]["spies"]
    regions = [l[2] for l in lines if l[0] == "REGION" and l[1] == "Spies! map"]
    cities = [c.name for c in spies.map.cities]
    assert len(cities) == 124  # the 89 cities of the Event Tiles and the 35 the routes need
    places = cities + [z.name for z in spies.map.sea_zones]
    assert regions[:len(places)] == places
    names = {f.id: f.name for f in spies.info.factions}  # then every box of the map's tracks, records and boxes
    assert sorted(regions[len(places):]) == sorted(n for aid in spies.map.aids for n in aid.room_names(names))
    assert {"Bank Track 50", "Game Year 1933", "Germany 1939", "Sanctioned Spies Box"} <= set(regions)


@needs_java
def test_vassal_spies_bank_markers_and_game_year_start_where_the_set_up_puts_them(vassal_checked, spies):
    starts = {l[2].split(" - ")[0]: (l[1], l[3], sorted(l[4].split(","))) for l in vassal_checked[1]["spies"] if l[0] == "START"}
    # How to Begin the Game: each Bank marker in the box with its country's name; the Game Year marker under 1933
    assert starts["Bank Track 50"] == ("Spies! map", "Bank Track 50", sorted(f"{f.name} £" for f in spies.info.factions))
    assert starts["Game Year 1933"] == ("Spies! map", "Game Year 1933", ["Game Year"])
    assert 50 in spies.map.aids[0].marks and spies.map.aids[0].id == "bank"


@needs_java
def test_vassal_web_of_spies_map_has_a_region_on_every_city_of_the_dice(vassal_checked):
    game = load_game("web-of-spies")
    regions = [l[2] for l in vassal_checked[1]["web-of-spies"] if l[0] == "REGION" and l[1] == "Web of Spies map"]
    assert len(game.map.cities) == 36 and regions[:36] == [c.name for c in game.map.cities]
    assert regions[36:] == ["Public Asset 1", "Public Asset 2", "Secret Asset"]  # the board's asset slots (Setup, Step 3)


@needs_java
def test_vassal_each_track_board_is_a_map_with_a_region_on_every_space_box_and_card_pile(vassal_checked):
    game = load_game("spion-und-spion")
    lines = vassal_checked[1]["spion-und-spion"]
    report = vassal_checked[0]["spion-und-spion"][1]
    for board in game.boards.boards:
        title = f"{game.info.title}: {board.title}"
        assert f"map '{title}': boards in use 1" in report
        regions = [l[2] for l in lines if l[0] == "REGION" and l[1] == title]
        rooms = [room for a in board.middle + board.border for room in ([a.title] if a.kind == "box" else [s.label for s in a.slots])]
        assert regions == [s.label for s in board.spaces] + rooms, title


@needs_java
@pytest.mark.parametrize("game", REPORTED)
def test_vassal_a_piece_dropped_near_a_space_snaps_onto_it_and_is_named_for_it(vassal_checked, game):
    lines = vassal_checked[1][game]
    origins = {(l[1], l[2]): f"{l[3]},{l[4]}" for l in lines if l[0] == "REGION"}
    snaps = [l for l in lines if l[0] == "SNAP"]
    assert len(snaps) == len(origins) > 0
    for _, board, name, snapped, named in snaps:
        assert (snapped, named) == (origins[board, name], name)


@needs_java
def test_vassal_each_powers_hidden_pieces_start_masked_to_all_but_its_side(vassal_checked, spies):
    masks = [l for l in vassal_checked[1]["spies"] if l[0] == "MASK" and " pieces" in l[1]]
    hidden = {k for k, kind in spies.info.kinds.items() if kind.hidden}
    expected = sum(p.count for p in spies.pieces if p.kind in hidden and p.nation)
    assert len(masks) == expected
    for _, stack, piece, masked_by, seeing, others_see in masks:
        assert stack.startswith(f"{masked_by} pieces"), (stack, piece)
        assert seeing == masked_by  # not the other powers, not an observer
        assert others_see != piece and others_see in (masked_by.upper(), "POLICE")


@needs_java
@pytest.mark.parametrize("game", GAMES)
def test_vassal_reference_cards_are_a_face_up_pile_whose_cards_turn_to_their_backs(vassal_checked, game):
    piles = [l for l in vassal_checked[0][game][1].splitlines() if l.strip().startswith("pile '")]
    cards = [l for l in piles if "pile 'Reference card'" in l]
    assert cards and all("faceDown=false" in l and "deck picture shows: face" in l for l in cards), piles
    assert not [l for l in piles if "identical" in l]  # every pile's cards show a back unlike their face


@needs_java
def test_vassal_drawn_pieces_are_face_down_piles_that_nobody_sees_into(vassal_checked):
    report = vassal_checked[0]["spies"][1]
    for pile in ("Secret & Counterspy", "Action chit", "Event Tile · Russia"):
        line = next(l for l in report.splitlines() if f"pile '{pile}'" in l)
        assert "faceDown=true" in line and "deck picture shows: back" in line, line


@needs_java
def test_vassal_move_log_names_the_cities_and_not_the_masked_piece(vassal_checked):
    lines = vassal_checked[1]["spies"]
    moved = next(l for l in lines if l[0] == "MOVED")
    log = [l[1] for l in lines if l[0] == "MOVE"]
    _, owner, start, end = moved
    mask = next(l for l in lines if l[0] == "MASK" and l[3] == owner)
    assert log == [f"* {mask[5]} moves {start} -> {end} *"]
    assert mask[2] not in log[0]


def expected_starts(game) -> Counter:
    """(piece name as the exports call it, place) for every copy pieces.yaml starts on a board."""
    from generators.export.parts import export_settings, game_parts

    return Counter((part.name, place) for part in game_parts(game, export_settings(game)) for place in part.starts)


def board_places(board) -> set[str]:
    return {s.label for s in board.spaces} | {room for a in board.middle + board.border + board.below
                                               for room in ([a.title] if a.kind == "box" else [s.label for s in a.slots])}


@needs_java
def test_vassal_spion_und_spion_pieces_start_where_preparation_puts_them(vassal_checked):
    """Each board comes set up for its own game: the 4-player board with all four colours, the 2-player board
    with BLACK's and WHITE's pieces on its own places."""
    game = load_game("spion-und-spion")
    titles = {f"{game.info.title}: {b.title}": b for b in game.boards.boards}
    four, two = (f"{game.info.title}: {b.title}" for b in game.boards.boards)
    by_board = {title: Counter() for title in titles}
    for _, board, stack, named, pieces in (l for l in vassal_checked[1]["spion-und-spion"] if l[0] == "START"):
        place = stack.split(" - ")[0]  # VASSAL calls a set-up stack "name - top piece - location"
        assert board in titles and named == place  # the board's own grid sets the stack on its place's region
        by_board[board].update((piece, place) for piece in pieces.split(","))
    got = by_board[four]
    assert got == expected_starts(game)
    small = board_places(titles[two])
    assert by_board[two] == Counter({k: n for k, n in expected_starts(game).items() if k[1] in small})
    assert {place for _, place in by_board[two]} >= {"BLACK embassy", "WHITE embassy", "BLACK PRISON", "COAL BOX"}
    assert not any(place.startswith(("BLACK-RED", "WHITE-BLUE")) for _, place in by_board[two])
    report = vassal_checked[0]["spion-und-spion"][1]
    assert re.search(rf"map '{re.escape(two)}': .* top-level pieces {len({p for _, p in by_board[two]})}\b", report)
    for colour in ("BLACK", "WHITE", "BLACK-RED", "WHITE-BLUE"):  # PREPARATION: two spies home, one in prison, a BAZONG
        assert sum(n for (piece, place), n in got.items() if place == f"{colour} embassy" and piece.split()[0].isdigit()) == 2
        assert sum(n for (piece, place), n in got.items() if place == f"{colour} PRISON") == 1
        assert got[("BAZONG", f"{colour} embassy")] == 1 and got[("HOT-ENVELOPE", f"{colour}'s Hot-Envelope")] == 1
    assert got[("GRAY SPY", "COAL BOX")] == 1 and sum(n for (_, place), n in got.items() if place == "COAL BOX") == 4
    assert got[("FAHR BLACK", "BLACK Pass-Cards")] == 3 and sum(n for (_, p), n in got.items() if p == "WHITE Pass-Cards") == 11
    places = len({place for _, place in got})  # after File > New Game, every stack is on the board
    assert f"map '{four}': boards in use 1, size" in vassal_checked[0]["spion-und-spion"][1]
    assert re.search(rf"map '{re.escape(four)}': .* top-level pieces {places}\b", vassal_checked[0]["spion-und-spion"][1])


# ---------------------------------------------------------------- Tabletop Simulator's tools

@pytest.fixture(scope="session")
def tts_saves(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts")
    for game in GAMES:
        assert main(["export", "tts", "--game", game, "--out", str(out)]) == 0
    saves = {game: out / game / "tts" / f"{game}.json" for game in GAMES}
    saves[TWO_PLAYER_SAVE] = out / "spion-und-spion" / "tts" / f"{TWO_PLAYER_SAVE}.json"
    return saves


TWO_PLAYER_SAVE = "spion-und-spion-two-player"  # the same game set up on the 2-player board


@pytest.mark.parametrize("game", [*GAMES, TWO_PLAYER_SAVE])
def test_tabletop_tools_unpacks_and_repacks_every_save_unchanged(tts_saves, game, tmp_path):
    save = tts_saves[game]
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    unpacked = subprocess.run([str(TTS), "unpack", str(save)], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert unpacked.returncode == 0, unpacked.stderr[-2000:]
    repacked = tmp_path / "repacked.json"
    packed = subprocess.run([str(TTS), "repack", str(repacked)], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert packed.returncode == 0, packed.stderr[-2000:]
    assert json.loads(repacked.read_text(encoding="utf-8")) == json.loads(save.read_text(encoding="utf-8"))


SAVE_KEYS = ("SaveName", "GameMode", "Date", "VersionNumber", "Gravity", "PlayArea", "Table", "Sky", "Note", "XmlUI",
             "LuaScript", "LuaScriptState", "Grid", "Lighting", "Hands", "TabStates", "ObjectStates", "Tags")
OBJECT_KEYS = ("GUID", "Name", "Transform", "Nickname", "Description", "GMNotes", "ColorDiffuse", "Locked", "Grid",
               "Snap", "Autoraise", "Sticky", "Tooltip", "HideWhenFaceDown", "Hands", "LuaScript", "LuaScriptState",
               "XmlUI")


def every_object(objects):
    for obj in objects:
        yield obj
        yield from every_object(obj.get("ContainedObjects", []))


@pytest.mark.parametrize("game", GAMES)
def test_tts_save_carries_every_key_the_save_type_declares_and_tts_writes(tts_saves, game):
    save = json.loads(tts_saves[game].read_text(encoding="utf-8"))
    assert not [k for k in SAVE_KEYS if k not in save]
    for obj in every_object(save["ObjectStates"]):
        assert not [k for k in OBJECT_KEYS if k not in obj], obj["Nickname"]


class TableObject:
    """A TTS object as the Lua it carries sees it (`self`): TTS's own calls, on an object whose image
    TTS made `extent` units (x, y, z) at scale 1, a figure TTS does not document and the Lua must not need."""

    def __init__(self, lua, extent, scale=(1.0, 1.0, 1.0)):
        self.lua, self.extent, self.scale, self.points, self.scaled = lua, extent, list(scale), None, 0

    def getBoundsNormalized(self):
        size = self.lua.table_from({k: e * s for k, e, s in zip("xyz", self.extent, self.scale)})
        return self.lua.table_from({"size": size})

    def getScale(self):
        return self.lua.table_from(dict(zip("xyz", self.scale)))

    def setScale(self, scale):
        self.scale, self.scaled = [scale["x"], scale["y"], scale["z"]], self.scaled + 1

    def setSnapPoints(self, points):
        self.points = [tuple(point["position"][k] for k in "xyz") for point in points.values()]

    def positionToWorld(self, at):
        """The board's local point on the table: scaled, then moved to where the board lies (turned it is not,
        here: what is checked is that a piece goes to the point a snap point has)."""
        return self.lua.table_from({k: at[k] * s + o for k, s, o in zip("xyz", self.scale, (100.0, 1.0, -50.0))})


class TablePiece:
    """An object the board's script moves: where it was set."""

    def __init__(self):
        self.at = None

    def setPosition(self, at):
        self.at = (at["x"], at["y"], at["z"])


def loaded(script: str, extent, scale=(1.0, 1.0, 1.0), objects: dict | None = None, state: str = "") -> TableObject:
    """The object after TTS loads it: its Lua run and its onLoad called with its saved `state`; `objects` are the
    other objects on the table by GUID, and the frames it waits for pass at once."""
    from lupa import LuaRuntime

    lua = LuaRuntime()
    obj = TableObject(lua, extent, scale)
    lua.globals().self = obj
    lua.globals().getObjectFromGUID = lambda guid: (objects or {}).get(guid)
    lua.execute("Wait = {frames = function(f, n) f() end}")
    lua.execute(script)
    lua.globals().onLoad(state)
    obj.saved = lua.globals().onSave() if lua.globals().onSave else None
    return obj


@pytest.mark.parametrize("extent", [(20.0, 0.2, 14.1), (9.3, 0.1, 6.6)])  # TTS's size for the image: any will do
def test_tts_map_board_takes_the_poster_size_and_a_snap_point_on_every_printed_space(tts_saves, spies, extent):
    from generators.export.spaces import map_spaces
    from generators.map.spaces import poster_places

    save = json.loads(tts_saves["spies"].read_text(encoding="utf-8"))
    board = next(o for o in save["ObjectStates"] if o["Nickname"] == "Spies! map")
    places = poster_places(spies)
    board_obj = loaded(board["LuaScript"], (extent[0], extent[1], extent[0] * places.height / places.width))
    assert abs(board_obj.extent[0] * board_obj.scale[0] - places.width / 25.4) < 1e-3  # a unit is an inch
    spaces = map_spaces(spies)
    assert len(spaces) == len(spies.map.cities) + len(spies.map.sea_zones)
    names = {f.id: f.name for f in spies.info.factions}  # then a point on each box of the map's tracks and records
    assert len(board_obj.points) == len(spaces) + sum(len(aid.room_names(names)) for aid in spies.map.aids)
    for (x, _, z), space in zip(board_obj.points, spaces):  # each point, on the table, on its printed space
        assert abs(x * board_obj.scale[0] - (space.x - places.width / 2) / 25.4) < 1e-3, space.name
        assert abs(z * board_obj.scale[2] - (places.height / 2 - space.y) / 25.4) < 1e-3, space.name


def test_tts_pieces_take_their_printed_size_once_and_keep_it(tts_saves):
    save = json.loads(tts_saves["spies"].read_text(encoding="utf-8"))
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom" and "spy" in o["Nickname"].lower())
    for obj in [deck, deck["ContainedObjects"][0]]:
        piece = loaded(obj["LuaScript"], (2.2, 0.01, 2.2), (obj["Transform"]["scaleX"], 1.0, obj["Transform"]["scaleZ"]))
        assert abs(piece.extent[0] * piece.scale[0] - 0.5) < 1e-3  # a half-inch counter, half a unit wide
        again = loaded(obj["LuaScript"], piece.extent, piece.scale)
        assert again.scaled == 0 and again.points is None  # sized already: left alone, and no snap points


def test_tts_every_track_board_is_a_board_with_a_snap_point_on_every_space_box_and_card_pile(tts_saves):
    game = load_game("spion-und-spion")
    save = json.loads(tts_saves["spion-und-spion"].read_text(encoding="utf-8"))
    boards = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"}
    for board in game.boards.boards:
        points = loaded(boards[f"{game.info.title}: {board.title}"]["LuaScript"], (10.0, 0.2, 10.0)).points
        rooms = sum(1 if a.kind == "box" else len(a.slots) for a in board.middle + board.border)
        assert len(points) == len(board.spaces) + rooms
        assert len({(x, z) for x, _, z in points}) == len(points)


def test_tts_web_of_spies_map_has_a_snap_point_on_every_city(tts_saves):
    save = json.loads(tts_saves["web-of-spies"].read_text(encoding="utf-8"))
    board = next(o for o in save["ObjectStates"] if o["Nickname"] == "Web of Spies map")
    assert len(loaded(board["LuaScript"], (10.0, 0.2, 7.0)).points) == 36 + 3  # and the two Public and one Secret Asset


@pytest.mark.parametrize("game", GAMES)
def test_tts_save_holds_as_many_pieces_as_the_printed_set(tts_saves, game):
    data = load_game(game)
    save = json.loads(tts_saves[game].read_text(encoding="utf-8"))
    cards = [o for o in every_object(save["ObjectStates"]) if o["Name"] == "Card"]
    expected = sum(p.count for p in data.pieces) + len(list(data.tiles)) + len([c for c in data.cards.cards if c.deck] if data.cards else [])
    assert len(cards) == expected


def test_tts_gives_each_power_a_hand_to_hide_what_it_holds(tts_saves, spies):
    save = json.loads(tts_saves["spies"].read_text(encoding="utf-8"))
    hands = [o for o in save["ObjectStates"] if o["Name"] == "HandTrigger"]
    assert [h["Nickname"] for h in hands] == [f"{f.name} hand" for f in spies.info.factions]
    assert len({h["FogColor"] for h in hands}) == len(hands) and save["Hands"]["Enable"]


def _inside(transform, zone) -> bool:
    t, z = transform, zone["Transform"]
    return abs(t["posX"] - z["posX"]) < z["scaleX"] / 2 and abs(t["posZ"] - z["posZ"]) < z["scaleZ"] / 2


def test_tts_keeps_each_powers_hidden_pieces_in_a_hidden_zone_of_its_seats_colour(tts_saves, spies):
    save = json.loads(tts_saves["spies"].read_text(encoding="utf-8"))
    zones = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "FogOfWarTrigger"}
    hands = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "HandTrigger"}
    assert list(zones) == [f"{f.name}'s hidden pieces" for f in spies.info.factions]
    for faction in spies.info.factions:  # the zone shows what it holds to its own seat alone: the hand's colour
        zone = zones[f"{faction.name}'s hidden pieces"]
        assert zone["FogColor"] == hands[f"{faction.name} hand"]["FogColor"] and not zone["FogReverseHiding"]
    decks = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"}
    kept = {f"{kind.label} · {f.name}": f"{f.name}'s hidden pieces" for kind in spies.info.kinds.values() if kind.hidden
            for f in spies.info.factions if f"{kind.label} · {f.name}" in decks}
    assert {"Spy · Germany", "Police · Britain"} <= set(kept)  # the kinds deployed face down [2.5], [2.6]
    for name, deck in decks.items():  # each power's spies and police lie in its own zone, in no other; nothing else in any
        assert [z for z, zone in zones.items() if _inside(deck["Transform"], zone)] == ([kept[name]] if name in kept else []), name


@pytest.mark.parametrize("game", ["spion-und-spion", "web-of-spies"])
def test_tts_gives_no_hidden_zone_to_a_game_that_hides_no_owned_piece(tts_saves, game):
    save = json.loads(tts_saves[game].read_text(encoding="utf-8"))
    assert not [o for o in save["ObjectStates"] if o["Name"] == "FogOfWarTrigger"]


def test_tts_spion_und_spion_board_sets_each_piece_on_its_place_when_the_game_begins_and_only_then(tts_saves):
    game = load_game("spion-und-spion")
    save = json.loads(tts_saves["spion-und-spion"].read_text(encoding="utf-8"))
    by_guid = {o["GUID"]: o for o in save["ObjectStates"]}
    boards = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    four = boards[0]
    pieces = {guid: TablePiece() for guid in by_guid}
    board = loaded(four["LuaScript"], (10.0, 0.2, 12.1), objects=pieces)
    places = [s.label for s in game.boards.boards[0].spaces] + [  # the snap points' places, in their order
        room for a in game.boards.boards[0].middle + game.boards.boards[0].border
        for room in ([a.title] if a.kind == "box" else [s.label for s in a.slots])]
    points = {(round(x, 6), round(z, 6)): place for (x, _, z), place in zip(board.points, places)}
    got = Counter()
    for guid, piece in pieces.items():
        if piece.at is None:
            continue
        x, _, z = piece.at  # back from the table to the board's local point, as positionToWorld put it
        place = points[(round((x - 100.0) / board.scale[0], 6), round((z + 50.0) / board.scale[2], 6))]
        got.update((card["Nickname"], place) for card in by_guid[guid].get("ContainedObjects") or [by_guid[guid]])
    assert got == expected_starts(game)  # every copy that starts on the board is set on its place's snap point
    pass_cards = next(o for o in save["ObjectStates"] if o["Nickname"] == "Pass-Card · Black")
    assert pass_cards["Transform"]["rotZ"] == 180.0  # PREPARATION: the piles lie face down
    assert board.saved == "set up"
    again = {guid: TablePiece() for guid in by_guid}
    loaded(four["LuaScript"], (10.0, 0.2, 12.1), board.scale, objects=again, state=board.saved)
    assert all(p.at is None for p in again.values())  # a saved game reloads as it was left
    assert "START = {" not in boards[1]["LuaScript"]  # each copy on one board: the first that has its place
    cards = [o for o in every_object(save["ObjectStates"]) if o["Name"] == "Card"]
    assert len(cards) == sum(p.count for p in game.pieces) + len(game.cards.cards)  # none twice, none lost


def _set_on(board_object: dict, board, by_guid: dict) -> Counter:
    """(piece, place) for every copy the board's script sets on it when the game begins."""
    pieces = {guid: TablePiece() for guid in by_guid}
    loaded_board = loaded(board_object["LuaScript"], (10.0, 0.2, 12.1), objects=pieces)
    places = [s.label for s in board.spaces] + [room for a in board.middle + board.border + board.below
                                                for room in ([a.title] if a.kind == "box" else [s.label for s in a.slots])]
    points = {(round(x, 6), round(z, 6)): place for (x, _, z), place in zip(loaded_board.points, places)}
    got = Counter()
    for guid, piece in pieces.items():
        if piece.at is not None:
            x, _, z = piece.at
            place = points[(round((x - 100.0) / loaded_board.scale[0], 6), round((z + 50.0) / loaded_board.scale[2], 6))]
            got.update((card["Nickname"], place) for card in by_guid[guid].get("ContainedObjects") or [by_guid[guid]])
    return got


def test_tts_spion_und_spion_has_a_save_set_up_on_the_two_player_board(tts_saves):
    """A 2-player game opens its own save: BLACK's and WHITE's pieces set on the 2-player board, the partners'
    colours left on the 4-player board; the same pieces, none twice, as the 4-player save."""
    game = load_game("spion-und-spion")
    four_board, two_board = game.boards.boards
    save = json.loads(tts_saves[TWO_PLAYER_SAVE].read_text(encoding="utf-8"))
    assert save["SaveName"] == f"{game.info.title} ({game.info.title}: {two_board.title})"
    by_guid = {o["GUID"]: o for o in save["ObjectStates"]}
    four, two = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Board"]
    on_two = _set_on(two, two_board, by_guid)
    small = board_places(two_board)
    assert on_two == Counter({k: n for k, n in expected_starts(game).items() if k[1] in small})
    assert {"BLACK embassy", "WHITE embassy", "COAL BOX"} <= {place for _, place in on_two}
    on_four = _set_on(four, four_board, by_guid)
    assert on_four + on_two == expected_starts(game)  # the partners' colours stay on the big board
    assert not any(place.startswith(("BLACK embassy", "WHITE embassy")) for _, place in on_four)
    cards = [o for o in every_object(save["ObjectStates"]) if o["Name"] == "Card"]
    assert len(cards) == sum(p.count for p in game.pieces) + len(game.cards.cards)  # none twice, none lost
