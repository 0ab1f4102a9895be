"""`dossier watch`: build a game, then build it again whenever one of its data, layout or art files changes."""

from __future__ import annotations

import logging
import signal
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from ..core import paths
from ..core.errors import DossierError, display_path
from ..core.game_folders import resolve_game_folder
from ..printing.options import BuildOptions
from ..validation import Preflight, load_game
from .app import BUILD_OPTIONS, GameOption, app, print_options
from .build import build_games


@app.command()
@print_options(*BUILD_OPTIONS)
def watch(game: Optional[str] = GameOption, options: BuildOptions = BuildOptions()) -> None:
    """Build a game, then rebuild it each time a file in its folder or the layout presets changes (Ctrl-C to stop).

    Each build prints what it wrote and how long it took. Data that does not validate is shown
    and the last good files stay in place until the next change fixes it. Takes build's options.

    Examples:

      dossier watch --game ./my-game

      dossier watch --game ./my-game --only counters --format pdf,png"""
    from watchfiles import DefaultFilter
    from watchfiles import watch as changes_in

    folder = resolve_game_folder(game)
    watched = [folder, paths.layouts_dir()]
    typer.echo(f"watching {folder} and {paths.layouts_dir()} (Ctrl-C to stop)")
    checkout = paths.checkout_not_read()
    if checkout is not None and paths.data_root() in folder.resolve().parents:
        sys.stderr.write(f"dossier: note: edits to this checkout ({checkout}) are not watched: the data read is "
                         f"{paths.data_root()}; {paths.how_to_read(checkout)}\n")
    outside_output = DefaultFilter(ignore_paths=[options.out.resolve()])

    def is_source(change, path: str) -> bool:
        """Data, layout and art files: not the output, not code, not hidden files (editors' temporary copies)."""
        return outside_output(change, path) and not path.endswith(".py") and not Path(path).name.startswith(".")

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # Ctrl-C is how a watch ends, not news
    signal.signal(signal.SIGTERM, _stop)
    try:
        rebuild(folder, options, "built")
        for changes in changes_in(*watched, watch_filter=is_source, raise_interrupt=False):
            touched = sorted({Path(path) for _, path in changes})
            shown = [p for p in touched if p.exists()] or touched  # an editor's temporary files come and go
            typer.echo(f"changed: {', '.join(display_path(p) for p in shown)}")
            rebuild(folder, options, "rebuilt")
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM during a rebuild: every file is written whole or not at all
        pass
    typer.echo("stopped watching")


def _stop(signum, frame) -> None:
    """SIGTERM (a process manager's or a task runner's stop) ends the watch as Ctrl-C does."""
    raise KeyboardInterrupt


def rebuild(folder: Path, options: BuildOptions, verb: str) -> None:
    """Validate and build the game in `folder`; a refusal is shown, not raised, and leaves the last good files."""
    started = time.perf_counter()
    try:
        written = build_games([load_game(folder, Preflight.QUICK)], options)
    except DossierError as exc:
        sys.stderr.write(f"dossier: error: {exc}\n")
        typer.echo("not rebuilt: the last good files stay in place; waiting for the next change")
        return
    seconds = time.perf_counter() - started
    where = f" in {display_path(written[0].parent)}" if written else ""
    typer.echo(f"{verb} {', '.join(p.name for p in written) or 'nothing'}{where} ({seconds:.2f} s)")
