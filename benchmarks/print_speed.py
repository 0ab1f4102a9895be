"""How fast Dossier prints, against bare reportlab drawing the same rectangles and strings.

Run from the repository root:

    python benchmarks/print_speed.py            # prints a Markdown table
    python benchmarks/print_speed.py --repeat 9 --write benchmarks/results.md

Scenarios: the Spies! counters + tiles build, and synthetic games of 1,000 and 10,000 counters
(distinct names, so no face is laid out twice). Each scenario runs in its own process so its
peak memory (max RSS, which includes Python and the libraries) is its own; Dossier and the
floor run alternately in that process and each reports its median. The floor is one reportlab
canvas drawing, for every face, its colour rectangle, its cut line and its strings, with the
same embedded fonts and no layout work. These machines are noisy: compare ratios, not seconds.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NATIONS = ["germany", "italy", "russia", "france", "britain"]


def synthetic_game(folder: Path, pieces: int) -> Path:
    """A game folder of `pieces` spies with distinct names over five nations, using the Spies! layout."""
    game = folder / f"synthetic-{pieces}"
    game.mkdir(parents=True, exist_ok=True)
    factions = "\n".join(f"  - {{id: {n}, name: {n.title()}, symbol: {s}}}"
                         for n, s in zip(NATIONS, ["cross", "ring", "star", "lozenge", "crown"]))
    (game / "game.yaml").write_text(
        f"name: synthetic-{pieces}\ntitle: Synthetic {pieces}\nlayout: spies\nfactions:\n{factions}\n"
        "kinds:\n  spy:\n    label: Spy\n    size: counter\n"
        '    front: {title: "{name}", value: "{strength}", symbol: runner, colour: nation}\n'
        '    back: {title: "{NATION}", colour: nation}\n', encoding="utf-8")
    rows = [f'  - {{kind: spy, nation: {NATIONS[i % 5]}, name: "Agent {i:05d}", strength: {1 + i % 5}}}'
            for i in range(pieces)]
    (game / "pieces.yaml").write_text("pieces:\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return game


def _faces(game) -> list[tuple[str, list[str], bool]]:
    """(colour, strings, is_front) for every face the build prints, for the floor to draw."""
    from generators.core.faces import faces

    drawn = []
    for piece in game.pieces:
        front, back = faces(game, piece)
        for face, is_front in ((front, True), (back, False)):
            strings = [s for s in (face.title, face.text, face.value) if s]
            drawn += [(face.colour, strings, is_front)] * piece.count
    for tile in game.tiles:
        strings = [tile.id, str(tile.years[0]), tile.event] + [", ".join(a.cities) for a in tile.awards]
        drawn.append(("tile", strings, True))
    return drawn


def floor(game, layout, out: Path) -> Path:
    """Bare reportlab: the same rectangles and strings, fixed positions, one canvas, no fitting."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    from generators.printing.fonts import register_fonts

    rl_config.useA85 = 0  # the same binary streams as Dossier's PDFs
    fonts = register_fonts(layout.fonts, game.folder)
    size = 36.0  # 1/2 inch in points
    path = out / "floor.pdf"
    canvas = Canvas(str(path), pageCompression=1, invariant=1, initialFontName=fonts.regular)
    columns, rows = 15, 19
    for n, (colour, strings, is_front) in enumerate(_faces(game)):
        slot = n % (columns * rows)
        if slot == 0 and n:
            canvas.showPage()
        x, y = 40 + (slot % columns) * size, 720 - (slot // columns) * size
        canvas.setFillColor(layout.colour(colour).fill)
        canvas.rect(x, y, size, size, stroke=0, fill=1)
        if is_front:
            canvas.setStrokeColor(layout.cut_line.colour)
            canvas.rect(x, y, size, size, stroke=1, fill=0)
        canvas.setFillColor(layout.colour(colour).ink)
        for k, text in enumerate(strings):
            canvas.setFont(fonts.bold, 6)
            canvas.drawCentredString(x + size / 2, y + size - 8 - 8 * k, text)
    canvas.save()
    return path


def run_one(scenario: str, repeat: int) -> dict:
    """Time a scenario and its floor, alternating, `repeat` times each in this process.

    Alternating keeps both under the same load on a shared machine. Peak memory is read after
    the first Dossier run, before the floor has run at all.
    """
    from generators.build import make_options, product
    from generators.validation import load_game

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        game = load_game("spies" if scenario == "spies" else synthetic_game(tmp_path, int(scenario.split("-")[1])))
        layout = game.layout
        options = make_options(tmp_path / "out")
        products = ["counters", "tiles"] if game.tiles else ["counters"]

        def dossier() -> list[Path]:
            return [f for p in products for f in product(p)(game, layout, options)]

        def timed(run) -> tuple[float, list[Path]]:
            start = time.perf_counter()
            files = run()
            return time.perf_counter() - start, files

        first, files = timed(dossier)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        ours, floors = [], []
        for _ in range(repeat):
            ours.append(timed(dossier)[0])
            floors.append(timed(lambda: [floor(game, layout, tmp_path)])[0])
        return {
            "scenario": scenario, "pieces": sum(p.count for p in game.pieces), "tiles": len(game.tiles),
            "faces": len(_faces(game)), "seconds": statistics.median(ours), "floor": statistics.median(floors),
            "first": first, "bytes": sum(f.stat().st_size for f in files), "peak_mb": peak,
        }


def measure(scenario: str, repeat: int) -> dict:
    """Run a scenario in a fresh process, so its peak memory is its own."""
    output = subprocess.run([sys.executable, __file__, "--one", scenario, "--repeat", str(repeat)],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def report(results: dict[str, dict]) -> str:
    def row(label: str, key: str) -> str:
        r = results[key]
        rate = (r["pieces"] + r["tiles"]) / r["seconds"]
        return (f"| {label} | {r['pieces'] + r['tiles']:,} | {r['seconds'] * 1000:.0f} ms | {r['floor'] * 1000:.0f} ms "
                f"| {r['seconds'] / r['floor']:.2f}× | {rate:,.0f} | {r['bytes'] / r['faces']:,.0f} B | {r['peak_mb']:.0f} MB |")

    scale = results["synthetic-10000"]["seconds"] / results["synthetic-1000"]["seconds"]
    lines = [
        "| build | pieces + tiles | Dossier (median) | bare reportlab floor | ratio | pieces/s | PDF per face | peak memory |",
        "|---|---|---|---|---|---|---|---|",
        row("Spies! counters + tiles", "spies"),
        row("synthetic, 1,000 counters", "synthetic-1000"),
        row("synthetic, 10,000 counters", "synthetic-10000"),
        "",
        f"10,000 counters take {scale:.1f}× the time of 1,000 (target: at most 12×). "
        f"Spies! first (cold) run in a fresh process: {results['spies']['first'] * 1000:.0f} ms. "
        f"Python {sys.version.split()[0]}.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per scenario; the median is reported")
    parser.add_argument("--write", type=Path, help="also write the table to this Markdown file")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.repeat)))
        return
    results = {}
    for scenario in ("spies", "synthetic-1000", "synthetic-10000"):
        repeat = max(1, args.repeat if scenario != "synthetic-10000" else (args.repeat + 1) // 2)
        results[scenario] = measure(scenario, repeat)
    table = report(results)
    print(table)
    if args.write:
        args.write.write_text("# Print benchmark\n\nMade by `python benchmarks/print_speed.py`.\n\n" + table + "\n",
                              encoding="utf-8")


if __name__ == "__main__":
    main()
