"""`dossier calibrate`: a duplex alignment target whose readings are the printer's back offset."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..build import make_options
from ..core import paths
from ..core.errors import display_path
from ..validation import load_game
from .app import (
    BackOffsetOption,
    DuplexOption,
    ForceOption,
    FormatOption,
    GameOption,
    PaperOption,
    app,
    refuse_foreign_target,
)


@app.command()
def calibrate(
    out: Path = typer.Option(paths.OUTPUT / "calibration.pdf", "--out", "-o",
                             help="PDF to write; a file Dossier did not write is replaced only with --force."),
    force: bool = ForceOption,
    game: Optional[str] = GameOption,
    paper: Optional[str] = PaperOption,
    formats: str = FormatOption,
    duplex: str = DuplexOption,
    back_offset: Optional[str] = BackOffsetOption,
) -> None:
    """Print a duplex alignment target; its readings are the --back-offset that puts backs behind fronts."""
    from ..printing.calibrate import build_calibration

    refuse_foreign_target(out, force)
    loaded = load_game(game)
    options = make_options(paths.OUTPUT, paper, formats, duplex, back_offset=back_offset)
    layout = loaded.layout
    layout.paper_size(options.paper)
    for path in build_calibration(layout, options, out, loaded.folder):
        typer.echo(display_path(path))
