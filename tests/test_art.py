"""Pictures on pieces and tiles, and the glyphs every text needs: measured in the PDFs, refused by
`dossier validate` with the file, the field and the problem."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from generators.cli import main
from generators.validation import load_game

MM = 72 / 25.4


def cut_boxes(page):
    return [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects if r["stroke"] and not r["fill"]]


def inside(obj, box) -> bool:
    x0, top, x1, bottom = box
    return x0 <= obj["x0"] and obj["x1"] <= x1 and top <= obj["top"] and obj["bottom"] <= bottom


def box_text(page, box) -> str:
    chars = sorted((c for c in page.chars if inside(c, box)), key=lambda c: (round(c["top"], 1), c["x0"]))
    return "".join(c["text"] for c in chars if not c["text"].isspace())


def image_objects(path: Path) -> set[int]:
    """The distinct image XObjects (by object number) the PDF's pages place."""
    found = set()
    for page in PdfReader(path).pages:
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            if ref.get_object().get("/Subtype") == "/Image":
                found.add(ref.idnum)
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("art")
    assert main(["build", "--game", "global-1936-spies", "--out", str(out), "--only", "counters"]) == 0
    return out


def test_a_png_on_many_faces_is_embedded_once(built):
    game = load_game("global-1936-spies")
    markers = sum(p.count for p in game.pieces) * game.layout.copies.counters
    path = built / "global-1936-spies" / "counters.pdf"
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        boxes = cut_boxes(page)
        placed = [image for image in page.images if any(inside(image, box) for box in boxes)]
    assert len(boxes) == markers and len(placed) == markers
    assert len(image_objects(path)) == 1


def test_a_tile_picture_is_placed_beside_its_text(cli, game_copy, tmp_path):
    folder = game_copy("spies")
    (folder / "art").mkdir(exist_ok=True)
    (folder / "art" / "flag.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#000"/></svg>',
        encoding="utf-8")
    tiles = folder / "tiles.yaml"
    tiles.write_text(tiles.read_text(encoding="utf-8").replace('event: "Czech Crisis!"', 'event: "Czech Crisis!"\n    art: art/flag.svg'),
                     encoding="utf-8")
    assert cli("build", "--game", folder, "--only", "tiles", "--out", tmp_path).code == 0
    with pdfplumber.open(tmp_path / "spies" / "tiles.pdf") as pdf:
        page = pdf.pages[0]
        box = next(b for b in cut_boxes(page) if box_text(page, b).startswith("Ge1*"))
        art = [r for r in page.rects if inside(r, box) and r["fill"] and r["non_stroking_color"] in ((0,), (0, 0, 0), [0])]
        words = [c for c in page.chars if inside(c, box) and c["top"] > box[1] + 0.25 * (box[3] - box[1])]
    assert art, "the picture is not on its tile"
    assert max(c["x1"] for c in words) <= min(r["x0"] for r in art) + 0.1


# ---------------------------------------------------------------- refusals

def _set_art(folder: Path, art: str) -> None:
    pieces = folder / "pieces.yaml"
    pieces.write_text(pieces.read_text(encoding="utf-8").replace("art: art/atom.svg", f"art: {art}"), encoding="utf-8")


@pytest.mark.parametrize("art, make, message", [
    ("art/nothing.svg", None, "art/nothing.svg: file not found"),
    ("art/broken.svg", b"<svg><g>", "art/broken.svg: cannot read SVG"),
    ("art/plain.svg", b"<html></html>", "not an SVG file"),
    ("art/fake.png", b"GIF89a not a png at all....", "art/fake.png: not a PNG file"),
    ("art/photo.jpg", b"\xff\xd8\xff", "unknown picture kind '.jpg'"),
    ("../outside.svg", None, "a picture must lie inside the game folder"),
])
def test_a_bad_picture_is_refused_naming_file_and_field(cli, game_copy, art, make, message):
    folder = game_copy("spies")
    if make is not None:
        (folder / art).write_bytes(make)
    _set_art(folder, art)
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "Traceback" not in result.stderr
    line = next(line for line in result.stderr.splitlines() if "art" in line)
    assert re.search(r"pieces\.yaml: pieces\[\d+\]\.art: ", line), line
    assert message in line


def test_an_oversized_picture_is_refused(cli, game_copy):
    from PIL import Image

    folder = game_copy("spies")
    Image.new("1", (5000, 8)).save(folder / "art" / "huge.png")
    _set_art(folder, "art/huge.png")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "art/huge.png: 5000 x 8 px is larger than 4096 px" in result.stderr


def test_a_kinds_picture_is_checked_as_the_kinds_field(cli, game_copy):
    folder = game_copy("global-1936-spies")
    (folder / "art" / "spy.png").unlink()
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert "game.yaml: kinds.spy-marker.front.art: art/spy.png: file not found" in result.stderr


def test_a_character_missing_from_the_font_is_refused_naming_it(cli, game_copy):
    folder = game_copy("spies")
    tiles = folder / "tiles.yaml"
    tiles.write_text(tiles.read_text(encoding="utf-8").replace('event: "Czech Crisis!"', 'event: "Czech Crisis ↔ Sudetenland"'),
                     encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2 and "Traceback" not in result.stderr
    assert re.search(r"tiles\.yaml: tiles\[\d+\]\.event: character '↔' \(U\+2194\) is not in the font", result.stderr)


def test_a_character_missing_from_the_font_only_in_a_comment_is_not_refused(cli, game_copy):
    folder = game_copy("spies")
    pieces = folder / "pieces.yaml"
    pieces.write_text("# Spione ↔ Spies\n" + pieces.read_text(encoding="utf-8"), encoding="utf-8")
    assert cli("validate", "--game", folder).code == 0
    pieces.write_text(pieces.read_text(encoding="utf-8").replace("name: \"Piccolo\"", "name: \"Piccolo ↔\""), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert re.search(r"pieces\.yaml: pieces\[\d+\]\.name: character '↔' \(U\+2194\) is not in the font", result.stderr)


def test_every_shipped_game_has_every_glyph_and_picture(cli):
    for game in ("spies", "spion-und-spion", "web-of-spies", "global-1936-spies", "special-action-tokens"):
        assert cli("validate", "--game", game).code == 0, game


def test_png_previews_take_the_dpi_asked(cli, tmp_path):
    from PIL import Image

    assert cli("build", "--game", "special-action-tokens", "--only", "counters", "--format", "png", "--dpi", "72",
               "--out", tmp_path).code == 0
    with Image.open(tmp_path / "special-action-tokens" / "counters-1.png") as image:
        assert image.size == (612, 792)  # Letter at 72 dpi
    result = cli("build", "--game", "special-action-tokens", "--dpi", "5", "--out", tmp_path)
    assert result.code == 2 and "--dpi" in result.stderr
