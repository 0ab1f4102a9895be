"""The whole Spies! build (`dossier build --game spies`) as a user runs it, timed against the same build of
another checkout of Dossier (e.g. the commit before a change), in the same run, as a ratio.

    git worktree add /tmp/before <commit>
    python benchmarks/whole_build_speed.py --before /tmp/before --repeat 5 --cache off --write benchmarks/whole_build_results.md

Each build is a fresh process; both its wall time (what the user waits) and its CPU time (user + system of
the child and of any process it starts, summed over both cores) are taken, medians of the runs, the two
builds taken in turn so that the machine's load falls on both alike. `--cache off` builds cold
(DOSSIER_CACHE=off: nothing recalled from an earlier command); `--cache warm` gives each checkout its own
cache folder, filled by one build that is not timed, so every timed build finds what the one before kept
(the validated game, the poster's places), as a user's second build does. Either way one untimed build of
each checkout comes first, with Python's bytecode written (PYTHONDONTWRITEBYTECODE dropped), so both run from
compiled modules as an installed Dossier does. The load average is printed.
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


def _timed(checkout: Path, out: Path, cache: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one build."""
    env = dict(os.environ, PYTHONPATH=str(checkout), SOURCE_DATE_EPOCH="0", DOSSIER_CACHE=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from generators.cli import console_main; console_main()",
                    "build", "--game", "spies", "--out", str(out)],
                   cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _row(name: str, runs: list[tuple[float, float]]) -> str:
    wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
    return (f"| {name} | {wall:.2f} s | {cpu:.2f} s | {', '.join(f'{w:.2f}' for w, _ in runs)} "
            f"| {', '.join(f'{c:.2f}' for _, c in runs)} |\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="another checkout of Dossier to compare with")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cache", choices=("off", "warm"), default="off")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
    checkouts = {"before": args.before, "after": ROOT}
    with tempfile.TemporaryDirectory() as folder:
        caches = {"before": "off", "after": "off"}
        if args.cache == "warm":
            caches = {name: str(Path(folder) / f"cache-{name}") for name in caches}
        for name, checkout in checkouts.items():
            _timed(checkout, Path(folder) / f"first-{name}", caches[name])
        for i in range(args.repeat):
            for name, checkout in checkouts.items():
                runs[name].append(_timed(checkout, Path(folder) / f"{name}{i}", caches[name]))
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    median = {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}
    table = (f"Cache {args.cache}; load average after the runs {load} (1, 5, 15 min).\n\n"
             "| whole Spies! build | wall, median | CPU, median | wall, runs | CPU, runs |\n|---|---|---|---|---|\n"
             + _row(f"before ({args.before.name})", runs["before"]) + _row("after (this checkout)", runs["after"])
             + f"| **ratio after / before** | **{median['after'][0] / median['before'][0]:.2f}×** "
               f"| **{median['after'][1] / median['before'][1]:.2f}×** | | |\n")
    print(table)
    if args.write:
        args.write.write_text("# Whole Spies! build, before and after\n\nMade by `python benchmarks/whole_build_speed.py "
                              f"--before CHECKOUT --repeat {args.repeat} --cache {args.cache}`; see its docstring.\n\n" + table)


if __name__ == "__main__":
    main()
