"""The `dossier` Typer application and the options its commands share."""

from __future__ import annotations

import functools
import inspect
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import typer
from typer.core import TyperGroup

from .. import __version__
from ..build import PRODUCTS, make_options
from ..core import paths
from ..core.errors import OptionError, display_path
from ..core.paths import ENVIRONMENT

# -h as well as --help, for every command and sub-command (child commands inherit it).
CONTEXT = {"help_option_names": ["-h", "--help"]}

class SummaryGroup(TyperGroup):
    """A command group whose listing gives each command's first sentence whole, wrapped, never cut short with "..."."""

    def format_commands(self, ctx, formatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


app = typer.Typer(
    name="dossier",
    cls=SummaryGroup,
    help=(
        "Print-and-play toolkit for spy board games. Builds counter sheets, event tiles, "
        "reference cards and map posters from a game's data, checks the data, and answers rules questions.\n\n"
        "Start with `dossier build`; it writes PDFs into ./output/<game folder>/. "
        "Start your own game with `dossier new NAME --from spies`."
    ),
    epilog="Environment variables:\n\n" + "\n\n".join(f"{name}: {what}." for name, what in ENVIRONMENT.items()),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT,
)

GAME_HELP = "Game name (see `dossier games`) or the path of a game folder."


def game_names(incomplete: str) -> list[str]:
    """The games found whose names start with what is typed so far, for shell completion of --game."""
    return [name for name in paths.game_folders() if name.startswith(incomplete)]


GameOption = typer.Option(None, "--game", "-g", help=GAME_HELP, metavar="NAME|PATH", autocompletion=game_names)
GamesOption = typer.Option(None, "--game", "-g", metavar="NAME|PATH", autocompletion=game_names,
                           help=GAME_HELP + " Repeatable; every game found when not given.")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of a table.")

# How the sheets print, shared by every command that writes them. Every length names its unit.
PaperOption = typer.Option(None, "--paper", help="Paper size: letter, a4, legal, tabloid, a3 (default: the layout's).")
FormatOption = typer.Option(
    "pdf", "--format",
    help="Comma-separated: pdf, svg (one file per page), png (previews). Every product has SVG pages except "
         "map-tiles and display-tiles: their sheets are windows onto the poster and the display, whose own SVGs hold them whole.")
DuplexOption = typer.Option("long-edge", "--duplex", help="How your printer flips the sheet: long-edge or short-edge.")
FoldOption = typer.Option(False, "--fold", help="Fronts and backs side by side with a fold line, for printers without duplex.")
DpiOption = typer.Option(150, "--dpi", help="Resolution of the PNG previews (--format png), 10 to 1200.")
PieceSizeOption = typer.Option(None, "--piece-size", metavar="LENGTH",
                               help="Counter size with its unit (mm, cm, in, pt), e.g. 5/8in or 16mm (default: the layout's).")
CardSizeOption = typer.Option(None, "--card-size", metavar="WxH",
                              help="Card size with its unit, e.g. 63x88mm or 2.5x3.5in (default: the layout's).")
BleedOption = typer.Option(None, "--bleed", metavar="LENGTH",
                           help="Colour carried past each cut, with its unit, e.g. 1mm or 1/8in; at most the sheet's margin.")
BackOffsetOption = typer.Option(None, "--back-offset", metavar="X,Y",
                                help="Shift of the back pages across and down, both with units, e.g. 0.4mm,-0.2mm "
                                     "(0.3mm,0.3mm shifts both); measure it with `dossier calibrate`.")
ForceOption = typer.Option(False, "--force", help="Replace the --out file even when Dossier did not write it.")
OnlyOption = typer.Option(None, "--only", metavar="PRODUCT[,PRODUCT]",
                          help=f"Build only these products, comma-separated or repeated: {', '.join(PRODUCTS)} "
                               "(map is the poster and its tiled sheets).")


def output_path(text: str | Path) -> Path:
    """--out as typed; an empty one is refused rather than read as the current folder."""
    if not str(text).strip():
        raise typer.BadParameter("is empty; name a folder or file to write")
    return Path(text)


OutOption = typer.Option(paths.OUTPUT, "--out", "-o", parser=output_path,
                         help="Folder to write into; files land in OUT/<game folder's name>/.")

# The print options, declared once: name -> (type, option); a command takes the ones it names
# with @print_options(...) and receives them read into one BuildOptions (build.make_options).
PRINT_OPTIONS: dict[str, tuple[Any, Any]] = {
    "out": (Path, OutOption),
    "paper": (Optional[str], PaperOption),
    "formats": (str, FormatOption),
    "duplex": (str, DuplexOption),
    "fold": (bool, FoldOption),
    "piece_size": (Optional[str], PieceSizeOption),
    "card_size": (Optional[str], CardSizeOption),
    "bleed": (Optional[str], BleedOption),
    "back_offset": (Optional[str], BackOffsetOption),
    "only": (Optional[list[str]], OnlyOption),
    "dpi": (int, DpiOption),
}
BUILD_OPTIONS = tuple(PRINT_OPTIONS)


def print_options(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A command taking the print options `names` after its own; it receives them as `options`, a
    BuildOptions read from the command line (anything unreadable refused before the command runs)."""
    unknown = set(names) - set(PRINT_OPTIONS)
    if unknown:
        raise ValueError(f"no print option {', '.join(sorted(unknown))}")

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        own = [p for p in inspect.signature(command).parameters.values() if p.name != "options"]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=PRINT_OPTIONS[name][1],
                                   annotation=PRINT_OPTIONS[name][0]) for name in names]

        @functools.wraps(command)
        def run(**arguments: Any) -> Any:
            chosen = {name: arguments.pop(name) for name in names}
            if "only" in chosen:
                chosen["only"] = tuple(chosen["only"] or ())
            return command(options=make_options(**chosen), **arguments)

        run.__signature__ = inspect.Signature([p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added)
        run.__annotations__ = {**{k: v for k, v in command.__annotations__.items() if k != "options"},
                               **{name: PRINT_OPTIONS[name][0] for name in names}}
        return run

    return decorate


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
    """Write `data` to stdout as indented JSON (UTF-8, signs such as currency kept as they are)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def is_terminal() -> bool:
    """True when a person is watching: progress bars and colour only then."""
    return sys.stderr.isatty()


# Every PDF Dossier writes names it as its creator in the document information.
DOSSIER_PDF_MARK = b"/Creator (Dossier)"
_LARGEST_OWN_PDF = 256 * 1024 * 1024


def is_dossier_pdf(path: Path) -> bool:
    """True when `path` is a PDF that Dossier wrote (its document information names Dossier as creator)."""
    try:
        if path.stat().st_size > _LARGEST_OWN_PDF:
            return False
        data = path.read_bytes()
    except OSError:
        return False
    return data.startswith(b"%PDF") and DOSSIER_PDF_MARK in data


def refuse_foreign_target(path: Path, force: bool, option: str = "--out") -> None:
    """Refuse an --out that is not a .pdf name, that is not a regular file, or that holds a file
    Dossier did not write (unless `force`), so a user's own file is never replaced by mistake."""
    from ..core.atomic import refuse_unless_replaceable

    shown = display_path(path)
    refuse_unless_replaceable(path)
    if path.suffix.lower() != ".pdf":
        raise OptionError(f"{option}: {shown} does not end in .pdf; name the PDF to write, e.g. {path.with_suffix('.pdf').name}")
    if path.is_file() and not force and not is_dossier_pdf(path):
        raise OptionError(f"{option}: {shown} exists and is not a PDF Dossier wrote; "
                          "name another file, or pass --force to replace it")
