"""The `dossier` command: every sub-command module registers itself on the shared app.

Errors Dossier raises on purpose (bad data, unknown names, impossible options) are printed
as one clear message on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import sys

from ..core.errors import DossierError
from . import build, calibrate, data, export, map, referee, replace  # noqa: F401  (importing registers the commands)
from .app import app


def main(argv: list[str] | None = None) -> int:
    """Run `dossier` with `argv` (default: the process arguments); returns the exit code."""
    try:
        app(args=argv, prog_name="dossier")
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
