"""Finding things by name the way people type them: any case, with or without accents, other spellings."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from .errors import UnknownNameError

FEW = 12  # a miss with nothing close lists every name when there are no more than this

_PUNCTUATION = re.compile(r"[\s'’\-_.·]+")


def fold(text: str) -> str:
    """`text` in lower case without accents, so "Genève" and "geneve" match."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def normalise(name: str) -> str:
    """The key two spellings share when they differ only in case, accents, spaces or punctuation."""
    return _PUNCTUATION.sub("", fold(name))


class NameIndex:
    """Printed names plus aliases, looked up forgivingly; a miss suggests the closest printed names."""

    def __init__(self, what: str, names: Iterable[str], aliases: dict[str, str] | None = None):
        self.what = what
        self._by_key: dict[str, str] = {}
        for name in names:
            self._by_key.setdefault(normalise(name), name)
        self._printed = set(self._by_key.values())
        for alias, printed in (aliases or {}).items():
            if printed in self._printed:
                self._by_key.setdefault(normalise(alias), printed)

    def __contains__(self, name: str) -> bool:
        return normalise(name) in self._by_key

    def find(self, name: str) -> str | None:
        """The printed name for `name`, or None."""
        return self._by_key.get(normalise(name))

    def resolve(self, name: str) -> str:
        """The printed name for `name`; raises UnknownNameError with the closest names on a miss
        (every name, when none is close and there are only a few to choose from)."""
        found = self.find(name)
        if found is None:
            few = sorted(self._printed) if len(self._printed) <= FEW else []
            raise UnknownNameError(self.what, name, self.closest(name) or few)
        return found

    def closest(self, name: str, n: int = 3) -> list[str]:
        """Up to `n` printed names nearest to `name`, best first."""
        keys = difflib.get_close_matches(normalise(name), list(self._by_key), n=n * 3, cutoff=0.6)
        found: list[str] = []
        for key in keys:
            printed = self._by_key[key]
            if printed not in found:
                found.append(printed)
        return found[:n]
