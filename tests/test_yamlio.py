"""Reading YAML: Dossier's own construction of a document gives exactly what PyYAML's safe loader gives."""

from __future__ import annotations

import datetime

import pytest
import yaml

from generators.core import paths
from generators.core.errors import DataError
from generators.core.yamlio import load_text

EVERY_KIND = """\
name: Spies!
plain: 12
hex: 0x1f
octal: 0o17
under: 1_000
float: 2.5
exp: 1e3
yes: true
no: false
nothing: ~
empty:
date: 1981-06-01
quoted: "12"
single: 'true'
list: &shared [a, 1, {b: 2.0}]
again: *shared
nested: {x: [1, [2, [3]]], 7: one, 2.5: two, true: three}
"""


def test_every_kind_of_scalar_reads_as_pyyaml_reads_it():
    mine, theirs = load_text(EVERY_KIND), yaml.safe_load(EVERY_KIND)
    assert mine == theirs and repr(mine) == repr(theirs)
    assert mine["hex"] == 31 and mine["quoted"] == "12" and mine["single"] == "true" and mine["nothing"] is None
    assert isinstance(mine["date"], datetime.date) and mine["nested"][True] == "three"


def test_an_alias_is_the_same_value_as_its_anchor():
    document = load_text(EVERY_KIND)
    assert document["again"] is document["list"]


@pytest.mark.parametrize("text", ["a: 1\na: 2\n", "top: {k: 1, k: 1}\n", "- {? [1, 2] : x}\n"])
def test_a_key_given_twice_or_a_list_as_key_is_refused(text):
    with pytest.raises(DataError) as caught:
        load_text(text)
    assert caught.value.problems[0].code == "yaml-value"


def test_every_shipped_file_reads_as_pyyaml_reads_it():
    files = sorted(paths.components_dir().rglob("*.yaml")) + sorted(paths.layouts_dir().glob("*.yaml"))
    assert len(files) > 20
    for file in files:
        text = file.read_text(encoding="utf-8")
        mine, theirs = load_text(text, file), yaml.load(text, Loader=yaml.SafeLoader)
        assert mine == theirs and repr(mine) == repr(theirs), file


def test_merge_keys_and_explicit_tags_read_as_pyyaml_reads_them():
    text = "base: &b {x: 1, y: 2}\nchild: {<<: *b, z: 3}\nset: !!set {a, b}\nstr: !!str 12\n"
    assert load_text(text) == yaml.safe_load(text)
