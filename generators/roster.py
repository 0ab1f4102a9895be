"""The roster as printable faces: each piece's kind template filled with the piece's own values."""

from __future__ import annotations

from dataclasses import dataclass
from string import Formatter
from typing import TYPE_CHECKING

from .models import FaceTemplate, Piece

if TYPE_CHECKING:
    from .loader import Game


@dataclass(frozen=True)
class Face:
    """One side of a piece, ready to draw."""

    title: str | None = None
    value: str | None = None
    text: str | None = None
    symbol: str | None = None
    colour: str = "neutral"
    blank: bool = False


class TemplateError(KeyError):
    """A face template names a field the piece does not have."""


def template_fields(game: "Game", piece: Piece) -> dict[str, str]:
    """The values a face template may name for `piece`."""
    fields = {k: ("" if v is None else str(v)) for k, v in piece.model_dump(exclude={"assumed"}).items()}
    faction = game.faction(piece.nation) if piece.nation else None
    nation = faction.name if faction else ""
    fields.update(nation=nation, NATION=nation.upper(), nation_id=piece.nation or "")
    return fields


def _fill(text: str | None, fields: dict[str, str], piece: Piece) -> str | None:
    if text is None:
        return None
    for _, name, _, _ in Formatter().parse(text):
        if name and not fields.get(name):
            raise TemplateError(f"{name} (piece {piece.name!r} has no {name})")
    return text.format_map(fields)


def fill_face(game: "Game", template: FaceTemplate, piece: Piece) -> Face:
    """The face `template` shows for `piece`: texts filled, "nation" symbol and colour resolved."""
    fields = template_fields(game, piece)
    symbol = _fill(template.symbol, fields, piece)
    if symbol == "nation":
        faction = game.faction(piece.nation) if piece.nation else None
        symbol = faction.symbol if faction else None
    colour = (piece.nation or "neutral") if template.colour == "nation" else template.colour
    return Face(
        title=_fill(template.title, fields, piece),
        value=_fill(template.value, fields, piece),
        text=_fill(template.text, fields, piece),
        symbol=symbol or None,
        colour=colour,
        blank=template.blank,
    )


def faces(game: "Game", piece: Piece) -> tuple[Face, Face]:
    """(front, back) of `piece`."""
    kind = game.info.kinds[piece.kind]
    front = fill_face(game, kind.front, piece) if kind.front else Face(title=piece.name)
    return front, fill_face(game, kind.back, piece)
