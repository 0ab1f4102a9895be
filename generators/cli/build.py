"""`dossier build`: every printable product of a game (or of every installed game)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..build import build_game, make_options
from ..core import paths
from ..core.errors import display_path
from ..validation import load_game
from .app import (
    BackOffsetOption,
    BleedOption,
    DuplexOption,
    FoldOption,
    FormatOption,
    GameOption,
    PaperOption,
    PieceSizeOption,
    app,
    is_terminal,
)
from .data import games_to_use


@app.command()
def build(
    game: Optional[str] = GameOption,
    out: Path = typer.Option(paths.OUTPUT, "--out", "-o", help="Folder to write into; files land in OUT/<game>/."),
    paper: Optional[str] = PaperOption,
    formats: str = FormatOption,
    duplex: str = DuplexOption,
    fold: bool = FoldOption,
    piece_size: Optional[str] = PieceSizeOption,
    card_size: Optional[str] = typer.Option(None, "--card-size", help="Card size, e.g. 63x88mm or 2.5x3.5in (default: the layout's)."),
    bleed: Optional[str] = BleedOption,
    back_offset: Optional[str] = BackOffsetOption,
    only: Optional[list[str]] = typer.Option(None, "--only", help="Build only this product (repeatable)."),
    dpi: int = typer.Option(150, "--dpi", help="Resolution of the PNG previews (--format png)."),
) -> None:
    """Build the printable files of a game (every installed game when --game is not given) into OUT/<game>/."""
    options = make_options(out, paper, formats, duplex, fold, piece_size, card_size, bleed, back_offset, tuple(only or ()),
                           dpi)
    games = [load_game(name) for name in games_to_use(game)]  # all data checked before anything is written
    from ..printing.render import (
        held_writes,  # drawing libraries load only when a build runs
    )

    written: list[Path] = []
    with held_writes():  # a game refused late leaves no file of the games before it
        if is_terminal():
            from rich.progress import Progress

            with Progress(transient=True) as progress:
                for loaded in games:
                    task = progress.add_task(f"{loaded.name}", total=None)
                    written += build_game(loaded, options, lambda step, t=task, g=loaded: progress.update(t, description=f"{g.name}: {step}"))
        else:
            for loaded in games:
                written += build_game(loaded, options)
    for path in written:
        typer.echo(display_path(path))
    if not written:
        typer.echo("nothing to build: no products are registered for these games")
