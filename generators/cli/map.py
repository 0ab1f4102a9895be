"""`dossier map`: check a map, ask how many spaces between cities, list what a move reaches, show the map as data."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ..core.errors import DataError, Problem, display_path
from ..core.game_cache import game_key, keep, recall
from ..core.game_folders import resolve_game_folder
from ..map.network import Network
from .app import GameOption, JsonOption, SummaryGroup, app, print_json

if TYPE_CHECKING:  # a route or reach question kept in the cache needs neither the records nor the checks
    from ..core.game import Game
    from ..core.map_models import MapFile
    from ..map.checks import MapProblem

NETWORK = "network"  # the game_cache part holding the map's movement network

map_app = typer.Typer(
    cls=SummaryGroup,
    help="The map as a route network: check it, ask for routes and reach, show it as data.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(map_app, name="map")


def game_map_of(game: Game) -> MapFile:
    """The game's map; a game without map.yaml is refused."""
    game_map = game.map
    if game_map is None:
        raise DataError([Problem(game.file("map.yaml"), "", "this game has no map (map.yaml not found)", "missing-file")])
    return game_map


def network_of(game: Optional[str]) -> Network:
    """The game's map as a movement network, places looked up with the game's other spellings; kept in the cache
    for the game's files as they are, so the next question is answered without reading the game."""
    folder = resolve_game_folder(game)
    key = game_key(folder)
    network = Network.from_data(recall(key, NETWORK) or {})
    if network is not None:
        return network
    from ..validation import load_game

    loaded = load_game(folder)
    network = Network(game_map_of(loaded), loaded.aliases)
    if key is not None and game_key(folder) == key:
        keep(key, NETWORK, network.as_data())
    return network


def _problem_row(problem: MapProblem) -> dict:
    return {"code": problem.code, "severity": problem.severity.value, "message": problem.message,
            "names": list(problem.names), "where": problem.where}


def _board_rows(loaded: Game) -> list[MapProblem]:
    from ..map.track import check_board

    factions = [f.id for f in loaded.info.factions]
    return [p for i, board in enumerate(loaded.boards.boards) for p in check_board(board, factions, f"boards[{i}]")] if loaded.boards else []


@map_app.command()
def check(
    game: Optional[str] = GameOption,
    map_file: Optional[Path] = typer.Option(None, "--map", help="Check this map file instead of the game's map.yaml (the game's tiles and factions still apply).",
                                            metavar="FILE"),
    as_json: bool = JsonOption,
) -> None:
    """Report every problem with the map (map.yaml) and the track boards (boards.yaml) at once. Exit 0 when valid
    (warnings allowed), 1 when invalid, 2 when unreadable."""
    from ..core.loader import read_game
    from ..core.locate import place
    from ..core.map_models import read_map_file
    from ..core.tile_text import tile_cities
    from ..map.checks import check_map

    loaded = read_game(game)
    checked: list[tuple[Path, list[MapProblem], str]] = []
    if map_file is not None or loaded.map is not None or loaded.boards is None:
        file = map_file if map_file is not None else loaded.file("map.yaml")
        game_map = read_map_file(map_file) if map_file is not None else game_map_of(loaded)
        problems = check_map(game_map, named=[(t.id, c) for t in loaded.tiles for _, c in tile_cities(loaded, t)], powers=[f.id for f in loaded.info.factions])
        size = f"{len(game_map.cities)} cities, {len(game_map.sea_zones)} sea zones, {len(game_map.routes)} rail and air lines"
        checked.append((file, problems, size))
    if map_file is None and loaded.boards is not None:
        size = ", ".join(f"{b.id}: {len(b.spaces)} spaces" for b in loaded.boards.boards)
        checked.append((loaded.file("boards.yaml"), _board_rows(loaded), size))
    failed = False
    rows = []
    for file, problems, size in checked:
        problems.sort(key=lambda p: not p.is_error)
        errors = sum(p.is_error for p in problems)
        warnings = len(problems) - errors
        failed = failed or errors > 0
        rows.append({"file": display_path(file), "valid": errors == 0, "errors": errors, "warnings": warnings,
                     "problems": [_problem_row(p) for p in problems]})
        if not as_json:
            for p in problems:
                found = place(file, p.where) if p.where else None
                where = f" [{p.where}{', ' + found.shown() if found else ''}]" if p.where else ""
                typer.echo(f"{p.severity.value:<7} {p.code}: {p.message}{where}")
            verdict = "valid" if errors == 0 else "invalid"
            typer.echo(f"{display_path(file)}: {verdict} ({size}); {errors} error(s), {warnings} warning(s)")
    if as_json:
        print_json(rows[0] if len(rows) == 1 else {"valid": not failed, "files": rows})
    if failed:
        raise typer.Exit(1)


