"""Replacement pieces: just the pieces and tiles a player lost, fronts and registered backs, on few pages.

Selectors name tiles by id ("Ab 1") or pieces by name ("Piccolo", "Atomic Bomb"), with the number
printed on the piece after ':' and its faction after '@' ("RRCC:3", "Piccolo@italy");
--kind, --nation and --strength narrow the named pieces, or, with no names, pick every piece they match.
A selector that fits several different pieces is refused with the selectors that tell them apart.
Each piece selected prints `copies` times (one by default), whatever its count on the
full sheet: a player replaces what went missing, not the whole stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import DossierError, OptionError, UnknownNameError
from ..core.limits import MAX_PIECES
from ..core.names import NameIndex
from .counters import FacePainter, piece_items
from ..core.tile_text import tile_factions, tile_text
from .event_tiles import tile_items, tile_kind, tile_kind_name
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


class AmbiguousSelectionError(DossierError):
    """A selector that names several different pieces (a name every side has, guards of three strengths)."""


@dataclass(frozen=True)
class Selection:
    """The roster entries and tiles chosen, each once, in the order first named."""

    pieces: tuple["Piece", ...] = ()
    tiles: tuple["Tile", ...] = ()


@dataclass(frozen=True)
class Selector:
    """One piece or tile as typed: a name (or tile id), optionally `:NUMBER` (the number printed on the
    piece: its strength, value or bonus) and `@FACTION`, e.g. "RRCC:3", "Piccolo@italy"."""

    name: str
    number: int | None = None
    faction: str | None = None

    @classmethod
    def parse(cls, text: str) -> "Selector":
        found = re.fullmatch(r"(?P<name>[^:@]*)(?P<rest>(?:[:@][^:@]*)*)", text.strip())
        name = found.group("name").strip() if found else ""
        number: int | None = None
        faction: str | None = None
        for sign, value in re.findall(r"([:@])([^:@]*)", found.group("rest") if found else ""):
            value = value.strip()
            if sign == ":":
                if number is not None or not value.lstrip("-").isdigit():
                    raise OptionError(f"{text!r}: after ':' comes the number printed on the piece (e.g. RRCC:3)")
                number = int(value)
            elif faction is not None or not value:
                raise OptionError(f"{text!r}: after '@' comes one faction (e.g. Piccolo@italy)")
            else:
                faction = value
        if not name:
            raise OptionError(f"{text!r} is not a selector: write a name, optionally :NUMBER and @FACTION "
                              "(e.g. RRCC:3, Piccolo@italy)")
        return cls(name, number, faction)


def printed_number(piece: "Piece") -> int | None:
    """The number a piece shows: its strength, else its value, else its bonus."""
    return next((n for n in (piece.strength, piece.value, piece.bonus) if n is not None), None)


def resolve_kind(game: "Game", kind: str) -> str:
    """The kind id for `kind`, given as an id ("spy") or a label ("Action chit"), any case."""
    kinds = game.info.kinds
    return NameIndex("piece kind", kinds, {k.label: name for name, k in kinds.items()}).resolve(kind)


def _identity(piece: "Piece") -> str:
    """What tells two roster entries apart on the table: every field but how many are printed."""
    return repr(sorted(piece.model_dump(exclude={"count"}).items(), key=lambda item: item[0]))


def _distinct(pieces: list["Piece"]) -> list[list["Piece"]]:
    """`pieces` grouped into the different pieces they are, in roster order (identical entries together)."""
    groups: dict[str, list["Piece"]] = {}
    for piece in pieces:
        groups.setdefault(_identity(piece), []).append(piece)
    return list(groups.values())


def selector_for(piece: "Piece", among: list["Piece"]) -> str:
    """The shortest selector that tells `piece` from the other pieces `among` that share its name."""
    text = piece.name
    if len({p.nation for p in among}) > 1 and piece.nation:
        text += f"@{piece.nation}"
    if len({printed_number(p) for p in among}) > 1 and printed_number(piece) is not None:
        text += f":{printed_number(piece)}"
    return text


def on_sheet(pieces: list["Piece"]) -> int:
    return sum(p.count for p in pieces)


def select(game: "Game", selectors: list[str], kind: str | None = None, nation: str | None = None,
           strength: int | None = None, every: bool = False) -> Selection:
    """The pieces and tiles `selectors` name, narrowed by `kind`, `nation` and `strength`.

    A selector names one piece: when it matches several different pieces (a name every nation
    has, guards of several strengths) it is refused with the selectors that tell them apart,
    unless `every` is set. Entries that are the same piece (three identical entries of strength 2) print once.
    Raises UnknownNameError (with the closest names) for a name that is in neither the tiles nor
    the roster, and EmptySelectionError when a known name or the filters pick nothing.
    """
    if not selectors and kind is None and nation is None and strength is None:
        raise OptionError("name the pieces or tiles to print (e.g. \"Ab 1\" Piccolo), or use --kind/--nation/--strength")
    kind_id = resolve_kind(game, kind) if kind else None
    nation_id = game.faction(nation).id if nation else None

    def piece_wanted(piece: "Piece", number: int | None = None, faction: str | None = None) -> bool:
        return ((kind_id is None or piece.kind == kind_id) and (nation_id is None or piece.nation == nation_id)
                and (faction is None or piece.nation == faction)
                and all(n is None or printed_number(piece) == n for n in (strength, number)))

    def tile_wanted(tile: "Tile") -> bool:
        return (kind_id is None or kind_id == tile_kind_name(game)) and strength is None \
            and (nation_id is None or nation_id in tile_factions(game, tile))

    tiles_by_id = {t.id: t for t in game.tiles}
    tile_index = NameIndex("tile", tiles_by_id)
    names = dict.fromkeys(p.name for p in game.pieces)
    piece_index = NameIndex("piece", names, game.aliases)
    pieces: list["Piece"] = []
    tiles: list["Tile"] = []
    narrowed = " and ".join(f"--{o} {v}" for o, v in (("kind", kind), ("nation", nation), ("strength", strength))
                            if v is not None)
    for text in selectors:
        tile_id = tile_index.find(text)
        whole = piece_index.find(text)
        selector = Selector(text) if tile_id or whole else Selector.parse(text)
        name = whole or piece_index.find(selector.name)
        if tile_id is None and name is None:
            closest = list(dict.fromkeys(tile_index.closest(selector.name) + piece_index.closest(selector.name)))
            raise UnknownNameError("piece or tile", selector.name, closest[:4])
        faction = game.faction(selector.faction).id if selector.faction else None
        found_tiles = [tiles_by_id[tile_id]] if tile_id and tile_wanted(tiles_by_id[tile_id]) else []
        named = [p for p in game.pieces if p.name == name] if name else []
        found = [p for p in named if piece_wanted(p, selector.number, faction)]
        if not found_tiles and not found:
            there = ", ".join(dict.fromkeys(selector_for(p, named) for p in named))
            raise EmptySelectionError(f"{text!r} picks no piece" + (f" among those picked by {narrowed}" if narrowed else "")
                                      + (f"; the roster has {there}" if there else ""))
        groups = _distinct(found)
        if len(groups) > 1 and not every:
            options = ", ".join(f"{selector_for(g[0], found)} ({on_sheet(g)} on the sheet)" for g in groups)
            raise AmbiguousSelectionError(
                f"{text!r} names {len(groups)} different pieces: {options}; name one of them "
                f"(or narrow with --nation/--strength), or add --all to print one of each")
        tiles += [t for t in found_tiles if t not in tiles]
        chosen = [g[0] for g in groups]
        pieces += [p for p in chosen if not any(_identity(p) == _identity(q) for q in pieces)]
    if not selectors:
        pieces = [p for p in game.pieces if piece_wanted(p)]
        # tiles only when asked for by kind: --nation alone means that nation's pieces
        tiles = [t for t in game.tiles if tile_wanted(t)] if kind_id == tile_kind_name(game) else []
        if not pieces and not tiles:
            raise EmptySelectionError(f"no piece of {game.info.title} matches {narrowed}")
    return Selection(tuple(pieces), tuple(tiles))


def describe(game: "Game", piece: "Piece") -> str:
    """A piece as a listing names it: "RRCC (Italy, Guard, strength 3)"."""
    kind = game.info.kinds.get(piece.kind)
    parts = [game.faction(piece.nation).name if piece.nation else None, kind.label if kind and kind.label else piece.kind]
    for field_name in ("strength", "value", "bonus", "cost"):
        if getattr(piece, field_name) is not None:
            parts.append(f"{field_name} {getattr(piece, field_name)}")
    return f"{piece.name} ({', '.join(p for p in parts if p)})"


def _tile_line(game: "Game", tile: "Tile") -> str:
    """A tile as a listing names it: its id, its kind's label and its heading."""
    kind = tile_kind(game)
    heading = tile_text(game, tile).heading
    return f"{tile.id} ({(kind.label if kind else 'tile').lower()}" + (f": {heading})" if heading else ")")


