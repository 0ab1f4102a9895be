"""Layout presets drive what is drawn: a designer's change in a preset moves the print."""

from __future__ import annotations

import pdfplumber
import pytest

MM = 72 / 25.4
TILE_HEIGHT = 25.4  # the Spies! tile is 1.5 x 1 inch (layouts/spies.yaml)


def band_heights(pdf_path) -> list[float]:
    """Heights (mm) of the filled rectangles across the top of the tiles on the first page: the id/years bands."""
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        tiles = [r for r in page.rects if r["stroke"] and not r["fill"]]
        fills = [r for r in page.rects if r["fill"] and not r["stroke"]]
        first = min(tiles, key=lambda r: (r["top"], r["x0"]))
        return [round((r["bottom"] - r["top"]) / MM, 2) for r in fills
                if abs(r["top"] - first["top"]) < 0.5 and abs(r["x0"] - first["x0"]) < 0.5]


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
