"""A map laid out afresh for a sheet its game does not ship for: the world board on an ANSI C sheet, upright,
with the key below the map. Spacing the cities apart may push one towards an edge; it must stop at the frame."""

from __future__ import annotations

import pytest

from generators.cli import main

MM_PER_PT = 25.4 / 72


@pytest.fixture(scope="module")
def ansi_c(tmp_path_factory):
    import shutil

    from generators.core import paths

    folder = tmp_path_factory.mktemp("sheet") / "web-of-spies"
    shutil.copytree(paths.components_dir() / "web-of-spies", folder, ignore=shutil.ignore_patterns("__pycache__", "worked-out.json"))
    (folder / "layouts").mkdir()
    (folder / "layouts" / "upright-c.yaml").write_text(
        "extends: web-of-spies\nposter: {paper: ansi-c, landscape: false, key_width: 0mm}\n", encoding="utf-8")
    game_file = folder / "game.yaml"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("layout: web-of-spies", "layout: upright-c"), encoding="utf-8")
    return folder


def test_every_space_lies_wholly_inside_the_frame_when_the_key_goes_below(ansi_c):
    from generators.map.spaces import map_frame, poster_places
    from generators.validation import load_game

    game = load_game(ansi_c)
    frame, _ = map_frame(game.map, game.layout)
    r = game.layout.poster.space / 2
    outside = {name: (round(x, 1), round(y, 1)) for name, (x, y) in poster_places(game).at.items()
               if name in {c.name for c in game.map.cities} and
               not (frame.x - 0.01 <= x - r and x + r <= frame.right + 0.01 and frame.y - 0.01 <= y - r and y + r <= frame.bottom + 0.01)}
    assert not outside


def test_the_upright_board_builds_on_its_sheet(ansi_c, tmp_path):
    import pdfplumber

    assert main(["build", "--game", str(ansi_c), "--only", "map", "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "web-of-spies" / "map.pdf") as pdf:
        page = pdf.pages[0]
        assert (round(float(page.width) * MM_PER_PT), round(float(page.height) * MM_PER_PT)) == (432, 559)
