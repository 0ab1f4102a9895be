"""Reference cards as data: cards.yaml read into typed records, derived sections filled from the game's records.

A card has a front and a back; each side holds sections of short rule summaries, each citing
the rule it rests on and naming the game variant it applies to (None: every variant). A
section may instead (or also) be filled from the game's own records at build time through a
named derivation declared in the same file, so tables such as "tiles by turn" are never retyped.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .card_models import Card, Derivation, Item, Section
from .errors import Problem
from .limits import MAX_TEXT
from .models import ASSUMED_MARK, Faction, Piece, Tile
from .slots import slots
from .templates import as_text, fill, record_values

if TYPE_CHECKING:
    from .game import Game

NO_BREAK = "\u00a0"
WRITE_IN = "________"


class DerivationError(ValueError):
    """A derivation names a field its records do not have."""


def variant_label(game: "Game", variant: str | None) -> str | None:
    """How the cards name `variant` ("Long Game"), falling back to the variant's id; None for every variant."""
    if variant is None:
        return None
    found = game.cards
    return (found.variants.get(variant) if found else None) or variant


def _source_records(game: "Game", name: str) -> list[BaseModel]:
    return {"pieces": game.pieces, "tiles": game.tiles, "factions": list(game.info.factions)}[name]


def _fill(template: str, values: dict[str, Any]) -> str:
    """`template` filled from a record's values (see templates.py); a field the record lacks is refused."""
    missing = [name for name in slots(template) if name not in values]
    if missing:
        raise DerivationError(f"names unknown field {missing[0]!r}; known: {', '.join(sorted(values))}")
    return fill(template, values)


def _matches(values: dict[str, Any], where: dict[str, Any]) -> bool:
    for field, wanted in where.items():
        if field not in values:
            raise DerivationError(f"where names unknown field {field!r}; known: {', '.join(sorted(values))}")
        allowed = wanted if isinstance(wanted, list) else [wanted]
        if values[field] not in allowed:
            return False
    return True


def _group_keys(values: dict[str, Any], field: str) -> list:
    if field not in values:
        raise DerivationError(f"group_by names unknown field {field!r}; known: {', '.join(sorted(values))}")
    key = values[field]
    if key is None:
        return []
    return list(key) if isinstance(key, list) else [key]


def _record_text(spec: Derivation, row: dict, assumed: frozenset[str] = frozenset()) -> str:
    lacking = spec.blank is not None and any(row.get(name) in (None, "") for name in slots(spec.item))
    if spec.mark_assumed:
        if spec.variant_from in assumed:  # which game a record belongs to is a reading: its name carries the mark
            assumed = assumed | {"name"}
        row = row | {name: f"{as_text(row[name])}{spec.mark_assumed}" for name in assumed
                     if name in row and row[name] not in (None, "")}
    text = _fill(spec.blank if lacking else spec.item, row)
    return text.replace(" ", NO_BREAK) if spec.unbreakable else text


def derive_items(game: "Game", spec: Derivation) -> list[Item]:
    """The items `spec` makes from the game's records, in the order it asks for."""
    records = [(record_values(game, r), frozenset(getattr(r, "assumed", None) or {}))
               for r in _source_records(game, spec.records)]
    records = [(row, assumed) for row, assumed in records if _matches(row, spec.where)]
    if spec.sort_by:
        records.sort(key=lambda r: (r[0].get(spec.sort_by) is None, r[0].get(spec.sort_by) or 0))
    if spec.group_by is None:
        return [Item(text=_bounded(_record_text(spec, row, assumed)), rules=spec.rules, variant=_variant(game, row, spec),
                     **_leads(spec, row)) for row, assumed in records]
    groups: dict[Any, list[tuple[dict, frozenset[str]]]] = {}
    for row, assumed in records:
        for key in _group_keys(row, spec.group_by):
            groups.setdefault(key, []).append((row, assumed))
    keys = list(groups)
    if spec.order != "listed":
        keys.sort(reverse=spec.order == "descending")
    items: list[Item] = []
    if spec.together:
        everywhere = [(row, assumed) for row, assumed in records if set(keys) <= set(_group_keys(row, spec.group_by))]
        if everywhere and len(keys) > 1:
            items.append(_group_item(spec, spec.together, everywhere, {"group": spec.together}))
            groups = {k: [m for m in members if not any(m[0] is e for e, _ in everywhere)] for k, members in groups.items()}
    for key in keys:
        if groups[key]:
            items.append(_group_item(spec, spec.label, groups[key], groups[key][0][0] | {"group": key}))
    return items


