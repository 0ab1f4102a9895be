"""Running a game's own Python (its `referee.py`) and telling its faults from the game's answers.

The module runs only once its folder is trusted (see `trust`), made from the very bytes whose
fingerprint was checked, as part of a package made of its folder's .py files, so it may import
sibling modules; nothing else in the folder (compiled caches, extension modules) is ever loaded. Importing it and answering each
question run under a time limit. A question's deliberate refusals (QuestionError and the
other DossierErrors) pass through as answers do; anything else the code does (raising,
exiting, taking too long, returning something other than a Ruling of its own verdicts) is
reported as one DataError naming the file and the question, so the CLI exits 2 with no
traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
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
from .trust import GameCode, require_trust

MODULE_FILE = "referee.py"
TIME_LIMIT = 5.0  # seconds of processor time a game's module may take to load, and each question to answer
WALL_LIMIT = 60.0  # seconds on the clock, for code that waits (sleeps, reads) rather than computes
LONGEST_MESSAGE = 300  # characters of a failing module's own message kept in ours


@dataclass(frozen=True)
class Referee:
    """A game's referee module, loaded: its file, its questions by name, its position check and its game replay if it has them."""

    file: Path
    questions: dict[str, Question]
    position_check: Callable[..., Any] | None
    game_replay: Callable[..., Any] | None = None


class _OutOfTime(BaseException):
    """Raised inside a game's code when its time is up; a BaseException so its own `except Exception` cannot keep it."""


@contextmanager
def time_limit(seconds: float, wall: float) -> Iterator[None]:
    """Interrupt the block with _OutOfTime after `seconds` of processor time or `wall` seconds on the clock, where the
    platform allows (a main thread with SIGPROF and SIGALRM). Processor time, because a busy machine stretches the
    clock, not the work."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise _OutOfTime

    timers = ((signal.SIGPROF, signal.ITIMER_PROF, seconds), (signal.SIGALRM, signal.ITIMER_REAL, wall))
    previous = [(number, signal.signal(number, expire)) for number, _, _ in timers]
    for _, timer, limit in timers:
        signal.setitimer(timer, limit)
    try:
        yield
    finally:
        for _, timer, _ in timers:
            signal.setitimer(timer, 0)
        for number, handler in previous:
            signal.signal(number, handler)


def _cut(text: str) -> str:
    return text if len(text) <= LONGEST_MESSAGE else text[:LONGEST_MESSAGE] + "…"


def _fault(file: Path, where: str, exc: BaseException) -> DataError:
    """One clear message for code that failed: what it did, in a line."""
    if isinstance(exc, _OutOfTime):
        said = f"took longer than {TIME_LIMIT:g} s of processor time (or {WALL_LIMIT:g} s in all) and was stopped"
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
        with time_limit(TIME_LIMIT, WALL_LIMIT):
            yield
    except (DossierError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # the game's code is not ours: whatever it does wrong is reported, never a traceback
        raise _fault(file, where, exc) from None


def module_path(game: Game) -> Path:
    """Where the game's referee module lives."""
    return game.folder / MODULE_FILE


class _GameModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes a game's modules from the bytes read and fingerprinted (`GameCode`), never from what the import system finds.

    Each game is one package, named by its folder and its fingerprint; a module of that package
    is its .py file's source as read (a sub-folder of .py files is a sub-package), compiled here.
    A name with no source among them is not found, whatever lies in the folder."""

    def __init__(self) -> None:
        self.games: dict[str, GameCode] = {}

    def find_spec(self, fullname, path=None, target=None):
        package, _, inner = fullname.partition(".")
        code = self.games.get(package)
        if code is None:
            return None
        if not inner:
            return importlib.machinery.ModuleSpec(fullname, self, origin=str(code.folder), is_package=True)
        relative = inner.replace(".", "/")
        if f"{relative}.py" in code.sources:
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=str(code.folder / f"{relative}.py"))
        elif f"{relative}/__init__.py" in code.sources:
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=str(code.folder / relative / "__init__.py"),
                                                  is_package=True)
        elif any(name.startswith(relative + "/") for name in code.sources):
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=str(code.folder / relative), is_package=True)
        else:
            return None
        spec.has_location = spec.origin.endswith(".py")
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        spec = module.__spec__
        code = self.games[spec.name.partition(".")[0]]
        if not spec.has_location:
            return  # the package itself, or a folder of modules without __init__.py: nothing to run
        module.__file__ = spec.origin
        source = code.sources[Path(spec.origin).relative_to(code.folder).as_posix()]
        exec(compile(source, spec.origin, "exec", dont_inherit=True), module.__dict__)


_MODULES = _GameModules()


def _import(code: GameCode, file: Path) -> types.ModuleType:
    """The folder's referee module, made from `code` as `<package>.referee` of a package made of the folder."""
    # named by the folder and its code, so an edited module is imported afresh, never taken from an earlier import
    package = "dossier_game_" + hashlib.sha1(f"{code.folder}\0{code.fingerprint}".encode()).hexdigest()[:12]
    name = f"{package}.{file.stem}"
    if name in sys.modules:
        return sys.modules[name]
    if _MODULES not in sys.meta_path:
        sys.meta_path.insert(0, _MODULES)
    _MODULES.games[package] = code
    try:
        with guarded(file, ""):
            return importlib.import_module(name)
    except BaseException:
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
        del _MODULES.games[package]
        raise


def load_referee(game: Game) -> Referee:
    """The game's referee module, trusted, imported and its questions read; DataError when it is missing or breaks the contract."""
    file = module_path(game)
    if not file.is_file():
        raise DataError([Problem(file, "", f"{game.info.title} has no referee yet (no {MODULE_FILE} in its folder)", "no-referee")])
    module = _import(require_trust(game.folder, file), file)
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
    replay = getattr(module, "replay_game", None)
    if replay is not None and not callable(replay):
        raise DataError([Problem(file, "replay_game", "is not a function", "bad-referee")])
    return Referee(file, questions, check, replay)


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