@map_app.command("route")
def route_(
    origin: str = typer.Argument(..., metavar="FROM", help="The city the move starts in."),
    destination: str = typer.Argument(..., metavar="TO", help="The city the move ends in."),
    game: Optional[str] = GameOption,
    as_json: bool = JsonOption,
) -> None:
    """The fewest spaces from one city to another, the places passed and the kind of each step."""
    network = network_of(game)
    start, end = network.resolve(origin), network.resolve(destination)
    found = network.route(start, end)
    limit = network.spaces_per_turn
    journey = network.journey(start, end) if found.is_reachable and not found.is_within(limit) else None
    turns = journey.turns if journey else (1 if found.spaces else 0) if found.is_reachable else None
    stops = journey.stops if journey else [end] if found.spaces else []
    if as_json:
        print_json({"from": start, "to": end, "spaces": found.spaces, "path": found.path, "kinds": found.kinds,
                    "spaces_per_turn": limit, "within_turn": found.is_within(limit), "turns": turns, "stops": stops})
        return
    if not found.is_reachable:
        typer.echo(f"{start} → {end}: no route joins them")
        return
    verdict = "within one turn" if found.is_within(limit) else f"{turns} turns"
    typer.echo(f"{start} → {end}: {found.spaces} space(s), {verdict} (at most {limit} a turn)")
    typer.echo(f"  {found.path[0]}")
    for place, kind in zip(found.path[1:], found.kinds):
        typer.echo(f"  {'by ' + kind:<8} {place}")
    if journey:
        legs = "; ".join(f"turn {i} to {stop} ({leg.spaces} space{'s' if leg.spaces != 1 else ''})"
                         for i, (stop, leg) in enumerate(zip(journey.stops, journey.legs), 1))
        typer.echo(f"  Stopping in a city each turn: {legs}")


@map_app.command()
def reach(
    origin: str = typer.Argument(..., metavar="FROM", help="The city the move starts in."),
    spaces: Optional[int] = typer.Option(None, "--spaces", min=0, help="Spaces to move (default: the map's limit a turn, rules.spaces_per_turn in map.yaml)."),
    game: Optional[str] = GameOption,
    as_json: bool = JsonOption,
) -> None:
    """The places a move from FROM can end in, each with its fewest spaces (places the map's rules never let a move end in are passed, not listed)."""
    network = network_of(game)
    start = network.resolve(origin)
    limit = network.spaces_per_turn if spaces is None else spaces
    found = network.reachable(start, limit)
    if as_json:
        print_json({"from": start, "spaces": limit, "places": [{"name": name, "spaces": n} for name, n in found.items()]})
        return
    typer.echo(f"From {start}, within {limit} space(s): {len(found) - 1} other places")
    for n in sorted(set(found.values()) - {0}):
        typer.echo(f"  {n}: {', '.join(name for name, d in found.items() if d == n)}")


