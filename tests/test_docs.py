"""The documentation site: built by MkDocs in strict mode (a broken link or anchor fails), and every command the
docs show in a code block run as written, in a folder holding the games the examples name."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Commands the docs show that name a file of the reader's own, or never end: each has a test of its own.
NOT_RUN = {
    "dossier validate --game ./my-spies": "the refusal shown, run by test_cli's refusal test",
    "dossier referee game record.yaml": "a record of the reader's own",
    "dossier referee position position.yaml": "a position of the reader's own; test_position runs the one shown",
    "dossier watch --game ./my-game": "runs until Ctrl-C; test_watch drives it",
    "dossier map check --game ./my-game": "boards.md's ./my-game is the board game the page writes out; test_boards runs it",
    'dossier map advance "red home" --side red --spaces 2 --game ./my-game': "the same board game; test_boards runs it",
    "dossier build --game ./my-game --only boards": "the same board game; test_boards runs it",
}
# Commands that answer with a report: `map check` exits 1 when it finds problems.
EXIT_CODES = {"dossier map check": (0, 1)}


def examples() -> list[tuple[str, str]]:
    """(page, command) for every `dossier ...` line of a code block in the README and docs/, comments and prompts
    dropped; a line joining commands with && gives each."""
    found = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M):
            for line in block.splitlines():
                command = line.strip().removeprefix("$ ")
                for part in re.sub(r"\s+#.*$", "", command).split("&&"):
                    if part.strip().startswith("dossier "):
                        found.append((page.name, part.strip()))
    return found


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs") if os.environ.get("CI") != "true" else None
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "spreadsheets" / "index.html").is_file()


def test_a_broken_link_fails_the_strict_build(tmp_path):
    pytest.importorskip("mkdocs") if os.environ.get("CI") != "true" else None
    copy = tmp_path / "repo"
    shutil.copytree(DOCS, copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    (copy / "docs" / "map.md").write_text((DOCS / "map.md").read_text(encoding="utf-8") + "\n[gone](nowhere.md)\n", encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                            cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1 and "nowhere.md" in result.stderr


def test_the_readme_shows_the_five_tasks():
    commands = {command.split()[1] for page, command in examples() if page == "README.md"}
    assert {"replace", "build", "map", "referee", "new"} <= commands


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """A folder with the games the examples name: ./my-game (the example game) and ./my-spies (a copy of Spies!)."""
    from generators.cli import main

    here = tmp_path_factory.mktemp("docs-examples")
    cwd = os.getcwd()
    os.chdir(here)
    try:
        assert main(["new", "my-game"]) == 0 and main(["new", "my-spies", "--from", "spies"]) == 0
    finally:
        os.chdir(cwd)
    shutil.copytree(DOCS / "examples", here / "docs" / "examples")
    shutil.copy(here / "my-spies" / "map.yaml", here / "my.yaml")  # "check another map file"
    return here


@pytest.mark.parametrize("page, command", [e for e in examples() if e[1] not in NOT_RUN], ids=lambda v: v)
def test_every_command_in_the_docs_runs_as_written(cli, sandbox, tmp_path, monkeypatch, page, command):
    args = shlex.split(command)[1:]
    monkeypatch.chdir(tmp_path if args[0] == "new" else sandbox)  # a new game is made where none has that name
    result = cli(*args)
    allowed = next((codes for start, codes in EXIT_CODES.items() if command.startswith(start)), (0,))
    assert result.code in allowed, f"{page}: `{command}` exited {result.code}: {result.stderr[-800:]}"
    assert "Traceback" not in result.stderr
