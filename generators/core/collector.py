"""Pausing Python's cycle collector around work that makes many small objects which all live on.

Reading a large YAML file, validating it into records and laying out a document each make
hundreds of thousands of objects kept until the end; the collector would rescan all of them
again and again, which makes large inputs grow faster than linearly (a 5,000-city map check
takes about twice as long with it running).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the block (nested pauses are fine); it resumes as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
