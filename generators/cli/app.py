"""The `dossier` Typer application and the options its commands share."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from .. import __version__

app = typer.Typer(
    name="dossier",
    help=(
        "Print-and-play toolkit for spy board games. Builds counter sheets, event tiles, "
        "reference cards and map posters from a game's data, checks the data, and answers rules questions.\n\n"
        "Start with `dossier build`; it writes PDFs into ./output/<game>/."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

GAME_HELP = "Game name (see `dossier games`) or the path of a game folder."
GameOption = typer.Option(None, "--game", "-g", help=GAME_HELP, metavar="NAME|PATH")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of a table.")
# How the sheets print, shared by every command that writes them.
PaperOption = typer.Option(None, "--paper", help="Paper size: letter, a4, legal, tabloid, a3 (default: the layout's).")
FormatOption = typer.Option("pdf", "--format", help="Comma-separated: pdf, svg (one per page), png (previews).")
DuplexOption = typer.Option("long-edge", "--duplex", help="How your printer flips the sheet: long-edge or short-edge.")
FoldOption = typer.Option(False, "--fold", help="Fronts and backs side by side with a fold line, for printers without duplex.")
PieceSizeOption = typer.Option(None, "--piece-size", help="Counter size, e.g. 5/8in or 16mm (default: the layout's).")
BleedOption = typer.Option(None, "--bleed", help="Colour carried past each cut line, e.g. 1mm.")
BackOffsetOption = typer.Option(None, "--back-offset", help="Shift of the back pages, x,y, e.g. 0.4mm,-0.2mm (measure it with `dossier calibrate`).")


def output_path(text: str | Path) -> Path:
    """--out as typed; an empty one is refused rather than read as the current folder."""
    if not str(text).strip():
        raise typer.BadParameter("is empty; name a folder or file to write")
    return Path(text)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dossier {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Optional[bool] = typer.Option(
        None, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Dossier command line."""


def print_json(data: Any) -> None:
    """Write `data` to stdout as indented JSON (UTF-8, £ kept as is)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def is_terminal() -> bool:
    """True when a person is watching: progress bars and colour only then."""
    return sys.stderr.isatty()
