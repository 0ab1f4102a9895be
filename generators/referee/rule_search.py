"""Searching a game's rule summaries (its reference-card items) by keyword."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.cards import all_items, resolve_cards, variant_label
from ..core.errors import DataError, OptionError, Problem
from ..core.names import fold

if TYPE_CHECKING:
    from ..core.game import Game


@dataclass(frozen=True)
class Hit:
    """One rule summary that matched: where it is printed, its text, its citations and its variant."""

    card: str
    card_title: str
    side: str
    side_title: str
    heading: str
    text: str
    rules: tuple[str, ...]
    variant: str | None
    variant_label: str | None

    def where(self) -> str:
        """"Movement › Moving by sea › On your turn (Long Game)"."""
        place = f"{self.card_title} › {self.side_title} › {self.heading}"
        return f"{place} ({self.variant_label})" if self.variant_label else place

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "card_title": self.card_title, "side": self.side, "side_title": self.side_title,
                "heading": self.heading, "text": self.text, "rules": list(self.rules), "variant": self.variant}


def _mentions(haystack: str, word: str) -> bool:
    """True when a word of `haystack` starts with `word`: "spy" finds "spying", "cover" not "discovery"."""
    return re.search(r"(?<!\w)" + re.escape(word), haystack) is not None


def _words(text: str) -> list[str]:
    words = fold(text).split()
    if not words:
        raise OptionError("give at least one word to search for")
    return words


def _summaries(game: "Game"):
    if game.cards is None:
        raise DataError([Problem(game.file("cards.yaml"), "", f"{game.info.title} has no rule summaries (no cards.yaml)", "missing-file")])
    for card in resolve_cards(game):
        for face, section, item in all_items(card):
            side = card.front if face == "front" else card.back
            haystack = fold(" ".join([item.text, section.heading, *item.rules]))
            yield haystack, Hit(card.id, card.title, face, side.title, section.heading, item.text, tuple(item.rules),
                                item.variant, variant_label(game, item.variant))


def search_rules(game: "Game", text: str, variant: str | None = None) -> list[Hit]:
    """The summaries whose text, heading or citations mention every word of `text`, in card order.

    With `variant`, only summaries for that variant or for every variant.
    """
    words = _words(text)
    return [hit for haystack, hit in _summaries(game)
            if (variant is None or hit.variant in (None, variant)) and all(_mentions(haystack, w) for w in words)]


def near_words(game: "Game", text: str, n: int = 3) -> list[str]:
    """Words of the summaries closest to those of `text` that appear nowhere, for a "did you mean"."""
    haystacks = [haystack for haystack, _ in _summaries(game)]
    vocabulary = sorted({w for haystack in haystacks for w in re.findall(r"\w+", haystack)})
    near: list[str] = []
    for word in _words(text):
        if not any(_mentions(haystack, word) for haystack in haystacks):
            near += [w for w in difflib.get_close_matches(word, vocabulary, n=n) if w not in near]
    return near[:n]
