"""What a map's or display's aids print, worked out from the game's data (the rows of a table, the items of a
list), and the check that `dossier validate` runs over them. Nothing here draws: the referee and the
validator use it without loading the printing libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.board_models import Aid, Column
from ..core.cards import derive_items, resolve_cards, variant_label
from ..core.errors import DataError, Problem

if TYPE_CHECKING:
    from ..core.game import Game


def _problem(where: str, message: str, file) -> DataError:
    return DataError([Problem(file, where, message, "invalid")])


def table_rows(aid: Aid, game: "Game", file: str, where: str) -> list[list[str]]:
    columns = [col if isinstance(col, Column) else Column(heading=str(col)) for col in aid.columns or []]
    if aid.from_ is None:
        return [[str(v) for v in row] if isinstance(row, list) else [str(row)] for row in aid.rows or []]
    cells: list[list[str]] = []
    base = aid.from_
    count = None
    for col in columns:
        if col.text is not None:
            try:
                items = derive_items(game, base.model_copy(update={"item": col.text}))
            except ValueError as exc:
                raise _problem(f"{where}.columns", f"{col.heading!r}: {exc}", file) from None
            texts = [i.text for i in items]
        elif col.variant:
            items = derive_items(game, base)
            texts = [variant_label(game, i.variant) or "Both games" for i in items]
        else:
            texts = None
        cells.append(texts)
        count = len(texts) if texts is not None else count
    count = count or 0
    return [[(cells[j][i] if cells[j] is not None else "") for j in range(len(columns))] for i in range(count)]


def dice_rows(game: "Game", file, where: str) -> tuple[list[str], list[list[str]]]:
    """The headings and rows of a dice table: which city the map's two dice pick (one row per region, by its number)."""
    game_map = game.map
    if game_map is None or game_map.dice is None:
        raise _problem(where, "a dice table needs the map's dice (map.yaml `dice:`) and numbered regions", file)
    dice = game_map.dice
    headings = [dice.region.name, "Region"] + [str(n) for n in range(1, dice.city.faces + 1)]
    rows = []
    for region in sorted(game_map.regions, key=lambda r: r.number or 0):
        by_number = {c.number: c.name for c in game_map.cities if c.region == region.name}
        rows.append([str(region.number or ""), region.name] + [by_number.get(n, "") for n in range(1, dice.city.faces + 1)])
    return headings, rows


def list_items(aid: Aid, game: "Game", file: str, where: str) -> list[str]:
    items = list(aid.items)
    if aid.from_ is not None:
        items += _derived(aid, game, file, where)
    if aid.from_card is not None:
        _card_section(aid, game.cards.cards if game.cards else [], file, where)  # refused before anything is resolved
        wanted = aid.from_card
        section = next(s for card in resolve_cards(game) if card.id == wanted.card
                       for _, side in card.sides() for s in side.sections if s.heading == wanted.section)
        items += [i.text for i in section.items]
    return items


def _derived(aid: Aid, game: "Game", file, where: str) -> list[str]:
    try:
        return [i.text for i in derive_items(game, aid.from_)]
    except ValueError as exc:
        raise _problem(f"{where}.from", str(exc), file) from None


def _card_section(aid: Aid, cards, file, where: str) -> None:
    """DataError unless the card `aid` takes a list from has a section with that heading (as written in cards.yaml)."""
    wanted = aid.from_card
    if not any(card.id == wanted.card and s.heading == wanted.section for card in cards for _, side in card.sides() for s in side.sections):
        raise _problem(f"{where}.from_card", f"no section {wanted.section!r} on card {wanted.card!r} in cards.yaml", file)


def check_aids(game: "Game") -> list[Problem]:
    """What would stop the map's or the display's aids being printed: a card, card section, kind of record or
    template field they name that the game lacks, or a mark on a box the track does not have."""
    found: list[Problem] = []
    sheets = (("map.yaml", game.map.aids if game.map else []), ("display.yaml", game.display.aids if game.display else []))
    for name, aids in sheets:
        file = game.file(name)
        for i, aid in enumerate(aids):
            where = f"aids[{i}]"
            try:
                if aid.kind == "table" and aid.table is None:
                    table_rows(aid, game, file, where)
                elif aid.kind == "dice":
                    dice_rows(game, file, where)
                elif aid.kind == "list" and aid.from_ is not None:
                    _derived(aid, game, file, where)
                if aid.kind == "list" and aid.from_card is not None:
                    _card_section(aid, game.cards.cards if game.cards else [], file, where)
            except DataError as exc:
                found += exc.problems
            if aid.table is not None and (game.tables is None or aid.table not in {t.id for t in game.tables.tables}):
                known = ", ".join(t.id for t in game.tables.tables) if game.tables else "none (no tables.yaml)"
                found.append(Problem(file, f"{where}.table", f"no table {aid.table!r} in tables.yaml; known: {known}", "invalid"))
            boxes = {str(label) for label in aid.cell_labels()} if aid.kind == "track" else set()
            found += [Problem(file, f"{where}.marks", f"{aid.title!r} has no box {key!r} to mark", "invalid")
                      for key in aid.marks if aid.kind == "track" and str(key) not in boxes]
    return found
