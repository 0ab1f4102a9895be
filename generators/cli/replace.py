"""`dossier replace`: just the pieces you lost, fronts with their backs behind them."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..build import make_options
from ..core import paths
from ..core.errors import display_path
from ..printing.options import refuse_misfits
from ..validation import Preflight, load_game
from .app import (
    BackOffsetOption,
    BleedOption,
    DuplexOption,
    FoldOption,
    ForceOption,
    FormatOption,
    GameOption,
    PaperOption,
    PieceSizeOption,
    app,
    output_path,
    refuse_foreign_target,
)


@app.command()
def replace(
    selectors: Optional[list[str]] = typer.Argument(None, help="Tile ids (\"Ge 1\") or piece names (Piccolo, \"Atomic Bomb\"); quote names with spaces.", metavar="SELECTOR..."),
    kind: Optional[str] = typer.Option(None, "--kind", help="Only pieces of this kind (an id of game.yaml's kinds, or its label; tile for event tiles); alone: every piece of it."),
    nation: Optional[str] = typer.Option(None, "--nation", help="Only pieces of this nation (or faction); alone: every piece of it."),
    copies: int = typer.Option(1, "--copies", min=1, help="Copies of each piece or tile selected."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", parser=output_path,
                                       help="PDF to write (default: output/<game folder's name>/replacements.pdf); "
                                            "a file Dossier did not write is replaced only with --force."),
    force: bool = ForceOption,
    game: Optional[str] = GameOption,
    paper: Optional[str] = PaperOption,
    formats: str = FormatOption,
    duplex: str = DuplexOption,
    fold: bool = FoldOption,
    piece_size: Optional[str] = PieceSizeOption,
    bleed: Optional[str] = BleedOption,
    back_offset: Optional[str] = BackOffsetOption,
) -> None:
    """Print only the pieces and tiles you name, fronts with their backs behind them, on as few pages as fit.

    Each named roster entry prints once (or --copies times), e.g.
    `dossier replace "Ge 1" Piccolo "Atomic Bomb"` or `dossier replace --kind spy --nation Italy`.
    """
    from ..printing.render import output_folder
    from ..printing.replace import build_replacements, select

    loaded = load_game(game, Preflight.QUICK)
    selection = select(loaded, list(selectors or []), kind, nation)  # refused before anything is written
    options = make_options(paths.OUTPUT, paper, formats, duplex, fold, piece_size, None, bleed, back_offset)
    target = out or options.game_dir(loaded) / "replacements.pdf"
    refuse_foreign_target(target, force)
    layout = loaded.layout
    refuse_misfits(options, layout)
    with output_folder(paths.OUTPUT if out is None else target.parent):
        written = build_replacements(loaded, layout, options, selection, target, copies)
    for path in written:
        typer.echo(display_path(path))

