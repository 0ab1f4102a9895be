"""`dossier replace`: just the pieces you lost, fronts with their backs behind them."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..core import paths
from ..core.errors import display_path
from ..printing.options import BuildOptions
from ..validation import Preflight, load_game
from .app import ForceOption, GameOption, app, output_path, print_options, refuse_foreign_target


@app.command()
@print_options("paper", "formats", "duplex", "fold", "piece_size", "bleed", "back_offset")
def replace(
    selectors: Optional[list[str]] = typer.Argument(None, help="Tile ids (\"Ge 1\") or piece names (Piccolo, \"Atomic Bomb\"), optionally with the number printed on the piece "
                                                              "after ':' and its faction after '@' (RRCC:3, Piccolo@italy); quote names with spaces.", metavar="SELECTOR..."),
    kind: Optional[str] = typer.Option(None, "--kind", help="Only pieces of this kind (an id of game.yaml's kinds, or its label; tile for event tiles); alone: every piece of it."),
    nation: Optional[str] = typer.Option(None, "--nation", help="Only pieces of this nation (or faction); alone: every piece of it."),
    strength: Optional[int] = typer.Option(None, "--strength", help="Only pieces showing this number (strength, value or bonus)."),
    every: bool = typer.Option(False, "--all", help="Print one of each piece a selector names when it names several."),
    copies: int = typer.Option(1, "--copies", min=1, help="Copies of each piece or tile selected."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", parser=output_path,
                                       help="PDF to write (default: output/<game folder's name>/replacements.pdf); "
                                            "a file Dossier did not write is replaced only with --force."),
    force: bool = ForceOption,
    game: Optional[str] = GameOption,
    options: BuildOptions = BuildOptions(),
) -> None:
    """Print only the pieces and tiles you name, fronts with their backs behind them, on as few pages as fit.

    Each piece named prints once (or --copies times); a name several different pieces share is
    refused with the selectors that tell them apart. What was printed is listed, and written
    beside the PDF (replacements.txt for replacements.pdf).

    Examples:

      dossier replace "Ge 1" Piccolo "Atomic Bomb"

      dossier replace RRCC:3 Piccolo@italy --paper a4

      dossier replace --kind police --nation italy --strength 2

      dossier replace Papers --copies 3 --out lost.pdf
    """
    from ..printing.render import publish
    from ..printing.replace import build_replacements, select
    from ..printing.settings import PrintSettings

    loaded = load_game(game, Preflight.QUICK)
    selection = select(loaded, list(selectors or []), kind, nation, strength, every)  # refused before anything is written
    settings = PrintSettings.resolve(options, loaded.layout)
    target = out or settings.game_dir(loaded) / "replacements.pdf"
    refuse_foreign_target(target, force)
    document = build_replacements(loaded, settings, selection, target, copies)
    written = publish([document], paths.OUTPUT if out is None else target.parent)
    typer.echo(document.files[target.with_suffix(".txt").name], nl=False)
    for path in written:
        typer.echo(display_path(path))

