"""Shared fixtures: running the real CLI in-process, and editable copies of the shipped games."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators.cli import main
from generators.core import paths
from generators.validation import load_game


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)


@pytest.fixture(autouse=True)
def _own_configuration(tmp_path_factory, monkeypatch):
    """What a test records in the user's configuration (`dossier trust`) stays in the test's own folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "configuration"))


@pytest.fixture
def cli(capsys):
    """Run `dossier ARGS...` through the same entry point as the installed script."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return CliResult(code, out.out, out.err)

    return run


@pytest.fixture(scope="session")
def spies():
    """The shipped Spies! data, loaded and validated once."""
    return load_game("spies")


@pytest.fixture
def game_copy(tmp_path):
    """Copy a shipped game folder into tmp_path so a test can break it; returns the copy's path."""

    def copy(name: str = "spies") -> Path:
        target = tmp_path / name
        shutil.copytree(paths.components_dir() / name, target)
        return target

    return copy
