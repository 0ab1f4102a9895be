"""Reading a game folder: each YAML file read safely into typed records, every file checked on its own.

A game folder holds game.yaml and any of the optional files in FILES. Reading refuses bad
files with every problem found (DataError); the cross-checks between files are in
`generators.validation`, which `load_game` runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .board_models import BoardsFile, DisplayFile
from .card_models import CardsFile
from .errors import DataError, Problem
from .files import Kind, kind_of
from .game import Game
from .game_folders import resolve_game_folder
from .map_models import MapFile
from .models import AliasesFile, GameInfo, PiecesFile, TilesFile, roster_schema, tiles_schema
from .table_models import TablesFile
from .schema_errors import problems_from_validation
from .spreadsheets import SUFFIXES, cards_document, document_of, is_spreadsheet, read_sheet
from .yamlio import read_yaml, unprintable

# Optional files of a game folder and the record each one is read into.
FILES: dict[str, type[BaseModel]] = {
    "pieces.yaml": PiecesFile,
    "tiles.yaml": TilesFile,
    "aliases.yaml": AliasesFile,
    "map.yaml": MapFile,
    "cards.yaml": CardsFile,
    "display.yaml": DisplayFile,
    "tables.yaml": TablesFile,
    "boards.yaml": BoardsFile,
}


# Files a game may keep as a spreadsheet instead (pieces.csv or pieces.xlsx), one record (a card's item) a row.
TABLES = ("pieces.yaml", "tiles.yaml", "cards.yaml")

# Files whose records game.yaml shapes (the pieces' own fields, the tiles' declared fields).
DEPENDS_ON_INFO = ("pieces.yaml", "tiles.yaml")


def _read_record(file: Path, model: type[BaseModel]) -> tuple[Any, BaseModel]:
    document = read_yaml(file, within=file.parent)
    if document is None:
        raise DataError([Problem(file, "", "the file is empty", "invalid")])
    if not isinstance(document, dict):
        raise DataError([Problem(file, "", f"expected a mapping at the top of the file, got {type(document).__name__}", "invalid")])
    try:
        return document, model.model_validate(document)
    except ValidationError as exc:
        raise DataError(problems_from_validation(exc, file, model=model)) from None


def _read_table(file: Path, model: type[BaseModel]) -> tuple[Any, BaseModel]:
    """A roster (or tiles) kept in a spreadsheet, read into the document its YAML would be, then validated alike."""
    table = file.stem
    sheet = read_sheet(file, table)
    document = cards_document(sheet)[0] if table == "cards" else document_of(sheet, table, model)
    problems = unprintable(file, document)
    if problems:
        raise DataError(problems)
    try:
        return document, model.model_validate(document)
    except ValidationError as exc:
        raise DataError(problems_from_validation(exc, file, model=model)) from None


def data_file(folder: Path, name: str) -> Path | None:
    """The file giving `name` ("pieces.yaml"): it, or a spreadsheet of the same stem when the game keeps it in one
    (see spreadsheets.py); None when there is none. Two at once are refused: which would be read?"""
    candidates = [folder / name] + ([folder / f"{Path(name).stem}{s}" for s in SUFFIXES] if name in TABLES else [])
    present = [c for c in candidates if kind_of(c, follow=False) is not Kind.MISSING]  # a folder or FIFO is refused by name
    if len(present) > 1:
        raise DataError([Problem(present[1], "", f"{' and '.join(p.name for p in present)} both hold the "
                                 f"{Path(name).stem}; keep one", "two-sources")])
    return present[0] if present else None


def read_game(game: str | Path | None = None) -> Game:
    """The game's files read into records, every file checked on its own; no cross-checks yet."""
    folder = resolve_game_folder(game)
    documents: dict[str, Any] = {}
    records: dict[str, BaseModel] = {}
    problems: list[Problem] = []
    try:
        documents["game.yaml"], records["game.yaml"] = _read_record(folder / "game.yaml", GameInfo)
    except DataError as exc:
        problems.extend(exc.problems)
    schemas = dict(FILES)
    info = records.get("game.yaml")
    if isinstance(info, GameInfo):  # the game's own piece and tile fields, declared in game.yaml
        schemas.update({"pieces.yaml": roster_schema(info), "tiles.yaml": tiles_schema(info)})
    else:  # their records depend on game.yaml; read against a broken one they would repeat its problem
        for name in DEPENDS_ON_INFO:
            del schemas[name]
    sources: dict[str, Path] = {}
    for name, model in schemas.items():
        try:
            file = data_file(folder, name)
            if file is None:
                continue
            if is_spreadsheet(file):
                sources[name] = file
                documents[name], records[name] = _read_table(file, model)
            else:
                documents[name], records[name] = _read_record(file, model)
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    pieces, tiles, aliases = records.get("pieces.yaml"), records.get("tiles.yaml"), records.get("aliases.yaml")
    return Game(
        folder=folder,
        info=records["game.yaml"],
        pieces=tuple(pieces.pieces) if pieces else (),
        tiles=tuple(tiles.tiles) if tiles else (),
        aliases=dict(aliases.aliases) if aliases else {},
        map=records.get("map.yaml"),
        cards=records.get("cards.yaml"),
        display=records.get("display.yaml"),
        tables=records.get("tables.yaml"),
        boards=records.get("boards.yaml"),
        documents=documents,
        sources=sources,
    )