def listing(game: "Game", selection: Selection, copies: int, pdf_name: str) -> str:
    """What went into the PDF, one line per piece or tile with how many were printed, and the total."""
    counted: dict[str, int] = {}
    for text in [describe(game, p) for p in selection.pieces] + [_tile_line(game, t) for t in selection.tiles]:
        counted[text] = counted.get(text, 0) + copies
    lines = [f"{count} × {text}" for text, count in counted.items()]
    total = copies * (len(selection.pieces) + len(selection.tiles))
    head = f"{pdf_name}: {total} {'piece' if total == 1 else 'pieces'} of {game.info.title}"
    return "\n".join([head, *("  " + line for line in lines)]) + "\n"


def build_replacements(game: "Game", settings: "PrintSettings", selection: Selection,
                       path: Path, copies: int = 1) -> "Document":
    """The selected pieces (fronts and backs) and tiles, `copies` of each, to go to `path`, with the list of
    what it holds beside it (replacements.txt for replacements.pdf); each file is replaced on its own, beside a
    user's own files."""
    if copies < 1:
        raise OptionError("--copies must be at least 1")
    printed = copies * (len(selection.pieces) + len(selection.tiles))
    if printed > MAX_PIECES:
        raise OptionError(f"--copies {copies:,}: that is {printed:,} pieces; Dossier prints at most {MAX_PIECES:,} in one run")
    layout = game.layout
    fonts = piece_fonts(layout.fonts, game.folder)
    with collector_paused():
        items = piece_items(game, list(selection.pieces), settings, FacePainter(game, fonts), copies)
        items += tile_items(game, list(selection.tiles), fonts, copies)
        document = print_items(items, path, settings=settings, fonts=fonts, title=f"{game.info.title} replacement pieces")
    listed = path.with_suffix(".txt").name
    return replace(document, files={**document.files, listed: listing(game, selection, copies, path.name)},
                   shares_folder=True)
