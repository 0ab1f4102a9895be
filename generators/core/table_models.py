"""tables.yaml as typed records: a game's reference tables (a set-up, a summary of what each card or chit
does), written once and printed by every product that names one (the map's aids, the display, the cards).

A table has a title, the rules it rests on (`cite`), an optional note, and columns whose texts are
templates ("{agents}") filled from each row. Its rows are written out (`rows`: each a mapping of fields,
`nation` a faction id printed as the faction's name) or made from the game's records (`from`: pieces,
tiles or factions, filtered by `where`). A column with no text is left blank to write in.

A value the sources do not print at all is named in `unprinted: {field: reason}`: each row's cell for it is a
ruled line to write on (`lines` of them in its column), until the row gives it, or `values` does for rows
made from records (`values: {record id or name: {field: value}}`), so a user who has the real values
types them in once and every product prints them.

A value the source does not print is marked where it is given: `assumed: {field: reason}` on a row (or
on the piece it comes from), or on the table for that field of every row. Printed, such a value carries
a mark and its reason goes in the table's foot.
"""

from __future__ import annotations

from typing import Optional, Union

from pydantic import Field, model_validator

from .models import Record, Template
from .slots import slots

Scalar = Union[str, int, float, bool]


class TableColumn(Record):
    """A column: its heading and the text each row prints there (a template), or none for a line to write on."""

    heading: str = Field(min_length=1)
    text: Optional[Template] = None
    lines: int = Field(default=1, ge=1, le=6)  # ruled lines to write on, where a cell is left blank
    variants: Optional[str] = Field(default=None, min_length=1)  # a field listing variants: prints the game(s) a row holds for


class TableSource(Record):
    """The game's records a table's rows are made from."""

    records: str = Field(pattern="^(pieces|tiles|factions)$")
    where: dict[str, Union[Scalar, list[Scalar]]] = Field(default_factory=dict)


class Table(Record):
    """One reference table (see the module's docstring). The table's own `assumed` names fields of every row."""

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    cite: Optional[str] = None
    note: Optional[str] = None
    columns: list[TableColumn] = Field(min_length=1)
    rows: list[dict[str, Union[Scalar, dict[str, str], None]]] = Field(default_factory=list)
    from_: Optional[TableSource] = Field(default=None, alias="from")
    unprinted: dict[str, str] = Field(default_factory=dict)
    values: dict[str, dict[str, Union[Scalar, dict[str, str], None]]] = Field(default_factory=dict)

    model_config = {"populate_by_name": True}

    @model_validator(mode="after")
    def _assumed_fields_exist(self):
        if bool(self.rows) == (self.from_ is not None):
            raise ValueError("a table takes its rows either written out (rows) or from the game's records (from); give one")
        used = {name for col in self.columns if col.text for name in slots(col.text)}
        unknown = sorted(set(self.assumed) - used)
        if unknown:
            raise ValueError(f"assumed names field(s) no column prints: {', '.join(unknown)}")
        unknown = sorted(set(self.unprinted) - used)
        if unknown:
            raise ValueError(f"unprinted names field(s) no column prints: {', '.join(unknown)}")
        if self.values and self.from_ is None:
            raise ValueError("values fill rows made from the game's records (from); write a written-out row's values in the row")
        for key, given in self.values.items():
            reasons = given.get("assumed", {})
            if not isinstance(reasons, dict) or not all(isinstance(v, str) for v in reasons.values()):
                raise ValueError(f"values[{key!r}].assumed must map a field to a one-line reason")
            bad = sorted(set(given) - set(self.unprinted) - {"assumed"})
            if bad:
                raise ValueError(f"values[{key!r}] gives field(s) not named in unprinted: {', '.join(bad)}")
        for i, row in enumerate(self.rows):
            reasons = row.get("assumed", {})
            if not isinstance(reasons, dict) or not all(isinstance(v, str) for v in reasons.values()):
                raise ValueError(f"rows[{i}].assumed must map a field to a one-line reason")
            bad = sorted(set(reasons) - set(row))
            if bad:
                raise ValueError(f"rows[{i}].assumed names field(s) the row does not give: {', '.join(bad)}")
            if any(isinstance(v, dict) for k, v in row.items() if k != "assumed"):
                raise ValueError(f"rows[{i}]: a value is text, a number or true/false")
        return self


class TablesFile(Record):
    """tables.yaml: the game's reference tables, each with an id (unique in the file)."""

    tables: list[Table] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids_unique(self):
        ids = [t.id for t in self.tables]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise ValueError(f"table id(s) given twice: {', '.join(doubled)}")
        return self

    def table(self, table_id: str) -> Table:
        """The table with id `table_id`; KeyError when there is none."""
        for table in self.tables:
            if table.id == table_id:
                return table
        raise KeyError(table_id)
