"""Each PDF says how to print it, in its document information and on its first page (paper, 100 %,
duplex edge), and its build date is SOURCE_DATE_EPOCH when set, so two builds are byte for byte equal."""

from __future__ import annotations

import time

import pdfplumber
import pytest


@pytest.fixture(scope="module")
def courier(tmp_path_factory):
    """The small example game, made once for this module."""
    from generators.cli import main

    folder = tmp_path_factory.mktemp("games")
    assert main(["new", "courier", "--to", str(folder)]) == 0
    return folder / "courier"


def _hint(pdf_path) -> tuple[str, str]:
    """The PDF's subject and its first page's text on one line."""
    with pdfplumber.open(pdf_path) as pdf:
        return pdf.metadata.get("Subject", ""), " ".join(pdf.pages[0].extract_text().split())


@pytest.mark.parametrize("args, product, advice", [
    ([], "counters", "print at 100 % on Letter, 2-sided, flip on long edge"),
    (["--paper", "a4", "--duplex", "short-edge"], "counters", "print at 100 % on A4, 2-sided, flip on short edge"),
    (["--fold"], "counters", "print at 100 % on Letter, one-sided; fold on the dashed line, glue, cut"),
    (["--paper", "a4"], "cards", "print at 100 % on A4, 2-sided, flip on long edge"),
    ([], "player-aid", "print at 100 % on Letter, one-sided"),  # the example game's aid fits one side
])
def test_each_pdf_says_how_to_print_it_in_its_metadata_and_first_page(cli, courier, tmp_path, args, product, advice):
    assert cli("build", "--game", courier, "--only", product, "--out", tmp_path, *args).code == 0
    subject, first_page = _hint(tmp_path / "courier" / f"{product}.pdf")
    assert subject == advice[0].upper() + advice[1:]
    assert advice in first_page


def test_tiles_say_one_sided(cli, tmp_path):
    assert cli("build", "--game", "spies", "--only", "tiles", "--out", tmp_path).code == 0
    subject, first_page = _hint(tmp_path / "spies" / "tiles.pdf")
    advice = "print at 100 % on Letter, one-sided"
    assert subject == "Print at 100 % on Letter, one-sided"
    assert advice in first_page or advice[::-1] in first_page  # up the left margin, which text extraction reads backwards


def test_the_build_date_is_source_date_epoch_and_builds_repeat_exactly(cli, courier, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    first, second = tmp_path / "a", tmp_path / "b"
    assert cli("build", "--game", courier, "--only", "counters", "--out", first).code == 0
    assert cli("build", "--game", courier, "--only", "counters", "--out", second).code == 0
    one, two = (first / "courier" / "counters.pdf").read_bytes(), (second / "courier" / "counters.pdf").read_bytes()
    assert one == two
    with pdfplumber.open(first / "courier" / "counters.pdf") as pdf:
        assert pdf.metadata["CreationDate"].startswith("D:20231114221320")


def test_without_source_date_epoch_the_build_date_is_today(cli, courier, tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert cli("build", "--game", courier, "--only", "counters", "--out", tmp_path).code == 0
    with pdfplumber.open(tmp_path / "courier" / "counters.pdf") as pdf:
        assert pdf.metadata["CreationDate"].startswith("D:" + time.strftime("%Y%m%d"))


def test_svg_covers_every_page_of_every_product_that_has_svg(cli, courier, tmp_path):
    assert cli("build", "--game", courier, "--format", "pdf,svg", "--out", tmp_path).code == 0
    folder = tmp_path / "courier"
    for product in ("counters", "cards", "player-aid"):
        with pdfplumber.open(folder / f"{product}.pdf") as pdf:
            pages = len(pdf.pages)
        assert sorted(p.name for p in folder.glob(f"{product}-*.svg")) == [f"{product}-{n}.svg" for n in range(1, pages + 1)]
