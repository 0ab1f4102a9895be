"""Cross-checks across a game's files, each returning every problem at once with a stable code.

Each file has already been read into typed records; these checks are the ones no single
record can make: unique ids and names, known factions, kinds and cities, years within the
game's span, and counts adding up to the printed sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .errors import Problem
from .roster import TemplateError, faces

if TYPE_CHECKING:
    from .loader import Game

# Extra checks contributed by other modules (the map, the cards); each takes a Game.
EXTRA_CHECKS: list[Callable[["Game"], Iterable[Problem]]] = []


def check_game(game: "Game") -> list[Problem]:
    """Every problem found across the game's files; an empty list means the data is usable."""
    problems: list[Problem] = []
    problems += check_info(game)
    problems += check_pieces(game)
    problems += check_tiles(game)
    problems += check_aliases(game)
    for check in EXTRA_CHECKS:
        problems += check(game)
    return problems


def _duplicates(values: Iterable) -> set:
    return {v for v, n in Counter(values).items() if n > 1}


def check_info(game: "Game") -> list[Problem]:
    """Unique faction ids and codes; years in order without gaps or repeats; lists of known kinds."""
    file = game.file("game.yaml")
    info = game.info
    problems = []
    for what in ("id", "code"):
        values = [getattr(f, what) for f in info.factions if getattr(f, what)]
        for dup in sorted(_duplicates(values)):
            i = values.index(dup)
            problems.append(Problem(file, f"factions[{i}].{what}", f"{what} {dup!r} is used by more than one faction", "duplicate"))
    years = info.years
    if years and years != list(range(years[0], years[0] + len(years))):
        problems.append(Problem(file, "years", f"expected consecutive years in order, got {years}", "bad-years"))
    for name, kinds in info.lists.items():
        for j, kind in enumerate(kinds):
            if kind not in info.kinds:
                known = ", ".join(sorted(info.kinds)) or "none (game.yaml defines no kinds)"
                problems.append(Problem(file, f"lists.{name}[{j}]", f"unknown kind {kind!r}; known kinds: {known}", "unknown-kind"))
    return problems


def check_pieces(game: "Game") -> list[Problem]:
    """Known kinds and factions, unique names where the kind asks, faces that fill, the sheet total."""
    file = game.file("pieces.yaml")
    info = game.info
    if "pieces.yaml" not in game.records:
        if info.sheet_total is None:
            return []
        return [Problem(file, "", f"file not found: game.yaml says the sheet holds {info.sheet_total} pieces", "missing-file")]
    factions = {f.id for f in info.factions}
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    for i, piece in enumerate(game.pieces):
        where = f"pieces[{i}]"
        if piece.kind not in info.kinds:
            known = ", ".join(sorted(info.kinds)) or "none (game.yaml defines no kinds)"
            problems.append(Problem(file, f"{where}.kind", f"unknown kind {piece.kind!r}; known kinds: {known}", "unknown-kind"))
            continue
        if piece.nation is not None and piece.nation not in factions:
            problems.append(Problem(file, f"{where}.nation", f"unknown faction {piece.nation!r}; known: {', '.join(sorted(factions))}", "unknown-faction"))
            continue
        for variant in piece.games or []:
            if variant not in info.variants:
                problems.append(Problem(file, f"{where}.games", f"unknown game variant {variant!r}; known: {', '.join(info.variants)}", "unknown-variant"))
        kind = info.kinds[piece.kind]
        if kind.unique_by:
            key = (piece.kind,) + tuple(getattr(piece, f, None) for f in kind.unique_by)
            if key in seen:
                problems.append(Problem(file, where, f"duplicate {kind.label.lower()} {piece.name!r}: same {', '.join(kind.unique_by)} as pieces[{seen[key]}]", "duplicate"))
            else:
                seen[key] = i
        try:
            faces(game, piece)
        except TemplateError as exc:
            problems.append(Problem(file, where, f"a face of kind {piece.kind!r} names {exc.args[0]}", "bad-template"))
    names = [p.name for p in game.pieces if p.kind in info.kinds and info.kinds[p.kind].unique_by == ["name"]]
    for dup in sorted(_duplicates(names)):
        i = next(j for j, p in enumerate(game.pieces) if p.name == dup)
        problems.append(Problem(file, f"pieces[{i}].name", f"name {dup!r} is used by more than one piece", "duplicate"))
    if info.sheet_total is not None and not problems:
        total = game.count()
        if total != info.sheet_total:
            problems.append(Problem(file, "pieces", f"counts add up to {total}, but the sheet holds {info.sheet_total} ({info.sheet_total_note or 'game.yaml sheet_total'})", "bad-total"))
    return problems


