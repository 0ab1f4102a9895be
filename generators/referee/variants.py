"""What a `--game` value names: a variant of the default game ("long"), a game by name or path,
or a game and one of its variants ("spion-und-spion:two-player").

Commands that answer for one variant of a game (the referee, the rule search) take one
`--game` option for all three, so a player types `--game long` rather than
`--game mygame --variant long`. A variant name wins over a game of the same name.

A game read once is kept for the rest of the process while its files stay as they were, so a
program asking many questions (a bot, the test suite) reads and checks each game once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UnknownNameError
from ..core.game import Game
from ..core.game_cache import game_key
from ..core.game_folders import resolve_game_folder
from ..core.names import NameIndex
from ..core.paths import installed_games
from ..core.yamlio import read_yaml
from ..validation import load_game


@dataclass(frozen=True)
class Choice:
    """The game chosen and the variant named (None when the value named no variant)."""

    game: Game
    variant: str | None


_LOADED: dict[Path, tuple[str, Game]] = {}


def _load(choice: str | Path | None) -> Game:
    """`load_game(choice)`, read again only when the bytes of the game's files, the presets or the code have changed
    since the last time (game_cache's key); a game that cannot be keyed is read every time."""
    folder = resolve_game_folder(choice)
    key = game_key(folder)
    kept = _LOADED.get(folder)
    if key is not None and kept is not None and kept[0] == key:
        return kept[1]
    game = load_game(folder)
    if key is not None:
        _LOADED[folder] = (key, game)
    return game


def _parts(choice: str) -> tuple[str, str | None]:
    """("spion-und-spion", "two-player") from "spion-und-spion:two-player"; (choice, None) for anything else."""
    game_text, colon, variant_text = choice.rpartition(":")
    if colon and game_text and variant_text and not Path(choice).expanduser().exists():
        return game_text, variant_text
    return choice, None


def variant_named(game: Game, choice: str | None) -> str | None:
    """The variant of `game` that `choice` names ("Long" finds "long", "mygame:long" too), or None.

    A variant given after a colon must be one of the game's: UnknownNameError otherwise.
    """
    if choice is None:
        return None
    index = NameIndex("variant", game.info.variants)
    variant_text = _parts(choice)[1]
    return index.resolve(variant_text) if variant_text is not None else index.find(choice)


def _variants_in(folder: Path) -> list[str]:
    """The variants a game folder's game.yaml lists, read without loading the whole game."""
    document = read_yaml(folder / "game.yaml")
    variants = document.get("variants") if isinstance(document, dict) else None
    return [str(v) for v in variants] if isinstance(variants, list) else []


def choose(choice: str | None) -> Choice:
    """The game and variant `choice` names; None is the default game with no variant named.

    Raises UnknownNameError naming the closest variants and games when `choice` is neither.
    """
    if choice is None:
        return Choice(_load(None), None)
    game_text, variant_text = _parts(choice)
    if variant_text is not None:
        game = _load(game_text)
        return Choice(game, variant_named(game, choice))
    default = resolve_game_folder(None)
    defaults = _variants_in(default)
    variant = NameIndex("variant", defaults).find(choice)
    if variant is not None:
        return Choice(_load(default), variant)
    try:
        return Choice(_load(choice), None)
    except UnknownNameError:
        names = defaults + installed_games()
        raise UnknownNameError("game or variant", choice, NameIndex("name", names).closest(choice) or names) from None
