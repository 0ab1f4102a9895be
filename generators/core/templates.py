"""Texts with "{field}" slots filled from a record's values: the one way piece faces and card
derivations name a piece's strength, a tile's years or a faction's name.

A `nation` holding a faction id reads as the faction's name, as printed, with the id kept as
`nation_id` and the name in capitals as `NATION`.

A slot is a field name and nothing else: no conversion ("{name!r}"), no format ("{name:>9}"),
no attribute or index ("{name.upper}"); "{{" and "}}" print braces. `template_problem` says
what is wrong with any other text, so data is refused when it is read, never when it is drawn.
"""

from __future__ import annotations

from string import Formatter
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .limits import shown

if TYPE_CHECKING:
    from .game import Game


def record_values(game: "Game", record: BaseModel) -> dict[str, Any]:
    """A record's fields by name, its `nation` as the faction's name (see above)."""
    values = record.model_dump(exclude={"assumed"})
    nation = values.get("nation")
    if nation and "nation" in type(record).model_fields:
        faction = next((f for f in game.info.factions if f.id == nation), None)
        if faction is not None:
            values.update(nation=faction.name, NATION=faction.name.upper(), nation_id=faction.id)
    return values


def as_text(value: Any) -> str:
    """A value as a template prints it: nothing for None, a list joined with commas."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value)
    return str(value)


def template_problem(template: str) -> str | None:
    """Why `template` is not a text with plain {field} slots, or None when it is."""
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:  # "{name" or a lone "}"
        return f"is not a template: {exc}; write slots as {{field}} and braces as {{{{ and }}}}"
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier():
            what = "an empty slot {} names no field" if not name else f"slot {{{shown(name)[1:-1]}}} is not a field name"
            return f"{what}; write a field name, e.g. {{name}}"
        if conversion or spec:
            return f"slot {{{name}}} carries a conversion or format ('!' or ':'); a slot is a field name only"
    return None


def slots(template: str) -> list[str]:
    """The field names `template` fills, in order; the template has passed `template_problem`."""
    return [name for _, name, _, _ in Formatter().parse(template) if name]


def fill(template: str, values: dict[str, Any]) -> str:
    """`template` with each {field} replaced by its value as text; the caller has checked the fields exist."""
    return template.format_map({k: as_text(v) for k, v in values.items()})
