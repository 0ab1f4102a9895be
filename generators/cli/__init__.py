"""The `dossier` command: every sub-command module registers itself on the shared app.

Errors Dossier raises on purpose (bad data, unknown names, impossible options) are printed
as one clear message on stderr with exit code 2, never as a traceback; so is a file or folder
the system refuses to read or write (no space, no permission, a link loop).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from ..core.errors import LINES_SHOWN, DossierError, cut, display_path
from . import build, calibrate, data, map, referee, replace  # noqa: F401  (importing registers the commands)
from .app import app

# Each line of a message is cut to a readable length (a report of many problems has one line per problem).
MAX_LINE = 600


def _data_root_problem() -> str | None:
    """Why $DOSSIER_DATA cannot be used, or None when it is unset or names a folder."""
    override = os.environ.get("DOSSIER_DATA")
    if override is None:
        return None
    if not override.strip():
        return "DOSSIER_DATA is set but empty; unset it or name the folder holding components/ and layouts/"
    if not Path(override).expanduser().is_dir():
        return f"DOSSIER_DATA names {cut(override, 200)!r}, which is not a folder; it should hold components/ and layouts/"
    return None


class _ToStderr(logging.Handler):
    """Library notes (a wait for another command's lock) as "dossier: ..." on whatever stderr is now."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(f"dossier: {record.getMessage()}\n")


def _error(message: str) -> int:
    lines = message.splitlines() or [""]
    sys.stderr.write("dossier: error: " + "\n".join(cut(line, MAX_LINE) for line in lines[:LINES_SHOWN + 1]) + "\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run `dossier` with `argv` (default: the process arguments); returns the exit code."""
    problem = _data_root_problem()
    if problem:
        return _error(problem)
    notes = logging.getLogger("dossier")
    if not notes.handlers:
        notes.addHandler(_ToStderr())
    try:
        app(args=argv, prog_name="dossier")
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
        sys.stderr.write("dossier: interrupted\n")
        return 130
    return 0


def console_main() -> None:
    """Entry point of the installed `dossier` script."""
    sys.exit(main())
