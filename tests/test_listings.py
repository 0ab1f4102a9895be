"""`dossier list`: tiles, pieces, and the groups of kinds a game names under `lists` in its game.yaml."""

from __future__ import annotations


def test_a_game_lists_a_group_of_its_kinds(cli):
    secrets = cli("list", "secrets", "--game", "spies", "--json").json()
    assert {p["kind"] for p in secrets} == {"secret", "counterspy"}
    assert sum(p["count"] for p in secrets) == 40


def test_a_listing_the_game_does_not_name_is_refused_with_the_choices(cli):
    result = cli("list", "secrets", "--game", "web-of-spies")
    assert result.code == 2 and "Traceback" not in result.stderr
    assert "unknown listing 'secrets'" in result.stderr and "'tiles', 'pieces'" in result.stderr


def test_a_list_naming_an_unknown_kind_is_refused(cli, game_copy):
    folder = game_copy("spies")
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("[secret, counterspy]", "[secret, counterspies]"), encoding="utf-8")
    result = cli("validate", "--game", folder)
    assert result.code == 2
    assert "spies/game.yaml: lists.secrets[1]: unknown kind 'counterspies'" in result.stderr
