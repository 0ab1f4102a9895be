"""Replacement pieces: just the pieces and tiles a player lost, fronts and registered backs, on few pages.

Selectors name tiles by id ("Ge 1") or pieces by name ("Piccolo", "Atomic Bomb");
--kind and --nation narrow the named pieces, or, with no names, pick every piece they match.
Each roster entry selected prints `copies` times (one by default), whatever its count on the
full sheet: a player replaces what went missing, not the whole stack.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import DossierError, OptionError, UnknownNameError
from ..core.limits import MAX_PIECES
from ..core.names import NameIndex
from .counters import FacePainter, piece_items
from .event_tiles import TILE_KIND, tile_items
from .fonts import piece_fonts
from .item_sheets import print_items
from .render import collector_paused

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.models import Piece, Tile
    from .render import Document
    from .settings import PrintSettings


class EmptySelectionError(DossierError):
    """A selector or filter that is known but picks nothing (e.g. a name under another nation)."""


@dataclass(frozen=True)
class Selection:
    """The roster entries and tiles chosen, each once, in the order first named."""

    pieces: tuple["Piece", ...] = ()
    tiles: tuple["Tile", ...] = ()


def resolve_kind(game: "Game", kind: str) -> str:
    """The kind id for `kind`, given as an id ("spy") or a label ("Action chit"), any case."""
    kinds = game.info.kinds
    return NameIndex("piece kind", kinds, {k.label: name for name, k in kinds.items()}).resolve(kind)


def select(game: "Game", selectors: list[str], kind: str | None = None, nation: str | None = None) -> Selection:
    """The pieces and tiles `selectors` name, narrowed by `kind` and `nation`.

    Raises UnknownNameError (with the closest names) for a name that is in neither the tiles nor
    the roster, and EmptySelectionError when a known name or the filters pick nothing.
    """
    if not selectors and kind is None and nation is None:
        raise OptionError("name the pieces or tiles to print (e.g. \"Ge 1\" Piccolo), or use --kind/--nation")
    kind_id = resolve_kind(game, kind) if kind else None
    nation_id = game.faction(nation).id if nation else None

    def piece_wanted(piece: "Piece") -> bool:
        return (kind_id is None or piece.kind == kind_id) and (nation_id is None or piece.nation == nation_id)

    def tile_wanted(tile: "Tile") -> bool:
        return (kind_id is None or kind_id == TILE_KIND) and (nation_id is None or tile.nation == nation_id)

    tiles_by_id = {t.id: t for t in game.tiles}
    tile_index = NameIndex("tile", tiles_by_id)
    names = dict.fromkeys(p.name for p in game.pieces)
    piece_index = NameIndex("piece", names, game.aliases)
    pieces: list["Piece"] = []
    tiles: list["Tile"] = []
    narrowed = " and ".join(f"--{o} {v}" for o, v in (("kind", kind), ("nation", nation)) if v)
    for selector in selectors:
        tile_id = tile_index.find(selector)
        name = piece_index.find(selector)
        if tile_id is None and name is None:
            closest = list(dict.fromkeys(tile_index.closest(selector) + piece_index.closest(selector)))
            raise UnknownNameError("piece or tile", selector, closest[:4])
        found_tiles = [tiles_by_id[tile_id]] if tile_id and tile_wanted(tiles_by_id[tile_id]) else []
        found_pieces = [p for p in game.pieces if p.name == name and piece_wanted(p)] if name else []
        if not found_tiles and not found_pieces:
            raise EmptySelectionError(f"{selector!r} is not among the pieces picked by {narrowed}")
        tiles += [t for t in found_tiles if t not in tiles]
        pieces += [p for p in found_pieces if not any(p is q for q in pieces)]
    if not selectors:
        pieces = [p for p in game.pieces if piece_wanted(p)]
        # tiles only when asked for by kind: --nation alone means that nation's pieces
        tiles = [t for t in game.tiles if tile_wanted(t)] if kind_id == TILE_KIND else []
        if not pieces and not tiles:
            raise EmptySelectionError(f"no piece of {game.info.title} matches {narrowed}")
    return Selection(tuple(pieces), tuple(tiles))


def build_replacements(game: "Game", settings: "PrintSettings", selection: Selection,
                       path: Path, copies: int = 1) -> "Document":
    """The selected pieces (fronts and backs) and tiles, `copies` of each, to go to `path` (beside a
    user's own files: each file is replaced on its own)."""
    if copies < 1:
        raise OptionError("--copies must be at least 1")
    printed = copies * (len(selection.pieces) + len(selection.tiles))
    if printed > MAX_PIECES:
        raise OptionError(f"--copies {copies:,}: that is {printed:,} pieces; Dossier prints at most {MAX_PIECES:,} in one run")
    layout = game.layout
    fonts = piece_fonts(layout.fonts, game.folder)
    with collector_paused():
        items = piece_items(game, list(selection.pieces), settings, FacePainter(game, layout, fonts), copies)
        items += tile_items(game, list(selection.tiles), layout, fonts, copies)
        document = print_items(items, path, settings=settings, fonts=fonts, title=f"{game.info.title} replacement pieces")
    return replace(document, shares_folder=True)
