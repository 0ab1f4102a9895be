"""The `dossier` command: each command lives in a module of this package that registers it on the shared app.

Only the module of the command being run is imported, so `dossier map route` does not pay for
the drawing libraries. To add a command, write its module and add one line to COMMANDS.

Errors Dossier raises on purpose (bad data, unknown names, impossible options) are printed
as one clear message on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import importlib
import sys

from ..core.errors import DossierError, OptionError
from ..core.paths import environment_problems

# command name -> the module of this package that registers it
COMMANDS = {
    "build": "build",
    "new": "new",
    "watch": "watch",
    "validate": "data",
    "games": "data",
    "list": "data",
    "assumptions": "data",
    "paths": "data",
    "replace": "replace",
    "calibrate": "calibrate",
    "map": "map",
    "referee": "referee",
    "rules": "referee",
}


def _register(argv: list[str]) -> None:
    """Import the module of the command `argv` names, or every module when it names none
    (the help lists every command, and a mistyped name gets the closest ones)."""
    named = next((a for a in argv if not a.startswith("-")), None)
    modules = [COMMANDS[named]] if named in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for module in modules:
        importlib.import_module(f"{__name__}.{module}")
    from .app import app

    order = list(COMMANDS)  # the help lists commands in this order, whichever module registered first
    app.registered_commands.sort(key=lambda c: order.index(_name(c)) if _name(c) in order else len(order))


def _name(command) -> str:
    return command.name or command.callback.__name__.replace("_", "-")


def main(argv: list[str] | None = None) -> int:
    """Run `dossier` with `argv` (default: the process arguments); returns the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        problems = environment_problems()
        if problems:
            raise OptionError("; ".join(problems))
        _register(args)
        from .app import app

        app(args=args, prog_name="dossier")
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        sys.stderr.write(f"{exc.code}\n")
        return 1
    except DossierError as exc:
        sys.stderr.write(f"dossier: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("dossier: interrupted\n")
        return 130
    return 0


def console_main() -> None:
    """Entry point of the installed `dossier` script."""
    sys.exit(main())
