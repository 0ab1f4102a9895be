"""Layout presets drive what is drawn: a designer's change in a preset moves the print."""

from __future__ import annotations

import pdfplumber
import pytest

MM = 72 / 25.4
TILE_HEIGHT = 25.4  # the Spies! tile is 1.5 x 1 inch (layouts/spies.yaml)


def band_heights(pdf_path) -> list[float]:
    """Heights (mm) from the first tile's cut line down to the foot of each filled rectangle across its top: the
    id/years band (its colour carried past the cut into the gutter is not part of the tile)."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        tiles = [r for r in page.rects if r["stroke"] and not r["fill"]]
        fills = [r for r in page.rects if r["fill"] and not r["stroke"]]
        first = min(tiles, key=lambda r: (r["top"], r["x0"]))
        return [round((r["bottom"] - first["top"]) / MM, 2) for r in fills
                if r["top"] <= first["top"] + 0.5 and abs(r["x0"] - first["x0"]) < 2 * MM]


@pytest.mark.parametrize("band", [0.2, 0.35])
def test_the_tile_band_takes_the_share_of_the_height_the_layout_sets(cli, game_copy, tmp_path, band):
    folder = game_copy("spies")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "banded.yaml").write_text(f"extends: spies\ntiles: {{band: {band}}}\n", encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: spies", "layout: banded"), encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "tiles", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr
    heights = band_heights(tmp_path / "out" / "spies" / "tiles.pdf")
    assert pytest.approx(TILE_HEIGHT * band, abs=0.05) in heights, heights


def with_preset(game_copy, text: str):
    """A copy of Spies! printed with a preset that extends its own by `text`."""
    folder = game_copy("spies")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "edited.yaml").write_text(f"extends: spies\n{text}", encoding="utf-8")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("layout: spies", "layout: edited"), encoding="utf-8")
    return folder


def caption_chars(pdf_path) -> list[dict]:
    """The characters of the first page's caption: the line above the sheet, or below it where a line above would
    cost a row of pieces (its notes, if any, on the line under it)."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        tops = sorted({round(c["top"]) for c in page.chars})
        lines = [[c for c in page.chars if abs(c["top"] - edge) < 1] for edge in tops[:2] + tops[-2:]]
        return next((line for line in lines if "".join(c["text"] for c in line).startswith("Spies!")), lines[0])


@pytest.mark.parametrize("size", [7, 9])
def test_the_sheet_caption_takes_the_size_and_colour_the_layout_sets(cli, game_copy, tmp_path, size):
    folder = with_preset(game_copy, f'caption: {{size: {size}pt, colour: "#336699"}}\n')
    result = cli("build", "--game", folder, "--only", "counters", "--out", tmp_path / "out")
    assert result.code == 0, result.stderr
    chars = caption_chars(tmp_path / "out" / "spies" / "counters.pdf")
    assert "".join(c["text"] for c in chars).startswith("Spies!")
    assert {round(c["size"], 2) for c in chars} == {size}
    assert {tuple(round(v, 2) for v in c["non_stroking_color"]) for c in chars} == {(0.2, 0.4, 0.6)}


def title_sizes(pdf_path) -> set[float]:
    """The type sizes of the counters' texts on the first page (the caption left out)."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        top = min(c["top"] for c in page.chars)
        return {round(c["size"], 2) for c in page.chars if abs(c["top"] - top) >= 1}


@pytest.mark.parametrize("faces", ["{shares: {title: 3.0}}", "{emphasis: {value: 0.5}}"])
def test_the_face_shares_and_emphasis_come_from_the_layout(cli, game_copy, tmp_path, faces):
    folder = with_preset(game_copy, "")
    assert cli("build", "--game", folder, "--only", "counters", "--out", tmp_path / "plain").code == 0
    (folder / "layouts" / "edited.yaml").write_text(f"extends: spies\nfaces: {faces}\n", encoding="utf-8")
    result = cli("build", "--game", folder, "--only", "counters", "--out", tmp_path / "edited")
    assert result.code == 0, result.stderr
    assert title_sizes(tmp_path / "plain" / "spies" / "counters.pdf") != title_sizes(tmp_path / "edited" / "spies" / "counters.pdf")


def test_a_face_share_of_nothing_is_refused_with_its_field(cli, game_copy):
    folder = with_preset(game_copy, "faces: {shares: {title: 0}}\n")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "edited.yaml: faces.shares.title" in result.stderr, result.stderr
