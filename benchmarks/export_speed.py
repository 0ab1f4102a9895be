"""How long the Spies! exports take as a user runs them, against the Spies! PDF build and a bare floor,
each a whole process, in the same run.

Run from the repository root:

    python benchmarks/export_speed.py            # prints a Markdown table
    python benchmarks/export_speed.py --repeat 5 --write benchmarks/export_results.md

Each round runs, one after the other, each as a fresh process: `dossier build --game spies` (every
PDF), then each export (`dossier export tts`, `vassal`, `images`) followed by its floor: a process
that only renders the pages the export rasterises, drawn beforehand into PDFs (untimed), with pdfium
at the export's resolutions and writes them as PNG with Pillow: the bare raster work, with no
loading, layout, drawing, packing or writing of files. Times are CPU seconds of the child process
(user + system), which the machine's load disturbs far less than wall time; wall time is shown too.
The median of the rounds is reported; the target is each export under 2x the PDF build. Compare
ratios, not seconds.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import statistics
import subprocess
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
    from generators.export.parts import export_settings, game_parts
    from generators.export.raster import side_drawing
    from generators.export.tts import board_dpi, plan_sheets
    from generators.export.vassal import DPI as VASSAL_DPI
    from generators.printing.fonts import register_fonts
    from generators.printing.painter import PdfPainter
    from generators.validation import load_game

    game = load_game("spies")
    fonts = register_fonts(game.layout.fonts, game.folder)
    parts = game_parts(game, export_settings(game))
    boards = [b.drawing for b in game_boards(game, export_settings(game), fonts)] if fmt != "images" else []
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


def floor(pages: list[tuple[Path, float]]) -> None:
    """Render every page and write it as PNG, in memory: the bare raster work of an export."""
    import pypdfium2 as pdfium

    for pdf, dpi in pages:
        document = pdfium.PdfDocument(str(pdf))
        for page in document:
            page.render(scale=dpi / 72).to_pil().save(io.BytesIO(), format="PNG", compress_level=1)
            page.close()
        document.close()


def timed(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of `command` as a fresh process."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, SOURCE_DATE_EPOCH="0"))
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def measure(repeat: int) -> dict[str, list[tuple[float, float]]]:
    """(CPU, wall) seconds of each run, `repeat` rounds, taken in turn so that every run sees the same load."""
    dossier = [sys.executable, "-c", "from generators.cli import console_main; console_main()"]
    times: dict[str, list[tuple[float, float]]] = {run: [] for run in RUNS}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        commands = {"build": dossier + ["build", "--game", "spies", "--out", str(out)]}
        commands |= {fmt: dossier + ["export", fmt, "--game", "spies", "--out", str(out)] for fmt in EXPORTS}
        for fmt in EXPORTS:
            args = []
            for i, (pdf, dpi) in enumerate(floor_pages(fmt)):
                path = out / f"floor-{fmt}-{i}.pdf"
                path.write_bytes(pdf)
                args += [str(path), str(dpi)]
            commands[f"{fmt} floor"] = [sys.executable, str(Path(__file__).resolve()), "--floor", *args]
        for _ in range(repeat + 1):  # the first round warms the disk and the caches and is not counted
            for run in RUNS:
                times[run].append(timed(commands[run]))
    return {run: values[1:] for run, values in times.items()}


def report(times: dict[str, list[tuple[float, float]]]) -> str:
    cpu = {run: statistics.median(t[0] for t in values) for run, values in times.items()}
    wall = {run: statistics.median(t[1] for t in values) for run, values in times.items()}
    lines = [
        "| run (a whole process) | CPU, median | wall, median | against the PDF build | against its floor |",
        "|---|---|---|---|---|",
        f"| `dossier build --game spies` (every PDF) | {cpu['build']:.2f} s | {wall['build']:.2f} s | 1.00× | |",
    ]
    for fmt in EXPORTS:
        run, floor_run = fmt, f"{fmt} floor"
        lines.append(f"| `dossier export {fmt} --game spies` | {cpu[run]:.2f} s | {wall[run]:.2f} s "
                     f"| **{cpu[run] / cpu['build']:.2f}×** | {cpu[run] / cpu[floor_run]:.2f}× |")
        lines.append(f"| floor: its pages rendered and written as PNG | {cpu[floor_run]:.2f} s | {wall[floor_run]:.2f} s "
                     f"| {cpu[floor_run] / cpu['build']:.2f}× | 1.00× |")
    lines += ["", f"Ratios of CPU time; median of {len(times['build'])} rounds after a warm-up round, each run a fresh "
                  f"process. Target: each export under 2× the PDF build. Python {sys.version.split()[0]}, "
                  f"load average {os.getloadavg()[0]:.1f} when written."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds counted; the median is reported")
    parser.add_argument("--write", type=Path, help="also write the table to this Markdown file")
    parser.add_argument("--floor", nargs="+", metavar="PDF DPI", help=argparse.SUPPRESS)  # a floor run's own process
    args = parser.parse_args()
    if args.floor:
        floor([(Path(pdf), float(dpi)) for pdf, dpi in zip(args.floor[::2], args.floor[1::2])])
        return
    table = report(measure(max(1, args.repeat)))
    print(table)
    if args.write:
        args.write.write_text("# Export benchmark\n\nMade by `python benchmarks/export_speed.py --repeat "
                              f"{args.repeat}`; see its docstring.\n\n" + table + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
