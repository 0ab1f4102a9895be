"""What a path is before Dossier reads or writes it, and which names may become folders.

Reading a FIFO blocks for ever, reading a device never ends, a link loop makes every lookup fail;
these are named and refused before anything is opened. A game's name becomes a folder of the
output, so it must be one plain folder name.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from enum import Enum
from pathlib import Path


class Kind(str, Enum):
    """What is found at a path, in the words a message uses."""

    MISSING = "missing"
    FILE = "a regular file"
    FOLDER = "a folder"
    LINK = "a symbolic link"
    LINK_LOOP = "a symbolic link loop"
    DANGLING_LINK = "a symbolic link to nothing"
    FIFO = "a FIFO (named pipe)"
    DEVICE = "a device"
    SOCKET = "a socket"
    UNREADABLE = "unreadable"

    def __str__(self) -> str:
        return self.value


def kind_of_mode(mode: int) -> Kind:
    """The Kind of a file with stat mode `mode`."""
    if stat.S_ISREG(mode):
        return Kind.FILE
    if stat.S_ISDIR(mode):
        return Kind.FOLDER
    if stat.S_ISLNK(mode):
        return Kind.LINK
    if stat.S_ISFIFO(mode):
        return Kind.FIFO
    if stat.S_ISSOCK(mode):
        return Kind.SOCKET
    return Kind.DEVICE


def kind_of(path: Path, follow: bool = True) -> Kind:
    """What `path` is, following symbolic links unless `follow` is False; never raises."""
    try:
        mode = os.stat(path, follow_symlinks=follow).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Kind.LINK_LOOP
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return Kind.DANGLING_LINK if follow and os.path.lexists(path) else Kind.MISSING
        return Kind.UNREADABLE
    return kind_of_mode(mode)


def lies_outside(path: Path, folder: Path) -> bool:
    """Whether `path`, its symbolic links followed, lies outside `folder` (its links followed too)."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(folder))
    except ValueError:
        return True
    return False


def why_unreadable(path: Path) -> str:
    """The operating system's reason `path` cannot be looked at ("Permission denied")."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return "unknown reason"


_UNSAFE = re.compile(r'[/\\<>:"|?*\x00-\x1f\x7f]')
MAX_NAME = 100
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$", re.I)


def folder_name_problem(name: str) -> str | None:
    """Why `name` cannot be used as one plain folder name on any common system, or None when it can."""
    if not name:
        return "is empty"
    if name != name.strip():
        return "starts or ends with a space"
    if name.startswith("."):
        return "starts with a dot ('.', '..' and hidden names are not plain folder names)"
    found = _UNSAFE.search(name)
    if found:
        return f"holds {found.group()!r}, which a folder name cannot"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if name.endswith("."):
        return "ends with a dot, which Windows drops from a folder's name"
    if _RESERVED.match(name):
        return "is a name Windows reserves for a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension)"
    return None
