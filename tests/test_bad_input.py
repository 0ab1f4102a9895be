"""Whatever a user writes into a data file or a length option, the answer is a DossierError, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generators.core.errors import DataError, OptionError
from generators.core.units import parse_length, parse_offset
from generators.validation import load_game

yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 3000), st.text(max_size=12))
yaml_values = st.recursive(yaml_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=10)


@pytest.fixture(scope="module")
def spies_folder(tmp_path_factory):
    import shutil

    from generators.core import paths

    target = tmp_path_factory.mktemp("games") / "spies"
    shutil.copytree(paths.components_dir() / "spies", target)
    return target


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["kind", "name", "nation", "strength", "count", "cost", "games"]), value=yaml_values)
def test_any_value_in_a_piece_is_accepted_or_refused_cleanly(spies_folder, field, value):
    import yaml

    path = spies_folder / "pieces.yaml"
    original = path.read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    data["pieces"][0][field] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        load_game(spies_folder)
    except DataError as exc:
        assert exc.problems and all(str(p).startswith(str(path)) or "pieces.yaml" in str(p) for p in exc.problems)
    finally:
        path.write_text(original, encoding="utf-8")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
def test_any_bytes_as_a_tiles_file_are_refused_or_read(spies_folder, text):
    path = spies_folder / "tiles.yaml"
    original = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        with pytest.raises(DataError):
            load_game(spies_folder)
    finally:
        path.write_text(original, encoding="utf-8")


@pytest.mark.parametrize("text, mm", [("12.7mm", 12.7), ("5/8in", 15.875), ("1.5cm", 15.0), ("36pt", 12.7), ("16", 16.0), ("0.5 in", 12.7)])
def test_lengths(text, mm):
    assert parse_length(text) == pytest.approx(mm)


@given(st.text(max_size=15))
def test_any_length_text_parses_or_is_refused(text):
    try:
        parse_length(text)
    except OptionError as exc:
        assert repr(text) in str(exc) or "division by zero" in str(exc)


def test_offsets():
    assert parse_offset("0.4mm,-0.2mm") == pytest.approx((0.4, -0.2))
    assert parse_offset("0.3mm,0.3mm") == pytest.approx((0.3, 0.3))
    with pytest.raises(OptionError, match="one value"):
        parse_offset("1mm")  # across only, or both? written out, never guessed
    with pytest.raises(OptionError):
        parse_offset("1mm,2mm,3mm")
