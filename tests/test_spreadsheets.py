"""Rosters kept in a spreadsheet (pieces.csv, pieces.xlsx; tiles likewise): read with the same validation as YAML,
problems named by sheet, row and column, and the same PDF byte for byte as the YAML twin."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

if os.environ.get("CI") != "true":  # CI installs every dependency; a developer's older venv may lack openpyxl
    pytest.importorskip("openpyxl")


def rows(file: Path) -> list[list[str]]:
    with open(file, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def write_rows(file: Path, table: list[list[str]]) -> None:
    with open(file, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(table)


def validate_with_cell(cli, here, row: int, column: str, value: str):
    """`dossier validate` on a new CSV-roster game whose cell in `row` (0: the header) under `column` reads `value`;
    the result and the rows as written."""
    assert cli("new", "mini", "--format", "csv").code == 0
    roster = here / "mini" / "pieces.csv"
    table = rows(roster)
    table[row][table[0].index(column)] = value
    write_rows(roster, table)
    return cli("validate", "--game", "./mini"), table


def test_new_with_format_csv_writes_a_spreadsheet_roster_that_builds(cli, here):
    result = cli("new", "mini", "--format", "csv")
    assert result.code == 0, result.stderr
    assert (here / "mini" / "pieces.csv").is_file() and not (here / "mini" / "pieces.yaml").exists()
    table = rows(here / "mini" / "pieces.csv")
    assert table[0][:4] == ["kind", "nation", "name", "strength"] and len(table) == 7
    assert cli("validate", "--game", "./mini").stdout.startswith("mini: valid (7 pieces, 0 tiles)")
    assert cli("build", "--game", "./mini", "--only", "counters", "--out", here / "out").code == 0
    assert (here / "out" / "mini" / "counters.pdf").is_file()


@pytest.mark.parametrize("form", ["csv", "xlsx"])
def test_a_spreadsheet_roster_builds_the_same_pdf_as_its_yaml_twin(cli, tmp_path, monkeypatch, form):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    yaml_side, sheet_side = tmp_path / "yaml", tmp_path / "sheet"
    yaml_side.mkdir(), sheet_side.mkdir()
    assert cli("new", "twin", "--from", "spies", "--to", yaml_side).code == 0
    made = cli("new", "twin", "--from", "spies", "--to", sheet_side, "--format", form)
    assert made.code == 0, made.stderr
    assert {p.name for p in (sheet_side / "twin").glob("*")} >= {f"pieces.{form}", f"tiles.{form}"}
    assert not (sheet_side / "twin" / "pieces.yaml").exists() and not (sheet_side / "twin" / "tiles.yaml").exists()
    products = "counters,tiles" if form == "csv" else "counters"
    for side in (yaml_side, sheet_side):
        result = cli("build", "--game", side / "twin", "--only", products, "--out", side / "out")
        assert result.code == 0, result.stderr
    for name in [f"{p}.pdf" for p in products.split(",")]:
        one, other = (side / "out" / "twin" / name for side in (yaml_side, sheet_side))
        assert one.read_bytes() == other.read_bytes(), name


def test_a_bad_cell_is_named_by_row_column_and_piece(cli, here):
    result, table = validate_with_cell(cli, here, 2, "strength", "three")
    strength = table[0].index("strength")
    letter = "ABCDEFGH"[strength]
    assert result.code == 2
    assert (f"mini/pieces.csv: pieces[1].strength: expected a whole number, got 'three' "
            f"({table[2][table[0].index('name')]}, row 3, column {letter} (strength))") in result.stderr


def test_a_misspelt_column_suggests_the_field(cli, here):
    result, _ = validate_with_cell(cli, here, 0, "strength", "strenght")
    assert result.code == 2
    assert "mini/pieces.csv: pieces[0].strenght (also pieces[1].strenght" in result.stderr
    assert "unknown field; did you mean 'strength'? (Fox, row 2, column D (strenght))" in result.stderr


def test_a_workbook_names_its_sheet(cli, here):
    from openpyxl import load_workbook

    assert cli("new", "mini", "--format", "xlsx").code == 0
    book = load_workbook(here / "mini" / "pieces.xlsx")
    sheet = book["pieces"]
    header = [c.value for c in sheet[1]]
    sheet.cell(row=3, column=header.index("strength") + 1, value="three")
    book.save(here / "mini" / "pieces.xlsx")
    result = cli("validate", "--game", "./mini")
    assert result.code == 2
    assert "mini/pieces.xlsx: pieces[1].strength: expected a whole number, got 'three' (Lynx, sheet pieces, row 3, column" in result.stderr


def test_two_rosters_at_once_are_refused(cli, here):
    assert cli("new", "mini", "--format", "csv").code == 0
    assert cli("new", "other").code == 0
    (here / "mini" / "pieces.yaml").write_bytes((here / "other" / "pieces.yaml").read_bytes())
    result = cli("build", "--game", "./mini", "--out", here / "out")
    assert result.code == 2 and "pieces.yaml and pieces.csv both hold the pieces; keep one" in result.stderr
    assert not (here / "out").exists()


def test_a_file_that_is_not_a_workbook_is_refused_by_name(cli, here):
    assert cli("new", "mini").code == 0
    (here / "mini" / "pieces.yaml").unlink()
    (here / "mini" / "pieces.xlsx").write_bytes(b"kind,name\nagent,Fox\n")
    result = cli("validate", "--game", "./mini")
    assert result.code == 2 and "mini/pieces.xlsx: is not an .xlsx workbook" in result.stderr and "Traceback" not in result.stderr


def test_a_workbook_that_would_unpack_too_large_is_refused_unopened(cli, here):
    import zipfile

    assert cli("new", "mini").code == 0
    (here / "mini" / "pieces.yaml").unlink()
    with zipfile.ZipFile(here / "mini" / "pieces.xlsx", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (65 * 1024 * 1024))
    result = cli("validate", "--game", "./mini")
    assert result.code == 2 and "would unpack to more than 64 MB" in result.stderr


def test_a_control_character_in_a_cell_is_refused(cli, here):
    result, _ = validate_with_cell(cli, here, 1, "name", "F\x0box")
    assert result.code == 2 and "control character U+000B" in result.stderr


@pytest.mark.parametrize("form", ["csv", "xlsx"])
def test_a_spreadsheet_that_links_outside_the_game_folder_is_refused_unread(cli, here, form):
    assert cli("new", "mini", "--format", form).code == 0
    roster = here / "mini" / f"pieces.{form}"
    private = here / f"private.{form}"
    roster.rename(private)
    roster.symlink_to(private)
    result = cli("validate", "--game", "./mini")
    assert result.code == 2
    assert f"mini/pieces.{form}: is a symbolic link to a file outside the game folder, which is not read" in result.stderr


CARDS = [["card", "title", "side", "side_title", "heading", "text", "rules"],
         ["summary", "Mini summary", "front", "How to play", "Moving", "An agent moves one space a turn.", "Moving"],
         ["", "", "", "", "Winning", "Bring two dossiers home.", "Winning"]]


def _cards_sheet(game: Path, form: str, table: list[list[str]]) -> None:
    (game / "cards.yaml").unlink(missing_ok=True)
    if form == "csv":
        write_rows(game / "cards.csv", table)
        return
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "cards"
    for row in table:
        book.active.append([cell or None for cell in row])
    book.save(game / "cards.xlsx")


@pytest.mark.parametrize("form", ["csv", "xlsx"])
def test_reference_cards_kept_in_a_sheet_build_the_same_pdfs_as_their_yaml_twin(cli, tmp_path, monkeypatch, form):
    # one row an item; a card's, side's and section's own cells on its first row, empty cells filled down
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    yaml_side, sheet_side = tmp_path / "yaml", tmp_path / "sheet"
    for side in (yaml_side, sheet_side):
        side.mkdir()
        assert cli("new", "mini", "--to", side).code == 0
    _cards_sheet(sheet_side / "mini", form, CARDS)
    for side in (yaml_side, sheet_side):
        result = cli("build", "--game", side / "mini", "--only", "cards,player-aid", "--out", side / "out")
        assert result.code == 0, result.stderr
    for name in ("cards.pdf", "player-aid.pdf"):
        one, other = (side / "out" / "mini" / name for side in (yaml_side, sheet_side))
        assert one.read_bytes() == other.read_bytes(), name


@pytest.mark.parametrize("change, message", [
    ((1, 5, "Movement"), None),  # a second heading is a second section: still valid
    ((1, 2, "middle"), "mini/cards.csv: row 2, column C (side): 'middle' is not a side: write front or back"),
    ((0, 2, "sid"), "mini/cards.csv: column C: 'sid' is not a column of a cards sheet; did you mean 'side'?"),
    ((2, 1, "Other title"), "mini/cards.csv: row 3, column B (title): 'Other title' differs from 'Mini summary', "
                            "given above for the same title"),
])
def test_a_cards_sheet_that_cannot_be_read_as_cards_names_its_row_and_column(cli, here, change, message):
    assert cli("new", "mini").code == 0
    table = [list(row) for row in CARDS]
    row, column, value = change
    table[row][column] = value
    _cards_sheet(here / "mini", "csv", table)
    result = cli("validate", "--game", "./mini")
    if message is None:
        assert result.code == 0, result.stderr
    else:
        assert result.code == 2 and message in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_a_bad_value_in_a_cards_sheet_is_named_by_card_row_and_column(cli, here):
    assert cli("new", "mini").code == 0
    table = [row[:5] + ["grid"] + row[5:] for row in CARDS]
    table[0][5] = "show"
    _cards_sheet(here / "mini", "csv", table)
    result = cli("validate", "--game", "./mini")
    assert result.code == 2
    assert ("mini/cards.csv: cards[0].front.sections[0].show (also cards[0].front.sections[1].show): expected 'list', "
            "'steps' or 'table', got 'grid' (summary, row 2, column F (show))") in result.stderr, result.stderr


def test_cards_in_a_sheet_and_in_yaml_at_once_are_refused(cli, here):
    assert cli("new", "mini").code == 0
    write_rows(here / "mini" / "cards.csv", CARDS)
    result = cli("validate", "--game", "./mini")
    assert result.code == 2 and "cards.yaml and cards.csv both hold the cards; keep one" in result.stderr
