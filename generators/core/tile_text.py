"""What an Event Tile prints, as text: its id, nationality, years ("1936–38", "Any Year"), event
and award groups ("3c: Berlin, Prague."). Shared by the tile sheets, listings and referees,
so a tile reads the same wherever it is shown; no drawing library is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game
    from .models import Award, Tile


@dataclass(frozen=True)
class TileText:
    """What a tile prints: id (with asterisk), nationality, years, event and award lines."""

    label: str
    nation: str
    years: str
    event: str
    awards: tuple[str, ...]


def years_label(years: list[int], game_years: list[int]) -> str:
    """"Any Year" when a tile's years are all the game's years, else runs such as "1936–38" or "1937"."""
    if game_years and list(years) == list(game_years):
        return "Any Year"
    runs: list[list[int]] = []
    for year in years:
        if runs and year == runs[-1][-1] + 1:
            runs[-1].append(year)
        else:
            runs.append([year])

    def run_text(run: list[int]) -> str:
        if len(run) == 1:
            return str(run[0])
        last = str(run[-1])
        return f"{run[0]}–{last[2:] if str(run[0])[:2] == last[:2] else last}"

    return ", ".join(run_text(r) for r in runs)


def award_label(award: "Award") -> str:
    """An award group as printed: "3c: Berlin, Prague."."""
    return f"{award.amount}{award.kind}: {', '.join(award.cities)}."


def tile_text(game: "Game", tile: "Tile") -> TileText:
    """The texts `tile` prints, from its data."""
    nation = game.faction(tile.nation).name if tile.nation else ""
    return TileText(
        label=f"{tile.id}*" if tile.special else tile.id,
        nation=nation,
        years=years_label(tile.years, game.info.years),
        event=tile.event,
        awards=tuple(award_label(a) for a in tile.awards),
    )
