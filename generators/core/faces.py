"""The roster as printable faces: each piece's kind template filled with the piece's own values."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .models import FaceTemplate, Piece
from .slots import slots
from .templates import as_text, fill, record_values

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Face:
    """One side of a piece, ready to draw."""

    title: str | None = None
    value: str | None = None
    text: str | None = None
    symbol: str | None = None
    art: str | None = None
    icons: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    symbols_assumed: bool = False  # the marks or icons are a reading of the rules, not given: printed with a mark
    title_assumed: bool = False  # the piece being of its kind is a reading: the front's title printed with a mark
    corner: str | None = None
    write_in: bool = False
    fold: bool = False
    colour: str = "neutral"
    blank: bool = False

    @property
    def symbols(self) -> tuple[str, ...]:
        """The marks, then the icons, in the row they print in."""
        return self.marks + self.icons


# A face's symbol or colour given as this word is the piece's faction's own.
NATION = "nation"


class TemplateError(KeyError):
    """A face template names a field the piece has no value for."""


def _fill(text: str | None, values: dict[str, Any], piece: Piece) -> str | None:
    if text is None:
        return None
    for name in slots(text):
        if not as_text(values.get(name)):
            raise TemplateError(f"{name} (piece {piece.name!r} has no {name})")
    return fill(text, values)


def _fill_if_known(text: str | None, values: dict[str, Any]) -> str | None:
    """`text` filled, or "" (an empty slot to write in) when the piece lacks a value it names."""
    if text is None:
        return None
    return fill(text, values) if all(as_text(values.get(name)) for name in slots(text)) else ""


def _corner(template: FaceTemplate, values: dict[str, Any]) -> str | None:
    """The corner ring's text; on a face to write on, "" (the empty ring) where the piece lacks the value, else
    no ring at all."""
    text = _fill_if_known(template.corner, values)
    return text if text or template.write_in else None


def fill_face(game: "Game", template: FaceTemplate, piece: Piece, values: dict[str, Any]) -> Face:
    """The face `template` shows for `piece`, whose values (record_values) are `values`: texts filled, a
    NATION symbol and colour resolved."""
    symbol = _fill(template.symbol, values, piece)
    if symbol == NATION:
        faction = game.faction(piece.nation) if piece.nation else None
        symbol = faction.symbol if faction else None
    colour = (piece.nation or "neutral") if template.colour == NATION else template.colour
    for field, choices in template.colour_by.items():
        colour = choices.get(as_text(values.get(field)), colour)
    return Face(
        title=_fill(template.title, values, piece),
        value=_fill(template.value, values, piece),
        text=_fill(template.text, values, piece),
        symbol=symbol or None,
        art=_fill(template.art, values, piece),
        icons=tuple(piece.icons or ()) if template.icons else (),
        marks=tuple(piece.marks or ()) if template.icons else (),
        labels=tuple(game.info.symbol_names.get(name, name) for name in (*(piece.marks or ()), *(piece.icons or ())))
        if template.icons and template.legend else (),
        symbols_assumed=bool(template.icons and {"icons", "marks"} & set(piece.assumed or {})),
        corner=_corner(template, values),
        write_in=template.write_in,
        fold=template.fold,
        colour=colour,
        blank=template.blank,
    )


def faces(game: "Game", piece: Piece) -> tuple[Face, Face]:
    """(front, back) of `piece`, filled once per game (see Game.face_cache); the piece's own `art`
    replaces its kind's on the front."""
    cached = game.face_cache.get(id(piece))
    if cached is not None and cached[0] is piece:
        return cached[1]
    kind = game.info.kinds[piece.kind]
    values = record_values(game, piece)  # both faces read the same values
    front = fill_face(game, kind.front, piece, values) if kind.front else Face(title=piece.name)
    if piece.art:
        front = replace(front, art=piece.art)
    if "kind" in (piece.assumed or {}):
        front = replace(front, title_assumed=True)
    filled = front, fill_face(game, kind.back, piece, values)
    game.face_cache[id(piece)] = (piece, filled)
    return filled
