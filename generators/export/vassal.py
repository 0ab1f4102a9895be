"""VASSAL: OUT/<game>/<game>.vmod, a module in VASSAL 3.7's format.

A module is a zip holding `buildFile.xml` (the module's components as XML elements named by
their Java classes), `moduledata` (name, version, description) and the images under `images/`
(VASSAL's GameModule, ModuleMetaData and DataArchive; see ../shared/FORMATS.md).

What the module holds:
- a map window per board (boards.py), the first one the main map, each board drawn at DPI with
  the pieces at the same resolution, so a piece sits on the map at its printed size;
- a piece palette, a tab per kind of piece and inside it a list by nation, every distinct roster
  piece once (drag out as many as needed): its front is the piece's image and its back a layer
  over it that Ctrl+F turns on and off, named as the back reads so that a face-down piece does
  not give its name away in the log;
- a table window: along its top the draw piles, the event tiles face down in a pile per nation
  (a mask trait shows their blank back) and the reference cards face up (flipped with Ctrl+F as
  pieces are), and below them room to lay out pieces (the whole play area of a game without a map).

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
from ..printing.fonts import register_fonts
from .boards import Board, game_boards
from .output import Bundle
from .parts import CARD, TILE, Part, game_parts
from .raster import PngWriter, rasterise, side_drawing
from .sequence import encode

if TYPE_CHECKING:
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
MODULE = "VASSAL.build.GameModule"
MAP = "VASSAL.build.module.Map"
PKG_MAP = "VASSAL.build.module.map."
BOARD = PKG_MAP + "boardPicker.Board"
PIECE_WINDOW = "VASSAL.build.module.PieceWindow"
TAB, LIST, PANEL = "VASSAL.build.widget.TabWidget", "VASSAL.build.widget.ListWidget", "VASSAL.build.widget.PanelWidget"
PIECE_SLOT, CARD_SLOT = "VASSAL.build.widget.PieceSlot", "VASSAL.build.widget.CardSlot"
DRAW_PILE = PKG_MAP + "DrawPile"


# --- traits ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Trait:
    """One trait of a piece as VASSAL encodes it: its type (what it is) and its state (how it stands now)."""

    type: str
    state: str


def basic_piece(image: str, name: str, gpid: int) -> Trait:
    """BasicPiece: the piece's image and name; off any map, at 0,0, with its slot's id and no properties."""
    return Trait("piece;" + encode(["", "", image, name], ";"), encode(["null", 0, 0, gpid, 0], ";"))


def flip_layer(image: str, name: str) -> Trait:
    """Embellishment (a Layer), version 1: one level showing `image`, off until Ctrl+F turns it on; while on,
    the piece is called `name`."""
    level_name = encode([name], "+") if name else ""  # a bare name replaces the piece's; '+' would make it a prefix
    fields = [FLIP, 128, "A", "", 128, "", "", 128, "",  # activate, increase, decrease: names and historical keys
              "", "", "1",  # reset: command, key, level
              False, 0, 0,  # draw underneath when selected, x and y offset
              encode([image], ","), encode([level_name], ","),  # level images, level names
              True, "Side", "", "",  # loop levels, layer name, random-level key and command
              False, "", 1,  # follow a property: no
              1, False, FLIP_KEY, "", "",  # version, always active, activate / increase / decrease keys
              "Back", 1.0, "", "true"]  # description, scale, only when a property holds: no
    return Trait("emb2;" + encode(fields, ";"), "-1")


def mask(image: str, name: str) -> Trait:
    """Obscurable (a Mask): face down it shows `image` and the name `name` to all but its owner; Ctrl+F turns it."""
    fields = [FLIP_KEY, image, FLIP, "P", name or "?", "player:", "Peek", FACE_DOWN, False, "", ""]
    return Trait("obs;" + encode(fields, ";"), encode(["null", ""], ";"))


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


class ModuleWriter:
    """Builds buildFile.xml for a game, numbering piece slots as it goes."""

    def __init__(self, game: "Game", parts: list[Part], boards: list[Board], sizes: dict[str, tuple[int, int]]):
        self.game, self.parts, self.boards, self.sizes = game, parts, boards, sizes
        self.next_gpid = 1

    def build_file(self) -> ET.Element:
        game = self.game
        root = ET.Element(MODULE, name=game.info.title, version=__version__, VassalVersion=VASSAL_VERSION,
                          description=description(game))
        ET.SubElement(root, "VASSAL.build.module.BasicCommandEncoder")
        for i, board in enumerate(self.boards):
            self.map_window(root, board.title, board.title, f"board-{board.name}.png", None, main=i == 0)
        pieces = [p for p in self.parts if p.kind not in (TILE, CARD)]
        if pieces:
            self.palette(root, pieces)
        self.table_window(root, [p for p in self.parts if p.kind in (TILE, CARD)], main=not self.boards)
        root.set("nextPieceSlotId", str(self.next_gpid))
        return root

    def map_window(self, root: ET.Element, name: str, board_name: str, image: str | None,
                   plain: tuple[int, int] | None, main: bool) -> ET.Element:
        window = ET.SubElement(root, MAP, mapName=name, allowMultiple="false", backgroundcolor="255,255,255",
                               markMoved="Never", launch="false" if main else "true", buttonName="" if main else name,
                               tooltip="" if main else f"Show or hide the {name} window", hotkey="")
        picker = ET.SubElement(window, PKG_MAP + "BoardPicker")
        board = ET.SubElement(picker, BOARD, name=board_name, reversible="false")
        if image:
            board.set("image", image)
        else:
            board.set("width", str(plain[0]))
            board.set("height", str(plain[1]))
            board.set("color", TABLE_COLOUR)
        for part in MAP_PARTS:
            ET.SubElement(window, PKG_MAP + part)
        return window

    def slot(self, parent: ET.Element, element: str, part: Part, traits: list[Trait]) -> None:
        gpid = self.next_gpid
        self.next_gpid += 1
        width, height = self.sizes[part.key]
        slot = ET.SubElement(parent, element, entryName=part.name, gpid=str(gpid), width=str(width), height=str(height))
        slot.text = add_piece([*traits, basic_piece(image_name(part, "front"), part.name, gpid)])

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
                    self.slot(holders[group], PIECE_SLOT, part,
                              [delete(), flip_layer(image_name(part, "back"), part.back_name)])

    def table_window(self, root: ET.Element, parts: list[Part], main: bool) -> None:
        piles: dict[tuple[str, ...], list[Part]] = {}
        for part in parts:
            piles.setdefault(part.group, []).append(part)
        name = f"{self.game.info.title} table"
        extents = [(max(self.sizes[p.key][0] for p in members), max(self.sizes[p.key][1] for p in members))
                   for members in piles.values()]
        size = (max(sum(w for w, _ in extents) + PILE_GAP * (len(extents) + 1), TABLE[0] * DPI),
                max(max((h for _, h in extents), default=0) + 2 * PILE_GAP, TABLE[1] * DPI))
        window = self.map_window(root, name, name, None, size, main)
        x = PILE_GAP
        for (group, members), (width, height) in zip(piles.items(), extents):
            tiles = members[0].kind == TILE
            pile = ET.SubElement(window, DRAW_PILE, name=" · ".join(group), owningBoard=name, x=str(x + width // 2),
                                 y=str(PILE_GAP + height // 2), width=str(width), height=str(height),
                                 faceDown="Always" if tiles else "Never", drawFaceUp="false",
                                 shuffle="Always" if tiles else "Never", reversible="false", allowMultiple="true",
                                 allowSelect="true", draw="true", color="0,0,0", reshufflable="false")
            for part in members:
                back = image_name(part, "back")
                traits = [mask(back, part.back_name) if tiles else flip_layer(back, part.back_name)]
                for _ in range(part.copies):
                    self.slot(pile, CARD_SLOT, part, traits)
            x += width + PILE_GAP


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


def module_data(game: "Game") -> bytes:
    """moduledata: what VASSAL shows of a module before opening it (ModuleMetaData)."""
    root = ET.Element("data", version="1")
    for tag, text in (("version", __version__), ("VassalVersion", VASSAL_VERSION),
                      ("dateSaved", str(int(time.time() * 1000))), ("description", description(game)),
                      ("name", game.info.title)):
        ET.SubElement(root, tag).text = text
    return _xml(root)


def _xml(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True)


def export_vassal(game: "Game", options: "ExportOptions") -> Bundle:
    """The module for `game`."""
    layout = game.layout
    fonts = register_fonts(layout.fonts, game.folder)
    parts = game_parts(game, layout)
    boards = game_boards(game, layout, fonts)
    pictures = [side_drawing(side, part.size, 0.0, DPI) for part in parts for side in (part.front, part.back)]
    drawn = rasterise(pictures + [b.drawing for b in boards], fonts, DPI)
    writer = PngWriter()
    sizes: dict[str, tuple[int, int]] = {}
    for i, part in enumerate(parts):
        writer.add(image_name(part, "front"), drawn[2 * i])
        writer.add(image_name(part, "back"), drawn[2 * i + 1])
        sizes[part.key] = drawn[2 * i].size
    for board, image in zip(boards, drawn[2 * len(parts):]):
        writer.add(f"board-{board.name}.png", image)
    images = writer.files()
    build = _xml(ModuleWriter(game, parts, boards, sizes).build_file())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("buildFile.xml", build, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("moduledata", module_data(game), compress_type=zipfile.ZIP_DEFLATED)
        for name, data in images.items():
            archive.writestr(f"images/{name}", data, compress_type=zipfile.ZIP_STORED)  # PNG is compressed already
    return Bundle(options.game_dir(game), {f"{game.name}.vmod": buffer.getvalue()}, owns_folder=False)
