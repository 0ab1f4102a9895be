"""`dossier watch`: build a game, then build it again whenever one of its data, layout or art files changes."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from ..build import make_options
from ..core import paths
from ..core.errors import DossierError, display_path
from ..core.loader import resolve_game_folder
from ..printing.options import BuildOptions
from ..validation import load_game
from .app import (
    BackOffsetOption,
    BleedOption,
    CardSizeOption,
    DpiOption,
    DuplexOption,
    FoldOption,
    FormatOption,
    GameOption,
    OnlyOption,
    PaperOption,
    PieceSizeOption,
    app,
)
from .build import OutOption, build_games


@app.command()
def watch(
    game: Optional[str] = GameOption,
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
    dpi: int = DpiOption,
) -> None:
    """Build a game, then rebuild it each time a file in its folder or the layout presets changes (Ctrl-C to stop).

    Each build prints what it wrote and how long it took. Data that does not validate is shown
    and the last good files stay in place until the next change fixes it. Takes build's options."""
    from watchfiles import DefaultFilter
    from watchfiles import watch as changes_in

    options = make_options(out, paper, formats, duplex, fold, piece_size, card_size, bleed, back_offset, tuple(only or ()),
                           dpi)
    folder = resolve_game_folder(game)
    watched = [folder, paths.layouts_dir()]
    typer.echo(f"watching {folder} and {paths.layouts_dir()} (Ctrl-C to stop)")
    checkout = paths.checkout_not_read()
    if checkout is not None and paths.data_root() in folder.resolve().parents:
        sys.stderr.write(f"dossier: note: edits to this checkout ({checkout}) are not watched: the data read is "
                         f"{paths.data_root()}; {paths.how_to_read(checkout)}\n")
    outside_output = DefaultFilter(ignore_paths=[Path(out).resolve()])

    def is_source(change, path: str) -> bool:
        """Data, layout and art files: not the output, not code, not hidden files (editors' temporary copies)."""
        return outside_output(change, path) and not path.endswith(".py") and not Path(path).name.startswith(".")

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # Ctrl-C is how a watch ends, not news
    try:
        rebuild(folder, options, "built")
        for changes in changes_in(*watched, watch_filter=is_source, raise_interrupt=False):
            touched = sorted({Path(path) for _, path in changes})
            shown = [p for p in touched if p.exists()] or touched  # an editor's temporary files come and go
            typer.echo(f"changed: {', '.join(display_path(p) for p in shown)}")
            rebuild(folder, options, "rebuilt")
    except KeyboardInterrupt:  # Ctrl-C during a rebuild: every file is written whole or not at all
        pass
    typer.echo("stopped watching")


def rebuild(folder: Path, options: BuildOptions, verb: str) -> None:
    """Validate and build the game in `folder`; a refusal is shown, not raised, and leaves the last good files."""
    started = time.perf_counter()
    try:
        written = build_games([load_game(folder)], options)
    except DossierError as exc:
        sys.stderr.write(f"dossier: error: {exc}\n")
        typer.echo("not rebuilt: the last good files stay in place; waiting for the next change")
        return
    seconds = time.perf_counter() - started
    where = f" in {display_path(written[0].parent)}" if written else ""
    typer.echo(f"{verb} {', '.join(p.name for p in written) or 'nothing'}{where} ({seconds:.2f} s)")