def known_cities(game: "Game") -> set[str] | None:
    """The city names tiles may award to: the map's cities, or None when the game has no map."""
    game_map = game.records.get("map.yaml")
    if game_map is None:
        return None
    return {c.name for c in game_map.cities}


def check_tiles(game: "Game") -> list[Problem]:
    """Unique ids matching nation code and number, years within the game, award cities on the map."""
    if "tiles.yaml" not in game.records:
        return []
    file = game.file("tiles.yaml")
    info = game.info
    codes = {f.id: f.code for f in info.factions}
    cities = known_cities(game)
    problems: list[Problem] = []
    for dup in sorted(_duplicates(t.id for t in game.tiles)):
        i = next(j for j, t in enumerate(game.tiles) if t.id == dup)
        problems.append(Problem(file, f"tiles[{i}].id", f"id {dup!r} is used by more than one tile", "duplicate"))
    for dup in sorted(_duplicates(t.number for t in game.tiles)):
        i = next(j for j, t in enumerate(game.tiles) if t.number == dup)
        problems.append(Problem(file, f"tiles[{i}].number", f"number {dup} is used by more than one tile", "duplicate"))
    for i, tile in enumerate(game.tiles):
        where = f"tiles[{i}]"
        if tile.nation is not None and tile.nation not in codes:
            problems.append(Problem(file, f"{where}.nation", f"unknown faction {tile.nation!r}; known: {', '.join(sorted(codes))}", "unknown-faction"))
        else:
            prefix = codes.get(tile.nation) if tile.nation else info.tile_pool
            expected = f"{prefix} {tile.number}"
            if prefix and tile.id != expected:
                problems.append(Problem(file, f"{where}.id", f"expected {expected!r} for this nation and number, got {tile.id!r}", "bad-id"))
        for j, year in enumerate(tile.years):
            if info.years and year not in info.years:
                problems.append(Problem(file, f"{where}.years[{j}]", f"year {year} is outside the game's years {info.years[0]}–{info.years[-1]}", "bad-year"))
        if tile.years != sorted(set(tile.years)):
            problems.append(Problem(file, f"{where}.years", f"expected years in order without repeats, got {tile.years}", "bad-year"))
        for j, award in enumerate(tile.awards):
            for k, city in enumerate(award.cities):
                if cities is not None and city not in cities:
                    problems.append(Problem(file, f"{where}.awards[{j}].cities[{k}]", f"city {city!r} is not on the map", "unknown-city"))
            for dup in sorted(_duplicates(award.cities)):
                problems.append(Problem(file, f"{where}.awards[{j}].cities", f"city {dup!r} is listed twice", "duplicate"))
    return problems


def check_aliases(game: "Game") -> list[Problem]:
    """Every alias points at a name the game prints."""
    if "aliases.yaml" not in game.records:
        return []
    printed = {p.name for p in game.pieces} | {t.id for t in game.tiles}
    printed |= known_cities(game) or {c for t in game.tiles for a in t.awards for c in a.cities}
    file = game.file("aliases.yaml")
    return [
        Problem(file, f"aliases.{alias}", f"points at {target!r}, which is not a name in this game", "unknown-name")
        for alias, target in game.aliases.items()
        if target not in printed
    ]
