"""An edit is never ignored without a word: a command run inside a checkout whose data is not the copy it
reads says so, names the files that differ and how to read them; messages name the file actually read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def installed_and_checkout(tmp_path, monkeypatch):
    """An installed copy of the data (as `pip install .` bundles it) and a checkout of it as the current folder."""
    from generators.core import paths

    bundled = tmp_path / "site-packages" / "generators" / "_data"
    checkout = tmp_path / "checkout"
    for root in (bundled, checkout):
        for sub in ("components", "layouts"):
            shutil.copytree(REPO / sub, root / sub, ignore=shutil.ignore_patterns("__pycache__"))
    (checkout / "pyproject.toml").write_text('[project]\nname = "dossier"\n', encoding="utf-8")
    monkeypatch.setattr(paths, "BUNDLED", bundled)
    monkeypatch.delenv("DOSSIER_DATA", raising=False)
    monkeypatch.chdir(checkout)
    return bundled, checkout


def _break_map(root: Path) -> None:
    path = root / "components" / "spies" / "map.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Berlin", "Berlinn", 1), encoding="utf-8")


def test_an_unchanged_checkout_says_nothing(cli, installed_and_checkout):
    result = cli("map", "check")
    assert result.code == 0, result.stderr
    assert "note:" not in result.stderr


def test_an_edited_checkout_not_read_is_named_with_how_to_read_it(cli, installed_and_checkout):
    bundled, checkout = installed_and_checkout
    _break_map(checkout)
    result = cli("map", "check")
    assert result.code == 0  # the installed copy is what was read, and it is whole
    assert "this checkout's data" in result.stderr and "components/spies/map.yaml" in result.stderr
    assert f"pip install -e {checkout}" in result.stderr and f"DOSSIER_DATA={checkout}" in result.stderr


def test_dossier_data_reads_the_checkout_and_its_error_names_the_checkouts_file(cli, installed_and_checkout, monkeypatch):
    _, checkout = installed_and_checkout
    _break_map(checkout)
    monkeypatch.setenv("DOSSIER_DATA", str(checkout))
    result = cli("map", "check")
    assert result.code == 1  # map check reports the problems it found
    assert "components/spies/map.yaml: invalid" in result.stdout and "note:" not in result.stderr


def test_an_error_in_the_installed_copy_names_it_in_full_not_as_the_checkouts_file(cli, installed_and_checkout):
    bundled, _ = installed_and_checkout
    tiles = bundled / "components" / "spies" / "tiles.yaml"
    tiles.write_text(tiles.read_text(encoding="utf-8") + "\n  - {id: 7}\n", encoding="utf-8")
    result = cli("validate", "--game", "spies")
    assert result.code == 2
    assert str(tiles) in result.stderr  # the file read, not "components/spies/tiles.yaml" of the current folder


def test_watch_says_the_checkouts_edits_are_not_watched(installed_and_checkout, monkeypatch, capsys):
    import watchfiles

    from generators.cli import main

    _, checkout = installed_and_checkout
    monkeypatch.setattr(watchfiles, "watch", lambda *a, **k: iter(()))  # no change comes: the watch ends at once
    assert main(["watch", "--only", "cards", "--out", str(checkout / "output")]) == 0
    err = capsys.readouterr().err
    assert f"edits to this checkout ({checkout}) are not watched" in err and "pip install -e" in err


def test_ctrl_c_says_the_previous_files_are_kept(cli, monkeypatch):
    import generators.cli.app

    class Interrupted:  # the app, stopped by Ctrl-C while it runs
        registered_commands: list = []

        def __call__(self, **_):
            raise KeyboardInterrupt

    monkeypatch.setattr(generators.cli.app, "app", Interrupted())
    result = cli("build")
    assert result.code == 130
    assert result.stderr == "dossier: interrupted; the previous files are kept\n"
