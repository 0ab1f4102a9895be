"""Reading YAML safely: no object construction, duplicate keys refused, errors named by file and line.

Hostile files are refused before they cost much: a path that is not a regular file (a folder,
a FIFO, a device, a link loop), a file over limits.MAX_FILE_BYTES, aliases that would expand a
small file into millions of values ("billion laughs") or into itself, integers longer than
Python converts, and numbers that are not finite.
"""

from __future__ import annotations

import math
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .collector import collector_paused
from .errors import DataError, Problem
from .files import Kind, kind_of, kind_of_mode, lies_outside, why_unreadable
from .limits import MAX_FILE_BYTES, MAX_YAML_VALUES

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_Base):  # type: ignore[misc, valid-type]
    """A safe loader that refuses a key given twice in one mapping, which YAML would silently overwrite."""

    def resolve(self, kind, value, implicit):
        """The tag of a node, as the safe resolver gives it; a plain scalar's is remembered by its text, as
        a roster repeats the same names and numbers thousands of times (the resolvers never change)."""
        if kind is yaml.ScalarNode and implicit[0]:
            return _plain_tag(value)
        return super().resolve(kind, value, implicit)


@lru_cache(maxsize=4096)
def _plain_tag(value: str) -> str:
    resolvers = _StrictLoader.yaml_implicit_resolvers
    for tag, pattern in resolvers.get(value[:1], []) + resolvers.get(None, []):
        if pattern.match(value):
            return tag
    return yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG


def _refuse(node: yaml.Node, problem: str) -> None:
    raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def _refuse_repeated(key_node: yaml.Node, key, mapping: dict) -> None:
    """Refuse a key that cannot be one (a list or mapping) or that `mapping` already holds."""
    try:
        seen = key in mapping
    except TypeError:
        _refuse(key_node, "a list or mapping cannot be a key")
    if seen:
        _refuse(key_node, f"key {key!r} appears twice in one mapping")


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    mapping: dict = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        _refuse_repeated(key_node, key, mapping)
        mapping[key] = loader.construct_object(value_node, deep=deep)
    return mapping


def _construct_int(loader: _StrictLoader, node: yaml.ScalarNode) -> int:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:  # Python refuses to convert more than 4,300 digits
        _refuse(node, f"a whole number of {len(node.value):,} characters is too long to read")


def _construct_float(loader: _StrictLoader, node: yaml.ScalarNode) -> float:
    value = yaml.constructor.SafeConstructor.construct_yaml_float(loader, node)
    if not math.isfinite(value):
        _refuse(node, f"{node.value!r} is not a finite number")
    return value


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_StrictLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_StrictLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a document whose values, each alias counted as often as it is used, exceed MAX_YAML_VALUES,
    or which holds itself. Aliases share nodes, so counting once per node is linear in the file."""
    size: dict[int, int] = {}  # values under each list or mapping, itself included; a scalar counts 1
    opened: set[int] = set()
    stack: list[yaml.Node] = [root]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in size or isinstance(node, yaml.ScalarNode):
            stack.pop()
            continue
        children = [part for pair in node.value for part in pair] if isinstance(node, yaml.MappingNode) else node.value
        if key not in opened:
            opened.add(key)
            pending = [c for c in children if not isinstance(c, yaml.ScalarNode) and id(c) not in size]
            if any(id(c) in opened for c in pending):
                _refuse(node, "an alias refers to a value that holds it, which would never end")
            if pending:
                stack.extend(pending)
                continue
        total = 1 + sum(1 if isinstance(c, yaml.ScalarNode) else size[id(c)] for c in children)
        if total > MAX_YAML_VALUES:
            _refuse(node, f"aliases expand this document to more than {MAX_YAML_VALUES:,} values, "
                          "more than any game needs; write the values out or use fewer aliases")
        opened.discard(key)
        size[key] = total
        stack.pop()


def _load(text: str) -> Any:
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "&" in text and "*" in text:  # aliases need an anchor (&name) and a use (*name)
            _check_expansion(node)
        if "<<" in text:  # merge keys: PyYAML's own construction
            return loader.construct_document(node)
        return _construct(loader, node)
    finally:
        loader.dispose()


_MAP, _SEQ, _STR = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:str"


def _construct(loader: _StrictLoader, root: yaml.Node) -> Any:
    """The document under `root`, as PyYAML's safe construction builds it (the same constructors for every
    scalar, a node used twice built once, a key given twice refused) without its generic per-value machinery:
    a roster of 10,000 pieces is 90,000 values. Only for documents without merge keys; a value of any other
    tag than a plain mapping or list, or a scalar no constructor is known for, is PyYAML's to build or refuse."""
    built: dict[int, Any] = {}  # each list and mapping, by its node: an alias's value is the same object
    scalars = loader.yaml_constructors
    Scalar = yaml.ScalarNode

    def value(node: yaml.Node) -> Any:
        tag = node.tag
        if type(node) is Scalar:
            if tag == _STR:
                return node.value
            return scalars[tag](loader, node) if tag in scalars else loader.construct_object(node, deep=True)
        found = built.get(id(node))
        if found is not None:
            return found
        if tag == _SEQ:
            result = built[id(node)] = []
            result.extend(value(item) for item in node.value)
        elif tag == _MAP:
            result = built[id(node)] = {}
            for key_node, value_node in node.value:
                key = key_node.value if type(key_node) is Scalar and key_node.tag == _STR else value(key_node)
                _refuse_repeated(key_node, key, result)
                result[key] = value_node.value if type(value_node) is Scalar and value_node.tag == _STR else value(value_node)
        else:
            result = built[id(node)] = loader.construct_object(node, deep=True)
        return result

    return value(root)


