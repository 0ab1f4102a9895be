"""VASSAL: OUT/<game>/<game>.vmod, a module in VASSAL 3.7's format.

A module is a zip holding `buildFile.xml` (the module's components as XML elements named by
their Java classes), `moduledata` (name, version, description) and the images under `images/`
(VASSAL's GameModule, ModuleMetaData and DataArchive; see ../shared/FORMATS.md).

What the module holds, in the order VASSAL builds it (GlobalOptions before the first map, or the
main map is docked into no window: Map.addTo asks GlobalOptions whether one window is used):
- the Help menu's rules summary (Documentation), a side per faction (PlayerRoster; VASSAL adds
  the observer), the global options and the chat log;
- a map window per board (boards.py), the first one the main map, each board drawn at DPI with
  the pieces at the same resolution, so a piece sits on the map at its printed size; a board
  with spaces (the poster's cities and sea zones) carries a region grid, a named region on each,
  so that a piece dropped near a city snaps onto it and the log names the places it moved between;
  each board comes set up for its own game: a set-up stack on each of its places that pieces start on
  (pieces.yaml `start`), so a 2-player game finds its pieces on the 2-player board as a 4-player one
  does on the 4-player board;
- a table window: along its top the draw piles (the tiles face down in a pile per group,
  each kind of piece the game draws at random face down and shuffled, the reference cards face
  up), below them each faction's pieces in a stack of its own (a set-up stack per faction), and
  room to lay out pieces (the whole play area of a game without a map);
- a piece palette, a tab per kind of piece and inside it a list by nation, every distinct roster
  piece once (drag out as many as needed);
- the notes window, the piece inventory, and a button per die the game rolls.

A piece the game keeps face down (a kind marked `hidden`) is masked (Obscurable): its owner's side
sees its face, every other side its back and the back's name, also in the move log (VASSAL reports
moves with every mask closed). A faction's pieces start masked to their faction's side; a piece of
no faction belongs to the side that masks or draws it. Other pieces whose back differs from their
front turn over with Ctrl+F (a Layer); a piece printed alike on both sides has no such command.

A piece is written as VASSAL writes it: an AddPiece command ("+/id/type/state") whose type and state
are the traits from the outermost in, tab-separated, each trait's fields encoded by
sequence.encode exactly as the trait's Java class encodes them (counters/BasicPiece.java,
Embellishment.java, Obscurable.java, Delete.java).
"""

from __future__ import annotations

import io
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import __version__
from ..core.paths import build_time
from ..printing.fonts import register_fonts
from .boards import Board, Start, board_starts, game_boards, off_board, starts_on_each_board
from .output import Bundle
from .parts import CARD, TILE, Part, export_settings, game_parts
from .raster import MM_PER_INCH, PngWriter, rasterise, side_drawing
from .rules_page import rules_summary_html
from .sequence import encode
from .spaces import Space

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..core.game import Game
    from .exports import ExportOptions

VASSAL_VERSION = "3.7.0"
DPI = 150  # pieces and boards alike; a 22 x 34 inch map is then 3300 x 5100 pixels
FLIP_KEY = "70,130"  # Ctrl+F as VASSAL stores a keystroke: Java's key code for F, then the Ctrl modifier masks
DELETE_KEY = "68,130"  # Ctrl+D
FLIP, FACE_DOWN = "Flip", "Face down"
PILE_GAP = 40  # pixels around and between draw piles
TABLE_COLOUR = "214,214,214"
TABLE = (24, 16)  # inches: the table is at least this large, with its piles along the top
# What every map needs to be played on: VASSAL adds these itself only to a map made in its editor (Map.build).
MAP_PARTS = ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
             "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer", "Zoomer")
