"""`dossier build`: every printable product of a game (or of every game found)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ..build import build_all
from ..core.errors import DossierError, display_path
from ..printing.options import BuildOptions, refuse_shared_folders
from ..validation import Preflight, load_game, nothing_to_cut_out
from .app import BUILD_OPTIONS, GamesOption, app, is_terminal, print_options
from .data import games_to_use

if TYPE_CHECKING:
    from ..core.game import Game


@app.command()
@print_options(*BUILD_OPTIONS)
def build(games: Optional[list[str]] = GamesOption, options: BuildOptions = BuildOptions()) -> None:
    """Build the printable files of a game (every game found when --game is not given) into OUT/<game folder's name>/.

    A game given as a folder builds into a folder of that folder's name, so `--game ~/my-spies`
    writes output/my-spies/; two games that would write into one folder are refused.

    Examples:

      dossier build --game spies

      dossier build --game spies --only counters,tiles --paper a4

      dossier build --game ./my-game --format pdf,png --card-size 63x88mm"""
    loaded = {}
    for name in games_to_use(games):  # all data checked before anything is written
        game = load_game(name, Preflight.QUICK)
        loaded.setdefault(game.folder, game)  # one folder named twice (by name and by path) builds once
    for game in loaded.values():
        warning = nothing_to_cut_out(game)
        if warning:
            typer.echo(f"warning: {warning}", err=True)
    written = build_games(list(loaded.values()), options)
    for path in written:
        typer.echo(display_path(path))
    if not written:
        names = [g.name for g in loaded.values()]
        asked = f" for --only {','.join(options.only)}" if options.only else ""
        message = f"nothing to build: {', '.join(names)} {'has' if len(names) == 1 else 'have'} nothing to print{asked}"
        if not options.only:  # a game that prints nothing at all is refused; a part it lacks is only said
            raise DossierError(message)
        typer.echo(f"warning: {message}", err=True)


def build_games(games: list["Game"], options: BuildOptions) -> list[Path]:
    """Build every game in `games` with `options`, all or nothing; returns the files written."""
    from ..printing.render import publish  # drawing libraries load only when a build runs
    from ..printing.settings import PrintSettings

    refuse_shared_folders(games, options.out)
    jobs = [(game, PrintSettings.resolve(options, game.layout)) for game in games]  # refused before any drawing
    if is_terminal():
        from rich.progress import Progress

        # refreshed as each product starts, not by a thread of its own: the products are drawn in a forked
        # process too (build.py), which a running thread would keep from starting
        with Progress(transient=True, auto_refresh=False) as progress:
            documents = build_all(jobs, _reporter(progress, {game.folder: progress.add_task(game.name, total=None) for game, _ in jobs}))
    else:
        documents = build_all(jobs)
    return publish(documents, options.out)  # a game refused late leaves no file of the games before it


def _reporter(progress, tasks: dict) -> Callable[["Game", str], None]:
    return lambda game, step: progress.update(tasks[game.folder], description=f"{game.name}: {step}", refresh=True)
