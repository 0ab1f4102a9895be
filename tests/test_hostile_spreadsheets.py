"""Hostile spreadsheet rosters: each refused (or read) in bounded time with the file named and no traceback;
a workbook's XML that would reach outside itself or grow without end is refused by the parser, named."""

from __future__ import annotations

import os
import re
import time
import zipfile
from pathlib import Path

import pytest

if os.environ.get("CI") != "true":  # CI installs every dependency; a developer's older venv may lack openpyxl
    pytest.importorskip("openpyxl")


def _thread_seconds(run):
    start = time.thread_time()
    result = run()
    return result, time.thread_time() - start  # this thread's processor time: a busy machine does not inflate it


def test_a_header_of_many_empty_columns_over_many_rows_is_read_in_bounded_time(cli, here):
    # 200,000 empty header cells and 20,000 short rows (240 kB): each empty column was checked against every
    # row, 4,000 million steps, over two minutes; now every row is read once
    assert cli("new", "mini", "--format", "csv").code == 0
    roster = here / "mini" / "pieces.csv"
    lines = roster.read_text(encoding="utf-8").splitlines()
    roster.write_text("\n".join([lines[0] + "," * 200_000] + lines[1:] + ["x"] * 20_000) + "\n", encoding="utf-8")
    result, spent = _thread_seconds(lambda: cli("validate", "--game", "./mini"))
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "mini/pieces.csv: pieces[6].name (also pieces[7].name" in result.stderr  # the rows of "x" name no piece
    assert spent < 20, f"{spent:.1f} s of processor time"


@pytest.mark.parametrize("form", ["csv", "xlsx"])
def test_a_row_using_more_columns_than_a_roster_may_have_is_refused(cli, here, form):
    assert cli("new", "mini", "--format", form).code == 0
    roster = here / "mini" / f"pieces.{form}"
    header = [f"field{i}" for i in range(1_001)]
    if form == "csv":
        roster.write_text(",".join(header) + "\n" + ",".join("1" for _ in header) + "\n", encoding="utf-8")
    else:
        from openpyxl import Workbook

        book = Workbook()
        book.active.title = "pieces"
        book.active.append(header)
        book.save(roster)
    result = cli("validate", "--game", "./mini")
    assert result.code == 2 and "Traceback" not in result.stderr
    assert f"mini/pieces.{form}: a row uses 1,001 columns, more than the 1,000 a roster may have" in result.stderr


def _rewrite_sheet(workbook: Path, change) -> None:
    with zipfile.ZipFile(workbook) as source:
        entries = [(info.filename, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(workbook, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, change(data) if name == "xl/worksheets/sheet1.xml" else data)


LAUGHS = (b'<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
          + b"".join(b'<!ENTITY %c "%s">' % (98 + i, b"&%c;" % (97 + i) * 10) for i in range(8)) + b"]>")


@pytest.mark.parametrize("change, reason", [
    (lambda d: b'<!DOCTYPE worksheet [<!ENTITY e SYSTEM "file:///etc/passwd">]>' + d.replace(b"<t>Fox</t>", b"<t>&e;</t>"),
     "undefined entity &e;"),
    (lambda d: LAUGHS + d.replace(b"<t>Fox</t>", b"<t>&i;</t>"), "limit on input amplification factor"),
    (lambda d: d[: len(d) // 2], "unclosed token"),
], ids=["external-entity", "billion-laughs", "truncated"])
def test_a_workbook_whose_sheet_xml_is_hostile_or_broken_is_refused_naming_it(cli, here, change, reason):
    assert cli("new", "mini", "--format", "xlsx").code == 0
    _rewrite_sheet(here / "mini" / "pieces.xlsx", change)
    result = cli("validate", "--game", "./mini")
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr and "root:" not in result.stdout + result.stderr
    assert f"mini/pieces.xlsx: cannot read sheet 'pieces' of this workbook: {reason}" in result.stderr


def test_a_workbook_claiming_every_column_is_read_as_written(cli, here):
    # the sheet says it spans A1:XFD2001: rows were padded to 16,384 cells each before being read
    from openpyxl import Workbook

    assert cli("new", "mini", "--format", "xlsx").code == 0
    book = Workbook()
    book.active.title = "pieces"
    book.active.append(["kind", "nation", "name", "strength"])
    for i in range(2_000):
        book.active.append(["agent", "red", f"Agent {i}", 2])
    book.save(here / "mini" / "pieces.xlsx")
    _rewrite_sheet(here / "mini" / "pieces.xlsx", lambda d: re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD2001"/>', d))
    result, spent = _thread_seconds(lambda: cli("validate", "--game", "./mini"))
    assert result.code == 0, result.stderr
    assert "mini: valid (2000 pieces" in result.stdout
    assert spent < 6, f"{spent:.1f} s of processor time"
