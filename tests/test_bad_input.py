"""Whatever a user writes into a data file or a length option, the answer is a DossierError, never a crash."""

from __future__ import annotations

import pytest
import yaml
from hostile_helpers import TINY, write_game
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from generators.core.errors import DataError, OptionError
from generators.core.units import parse_length, parse_offset
from generators.validation import load_game

yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 3000), st.text(max_size=12))
yaml_values = st.recursive(yaml_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=10)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small game with pieces and tiles only, so each example loads in milliseconds."""
    files = {name: text for name, text in TINY.items() if name not in ("aliases.yaml", "cards.yaml")}
    return write_game(tmp_path_factory.mktemp("games") / "tiny", files)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["kind", "name", "nation", "strength", "count", "cost", "games"]), value=yaml_values)
def test_any_value_in_a_piece_is_read_as_written_or_refused_cleanly(tiny, field, value):
    path = tiny / "pieces.yaml"
    original = path.read_text(encoding="utf-8")
    data = yaml.safe_load(original)
    data["pieces"][0][field] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        game = load_game(tiny)
    except DataError as exc:
        assert exc.problems and all(p.file == path for p in exc.problems)
    else:  # types are strict: what is read is exactly what was written, never a coerced "1" or true
        assert getattr(game.pieces[0], field) == value and type(getattr(game.pieces[0], field)) is type(value)
    finally:
        path.write_text(original, encoding="utf-8")


tiles = st.lists(st.fixed_dictionaries({"number": st.integers(1, 99), "years": st.sampled_from([[1936], [1937], [1936, 1937]]),
                                         "event": st.text(st.characters(codec="utf-8"), min_size=1, max_size=20)}),
                 max_size=4, unique_by=lambda tile: tile["number"])
tiles_files = tiles.map(lambda found: yaml.safe_dump({"tiles": [{"id": f"Rd {t['number']}", "nation": "red", **t} for t in found]},
                                                     allow_unicode=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.text(max_size=40), tiles_files))
@example(text="tiles: [{id: Rd 1, nation: red, number: 1, years: [1936], event: A}]")  # read
@example(text="tiles: [{id: Rd 1, number: one}]")  # refused
def test_any_text_as_a_tiles_file_is_refused_or_read(tiny, text):
    path = tiny / "tiles.yaml"
    original = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        game = load_game(tiny)
    except DataError as exc:
        assert exc.problems and all(p.file == path for p in exc.problems)
    else:
        document = yaml.safe_load(text)
        assert [t.id for t in game.tiles] == [t["id"] for t in document["tiles"]]
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
