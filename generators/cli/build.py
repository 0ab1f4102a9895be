"""`dossier build`: every printable product of a game (or of every game found)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ..build import build_game, make_options
from ..core import paths
from ..core.errors import display_path
from ..printing.options import BuildOptions, refuse_misfits, refuse_shared_folders
from ..validation import load_game
from .app import (
    BackOffsetOption,
    BleedOption,
    CardSizeOption,
    DuplexOption,
    FoldOption,
    FormatOption,
    GamesOption,
    OnlyOption,
    PaperOption,
    PieceSizeOption,
    app,
    is_terminal,
)
from .data import games_to_use

if TYPE_CHECKING:
    from ..core.game import Game

OutOption = typer.Option(paths.OUTPUT, "--out", "-o", help="Folder to write into; files land in OUT/<game folder's name>/.")


@app.command()
def build(
    games: Optional[list[str]] = GamesOption,
    out: Path = OutOption,
    paper: Optional[str] = PaperOption,
    formats: str = FormatOption,
    duplex: str = DuplexOption,
    fold: bool = FoldOption,
    piece_size: Optional[str] = PieceSizeOption,
    card_size: Optional[str] = CardSizeOption,
    bleed: Optional[str] = BleedOption,
    back_offset: Optional[str] = BackOffsetOption,
    only: Optional[list[str]] = OnlyOption,
) -> None:
    """Build the printable files of a game (every game found when --game is not given) into OUT/<game folder's name>/.

    A game given as a folder builds into a folder of that folder's name, so `--game ~/my-spies`
    writes output/my-spies/; two games that would write into one folder are refused."""
    options = make_options(out, paper, formats, duplex, fold, piece_size, card_size, bleed, back_offset, tuple(only or ()))
    loaded = {}
    for name in games_to_use(games):  # all data checked before anything is written
        game = load_game(name)
        loaded.setdefault(game.folder, game)  # one folder named twice (by name and by path) builds once
    written = build_games(list(loaded.values()), options)
    for path in written:
        typer.echo(display_path(path))
    if not written:
        typer.echo("nothing to build: no products are registered for these games")


def build_games(games: list["Game"], options: BuildOptions) -> list[Path]:
    """Build every game in `games` with `options`, all or nothing; returns the files written."""
    refuse_shared_folders(games, options)
    for game in games:
        refuse_misfits(options, game.layout)
    from ..printing.render import held_writes  # drawing libraries load only when a build runs

    written: list[Path] = []
    with held_writes():  # a game refused late leaves no file of the games before it
        if is_terminal():
            from rich.progress import Progress

            with Progress(transient=True) as progress:
                for game in games:
                    task = progress.add_task(game.name, total=None)
                    written += build_game(game, options, _reporter(progress, task, game))
        else:
            for game in games:
                written += build_game(game, options)
    return written


def _reporter(progress, task, game: "Game") -> Callable[[str], None]:
    return lambda step: progress.update(task, description=f"{game.name}: {step}")
