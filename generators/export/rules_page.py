"""The rules summary as one HTML page: every reference card's sides, sections and items, each item
with the rules it cites, for a module's Help menu (VASSAL's Documentation) and anyone reading online."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..core.cards import resolve_cards, variant_label

if TYPE_CHECKING:
    from ..core.game import Game


def rules_summary_html(game: "Game") -> str | None:
    """The page for `game`, or None when the game has no reference cards."""
    cards = resolve_cards(game)
    if not cards:
        return None
    title = html.escape(f"{game.info.title}: rules summary")
    out = [f"<html><head><meta charset='utf-8'><title>{title}</title></head><body>", f"<h1>{title}</h1>"]
    for card in cards:
        out.append(f"<h2>{html.escape(card.title)}</h2>")
        for _, side in card.sides():
            if side.title != card.title:
                out.append(f"<h3>{html.escape(side.title)}</h3>")
            for section in side.sections:
                out.append(f"<h4>{html.escape(section.heading)}</h4>")
                tag = "ol" if section.show == "steps" else "ul"
                out.append(f"<{tag}>")
                for item in section.items:
                    variant = variant_label(game, item.variant)
                    cited = f" <i>({html.escape('; '.join(item.rules))})</i>" if item.rules else ""
                    shown = f"<b>{html.escape(variant)}:</b> " if variant else ""
                    out.append(f"<li>{shown}{html.escape(item.text)}{cited}</li>")
                out.append(f"</{tag}>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
