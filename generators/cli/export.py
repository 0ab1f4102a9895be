"""`dossier export`: a game for online play (Tabletop Simulator, VASSAL) or as images for print on demand."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..core import paths
from ..core.errors import display_path
from ..export.exports import FORMATS, exporter, make_export_options, per_game_images
from ..export.output import check_out, publish
from ..printing.options import refuse_shared_folders
from ..validation import load_game
from .app import GamesOption, app, is_terminal
from .data import games_to_use


@app.command()
def export(
    what: str = typer.Argument(..., metavar="|".join(FORMATS),
                               help="tts: a Tabletop Simulator saved object; vassal: a VASSAL module; "
                                    "images: one PNG per side of every piece, tile and card."),
    games: Optional[list[str]] = GamesOption,
    out: Path = typer.Option(paths.OUTPUT, "--out", "-o", help="Folder to write into; files land in OUT/<game folder>/."),
    image_url: Optional[str] = typer.Option(None, "--image-url", metavar="BASE",
                                            help="tts: name the images BASE/<file> (where you upload them) instead of "
                                                 "files on this computer, so that other players see them. {game} in BASE "
                                                 "becomes the game folder's name; exporting several games, BASE without "
                                                 "{game} means BASE/<game folder>/<file>."),
    dpi: Optional[int] = typer.Option(None, "--dpi", help="images: resolution in dots per inch (default 300)."),
    bleed: Optional[str] = typer.Option(None, "--bleed", help="images: colour carried past each cut line (default 1/8in)."),
    service: Optional[str] = typer.Option(None, "--service", metavar="thegamecrafter|makeplayingcards|generic",
                                          help="images: size every face to this print service's template for its product "
                                               "(poker cards at exactly the pixels asked for), the manifest naming the product."),
) -> None:
    """Export a game (every game found when --game is not given) into OUT/<game folder>/: for Tabletop Simulator,
    for VASSAL, or as images for a print-on-demand service.

    Examples:

      dossier export vassal --game spies

      dossier export tts --game spies --image-url https://example.org/spies

      dossier export images --game spies --service thegamecrafter"""
    options = make_export_options(what, out, image_url, dpi, bleed, service)
    check_out(options.out)
    loaded_games = [load_game(name) for name in games_to_use(games)]  # all data checked before anything is drawn
    refuse_shared_folders(loaded_games, options.out)
    options = per_game_images(options, len(loaded_games))
    make = exporter(what)
    if is_terminal():
        from rich.progress import Progress

        with Progress(transient=True) as progress:
            task = progress.add_task(what, total=len(loaded_games))
            bundles = []
            for loaded in loaded_games:
                progress.update(task, description=f"{loaded.name}: {what}")
                bundles.append(make(loaded, options))
                progress.advance(task)
    else:
        bundles = [make(loaded, options) for loaded in loaded_games]
    for bundle in bundles:  # written only once every game is drawn, so a refusal leaves nothing behind
        publish(bundle, options.out)
        typer.echo(bundle.summary())
    for loaded in loaded_games if options.image_url else ():
        typer.echo(f"{loaded.name}: upload the images of {display_path(options.game_dir(loaded) / 'tts')} "
                   f"to {options.image_address(loaded)}/")
