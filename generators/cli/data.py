"""Commands about the data itself: games, validate, list, assumptions, paths."""

from __future__ import annotations

from typing import Optional

import typer

from ..core import paths
from ..core.errors import DataError, UnknownNameError, display_path
from ..core.models import Piece, Tile
from ..core.names import NameIndex
from ..core.tile_text import tile_text
from ..validation import Preflight, load_game
from .app import GameOption, JsonOption, app, print_json


def games_to_use(game: Optional[str]) -> list[str]:
    """The games a command that can take all of them works on: the one named, or every installed game."""
    return [game] if game else paths.installed_games()


@app.command()
def games(as_json: bool = JsonOption) -> None:
    """List the games installed under components/."""
    rows = []
    for name in paths.installed_games():
        game = load_game(name)
        rows.append({"name": name, "title": game.info.title, "publisher": game.info.publisher,
                     "published": game.info.published, "pieces": game.count(), "tiles": len(game.tiles)})
    if as_json:
        print_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("name", "title", "publisher", "year", "pieces", "tiles")
    for r in rows:
        table.add_row(r["name"], r["title"], r["publisher"] or "", str(r["published"] or ""), str(r["pieces"]), str(r["tiles"]))
    Console().print(table)


@app.command()
def validate(game: Optional[str] = GameOption) -> None:
    """Check a game's data (every game when --game is not given); exit 2 with every problem found."""
    problems = []
    for name in games_to_use(game):
        try:
            loaded = load_game(name, Preflight.FULL)
        except DataError as exc:
            problems += exc.problems
            continue
        typer.echo(f"{loaded.name}: valid ({loaded.count()} pieces, {len(loaded.tiles)} tiles) in {display_path(loaded.folder)}")
    if problems:
        raise DataError(problems)


LISTINGS = ("tiles", "pieces")  # every game has these; game.yaml `lists` adds its own groups of kinds


def piece_row(piece: Piece) -> dict:
    """A piece as JSON: kind, name, nation, count, and whichever of its other values are set."""
    row = {"kind": piece.kind, "name": piece.name, "nation": piece.nation, "count": piece.count}
    for key, value in piece.model_dump(exclude={"assumed", "kind", "name", "nation", "count"}).items():
        if value not in (None, False):
            row[key] = value
    return row


def tile_row(tile: Tile) -> dict:
    """A tile as JSON, every field as printed."""
    return tile.model_dump(exclude={"assumed"}) | {"awards": [a.model_dump(exclude={"assumed"}) for a in tile.awards]}


@app.command("list")
def list_(
    what: str = typer.Argument(..., metavar="WHAT", help="tiles, pieces, or a list of kinds named under `lists` in the game's game.yaml."),
    game: Optional[str] = GameOption,
    as_json: bool = JsonOption,
) -> None:
    """List a game's tiles, pieces or one of its lists of kinds as a table, or as a JSON array with --json."""
    loaded = load_game(game)
    choices = [*LISTINGS, *loaded.info.lists]
    listing = NameIndex("listing", choices).find(what)
    if listing is None:
        raise UnknownNameError("listing", what, choices)
    if listing == "tiles":
        if as_json:
            print_json([tile_row(t) for t in loaded.tiles])
            return
        texts = [(t, tile_text(loaded, t)) for t in loaded.tiles]
        rows = [{"id": t.id, "years": text.years, "event": t.event, "awards": " ".join(text.awards)} for t, text in texts]
        columns = ["id", "years", "event", "awards"]
    else:
        kinds = loaded.info.lists.get(listing)
        pieces = [p for p in loaded.pieces if kinds is None or p.kind in kinds]
        rows = [piece_row(p) for p in pieces]
        if as_json:
            print_json(rows)
            return
        columns = ["kind", "name", "nation", "count", "strength", "value", "cost", *loaded.info.piece_fields]
    _print_table(rows, columns, title=f"{loaded.info.title}: {listing}")


def _cell(value) -> str:
    if value is None or value is False:
        return ""
    if value is True:
        return "yes"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _print_table(rows: list[dict], columns: list[str], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(*columns, title=title)
    for row in rows:
        table.add_row(*(_cell(row.get(c)) for c in columns))
    Console().print(table)


@app.command()
def assumptions(game: Optional[str] = GameOption, as_json: bool = JsonOption,
                markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table (as in the README).")) -> None:
    """List every value the data assumes because the source does not print it, with the reason."""
    from ..core.assumptions import assumptions as find

    rows = []
    for name in games_to_use(game):
        loaded = load_game(name)
        for a in find(loaded):
            rows.append({"game": loaded.name, "file": display_path(a.file), "where": a.where,
                         "subject": a.subject, "field": a.field, "reason": a.reason})
    if as_json:
        print_json(rows)
    elif markdown:
        typer.echo("| game | file | record | field | why |\n|---|---|---|---|---|")
        for r in rows:
            typer.echo(f"| {r['game']} | `{r['file']}` | {r['subject'] or r['where']} | {r['field']} | {r['reason']} |")
    else:
        _print_table(rows, ["game", "file", "subject", "field", "reason"], title="Assumed values")


@app.command("paths")
def paths_(as_json: bool = JsonOption) -> None:
    """Show where the game data, the layout presets and the builds are."""
    found = {"components": str(paths.components_dir()), "layouts": str(paths.layouts_dir()),
             "output": str(paths.output_dir()), "games": paths.installed_games()}
    if as_json:
        print_json(found)
        return
    for key, value in found.items():
        typer.echo(f"{key:<11} {', '.join(value) if isinstance(value, list) else value}")