def _refuse_unless_file(path: Path, kind: Kind) -> None:
    """DataError naming `path` unless `kind` is a regular file."""
    if kind is Kind.MISSING:
        raise DataError([Problem(path, "", "file not found", "missing-file")])
    if kind is Kind.UNREADABLE:
        raise _unreadable(path, why_unreadable(path))
    if kind is not Kind.FILE:
        raise DataError([Problem(path, "", f"is {kind}, not a regular file", "not-a-file")])


def _unreadable(path: Path, why: str) -> DataError:
    return DataError([Problem(path, "", f"cannot read file: {why}", "unreadable")])


def refuse_unless_inside(path: Path, folder: Path) -> None:
    """DataError unless `path` is a regular file that no symbolic link leads outside `folder` (such a file is left
    unread: its text would be echoed in messages)."""
    _refuse_unless_file(path, kind_of(path))
    if lies_outside(path, folder):
        raise DataError([Problem(path, "", "is a symbolic link to a file outside the game folder, which is not read; "
                                 "copy the file into the folder instead", "outside-folder")])


def read_bounded_text(path: Path, limit: int = MAX_FILE_BYTES, what: str = "a data file", within: Path | None = None) -> str:
    """The UTF-8 text of the regular file at `path`, at most `limit` bytes; refusing anything else before opening it
    for long (a FIFO, a device, a folder), and a file a symbolic link leads to outside the folder `within`
    (unread: its text would be echoed in messages), with DataError naming the file."""
    if within is not None:
        refuse_unless_inside(path, within)
    else:
        _refuse_unless_file(path, kind_of(path))
    try:
        # O_NONBLOCK: should the path become a FIFO after the check, opening it does not hang
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            _refuse_unless_file(path, kind_of_mode(os.fstat(handle.fileno()).st_mode))  # what was opened, checked again
            data = handle.read(limit + 1)
        if len(data) > limit:
            most = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1000} kB"
            raise DataError([Problem(path, "", f"is larger than {most}, the most {what} may be", "too-large")])
        return data.decode("utf-8")
    except OSError as exc:
        raise _unreadable(path, exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise _unreadable(path, f"not UTF-8 text (byte {exc.start})") from None


def _where(exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""


# Characters no text of a game may hold: controls other than tab and newline (a carriage return would come
# back as a newline from every XML export), lone surrogates and the non-characters XML 1.0 forbids.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def unprintable(path: Path, document: Any) -> list[Problem]:
    """A problem for each text (key or value) holding a character no printed text or export file can hold."""
    problems = []
    stack: list[tuple[Any, str]] = [(document, "")]
    while stack and len(problems) < 20:
        value, where = stack.pop()
        if isinstance(value, str):
            found = _UNPRINTABLE.search(value)
            if found:
                problems.append(Problem(path, where or "(the document)", f"holds the control character U+{ord(found.group()):04X}, "
                                        "which no printed text or export can hold; remove it", "control-character"))
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((item, f"{where}.{key}" if where else str(key)))
                if isinstance(key, str):
                    stack.append((key, f"{where}.{key}" if where else key))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))
    return sorted(set(problems), key=lambda p: p.where)


def read_yaml(path: Path, within: Path | None = None) -> Any:
    """The document in `path`; a missing, unreadable, oversized or malformed file raises DataError, and so does
    a file outside the folder `within` that a symbolic link leads to."""
    path = Path(path)
    return load_text(read_bounded_text(path, within=within), path)


def load_text(text: str, path: Path = Path("")) -> Any:
    """The YAML document in `text` (read from `path`, which problems name), with read_yaml's limits and refusals."""
    try:
        with collector_paused():  # a parse makes many small objects that live on; rescanning them is wasted
            document = _load(text)
    except yaml.constructor.ConstructorError as exc:  # well-formed, but a value Dossier refuses to build
        raise DataError([Problem(path, _where(exc), exc.problem or "cannot read this value", "yaml-value")]) from None
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or exc.context or "malformed YAML"
        raise DataError([Problem(path, _where(exc), f"YAML syntax error: {problem}", "yaml-syntax")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(path, "", f"YAML error: {exc}", "yaml-syntax")]) from None
    if "\\" in text or "\r" in text:  # control characters reach a value only through escapes ("\x0b") or a CR
        problems = unprintable(path, document)
        if problems:
            raise DataError(problems)
    return document


# The loader itself, for a reader that walks the nodes (keeping each value's line) and constructs scalars with the same limits.
StrictLoader = _StrictLoader
