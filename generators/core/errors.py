"""The exceptions Dossier raises. Every one of them is a refusal the CLI reports with exit code 2."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .paths import data_root


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
        location = f"{display_path(self.file)}: {self.where}" if self.where else display_path(self.file)
        return f"{location}: {self.message}"


class DataError(DossierError):
    """Game or layout data that cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class UnknownNameError(DossierError, LookupError):
    """A name (game, city, piece, tile...) that is not in the data; offers the closest ones."""

    def __init__(self, what: str, name: str, suggestions: list[str] | None = None):
        self.what = what
        self.name = name
        self.suggestions = suggestions or []
        hint = f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"unknown {what} {name!r}{hint}")


class OptionError(DossierError, ValueError):
    """A command-line value that cannot be understood (a length, a paper size, a format)."""


def display_path(path: Path) -> str:
    """The path as a user would read it: shipped data as "components/spies/tiles.yaml",
    other files relative to the current folder when inside it, else in full."""
    path = Path(path).resolve()
    for root in (data_root(), Path.cwd().resolve()):
        try:
            return str(path.relative_to(root))
        except ValueError:
            continue
    return str(path)
