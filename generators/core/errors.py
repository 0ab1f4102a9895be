"""The exceptions Dossier raises. Every one of them is a refusal the CLI reports with exit code 2."""

from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from .limits import shown
from .locate import place
from .paths import data_root

# A message longer than this is cut (its values should already be; this catches any that are not).
MAX_MESSAGE = 400
# Problems with the same message in one file are reported once, naming this many of the other places.
PLACES_NAMED = 3
# A report lists at most this many lines, then says how many more problems there are.
LINES_SHOWN = 100


def cut(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text`, or its start and end around a note of how much was cut when longer than `limit` characters."""
    if len(text) <= limit:
        return text
    head, tail = limit * 2 // 3, limit // 3
    return f"{text[:head]} [... {len(text) - head - tail:,} characters cut ...] {text[-tail:]}"


class DossierError(Exception):
    """A request Dossier refuses: bad data, an unknown name, an impossible option."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a data file: where it is and what is wrong, with a stable code."""

    file: Path
    where: str
    message: str
    code: str = "invalid"

    def __str__(self) -> str:
        return self.shown()

    def shown(self, others: list[str] | tuple[str, ...] = ()) -> str:
        """The problem as one line: file, field, message; `others` are more places with the same message."""
        where = cut(self.where, 120)
        if others:
            named = ", ".join(cut(o, 120) for o in others[:PLACES_NAMED])
            more = f" and {len(others) - PLACES_NAMED:,} more" if len(others) > PLACES_NAMED else ""
            where = f"{where} (also {named}{more})"
        location = f"{display_path(self.file)}: {where}" if where else display_path(self.file)
        found = place(self.file, self.where)
        return f"{location}: {cut(self.message)}" + (f" ({found.shown()})" if found else "")


def report(problems: list[Problem]) -> str:
    """The problems one per line, in order; a message repeated in one file is one line naming its places."""
    places: dict[tuple[Path, str], list[Problem]] = {}
    for problem in problems:
        places.setdefault((problem.file, problem.message), []).append(problem)
    lines = [group[0].shown([p.where for p in group[1:]]) for group in islice(places.values(), LINES_SHOWN)]
    if len(places) > LINES_SHOWN:
        lines.append(f"... and {len(places) - LINES_SHOWN:,} more problems")
    return "\n".join(lines)


class DataError(DossierError):
    """Game or layout data that cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__(report(problems))


class OutputError(DossierError):
    """A file or folder that could not or may not be written; nothing half-written is left."""


class UnknownNameError(DossierError, LookupError):
    """A name (game, city, piece, tile...) that is not in the data; offers the closest ones."""

    def __init__(self, what: str, name: str, suggestions: list[str] | None = None):
        self.what = what
        self.name = name
        self.suggestions = suggestions or []
        hint = f"; did you mean {', '.join(shown(s) for s in self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown {what} {shown(name)}{hint}")


class OptionError(DossierError, ValueError):
    """A command-line value that cannot be understood (a length, a paper size, a format)."""


def display_path(path: Path) -> str:
    """The path as a user would read it: shipped data as "components/mygame/tiles.yaml",
    other files relative to the current folder when inside it, else in full."""
    path = Path(os.path.normpath(os.path.abspath(path)))  # the path as given: a link is not followed to its target
    here = Path.cwd().resolve()
    for root in (data_root(), here):
        try:
            shown = path.relative_to(root)
        except ValueError:
            continue
        if root != here and (here / shown).exists() and not _same_file(here / shown, path):
            return str(path)  # "components/mygame/map.yaml" would name the current folder's copy, not the one read
        return str(shown)
    return str(path)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
