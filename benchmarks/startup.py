"""How fast `dossier` answers a quick question: whole-process times of `dossier map route` and
`dossier referee`, against `python -c "import typer"` (the floor every Typer command pays) measured
in the same run.

Run from the repository root, in the venv where Dossier is installed:

    python benchmarks/startup.py                    # prints a Markdown table
    python benchmarks/startup.py --repeat 21 --write benchmarks/startup_results.md

Each round runs every command once, in turn, so a busy machine slows them all alike; the
median of the rounds is reported, in wall time and in CPU time (user + system of the process, which
holds still when the neighbours' load swings the wall time). Each question is timed with its answer kept in
Dossier's cache (core.game_cache, in a folder of the run's own) and with DOSSIER_CACHE=off, which reads and
checks the whole game as a first question does. A two-command Typer app running one command is timed too:
it is the least any Typer command costs. The "every command module imported" row runs the same route
question after importing all of Dossier's command modules, as the CLI did before it imported
only the module of the command being run. Compare ratios, not milliseconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOSSIER = str(Path(sys.executable).with_name("dossier"))  # the installed script, as a user runs it
GOAL = 2.5  # a quick question may take at most this many times the floor

EAGER = ("import importlib, generators.cli as c\n"
         "for m in set(c.COMMANDS.values()): importlib.import_module('generators.cli.' + m)\n"
         "raise SystemExit(c.main(['map', 'route', 'Berlin', 'London']))")

# The least a Typer command costs: an app of two commands running one. Typer 0.29 imports pydantic (and
# importlib.metadata) when it runs a command, which `import typer` alone does not pay.
TYPER_APP = ("import typer\napp = typer.Typer()\n"
             "@app.command()\ndef route(a: str, b: str) -> None:\n    print(a, b)\n"
             "@app.command()\ndef reach(a: str) -> None:\n    print(a)\n"
             "app(['route', 'Berlin', 'London'])")

CACHED, UNCACHED = "cached", "uncached"  # the answer kept in the cache (core.game_cache); DOSSIER_CACHE=off

# name: (command, cache)
COMMANDS = {
    "floor: `python -c \"import typer\"`": ([sys.executable, "-c", "import typer"], None),
    "`python -c \"pass\"` (the interpreter alone)": ([sys.executable, "-c", "pass"], None),
    "a two-command Typer app running one (the least a Typer command costs)": ([sys.executable, "-c", TYPER_APP], None),
    "`dossier map route Berlin London`, answer kept": ([DOSSIER, "map", "route", "Berlin", "London"], CACHED),
    "`dossier map route Berlin London`, no cache (reads and checks the game)": ([DOSSIER, "map", "route", "Berlin", "London"], UNCACHED),
    "`dossier referee move Sofia Berlin`, checks' verdict kept": ([DOSSIER, "referee", "move", "Sofia", "Berlin"], CACHED),
    "`dossier referee move Sofia Berlin`, no cache": ([DOSSIER, "referee", "move", "Sofia", "Berlin"], UNCACHED),
    "`dossier map route Berlin London`, answer kept, every command module imported": ([sys.executable, "-c", EAGER], CACHED),
}


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The wall and CPU time (ms) of one run of `command`."""
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return elapsed, (_cpu() - cpu) * 1000


def measure(repeat: int) -> dict[str, tuple[float, float]]:
    """Median whole-process wall and CPU time of each command in ms, the commands taking turns in each round."""
    with tempfile.TemporaryDirectory() as cache:
        envs = {None: dict(os.environ), CACHED: os.environ | {"DOSSIER_CACHE": cache},
                UNCACHED: os.environ | {"DOSSIER_CACHE": "off"}}
        for command, kept in COMMANDS.values():  # warm the file cache, the bytecode and Dossier's cache once
            run_once(command, envs[kept])
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
        for _ in range(repeat):
            for name, (command, kept) in COMMANDS.items():
                times[name].append(run_once(command, envs[kept]))
    return {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for name, values in times.items()}


def table(medians: dict[str, tuple[float, float]]) -> str:
    wall_floor, cpu_floor = next(iter(medians.values()))
    rows = ["| command | wall, median | × floor | CPU, median | × floor |", "|---|---|---|---|---|"]
    for name, (wall, cpu) in medians.items():
        rows.append(f"| {name} | {wall:.0f} ms | {wall / wall_floor:.2f}× | {cpu:.0f} ms | {cpu / cpu_floor:.2f}× |")
    return "\n".join(rows) + f"\n\nGoal: a quick question within {GOAL}× the floor."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11, help="rounds; the median of each command is reported")
    parser.add_argument("--write", type=Path, help="also write the table to this Markdown file")
    args = parser.parse_args()
    result = table(measure(args.repeat))
    print(result)
    if args.write:
        args.write.write_text(result + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
