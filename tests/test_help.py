"""The help a newcomer reads: every summary whole, examples on the commands people start with, shell
completion, and the small answers that used to say nothing or the wrong thing."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def test_the_top_level_help_cuts_no_summary(cli):
    result = cli("--help")
    assert result.code == 0
    commands = result.stdout.split("Commands:")[1].split("Environment variables")[0]
    assert "..." not in commands
    assert "into OUT/<game folder's name>/." in " ".join(commands.split())  # build's whole first sentence


@pytest.mark.parametrize("group", ["map", "rules"])
def test_a_command_groups_help_cuts_no_summary(cli, group):
    result = cli(group, "--help")
    assert result.code == 0 and "..." not in result.stdout.split("Commands:")[1]


@pytest.mark.parametrize("command", ["build", "replace", "export", "watch"])
def test_the_commands_people_start_with_show_examples(cli, command):
    result = cli(command, "--help")
    assert result.code == 0
    examples = result.stdout.split("Examples:")[1].split("Options:")[0]
    lines = [line.strip() for line in examples.splitlines() if line.strip().startswith("dossier ")]
    assert len(lines) >= 2 and all(line.startswith(f"dossier {command} ") for line in lines)


def test_every_help_example_of_build_is_a_command_build_accepts(cli, tmp_path):
    examples = cli("build", "--help").stdout.split("Examples:")[1].split("Options:")[0]
    for line in (l.strip() for l in examples.splitlines() if l.strip().startswith("dossier build")):
        args = line.split()[2:]
        if "./my-game" in args or "--only" not in args:  # the whole set is built by test_whole_sets
            continue
        result = cli("build", *args, "--out", tmp_path / "out")
        assert result.code == 0, (line, result.stderr)


def test_shell_completion_is_offered_and_completes_commands_and_games():
    env = dict(os.environ, _DOSSIER_COMPLETE="complete_bash", COMP_WORDS="dossier build --game spi", COMP_CWORD="3")
    run = [sys.executable, "-c", "from generators.cli import console_main; import sys; sys.argv[0] = 'dossier'; console_main()"]
    games = subprocess.run(run, env=env, capture_output=True, text=True, timeout=60)
    assert {"spies", "spion-und-spion"} <= set(games.stdout.split()), games.stderr
    env.update(COMP_WORDS="dossier rep", COMP_CWORD="1")
    assert subprocess.run(run, env=env, capture_output=True, text=True, timeout=60).stdout.split() == ["replace"]


def test_the_help_offers_installing_completion(cli):
    assert "--install-completion" in cli("--help").stdout


def test_a_card_size_without_a_unit_suggests_one_for_both_sides(cli, tmp_path):
    result = cli("build", "--game", "spies", "--only", "cards", "--card-size", "63x88", "--out", tmp_path)
    assert result.code == 2
    assert "'63x88' has no unit; write it like 63x88mm or 63x88in" in result.stderr and "63in" not in result.stderr


def test_listing_trust_with_nothing_trusted_says_so(cli, tmp_path, monkeypatch):
    # Its own configuration folder: other tests on the same worker trust folders in the shared one.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "configuration"))
    result = cli("trust", "--list")
    assert result.code == 0 and result.stdout.startswith("no game folder is trusted yet")


def test_a_copy_with_a_referee_says_it_needs_trust(cli, tmp_path):
    result = cli("new", "mine", "--from", "spies", "--to", tmp_path)
    assert result.code == 0 and "runs only once you trust the copy" in result.stdout
    assert f"dossier trust {tmp_path / 'mine'}" in result.stdout
    plain = cli("new", "plain", "--to", tmp_path)
    assert plain.code == 0 and "trust" not in plain.stdout
