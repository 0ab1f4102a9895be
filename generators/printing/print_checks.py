"""Checks of how a game's data asks to be printed (the layout's type sizes, cards.yaml's citation
tags, player aid and tables), run by validation without loading the drawing library."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import DataError, Problem, UnknownNameError
from ..core.layouts import preset_file

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.layouts import Layout

ROLES = ("title", "text", "value")  # the texts of a piece's face; each has one size per kind and side


def _readable_layout(game: "Game") -> "Layout | None":
    """The game's layout, or None when it cannot be read (check_layout reports why)."""
    try:
        return game.layout
    except (UnknownNameError, DataError):
        return None


def check_type_sizes(game: "Game") -> list[Problem]:
    """Every kind and role the layout's `type` sets a size for exists in the game."""
    layout = _readable_layout(game)
    if layout is None:
        return []
    file = preset_file(game.info.layout, game.folder)
    roles = set(ROLES) | {f"back_{role}" for role in ROLES}
    problems = []
    for kind, sizes in layout.type.items():
        if kind not in game.info.kinds:
            known = ", ".join(sorted(game.info.kinds)) or "none"
            problems.append(Problem(file, f"type.{kind}",
                                    f"unknown kind {kind!r}; known kinds: {known}", "unknown-kind"))
        for role in sizes:
            if role not in roles:
                problems.append(Problem(file, f"type.{kind}.{role}",
                                        f"unknown role {role!r}; known: {', '.join(sorted(roles))}", "unknown-role"))
    return problems


def check_card_print(game: "Game") -> list[Problem]:
    """How cards.yaml asks to be printed: tags for known citations, no tag twice, player aid panels that
    name a card side, table columns only on tables."""
    found = game.cards
    if found is None:
        return []
    file = game.file("cards.yaml")
    problems = []
    sides = {f"{card.id}.{face}" for card in found.cards for face, _ in card.sides()}
    for i, name in enumerate(found.aid):
        if name not in sides:
            problems.append(Problem(file, f"aid[{i}]", f"unknown card side {name!r}; write it as CARD-ID.front or "
                                    f"CARD-ID.back, e.g. {sorted(sides)[0]!r}", "unknown-card"))
    for i, card in enumerate(found.cards):
        for face, side in card.sides():
            for j, section in enumerate(side.sections):
                if section.columns and section.show != "table":
                    problems.append(Problem(file, f"cards[{i}].{face}.sections[{j}].columns",
                                            "columns are for a section shown as a table (show: table)", "invalid"))
    seen: dict[str, str] = {}
    for rule, tag in found.citation_tags.items():
        if found.citations and rule not in found.citations:
            problems.append(Problem(file, f"citation_tags.{rule}", f"{rule!r} is not in the file's citations list", "unknown-citation"))
        if tag.casefold() not in rule.casefold():  # a player looks a tag up among the rulebook's headings
            problems.append(Problem(file, f"citation_tags.{rule}", f"tag {tag!r} is not words of {rule!r}; take them from "
                                    "its title, so a player finds the rule by them", "invalid"))
        if tag in seen:
            problems.append(Problem(file, f"citation_tags.{rule}", f"tag {tag!r} is already {seen[tag]!r}'s", "duplicate"))
        seen.setdefault(tag, rule)
    return problems