def _group_item(spec: Derivation, label: str, members: list[tuple[dict, frozenset[str]]], label_values: dict) -> Item:
    """One item for a group of (record, its assumed fields); its symbol and swatch from the group's first record."""
    joined = spec.separator.join(_record_text(spec, row, assumed) for row, assumed in members)
    return Item(text=_bounded(f"{_fill(label, label_values)} {joined}", len(members)), rules=spec.rules,
                **_leads(spec, members[0][0]))


def _leads(spec: Derivation, row: dict) -> dict[str, str | None]:
    """The symbol and the colour patch an item of `row` is led by, as `spec` names them from the record."""
    return {option: _fill(template, row) or None if (template := getattr(spec, option)) else None
            for option in ("symbol", "swatch")}


def _bounded(text: str, records: int = 1) -> str:
    """`text`, refused when longer than any card could print (DerivationError saying how long)."""
    if len(text) > MAX_TEXT:
        raise DerivationError(f"derives an item of {len(text):,} characters from {records:,} records, more than the "
                              f"{MAX_TEXT:,} one text may hold; split it (group_by) or pick fewer records (where)")
    return text


def _variant(game: "Game", row: dict, spec: Derivation) -> str | None:
    if spec.variant_from is None:
        return None
    listed = row.get(spec.variant_from) or []
    listed = listed if isinstance(listed, list) else [listed]
    return listed[0] if len(listed) == 1 and len(game.info.variants) > 1 else None


def resolve_cards(game: "Game") -> list[Card]:
    """The game's cards with every derived section filled in (its `from` cleared); [] without cards.yaml."""
    found = game.cards
    if found is None:
        return []
    resolved = []
    for card in found.cards:
        sides = {}
        for face, side in card.sides():
            sections = []
            for section in side.sections:
                items = [_marked(item) for item in section.items]
                if section.derived:
                    items += derive_items(game, found.derived[section.derived])
                update = {"items": items, "derived": None}
                if section.table:
                    headings, rows = table_items(game, section.table)
                    items += [Item(text=row, rules=section.rules) for row in rows]
                    update |= {"table": None, "columns": section.columns or headings}
                sections.append(section.model_copy(update=update))
            sides[face] = side.model_copy(update={"sections": sections})
        resolved.append(card.model_copy(update=sides))
    return resolved


def _marked(item: Item) -> Item:
    """`item` with ASSUMED_MARK after its text when its text is marked assumed and does not yet carry the mark,
    so a reading of an unclear rule shows as one at the table, as an assumed value does."""
    if "text" not in (item.assumed or {}) or ASSUMED_MARK in item.text:
        return item
    return item.model_copy(update={"text": f"{item.text} {ASSUMED_MARK}"})


def table_items(game: "Game", table_id: str) -> tuple[list[str], list[str]]:
    """A reference table's headings and its rows as item texts (cells joined by ": "): an assumed value carries
    ASSUMED_MARK, a value to write in prints as a ruled line."""
    from .tables import resolved_table  # tables.py builds on this module

    table = resolved_table(game, table_id)
    rows = [": ".join(WRITE_IN if cell.write_in else cell.text + (ASSUMED_MARK if cell.assumed else "") for cell in row)
            for row in table.rows]
    return table.headings, rows


def deck_cards(game: "Game") -> list[Card]:
    """The cards the deck prints (and the exports deal): every resolved card but those kept for the player aid."""
    return [card for card in resolve_cards(game) if card.deck]


def all_items(card: Card) -> Iterable[tuple[str, Section, Item]]:
    """Every (face, section, item) of a card, front first."""
    for face, side in card.sides():
        for section in side.sections:
            for item in section.items:
                yield face, section, item


