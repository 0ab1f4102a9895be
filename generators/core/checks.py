"""Cross-checks across a game's files, each returning every problem at once with a stable code.

Each file has already been read into typed records; these checks are the ones no single
record can make: unique ids and names, known factions, kinds and cities, tiles as their game
declares them, counts adding up to the printed sheet, and every size and colour the game's
kinds ask for present in its layout preset (a typo there would otherwise pass validation and
fail, or print in the fallback colour, only at build time).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import paths
from .errors import DataError, Problem, UnknownNameError
from .faces import NATION, TemplateError, faces
from .layouts import preset_chain, preset_file, setting_file
from .limits import MAX_LENGTH, MAX_PIECES, shown
from .models import Piece
from .names import NameIndex, normalise
from .slots import slots, template_problem
from .tile_text import first_filled, tile_cities, tile_values

if TYPE_CHECKING:
    from .game import Game

def _duplicates(values: Iterable) -> set:
    return {v for v, n in Counter(values).items() if n > 1}


def faction_problems(game: "Game") -> list[Problem]:
    """Faction ids or codes given twice, each reported where it is given the second time.

    Pieces, tiles, the map and the layout name factions by id and code; while these are
    ambiguous, validation reports only game.yaml's problems, so one root problem is reported
    once, not once per piece, tile and city.
    """
    problems = []
    for what in ("id", "code"):
        seen: dict[str, int] = {}
        for i, faction in enumerate(game.info.factions):
            value = getattr(faction, what)
            if value and value in seen:
                problems.append(Problem(game.file("game.yaml"), f"factions[{i}].{what}",
                                        f"{what} {shown(value)} is already used by factions[{seen[value]}]", "duplicate"))
            elif value:
                seen[value] = i
    return problems


def check_info(game: "Game") -> list[Problem]:
    """Unique faction ids and codes; years in order without gaps or repeats; kinds told apart by real
    piece fields; lists of known kinds."""
    file = game.file("game.yaml")
    info = game.info
    problems = []
    problems += faction_problems(game)
    years = info.years
    if years and years != list(range(years[0], years[0] + len(years))):
        problems.append(Problem(file, "years", f"expected consecutive years in order, got {years}", "bad-years"))
    fields = (set(Piece.model_fields) | set(info.piece_fields)) - {"assumed"}
    for name, kind in info.kinds.items():
        for j, field in enumerate(kind.unique_by):
            if field not in fields:
                known = ", ".join(sorted(fields))
                problems.append(Problem(file, f"kinds.{name}.unique_by[{j}]", f"names unknown piece field {shown(field)}; known: {known}", "unknown-field"))
        for side, face in (("front", kind.front), ("back", kind.back)):
            for field in face.colour_by if face else ():
                if field not in fields:
                    known = ", ".join(sorted(fields))
                    problems.append(Problem(file, f"kinds.{name}.{side}.colour_by.{field}",
                                            f"names unknown piece field {shown(field)}; known: {known}", "unknown-field"))
    problems += _template_problems(game)
    for name, kinds in info.lists.items():
        for j, kind in enumerate(kinds):
            if kind not in info.kinds:
                known = ", ".join(sorted(info.kinds)) or "none (game.yaml defines no kinds)"
                problems.append(Problem(file, f"lists.{name}[{j}]", f"unknown kind {kind!r}; known kinds: {known}", "unknown-kind"))
    return problems


# Slots a face may fill besides the pieces' fields: the faction's id, code and name in capitals (see templates.py).
FACTION_SLOTS = ("nation_id", "nation_code", "NATION")
FACE_TEXTS = ("title", "value", "text", "symbol", "art")


def _template_problems(game: "Game") -> list[Problem]:
    """A face slot naming no piece field, reported once where the kind is declared, with the nearest field."""
    info = game.info
    fields = (set(Piece.model_fields) | set(info.piece_fields) | set(FACTION_SLOTS)) - {"assumed"}
    index = NameIndex("piece field", sorted(fields))
    problems = []
    for name, kind in info.kinds.items():
        for side, face in (("front", kind.front), ("back", kind.back)):
            for part in FACE_TEXTS if face else ():
                text = getattr(face, part)
                for slot in dict.fromkeys(slots(text) if text and template_problem(text) is None else []):
                    if slot not in fields:
                        near = [f for f in difflib.get_close_matches(slot, sorted(fields), n=1, cutoff=0.6)] or index.closest(slot, 1)
                        hint = f"; did you mean {{{near[0]}}}?" if near else f"; known: {', '.join(sorted(fields))}"
                        problems.append(Problem(game.file("game.yaml"), f"kinds.{name}.{side}.{part}",
                                                f"{{{slot}}} is not a piece field{hint}", "unknown-field"))
    return problems


def _kinds_with_bad_templates(game: "Game") -> set[str]:
    return {p.where.split(".")[1] for p in _template_problems(game)}


def check_pieces(game: "Game") -> list[Problem]:
    """Known kinds and factions, unique names where the kind asks, faces that fill, the sheet total."""
    file = game.file("pieces.yaml")
    info = game.info
    if not game.has_file("pieces.yaml"):
        if info.sheet_total is None:
            return []
        return [Problem(file, "", f"file not found: game.yaml says the sheet holds {info.sheet_total} pieces", "missing-file")]
    factions = {f.id for f in info.factions}
    problems: list[Problem] = []
    total = game.count()
    if total > MAX_PIECES:
        return [Problem(file, "pieces", f"counts add up to {total:,} pieces; Dossier prints at most {MAX_PIECES:,} for one game", "too-many")]
    seen: dict[tuple, int] = {}
    reported = _kinds_with_bad_templates(game)  # game.yaml's problem, reported there once, not once per piece
    for i, piece in enumerate(game.pieces):
        where = f"pieces[{i}]"
        if piece.kind not in info.kinds:
            known = ", ".join(sorted(info.kinds)) or "none (game.yaml defines no kinds)"
            problems.append(Problem(file, f"{where}.kind", f"unknown kind {shown(piece.kind)}; known kinds: {known}", "unknown-kind"))
            continue
        if piece.nation is not None and piece.nation not in factions:
            problems.append(Problem(file, f"{where}.nation", f"unknown faction {shown(piece.nation)}; known: {', '.join(sorted(factions))}", "unknown-faction"))
            continue
        for variant in piece.games or []:
            if variant not in info.variants:
                problems.append(Problem(file, f"{where}.games", f"unknown game variant {shown(variant)}; known: {', '.join(info.variants)}", "unknown-variant"))
        kind = info.kinds[piece.kind]
        if kind.unique_by:
            key = (piece.kind,) + tuple(getattr(piece, f, None) for f in kind.unique_by)
            if key in seen:
                problems.append(Problem(file, where, f"duplicate {kind.label.lower()} {shown(piece.name)}: same {', '.join(kind.unique_by)} as pieces[{seen[key]}]", "duplicate"))
            else:
                seen[key] = i
        try:
            if piece.kind not in reported:
                faces(game, piece)
        except TemplateError as exc:
            problems.append(Problem(file, where, f"a face of kind {piece.kind!r} names {exc.args[0]}", "bad-template"))
    names = [p.name for p in game.pieces if p.kind in info.kinds and info.kinds[p.kind].unique_by == ["name"]]
    for dup in sorted(_duplicates(names)):
        i = next(j for j, p in enumerate(game.pieces) if p.name == dup)
        problems.append(Problem(file, f"pieces[{i}].name", f"name {shown(dup)} is used by more than one piece", "duplicate"))
    if info.sheet_total is not None and not problems:
        if total != info.sheet_total:
            problems.append(Problem(file, "pieces", f"counts add up to {total}, but the sheet holds {info.sheet_total} ({info.sheet_total_note or 'game.yaml sheet_total'})", "bad-total"))
    return problems


def known_cities(game: "Game") -> set[str] | None:
    """The city names tiles may name: the map's cities, or None when the game has no map."""
    if game.map is None:
        return None
    return {c.name for c in game.map.cities}


