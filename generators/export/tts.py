"""Tabletop Simulator: OUT/<game>/tts/<game>.json, a saved object a player drops into TTS's
"Saved Objects" folder, with the images it names beside it; for a game whose pieces start on more than
one board (a board per table size), also <game>-<board>.json, the same set up on that board.

The boards are custom boards. Every other part is a card of a custom deck with unique backs, so
it flips to its own back: one deck per group (each kind and nation of piece, each nation's event
tiles, the reference cards), as many cards as the game has copies. Faces of one size share card
sheets that follow TTS's rules (see ../shared/FORMATS.md and the Tabletop Simulator knowledge
base, "Custom Deck", "Asset Creation", "Save File Format"): at most 10 x 7 slots, the last slot
left for TTS's hidden image so at most 69 faces a sheet, at most 4096 x 4096 pixels, RGB PNG; a
card's id is its sheet's number x 100 + its slot.

Every board and card takes its printed size on the table from the game's data when TTS loads it, and
the map board its snap points on the printed spaces (tts_scripts.py).

Each faction has a seat: a hand in the seat's colour (what it holds there only that seat sees) and, where
it owns pieces the game keeps hidden (of a `hidden` kind), a hidden zone
(FogOfWarTrigger) in the same colour holding those decks, so that the other seats see fog where they lie.
TTS has no mask for a single piece on the open table; a piece taken out of its zone onto a board is
hidden only by lying face down.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import OptionError
from ..printing.fonts import register_fonts
from ..printing.painter import Drawing
from .boards import Board, Start, board_starts, game_boards, set_up_boards
from .output import Bundle
from .parts import CARD, Part, export_settings, game_parts
from .raster import MM_PER_INCH, PngWriter, rasterise, side_drawing
from .spaces import Space
from .tts_scripts import fit_script, units

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..core.game import Game
    from .exports import ExportOptions

MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_FACES = MAX_COLUMNS * MAX_ROWS - 1  # the last slot of a full sheet is the hidden image
MAX_PIXELS = 4096
DPI = 300  # faces are drawn this sharp unless TTS's size limit asks for less
BOARD_DPI = 150  # boards, as VASSAL's: a table is seen from further off than a counter in hand
CARD_WIDTH = 63.5  # mm a card is taken to be at scale 1 before it sizes itself on load (tts_scripts.py)
TILE_TYPE, CARD_TYPE = 1, 0  # CustomDeck "Type": square-cornered rectangle, rounded rectangle
DECK_SPACING = 5.0  # TTS units between decks, laid out in rows in front of the boards
DECKS_PER_ROW = 10
DECK_ROW = -40.0  # where the first row sits
BOARD_GAP = 5.0  # units between boards side by side
VERSION = "v13.2.2"  # the TTS release whose save keys these are (its saves carry "VersionNumber")
# The seats' colours in TTS's order, one hand per faction (a hand hides what it holds from every other seat).
SEATS = ("White", "Red", "Orange", "Yellow", "Green", "Blue", "Purple", "Pink", "Teal", "Brown")
HAND_ROW = 30.0  # how far in front of the boards the hands sit
SEAT_SPACING = 12.0  # units between neighbouring seats' hands and hidden zones
ZONE_ROW = 20.0  # where the hidden zones sit: between the boards (at most about 11 units deep each way) and the hands
ZONE_SIZE = (11.0, 8.0)  # a hidden zone's width and depth (units)
ZONE_DECK_SPACING = 3.0  # units between the decks in one hidden zone


@dataclass(frozen=True)
class Sheet:
    """One card sheet: its number (the CustomDeck key), its grid, the parts in its slots in order,
    the resolution its faces are drawn at, and the file names of its face and back images."""

    number: int
    columns: int
    rows: int
    parts: tuple[Part, ...]
    dpi: float
    face_file: str
    back_file: str

    def card_id(self, part: Part) -> int:
        """The TTS card id of `part` on this sheet."""
        return self.number * 100 + [p.key for p in self.parts].index(part.key)


def grid(count: int, size: tuple[float, float]) -> tuple[int, int, float]:
    """The (columns, rows, dpi) that show `count` faces of `size` mm sharpest: room for the faces and
    the hidden slot, within 10 x 7 slots and 4096 pixels, fewest slots among equals."""
    width, height = size
    best = None
    for columns in range(1, MAX_COLUMNS + 1):
        rows = math.ceil((count + 1) / columns)
        if rows > MAX_ROWS:
            continue
        dpi = min(DPI, MAX_PIXELS // columns * MM_PER_INCH / width, MAX_PIXELS // rows * MM_PER_INCH / height)
        key = (dpi, -columns * rows)
        if best is None or key > best[0]:
            best = (key, columns, rows, dpi)
    assert best is not None, "a sheet never holds more than MAX_FACES faces"
    return best[1], best[2], best[3]


def plan_sheets(game: "Game", parts: list[Part]) -> list[Sheet]:
    """The card sheets for `parts`: faces of one size together, MAX_FACES a sheet, numbered from 1."""
    by_size: dict[tuple[float, float], list[Part]] = {}
    for part in parts:
        by_size.setdefault(part.size, []).append(part)
    sheets: list[Sheet] = []
    for size, members in by_size.items():
        chunks = [members[i:i + MAX_FACES] for i in range(0, len(members), MAX_FACES)]
        grids = [grid(len(chunk), size) for chunk in chunks]
        dpi = min(g[2] for g in grids)  # one resolution for a size, so its pieces look alike
        for chunk, (columns, rows, _) in zip(chunks, grids):
            number = len(sheets) + 1
            stem = f"{game.name}-sheet-{number}"
            sheets.append(Sheet(number, columns, rows, tuple(chunk), dpi, f"{stem}-face.png", f"{stem}-back.png"))
    return sheets


def sheet_images(sheet: Sheet, fonts) -> tuple["Image", "Image"]:
    """The face and back images of `sheet`: each part's sides in its slot, unused slots white."""
    from PIL import Image

    pictures = [side_drawing(side, part.size, 0.0, sheet.dpi) for part in sheet.parts for side in (part.front, part.back)]
    drawn = list(rasterise(pictures, fonts, sheet.dpi))  # one sheet's faces: at most MAX_FACES
    slot_w, slot_h = drawn[0].size
    faces, backs = (Image.new("RGB", (sheet.columns * slot_w, sheet.rows * slot_h), "white") for _ in range(2))
    for slot in range(len(sheet.parts)):
        row, column = divmod(slot, sheet.columns)
        faces.paste(drawn[2 * slot], (column * slot_w, row * slot_h))
        backs.paste(drawn[2 * slot + 1], (column * slot_w, row * slot_h))
    return faces, backs


