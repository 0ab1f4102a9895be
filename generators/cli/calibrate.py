"""`dossier calibrate`: a duplex alignment target whose readings are the printer's back offset."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..core import paths
from ..core.errors import display_path
from ..validation import Preflight, load_game
from ..printing.options import BuildOptions
from .app import ForceOption, GameOption, app, output_path, print_options, refuse_foreign_target


@app.command()
@print_options("paper", "formats", "duplex", "back_offset")
def calibrate(
    out: Path = typer.Option(paths.OUTPUT / "calibration.pdf", "--out", "-o", parser=output_path,
                             help="PDF to write; a file Dossier did not write is replaced only with --force."),
    force: bool = ForceOption,
    game: Optional[str] = GameOption,
    options: BuildOptions = BuildOptions(),
) -> None:
    """Print a duplex alignment target; its readings are the --back-offset that puts backs behind fronts."""
    from ..printing.calibrate import build_calibration
    from ..printing.render import publish
    from ..printing.settings import PrintSettings

    refuse_foreign_target(out, force)
    loaded = load_game(game, Preflight.QUICK)
    settings = PrintSettings.resolve(options, loaded.layout)
    written = publish([build_calibration(loaded, settings, out)], out.parent)
    for path in written:
        typer.echo(display_path(path))