def check_tiles(game: "Game") -> list[Problem]:
    """Each tile as its game declares tiles: unique ids and unique fields, known factions, the id its
    templates give, values within their limits, cities on the map."""
    if not game.has_file("tiles.yaml"):
        return []
    file = game.file("tiles.yaml")
    declared = game.info.tiles
    if declared is None:
        return [Problem(file, "tiles", "game.yaml declares no `tiles`: say what fields a tile carries and what its "
                        "front prints", "undeclared-tiles")]
    problems: list[Problem] = []
    for name in ["id", *(f for f, spec in declared.fields.items() if spec.unique)]:
        for dup in sorted(_duplicates(getattr(t, name) for t in game.tiles), key=str):
            i = next(j for j, t in enumerate(game.tiles) if getattr(t, name) == dup)
            problems.append(Problem(file, f"tiles[{i}].{name}", f"{name} {shown(dup)} is used by more than one tile", "duplicate"))
    cities = known_cities(game)
    for i, tile in enumerate(game.tiles):
        where = f"tiles[{i}]"
        problems += _tile_values_problems(game, file, where, tile, declared.fields)
        if declared.id and not any(p.where.startswith(f"{where}.") and p.code == "unknown-faction" for p in problems):
            expected = first_filled(declared.id, tile_values(game, tile))
            if expected is not None and tile.id != expected:
                problems.append(Problem(file, f"{where}.id", f"expected {expected!r} from this tile's fields, got {shown(tile.id)}", "bad-id"))
        for field, city in tile_cities(game, tile):
            if cities is not None and city not in cities:
                near = NameIndex("city", sorted(cities)).closest(city, 1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                problems.append(Problem(file, f"{where}.{field}", f"city {shown(city)} is not on the map{hint}", "unknown-city"))
    return problems


def _tile_values_problems(game: "Game", file: Path, where: str, record, fields: dict) -> list[Problem]:
    """The limits `fields` declare, broken by one tile (or one entry of a tile's list)."""
    problems = []
    factions = {f.id for f in game.info.factions}
    for name, spec in fields.items():
        value, at = getattr(record, name), f"{where}.{name}"
        if spec.type == "faction" and value is not None and value not in factions:
            problems.append(Problem(file, at, f"unknown faction {shown(value)}; known: {', '.join(sorted(factions))}", "unknown-faction"))
        elif spec.type == "ints":
            for j, number in enumerate(value):
                if (spec.min is not None and number < spec.min) or (spec.max is not None and number > spec.max):
                    problems.append(Problem(file, f"{at}[{j}]", f"{number} is outside {spec.min}–{spec.max}", "out-of-range"))
        elif spec.type == "list":
            for j, entry in enumerate(value):
                problems += _tile_values_problems(game, file, f"{at}[{j}]", entry, spec.fields)
        if spec.type in ("ints", "texts") and spec.ordered and value != sorted(set(value)):
            problems.append(Problem(file, at, f"expected values in order without repeats, got {value}", "out-of-order"))
        elif spec.type in ("ints", "texts") and spec.distinct:
            for dup in sorted(_duplicates(value), key=str):
                problems.append(Problem(file, at, f"{shown(dup)} is listed twice", "duplicate"))
    return problems


def check_aliases(game: "Game") -> list[Problem]:
    """Every alias points at a name the game prints."""
    if not game.has_file("aliases.yaml"):
        return []
    printed = {p.name for p in game.pieces} | {t.id for t in game.tiles}
    printed |= known_cities(game) or {c for t in game.tiles for _, c in tile_cities(game, t)}
    file = game.file("aliases.yaml")
    problems = [
        Problem(file, f"aliases.{alias}", f"points at {shown(target)}, which is not a name in this game", "unknown-name")
        for alias, target in game.aliases.items()
        if target not in printed
    ]
    first: dict[str, str] = {normalise(name): name for name in printed}
    for alias, target in game.aliases.items():
        key = normalise(alias)
        clash = first.get(key)
        if clash is not None and game.aliases.get(clash, clash) != target:
            what = "alias" if clash in game.aliases else "printed name"
            problems.append(Problem(file, f"aliases.{alias}", f"clashes with the {what} {shown(clash)}: names are looked up "
                                    "regardless of case, accents and punctuation, so one spelling cannot lead to two names", "alias-clash"))
        first.setdefault(key, alias)
    return problems


def _numbers(document: dict, path: tuple[str, ...] = ()) -> Iterable[tuple[tuple[str, ...], float]]:
    for key, value in document.items():
        if isinstance(value, dict):
            yield from _numbers(value, path + (str(key),))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            yield path + (str(key),), value


def check_layout(game: "Game") -> list[Problem]:
    """Every size and colour the game's kinds name, missing from its layout preset."""
    file = game.file("game.yaml")
    try:
        layout = game.layout
    except UnknownNameError as exc:
        return [Problem(file, "layout", f"{exc}; presets are looked for in the game folder's layouts/ and then the shared layouts/", "unknown-layout")]
    except DataError as exc:
        return list(exc.problems)
    preset = preset_file(game.info.layout, game.folder)
    chain = preset_chain(game.info.layout, game.folder)
    problems: list[Problem] = []
    for path, value in _numbers(layout.model_dump(exclude={"assumed"})):
        if abs(value) > MAX_LENGTH:
            shared_papers = paths.layouts_dir() / "paper.yaml" if path[0] == "papers" else preset
            problems.append(Problem(setting_file(chain, path) or shared_papers, ".".join(path),
                                    f"{value:g} is beyond any length (mm) or type size (pt) a sheet can hold; "
                                    f"at most {MAX_LENGTH:g}", "absurd-size"))
    if layout.paper not in NameIndex("paper size", layout.papers):
        where = setting_file(chain, ("paper",)) or preset
        problems.append(Problem(where, "paper", f"unknown paper size {shown(layout.paper)}; known: {', '.join(layout.papers)}", "unknown-paper"))
    for name, kind in game.info.kinds.items():
        if kind.size not in layout.sizes:
            known = ", ".join(sorted(layout.sizes)) or "none"
            problems.append(Problem(file, f"kinds.{name}.size", f"size {kind.size!r} is not in layout preset {preset.name} (sizes: {known})", "unknown-size"))
        reported: set[str] = set()
        for face_name, face in (("front", kind.front), ("back", kind.back)):
            if face is None:
                continue
            if face.colour == NATION:
                factions = {f.id for f in game.info.factions}  # unknown factions are reported by check_pieces
                wanted = sorted({p.nation for p in game.pieces if p.kind == name and p.nation in factions})
            else:
                wanted = [face.colour]
            wanted += [c for c in face.colours()[1:] if c not in wanted]
            for colour in wanted:
                if colour not in layout.colours and colour not in reported:
                    reported.add(colour)
                    problems.append(Problem(file, f"kinds.{name}.{face_name}.colour",
                                            f"colour {colour!r} is not in layout preset {preset.name} (colours: {', '.join(sorted(layout.colours))})",
                                            "unknown-colour"))
    return problems