def board_dpi(picture: Drawing) -> float:
    """The resolution a board is drawn at: BOARD_DPI, or less when that would pass MAX_PIXELS."""
    return min(BOARD_DPI, MAX_PIXELS * MM_PER_INCH / max(picture.width, picture.height) * (1 - 1e-9))


def export_tts(game: "Game", options: "ExportOptions") -> Bundle:
    """The saved object and its images for `game`."""
    settings = export_settings(game)
    fonts = register_fonts(settings.layout.fonts, game.folder)
    parts = game_parts(game, settings)
    boards = game_boards(game, settings, fonts)
    sheets = plan_sheets(game, parts)
    folder = options.game_dir(game) / "tts"
    images = PngWriter()
    for sheet in sheets:
        face, back = sheet_images(sheet, fonts)
        images.add(sheet.face_file, face)
        images.add(sheet.back_file, back)
    board_files = {}
    for board in boards:
        board_files[board.name] = f"{game.name}-{board.name}.png"
        images.add(board_files[board.name], next(rasterise([board.drawing], fonts, board_dpi(board.drawing))))
    files = images.files()

    address = options.image_address(game)

    def url(name: str) -> str:
        if address:
            return f"{address}/{name}"
        return local_url(folder / name)

    groups: dict[tuple[str, ...], list[Part]] = {}
    for part in parts:
        groups.setdefault(part.group, []).append(part)
    places = board_places(boards)
    saves = {f"{game.name}.json": _save(game, parts, boards, board_files, groups, sheets, url, places, 0)}
    for first in set_up_boards(boards, parts)[1:]:  # a save per further board pieces start on: set up for its game
        title = f"{game.info.title} ({boards[first].title})"
        saves[f"{game.name}-{boards[first].name}.json"] = _save(game, parts, boards, board_files, groups, sheets, url,
                                                                places, first, title)
    return Bundle(folder, {**saves, **files})


