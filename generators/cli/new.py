"""`dossier new`: a game of your own in a folder of yours, copied from a game found or started from a small example."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import tempfile
from fnmatch import fnmatch
from pathlib import Path
from string import Template
from typing import Optional

import typer

from ..core import paths
from ..core.errors import DataError, OptionError, display_path
from ..core.files import folder_name_problem, kind_of_mode
from ..core.layouts import preset_file
from ..core.loader import TABLES
from ..core.spreadsheets import write_sheet
from ..core.yamlio import read_yaml
from ..validation import load_game
from .app import app

SKELETON = Path(__file__).resolve().parent / "skeleton"
MOST_COPIED_FILES = 10_000  # files `--from` copies: a game folder holds tens
MOST_COPIED_BYTES = 500 * 2**20  # bytes `--from` copies: art and data, never a disk's worth
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Top-level keys of game.yaml, rewritten in place so that the file's comments survive.
_TOP_KEY = "^{key}:.*$"


@app.command()
def new(
    name: str = typer.Argument(..., metavar="NAME", help="The new game's name and its folder's name; its builds land in output/NAME/."),
    source: Optional[str] = typer.Option(None, "--from", metavar="GAME",
                                         help="Copy this game (a name from `dossier games`, or a folder) instead of a small example game."),
    to: Path = typer.Option(Path("."), "--to", metavar="DIR", help="Folder to create NAME/ in (default: the current folder)."),
    form: str = typer.Option("yaml", "--format", metavar="yaml|csv|xlsx",
                             help="Keep the pieces and tiles as YAML, or as a spreadsheet (pieces.csv or pieces.xlsx, one row a record)."),
) -> None:
    """Start a game of your own: NAME/ in DIR, a copy of GAME (or a small example), with its layout preset, ready to edit.

    The copy is checked before it is put in place; then it prints the commands that validate and build it.
    Put DIR on DOSSIER_PATH to find the game by name from anywhere."""
    refuse_name(name)
    if form not in ROSTER_FORMATS:
        raise OptionError(f"--format {form!r}: choose from {', '.join(ROSTER_FORMATS)}")
    parent = to.expanduser()
    if not parent.is_dir():
        raise OptionError(f"--to: {to} is not a folder")
    target = parent / name
    if target.exists() or target.is_symlink():
        raise OptionError(f"{target} already exists; choose another NAME or --to folder")
    try:
        with tempfile.TemporaryDirectory(prefix=f".{name}.", dir=parent) as staging:
            draft = Path(staging) / name
            copied = copy_game(source, draft, name) if source else write_example(draft, name)
            if form != "yaml":
                copied = as_spreadsheets(draft, form, copied)
            try:
                load_game(draft)  # the new game must validate before it is put in place
            except DataError as exc:
                raise OptionError(f"the new game would not validate, so nothing was written:\n{exc}") from None
            draft.rename(target)
    except OSError as exc:
        raise OptionError(f"--to: cannot write {target}: {exc.strerror or exc}") from None
    folder = shlex.quote(str(target) if target.is_absolute() else f"./{target}")
    typer.echo(f"created {target}/: {copied}")
    typer.echo("Edit its YAML files, then check and print it:")
    typer.echo(f"  dossier validate --game {folder}")
    typer.echo(f"  dossier build --game {folder}      # writes output/{name}/")
    typer.echo(f"To use it by name from anywhere: export DOSSIER_PATH={shlex.quote(str(target.resolve().parent))}")
    if (target / "referee.py").is_file():
        typer.echo(f"Its referee is Python (referee.py), which runs only once you trust the copy: read its .py files, "
                   f"then `dossier trust {folder}`; any later change to them withdraws the trust.")


def refuse_name(name: str) -> None:
    """Refuse a NAME that is not a plain folder name, or that a game found already has (their builds would share a folder)."""
    if not _PLAIN_NAME.match(name):
        raise OptionError(f"NAME: {name[:64]!r} is not a plain folder name; use letters, digits, '-', '_' or '.', "
                          "starting with a letter or digit, at most 64 characters")
    problem = folder_name_problem(name)
    if problem:
        raise OptionError(f"NAME: {name[:64]!r} {problem}")
    if name.casefold() == "default":
        raise OptionError("NAME: 'default' is the name of the shared layout preset; choose another name")
    taken = {found.casefold(): folder for found, folder in paths.game_folders().items()}
    if name.casefold() in taken:
        raise OptionError(f"NAME: a game named {name!r} is already found in {taken[name.casefold()]}; "
                          f"choose another name, so that the two never build into the same output/{name}/")


_SKIPPED = ("__pycache__", "*.pyc", ".*")


def _plain_files(folder: Path) -> None:
    """Refuse to copy `folder` unless it holds only plain files and folders, within MOST_COPIED_FILES and
    MOST_COPIED_BYTES: a link would copy in what it points at (a private file, a device that never ends,
    the whole filesystem)."""
    count = size = 0
    for here, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if not any(fnmatch(f, p) for p in _SKIPPED)]
        for entry in [*folders, *files]:
            if any(fnmatch(entry, p) for p in _SKIPPED):
                continue
            path = Path(here) / entry
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                raise OptionError(f"--from: {display_path(path)} is a symbolic link; a game is copied only from plain "
                                  "files and folders, so copy what it points at into the folder instead")
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                raise OptionError(f"--from: {display_path(path)} is {kind_of_mode(info.st_mode)}, not a file to copy")
            count, size = count + 1, size + info.st_size
            if count > MOST_COPIED_FILES or size > MOST_COPIED_BYTES:
                raise OptionError(f"--from: {display_path(folder)} holds more than {MOST_COPIED_FILES:,} files or "
                                  f"{MOST_COPIED_BYTES // 2**20} MB, more than a game folder needs")


def copy_game(source: str, draft: Path, name: str) -> str:
    """Copy the game `source` (valid, or refused) into `draft`, named `name`, its layout preset beside it; says what was copied."""
    game = load_game(source)
    _plain_files(game.folder)
    try:
        shutil.copytree(game.folder, draft, symlinks=True, ignore=shutil.ignore_patterns(*_SKIPPED))
    except shutil.Error as exc:  # a file that changed as it was copied: the first reason, not the list of them
        first = exc.args[0][0] if exc.args and isinstance(exc.args[0], list) and exc.args[0] else exc
        raise OptionError(f"--from: cannot copy {display_path(game.folder)}: {first[-1] if isinstance(first, tuple) else first}") from None
    preset = preset_file(game.info.layout, game.folder)
    text = (draft / "game.yaml").read_text(encoding="utf-8")
    text = _set_key(text, "name", name)
    if preset.parent != game.folder / "layouts":  # a shared preset: the copy gets its own, named after it
        (draft / "layouts").mkdir(exist_ok=True)
        (draft / "layouts" / f"{name}.yaml").write_text(preset.read_text(encoding="utf-8"), encoding="utf-8")
        text = _set_key(text, "layout", name)
    (draft / "game.yaml").write_text(text, encoding="utf-8")
    files = sorted(str(p.relative_to(draft)) for p in draft.rglob("*") if p.is_file())
    return f"a copy of {game.info.title} ({', '.join(files)})"


def write_example(draft: Path, name: str) -> str:
    """Write the small example game into `draft`, named `name`; says what was written."""
    values = {"name": name, "title": name.replace("-", " ").replace("_", " ").title()}
    for file in sorted(SKELETON.rglob("*.yaml")):
        relative = file.relative_to(SKELETON)
        if relative == Path("layouts", "layout.yaml"):
            relative = Path("layouts", f"{name}.yaml")
        (draft / relative).parent.mkdir(parents=True, exist_ok=True)
        (draft / relative).write_text(Template(file.read_text(encoding="utf-8")).substitute(values), encoding="utf-8")
    files = sorted(str(p.relative_to(draft)) for p in draft.rglob("*") if p.is_file())
    return f"a small example game to edit ({', '.join(files)})"


ROSTER_FORMATS = ("yaml", "csv", "xlsx")
# What `new --format` writes as a sheet: the records; cards.yaml stays, since a sheet holds only the cards,
# not the citations, derivations and variants beside them (a designer may still keep the cards in one).
ROSTERS = tuple(t for t in TABLES if t != "cards.yaml")


def as_spreadsheets(draft: Path, form: str, copied: str) -> str:
    """`draft` with its pieces.yaml and tiles.yaml rewritten as spreadsheets of format `form`; says what was made."""
    made = []
    for table in ROSTERS:
        file = draft / table
        if file.is_file():
            stem = file.stem
            write_sheet(read_yaml(file), stem, draft / f"{stem}.{form}")
            file.unlink()
            made.append(f"{stem}.{form}")
    note = (f"; {' and '.join(made)} hold one record a row, the first row naming the fields "
            "(a list takes ';' between its values)") if made else ""
    for table in ROSTERS:
        copied = copied.replace(table, f"{Path(table).stem}.{form}")
    return copied + note


def _set_key(text: str, key: str, value: str) -> str:
    """game.yaml's text with top-level `key` set to `value` (added at the top when absent)."""
    pattern = re.compile(_TOP_KEY.format(key=key), re.M)
    if pattern.search(text):
        return pattern.sub(f"{key}: {value}", text, count=1)
    return f"{key}: {value}\n{text}"
