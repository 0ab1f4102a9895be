"""Where in its file a problem's field is: the line and column of a YAML value, and the name of the record it is in.

A problem names a field by its path ("pieces[3].strength"); a person looks for it by line and by the
record's name ("Kurt"). Finding them reads the file again, which happens only when a problem is shown.
Spreadsheet rosters say where a field is themselves (see spreadsheets.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")
# The fields a person calls a record by, the first one it has.
NAMING_FIELDS = ("name", "id", "title", "label")
RECORD_NAME_CHARS = 40  # a longer name is cut where a message names its record


@dataclass(frozen=True)
class Place:
    """A line and column (from 1) in a file, and the name of the record holding the field, if it has one."""

    line: int
    column: int
    record: str | None = None
    sheet: str | None = None  # a spreadsheet's worksheet; a spreadsheet counts rows and names columns by letter
    column_name: str | None = None

    def shown(self) -> str:
        if self.column_name is not None or self.column == 0:
            parts = [f"sheet {self.sheet}" if self.sheet else "", f"row {self.line}",
                     f"column {self.column_name}" if self.column_name else ""]
        else:
            parts = [f"line {self.line}, column {self.column}"]
        return ", ".join(p for p in [self.record or "", *parts] if p)


def steps(where: str) -> list[str | int] | None:
    """("pieces", 3, "strength") from "pieces[3].strength"; None when `where` is not a field path."""
    found: list[str | int] = []
    position = 0
    for match in _STEP.finditer(where):
        if match.start() != position and where[position:match.start()] != ".":
            return None
        index, key = match.groups()
        found.append(int(index) if index is not None else key)
        position = match.end()
    return found if found and position == len(where) else None


@lru_cache(maxsize=16)
def _composed(path: str, stamp: tuple[int, int]) -> yaml.Node | None:
    from .errors import DossierError
    from .yamlio import read_bounded_text

    try:
        return yaml.compose(read_bounded_text(Path(path)), Loader=_Base)
    except (DossierError, yaml.YAMLError, RecursionError):
        return None


def _scalar(node: yaml.Node | None) -> str | None:
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _record_name(node: yaml.Node) -> str | None:
    if isinstance(node, yaml.MappingNode):
        fields = {_scalar(k): v for k, v in node.value}
        for field in NAMING_FIELDS:
            name = _scalar(fields.get(field))
            if name:
                return name if len(name) <= RECORD_NAME_CHARS else f"{name[:RECORD_NAME_CHARS]}..."
    return None


def _mark(node: yaml.Node, record: str | None) -> Place:
    return Place(node.start_mark.line + 1, node.start_mark.column + 1, record)


def yaml_place(file: Path, where: str) -> Place | None:
    """The place in the YAML `file` of the field at `where`: its key, or its item in a list; the deepest record
    found when the field is missing."""
    path = steps(where)
    if path is None or where.startswith("line "):  # a YAML syntax error's place is already in `where`
        return None
    try:
        stat = os.stat(file)
    except OSError:
        return None
    node = _composed(str(file), (stat.st_mtime_ns, stat.st_size))
    if node is None:
        return None
    record = None
    for i, step in enumerate(path):
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            record = record or _record_name(node)
        elif isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if _scalar(k) == str(step)), None)
            if pair is None:
                return _mark(node, record) if i else None
            key, node = pair
            if i == len(path) - 1:
                return _mark(key, record)
        else:
            return _mark(node, record)
    return _mark(node, record)


def place(file: Path, where: str) -> Place | None:
    """Where the field `where` of `file` is, for the files whose fields have lines; None when not found."""
    suffix = Path(file).suffix.lower()
    if not where or suffix not in (".yaml", ".yml", ".csv", ".xlsx"):
        return None
    if suffix in (".csv", ".xlsx"):
        from .spreadsheets import sheet_place

        return sheet_place(Path(file), where)
    return yaml_place(Path(file), where)
