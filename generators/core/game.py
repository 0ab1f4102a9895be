"""A game: its data read from its folder into typed records, with the lookups every command needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .board_models import BoardsFile, DisplayFile
from .card_models import CardsFile
from .errors import UnknownNameError
from .layouts import Layout, load_layout
from .map_models import MapFile
from .models import Faction, GameInfo, Piece, Tile
from .names import NameIndex, normalise
from .table_models import TablesFile
from .tile_text import tile_values


@dataclass
class Game:
    """A game's data: its info (game.yaml), roster, tiles, spellings, map, cards, display and reference tables, each empty or None
    when its folder has no such file, and each file's document as read (for `dossier assumptions`)."""

    folder: Path
    info: GameInfo
    pieces: tuple[Piece, ...] = ()
    tiles: tuple[Tile, ...] = ()
    aliases: dict[str, str] = field(default_factory=dict)
    map: MapFile | None = None
    cards: CardsFile | None = None
    display: DisplayFile | None = None
    tables: TablesFile | None = None
    boards: BoardsFile | None = None
    documents: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Path] = field(default_factory=dict)  # "pieces.yaml" -> pieces.csv when a spreadsheet gave it

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def output_name(self) -> str:
        """The folder its builds and exports land in under OUT: its game folder's name, so a copy of a
        game in ~/my-copy lands in OUT/my-copy and never over the original's OUT/<its folder>."""
        return self.folder.name

    def has_file(self, name: str) -> bool:
        """True when the game's folder gave the data file `name` ("tiles.yaml")."""
        return name in self.documents

    @cached_property
    def layout(self) -> Layout:
        """The layout preset game.yaml names, merged over the presets it extends; read once per game."""
        return load_layout(self.info.layout, self.folder)

    def file(self, name: str) -> Path:
        """The path of the game file `name` (e.g. "tiles.yaml"): the spreadsheet that gave it, if one did."""
        return self.sources.get(name) or self.folder / name

    def faction(self, faction_id: str) -> Faction:
        """The faction with id `faction_id`, looked up forgivingly by id or name."""
        for faction in self.info.factions:  # the data's own ids, as every piece and tile gives them
            if faction.id == faction_id:
                return faction
        found = self.faction_index.resolve(faction_id)
        return next(f for f in self.info.factions if f.id == found)

    @cached_property
    def face_cache(self) -> dict[int, tuple[Piece, Any]]:
        """Each piece's faces once core.faces has filled them, by the piece's identity: validation and every
        product ask for the same faces, and a 10,000-piece roster should fill each only once."""
        return {}

    @cached_property
    def derived(self) -> dict[str, Any]:
        """Answers worked out from this game's data once and asked for by several products (where the poster
        puts each place), by name; the data is frozen, so they never go stale."""
        return {}

    @cached_property
    def faction_index(self) -> NameIndex:
        factions = self.info.factions
        return NameIndex("faction", [f.id for f in factions], {f.name: f.id for f in factions})

    def tile(self, tile_id: str) -> Tile:
        """The tile printed as `tile_id`, any case or spacing.

        A miss suggests the closest ids, else the tiles whose printed text mentions it, else the tiles
        whose id starts the same way before its number ("Ab 99" suggests "Ab 1", "Ab 2")."""
        by_id = {t.id: t for t in self.tiles}
        index = NameIndex("tile", by_id)
        found = index.find(tile_id)
        if found is None:
            key, prefix = normalise(tile_id), normalise(tile_id.rstrip("0123456789 "))
            by_text = [t.id for t in self.tiles if key and any(key in normalise(v) for v in tile_values(self, t).values())]
            by_prefix = [t.id for t in self.tiles if prefix and normalise(t.id).rstrip("0123456789") == prefix]
            raise UnknownNameError("tile", tile_id, index.closest(tile_id) or by_text or by_prefix)
        return by_id[found]

    def count(self) -> int:
        """How many pieces the roster prints, copies included."""
        return sum(p.count for p in self.pieces)