def check_cards(game: "Game") -> list[Problem]:
    """Unique card ids, known variants and derivations, every item cited (with a known citation), templates that fill."""
    found = game.cards
    if found is None:
        return []
    file = game.file("cards.yaml")
    variants = set(game.info.variants)
    known_citations = set(found.citations)
    problems: list[Problem] = []

    def check_variant(where: str, variant: str | None) -> None:
        if variant is not None and variant not in variants:
            known = ", ".join(game.info.variants) or "none (game.yaml lists no variants)"
            problems.append(Problem(file, where, f"unknown game variant {variant!r}; known: {known}", "unknown-variant"))

    def check_rules(where: str, rules: list[str]) -> None:
        if not [r for r in rules if r.strip()]:
            problems.append(Problem(file, where, "cites no rule; give the case number or section it summarises", "no-citation"))
        for j, rule in enumerate(rules):
            if known_citations and rule not in known_citations:
                close = get_close_matches(rule, sorted(known_citations), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                problems.append(Problem(file, f"{where}[{j}]", f"citation {rule!r} is not in the file's citations list{hint}", "unknown-citation"))

    for variant in found.variants:
        check_variant(f"variants.{variant}", variant)
    seen: dict[str, int] = {}
    for i, card in enumerate(found.cards):
        if card.id in seen:
            problems.append(Problem(file, f"cards[{i}].id", f"id {card.id!r} is used by cards[{seen[card.id]}] too", "duplicate"))
        seen.setdefault(card.id, i)
        for face, side in card.sides():
            for s, section in enumerate(side.sections):
                where = f"cards[{i}].{face}.sections[{s}]"
                if section.derived and section.derived not in found.derived:
                    known = ", ".join(sorted(found.derived)) or "none (the file declares no `derived`)"
                    problems.append(Problem(file, f"{where}.from", f"unknown derivation {section.derived!r}; known: {known}", "unknown-derivation"))
                if not section.items and not section.derived and not section.table:
                    problems.append(Problem(file, where, "section has no items, no `from` and no `table`", "empty-section"))
                if section.table:
                    check_rules(f"{where}.rules", section.rules)
                    known_tables = [t.id for t in game.tables.tables] if game.tables else []
                    if section.table not in known_tables:
                        problems.append(Problem(file, f"{where}.table", f"unknown table {section.table!r}; known: "
                                                f"{', '.join(known_tables) or 'none (the game has no tables.yaml)'}", "unknown-table"))
                for k, item in enumerate(section.items):
                    if not item.text.strip():
                        problems.append(Problem(file, f"{where}.items[{k}].text", "text is empty", "empty-text"))
                    check_rules(f"{where}.items[{k}].rules", item.rules)
                    check_variant(f"{where}.items[{k}].variant", item.variant)
    for name, spec in found.derived.items():
        check_rules(f"derived.{name}.rules", spec.rules)
        fields = record_fields(game, spec.records)
        unknown = [("where", field) for field in spec.where if field not in fields]
        unknown += [(option, getattr(spec, option)) for option in ("group_by", "variant_from", "sort_by")
                    if getattr(spec, option) is not None and getattr(spec, option) not in fields]
        unknown += [(option, field) for option in ("item", "symbol", "swatch") for field in slots(getattr(spec, option) or "")
                    if field not in fields]
        for option, field in unknown:
            problems.append(Problem(file, f"derived.{name}.{option}", f"{option} names unknown field {field!r} of "
                                    f"{spec.records}; known: {', '.join(sorted(fields))}", "unknown-field"))
        if unknown:
            continue
        try:
            derive_items(game, spec)
        except DerivationError as exc:
            problems.append(Problem(file, f"derived.{name}", str(exc), "bad-derivation"))
            continue
        records = _source_records(game, spec.records)
        if spec.where and records and not any(_matches(record_values(game, r), spec.where) for r in records):
            problems.append(Problem(file, f"derived.{name}.where", f"picks none of the game's {len(records)} {spec.records}",
                                    "empty-derivation"))
    return problems


def record_fields(game: "Game", records: str) -> set[str]:
    """The fields a derivation over `records` may name, whether or not the game has any such record."""
    model = {"pieces": Piece, "tiles": Tile, "factions": Faction}[records]
    fields = set(model.model_fields) - {"assumed"}
    if records == "pieces":
        fields |= set(game.info.piece_fields)
    factions = ["nation"] if "nation" in fields else []
    if records == "tiles" and game.info.tiles:
        fields |= set(game.info.tiles.fields)
        factions = [f for f, spec in game.info.tiles.fields.items() if spec.type == "faction"]
    return fields | {slot for f in factions for slot in (f"{f}_id", f.upper())}

