"""The whole Spies! build (`dossier build --game spies`) as a user runs it, timed against the same build of
another checkout of Dossier (e.g. the commit before a change), in the same run, as a ratio.

    git worktree add /tmp/before <commit>
    python benchmarks/whole_build_speed.py --before /tmp/before --repeat 5 --cache off --write benchmarks/whole_build_results.md

Each build is a fresh process; times are CPU seconds (user + system of the child), medians of the runs,
the two builds taken in turn so that the machine's load falls on both alike. `--cache off` builds cold
(DOSSIER_CACHE=off: nothing recalled from an earlier command); `--cache warm` gives each checkout its own
cache folder, filled by one build that is not timed, so every timed build finds what the one before kept
(the validated game, the poster's places), as a user's second build does. The load average is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cpu_of(checkout: Path, out: Path, cache: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = dict(os.environ, PYTHONPATH=str(checkout), SOURCE_DATE_EPOCH="0", DOSSIER_CACHE=cache)
    subprocess.run([sys.executable, "-c", "from generators.cli import console_main; console_main()",
                    "build", "--game", "spies", "--out", str(out)],
                   cwd=checkout, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="another checkout of Dossier to compare with")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cache", choices=("off", "warm"), default="off")
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as folder:
        caches = {"before": "off", "after": "off"}
        if args.cache == "warm":
            caches = {name: str(Path(folder) / f"cache-{name}") for name in caches}
            _cpu_of(args.before, Path(folder) / "warm-b", caches["before"])
            _cpu_of(ROOT, Path(folder) / "warm-a", caches["after"])
        for i in range(args.repeat):
            times["before"].append(_cpu_of(args.before, Path(folder) / f"b{i}", caches["before"]))
            times["after"].append(_cpu_of(ROOT, Path(folder) / f"a{i}", caches["after"]))
    before, after = statistics.median(times["before"]), statistics.median(times["after"])
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    table = (f"Cache {args.cache}; load average after the runs {load} (1, 5, 15 min).\n\n"
             "| whole Spies! build, CPU time | median of runs | runs |\n|---|---|---|\n"
             f"| before ({args.before.name}) | {before:.2f} s | {', '.join(f'{t:.2f}' for t in times['before'])} |\n"
             f"| after (this checkout) | {after:.2f} s | {', '.join(f'{t:.2f}' for t in times['after'])} |\n"
             f"| **ratio after / before** | **{after / before:.2f}×** | |\n")
    print(table)
    if args.write:
        args.write.write_text("# Whole Spies! build, before and after\n\nMade by `python benchmarks/whole_build_speed.py "
                              f"--before CHECKOUT --repeat {args.repeat} --cache {args.cache}`; see its docstring.\n\n" + table)


if __name__ == "__main__":
    main()
