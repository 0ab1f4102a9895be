"""Commands about the data itself: games, validate, list, assumptions, paths."""

from __future__ import annotations

import os
from typing import Optional

import typer

from ..core import paths
from ..core.errors import DataError, UnknownNameError, display_path
from ..core.models import Piece, Tile
from ..core.names import NameIndex
from ..core.tile_text import tile_values
from ..validation import Preflight, load_game, nothing_to_cut_out
from .app import GameOption, GamesOption, JsonOption, app, print_json


def games_to_use(games: Optional[list[str]]) -> list[str]:
    """The games a command that can take all of them works on: those named, or every game found."""
    return list(dict.fromkeys(games)) if games else paths.installed_games()


def game_rows() -> list[dict]:
    """Every game found, as `dossier games` shows it: name, title, publisher, year, counts and folder."""
    rows = []
    for name, folder in paths.game_folders().items():
        try:
            game = load_game(folder)
        except DataError as exc:
            rows.append({"name": name, "title": None, "problems": len(exc.problems), "folder": str(folder)})
            continue
        rows.append({"name": name, "title": game.info.title, "publisher": game.info.publisher,
                     "published": game.info.published, "pieces": game.count(), "tiles": len(game.tiles),
                     "folder": str(folder)})
    return rows


@app.command()
def games(as_json: bool = JsonOption) -> None:
    """List the games found: the shipped ones and those in the folders of DOSSIER_PATH.

    Each line starts with the name to give --game, whole at any terminal width."""
    rows = game_rows()
    if as_json:
        print_json(rows)
        return
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        if r["title"] is None:
            typer.echo(f"{r['name']:<{width}}  refused: {r['problems']} problem(s), see `dossier validate --game {r['folder']}`")
            continue
        source = ", ".join(str(v) for v in (r["publisher"], r["published"]) if v)
        counts = f"{r['pieces']} pieces" + (f", {r['tiles']} tiles" if r["tiles"] else "")
        typer.echo(f"{r['name']:<{width}}  {r['title']}" + (f" ({source})" if source else "") + f"; {counts}; {r['folder']}")


@app.command()
def validate(games: Optional[list[str]] = GamesOption) -> None:
    """Check a game's data (every game found when --game is not given); exit 2 with every problem found.

    Each valid game is reported with the folder it was read from."""
    problems = []
    for name in games_to_use(games):
        try:
            loaded = load_game(name, Preflight.FULL)
        except DataError as exc:
            problems += exc.problems
            continue
        typer.echo(f"{loaded.name}: valid ({loaded.count()} pieces, {len(loaded.tiles)} tiles), read from {loaded.folder}")
        warning = nothing_to_cut_out(loaded)
        if warning:
            typer.echo(f"warning: {warning}", err=True)
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
    """A tile as JSON, every field as its data gives it."""
    row = _without_assumed(tile.model_dump())
    return row | {"art": row.pop("art")}


def _without_assumed(value):
    if isinstance(value, dict):
        return {k: _without_assumed(v) for k, v in value.items() if k != "assumed"}
    if isinstance(value, list):
        return [_without_assumed(v) for v in value]
    return value


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
        declared = loaded.info.tiles
        fields = (declared.columns or list(declared.fields)) if declared else []
        rows = [{name: v for name, v in tile_values(loaded, t).items() if name in fields or name == "id"} for t in loaded.tiles]
        columns = ["id", *(f for f in fields if any(row.get(f) for row in rows))]  # only those these tiles fill
    else:
        kinds = loaded.info.lists.get(listing)
        pieces = [p for p in loaded.pieces if kinds is None or p.kind in kinds]
        rows = [piece_row(p) for p in pieces]
        if as_json:
            print_json(rows)
            return
        own = [f for f in loaded.info.piece_fields if any(row.get(f) not in (None, False) for row in rows)]  # only those these pieces fill
        columns = ["kind", "name", "nation", "count", "strength", "value", "cost", *own]
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
def assumptions(games: Optional[list[str]] = GamesOption, as_json: bool = JsonOption,
                markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table (as in the README).")) -> None:
    """List every value the data assumes because the source does not print it, with the reason."""
    from ..core.assumptions import assumptions as find

    rows = []
    for name in games_to_use(games):
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
    """Show which folders the game data, the layout presets and the builds are read from and written to."""
    found = {"data": str(paths.data_root()), "data_source": paths.data_source(),
             "components": str(paths.components_dir()), "layouts": str(paths.layouts_dir()),
             "search_path": [str(p) for p in paths.search_path()], "output": str(paths.output_dir()),
             "games": {name: str(folder) for name, folder in paths.game_folders().items()}}
    if as_json:
        print_json(found)
        return
    typer.echo(f"data      {found['data']} ({found['data_source']})")
    typer.echo(f"layouts   {found['layouts']}")
    typer.echo(f"games in  {os.pathsep.join(found['search_path'])} (DOSSIER_PATH's folders first)")
    typer.echo(f"output    {found['output']} (unless --out says otherwise)")
    width = max((len(n) for n in found["games"]), default=0)
    for name, folder in found["games"].items():
        typer.echo(f"  {name:<{width}}  {folder}")
