"""What a validated game answers, kept on disk between commands and keyed by the content of everything that made it.

A question about the map or the rules should not pay for reading and checking the whole game every time it is
asked. Once a game has been read and found valid, what it answered is kept under a key: the sha256 of Dossier's
own code (every .py file of the package, and the libraries installed beside it, by name and version) and of every
file in the game's folder and in the layout presets' folder, each by its path and its bytes. Any change to any of
them (an edit that keeps the size and the time, a new file, a removed one, another Dossier) gives another key, so
a kept answer is never one the files as they are would not give; the key is worked out afresh by every command,
from the bytes. Only a game that passed every check is kept, so a broken game is always reported from its files.
A key is taken before and after the files are read, and nothing is kept when the two differ (a file edited
while it was read).

The cache is a folder of small JSON files, one per key: $DOSSIER_CACHE, else $XDG_CACHE_HOME/dossier, else
~/.cache/dossier; DOSSIER_CACHE=off keeps none. A missing, unreadable or damaged entry is a miss, and a folder
that cannot be written keeps nothing: neither changes an answer.

What is worked out from values rather than from files (where a map's names go, from the places, sizes and shapes
measured for them) is kept under `inputs_key`: the sha256 of the code and of those values themselves.

An entry may also say, for each part, its design key: the same key with `DESIGN` where the code's version goes.
That is the key a game ships the part under (core.shipped): what the data gives, whatever code reads it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
import sys
from functools import cache
from pathlib import Path
from typing import Any

from . import paths
from .errors import DossierError

FORMAT = 1  # of an entry; a change of what an entry holds changes it
OFF = "off"
MOST_FILES = 10_000  # files a game folder and the presets may hold before their answers are not kept
LARGEST_TREE = 256 * 1024 * 1024  # bytes those files may hold together before their answers are not kept
LARGEST_ENTRY = 16 * 1024 * 1024  # bytes of one entry read back
MOST_ENTRIES = 64  # entries kept; the oldest go first
DESIGN = "as designed"  # where a design key has the code's version
_CHUNK = 1024 * 1024


class _Unkeyable(Exception):
    """A tree that cannot be keyed safely: too large, unreadable, or holding a link out of it or a special file."""


def cache_folder() -> Path | None:
    """Where entries are kept, or None when DOSSIER_CACHE=off (a relative XDG_CACHE_HOME is ignored, as XDG says)."""
    chosen = os.environ.get("DOSSIER_CACHE")
    if chosen is not None and chosen.strip():
        return None if chosen.strip().lower() == OFF else Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if base and os.path.isabs(base) else Path.home() / ".cache") / "dossier"


def _libraries() -> list[str]:
    """The distributions installed where the libraries Dossier runs on are (names and versions, from their folders)."""
    found = []
    for entry in sys.path:
        if os.path.basename(entry) in ("site-packages", "dist-packages") and os.path.isdir(entry):
            found += sorted(name for name in os.listdir(entry) if name.endswith((".dist-info", ".egg-info")))
    return found


@cache
def code_version() -> str:
    """The sha256 of the code answering: Python's version, the libraries installed, and every .py file of the
    package by its path and bytes. Taken once a process, as the code that runs is the code imported."""
    digest = hashlib.sha256(f"{sys.version_info[:3]}\n{_libraries()}\n".encode())
    root = paths.PACKAGE_DIR
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in ("__pycache__", "_data"))
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            digest.update(f"{os.path.relpath(path, root)}\n".encode())
            with open(path, "rb") as handle:
                digest.update(hashlib.sha256(handle.read()).digest())
    return digest.hexdigest()


def _tree(root: Path, digest: Any, budget: list[int]) -> None:
    """Every entry under `root` into `digest`, by path and kind, and each file by its bytes."""
    digest.update(f"tree {root}\n".encode())
    todo = [root]
    while todo:
        folder = todo.pop()
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=lambda e: e.name)
        for entry in listed:
            if entry.name == "__pycache__":
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _Unkeyable("too many files")
            relative = os.path.relpath(entry.path, root)
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                target = Path(entry.path).resolve()
                if not target.is_relative_to(root.resolve()):  # what it reaches is not in the key
                    raise _Unkeyable(f"{entry.path} links out of {root}")
                digest.update(f"link {relative} {os.readlink(entry.path)}\n".encode())
            elif stat.S_ISDIR(mode):
                digest.update(f"folder {relative}\n".encode())
                todo.append(Path(entry.path))
            elif stat.S_ISREG(mode):
                digest.update(f"file {relative}\n".encode())
                with open(entry.path, "rb") as handle:
                    while chunk := handle.read(_CHUNK):
                        budget[1] -= len(chunk)
                        if budget[1] < 0:
                            raise _Unkeyable("too many bytes")
                        digest.update(chunk)
                digest.update(b"\n")
            else:
                raise _Unkeyable(f"{entry.path} is not a file")


def game_key(folder: Path) -> str | None:
    """The key of what the game in `folder` answers, from the bytes of its files, the presets and the code;
    None when it cannot be keyed safely (nothing is then kept or recalled)."""
    digest = hashlib.sha256(f"dossier cache {FORMAT}\n{code_version()}\n".encode())
    budget = [MOST_FILES, LARGEST_TREE]
    try:
        for root in (Path(folder), paths.layouts_dir()):
            _tree(root.absolute(), digest, budget)
    except (_Unkeyable, OSError, ValueError):
        return None
    return digest.hexdigest()


def inputs_key(part: str, *inputs: Any, code: str | None = None) -> str | None:
    """The key of what `part` works out from `inputs` alone (and the code): the sha256 of the code and of every
    input's value, taken apart to the last number (text, numbers by their exact repr, lists, tuples, dicts and
    dataclasses item by item, shapes by their WKB, a shape given again by its number among those given before).
    None when an input is of a kind not taken apart: nothing is then kept or recalled. `code=DESIGN` gives the
    design key."""
    digest = hashlib.sha256(f"dossier inputs {FORMAT}\n{part}\n{code or code_version()}\n".encode())
    shapes: dict[int, int] = {}
    try:
        for value in inputs:
            _fingerprint(value, digest, shapes)
    except _Unkeyable:
        return None
    return digest.hexdigest()


def _fingerprint(value: Any, digest: Any, shapes: dict[int, int]) -> None:
    """Feed `value` to `digest`; `shapes` numbers the shapes met so far by identity, as many inputs share one
    shape (a map's labels, each the land it should keep off) and its WKB is long."""
    kind = type(value)
    if value is None or kind in (bool, int):
        digest.update(f"{kind.__name__} {value}\n".encode())
    elif isinstance(value, float):
        digest.update(f"float {float.__repr__(value)}\n".encode())
    elif kind is str:
        digest.update(f"str {len(value)}\n{value}\n".encode())
    elif kind in (list, tuple, dict):
        digest.update(f"{kind.__name__} {len(value)}\n".encode())
        for item in (value.items() if kind is dict else value):
            _fingerprint(item, digest, shapes)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        digest.update(f"{kind.__module__}.{kind.__qualname__} {len(fields)}\n".encode())
        for f in fields:
            _fingerprint(f.name, digest, shapes)
            _fingerprint(getattr(value, f.name), digest, shapes)
    elif kind.__module__.startswith("shapely"):
        import shapely

        if not isinstance(value, shapely.Geometry):
            raise _Unkeyable(f"a {kind.__name__}")
        if id(value) in shapes:  # the inputs hold it while the key is made, so its identity is not reused
            digest.update(f"shape again {shapes[id(value)]}\n".encode())
            return
        shapes[id(value)] = len(shapes)
        shape = shapely.to_wkb(value)
        digest.update(f"shape {len(shape)}\n".encode() + shape)
    else:
        raise _Unkeyable(f"a {kind.__name__}")


def as_plain(value: Any) -> Any:
    """`value` (numbers, text, lists, tuples and dataclasses of them) as plain JSON data that `from_plain` reads back."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [as_plain(v) for v in value]
    if kind is tuple:
        return {"tuple": [as_plain(v) for v in value]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"dataclass": kind.__qualname__, "fields": {f.name: as_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    raise ValueError(f"a {kind.__name__} is not kept")


def from_plain(data: Any, types: dict[str, type]) -> Any:
    """What `as_plain` made `data` from, its dataclasses among `types` (by name); ValueError for anything else."""
    if isinstance(data, list):
        return [from_plain(v, types) for v in data]
    if isinstance(data, dict):
        if set(data) == {"tuple"} and isinstance(data["tuple"], list):
            return tuple(from_plain(v, types) for v in data["tuple"])
        if set(data) == {"dataclass", "fields"} and data["dataclass"] in types and isinstance(data["fields"], dict):
            try:
                return types[data["dataclass"]](**{k: from_plain(v, types) for k, v in data["fields"].items()})
            except TypeError as exc:
                raise ValueError(str(exc)) from None
        raise ValueError("not data as_plain makes")
    return data


def _entry(key: str) -> Path | None:
    folder = cache_folder()
    return folder / f"{key}.json" if folder is not None else None


def read_json(path: Path | None) -> Any:
    """The JSON document in the regular file `path`, or None when it is missing, unreadable, too large or not JSON."""
    if path is None:
        return None
    try:
        # O_NONBLOCK and the check of what was opened: a FIFO or device planted as an entry is a miss, not a hang
        with os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            text = handle.read(LARGEST_ENTRY + 1)
        return json.loads(text) if len(text) <= LARGEST_ENTRY else None
    except (OSError, TypeError, ValueError):
        return None


def _read_entry(key: str) -> dict:
    entry = read_json(_entry(key))
    if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("parts"), dict):
        return {}
    return entry


def recall(key: str | None, part: str) -> Any:
    """What was kept as `part` ("network") under `key`, or None."""
    return _read_entry(key).get("parts", {}).get(part) if key else None


def keep(key: str | None, part: str, value: Any, design: str | None = None) -> None:
    """Keep `value` (plain JSON data) as `part` under `key`, with its design key when it has one; a folder that
    cannot be written keeps nothing."""
    path = _entry(key) if key else None
    if path is None:
        return
    from .atomic import write_text

    entry = _read_entry(key)
    parts = entry.get("parts", {}) | {part: value}
    designs = (entry.get("designs") if isinstance(entry.get("designs"), dict) else {}) | ({part: design} if design else {})
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_text(path, json.dumps({"key": key, "parts": parts, "designs": designs}, ensure_ascii=False, separators=(",", ":")))
        _prune(path.parent)
    except (OSError, DossierError):  # a cache that cannot be written is no cache, never an error
        return


def _prune(folder: Path) -> None:
    """Remove the oldest entries beyond MOST_ENTRIES."""
    entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:-MOST_ENTRIES]:
        old.unlink(missing_ok=True)


def designed_parts(folder: Path) -> dict[str, dict[str, Any]]:
    """Every part kept in the cache folder `folder` that has a design key, as {design key: {part: value}}."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        entry = read_json(path)
        if not isinstance(entry, dict) or not isinstance(entry.get("parts"), dict) or not isinstance(entry.get("designs"), dict):
            continue
        for part, design in entry["designs"].items():
            if isinstance(design, str) and part in entry["parts"]:
                found.setdefault(design, {})[part] = entry["parts"][part]
    return found
