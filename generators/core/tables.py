"""A game's reference tables (tables.yaml) resolved into what they print: each cell's text, whether the
source prints it (or it is assumed, and why), or whether it is a line to write on.

Every product that prints a table (the map's aids, the display, the cards, the exports) reads it through
`resolved_table`, so a value corrected once in tables.yaml prints everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import DerivationError
from .errors import Problem
from .slots import slots
from .table_models import Table
from .templates import fill, record_values

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Cell:
    """One printed cell: its text; the reason it is assumed (None when the source prints it); or a blank to write in."""

    text: str
    assumed: str | None = None
    write_in: bool = False


@dataclass(frozen=True)
class ResolvedTable:
    """A table as it prints: title, rule, note, headings and rows of cells; `assumptions` are the distinct
    (heading, reason) pairs of its assumed cells, in the order they first appear."""

    id: str
    title: str
    cite: str | None
    note: str | None
    headings: list[str]
    rows: list[list[Cell]]

    @property
    def assumptions(self) -> list[tuple[str, str]]:
        seen: list[tuple[str, str]] = []
        for row in self.rows:
            for heading, cell in zip(self.headings, row):
                if cell.assumed and (heading, cell.assumed) not in seen:
                    seen.append((heading, cell.assumed))
        return seen

    @property
    def has_assumptions(self) -> bool:
        return any(cell.assumed for row in self.rows for cell in row)


def _row_values(game: "Game", table: Table) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Each row's values by field and the reasons of its assumed fields."""
    if table.from_ is None:
        rows = []
        for row in table.rows:
            values = {k: v for k, v in row.items() if k != "assumed"}
            faction = next((f for f in game.info.factions if f.id == values.get("nation")), None)
            if faction is not None:
                values.update(nation=faction.name, NATION=faction.name.upper(), nation_id=faction.id)
            rows.append((values, dict(row.get("assumed") or {})))
        return rows
    source = {"pieces": game.pieces, "tiles": game.tiles, "factions": list(game.info.factions)}[table.from_.records]
    rows = []
    for record in source:
        values = record_values(game, record)
        if all(_matches(values, field, wanted) for field, wanted in table.from_.where.items()):
            rows.append((values, dict(record.assumed)))
    return rows


def _matches(values: dict[str, Any], field: str, wanted) -> bool:
    if field not in values:
        raise DerivationError(f"where names unknown field {field!r}; known: {', '.join(sorted(values))}")
    allowed = wanted if isinstance(wanted, list) else [wanted]
    value = values[field]
    return any(v in allowed for v in value) if isinstance(value, list) else value in allowed


def resolve_table(game: "Game", table: Table) -> ResolvedTable:
    """`table` with every cell filled; DerivationError when a column names a field its rows lack."""
    rows = []
    for values, reasons in _row_values(game, table):
        reasons = dict(table.assumed) | reasons
        cells = []
        for col in table.columns:
            if col.text is None:
                cells.append(Cell("", write_in=True))
                continue
            names = slots(col.text)
            missing = [n for n in names if n not in values]
            if missing:
                raise DerivationError(f"column {col.heading!r} names unknown field {missing[0]!r}; known: {', '.join(sorted(values))}")
            why = next((reasons[n] for n in names if n in reasons), None)
            cells.append(Cell(fill(col.text, values), assumed=why))
        rows.append(cells)
    return ResolvedTable(table.id, table.title, table.cite, table.note, [c.heading for c in table.columns], rows)


def resolved_table(game: "Game", table_id: str) -> ResolvedTable:
    """The game's table `table_id` as it prints; KeyError when tables.yaml has none of that id."""
    if game.tables is None:
        raise KeyError(table_id)
    return resolve_table(game, game.tables.table(table_id))


def check_tables(game: "Game") -> list[Problem]:
    """What would stop the game's tables printing: a column or filter naming a field its rows lack."""
    if game.tables is None:
        return []
    found = []
    for i, table in enumerate(game.tables.tables):
        try:
            resolve_table(game, table)
        except DerivationError as exc:
            found.append(Problem(game.file("tables.yaml"), f"tables[{i}]", f"{table.id!r}: {exc}", "invalid"))
    return found
