"""Texts with "{field}" slots filled from a record's values: the one way piece faces and card
derivations name a piece's strength, a tile's fields or a faction's name.

A `nation` holding a faction id reads as the faction's name, as printed, with the id kept as
`nation_id`, its code as `nation_code` and the name in capitals as `NATION`.

A slot is a plain field name (see slots.py); templates are checked when the data is read.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .slots import slots

if TYPE_CHECKING:
    from .game import Game


def record_values(game: "Game", record: BaseModel) -> dict[str, Any]:
    """A record's fields by name, its `nation` (or each faction field its game declares) as the faction's
    name (see above)."""
    values = record.model_dump(exclude={"assumed"})
    for name in _faction_fields(type(record)):
        faction_id = values.get(name)
        if faction_id:
            faction = next((f for f in game.info.factions if f.id == faction_id), None)
            if faction is not None:
                values.update({name: faction.name, name.upper(): faction.name.upper(), f"{name}_id": faction.id,
                               f"{name}_code": faction.code or ""})
    return values


@lru_cache(maxsize=None)
def _faction_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of `model` that hold a faction id, looked up once per kind of record (10,000 pieces ask)."""
    return tuple(name for name in getattr(model, "FACTION_FIELDS", ("nation",)) if name in model.model_fields)


def as_text(value: Any) -> str:
    """A value as a template prints it: nothing for None, a list joined with commas."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value)
    return str(value)


def fill(template: str, values: dict[str, Any]) -> str:
    """`template` with each {field} replaced by its value as text; the caller has checked the fields exist.
    Only the fields it names are turned into text: a face fills a few of a record's many fields."""
    return template.format_map({name: as_text(values[name]) for name in _slots(template)})


@lru_cache(maxsize=4096)
def _slots(template: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(slots(template)))