STACK_LABEL = 20  # pixels between the piles and the factions' stacks
RULES_PAGE = "rules-summary.html"
ZIP_EPOCH = 315532800  # 1980-01-01: a zip entry can hold no earlier date
ABOUT_IMAGE = "about.png"
ABOUT_SIZE = (400, 400)  # pixels the About screen's picture fits in
MODULE = "VASSAL.build.GameModule"
ROSTER, GLOBAL_OPTIONS = "VASSAL.build.module.PlayerRoster", "VASSAL.build.module.GlobalOptions"
MAP = "VASSAL.build.module.Map"
PKG_MAP = "VASSAL.build.module.map."
BOARD = PKG_MAP + "boardPicker.Board"
PIECE_WINDOW = "VASSAL.build.module.PieceWindow"
TAB, LIST, PANEL = "VASSAL.build.widget.TabWidget", "VASSAL.build.widget.ListWidget", "VASSAL.build.widget.PanelWidget"
PIECE_SLOT, CARD_SLOT = "VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot"
DRAW_PILE, SETUP_STACK = PKG_MAP + "DrawPile", PKG_MAP + "SetupStack"
REGION_GRID, REGION = PKG_MAP + "boardPicker.board.RegionGrid", PKG_MAP + "boardPicker.board.Region"


# --- traits ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Trait:
    """One trait of a piece as VASSAL encodes it: its type (what it is) and its state (how it stands now)."""

    type: str
    state: str


def basic_piece(image: str, name: str, gpid: int) -> Trait:
    """BasicPiece: the piece's image and name; off any map, at 0,0, with its slot's id and no properties."""
    return Trait("piece;" + encode(["", "", image, name], ";"), encode(["null", 0, 0, gpid, 0], ";"))


def flip_layer(image: str, name: str, turned: bool = False) -> Trait:
    """Embellishment (a Layer), version 1: one level showing `image`, off until Ctrl+F turns it on (on from the
    start when `turned`: the piece starts showing its back); while on, the piece is called `name`."""
    level_name = encode([name], "+") if name else ""  # a bare name replaces the piece's; '+' would make it a prefix
    fields = [FLIP, 128, "A", "", 128, "", "", 128, "",  # activate, increase, decrease: names and historical keys
              "", "", "1",  # reset: command, key, level
              False, 0, 0,  # draw underneath when selected, x and y offset
              encode([image], ","), encode([level_name], ","),  # level images, level names
              True, "Side", "", "",  # loop levels, layer name, random-level key and command
              False, "", 1,  # follow a property: no
              1, False, FLIP_KEY, "", "",  # version, always active, activate / increase / decrease keys
              "Back", 1.0, "", "true"]  # description, scale, only when a property holds: no
    return Trait("emb2;" + encode(fields, ";"), "1" if turned else "-1")


def mask(image: str, name: str, sides: Sequence[str] | None = None, masked_by: str | None = None) -> Trait:
    """Obscurable (a Mask): masked, it shows `image` and the name `name` to all but its owner; Ctrl+F turns it.

    `sides`: only these sides may mask and see it (VASSAL's "sides:" access); None: it belongs to the
    side that masks it ("side:"). `masked_by`: the side it starts masked by (None: face up)."""
    access = "sides:" + encode(sides, ":") if sides else "side:"
    fields = [FLIP_KEY, image, FLIP, "P", name or "?", access, "Peek", FACE_DOWN, False, "", ""]
    return Trait("obs;" + encode(fields, ";"), encode([masked_by or "null", ""], ";"))


def delete() -> Trait:
    """Delete: Ctrl+D removes a piece dragged out of the palette."""
    return Trait("delete;" + encode(["Delete", DELETE_KEY, ""], ";"), "")


def add_piece(traits: Sequence[Trait]) -> str:
    """The AddPiece command that defines a piece with `traits` (outermost first, BasicPiece last)."""
    def stacked(values: list[str]) -> str:
        return values[0] if len(values) == 1 else encode([values[0], stacked(values[1:])], "\t")

    return "+/" + encode(["null", stacked([t.type for t in traits]), stacked([t.state for t in traits])], "/")


# --- the module ------------------------------------------------------------------------------

def image_name(part: Part, side: str) -> str:
    """The file of one side of `part` in the module's images/ folder."""
    return f"{part.kind}-{part.id}-{side}.png"


