"""Glyph coverage: every character the data prints on pieces, tiles and cards must exist in the fonts
they are set in, or a PDF would show an empty box where a letter should be. The fonts' character
maps are read with fontTools, once per file, so checking data never loads the drawing library."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..core.errors import DataError, Problem
from ..core.yamlio import read_bounded_text
from .font_files import font_file, reportlab_font_file
from .preflight import usable_layout

if TYPE_CHECKING:
    from ..core.game import Game


UNPRINTED = {"assumed", "kind", "nation", "games", "art", "icons", "marks", "records", "where", "group_by", "order",
             "variant", "variant_from", "show", "aid"}  # ids, file names and settings, never set in type


def _texts(record: object, where: str) -> Iterator[tuple[str, str]]:
    """(field path, text) of every printed string in a record, list or mapping, depth first."""
    if isinstance(record, str):
        yield where, record
    elif isinstance(record, BaseModel):
        for name in _printed_fields(type(record)):
            yield from _texts(getattr(record, name), f"{where}.{name}" if where else name)
    elif isinstance(record, dict):
        for key, value in record.items():
            yield from _texts(value, f"{where}.{key}" if where else str(key))
    elif isinstance(record, (list, tuple)):
        for i, value in enumerate(record):
            yield from _texts(value, f"{where}[{i}]")


@lru_cache(maxsize=None)
def _printed_fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(name for name in model.model_fields if name not in UNPRINTED)


def _strings(record: object) -> Iterator[str]:
    """The texts `_texts` yields for `record`, without building a field path for each: a path is
    only needed for a text that has a problem."""
    stack = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, BaseModel):
            stack.extend(getattr(item, name) for name in _printed_fields(type(item)))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def printed_records(game: "Game") -> Iterator[tuple[Path, str, object]]:
    """(file, field path, value) of each part of the game's data that printed products set in type,
    in the order its texts are checked: each piece, tile and card section on its own."""
    info = game.info
    yield game.file("game.yaml"), "title", info.title
    for i, faction in enumerate(info.factions):
        yield game.file("game.yaml"), f"factions[{i}].name", faction.name
    for name, kind in info.kinds.items():
        for side in ("front", "back"):
            template = getattr(kind, side)
            for role in ("title", "text", "value"):
                text = getattr(template, role, None) if template else None
                if text:
                    yield game.file("game.yaml"), f"kinds.{name}.{side}.{role}", text
    pieces = game.file("pieces.yaml")
    for i, piece in enumerate(game.pieces):
        yield pieces, f"pieces[{i}]", piece
    if info.tiles is not None:
        yield game.file("game.yaml"), "tiles", info.tiles
    tiles = game.file("tiles.yaml")
    for i, tile in enumerate(game.tiles):
        yield tiles, f"tiles[{i}]", tile
    if game.cards is not None:
        yield game.file("cards.yaml"), "", game.cards


@lru_cache(maxsize=None)
def characters(path: Path) -> frozenset[int]:
    """The code points font file `path` has glyphs for; raises OSError or fontTools' errors for a broken file."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as font:
        return frozenset(font.getBestCmap() or ())


def _font_path(name: str, game_folder: Path) -> Path:
    found = font_file(name, game_folder)
    if found is None:  # one of the fonts that ship with reportlab
        found = reportlab_font_file(name)
    if found is None:
        raise FileNotFoundError(f"font file {name!r} is in no layouts folder")
    return found


def _file_covered(file: Path, *fonts: frozenset[int]) -> bool:
    """Whether every character of YAML `file` is in each of `fonts`: then so is every text read from it, and its
    records need no walk. YAML makes a character the file does not hold only through an escape (\\u00e9)."""
    if file.suffix not in (".yaml", ".yml"):
        return False
    try:
        text = read_bounded_text(file)
    except (DataError, OSError):
        return False
    return "\\" not in text and all(c.isspace() or all(ord(c) in font for font in fonts) for c in set(text))


def check_glyphs(game: "Game") -> list[Problem]:
    """Every character of every printed text exists in the layout's condensed fonts; names file, field and character."""
    layout = usable_layout(game)
    if layout is None:
        return []
    fonts = layout.fonts
    known = [characters(_font_path(getattr(fonts, field), game.folder)) for field in ("condensed", "condensed_bold")]
    regular, bold = known
    problems = []
    checked: dict[str, tuple[str, ...]] = {}  # a 10,000-piece roster repeats its texts: each is looked at once

    def missing(text: str) -> tuple[str, ...]:
        found = checked.get(text)
        if found is None:
            found = checked[text] = tuple(dict.fromkeys(c for c in text if not c.isspace()
                                                        and (ord(c) not in regular or ord(c) not in bold)))
        return found

    covered: dict[Path, bool] = {}
    for file, where, record in printed_records(game):
        whole = covered.get(file)
        if whole is None:
            whole = covered[file] = _file_covered(file, regular, bold)
        if whole or not any(missing(text) for text in _strings(record)):
            continue
        for field, text in _texts(record, where):
            for char in missing(text):
                problems.append(Problem(file, field, f"character {char!r} (U+{ord(char):04X}) is not in the font "
                                        f"{fonts.condensed} or {fonts.condensed_bold}; use another character or font",
                                        "missing-glyph"))
    return problems
