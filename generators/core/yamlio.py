"""Reading YAML safely: no object construction, duplicate keys refused, errors named by file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import DataError, Problem

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_Base):  # type: ignore[misc, valid-type]
    """A safe loader that refuses a key given twice in one mapping, which YAML would silently overwrite."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    mapping: dict = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in mapping:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} appears twice in one mapping", mark
            )
        mapping[key] = loader.construct_object(value_node, deep=deep)
    return mapping


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml(path: Path) -> Any:
    """The document in `path`; a missing, unreadable or malformed file raises DataError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError([Problem(path, "", "file not found", "missing-file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError([Problem(path, "", f"cannot read file: {exc}", "unreadable")]) from None
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = exc.problem or exc.context or "malformed YAML"
        raise DataError([Problem(path, where, f"YAML syntax error: {problem}", "yaml-syntax")]) from None
    except yaml.YAMLError as exc:
        raise DataError([Problem(path, "", f"YAML error: {exc}", "yaml-syntax")]) from None
