"""Glyph coverage: every character the data prints on pieces, tiles and cards must exist in the fonts
they are set in, or a PDF would show an empty box where a letter should be."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..core.errors import Problem
from ..core.layouts import preset_file
from .fonts import FontError, missing_glyphs, piece_fonts

if TYPE_CHECKING:
    from ..core.game import Game


UNPRINTED = {"assumed", "kind", "nation", "games", "art", "icons", "records", "where", "group_by", "order",
             "variant", "variant_from", "show", "aid"}  # ids, file names and settings, never set in type


def _texts(record: object, where: str) -> Iterator[tuple[str, str]]:
    """(field path, text) of every printed string in a record, list or mapping, depth first."""
    if isinstance(record, str):
        yield where, record
    elif isinstance(record, BaseModel):
        for name in type(record).model_fields:
            if name not in UNPRINTED:
                yield from _texts(getattr(record, name), f"{where}.{name}" if where else name)
    elif isinstance(record, dict):
        for key, value in record.items():
            yield from _texts(value, f"{where}.{key}" if where else str(key))
    elif isinstance(record, (list, tuple)):
        for i, value in enumerate(record):
            yield from _texts(value, f"{where}[{i}]")


def printed_texts(game: "Game") -> Iterator[tuple[Path, str, str]]:
    """(file, field, text) of every text the game's data gives its printed products."""
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
    for where, text in _texts(list(game.pieces), "pieces"):
        yield game.file("pieces.yaml"), where, text
    for where, text in _texts(list(game.tiles), "tiles"):
        yield game.file("tiles.yaml"), where, text
    if game.cards is not None:
        for where, text in _texts(game.cards, ""):
            yield game.file("cards.yaml"), where, text


def check_glyphs(game: "Game") -> list[Problem]:
    """Every character of every printed text exists in the layout's condensed fonts; names file, field and character."""
    fonts = game.layout.fonts
    try:
        registered = piece_fonts(fonts, game.folder)
    except FontError as exc:
        return [Problem(preset_file(game.info.layout, game.folder), "fonts", str(exc), "bad-font")]
    problems = []
    for file, field, text in printed_texts(game):
        missing = list(dict.fromkeys(missing_glyphs(text, registered.regular) + missing_glyphs(text, registered.bold)))
        for char in missing:
            problems.append(Problem(file, field, f"character {char!r} (U+{ord(char):04X}) is not in the font "
                                    f"{fonts.condensed} or {fonts.condensed_bold}; use another character or font",
                                    "missing-glyph"))
    return problems
