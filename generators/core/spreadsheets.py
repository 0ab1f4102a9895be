"""Rosters kept in a spreadsheet: pieces.csv or pieces.xlsx (tiles likewise) read into the document pieces.yaml would hold.

The first row names the fields, one column each; every other row is one record. An empty cell leaves its field
out. A cell becomes what its field holds: a whole number, true or false, text; a list is written with `;`
between its values ("short; long"), or as a YAML list in brackets, which a list of entries with fields of
their own needs ("[{amount: 2, kind: c, cities: [Paris, Moscow]}]"); an assumed value's reason goes in a
column `assumed.FIELD`. The document then goes through the same validation as YAML, and a problem names
the sheet, row and column it is in.

An .xlsx file is a zip of XML: one that would unpack to more than MAX_UNPACKED_BYTES is refused unopened.
"""

from __future__ import annotations

import csv
import difflib
import io
import os
import re
import typing
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from .errors import DataError, Problem
from .limits import MAX_FILE_BYTES, MAX_PIECES
from .locate import Place, steps
from .schema_errors import unwrapped
from .yamlio import load_text, read_bounded_text, refuse_unless_inside

SUFFIXES = (".csv", ".xlsx")
LIST_SEPARATOR = ";"
ASSUMED = "assumed."
MAX_ROWS = MAX_PIECES + 1  # a header and as many records as a game may print
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
MAX_COLUMNS = 1_000  # fields a record may have: a roster uses tens


@dataclass(frozen=True)
class Sheet:
    """A table as read: the header's field names and each record's cells, with the row each is on (from 1)."""

    file: Path
    name: str | None  # the worksheet of an .xlsx file
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[Any, ...]], ...]

    def column(self, field: str) -> str | None:
        """The column letter of `field`, or None when the header has no such column."""
        return column_letter(self.header.index(field)) if field in self.header else None