@map_app.command()
def show(game: Optional[str] = GameOption, as_json: bool = JsonOption) -> None:
    """The map as data: cities (with their projected x, y and their printed space on the poster: centre and
    diameter in mm from the poster sheet's top-left corner), sea zones and lines; --json for the whole of it."""
    from ..map.geography import positions
    from ..validation import load_game

    loaded = load_game(game)
    game_map = game_map_of(loaded)
    where = positions(game_map)
    if as_json:
        from ..map.spaces import city_spaces

        spaces = city_spaces(loaded) if where else {}
        cities = [
            city.model_dump(include={"name", "country", "power", "capital", "port", "sea_zones", "marks"})
            | {"x": round(where[city.name].x, 4), "y": round(where[city.name].y, 4)}
            | ({"space": spaces[city.name].as_json()} if city.name in spaces else {})
            for city in game_map.cities
        ]
        print_json({
            "marks": {name: mark.model_dump(exclude={"assumed"}, exclude_none=True) for name, mark in game_map.marks.items()},
            "cities": cities,
            "sea_zones": [{"name": z.name, "adjacent": list(z.adjacent)} for z in game_map.sea_zones],
            "routes": [{"from": r.from_, "to": r.to, "kind": r.kind} for r in game_map.routes],
        })
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("city", "country", "power", "marks", "sea zones", title=f"{loaded.info.title}: the map")
    for city in game_map.cities:
        marks = ["capital"] * city.capital + ["port"] * city.port + list(city.marks)
        table.add_row(city.name, city.country, city.power or "neutral", ", ".join(marks), ", ".join(city.sea_zones))
    console = Console()
    console.print(table)
    kinds = [r.kind for r in game_map.routes]
    console.print(f"{len(game_map.cities)} cities, {len(game_map.sea_zones)} sea zones, "
                  f"{kinds.count('rail')} rail lines, {kinds.count('air')} air lines")


@map_app.command()
def advance(
    origin: str = typer.Argument(..., metavar="FROM", help="The space the move starts on (its id or printed name)."),
    side: str = typer.Option(..., "--side", help="The side moving: it goes its own way round the track (boards.yaml directions)."),
    spaces: int = typer.Option(1, "--spaces", min=0, help="Spaces to move."),
    blocked: list[str] = typer.Option([], "--blocked", help="A space no move may enter or pass (give it again for more).", metavar="SPACE"),
    board: Optional[str] = typer.Option(None, "--board", help="The board's id (default: the game's first board).", metavar="ID"),
    game: Optional[str] = GameOption,
    as_json: bool = JsonOption,
) -> None:
    """Where a move along a track board ends: each space entered counts one, whatever its kind."""
    from ..map.track import Track, board_for
    from ..validation import load_game

    loaded = load_game(game)
    track = Track(board_for(loaded, None, board))
    found = track.advance(origin, loaded.faction(side).id, spaces, blocked)
    if as_json:
        print_json({"board": track.board.id, "from": found.start, "side": side, "spaces": spaces, "path": list(found.path),
                    "end": found.end, "kind": track.board.space_of(found.end).kind, "blocked_by": found.blocked_by})
        return
    end = track.board.space_of(found.end)
    typer.echo(f"{track.board.space_of(found.start).label} → {end.label}" + (f" ({end.kind})" if end.kind else "")
               + f": {len(found.path)} of {spaces} space(s) on {track.board.id}")
    if found.blocked_by:
        typer.echo(f"  stopped before {track.board.space_of(found.blocked_by).label}, which no move may pass")
    for space in found.path:
        typer.echo(f"  {track.board.space_of(space).label}")


@map_app.command()
def fit(
    game: Optional[str] = GameOption,
    save: bool = typer.Option(False, "--save", help="Write what is worked out into the game's folder (worked-out.json)."),
) -> None:
    """Whether what the game ships worked out (worked-out.json: where the poster's places, sea zones and names
    go) is what Dossier works out from its data now; exit 1 when it is not. --save writes it afresh, so that a
    first build after an install does not spend seconds working it out."""
    from ..core.atomic import write_text
    from ..core.shipped import FILE, differing_parts, read_shipped, shipped_as_text
    from ..map.fit import worked_out_afresh

    folder = resolve_game_folder(game)
    fresh = worked_out_afresh(folder)
    target = folder / FILE
    if save:
        write_text(target, shipped_as_text(fresh))
        parts = sorted({part for parts in fresh.values() for part in parts})
        typer.echo(f"wrote {display_path(target)}: {', '.join(parts) or 'nothing to ship'}")
        return
    differing = differing_parts(read_shipped(folder), fresh)
    if differing:
        typer.echo(f"{display_path(target)} is not what the data gives now ({', '.join(differing)} differ); "
                   f"`dossier map fit --game {folder.name} --save` writes it afresh", err=True)
        raise typer.Exit(1)
    typer.echo(f"{display_path(target)} is what the data gives now")
