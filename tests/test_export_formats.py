"""The rules the exports follow, one small case each: VASSAL's sequence encoding and trait stacking,
Tabletop Simulator's sheet limits, the board list, and writing an export whole or not at all."""

from __future__ import annotations

import csv
import errno
import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from test_export import decode, export, traits

from generators.core import paths
from generators.export import boards
from generators.export.output import Bundle, ExportError, publish
from generators.printing.painter import Drawing
from generators.export.sequence import encode
from generators.export.tts import MAX_FACES, grid, plan_sheets
from generators.export.vassal import add_piece, basic_piece, delete, flip_layer, mask
from generators.printing.counters import piece_label
from generators.validation import load_game

# ---------------------------------------------------------------- VASSAL's SequenceEncoder


def test_sequence_joins_values_with_the_delimiter():
    assert encode(["piece", "", "", "a.png", "Georgi"], ";") == "piece;;;a.png;Georgi"


def test_sequence_escapes_the_delimiter_inside_a_value():
    assert encode(["a;b", "c"], ";") == "a\\;b;c"
    assert decode(encode(["a;b", "c"], ";"), ";") == ["a;b", "c"]


def test_sequence_quotes_a_value_that_ends_with_a_backslash_as_vassal_does():
    assert encode(["x\\", "y"], ";") == "'x\\';y" and encode(["\\x"], ";") == "\\x"


def test_sequence_quotes_a_value_already_in_single_quotes():
    assert decode(encode(["'quoted'", "x"], ";"), ";") == ["'quoted'", "x"]


def test_sequence_writes_booleans_and_numbers_as_java_does():
    assert encode([True, False, 0, 128, 1.0, None], ";") == "true;false;0;128;1.0;"


def test_piece_traits_nest_with_escaped_tabs_and_decode_back():
    stack = [delete(), flip_layer("b.png", "BACK"), basic_piece("f.png", "Name; with/slash", 7)]
    assert traits(add_piece(stack)) == [(t.type, t.state) for t in stack]


def test_basic_piece_names_its_image_and_name_and_slot_id():
    piece = basic_piece("f.png", "Georgi 1", 12)
    assert decode(piece.type, ";") == ["piece", "", "", "f.png", "Georgi 1"]
    assert decode(piece.state, ";") == ["null", "0", "0", "12", "0"]


def test_flip_layer_fields_sit_where_embellishment_reads_them():
    fields = decode(flip_layer("back.png", "RUSSIA +1").type[len("emb2;"):], ";")
    assert fields[0] == "Flip" and decode(fields[15], ",") == ["back.png"]
    assert decode(decode(fields[16], ",")[0], "+") == ["RUSSIA +1"]  # a '+' in the name is not a prefix marker
    assert (fields[24], fields[25], fields[26]) == ("1", "false", "70,130")  # version, always active, activate key
    assert len(fields) == 33


def test_mask_shows_its_image_to_others_when_face_down():
    fields = decode(mask("back.png", "Event Tile").type[len("obs;"):], ";")
    assert fields[:5] == ["70,130", "back.png", "Flip", "P", "Event Tile"]
    assert decode(mask("b.png", "").state, ";") == ["null", ""]  # not masked until a deck or a player turns it


# ---------------------------------------------------------------- Tabletop Simulator sheets

def test_grid_of_69_faces_is_ten_by_seven():
    columns, rows, _ = grid(69, (12.7, 12.7))
    assert (columns, rows) == (10, 7)


def test_grid_keeps_a_free_slot_for_the_hidden_image():
    for count in (1, 9, 20, 68):
        columns, rows, _ = grid(count, (63.0, 88.0))
        assert columns * rows >= count + 1 and columns <= 10 and rows <= 7


def test_grid_lowers_the_resolution_to_stay_within_4096_pixels():
    columns, rows, dpi = grid(50, (38.1, 25.4))
    assert columns * round(38.1 / 25.4 * dpi) <= 4096 and rows * round(25.4 / 25.4 * dpi) <= 4096


def test_sheets_hold_at_most_69_faces_and_number_cards_by_sheet_and_slot(spies):
    from generators.export.parts import Part

    def part(n: int) -> Part:
        return Part(kind="spy", id=f"p{n}", name=str(n), label=str(n), group=("Spy",), size=(12.7, 12.7),
                    front=lambda *a: None, back=lambda *a: None)

    parts = [part(n) for n in range(2 * MAX_FACES + 1)]
    sheets = plan_sheets(spies, parts)
    assert [len(s.parts) for s in sheets] == [69, 69, 1]
    assert sheets[1].card_id(parts[MAX_FACES + 3]) == 203


# ---------------------------------------------------------------- the board list