def pixel(mm: float) -> int:
    """A length on a board or the table in VASSAL's pixels (DPI)."""
    return round(mm / MM_PER_INCH * DPI)


class ModuleWriter:
    """Builds buildFile.xml for a game, numbering piece slots as it goes.

    `two_faced` holds the keys of the parts whose back looks different from their front.
    """

    def __init__(self, game: "Game", parts: list[Part], boards: list[Board], sizes: dict[str, tuple[int, int]],
                 two_faced: set[str], has_rules: bool):
        self.game, self.parts, self.boards, self.sizes = game, parts, boards, sizes
        self.two_faced, self.has_rules = two_faced, has_rules
        self.sides = [f.name for f in game.info.factions]
        self.next_gpid = 1
        self.starts = board_starts(boards, parts)
        self.stacks: dict[tuple[int, str], ET.Element] = {}

    def build_file(self) -> ET.Element:
        game = self.game
        root = ET.Element(MODULE, name=game.info.title, version=__version__, VassalVersion=VASSAL_VERSION,
                          description=description(game))
        ET.SubElement(root, "VASSAL.build.module.BasicCommandEncoder")
        self.documentation(root)
        if self.sides:
            roster = ET.SubElement(root, ROSTER, buttonText="Retire", buttonToolTip="Switch sides or become an observer")
            for side in self.sides:
                ET.SubElement(roster, "entry").text = side
        ET.SubElement(root, GLOBAL_OPTIONS, autoReport="Always", nonOwnerUnmaskable="Never", markMoved="Never",
                      centerOnMove="Use Preferences Setting", chatterHTMLSupport="Never",
                      hotKeysOnClosedWindows="Never", inventoryForAll="Always", playerIdFormat="$PlayerName$")
        ET.SubElement(root, "VASSAL.build.module.Chatter")
        windows = [self.map_window(root, board.title, board.title, f"board-{board.name}.png", None, main=i == 0,
                                   spaces=board.spaces) for i, board in enumerate(self.boards)]
        for start in starts_on_each_board(self.boards, self.parts):  # each board set up for its own game: a set-up
            self.start_stack(windows[start.board], self.boards[start.board], start)  # stack on each of its places
        self.table_window(root, main=not self.boards)
        pieces = [p for p in self.parts if p.kind not in (TILE, CARD)]
        if pieces:
            self.palette(root, pieces)
        ET.SubElement(root, "VASSAL.build.module.NotesWindow", name="Notes", buttonText="Notes",
                      tooltip="Notes: public, and private to your side", hotkey="", icon="")
        ET.SubElement(root, "VASSAL.build.module.Inventory", name="Inventory", text="Inventory",
                      tooltip="Every piece in play, by map and place", hotkey="", icon="",
                      groupBy="CurrentMap,LocationName", include="", leafFormat="$PieceName$",
                      nonLeafFormat="$PropertyValue$", sides="", showMenu="true", centerOnPiece="true",
                      drawPieces="true", pieceZoom="0.33", sortPieces="true", sorting="alpha")
        for die in game.info.dice:
            self.dice_button(root, die)
        root.set("nextPieceSlotId", str(self.next_gpid))
        return root

    def documentation(self, root: ET.Element) -> None:
        docs = ET.SubElement(root, "VASSAL.build.module.Documentation")
        # the Help menu's About screen; its picture is also the side bar of the game set-up wizard
        ET.SubElement(docs, "VASSAL.build.module.documentation.AboutScreen", title=f"About {self.game.info.title}",
                      fileName=ABOUT_IMAGE)
        if self.has_rules:
            ET.SubElement(docs, "VASSAL.build.module.documentation.HelpFile", title="Rules summary",
                          fileName=RULES_PAGE, fileType="archive")

    def dice_button(self, root: ET.Element, die) -> None:
        if not die.faces:
            ET.SubElement(root, "VASSAL.build.module.DiceButton", name=die.name, text=die.name,
                          tooltip=f"Roll the {die.name}", hotkey="", icon="", nDice=str(die.count),
                          nSides=str(die.sides), plus="0", addToTotal="0", reportTotal="false", prompt="false",
                          reportFormat="** $name$ = $result$ *** <$PlayerName$>")
            return
        button = ET.SubElement(root, "VASSAL.build.module.SpecialDiceButton", name=die.name, text=die.name,
                               tooltip=f"Roll the {die.name}", hotkey="", icon="", resultChatter="true",
                               format="** $name$ = $result1$ *** <$playerName$>", resultWindow="false",
                               resultButton="false", windowTitleResultFormat="$name$", windowX="100",
                               windowY="100", backgroundColor="255,255,255")
        for _ in range(die.count):
            special = ET.SubElement(button, "VASSAL.build.module.SpecialDie", name=die.name, format="$result$")
            for i, face in enumerate(die.faces):
                ET.SubElement(special, "VASSAL.build.module.SpecialDieFace", text=face, value=str(i + 1), icon="")

    def map_window(self, root: ET.Element, name: str, board_name: str, image: str | None,
                   plain: tuple[int, int] | None, main: bool, spaces: Sequence[Space] = ()) -> ET.Element:
        window = ET.SubElement(root, MAP, mapName=name, allowMultiple="false", backgroundcolor="255,255,255",
                               markMoved="Never", launch="false" if main else "true", buttonName="" if main else name,
                               tooltip="" if main else f"Show or hide the {name} window", hotkey="",
                               moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                               moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                               createFormat="$pieceName$ created in $location$ *")
        picker = ET.SubElement(window, PKG_MAP + "BoardPicker")
        board = ET.SubElement(picker, BOARD, name=board_name, reversible="false")
        if image:
            board.set("image", image)
        else:
            board.set("width", str(plain[0]))
            board.set("height", str(plain[1]))
            board.set("color", TABLE_COLOUR)
        if spaces:
            grid = ET.SubElement(board, REGION_GRID, snapto="true", visible="false", fontsize="9")
            for space in spaces:
                ET.SubElement(grid, REGION, name=space.name, originx=str(pixel(space.x)), originy=str(pixel(space.y)))
        for part in MAP_PARTS:
            ET.SubElement(window, PKG_MAP + part)
        return window

    def slot(self, parent: ET.Element, element: str, part: Part, traits: list[Trait]) -> None:
        gpid = self.next_gpid
        self.next_gpid += 1
        width, height = self.sizes[part.key]
        slot = ET.SubElement(parent, element, entryName=part.name, gpid=str(gpid), width=str(width), height=str(height))
        slot.text = add_piece([*traits, basic_piece(image_name(part, "front"), part.name, gpid)])

    def turning(self, part: Part, masked: bool = False, turned: bool = False) -> list[Trait]:
        """How `part` turns over: masked to other sides if the game hides it or draws it blind, else a back
        layer if its back differs from its front, else not at all. `masked`: it starts masked to its owner;
        `turned`: it starts showing its back (laid face down)."""
        back = image_name(part, "back")
        if part.hidden or part.drawn:
            return [mask(back, part.back_name, [part.owner] if part.owner else None,
                         masked_by=part.owner if masked and part.owner else None)]
        if part.key in self.two_faced:
            return [flip_layer(back, part.back_name, turned)]
        return []

    def start_stack(self, window: ET.Element, board: Board, start: Start) -> None:
        """A copy set on its place on `board` when a game begins: a set-up stack at the place's region (VASSAL
        finds the region by name in the board's grid), one per place, as masked as the piece's set-up stack."""
        key = (start.board, start.space.name)
        if key not in self.stacks:
            self.stacks[key] = ET.SubElement(window, SETUP_STACK, name=start.space.name, owningBoard=board.title,
                                             useGridLocation="true", location=start.space.name,
                                             x=str(pixel(start.space.x)), y=str(pixel(start.space.y)))
        self.slot(self.stacks[key], PIECE_SLOT, start.part,
                  [delete(), *self.turning(start.part, masked=True, turned=start.space.face_down)])

    def palette(self, root: ET.Element, pieces: list[Part]) -> None:
        window = ET.SubElement(root, PIECE_WINDOW, name="Pieces", text="Pieces", tooltip="Show or hide the pieces",
                               hidden="false", scale="1.0", hotkey="")
        tabs = ET.SubElement(window, TAB, entryName="Pieces")
        for kind, groups in _grouped(pieces).items():
            if list(groups) == [()]:
                holder = ET.SubElement(tabs, PANEL, entryName=kind, nColumns="8", fixed="false", vert="false", scale="1.0")
                holders = {(): holder}
            else:
                listing = ET.SubElement(tabs, LIST, entryName=kind, scale="1.0", divider="150")
                holders = {g: ET.SubElement(listing, PANEL, entryName=" ".join(g) or kind, nColumns="8", fixed="false",
                                            vert="false", scale="1.0") for g in groups}
            for group, members in groups.items():
                for part in members:
                    self.slot(holders[group], PIECE_SLOT, part, [delete(), *self.turning(part)])

    def table_window(self, root: ET.Element, main: bool) -> None:
        """The table: draw piles along the top, each faction's pieces in its own stack below them."""
        piles: dict[tuple[str, ...], list[Part]] = {}  # tiles and cards by group; other drawn pieces by their back
        for part in self.parts:
            if part.kind in (TILE, CARD):
                piles.setdefault(part.group, []).append(part)
            elif part.drawn and part.owner is None:
                piles.setdefault(("", part.back_name), []).append(part)
        stacks: dict[str, list[Part]] = {}
        for part in self.parts:
            if part.owner and part.kind not in (TILE, CARD) and off_board(part, self.starts):
                stacks.setdefault(part.owner, []).append(part)
        name = f"{self.game.info.title} table"

        def extent(members: list[Part]) -> tuple[int, int]:
            return max(self.sizes[p.key][0] for p in members), max(self.sizes[p.key][1] for p in members)

        pile_sizes = [extent(m) for m in piles.values()]
        stack_sizes = [extent(m) for m in stacks.values()]
        pile_row = max((h for _, h in pile_sizes), default=0)
        stack_row = max((h for _, h in stack_sizes), default=0)
        width = max(sum(w for w, _ in sizes) + PILE_GAP * (len(sizes) + 1) for sizes in (pile_sizes, stack_sizes))
        height = pile_row + stack_row + 3 * PILE_GAP + STACK_LABEL
        window = self.map_window(root, name, name, None, (max(width, TABLE[0] * DPI), max(height, TABLE[1] * DPI)), main)
        x = PILE_GAP
        for (group, members), (w, h) in zip(piles.items(), pile_sizes):
            face_down = members[0].kind != CARD
            title = " · ".join(group) if group[0] else " & ".join(dict.fromkeys(p.group[0] for p in members))
            pile = ET.SubElement(window, DRAW_PILE, name=title, owningBoard=name, x=str(x + w // 2),
                                 y=str(PILE_GAP + h // 2), width=str(w), height=str(h),
                                 faceDown="Always" if face_down else "Never", drawFaceUp="false",
                                 shuffle="Always" if face_down else "Never", reversible="false", allowMultiple="true",
                                 allowSelect="true", draw="true", color="0,0,0", reshufflable="false")
            for part in members:
                # a card of a face-up pile turns with a Mask too, as VASSAL's decks turn their cards
                traits = self.turning(part) if face_down else [mask(image_name(part, "back"), part.back_name)]
                for _ in range(part.copies):
                    self.slot(pile, CARD_SLOT, part, traits)
            x += w + PILE_GAP
        x, y = PILE_GAP, pile_row + 2 * PILE_GAP + STACK_LABEL
        for (owner, members), (w, h) in zip(stacks.items(), stack_sizes):
            stack = ET.SubElement(window, SETUP_STACK, name=f"{owner} pieces", owningBoard=name,
                                  useGridLocation="false", location="", x=str(x + w // 2), y=str(y + h // 2))
            for part in members:
                for _ in range(off_board(part, self.starts)):
                    self.slot(stack, PIECE_SLOT, part, [delete(), *self.turning(part, masked=True)])
            x += w + PILE_GAP


def _grouped(parts: list[Part]) -> dict[str, dict[tuple[str, ...], list[Part]]]:
    """Parts by kind (the group's first word), then by the rest of their group, in order of appearance."""
    kinds: dict[str, dict[tuple[str, ...], list[Part]]] = {}
    for part in parts:
        kinds.setdefault(part.group[0], {}).setdefault(part.group[1:], []).append(part)
    return kinds


def description(game: "Game") -> str:
    info = game.info
    made = ", ".join(str(x) for x in (info.publisher, info.published) if x)
    return f"{info.title}{f' ({made})' if made else ''}: pieces, map and cards from Dossier's data"


def module_data(game: "Game", saved: float) -> bytes:
    """moduledata: what VASSAL shows of a module before opening it (ModuleMetaData), saved at `saved` (seconds
    since 1970)."""
    root = ET.Element("data", version="1")
    for tag, text in (("version", __version__), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", str(int(saved * 1000))), ("description", description(game)),
                      ("name", game.info.title)):
        ET.SubElement(root, tag).text = text
    return _xml(root)


def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True)


def about_picture(image: "Image") -> "Image":
    """The About screen's picture: the main board (or the first piece) shrunk to fit ABOUT_SIZE."""
    picture = image.copy()
    picture.thumbnail(ABOUT_SIZE)
    return picture


def export_vassal(game: "Game", options: "ExportOptions") -> Bundle:
    """The module for `game`."""
    settings = export_settings(game)
    fonts = register_fonts(settings.layout.fonts, game.folder)
    parts = game_parts(game, settings)
    boards = game_boards(game, settings, fonts)
    pictures = [side_drawing(side, part.size, 0.0, DPI) for part in parts for side in (part.front, part.back)]
    drawn = rasterise(pictures + [b.drawing for b in boards], fonts, DPI)
    writer = PngWriter()
    sizes: dict[str, tuple[int, int]] = {}
    two_faced = set()
    first_piece = None
    for part in parts:
        front, back = next(drawn), next(drawn)
        first_piece = front if first_piece is None else first_piece
        writer.add(image_name(part, "front"), front)
        writer.add(image_name(part, "back"), back)
        sizes[part.key] = front.size
        if front.tobytes() != back.tobytes():
            two_faced.add(part.key)
    first_board = None
    for board, image in zip(boards, drawn):
        first_board = image if first_board is None else first_board
        writer.add(f"board-{board.name}.png", image)
    writer.add(ABOUT_IMAGE, about_picture(first_piece if first_board is None else first_board))
    images = writer.files()
    rules = rules_summary_html(game)
    build = _xml(ModuleWriter(game, parts, boards, sizes, two_faced, rules is not None).build_file())
    saved = build_time()  # SOURCE_DATE_EPOCH when set: the same data makes the same module, byte for byte

    def entry(name: str, compress: int) -> zipfile.ZipInfo:
        info = zipfile.ZipInfo(name, date_time=time.gmtime(max(saved, ZIP_EPOCH))[:6])
        info.compress_type = compress
        return info

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(entry("buildFile.xml", zipfile.ZIP_DEFLATED), build)
        archive.writestr(entry("moduledata", zipfile.ZIP_DEFLATED), module_data(game, saved))
        if rules is not None:
            archive.writestr(entry(RULES_PAGE, zipfile.ZIP_DEFLATED), rules.encode("utf-8"))
        for name, data in images.items():
            archive.writestr(entry(f"images/{name}", zipfile.ZIP_STORED), data)  # PNG is compressed already
    return Bundle(options.game_dir(game), {f"{game.name}.vmod": buffer.getvalue()}, owns_folder=False)
