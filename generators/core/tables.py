"""A game's reference tables (tables.yaml) resolved into what they print: each cell's text, whether the
source prints it (or it is assumed, and why), or whether it is a line to write on.

Every product that prints a table (the map's aids, the display, the cards, the exports) reads it through
`resolved_table`, so a value corrected once in tables.yaml prints everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import DerivationError, variant_label
from .errors import Problem
from .slots import slots
from .table_models import Table
from .templates import fill, record_values

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Cell:
    """One printed cell: its text; the reason it is assumed (None when the source prints it); or a blank to write in
    (on `lines` ruled lines)."""

    text: str
    assumed: str | None = None
    write_in: bool = False
    lines: int = 1


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


def record_key(values: dict[str, Any]) -> str:
    """The name a table's `values` give a record's row by: its id, else its name."""
    return str(values.get("id") or values.get("name") or "")


def _row_values(game: "Game", table: Table) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Each row's values by field (with what the table's `values` give it) and the reasons of its assumed fields."""
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
            given = dict(table.values.get(record_key(values), {}))
            reasons = dict(record.assumed) | dict(given.pop("assumed", None) or {})
            rows.append((values | given, reasons))
    return rows


def _variants_text(game: "Game", listed: Any) -> str:
    """The game variant(s) a row holds for, as the cards name them; "Both games" (or "All games") for every one."""
    listed = listed if isinstance(listed, list) else [listed]
    every = game.info.variants
    if not every or set(every) <= set(listed):
        return "Both games" if len(every) == 2 else "All games"
    return ", ".join(variant_label(game, v) or str(v) for v in listed)


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
            if col.variants is not None:
                if col.variants not in values:
                    raise DerivationError(f"column {col.heading!r} takes variants from unknown field {col.variants!r}; known: {', '.join(sorted(values))}")
                cells.append(Cell(_variants_text(game, values[col.variants]), assumed=reasons.get(col.variants)))
                continue
            if col.text is None:
                cells.append(Cell("", write_in=True, lines=col.lines))
                continue
            names = slots(col.text)
            if names and all(n in table.unprinted and values.get(n) in (None, "") for n in names):
                cells.append(Cell("", write_in=True, lines=col.lines))
                continue
            values = {n: "" for n in names if n in table.unprinted} | values
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
            continue
        if table.values:
            keys = [record_key(values) for values, _ in _row_values(game, table)]
            found += [Problem(game.file("tables.yaml"), f"tables[{i}].values.{key}", f"{table.id!r} has no row {key!r}; its rows: "
                              f"{', '.join(keys)}", "invalid") for key in table.values if key not in keys]
    return found
