"""A game folder's Python runs only as it was read and trusted, by every route: each attack plants code
that would write a marker file, and the marker is still absent after Dossier refused (exit 2, the file
named, no traceback)."""

from __future__ import annotations

import json
import os
import py_compile
import shutil
import textwrap
from pathlib import Path

import pytest

from generators.core import paths
from generators.referee import trust as trust_module

REVIEWED = '''
from enum import Enum
from generators.referee import Ruling, Table

class Said(Enum):
    said = "said"

def hello(table: Table) -> Ruling[Said, None]:
    """Say hello.

    Example: dossier referee hello
    """
    return Ruling(Said.said, "reviewed code", rules=("1.0",), answer="reviewed")

QUESTIONS = {"hello": hello}
'''


def foreign(marker: Path) -> str:
    """Code no one reviewed: it leaves `marker` behind, then answers as the reviewed code would."""
    return f"open({str(marker)!r}, 'w').write('ran')\n" + REVIEWED.replace('answer="reviewed"', 'answer="foreign"')


@pytest.fixture
def marker(tmp_path) -> Path:
    return tmp_path / "foreign-code-ran"


@pytest.fixture
def game(tmp_path, cli) -> Path:
    """A game folder from elsewhere whose referee.py was read and trusted as it is."""
    folder = tmp_path / "own"
    shutil.copytree(paths.components_dir() / "special-action-tokens", folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    (folder / "referee.py").write_text(textwrap.dedent(REVIEWED), encoding="utf-8")
    assert cli("trust", str(folder)).code == 0
    return folder


def refused(cli, folder: Path, *needles: str) -> str:
    result = cli("referee", "--game", str(folder), "hello")
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stdout == ""
    for needle in needles:
        assert needle in result.stderr, result.stderr
    return result.stderr


def compiled(source: str, target: Path) -> None:
    """`source` compiled to `target` as a .pyc Python would load without looking at any .py (unchecked hash)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    plain = target.parent / "_source.py"
    plain.write_text(source, encoding="utf-8")
    py_compile.compile(str(plain), cfile=str(target), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    plain.unlink()


def test_the_trusted_code_answers(cli, game, marker):
    result = cli("referee", "--game", str(game), "hello")
    assert result.code == 0 and "reviewed" in result.stdout and not marker.exists()


def test_a_planted_compiled_cache_is_refused_and_never_runs(cli, game, marker):
    compiled(foreign(marker), game / "__pycache__" / f"referee.{__import__('sys').implementation.cache_tag}.pyc")
    refused(cli, game, "own/__pycache__: holds compiled Python", "delete the folder")
    assert not marker.exists()
    result = cli("trust", str(game))  # nor can it be trusted: the compiled file is not what anyone reads
    assert result.code == 2 and "__pycache__" in result.stderr and not marker.exists()


def test_a_folder_of_compiled_modules_named_like_the_referee_is_refused(cli, game, marker):
    compiled(foreign(marker), game / "referee" / "__init__.pyc")
    refused(cli, game, "own/referee/__init__.pyc: is compiled Python")
    assert not marker.exists()


def test_an_extension_module_is_refused(cli, game, marker):
    (game / "referee.abi3.so").write_bytes(b"\x7fELF")
    refused(cli, game, "own/referee.abi3.so: is an extension module")
    assert not marker.exists()


def test_a_sub_package_linked_from_elsewhere_is_refused(cli, tmp_path, game, marker):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "__init__.py").write_text(foreign(marker), encoding="utf-8")
    (game / "referee.py").write_text("from . import helpers\n" + textwrap.dedent(REVIEWED), encoding="utf-8")
    (game / "helpers").symlink_to(elsewhere, target_is_directory=True)
    result = cli("trust", str(game))
    assert result.code == 2 and "own/helpers: is a symbolic link" in result.stderr
    refused(cli, game, "own/helpers: is a symbolic link")
    assert not marker.exists()


def test_a_sub_package_in_the_folder_is_fingerprinted_and_an_edit_to_it_withdraws_the_trust(cli, game, marker):
    (game / "helpers").mkdir()
    (game / "helpers" / "__init__.py").write_text("WORD = 'reviewed'\n", encoding="utf-8")
    (game / "referee.py").write_text("from .helpers import WORD\n" + textwrap.dedent(REVIEWED), encoding="utf-8")
    assert cli("trust", str(game)).code == 0
    assert cli("referee", "--game", str(game), "hello").code == 0
    (game / "helpers" / "__init__.py").write_text(foreign(marker) + "WORD = 'x'\n", encoding="utf-8")
    refused(cli, game, "has changed since you trusted it")
    assert not marker.exists()


def test_the_bytes_checked_are_the_bytes_run_even_when_the_file_is_swapped_between(cli, game, marker, monkeypatch):
    """The worst moment for a swap: just after the fingerprint matched. What runs is what was read."""
    read = trust_module.read_code

    def read_then_swap(folder, shipped=False):
        code = read(folder, shipped)
        (game / "referee.py").write_text(foreign(marker), encoding="utf-8")
        return code

    monkeypatch.setattr(trust_module, "read_code", read_then_swap)
    result = cli("referee", "--game", str(game), "hello")
    assert result.code == 0 and "reviewed" in result.stdout
    assert not marker.exists()


def test_a_game_made_beside_the_shipped_ones_is_not_shipped(cli, tmp_path, game, marker, monkeypatch):
    """`dossier new --to components` puts a copy where the shipped games are; where it lies does not make it trusted."""
    data = tmp_path / "data"
    shutil.copytree(paths.components_dir(), data / "components", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(paths.layouts_dir(), data / "layouts")
    monkeypatch.setenv("DOSSIER_DATA", str(data))
    monkeypatch.setattr(trust_module, "shipped_components", lambda: (data / "components").resolve())
    (game / "referee.py").write_text(foreign(marker), encoding="utf-8")
    result = cli("new", "copied", "--from", str(game), "--to", str(data / "components"))
    assert result.code == 0, result.stderr
    refused(cli, data / "components" / "copied", "copied/referee.py: this game folder is not one Dossier ships")
    assert not marker.exists()
    shipped = cli("referee", "--game", str(data / "components" / "special-action-tokens"), "--help")
    assert shipped.code == 0, shipped.stderr  # the games named in the shipped list still run untrusted
    assert "trusted already" not in cli("trust", str(data / "components" / "copied")).stdout


def test_a_relative_configuration_folder_is_ignored(cli, tmp_path, game, marker, monkeypatch):
    """A game folder carrying its own .config/dossier/trusted.json cannot vouch for itself."""
    (game / "referee.py").write_text(foreign(marker), encoding="utf-8")
    record = game / ".config" / "dossier" / "trusted.json"
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({str(game.resolve()): trust_module.fingerprint(game)}), encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", ".config")
    monkeypatch.chdir(game)
    assert trust_module.trust_file() == tmp_path / "home" / ".config" / "dossier" / "trusted.json"
    refused(cli, game, "referee.py: this game folder is not one Dossier ships")
    assert not marker.exists()


def test_a_trust_record_that_is_a_fifo_is_refused_at_once(cli, tmp_path, monkeypatch):
    home = tmp_path / "configuration"
    (home / "dossier").mkdir(parents=True)
    os.mkfifo(home / "dossier" / "trusted.json")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    result = cli("trust", "--list")
    assert result.code == 2 and "trusted.json: cannot read the trusted game folders (not a regular file)" in result.stderr
