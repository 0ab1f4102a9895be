"""Writing files so that a reader never sees half of one, and sets of files so that a reader never sees half a set.

One file (`atomic_write`): a temporary file beside it, renamed over it once complete. A set
(`staged_folder`, e.g. a build's products for one game): every file is written into a staging
folder beside the target folder, what the target already holds is carried over (hard links, so
nothing is copied), and the two folders are swapped in one step. A kill at any moment leaves
the whole old set or the whole new set; the leftovers (staging folders, temporary files) are
cleared by the next writer of that folder (`clear_leftovers`).

Writers lock the folder they change and its parent (`folder_lock`), so a second command
writing there waits for the first. Dossier writes only over regular files and into folders
it can swap whole: a link, a device or a FIFO where a file goes is refused, never replaced.
A folder Dossier made lists the files it wrote there in MANIFEST, so cleaning up deletes
only those, never a user's own file that happens to look like one.
"""

from __future__ import annotations

import ctypes
import errno
import logging
import os
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

from .errors import OutputError, display_path
from .files import Kind, kind_of

MANIFEST = ".dossier-files"
# How long (seconds) a writer waits for another Dossier command writing into the same folder.
LOCK_WAIT = 600.0
_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.dossier-(?P<state>new|old)-[A-Za-z0-9_]+$")
_PART = re.compile(r"^\..+\.dossier-[A-Za-z0-9_]+\.part$")
_log = logging.getLogger("dossier")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def refuse_unless_replaceable(path: Path) -> None:
    """Raise OutputError unless `path` is free or a regular file Dossier may write over."""
    kind = kind_of(path, follow=False)
    if kind not in (Kind.MISSING, Kind.FILE):
        raise OutputError(f"{display_path(path)} is {kind}; Dossier writes only over regular files, "
                          "so choose another --out or move it away")


def make_folder(folder: Path) -> Path:
    """`folder`, created (with its parents) when missing; OutputError when something else is there."""
    kind = kind_of(folder)
    if kind is Kind.MISSING:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot make the folder {display_path(folder)}: {exc.strerror or exc}") from None
    elif kind is not Kind.FOLDER:
        raise OutputError(f"{display_path(folder)} is {kind}, not a folder to write into")
    return folder