def _save(game: "Game", parts: list[Part], boards: list[Board], board_files: dict[str, str],
          groups: dict[tuple[str, ...], list[Part]], sheets, url, places: list[float], first: int,
          title: str | None = None) -> bytes:
    """A save whose pieces start on board `first` where it has their places (else on the first board that has),
    named `title` (the game's title when None)."""
    starts = board_starts(boards, parts, first)
    whole, single = _started(game, groups, starts)  # decks set on one place whole; single cards set on theirs
    kept = hidden_groups(game, groups)
    rows = [group for group in groups if group not in kept and group not in whole]
    decks = [deck_object(game, group, groups[group], sheets, url, deck_place(i, len(rows)), single)
             for i, group in enumerate(rows)]
    decks += [deck_object(game, group, groups[group], sheets, url, place, single) for group, place in kept.items()]
    moved: dict[int, list[tuple[str, Space]]] = {}  # board -> (GUID, space) of what its script sets on it
    for group, start in whole.items():
        deck = deck_object(game, group, groups[group], sheets, url, _on_board(boards, places, start), set(),
                           face_down=start.space.face_down)
        decks.append(deck)
        moved.setdefault(start.board, []).append((deck["GUID"], start.space))
    for start in starts:
        if (start.part.key, start.copy) in single:
            card = card_object(game, start.part, start.copy, sheets, url, _on_board(boards, places, start),
                               face_down=start.space.face_down)
            decks.append(card)
            moved.setdefault(start.board, []).append((card["GUID"], start.space))
    objects = [board_object(game, board, url(board_files[board.name]), x, moved.get(i, []))
               for i, (board, x) in enumerate(zip(boards, places))] + [d for d in decks if d is not None]
    objects += hand_objects(game) + hidden_zone_objects(game, {groups[group][0].owner for group in kept})
    save = save_file(game, objects)
    if title:
        save["SaveName"] = title
    return (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def local_url(path: Path) -> str:
    """A file on this computer the way TTS records one in its saves: file:/// and the path as the system spells
    it, spaces and all, with no %20 escapes ("file:///C:\\Users\\Ann\\My Games\\x.png"). A path that is not
    UTF-8 text cannot be written in a save: OptionError says so."""
    text = str(path.resolve())
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        spelled = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise OptionError(f"{spelled}: this path is not UTF-8 text, which a Tabletop Simulator save cannot "
                          "name; export to a folder whose name is (--out), or serve the images (--image-url)") from None
    return "file:///" + text.lstrip("/")


def _guid(*words: object) -> str:
    """A stable six-hex-digit GUID, so that exporting twice gives the same object."""
    return hashlib.sha1(":".join(map(str, words)).encode("utf-8")).hexdigest()[:6]


def _transform(x: float, z: float, scale: float = 1.0, face_down: bool = False) -> dict:
    """A transform at (x, z) on the table, turned to face the first seat, face down when asked."""
    return {"posX": round(x, 4), "posY": 1.0, "posZ": round(z, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def tts_object(name: str, guid: str, transform: dict, **fields) -> dict:
    """An object with every key TTS itself writes on one (its defaults), then `fields`."""
    obj = {
        "GUID": guid, "Name": name, "Transform": transform, "Nickname": "", "Description": "", "GMNotes": "",
        "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0}, "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False,
        "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
        "GridProjection": False, "HideWhenFaceDown": False, "Hands": False, "LuaScript": "", "LuaScriptState": "",
        "XmlUI": "",
    }
    obj.update(fields)
    return obj


def board_object(game: "Game", board: Board, image: str, x: float, moved: list[tuple[str, Space]] = ()) -> dict:
    """A custom board showing `board`, locked in place at `x`, sized to its print and with a snap point on
    each of its spaces when TTS loads it (tts_scripts.py); `moved`: the objects (GUID, space) it sets on their
    spaces the first time it loads, as the game begins."""
    width, height = board.drawing.width, board.drawing.height
    script = fit_script(width, [(space.x / width, space.y / height) for space in board.spaces],
                        [(guid, space.x / width, space.y / height) for guid, space in moved])
    return tts_object("Custom_Board", _guid(game.name, "board", board.name), _transform(x, 0.0), Nickname=board.title,
                      Locked=True, LuaScript=script, CustomImage={"ImageURL": image, "ImageSecondaryURL": "",
                                                                 "ImageScalar": 1.0, "WidthScale": 0.0})


def board_places(boards: list[Board]) -> list[float]:
    """Where each board's centre sits along the table (units): side by side at their printed widths, centred."""
    widths = [units(board.drawing.width) for board in boards]
    total = sum(widths) + BOARD_GAP * (len(widths) - 1)
    places, left = [], -total / 2
    for width in widths:
        places.append(left + width / 2)
        left += width + BOARD_GAP
    return places


def hand_objects(game: "Game") -> list[dict]:
    """A hand zone per faction, in the seats' colours: what a player holds there only that seat sees."""
    hands = []
    for faction in game.info.factions[:len(SEATS)]:
        colour, x = seat_places(game)[faction.name]
        transform = {"posX": round(x, 4), "posY": 4.0, "posZ": HAND_ROW, "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0,
                     "scaleX": 11.0, "scaleY": 9.0, "scaleZ": 4.0}
        hands.append(tts_object("HandTrigger", _guid(game.name, "hand", faction.id), transform,
                                Nickname=f"{faction.name} hand", FogColor=colour, Locked=True, Grid=False,
                                Snap=False, DragSelectable=False, ColorDiffuse={"r": 1.0, "g": 1.0, "b": 1.0, "a": 0.0}))
    return hands


def seat_places(game: "Game") -> dict[str, tuple[str, float]]:
    """Each faction's seat colour and the x its hand and hidden zone are centred on."""
    factions = game.info.factions[:len(SEATS)]
    return {f.name: (colour, (i - (len(factions) - 1) / 2) * SEAT_SPACING) for i, (f, colour) in enumerate(zip(factions, SEATS))}


def hidden_groups(game: "Game", groups: dict[tuple[str, ...], list[Part]]) -> dict[tuple[str, ...], tuple[float, float]]:
    """The decks of pieces a faction keeps hidden (its kind is `hidden`, the faction owns it), each placed inside its
    owner's hidden zone, side by side: (x, z) on the table."""
    seats = seat_places(game)
    by_owner: dict[str, list[tuple[str, ...]]] = {}
    for group, members in groups.items():
        owner = members[0].owner
        if members[0].hidden and owner in seats:
            by_owner.setdefault(owner, []).append(group)
    places = {}
    for owner, kept in by_owner.items():
        centre = seats[owner][1]
        for k, group in enumerate(kept):
            places[group] = (centre + (k - (len(kept) - 1) / 2) * ZONE_DECK_SPACING, ZONE_ROW)
    return places


def hidden_zone_objects(game: "Game", owners: set[str]) -> list[dict]:
    """A hidden zone (TTS's FogOfWarTrigger) in the seat colour of each faction in `owners`: what lies in it only
    that seat sees, every other seat the zone's fog. It lies between the boards and the seat's hand."""
    zones = []
    for name, (colour, x) in seat_places(game).items():
        if name not in owners:
            continue
        transform = {"posX": round(x, 4), "posY": 2.0, "posZ": ZONE_ROW, "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0,
                     "scaleX": ZONE_SIZE[0], "scaleY": 4.0, "scaleZ": ZONE_SIZE[1]}
        zones.append(tts_object("FogOfWarTrigger", _guid(game.name, "hidden", name), transform,
                                Nickname=f"{name}'s hidden pieces", FogColor=colour, FogHidePointers=False,
                                FogReverseHiding=False, FogSeethrough=False, Locked=True, Grid=False, Snap=False,
                                DragSelectable=False, ColorDiffuse={"r": 0.25, "g": 0.25, "b": 0.25, "a": 0.1}))
    return zones


def save_file(game: "Game", objects: list[dict]) -> dict:
    """The save's top level with every key a TTS save carries, TTS's defaults where the game sets none."""
    factions = game.info.factions[:len(SEATS)]
    return {
        "SaveName": game.info.title, "EpochTime": 0, "Date": "", "VersionNumber": VERSION, "GameMode": game.info.title,
        "GameType": "", "GameComplexity": "", "PlayingTime": [0, 0], "PlayerCounts": [0, 0], "Tags": [],
        "Gravity": 0.5, "PlayArea": 0.5, "Table": "Table_RPG", "Sky": "Sky_Museum", "Note": "",
        "TabStates": {"0": {"title": "Rules", "body": "", "color": "Grey", "visibleColor": {"r": 0.5, "g": 0.5, "b": 0.5},
                            "id": 0}},
        "Grid": {"Type": 0, "Lines": False, "Color": {"r": 0.0, "g": 0.0, "b": 0.0}, "Opacity": 0.75,
                 "ThickLines": False, "Snapping": False, "Offset": False, "BothSnapping": False, "xSize": 2.0,
                 "ySize": 2.0, "PosOffset": {"x": 0.0, "y": 1.0, "z": 0.0}},
        "Lighting": {"LightIntensity": 0.54, "LightColor": {"r": 1.0, "g": 0.98, "b": 0.89}, "AmbientIntensity": 1.3,
                     "AmbientType": 0, "AmbientSkyColor": {"r": 0.5, "g": 0.5, "b": 0.5},
                     "AmbientEquatorColor": {"r": 0.5, "g": 0.5, "b": 0.5},
                     "AmbientGroundColor": {"r": 0.5, "g": 0.5, "b": 0.5}, "ReflectionIntensity": 1.0, "LutIndex": 0,
                     "LutContribution": 1.0},
        "Hands": {"Enable": bool(factions), "DisableUnused": False, "Hiding": 0},
        "ComponentTags": {"labels": []}, "Turns": {"Enable": False, "Type": 0, "TurnOrder": [], "Reverse": False,
                                                  "SkipEmpty": False, "DisableInteractions": False, "PassTurns": True,
                                                  "TurnColor": ""},
        "DecalPallet": [], "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "SnapPoints": [], "ObjectStates": objects,
    }


def _started(game: "Game", groups: dict[tuple[str, ...], list[Part]],
             starts: list[Start]) -> tuple[dict[tuple[str, ...], Start], set[tuple[str, int]]]:
    """The groups whose every copy starts on one place (set there as a deck, or the one card), and the copies
    (part key, copy) that start on a board one by one, out of their deck."""
    whole, single = {}, set()
    for group, members in groups.items():
        mine = [s for s in starts if s.part.group == group]
        if mine and len(mine) == sum(p.copies for p in members) and len({(s.board, s.space.name) for s in mine}) == 1:
            whole[group] = mine[0]
        else:
            single |= {(s.part.key, s.copy) for s in mine}
    return whole, single


def _on_board(boards: list[Board], places: list[float], start: Start) -> tuple[float, float]:
    """Near where `start`'s space lies on the table (x, z), for a save opened without its board's script: the
    board's centre plus the space's offset, turned as the board is; the script then sets it exactly."""
    board = boards[start.board]
    dx = units(start.space.x - board.drawing.width / 2)
    dz = units(board.drawing.height / 2 - start.space.y)
    return places[start.board] - dx, -dz  # the board is turned 180 degrees to face the first seat


def deck_place(index: int, count: int) -> tuple[float, float]:
    """Where the `index`th of `count` decks in the open sits (x, z): in rows in front of the boards."""
    columns = min(count, DECKS_PER_ROW)
    return (index % DECKS_PER_ROW - (columns - 1) / 2) * DECK_SPACING, DECK_ROW - index // DECKS_PER_ROW * DECK_SPACING


def _custom_decks(parts: list[Part], sheets: list[Sheet], url) -> dict[str, dict]:
    """The CustomDeck entries (by sheet number) of the sheets `parts` lie on."""
    sheet_of = {part.key: sheet for sheet in sheets for part in sheet.parts}
    used = {sheet_of[p.key].number: sheet_of[p.key] for p in parts}
    return {str(n): {"FaceURL": url(s.face_file), "BackURL": url(s.back_file), "NumWidth": s.columns,
                     "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": True,
                     "Type": CARD_TYPE if s.parts[0].kind == CARD else TILE_TYPE} for n, s in sorted(used.items())}


def _in_hands(part: Part) -> bool:
    return part.kind == CARD or part.drawn or part.hidden  # what a player may hold hidden in a hand


def card_object(game: "Game", part: Part, copy: int, sheets: list[Sheet], url, place: tuple[float, float],
                face_down: bool = False) -> dict:
    """Copy `copy` of `part` as one card at `place` on the table (face down when asked, or when drawn blind)."""
    sheet = next(sheet for sheet in sheets if any(p.key == part.key for p in sheet.parts))
    card_id = sheet.card_id(part)
    decks = _custom_decks([part], sheets, url)
    return tts_object("Card", _guid(game.name, part.key, copy),
                      _transform(*place, part.size[0] / CARD_WIDTH, face_down or part.drawn), Nickname=part.name,
                      Description=f"{part.label}\n{part.text}".strip(), CardID=card_id,
                      SidewaysCard=part.size[0] > part.size[1], Hands=_in_hands(part), HideWhenFaceDown=True,
                      LuaScript=fit_script(part.size[0]), CustomDeck={str(card_id // 100): decks[str(card_id // 100)]})


def deck_object(game: "Game", group: tuple[str, ...], parts: list[Part], sheets: list[Sheet], url,
                place: tuple[float, float], out: set[tuple[str, int]] = frozenset(), face_down: bool = False) -> dict | None:
    """A custom deck holding every copy of `parts` but those in `out` (part key, copy: set on a board on their
    own), a single card when one copy is left, None when none is. Face down when asked, or when drawn blind."""
    face_down = face_down or parts[0].drawn  # tiles, and pieces drawn at random, are drawn blind
    scale = parts[0].size[0] / CARD_WIDTH
    cards = [card_object(game, part, copy, sheets, url, place, face_down)
             for part in parts for copy in range(part.copies) if (part.key, copy) not in out]
    if len(cards) <= 1:
        return cards[0] if cards else None
    return tts_object("DeckCustom", _guid(game.name, "deck", *group), _transform(*place, scale, face_down),
                      Nickname=" · ".join(group), Hands=_in_hands(parts[0]), HideWhenFaceDown=True,
                      LuaScript=fit_script(parts[0].size[0]), SidewaysCard=parts[0].size[0] > parts[0].size[1],
                      DeckIDs=[card["CardID"] for card in cards], CustomDeck=_custom_decks(parts, sheets, url),
                      ContainedObjects=cards)
