"""What a tile prints, as text, read from the fields its game declares (game.yaml `tiles`): each field as
the tile shows it, the band's texts and colour, the body's heading and entries. Shared by the tile
sheets, listings, exports and referees, so a tile reads the same wherever it is shown; no drawing
library is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from .slots import slots
from .templates import fill

if TYPE_CHECKING:
    from .game import Game
    from .models import Tile, TileField


@dataclass(frozen=True)
class TileText:
    """What a tile prints: the band's texts (first and last bold), its colour name, the body's heading and entries."""

    band: tuple[str, ...]
    colour: str
    heading: str
    entries: tuple[str, ...]
    group: str

    @property
    def label(self) -> str:
        """The band's first text: the tile as players name it."""
        return self.band[0]


def runs_label(values: list[int], spec: "TileField") -> str:
    """`spec.all` when `values` are every number from its min to its max, else runs such as "1936–38, 1940"."""
    if spec.all is not None and list(values) == list(range(spec.min, spec.max + 1)):
        return spec.all
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])

    def run_text(run: list[int]) -> str:
        if len(run) == 1:
            return str(run[0])
        first, last = str(run[0]), str(run[-1])
        return f"{first}–{last[2:] if len(first) == len(last) == 4 and first[:2] == last[:2] else last}"

    return ", ".join(run_text(r) for r in runs)


def _shown(value: Any, spec: "TileField") -> str:
    if value is None:
        return ""
    if spec.type == "bool":
        return (spec.mark or "yes") if value else ""
    if spec.type == "ints":
        return runs_label(value, spec)
    if spec.type == "texts":
        return ", ".join(value)
    if spec.type == "list":
        return " ".join(entry_labels(value, spec))
    return str(value)


def entry_labels(entries: list, spec: "TileField") -> list[str]:
    """Each entry of a list field as the tile prints it (its `shown` template filled)."""
    if spec.shown is None:
        return [", ".join(str(v) for v in e.model_dump(exclude={"assumed"}).values()) for e in entries]
    return [fill(spec.shown, {name: _shown(getattr(e, name), sub) for name, sub in spec.fields.items()}) for e in entries]


def tile_values(game: "Game", tile: "Tile") -> dict[str, str]:
    """Every slot a tile template may fill, as the tile prints it: a faction field as the faction's name
    (with `_id`, `_code` and CAPITALS beside it), a list as its entries."""
    values = {"id": tile.id}
    fields = game.info.tiles.fields if game.info.tiles else {}
    for name, spec in fields.items():
        value = getattr(tile, name)
        if spec.type == "faction":
            faction = next((f for f in game.info.factions if f.id == value), None)
            values.update({name: faction.name if faction else "", name.upper(): faction.name.upper() if faction else "",
                           f"{name}_id": value or "", f"{name}_code": (faction.code or "") if faction else ""})
        else:
            values[name] = _shown(value, spec)
    return values


def first_filled(templates: list[str], values: dict[str, str]) -> str | None:
    """The first template whose slots all have a value, filled; None when none has."""
    for template in templates:
        if all(values.get(name) for name in slots(template)):
            return fill(template, values)
    return None


def tile_text(game: "Game", tile: "Tile") -> TileText:
    """The texts `tile` prints, from its data and its game's declaration."""
    declared = game.info.tiles
    values = tile_values(game, tile)
    front = declared.front
    entries = getattr(tile, front.entries) if front.entries else []
    return TileText(
        band=tuple(fill(t, values) for t in front.band),
        colour=first_filled(front.colour, values) or declared.kind,
        heading=fill(front.text, values) if front.text else "",
        entries=tuple(entry_labels(entries, declared.fields[front.entries])) if front.entries else (),
        group=first_filled(declared.group, values) or "",
    )


def tile_factions(game: "Game", tile: "Tile") -> set[str]:
    """The faction ids a tile's faction fields name."""
    fields = game.info.tiles.fields if game.info.tiles else {}
    return {getattr(tile, name) for name, spec in fields.items() if spec.type == "faction" and getattr(tile, name)}


def tile_cities(game: "Game", tile: "Tile") -> Iterator[tuple[str, str]]:
    """(where, city) for each city a tile's fields name, `where` as "entries[1].places[0]"."""
    fields = game.info.tiles.fields if game.info.tiles else {}
    for name, spec in fields.items():
        value = getattr(tile, name)
        if spec.type == "texts" and spec.cities:
            yield from ((f"{name}[{k}]", city) for k, city in enumerate(value))
        elif spec.type == "list":
            for j, entry in enumerate(value):
                for sub, sub_spec in spec.fields.items():
                    if sub_spec.type == "texts" and sub_spec.cities:
                        yield from ((f"{name}[{j}].{sub}[{k}]", c) for k, c in enumerate(getattr(entry, sub)))