def test_a_board_added_to_the_list_is_shown_by_both_exports(tmp_path, monkeypatch):
    """How a display board is picked up: an entry in boards.BOARDS naming the function that draws it."""
    def display(game, settings, fonts):
        return boards.Picture(Drawing(100.0, 60.0, lambda painter: painter.rect(0, 0, 100.0, 60.0, fill="#336699")))

    monkeypatch.setattr(boards, "test_display", display, raising=False)
    monkeypatch.setitem(boards.BOARDS, "display", "generators.export.boards:test_display")
    assert export(tmp_path, "tts", "--game", "special-action-tokens") == 0
    assert export(tmp_path, "vassal", "--game", "special-action-tokens") == 0
    game = tmp_path / "special-action-tokens"
    title = load_game("special-action-tokens").info.title
    saved = json.loads((game / "tts" / "special-action-tokens.json").read_text(encoding="utf-8"))
    assert [o["Nickname"] for o in saved["ObjectStates"] if o["Name"] == "Custom_Board"] == [f"{title} display"]
    with zipfile.ZipFile(game / "special-action-tokens.vmod") as archive:
        build = ET.fromstring(archive.read("buildFile.xml"))
        names = set(archive.namelist())
    maps = list(build.iter("VASSAL.build.module.Map"))
    assert maps[0].get("mapName") == f"{title} display" and maps[0].get("launch") == "false"
    board = maps[0].find(".//VASSAL.build.module.map.boardPicker.Board")
    assert f"images/{board.get('image')}" in names


# ---------------------------------------------------------------- every game exports

@pytest.mark.parametrize("name", [g for g in paths.installed_games() if g != "spies"])
def test_every_other_game_exports_every_piece_with_both_sides(tmp_path, name):
    assert export(tmp_path, "images", "--game", name, "--dpi", "40") == 0  # low resolution: this checks drawing, not pixels
    with open(tmp_path / name / "images" / "images.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    game = load_game(name)
    labels = {piece_label(game, piece) for piece in game.pieces}
    fronts = [r for r in rows if r["face"] == "front" and r["piece"] in labels]
    assert sum(int(r["copies"]) for r in fronts) == game.count()
    assert len([r for r in rows if r["face"] == "back"]) == len([r for r in rows if r["face"] == "front"])
    assert all((tmp_path / name / "images" / r["file"]).is_file() for r in rows)


# ---------------------------------------------------------------- writing whole or not at all

def visible(folder: Path) -> list[str]:
    """The files under `folder` a user sees (Dossier's own record of what it wrote is hidden)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))


def test_publish_replaces_a_folder_whole_and_leaves_no_stale_file(tmp_path):
    folder = tmp_path / "tts"
    publish(Bundle(folder, {"a.json": b"{}", "stale.png": b"old"}), tmp_path)
    (folder / "mine.txt").write_text("a player's own note", encoding="utf-8")
    publish(Bundle(folder, {"a.json": b"{}", "img/b.png": b"png"}), tmp_path)
    assert visible(folder) == ["a.json", "img/b.png", "mine.txt"]  # the earlier export's file went, the player's stayed
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["tts"]  # no staging folder left


def test_publish_that_fails_halfway_leaves_the_old_folder_as_it_was(tmp_path, monkeypatch):
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "old.png").write_bytes(b"old")
    written = []

    def failing(path: Path, data: bytes) -> Path:
        if len(written) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        written.append(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    import generators.printing.render as render  # the one writer every export and build publishes through

    monkeypatch.setattr(render, "write_bytes", failing)
    with pytest.raises(ExportError, match="No space left on device"):
        publish(Bundle(folder, {f"{n}.png": b"new" for n in range(5)}), tmp_path)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["images"]
    assert visible(folder) == ["old.png"] and (folder / "old.png").read_bytes() == b"old"


def test_publish_of_loose_files_keeps_the_folder_s_other_files(tmp_path):
    publish(Bundle(tmp_path / "spies", {"game.vmod": b"zip"}, owns_folder=False), tmp_path)
    (tmp_path / "spies" / "map.pdf").write_bytes(b"pdf")
    publish(Bundle(tmp_path / "spies", {"game.vmod": b"zip2"}, owns_folder=False), tmp_path)
    assert visible(tmp_path / "spies") == ["game.vmod", "map.pdf"] and (tmp_path / "spies" / "game.vmod").read_bytes() == b"zip2"


def test_a_module_made_twice_with_source_date_epoch_is_the_same_bytes(tmp_path, monkeypatch):
    """SOURCE_DATE_EPOCH fixes the module's save date and its zip entries' dates, as it fixes the PDFs' dates."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    modules = []
    for run in ("one", "two"):
        assert export(tmp_path / run, "vassal", "--game", "special-action-tokens") == 0
        modules.append((tmp_path / run / "special-action-tokens" / "special-action-tokens.vmod").read_bytes())
    assert modules[0] == modules[1]
    with zipfile.ZipFile(tmp_path / "one" / "special-action-tokens" / "special-action-tokens.vmod") as archive:
        saved = ET.fromstring(archive.read("moduledata")).findtext("dateSaved")
        dates = {info.date_time for info in archive.infolist()}
    assert saved == "1700000000000" and dates == {(2023, 11, 14, 22, 13, 20)}
