"""How long the Spies! exports take, against the Spies! PDF build and a bare floor, in the same run.

Run from the repository root:

    python benchmarks/export_speed.py            # prints a Markdown table
    python benchmarks/export_speed.py --repeat 5 --write benchmarks/export_results.md

Each round runs, one after the other in this process: `dossier build --game spies` (every PDF),
then each export (`dossier export tts`, `vassal`, `images`) followed by its floor: the same pages
the export rasterises, already drawn (untimed), rendered by pdfium at the export's resolutions and
written as PNG by Pillow: the bare raster work, with no loading, layout, drawing, packing or
writing of files. Every command loads the game itself, as from the command line. The median of
the rounds is reported; the target is each export under 2x the PDF build. These machines are
noisy: compare ratios, not seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EXPORTS = ("tts", "vassal", "images")
RUNS = ("build",) + tuple(r for fmt in EXPORTS for r in (fmt, f"{fmt} floor"))


def floor_pages(fmt: str) -> list[tuple[bytes, float]]:
    """The pages export `fmt` rasterises for Spies!, drawn into PDFs (untimed): (pdf, dpi) per resolution."""
    from generators.export.boards import game_boards
    from generators.export.exports import ExportOptions
    from generators.export.parts import game_parts
    from generators.export.raster import side_drawing
    from generators.export.tts import board_dpi, plan_sheets
    from generators.export.vassal import DPI as VASSAL_DPI
    from generators.printing.fonts import register_fonts
    from generators.printing.painter import PdfPainter
    from generators.validation import load_game

    game = load_game("spies")
    fonts = register_fonts(game.layout.fonts, game.folder)
    parts = game_parts(game, game.layout)
    boards = [b.drawing for b in game_boards(game, game.layout, fonts)] if fmt != "images" else []
    if fmt == "tts":
        groups = [(s.dpi, [side_drawing(side, p.size, 0.0, s.dpi) for p in s.parts for side in (p.front, p.back)])
                  for s in plan_sheets(game, parts)] + [(board_dpi(b), [b]) for b in boards]
    else:
        dpi, bleed = (VASSAL_DPI, 0.0) if fmt == "vassal" else (ExportOptions().dpi, ExportOptions().bleed)
        groups = [(dpi, [side_drawing(side, p.size, bleed, dpi) for p in parts for side in (p.front, p.back)] + boards)]
    drawn = []
    for dpi, pictures in groups:
        painter = PdfPainter(fonts)
        for picture in pictures:
            painter.new_page(picture.width, picture.height)
            picture.draw(painter)
        drawn.append((painter.pdf_bytes(), dpi))
    return drawn


def floor(pages: list[tuple[bytes, float]]) -> None:
    """Render every page and write it as PNG, in memory: the bare raster work of an export."""
    import pypdfium2 as pdfium

    for pdf, dpi in pages:
        document = pdfium.PdfDocument(pdf)
        for page in document:
            page.render(scale=dpi / 72).to_pil().save(io.BytesIO(), format="PNG", compress_level=1)
            page.close()
        document.close()


def measure(repeat: int) -> dict[str, list[float]]:
    """Seconds of each run, `repeat` rounds, alternating so that every run sees the same load."""
    from generators.cli import main

    pages = {fmt: floor_pages(fmt) for fmt in EXPORTS}
    times: dict[str, list[float]] = {run: [] for run in RUNS}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        commands = {"build": ["build", "--game", "spies", "--out", str(out)]}
        commands |= {fmt: ["export", fmt, "--game", "spies", "--out", str(out)] for fmt in EXPORTS}
        for _ in range(repeat + 1):  # the first round warms imports and font caches and is not counted
            for run in RUNS:
                start = time.perf_counter()
                if run.endswith(" floor"):
                    floor(pages[run.split()[0]])
                else:
                    with contextlib.redirect_stdout(io.StringIO()):  # the commands list what they wrote
                        assert main(commands[run]) == 0, run
                times[run].append(time.perf_counter() - start)
    return {run: values[1:] for run, values in times.items()}


def report(times: dict[str, list[float]]) -> str:
    median = {run: statistics.median(values) for run, values in times.items()}
    lines = [
        "| run | median | against the PDF build | against its floor |",
        "|---|---|---|---|",
        f"| `dossier build --game spies` (every PDF) | {median['build'] * 1000:.0f} ms | 1.00× | |",
    ]
    for fmt in EXPORTS:
        floor_time = median[f"{fmt} floor"]
        lines.append(f"| `dossier export {fmt} --game spies` | {median[fmt] * 1000:.0f} ms "
                     f"| {median[fmt] / median['build']:.2f}× | {median[fmt] / floor_time:.2f}× |")
        lines.append(f"| floor: its pages rasterised and written as PNG | {floor_time * 1000:.0f} ms "
                     f"| {floor_time / median['build']:.2f}× | 1.00× |")
    lines += ["", f"Median of {len(times['build'])} rounds after a warm-up round, one process. "
                  f"Target: each export under 2× the PDF build. Python {sys.version.split()[0]}."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds counted; the median is reported")
    parser.add_argument("--write", type=Path, help="also write the table to this Markdown file")
    args = parser.parse_args()
    table = report(measure(max(1, args.repeat)))
    print(table)
    if args.write:
        args.write.write_text("# Export benchmark\n\nMade by `python benchmarks/export_speed.py`.\n\n" + table + "\n",
                              encoding="utf-8")


if __name__ == "__main__":
    main()
