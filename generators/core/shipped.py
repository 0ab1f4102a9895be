"""What a game ships worked out: answers that take seconds to work out from its data (where a map's places and
names go), saved in the game's folder so that the first command after an install does not pay for them.

A map laid out for counters is designed once and printed many times; the file is that design, kept as data.
Each answer is kept under its design key (core.game_cache): the key the cache would give it, with the code
left out, so that any change to the data it was worked out from gives another key and the answer is not used
(it is then worked out afresh and kept in the user's cache, as when nothing is shipped). Whether what is shipped
is still what the code works out is for `dossier map fit` to say, and the tests ask it.

The file, FILE in the game's folder: {"format": FORMAT, "answers": {design key: {part: value}}}. A missing,
unreadable or damaged file is a game that ships nothing; a damaged answer is worked out afresh where it is read.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .game_cache import read_json, recall

if TYPE_CHECKING:
    from .game import Game

FILE = "worked-out.json"
FORMAT = 1
CLOSE = 1e-6  # mm, or any unit: two worked-out numbers this near are the same answer (the last bits of a sum differ)


def read_shipped(folder: Path) -> dict[str, dict[str, Any]]:
    """The answers the game in `folder` ships, by design key; {} when it ships none or the file is damaged."""
    data = read_json(folder / FILE)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("answers"), dict):
        return {}
    return {key: parts for key, parts in data["answers"].items() if isinstance(key, str) and isinstance(parts, dict)}


def shipped_answers(game: Game) -> dict[str, dict[str, Any]]:
    """The answers `game` ships (read_shipped), read once per game."""
    if "shipped" not in game.derived:
        game.derived["shipped"] = read_shipped(game.folder)
    return game.derived["shipped"]


def recalled(key: str | None, design: str | None, shipped: dict[str, dict[str, Any]], part: str) -> Any:
    """What was kept as `part` under `key` in the user's cache, else what the game ships under `design`, or None."""
    found = recall(key, part)
    return found if found is not None or design is None else shipped.get(design, {}).get(part)


def shipped_as_text(answers: dict[str, dict[str, Any]]) -> str:
    """`answers` as the file's text: keys in order, so that the same answers give the same bytes."""
    return json.dumps({"format": FORMAT, "answers": answers}, sort_keys=True, separators=(",", ":")) + "\n"


def differing_parts(shipped: dict[str, dict[str, Any]], fresh: dict[str, dict[str, Any]]) -> list[str]:
    """The parts whose shipped answer is not the one worked out afresh, by part name: kept under another design
    key (a build would never find it), or another answer (numbers within CLOSE, shapes by their points within
    CLOSE); a part shipped twice or missing on either side differs."""
    def by_part(answers):
        named: dict[str, list] = {}
        for key, parts in answers.items():
            for part, value in parts.items():
                named.setdefault(part, []).append((key, value))
        return named

    mine, theirs = by_part(shipped), by_part(fresh)
    return sorted(part for part in set(mine) | set(theirs)
                  if len(mine.get(part, ())) != 1 or len(theirs.get(part, ())) != 1
                  or mine[part][0][0] != theirs[part][0][0] or not _same(mine[part][0][1], theirs[part][0][1]))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b or a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=CLOSE, abs_tol=CLOSE)
    if isinstance(a, str) and isinstance(b, str):
        return a == b or _same_shape(a, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return False


def _same_shape(a: str, b: str) -> bool:
    """True when `a` and `b` are two shapes (WKB in base64) whose points lie within CLOSE of each other, or that
    cover the same area to within CLOSE: GEOS versions differ in the zero-area spikes an overlay leaves on a ring."""
    import base64
    import binascii

    import shapely

    try:
        one, other = (shapely.from_wkb(base64.b64decode(text, validate=True)) for text in (a, b))
    except (binascii.Error, ValueError, shapely.errors.GEOSException):
        return False
    if shapely.equals_exact(one, other, tolerance=CLOSE):
        return True
    areal = one.area > 0 and other.area > 0
    try:
        return areal and one.symmetric_difference(other).area <= CLOSE
    except shapely.errors.GEOSException:
        return False
