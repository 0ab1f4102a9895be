"""Loading a game folder: each YAML file read safely into typed records, then cross-checked.

A game folder holds game.yaml and any of the optional files in FILES. Loading refuses
bad data with every problem found (DataError); nothing downstream sees unchecked data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from . import paths
from .cards import CardsFile
from .errors import DataError, Problem, UnknownNameError
from .layouts import Layout, load_layout
from .loader_errors import problems_from_validation
from .mapdata import MapFile
from .models import AliasesFile, Faction, GameInfo, Piece, PiecesFile, Tile, TilesFile
from .names import NameIndex, normalise
from .yamlio import read_yaml

# Optional files of a game folder and the record each one is read into.
FILES: dict[str, type[BaseModel]] = {
    "pieces.yaml": PiecesFile,
    "tiles.yaml": TilesFile,
    "aliases.yaml": AliasesFile,
    "map.yaml": MapFile,
    "cards.yaml": CardsFile,
}


@dataclass
class Game:
    """A game's data, validated: its info, roster, tiles and whatever other files its folder holds."""

    folder: Path
    info: GameInfo
    records: dict[str, BaseModel] = field(default_factory=dict)
    documents: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def pieces(self) -> list[Piece]:
        records = self.records.get("pieces.yaml")
        return list(records.pieces) if records else []

    @property
    def tiles(self) -> list[Tile]:
        records = self.records.get("tiles.yaml")
        return list(records.tiles) if records else []

    @property
    def aliases(self) -> dict[str, str]:
        records = self.records.get("aliases.yaml")
        return dict(records.aliases) if records else {}

    @cached_property
    def layout(self) -> Layout:
        """The layout preset game.yaml names, merged over the presets it extends; read once per game."""
        return load_layout(self.info.layout, self.folder)

    def file(self, name: str) -> Path:
        """The path of the game file `name` (e.g. "tiles.yaml")."""
        return self.folder / name

    def faction(self, faction_id: str) -> Faction:
        """The faction with id `faction_id`, looked up forgivingly by id or name."""
        found = self.faction_index.resolve(faction_id)
        return next(f for f in self.info.factions if f.id == found)

    @cached_property
    def faction_index(self) -> NameIndex:
        factions = self.info.factions
        return NameIndex("faction", [f.id for f in factions], {f.name: f.id for f in factions})

    def tile(self, tile_id: str) -> Tile:
        """The tile printed as `tile_id` ("Ge 1", "random 36"), any case or spacing.

        A miss suggests the closest ids, else the tiles whose event mentions it ("Czech Crisis"),
        else the tiles of the same nation ("Ge 99")."""
        by_id = {t.id: t for t in self.tiles}
        index = NameIndex("tile", by_id)
        found = index.find(tile_id)
        if found is None:
            key, nation = normalise(tile_id), normalise(tile_id.rstrip("0123456789 "))
            by_event = [t.id for t in self.tiles if key and key in normalise(t.event)]
            by_nation = [t.id for t in self.tiles if nation and normalise(t.id).rstrip("0123456789") == nation]
            raise UnknownNameError("tile", tile_id, index.closest(tile_id) or by_event or by_nation)
        return by_id[found]

    def count(self) -> int:
        """How many pieces the roster prints, copies included."""
        return sum(p.count for p in self.pieces)


def resolve_game_folder(game: str | Path | None) -> Path:
    """The folder of `game`: a path to a folder holding game.yaml, or the name of an installed game."""
    text = str(game) if game is not None else paths.default_game()
    candidate = Path(text).expanduser()
    looks_like_path = any(sep in text for sep in ("/", "\\")) or text.startswith(".")
    if candidate.is_dir():
        if (candidate / "game.yaml").is_file():
            return candidate.resolve()
        if looks_like_path:
            raise DataError([Problem(candidate / "game.yaml", "", "file not found: a game folder needs a game.yaml", "missing-file")])
    elif looks_like_path:
        raise DataError([Problem(candidate, "", "no such game folder", "missing-file")])
    installed = paths.installed_games()
    index = NameIndex("game", installed)
    found = index.find(text)
    if found is None:
        raise UnknownNameError("game", text, index.closest(text) or installed)
    return paths.components_dir() / found


def _read_record(file: Path, model: type[BaseModel]) -> tuple[Any, BaseModel]:
    document = read_yaml(file)
    if document is None:
        raise DataError([Problem(file, "", "the file is empty", "invalid")])
    if not isinstance(document, dict):
        raise DataError([Problem(file, "", f"expected a mapping at the top of the file, got {type(document).__name__}", "invalid")])
    try:
        return document, model.model_validate(document)
    except ValidationError as exc:
        raise DataError(problems_from_validation(exc, file)) from None


def read_game(game: str | Path | None = None) -> Game:
    """The game's files read into records, every file checked on its own; no cross-checks yet."""
    folder = resolve_game_folder(game)
    documents: dict[str, Any] = {}
    records: dict[str, BaseModel] = {}
    problems: list[Problem] = []
    info = None
    for name, model in {"game.yaml": GameInfo, **FILES}.items():
        file = folder / name
        if name != "game.yaml" and not file.is_file():
            continue
        try:
            documents[name], records[name] = _read_record(file, model)
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    info = records.pop("game.yaml")
    return Game(folder=folder, info=info, records=records, documents=documents)


def load_game(game: str | Path | None = None) -> Game:
    """The game named (or the folder given), read and cross-checked; raises DataError listing every problem."""
    from .checks import check_game
    from . import mapcheck  # noqa: F401  (importing registers the map's checks)
    from . import symbols  # noqa: F401  (importing registers the symbol check)
    from . import layout_checks  # noqa: F401  (importing registers the layout checks)

    loaded = read_game(game)
    problems = check_game(loaded)
    if problems:
        raise DataError(problems)
    return loaded