def column_letter(index: int) -> str:
    """"A" for 0, "Z" for 25, "AA" for 26: a column as a spreadsheet names it."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def is_spreadsheet(file: Path) -> bool:
    return file.suffix.lower() in SUFFIXES


def _problem(file: Path, where: str, message: str, code: str = "spreadsheet") -> DataError:
    return DataError([Problem(file, where, message, code)])


def _csv_rows(file: Path) -> tuple[None, list[tuple[int, list[Any]]]]:
    text = read_bounded_text(file, what="a spreadsheet", within=file.parent)
    text = text.removeprefix("\ufeff")  # the byte-order mark spreadsheet programs put before "CSV UTF-8"
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)  # a spreadsheet set for a decimal comma writes ";"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows = []
    try:
        for cells in reader:
            if len(rows) > MAX_ROWS:
                raise _problem(file, "", f"has more than {MAX_ROWS - 1:,} rows, more than any game prints", "too-large")
            rows.append((reader.line_num, _used(file, cells)))
    except csv.Error as exc:
        raise _problem(file, f"row {reader.line_num}", f"cannot read this CSV row: {exc}", "bad-csv") from None
    return None, rows


def _xlsx_rows(file: Path, table: str) -> tuple[str, list[tuple[int, list[Any]]]]:
    refuse_unless_inside(file, file.parent)
    try:
        size = os.stat(file).st_size
        if size > MAX_FILE_BYTES:
            raise _problem(file, "", f"is larger than {MAX_FILE_BYTES // 2**20} MB, the most a spreadsheet may be", "too-large")
        with zipfile.ZipFile(file) as archive:
            if sum(entry.file_size for entry in archive.infolist()) > MAX_UNPACKED_BYTES:
                raise _problem(file, "", f"would unpack to more than {MAX_UNPACKED_BYTES // 2**20} MB, more than a roster needs",
                               "too-large")
    except (zipfile.BadZipFile, OSError) as exc:
        raise _problem(file, "", f"is not an .xlsx workbook ({exc})", "bad-xlsx") from None
    from openpyxl import load_workbook  # loads only when a game keeps a roster in a workbook

    try:
        book = load_workbook(file, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged workbook; each is the file's fault
        raise _problem(file, "", f"cannot read this workbook: {exc}", "bad-xlsx") from None
    try:
        names = book.sheetnames
        sheet = book[table] if table in names else book[names[0]]
        rows = []
        try:
            sheet.reset_dimensions()  # rows as written, not padded to the size the file claims (up to column XFD)
            for number, cells in enumerate(sheet.iter_rows(values_only=True), 1):
                if number > MAX_ROWS:
                    raise _problem(file, "", f"sheet {sheet.title!r} has more than {MAX_ROWS - 1:,} rows, more than any "
                                   "game prints", "too-large")
                rows.append((number, _used(file, list(cells))))
        except DataError:
            raise
        except Exception as exc:  # the sheet's XML is read as the rows are: a damaged or hostile one fails here
            raise _problem(file, "", f"cannot read sheet {sheet.title!r} of this workbook: {exc}", "bad-xlsx") from None
        return sheet.title, rows
    finally:
        book.close()


def _used(file: Path, cells: list[Any]) -> list[Any]:
    """A row's cells up to its last one holding a value (a workbook pads every row to its widest); more
    than MAX_COLUMNS of them is refused, so a row of a million empty columns costs nothing."""
    end = len(cells)
    while end and _empty(cells[end - 1]):
        end -= 1
    if end > MAX_COLUMNS:
        raise _problem(file, "", f"a row uses {end:,} columns, more than the {MAX_COLUMNS:,} a roster may have", "too-large")
    return cells[:end]


def _empty(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def read_sheet(file: Path, table: str) -> Sheet:
    """The table in `file` (CSV, or the worksheet named `table` of an .xlsx file, else its first)."""
    file = Path(file)
    name, rows = _xlsx_rows(file, table) if file.suffix.lower() == ".xlsx" else _csv_rows(file)
    rows = [(number, cells) for number, cells in rows if not all(_empty(c) for c in cells)]
    if not rows:
        raise _problem(file, "", "the sheet is empty: its first row names the fields, one column each", "invalid")
    (header_row, header), records = rows[0], rows[1:]
    filled = {i for _, cells in records for i, cell in enumerate(cells) if not _empty(cell)}  # one pass, not one a column
    fields = []
    for i, cell in enumerate(header):
        text = "" if cell is None else str(cell).strip()
        where = f"row {header_row}, column {column_letter(i)}"
        if not text and i in filled:
            raise _problem(file, where, "this column holds values but names no field in the first row", "invalid")
        if text and text in fields:
            raise _problem(file, where, f"the field {text!r} is named by two columns", "duplicate")
        fields.append(text)
    for number, cells in records:
        if len(cells) > len(fields) and any(not _empty(c) for c in cells[len(fields):]):
            raise _problem(file, f"row {number}", f"has {len(cells)} cells but the first row names {len(fields)} fields", "invalid")
    return Sheet(file, name, tuple(fields), tuple((n, tuple(c)) for n, c in records))


# ---- cells into values ----

def _whole(cell: Any) -> Any:
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    if isinstance(cell, str) and re.fullmatch(r"\s*[+-]?\d{1,30}\s*", cell):
        return int(cell)
    return cell


def _flag(cell: Any) -> Any:
    if isinstance(cell, str) and cell.strip().lower() in ("true", "false"):
        return cell.strip().lower() == "true"
    return cell


def _text(cell: Any) -> Any:
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip() if isinstance(cell, (int, float, str)) else cell


class CellError(ValueError):
    """A cell that cannot be read as the list it should hold."""


def _listed(text: str) -> list:
    try:
        value = load_text(text)
    except DataError as exc:
        raise CellError(f"cannot read this cell as a list: {exc.problems[0].message}; write it like [a, b] or a; b") from None
    if not isinstance(value, list):
        raise CellError("cannot read this cell as a list; write it like [a, b] or a; b")
    return value


def _value(cell: Any, kind: Any) -> Any:
    """The cell as the field of type `kind` holds it; a cell that cannot be one is left for validation to refuse."""
    options = unwrapped(kind)
    for option in options:
        origin, args = typing.get_origin(option), typing.get_args(option)
        if origin is list and args:
            text = str(_text(cell))
            if text.lstrip().startswith("["):
                return _listed(text)
            return [_value(p.strip(), args[0]) for p in text.split(LIST_SEPARATOR) if p.strip()]
    if int in options and bool not in options:
        return _whole(cell)
    if bool in options:
        return _flag(cell)
    if str in options or any(typing.get_origin(o) is typing.Literal for o in options):
        return _text(cell)
    return cell


def document_of(sheet: Sheet, table: str, model: type[BaseModel]) -> dict:
    """The document pieces.yaml (or tiles.yaml) would hold for `sheet`: {table: [record, ...]}; a cell that
    cannot be read as its list raises DataError naming it."""
    records = unwrapped(model.model_fields[table].annotation)[0]
    record: type[BaseModel] = typing.get_args(records)[0]
    found, problems = [], []
    for i, (_, cells) in enumerate(sheet.rows):
        entry: dict[str, Any] = {}
        for field, cell in zip(sheet.header, cells):
            if not field or _empty(cell):
                continue
            if field.startswith(ASSUMED):
                entry.setdefault("assumed", {})[field[len(ASSUMED):]] = _text(cell)
            elif field in record.model_fields:
                try:
                    entry[field] = _value(cell, record.model_fields[field].annotation)
                except CellError as exc:
                    problems.append(Problem(sheet.file, f"{table}[{i}].{field}", str(exc), "bad-cell"))
            else:
                entry[field] = _text(cell)  # an unknown field: validation names it and the nearest one
        found.append(entry)
    if problems:
        raise DataError(problems)
    return {table: found}


# ---- reference cards: one row a card's item ----

# The columns of cards.csv: each row is one item of a card's section; a card's, side's or section's own
# cells (its title, heading...) are written on its first row, and an empty card, side or heading cell
# continues the row above, as a designer fills a sheet down.
CARD_COLUMNS = ("card", "title", "side", "side_title", "heading", "show", "columns", "text", "rules", "variant")
SIDES = ("front", "back")


def cards_document(sheet: Sheet) -> tuple[dict, dict[str, int]]:
    """The document cards.yaml would hold for `sheet` ({"cards": [...]}) and the sheet row of every card,
    side, section and item (by its field path, "cards[0].front.sections[1].items[0]"); a sheet that cannot
    be read as cards raises DataError naming its row and column."""
    unknown = [f for f in sheet.header if f and f not in CARD_COLUMNS]
    if unknown:
        near = difflib.get_close_matches(unknown[0], CARD_COLUMNS, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else f"; the columns are {', '.join(CARD_COLUMNS)}"
        raise _problem(sheet.file, f"column {sheet.column(unknown[0])}", f"{unknown[0]!r} is not a column of a cards sheet{hint}")
    cards: list[dict] = []
    rows: dict[str, int] = {}
    card = side = section = None
    where_side = where_section = ""
    for number, cells in sheet.rows:
        row = {field: cell for field, cell in zip(sheet.header, cells) if field and not _empty(cell)}
        place = f"row {number}, column "

        def given(field: str, into: dict, key: str | None = None) -> None:
            key = key or field
            value = _text(row[field])
            if key in into and into[key] != value:
                raise _problem(sheet.file, place + f"{sheet.column(field)} ({field})",
                               f"{value!r} differs from {into[key]!r}, given above for the same {key.split('_')[0]}")
            into[key] = value

        if "card" in row and (card is None or _text(row["card"]) != card["id"]):
            card = {"id": _text(row["card"])}
            cards.append(card)
            rows[f"cards[{len(cards) - 1}]"] = number
            side = section = None
        if card is None:
            raise _problem(sheet.file, place + "A (card)", "the first row names no card: write the card's id")
        if "title" in row:
            given("title", card)
        name = _text(row.get("side", side[0] if side else "front")).lower()
        if name not in SIDES:
            raise _problem(sheet.file, place + f"{sheet.column('side')} (side)", f"{name!r} is not a side: write front or back")
        if side is None or side[0] != name:
            if name in card:
                raise _problem(sheet.file, place + f"{sheet.column('side')} (side)",
                               f"card {card['id']!r} has its {name} already, above: keep a side's rows together")
            side = (name, {"sections": []})
            card[name] = side[1]
            where_side = f"cards[{len(cards) - 1}].{name}"
            rows[where_side] = number
            section = None
        if "side_title" in row:
            given("side_title", side[1], "title")
        if "heading" in row and (section is None or _text(row["heading"]) != section["heading"]):
            section = {"heading": _text(row["heading"]), "items": []}
            side[1]["sections"].append(section)
            where_section = f"{where_side}.sections[{len(side[1]['sections']) - 1}]"
            rows[where_section] = number
        for field in ("show", "columns"):
            if field in row:
                if section is None:
                    raise _problem(sheet.file, place + f"{sheet.column(field)} ({field})", "names no section: write its heading")
                section[field] = _text(row[field]) if field == "show" else [str(v) for v in _value(row[field], list[str])]
        if "text" in row:
            if section is None:
                raise _problem(sheet.file, place + f"{sheet.column('text')} (text)", "an item needs a section: write its heading")
            item: dict[str, Any] = {"text": _text(row["text"])}
            if "rules" in row:
                item["rules"] = [str(v) for v in _value(row["rules"], list[str])]
            if "variant" in row:
                item["variant"] = _text(row["variant"])
            section["items"].append(item)
            rows[f"{where_section}.items[{len(section['items']) - 1}]"] = number
    return {"cards": cards}, rows


# ---- where a problem is ----

@lru_cache(maxsize=16)
def _sheet(path: str, stamp: tuple[int, int], table: str) -> Sheet | None:
    try:
        return read_sheet(Path(path), table)
    except DataError:
        return None


def sheet_place(file: Path, where: str) -> Place | None:
    """The sheet, row and column of the field at `where` ("pieces[3].strength") in a spreadsheet roster."""
    path = steps(where)
    if not path or not isinstance(path[0], str) or len(path) < 2 or not isinstance(path[1], int):
        return None
    try:
        stat = os.stat(file)
    except OSError:
        return None
    sheet = _sheet(str(file), (stat.st_mtime_ns, stat.st_size), path[0])
    if sheet is not None and path[0] == "cards":
        return _card_place(sheet, where)
    if sheet is None or path[1] >= len(sheet.rows):
        return None
    number, cells = sheet.rows[path[1]]
    name = next((str(cells[sheet.header.index(f)]) for f in ("name", "id") if f in sheet.header
                 and sheet.header.index(f) < len(cells) and not _empty(cells[sheet.header.index(f)])), None)
    column = None
    if len(path) > 2 and isinstance(path[2], str):
        field = path[2] if path[2] in sheet.header else f"{ASSUMED}{path[3]}" if path[2] == "assumed" and len(path) > 3 else None
        letter = sheet.column(field) if field else None
        column = f"{letter} ({field})" if letter else None
    return Place(number, 0, name, sheet=sheet.name, column_name=column)


def _card_place(sheet: Sheet, where: str) -> Place | None:
    """The row (and column) of the field at `where` in a cards sheet: its item's, section's, side's or card's row."""
    try:
        document, rows = cards_document(sheet)
    except DataError:
        return None
    prefix = next((p for p in sorted(rows, key=len, reverse=True) if where == p or where.startswith(p + ".")), None)
    if prefix is None:
        return None
    rest = where[len(prefix):].lstrip(".").split(".")[0].split("[")[0]
    field = {"title": "side_title" if prefix.endswith(SIDES) else "title", "id": "card"}.get(rest, rest)
    letter = sheet.column(field) if field in CARD_COLUMNS else None
    card = document["cards"][int(prefix[6:].split("]")[0])]["id"]
    return Place(rows[prefix], 0, card, sheet=sheet.name, column_name=f"{letter} ({field})" if letter else None)


# ---- values into cells: a YAML roster written as a sheet ----

def _cell(value: Any) -> Any:
    if isinstance(value, list):
        plain = all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value)
        texts = [str(v) for v in value]
        if plain and value and not any(LIST_SEPARATOR in t or t.strip() != t or t.startswith("[") for t in texts):
            return f"{LIST_SEPARATOR} ".join(texts)
        return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**9).strip()
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def table_of(document: dict, table: str) -> tuple[list[str], list[list[Any]]]:
    """The header and rows a sheet holds for the document of pieces.yaml or tiles.yaml (its `table` list)."""
    header: list[str] = []
    for entry in document[table]:
        for field, value in entry.items():
            names = [f"{ASSUMED}{k}" for k in value] if field == "assumed" else [field]
            header += [n for n in names if n not in header]
    rows = []
    for entry in document[table]:
        flat = {f"{ASSUMED}{k}": v for k, v in entry.get("assumed", {}).items()} | {k: v for k, v in entry.items() if k != "assumed"}
        rows.append([_cell(flat[f]) if f in flat else None for f in header])
    return header, rows


def write_sheet(document: dict, table: str, file: Path) -> None:
    """Write `document`'s `table` as a CSV (UTF-8) or .xlsx file, by `file`'s suffix."""
    header, rows = table_of(document, table)
    if file.suffix.lower() == ".xlsx":
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        sheet.title = table
        for row in [header, *rows]:
            sheet.append(row)
        book.save(file)
        return
    with open(file, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
