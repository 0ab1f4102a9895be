"""How fast Dossier prints counters, against bare reportlab drawing the same squares and strings.

Run from the repository root:

    python benchmarks/print_speed.py                       # prints a Markdown table
    python benchmarks/print_speed.py --repeat 7 --write benchmarks/results.md
    python benchmarks/print_speed.py --protograf-python /path/to/venv/bin/python   # add the peer

Two kinds of row:

- One build, timed inside a process: the Spies! counters + tiles, and synthetic games of 1,000
  and 10,000 counters (distinct names, so every front is laid out anew). Each run is a fresh
  process that loads the game, imports the product and registers the fonts, then times one cold
  Dossier build (`product()`) and then the floor (`bare_counters.py`): every face handed over
  as plain data prepared before the clock starts (strings and colours; no Dossier code while
  timed), drawn as a filled square, a cut outline and centred strings with a plain reportlab
  canvas. The median over the runs is reported, and the peak memory of the first.
- Whole process, start-up included: `dossier build --game spies --only counters` (Python start,
  imports, reading and validating every file of the game, laying out, drawing, writing) against
  `python bare_counters.py` drawing the same 400 faces from a JSON file; the same for the synthetic
  game of 10,000 counters (20,000 faces); and, when an interpreter with protograf is at hand, the
  peer drawing the same 200 double-sided Spies! counters (run once: it takes seconds to tens of
  seconds) against the whole Spies! build (`dossier build --game spies`: every product).

Times are CPU seconds (user + system), medians: these machines are shared and wall time swings
with the neighbours' load. Compare ratios measured in the same run, not seconds across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

NATIONS = ["germany", "italy", "russia", "france", "britain"]
SCENARIOS = ("spies", "synthetic-1000", "synthetic-10000")


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


def plain_faces(game, tiles: bool = True) -> list[list]:
    """Every face the build prints as plain data for the floor: [fill, ink, strings, is_front].

    Prepared with Dossier's own code, but before any clock starts.
    """
    from generators.core.faces import faces
    from generators.core.tile_text import tile_text

    layout = game.layout
    drawn = []
    for piece in game.pieces:
        sides = []
        for face, is_front in zip(faces(game, piece), (True, False)):
            colour = layout.colour(face.colour)
            strings = [] if face.blank else [s for s in (face.title, face.text, face.value) if s]
            sides.append([colour.fill, colour.ink, strings, is_front])
        drawn += sides * piece.count  # front, back, front, back...
    if tiles:
        colour = layout.colour("tile")
        for tile in game.tiles:
            text = tile_text(game, tile)
            strings = [*text.band, text.heading, *text.entries]
            drawn.append([colour.fill, colour.ink, strings, True])
    return drawn


def floor_data(game, tiles: bool = True) -> dict:
    """What the floor needs, as JSON-ready data: the font files pieces are set in (the layout's condensed
    pair, registered here before either clock starts), the counter size, the faces."""
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics

    from generators.printing.fonts import piece_fonts

    fonts = piece_fonts(game.layout.fonts, game.folder)
    files = {role: pdfmetrics.getFont(getattr(fonts, role)).face.filename for role in ("regular", "bold")}
    return {"fonts": files, "size": game.layout.size("counter").width * mm, "faces": plain_faces(game, tiles)}


def timed(run) -> float:
    """CPU seconds `run` takes in this process: on a shared machine other load disturbs them far less than wall time."""
    start = time.process_time()
    run()
    return time.process_time() - start


def timed_process(command: list[str], **kwargs) -> float:
    """CPU seconds (user + system) a child process takes from start to exit."""
    def spent() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start = spent()
    subprocess.run(command, check=True, capture_output=True, **kwargs)
    return spent() - start


def run_one(scenario: str) -> dict:
    """Time one cold Dossier build of a scenario, then the floor, in this fresh process.

    Cold: nothing Dossier remembers between builds (fitted texts, word widths, encoded strings)
    is warm yet, as for anyone running `dossier build`; the modules are imported and the fonts
    registered before the clock starts, for both. Peak memory is read after Dossier's build,
    before the floor has run at all.
    """
    import importlib

    from bare_counters import draw, register

    from generators.build import PRODUCTS, make_options, product
    from generators.printing.render import publish
    from generators.printing.settings import PrintSettings
    from generators.validation import load_game

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        game = load_game("spies" if scenario == "spies" else synthetic_game(tmp_path, int(scenario.split("-")[1])))
        settings = PrintSettings.resolve(make_options(tmp_path / "out"), game.layout)
        products = ["counters", "tiles"] if game.tiles else ["counters"]
        for name in products:
            importlib.import_module(PRODUCTS[name].split(":")[0])
        data = floor_data(game)
        regular, bold = register(data["fonts"]["regular"]), register(data["fonts"]["bold"])
        files: list[Path] = []
        ours = timed(lambda: files.extend(publish([d for p in products for d in product(p)(game, settings)], settings.out)))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        floor = timed(lambda: draw(data["faces"], data["size"], regular, bold, str(tmp_path / "floor.pdf")))
        return {
            "scenario": scenario, "pieces": game.count(), "tiles": len(game.tiles), "faces": len(data["faces"]),
            "seconds": ours, "floor": floor, "bytes": sum(f.stat().st_size for f in files),
            "floor_bytes": (tmp_path / "floor.pdf").stat().st_size, "peak_mb": peak,
        }


def measure(scenario: str, repeat: int) -> dict:
    """Medians over `repeat` fresh processes, each timing one cold build and the floor in turn."""
    runs = [json.loads(subprocess.run([sys.executable, __file__, "--one", scenario], check=True, capture_output=True,
                                      text=True).stdout) for _ in range(repeat)]
    result = dict(runs[0])
    result.update(seconds=statistics.median(r["seconds"] for r in runs), floor=statistics.median(r["floor"] for r in runs))
    return result


def _dossier_command() -> list[str]:
    script = Path(sys.executable).with_name("dossier")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from generators.cli import console_main; console_main()"]


PROTOGRAF = '''
import json, os, sys
sys.argv = sys.argv[:1]  # protograf reads the command line itself
from protograf import *
data = json.load(open(os.environ["FACES"]))
fronts, backs = data["faces"][0::2], data["faces"][1::2]
rows = [["F0", "F1", "F2", "B0", "FILL"]]
for front, back in zip(fronts, backs):
    f, b = front[2] + ["", "", ""], back[2] + [""]
    rows.append([f[0], f[1], f[2], b[0], front[0]])
fills = sorted({r[4] for r in rows[1:]})
side = data["size"] / 72 * 2.54  # protograf works in cm
Create(filename=os.environ["OUT"], margin=1.27)
Data(data_list=rows)
CounterSheet(width=side, height=side, fill="white", grid_marks=True)
squares = [S("{{ FILL == '%s' }}" % f, rectangle(x=0, y=0, width=side, height=side, stroke_width=0.5, fill=f))
           for f in fills]
Counter("all", *squares, *[text(font_size=6, x=side / 2, y=side * (0.25 + 0.25 * k), text=T("{{ F%d }}" % k))
                           for k in range(3)])
CounterBack("all", *squares, text(font_size=6, x=side / 2, y=side / 2, text=T("{{ B0 }}")))
Save()
'''


def whole_process(repeat: int, protograf_python: str | None) -> dict:
    """Median CPU time of whole processes: Dossier's build of the Spies! counters, the bare floor
    drawing the same faces, and protograf drawing the same counters when an interpreter has it."""
    import compileall

    import generators
    from generators.validation import load_game

    # as `pip install` does: else an editable checkout (or PYTHONDONTWRITEBYTECODE) compiles every module each run
    compileall.compile_dir(Path(generators.__file__).parent, quiet=1)
    game = load_game("spies")
    data = floor_data(game, tiles=False)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        faces_file = tmp_path / "faces.json"
        faces_file.write_text(json.dumps(data), encoding="utf-8")
        big = synthetic_game(tmp_path, 10_000)
        big_faces = tmp_path / "faces-10000.json"
        big_faces.write_text(json.dumps(floor_data(load_game(big), tiles=False)), encoding="utf-8")
        commands = {
            "dossier": _dossier_command() + ["build", "--game", "spies", "--only", "counters", "--out", str(tmp_path / "out")],
            "floor": [sys.executable, str(HERE / "bare_counters.py"), str(faces_file), str(tmp_path / "floor.pdf")],
            "dossier-10000": _dossier_command() + ["build", "--game", str(big), "--only", "counters",
                                                   "--out", str(tmp_path / "out-10000")],
            "floor-10000": [sys.executable, str(HERE / "bare_counters.py"), str(big_faces), str(tmp_path / "floor-10000.pdf")],
        }
        env = dict(os.environ, FACES=str(faces_file), OUT=str(tmp_path / "protograf.pdf"))
        if protograf_python:
            script = tmp_path / "protograf_counters.py"
            script.write_text(PROTOGRAF, encoding="utf-8")
            commands["protograf"] = [protograf_python, str(script)]
            commands["dossier-all"] = _dossier_command() + ["build", "--game", "spies", "--out", str(tmp_path / "out-all")]
        times: dict[str, list[float]] = {name: [] for name in commands}
        for run in range(repeat):
            for name, command in commands.items():
                if name in ("protograf", "dossier-all") and run:
                    continue
                times[name].append(timed_process(command, cwd=tmp_path, env=env))
        result = {name: statistics.median(values) for name, values in times.items()}
        result["pieces"] = game.count()
        return result


def find_protograf(given: str | None) -> str | None:
    """An interpreter that can import protograf: the one given, else this one, else none."""
    for python in filter(None, (given, sys.executable)):
        if subprocess.run([python, "-c", "import protograf"], capture_output=True, check=False).returncode == 0:
            return python
    return None


def report(results: dict[str, dict], process: dict) -> str:
    def row(label: str, key: str) -> str:
        r = results[key]
        items = r["pieces"] + r["tiles"]
        return (f"| {label} | {items:,} | {r['seconds'] * 1000:,.0f} ms | {r['floor'] * 1000:,.0f} ms "
                f"| **{r['seconds'] / r['floor']:.2f}×** | {items / r['seconds']:,.0f} | {r['bytes'] / r['faces']:,.0f} B "
                f"| {r['floor_bytes'] / r['faces']:,.0f} B | {r['peak_mb']:.0f} MB |")

    scale = results["synthetic-10000"]["seconds"] / results["synthetic-1000"]["seconds"]
    lines = [
        "| one build, CPU time | pieces + tiles | Dossier (median) | bare reportlab floor | ratio | pieces/s "
        "| PDF per face | floor's PDF per face | peak memory |",
        "|---|---|---|---|---|---|---|---|---|",
        row("Spies! counters + tiles", "spies"),
        row("synthetic, 1,000 counters", "synthetic-1000"),
        row("synthetic, 10,000 counters", "synthetic-10000"),
        "",
        f"Each build is cold (a fresh process; imports and font registration before the clock). "
        f"10,000 counters take {scale:.1f}× the time of 1,000.",
        "",
        f"| whole process, start-up included, CPU time ({process['pieces']} double-sided Spies! counters) "
        "| median | ratio to the floor |",
        "|---|---|---|",
        f"| `dossier build --game spies --only counters` | {process['dossier'] * 1000:,.0f} ms "
        f"| **{process['dossier'] / process['floor']:.2f}×** |",
        f"| bare reportlab script, the same faces (`bare_counters.py`) | {process['floor'] * 1000:,.0f} ms | 1.00× |",
        "",
        "| whole process, CPU time, 10,000 distinct synthetic counters | median | ratio to the floor |",
        "|---|---|---|",
        f"| `dossier build --game synthetic-10000 --only counters` | {process['dossier-10000'] * 1000:,.0f} ms "
        f"| **{process['dossier-10000'] / process['floor-10000']:.2f}×** |",
        f"| bare reportlab script, the same 20,000 faces | {process['floor-10000'] * 1000:,.0f} ms | 1.00× |",
        "",
    ]
    if "protograf" in process:
        lines += ["| whole process, CPU time, against protograf (one run each) | time | ratio to protograf |",
                  "|---|---|---|",
                  f"| protograf, the same 200 Spies! counters and backs | {process['protograf'] * 1000:,.0f} ms | 1.00× |",
                  f"| `dossier build --game spies` (every product) | {process['dossier-all'] * 1000:,.0f} ms "
                  f"| **{process['dossier-all'] / process['protograf']:.2f}×** |"]
    else:
        lines.append("protograf: not installed here (`--protograf-python`).")
    lines += ["", f"Python {sys.version.split()[0]}, reportlab {_reportlab_version()}, "
                  f"C accelerator {'on' if _accelerated() else 'off'}; {os.cpu_count()} cores."]
    return "\n".join(lines)


def _reportlab_version() -> str:
    import reportlab

    return reportlab.Version


def _accelerated() -> bool:
    from reportlab.lib import rl_accel

    return rl_accel.fp_str.__module__ != rl_accel.__name__


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per scenario; the median is reported")
    parser.add_argument("--write", type=Path, help="also write the tables into this Markdown file")
    parser.add_argument("--protograf-python", help="a Python interpreter that has protograf installed")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one)))
        return
    results = {scenario: measure(scenario, args.repeat) for scenario in SCENARIOS}
    process = whole_process(args.repeat, find_protograf(args.protograf_python))
    table = report(results, process)
    print(table)
    if args.write:
        text = args.write.read_text(encoding="utf-8") if args.write.is_file() else ""
        start, end = "<!-- measured: start -->", "<!-- measured: end -->"
        block = f"{start}\n{table}\n{end}"
        if start in text and end in text:
            text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
        else:
            text = "# Print benchmark\n\nMade by `python benchmarks/print_speed.py`.\n\n" + block + "\n"
        args.write.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
