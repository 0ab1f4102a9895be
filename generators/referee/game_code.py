"""Running a game's own Python (its `referee.py`) and telling its faults from the game's answers.

The module is imported only once its folder is trusted (see `trust`), as part of a package
made of its folder, so it may import sibling modules. Importing it and answering each
question run under a time limit. A question's deliberate refusals (QuestionError and the
other DossierErrors) pass through as answers do; anything else the code does (raising,
exiting, taking too long, returning something other than a Ruling of its own verdicts) is
reported as one DataError naming the file and the question, so the CLI exits 2 with no
traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import DataError, DossierError, Problem
from ..core.game import Game
from .questions import DeclarationError, Question, describe
from .rulings import Ruling, Table
from .trust import fingerprint, require_trust

MODULE_FILE = "referee.py"
TIME_LIMIT = 5.0  # seconds a game's module may take to load, and each question to answer
LONGEST_MESSAGE = 300  # characters of a failing module's own message kept in ours


@dataclass(frozen=True)
class Referee:
    """A game's referee module, loaded: its file, its questions by name, and its position check if it has one."""

    file: Path
    questions: dict[str, Question]
    position_check: Callable[..., Any] | None


class _OutOfTime(BaseException):
    """Raised inside a game's code when its time is up; a BaseException so its own `except Exception` cannot keep it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with _OutOfTime after `seconds`, where the platform allows (a main thread with SIGALRM)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _cut(text: str) -> str:
    return text if len(text) <= LONGEST_MESSAGE else text[:LONGEST_MESSAGE] + "…"


def _fault(file: Path, where: str, exc: BaseException) -> DataError:
    """One clear message for code that failed: what it did, in a line."""
    if isinstance(exc, _OutOfTime):
        said = f"took longer than {TIME_LIMIT:g} s and was stopped"
    elif isinstance(exc, SystemExit):
        said = f"tried to exit the program (exit code {exc.code!r}); a referee answers or raises QuestionError"
    elif isinstance(exc, SyntaxError):
        said = f"cannot be read as Python: line {exc.lineno}: {exc.msg}"
    else:
        said = f"raised {type(exc).__name__}: {_cut(str(exc))}"
    return DataError([Problem(file, where, said, "bad-referee")])


@contextmanager
def guarded(file: Path, where: str) -> Iterator[None]:
    """Run a game's code: its deliberate refusals pass, its faults become one DataError naming `file` and `where`."""
    try:
        with time_limit(TIME_LIMIT):
            yield
    except (DossierError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the game's code is not ours: whatever it does wrong is reported, never a traceback
        raise _fault(file, where, exc) from None


def module_path(game: Game) -> Path:
    """Where the game's referee module lives."""
    return game.folder / MODULE_FILE


def _import(folder: Path, file: Path) -> types.ModuleType:
    """The folder's referee module, imported as `<package>.referee` of a package made of the folder."""
    # named by the folder and its code, so an edited module is imported afresh, never taken from an earlier import
    package = "dossier_game_" + hashlib.sha1(f"{folder.resolve()}\0{fingerprint(folder)}".encode()).hexdigest()[:12]
    name = f"{package}.{file.stem}"
    if name in sys.modules:
        return sys.modules[name]
    holder = types.ModuleType(package)
    holder.__path__ = [str(folder)]  # a namespace for the folder's own modules, so they import each other relatively
    sys.modules[package] = holder
    try:
        with guarded(file, ""):
            return importlib.import_module(name)
    except BaseException:
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
        raise


def load_referee(game: Game) -> Referee:
    """The game's referee module, trusted, imported and its questions read; DataError when it is missing or breaks the contract."""
    file = module_path(game)
    if not file.is_file():
        raise DataError([Problem(file, "", f"{game.info.title} has no referee yet (no {MODULE_FILE} in its folder)", "no-referee")])
    require_trust(game.folder, file)
    module = _import(game.folder, file)
    found = getattr(module, "QUESTIONS", None)
    if not isinstance(found, dict) or not found or not all(isinstance(k, str) for k in found):
        raise DataError([Problem(file, "QUESTIONS", "expected a dict from question names to the functions answering them", "bad-referee")])
    questions: dict[str, Question] = {}
    for name, function in found.items():
        try:
            questions[name] = describe(name, function)
        except DeclarationError as exc:
            raise DataError([Problem(file, f"QUESTIONS[{name!r}]", str(exc), "bad-referee")]) from None
    check = getattr(module, "check_position", None)
    if check is not None and not callable(check):
        raise DataError([Problem(file, "check_position", "is not a function", "bad-referee")])
    return Referee(file, questions, check)


def ask(referee: Referee, question: Question, table: Table, values: dict[str, Any]) -> Ruling:
    """The question's ruling at `table`; a deliberate refusal passes, any fault of the game's code is reported."""
    where = f"QUESTIONS[{question.name!r}]"
    with guarded(referee.file, where):
        ruling = question.function(table, **values)
    if not isinstance(ruling, Ruling):
        raise DataError([Problem(referee.file, where, f"returned {type(ruling).__name__}, not a Ruling", "bad-referee")])
    if not isinstance(ruling.verdict, question.verdicts):
        raise DataError([Problem(referee.file, where, f"gave the verdict {ruling.verdict!r}, which is not one of its "
                                 f"{question.verdicts.__name__}", "bad-referee")])
    wanted = question.facts or type(None)
    if not isinstance(ruling.facts, wanted):
        raise DataError([Problem(referee.file, where, f"gave the fields {type(ruling.facts).__name__}, not its declared "
                                 f"{wanted.__name__}", "bad-referee")])
    return ruling.named(question.name)
