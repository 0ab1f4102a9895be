"""The `dossier` command: each command lives in a module of this package that registers it on the shared app.

Only the module of the command being run is imported, so `dossier map route` does not pay for
the drawing libraries. To add a command, write its module and add one line to COMMANDS.

Errors Dossier raises on purpose (bad data, unknown names, impossible options) are printed
as one clear message on stderr with exit code 2, never as a traceback; so is a file or folder
the system refuses to read or write (no space, no permission, a link loop).
"""

from __future__ import annotations

import codecs
import gc
import importlib
import logging
import os
import sys
from pathlib import Path

# The map's warp solves many small linear systems; on a machine of few cores OpenBLAS's worker threads only
# spin for them, costing a build of the shipped game over a second of processor time. Read when numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ..core.errors import LINES_SHOWN, DossierError, OptionError, cut, display_path
from ..core.paths import environment_problems, unread_checkout_note

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
    "export": "export",
    "map": "map",
    "referee": "referee",
    "rules": "referee",
    "trust": "referee",
}


def _register(argv: list[str]) -> None:
    """Import the module of the command `argv` names, or every module when it names none
    (the help lists every command, and a mistyped name gets the closest ones)."""
    named = _command_named(argv)
    modules = [COMMANDS[named]] if named in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for module in modules:
        importlib.import_module(f"{__name__}.{module}")
    from .app import app

    order = list(COMMANDS)  # the help lists commands in this order, whichever module registered first
    app.registered_commands.sort(key=lambda c: order.index(_name(c)) if _name(c) in order else len(order))


def _command_named(argv: list[str]) -> str | None:
    return next((a for a in argv if not a.startswith("-")), None)


def _name(command) -> str:
    return command.name or command.callback.__name__.replace("_", "-")

# Each line of a message is cut to a readable length (a report of many problems has one line per problem).
MAX_LINE = 600


class _ToStderr(logging.Handler):
    """Library notes (a wait for another command's lock) as "dossier: ..." on whatever stderr is now."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(f"dossier: {record.getMessage()}\n")


# Typography Dossier prints, in plain characters for a console that cannot show it (latin-1, a legacy code page).
_PLAIN = {"→": "->", "←": "<-", "–": "-", "—": "--", "›": ">", "‹": "<", "‘": "'", "’": "'", "“": '"', "”": '"',
          "…": "...", "×": "x", "•": "*", "·": "*", "≤": "<=", "≥": ">=", "−": "-", "\u00a0": " "}


def _plainly(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler `dossier-plain`: typography as plain characters, anything else as a \\u escape."""
    text = error.object[error.start:error.end]
    return "".join(_PLAIN.get(c) or (f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF  # a byte no encoding read
                                     else c.encode("ascii", "backslashreplace").decode()) for c in text), error.end


codecs.register_error("dossier-plain", _plainly)


def _plain_output() -> None:
    """Let stdout and stderr print every message whatever their encoding: a character the console cannot show
    (or a byte of a file name that is not text) is written plainly instead of ending the command with
    UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="dossier-plain")
            except (ValueError, OSError):  # a stream already closed or detached: nothing to print to
                pass


def _error(message: str) -> int:
    lines = message.splitlines() or [""]
    sys.stderr.write("dossier: error: " + "\n".join(cut(line, MAX_LINE) for line in lines[:LINES_SHOWN + 1]) + "\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run `dossier` with `argv` (default: the process arguments); returns the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    _plain_output()
    notes = logging.getLogger("dossier")
    if not notes.handlers:
        notes.addHandler(_ToStderr())
    try:
        problems = environment_problems()
        if problems:
            raise OptionError("; ".join(problems))
        _register(args)
        note = unread_checkout_note() if args and not set(args) & {"--help", "-h"} else None
        if note:
            sys.stderr.write(f"dossier: {note}\n")
        from .app import app

        app(args=args, prog_name="dossier")
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        sys.stderr.write(f"{exc.code}\n")
        return 1
    except DossierError as exc:
        return _error(str(exc))
    except OSError as exc:  # the system refused a file or folder the command needed
        where = f"{display_path(Path(exc.filename))}: " if exc.filename else ""
        return _error(f"{where}{exc.strerror or exc}")
    except KeyboardInterrupt:
        sys.stderr.write("dossier: interrupted; the previous files are kept\n")
        return 130
    return 0


def console_main() -> None:
    """Entry point of the installed `dossier` script."""
    if _command_named(sys.argv[1:]) != "watch":
        # One command, then the process ends: what it makes (a game's records, the pages drawn) nearly all lives
        # until then, and the cycle collector would scan it again and again to free next to nothing (a tenth of a
        # large build's time, for 2 % less memory at most). `watch` runs on, and collects.
        gc.disable()
    code = main()
    # The process is ending and gives its memory back whole: the collector's last pass over every object the command
    # made (a large build's records and pages: over half a second) would free nothing anyone waits for.
    gc.freeze()
    sys.exit(code)
