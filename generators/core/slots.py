"""The {field} slots of a template text: the fields they name, and whether the text is well formed.

A slot is a field name and nothing else: no conversion ("{name!r}"), no format ("{name:>9}"),
no attribute or index ("{name.upper}"); "{{" and "}}" print braces. `template_problem` says
what is wrong with any other text, so data is refused when it is read, never when it is drawn
(a format such as "{name:>100000000}" would otherwise fill the memory).
"""

from __future__ import annotations

from functools import lru_cache
from string import Formatter

from .limits import shown


def template_problem(template: str) -> str | None:
    """Why `template` is not a text with plain {field} slots, or None when it is."""
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:  # "{name" or a lone "}"
        return f"is not a template: {exc}; write slots as {{field}} and braces as {{{{ and }}}}"
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier():
            what = "an empty slot {} names no field" if not name else f"slot {{{shown(name)[1:-1]}}} is not a field name"
            return f"{what}; write a field name, e.g. {{name}}"
        if conversion or spec:
            return f"slot {{{name}}} carries a conversion or format ('!' or ':'); a slot is a field name only"
    return None


def slots(template: str) -> list[str]:
    """The field names `template` fills, in order; the template has passed `template_problem`."""
    return list(_slots(template))


@lru_cache(maxsize=4096)
def _slots(template: str) -> tuple[str, ...]:
    # a roster fills the same few templates for every piece: each is parsed once
    return tuple(name for _, name, _, _ in Formatter().parse(template) if name)
