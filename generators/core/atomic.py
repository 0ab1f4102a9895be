"""Writing files so that a reader never sees half of one: write a temporary file beside it, then rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_write(path: Path, mode: str = "wb") -> Iterator[IO]:
    """Open a temporary file beside `path`; on success it replaces `path`, on any error it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
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