@contextmanager
def atomic_write(path: Path, mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file beside `path`; on success it replaces `path`, on any error it is removed."""
    path = Path(path)
    refuse_unless_replaceable(path)
    make_folder(path.parent)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.dossier-", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o666 & ~_umask())  # mkstemp makes the file private; give it the usual permissions
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to `path` atomically; returns `path`."""
    with atomic_write(path, "wb") as handle:
        handle.write(data)
    return Path(path)


def write_text(path: Path, text: str) -> Path:
    """Write `text` (UTF-8) to `path` atomically; returns `path`."""
    with atomic_write(path, "w") as handle:
        handle.write(text)
    return Path(path)


# --- what Dossier wrote in a folder ------------------------------------------------------------

def written_here(folder: Path) -> set[str]:
    """The files (paths relative to `folder`) Dossier wrote into `folder`, from its MANIFEST; empty without one."""
    manifest = folder / MANIFEST
    if kind_of(manifest, follow=False) is not Kind.FILE:
        return set()
    try:
        return {line for line in manifest.read_text(encoding="utf-8").splitlines() if line}
    except (OSError, UnicodeDecodeError):
        return set()


def record_written(folder: Path, names: set[str]) -> None:
    """Set `folder`'s MANIFEST to `names` (the files Dossier wrote there that are still there)."""
    write_text(folder / MANIFEST, "".join(f"{name}\n" for name in sorted(names)))


# --- locking and leftovers -----------------------------------------------------------------------

@contextmanager
def folder_lock(folder: Path, wait: float | None = None) -> Iterator[None]:
    """Hold the lock of `folder` and of its parent for the block; another holder is waited for up to
    `wait` seconds (LOCK_WAIT by default, said once on the "dossier" logger), then refused with OutputError.

    Every writer locks the folder whose entries it changes and that folder's parent, parents first,
    so a command replacing a folder and one writing a file inside it keep apart."""
    try:
        import fcntl
    except ImportError:  # no advisory locks (Windows): writers there are not kept apart
        yield
        return
    wait = LOCK_WAIT if wait is None else wait
    with ExitStack() as stack:
        for each in dict.fromkeys((folder.parent, folder)):  # the parent first, as every writer does
            try:
                fd = os.open(each, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            except OSError:
                continue  # a folder we cannot open (a parent without read access) cannot be locked by others either
            stack.callback(os.close, fd)
            deadline = time.monotonic() + wait
            told = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise
                if time.monotonic() >= deadline:
                    raise OutputError(f"another dossier command is writing into {display_path(each)}; "
                                      f"waited {wait:g} s, try again when it has finished")
                if not told:
                    _log.warning("waiting for another dossier command writing into %s", display_path(each))
                    told = True
                time.sleep(0.05)
        yield


def _remove(path: Path) -> None:
    if kind_of(path, follow=False) is Kind.FOLDER:
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def clear_leftovers(folder: Path) -> None:
    """Remove what a killed writer left in `folder` (held under its lock): staging folders, temporary
    files; an old set whose new set never arrived is put back."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if _PART.match(entry.name) and entry.is_file(follow_symlinks=False):
            _remove(Path(entry.path))
            continue
        found = _LEFTOVER.match(entry.name)
        if not found or not entry.is_dir(follow_symlinks=False):
            continue
        target = folder / found["name"]
        if found["state"] == "old" and kind_of(target, follow=False) is Kind.MISSING:
            os.rename(entry.path, target)  # killed between the two renames of a swap: the old set returns
        else:
            _remove(Path(entry.path))


# --- swapping a set of files in --------------------------------------------------------------------

def _exchange(a: Path, b: Path) -> bool:
    """Swap folders `a` and `b` in one step (Linux renameat2); False where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not every system syncs folders; the files themselves are synced
    finally:
        os.close(fd)


def _carry_over(source: Path, staging: Path, relative: str, keep: Callable[[str], bool]) -> None:
    """Link into `staging` what `source` holds that the new set did not write (and `keep` keeps)."""
    for entry in os.scandir(source):
        name = f"{relative}{entry.name}"
        there = staging / entry.name
        kind = kind_of(Path(entry.path), follow=False)
        if name == MANIFEST or _PART.match(entry.name):
            continue
        if kind_of(there, follow=False) is not Kind.MISSING:
            if kind is Kind.FOLDER and kind_of(there, follow=False) is Kind.FOLDER:
                _carry_over(Path(entry.path), there, f"{name}/", keep)
            elif kind is not Kind.FILE:
                raise OutputError(f"{display_path(Path(entry.path))} is {kind}; Dossier writes only over "
                                  "regular files, so move it away")
            continue
        if not keep(name):
            continue
        if kind is Kind.FILE:
            try:
                os.link(entry.path, there)
            except OSError:  # a file system without hard links
                shutil.copy2(entry.path, there)
        elif kind is Kind.LINK:
            os.symlink(os.readlink(entry.path), there)
        elif kind is Kind.FOLDER:
            there.mkdir()
            shutil.copystat(entry.path, there)
            _carry_over(Path(entry.path), there, f"{name}/", keep)
        else:
            raise OutputError(f"{display_path(Path(entry.path))} is {kind}; Dossier carries only files, "
                              "folders and links into a new set, so move it away")


def _files_under(folder: Path, relative: str = "") -> set[str]:
    names = set()
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            names |= _files_under(Path(entry.path), f"{relative}{entry.name}/")
        else:
            names.add(f"{relative}{entry.name}")
    return names


@contextmanager
def staged_folder(target: Path, drop: Callable[[str], bool] = lambda name: False) -> Iterator[Path]:
    """A new empty folder beside `target` to write a whole set of files into; when the block succeeds,
    it becomes `target` in one step; on any error it is removed and `target` is untouched.

    Write the files with any means. Files `target` holds that the block does not write are carried
    into the new set, except those Dossier wrote there earlier (its MANIFEST) for which
    `drop(name)` is true, such as the pages of an earlier, longer build. The block runs under
    `folder_lock(target.parent)`, after what a killed run left there is cleared.

        with staged_folder(out / "mygame") as folder:
            (folder / "deck.json").write_text(...)
    """
    target = Path(target).absolute()
    make_folder(target.parent)
    with folder_lock(target.parent):
        clear_leftovers(target.parent)
        with _swapped_in(target, drop) as staging:
            yield staging


@contextmanager
def _swapped_in(target: Path, drop: Callable[[str], bool]) -> Iterator[Path]:
    kind = kind_of(target, follow=False)
    if kind not in (Kind.MISSING, Kind.FOLDER):
        raise OutputError(f"{display_path(target)} is {kind}; Dossier writes a set of files only into "
                          "a folder it can replace whole, so move it away or choose another --out")
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.dossier-new-", dir=target.parent))
    old = target.parent / f".{target.name}.dossier-old-{secrets.token_hex(4)}"
    try:
        yield staging
        written = _files_under(staging)
        earlier = written_here(target) if kind is Kind.FOLDER else set()
        if kind is Kind.FOLDER:
            _carry_over(target, staging, "", lambda name: not (name in earlier and drop(name)))
            os.chmod(staging, os.stat(target).st_mode & 0o7777)
        else:
            os.chmod(staging, 0o777 & ~_umask())
        record_written(staging, written | (earlier & _files_under(staging)))
        _sync_folder(staging)
        if kind is Kind.MISSING:
            os.rename(staging, target)
        elif _exchange(staging, target):
            _remove(staging)  # it now holds the old set
        else:
            os.rename(target, old)  # a kill between these two renames is undone by clear_leftovers
            os.rename(staging, target)
            _remove(old)
        _sync_folder(target.parent)
    except BaseException:
        _remove(staging)
        if kind_of(old, follow=False) is Kind.FOLDER and kind_of(target, follow=False) is Kind.MISSING:
            os.rename(old, target)
        raise
