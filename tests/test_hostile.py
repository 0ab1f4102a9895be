"""Hostile and unlucky input, one case per kind of attack: each is refused through the CLI with exit 2,
one message naming the file, the field and the reason, and nothing changed outside the output folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_helpers import edit, shipped, snapshot, write_game

from generators.core.limits import MAX_FILE_BYTES


class Sandbox:
    """A working folder holding the tiny game, an output folder, and the state of everything else."""

    def __init__(self, root: Path, cli):
        self.root, self._cli = root, cli
        self.game = write_game(root / "tiny")
        self.out = root / "work" / "out"
        (root / "work").mkdir()
        self.before: dict = {}

    def file(self, name: str) -> Path:
        return self.game / name

    def run(self, *args):
        """Run dossier; note what lies outside the output folder first, to compare with `outside()` afterwards."""
        self.before = self.outside()
        return self._cli(*args)

    def outside(self) -> dict:
        return {"sandbox": snapshot(self.root, skip=self.out), "shipped": shipped()}

    def refused(self, *args, needle: str | list[str]):
        """Run dossier ARGS; it must exit 2 with every needle in one message and change nothing outside OUT."""
        result = self.run(*args)
        assert result.code == 2, result
        assert "Traceback" not in result.stderr and result.stderr.startswith("dossier: ")
        for part in [needle] if isinstance(needle, str) else needle:
            assert part in result.stderr, result.stderr
        assert self.outside() == self.before
        return result.stderr


@pytest.fixture
def box(tmp_path, cli, monkeypatch):
    sandbox = Sandbox(tmp_path, cli)
    monkeypatch.chdir(tmp_path / "work")
    return sandbox


def test_the_tiny_game_is_valid_and_builds(box):
    assert box.run("validate", "--game", box.game).code == 0
    assert box.run("build", "--game", box.game, "--out", box.out).code == 0
    assert sorted(p.name for p in (box.out / "tiny").iterdir()) == [".dossier-files", "cards.pdf", "counters.pdf", "player-aid.pdf", "tiles.pdf"]


# ---- 1. a game's name becomes a folder: it must be a plain folder name

@pytest.mark.parametrize("name, reason", [
    ('"../../x"', "starts with a dot"),
    ('"/abs"', "holds '/'"),
    ('""', "is empty"),
    ('".."', "starts with a dot"),
    ('"a\\\\b"', "holds '\\\\'"),
])
@pytest.mark.parametrize("command", ["validate", "build", "replace"])
def test_a_game_name_that_is_not_a_plain_folder_name_is_refused(box, name, reason, command):
    edit(box.file("game.yaml"), "name: tiny", f"name: {name}")
    args = {"validate": (), "build": ("--out", box.out), "replace": ("Scarlet",)}[command]
    box.refused(command, "--game", box.game, *args, needle=["tiny/game.yaml: name: ", "is not a plain folder name", reason])
    assert not box.out.exists() and not Path("output").exists()


@pytest.mark.parametrize("name", ["../../escape", "", "sub/../../escape", ".."])
def test_every_write_stays_inside_the_output_folder_whatever_names_it(box, name, monkeypatch):
    from generators.build import build_game, make_options
    from generators.core.errors import OutputError
    from generators.core.game import Game
    from generators.printing.render import publish
    from generators.printing.settings import PrintSettings
    from generators.validation import load_game

    game = load_game(box.game)
    monkeypatch.setattr(Game, "output_name", property(lambda self: name))  # as if no check had looked at it
    box.before = box.outside()
    with pytest.raises(OutputError, match="outside the output folder|the output folder itself"):
        settings = PrintSettings.resolve(make_options(box.out, only=("counters",)), game.layout)
        publish(build_game(game, settings), box.out)
    assert box.outside() == box.before


# ---- 2. aliases that expand a small file into millions of values; long values cut in messages

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


# Runs dossier and writes the process's own peak memory (kB) to the file named first. The kernel's
# ru_maxrss of a child also counts the pages it shared with this (large) test process before exec,
# so the child reads its high-water mark from /proc instead.
PEAK_CHILD = """
import sys
from generators.cli import main
code = main(sys.argv[2:])
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
with open(sys.argv[1], "w") as out:
    out.write(peak)
sys.exit(code)
"""


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_an_alias_bomb_is_refused_within_2_seconds_and_200_mb(box):
    box.file("aliases.yaml").write_text(BOMB, encoding="utf-8")
    peak = box.root / "peak"
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-c", PEAK_CHILD, str(peak), "validate", "--game", str(box.game)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 2
    assert "tiny/aliases.yaml: line 7, column 4: aliases expand this document to more than 1,000,000 values" in err
    assert len(err) < 500 and "Traceback" not in err
    assert usage.ru_utime + usage.ru_stime < 2.0  # processor time, start-up included: what a busy machine cannot inflate
    assert seconds < 10.0
    assert int(peak.read_text()) * 1024 < 200 * 2**20


def test_an_alias_that_holds_itself_is_refused(box):
    box.file("aliases.yaml").write_text("aliases: &a {Scarlet: *a}\n", encoding="utf-8")
    box.refused("validate", "--game", box.game, needle="tiny/aliases.yaml: line 1, column 10: an alias refers to a value that holds it")


def test_a_long_value_is_cut_in_the_message(box):
    edit(box.file("pieces.yaml"), 'name: "Agent R", strength: 1', f'name: "Agent R", strength: "{"9" * 9000}"')
    err = box.refused("validate", "--game", box.game, needle=["tiny/pieces.yaml: pieces[0].strength: expected a whole number, got '999",
                                                               "... (9,000 characters)"])
    assert len(err) < 300


def test_a_text_longer_than_any_piece_holds_is_refused_short(box):
    edit(box.file("pieces.yaml"), 'name: "Agent B"', f'name: "{"Agent " * 20_000}"')
    err = box.refused("validate", "--game", box.game, needle=["tiny/pieces.yaml: pieces[1].name: string should have at most 10000 characters"])
    assert len(err) < 400


# ---- 4. what used to end in a traceback

@pytest.mark.parametrize("template, reason", [
    ("{name", "is not a template: expected '}' before end of string"),
    ("{}", "an empty slot {} names no field"),
    ("{name!z}", "slot {name} carries a conversion or format"),
    ("{name:d}", "slot {name} carries a conversion or format"),
    ("{name:>99999999999}", "slot {name} carries a conversion or format"),
    ("{name:>100000000}", "slot {name} carries a conversion or format"),
    ("{name.upper}", "slot {name.upper} is not a field name"),
])
def test_a_face_template_with_more_than_plain_slots_is_refused(box, template, reason):
    edit(box.file("game.yaml"), 'front: {title: "{name}"', f'front: {{title: "{template}"')
    box.refused("validate", "--game", box.game, needle=f"tiny/game.yaml: kinds.spy.front.title: {reason}")


def test_a_card_template_with_more_than_plain_slots_is_refused(box):
    edit(box.file("cards.yaml"), 'item: "{name} ({strength})"', 'item: "{name:>100000000}"')
    box.refused("validate", "--game", box.game, needle="tiny/cards.yaml: derived.spies.item: slot {name} carries a conversion or format")


def test_an_integer_too_long_to_read_is_refused(box):
    edit(box.file("pieces.yaml"), "strength: 1", f"strength: {'9' * 5000}")
    box.refused("validate", "--game", box.game, needle="tiny/pieces.yaml: line 2, column 57: a whole number of 5,000 characters is too long to read")


def test_a_number_that_is_not_finite_is_refused(box):
    edit(box.file("layouts/tiny.yaml"), "tile: {width: 1in", "tile: {width: .inf")
    box.refused("validate", "--game", box.game, needle="tiny/layouts/tiny.yaml: line 3, column 17: '.inf' is not a finite number")


@pytest.mark.parametrize("where", ["--game", "--out", "--map", "data file"])
def test_a_symlink_loop_is_refused_by_name(box, where):
    loop = box.root / "work" / "loop"
    loop.symlink_to(loop)
    if where == "data file":
        box.file("tiles.yaml").unlink()
        box.file("tiles.yaml").symlink_to("tiles.yaml")
        box.refused("validate", "--game", box.game, needle="tiny/tiles.yaml: is a symbolic link loop, not a regular file")
    elif where == "--game":
        box.refused("validate", "--game", "./loop", needle="loop: is a symbolic link loop, not a game folder")
    elif where == "--out":
        box.refused("build", "--game", box.game, "--out", "loop", needle="loop is a symbolic link loop, not a folder to write into")
    else:
        box.refused("map", "check", "--map", "loop", needle="loop: is a symbolic link loop, not a regular file")


def test_an_unreadable_game_folder_is_refused_by_name(box, monkeypatch):
    if os.geteuid() != 0:
        box.game.chmod(0)
    else:  # the superuser reads any folder: let the system refuse as it would anyone else
        real_scandir = os.scandir

        def scandir(path="."):
            if Path(path) == box.game:
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)

        monkeypatch.setattr(os, "scandir", scandir)
    try:
        box.refused("validate", "--game", box.game, needle="tiny: cannot read the game folder: Permission denied")
    finally:
        box.game.chmod(0o755)


# ---- 6. --out never replaces a device, a link or a folder Dossier cannot swap whole

@pytest.mark.parametrize("command", ["replace", "calibrate", "build"])
def test_out_that_is_a_device_is_never_replaced(box, command):
    args = {"replace": ("replace", "Scarlet"), "calibrate": ("calibrate",), "build": ("build",)}[command]
    expected = "/dev/null is a device, not a folder to write into" if command == "build" else \
        "/dev/null is a device; Dossier writes only over regular files"
    box.refused(*args, "--game", box.game, "--out", "/dev/null", needle=expected)
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize("name", ["pieces.yaml", "game.yaml", "layouts/tiny.yaml"])
def test_a_data_file_that_links_outside_the_game_folder_is_refused_unread(box, name):
    private = box.root / "private.txt"
    private.write_text("root:$6$secret-hash:19000:0:99999:7:::\n", encoding="utf-8")
    box.file(name).unlink()
    box.file(name).symlink_to(private)
    err = box.refused("validate", "--game", box.game,
                      needle=f"tiny/{name}: is a symbolic link to a file outside the game folder, which is not read")
    assert "$6$" not in err and "19000" not in err


def test_a_data_file_that_links_inside_the_game_folder_is_read(box):
    (box.game / "rosters").mkdir()
    box.file("pieces.yaml").rename(box.game / "rosters" / "pieces.yaml")
    box.file("pieces.yaml").symlink_to(Path("rosters") / "pieces.yaml")
    assert box.run("validate", "--game", box.game).code == 0


@pytest.mark.parametrize("command", ["replace", "calibrate"])
def test_out_that_is_a_link_is_never_replaced(box, command):
    mine = box.root / "mine.pdf"
    mine.write_bytes(b"my own file")
    link = box.root / "work" / "link.pdf"
    link.symlink_to(mine)
    args = ("replace", "Scarlet") if command == "replace" else ("calibrate",)
    box.refused(*args, "--game", box.game, "--out", link, needle="link.pdf is a symbolic link; Dossier writes only over regular files")
    assert link.is_symlink() and mine.read_bytes() == b"my own file"


def test_a_game_folder_that_is_a_link_is_not_written_through(box):
    elsewhere = box.root / "elsewhere"
    elsewhere.mkdir()
    box.out.mkdir()
    (box.out / "tiny").symlink_to(elsewhere)
    box.refused("build", "--game", box.game, "--out", box.out, needle="out/tiny is a symbolic link, so the file could land outside the output folder")
    assert not list(elsewhere.iterdir())


def test_a_product_that_is_a_link_is_not_replaced(box):
    (box.out / "tiny").mkdir(parents=True)
    (box.out / "tiny" / "counters.pdf").symlink_to(box.file("game.yaml"))
    box.refused("build", "--game", box.game, "--out", box.out, needle="out/tiny/counters.pdf is a symbolic link; Dossier writes only over regular files")
    assert (box.out / "tiny" / "counters.pdf").is_symlink() and box.file("game.yaml").read_text().startswith("name: tiny")


# ---- 7. a data file that is not a regular file

@pytest.mark.parametrize("what, reason", [
    ("folder", "is a folder, not a regular file"),
    ("fifo", "is a FIFO (named pipe), not a regular file"),
    ("device", "is a device, not a regular file"),
    ("dangling", "is a symbolic link to nothing, not a regular file"),
])
def test_a_data_file_that_is_not_a_regular_file_is_refused(box, what, reason):
    tiles = box.file("tiles.yaml")
    tiles.unlink()
    {"folder": tiles.mkdir, "fifo": lambda: os.mkfifo(tiles), "device": lambda: tiles.symlink_to("/dev/zero"),
     "dangling": lambda: tiles.symlink_to("nowhere.yaml")}[what]()
    box.refused("validate", "--game", box.game, needle=f"tiny/tiles.yaml: {reason}")


# ---- 8. what build refuses, validate refuses first

@pytest.mark.parametrize("font, reason", [
    ("Nowhere.ttf", "font 'Nowhere.ttf' cannot be used"),
    ("bad.ttf", "font 'bad.ttf' cannot be used"),
    ("/dev/zero", "names a path outside the layouts folders; put the font file in the game's layouts/ folder"),
    ("fifo.ttf", "is a FIFO (named pipe), not a font file"),
])
def test_a_font_that_cannot_be_used_is_refused_by_validate(box, font, reason):
    (box.file("layouts") / "bad.ttf").write_bytes(b"\0\1\0\0 not really a font" * 10)
    os.mkfifo(box.file("layouts") / "fifo.ttf")
    edit(box.file("layouts/tiny.yaml"), "extends: default\n", f"extends: default\nfonts: {{regular: {font}}}\n")
    box.refused("validate", "--game", box.game, needle=["tiny/layouts/tiny.yaml: fonts.regular: ", reason])
    box.refused("build", "--game", box.game, "--out", box.out, needle=["tiny/layouts/tiny.yaml: fonts.regular: ", reason])


@pytest.mark.parametrize("old, new, needle", [
    ("tile: {width: 1in", "tile: {width: 999999999999mm",
     "tiny/layouts/tiny.yaml: sizes.tile.width: '999999999999mm' is too large: a length is at most 10 m"),
    ("extends: default\n", "extends: default\nmin_text_size: {piece: 99999999pt}\n",
     "tiny/layouts/tiny.yaml: min_text_size.piece: '99999999pt' is too large: a length is at most 10 m"),
    ("extends: default\n", "extends: default\nmin_text_size: {piece: 6000pt}\n",
     "tiny/layouts/tiny.yaml: min_text_size.piece: 6000 is beyond any length (mm) or type size (pt) a sheet can hold"),
    ("sizes:\n", "sizes:\n  counter: {width: 300mm, height: 20mm}\n",
     "tiny/game.yaml: kinds.spy.size: a 300 x 20 mm counter does not fit on 215.9 x 279.4 mm paper"),
    ("tile: {width: 1in, height: 1in}", "tile: {width: 1in, height: 270mm}",
     "tiny/tiles.yaml: tiles: a 25.4 x 270 mm tile does not fit on 215.9 x 279.4 mm paper"),
])
def test_absurd_sizes_are_refused_by_validate(box, old, new, needle):
    edit(box.file("layouts/tiny.yaml"), old, new)
    box.refused("validate", "--game", box.game, needle=needle)


def test_a_text_too_long_for_its_piece_is_refused_by_build_and_export_as_validate_refuses_it(box):
    edit(box.file("pieces.yaml"), 'name: "Agent B"', f'name: "{"Agent " * 60}"')
    reason = "text does not fit in 9.7 x 9.1 mm even at 5 pt"
    box.refused("validate", "--game", box.game, needle=["tiny/pieces.yaml: pieces[1]: Agent Agent Agent", reason])
    named = ["tiny/pieces.yaml: pieces[1]: Agent Agent Agent", reason]
    box.refused("build", "--game", box.game, "--out", box.out, needle=named)
    box.refused("export", "vassal", "--game", box.game, "--out", box.out, needle=named)
    assert not box.out.exists()


def test_a_roster_of_2000_pieces_too_long_for_their_kind_is_refused_by_validate_in_linear_time(box):
    # every face of the kind asked for the kind's arrangement, and a failed one was searched for again:
    # 1,000 / 2,000 / 4,000 such pieces took 4 / 20 / 94 s
    long = " ".join(["Extraordinarily"] * 6)
    roster = "".join(f'  - {{kind: spy, nation: red, name: "{long} {i}", strength: 1}}\n' for i in range(2000))
    box.file("pieces.yaml").write_text("pieces:\n" + roster, encoding="utf-8")
    box.file("aliases.yaml").write_text("aliases: {}\n", encoding="utf-8")
    child = subprocess.Popen([sys.executable, "-c", "import sys; from generators.cli import main; sys.exit(main(sys.argv[1:]))",
                              "validate", "--game", str(box.game)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.stderr.close()
    assert os.waitstatus_to_exitcode(status) == 2
    assert re.search(rf"tiny/pieces.yaml: pieces\[\d+\]: {long} \d+ \(spy, Red\): title: text does not fit in 9.7 x 9.1 mm even at 5 pt", err)
    assert err.count("text does not fit in 9.7") == 1  # one arrangement, refused once
    assert usage.ru_utime + usage.ru_stime < 8.0  # processor time, start-up included: about 2 s


@pytest.mark.parametrize("change, needle", [
    (("count: 2", "count: 10000000"), "tiny/pieces.yaml: pieces[1].count: input should be less than or equal to 50000"),
    (("count: 2", "count: 30000}\n  - {kind: spy, nation: red, name: \"X\", strength: 1, count: 30000"),
     "tiny/pieces.yaml: pieces: counts add up to 60,001 pieces; Dossier prints at most 50,000 for one game"),
])
def test_counts_beyond_the_limit_are_refused_naming_it(box, change, needle):
    edit(box.file("pieces.yaml"), *change)
    box.refused("validate", "--game", box.game, needle=needle)


def test_a_roster_of_a_million_is_refused_unread(box):
    row = '  - {kind: spy, nation: red, name: "Agent %07d", strength: 1}\n'
    box.file("pieces.yaml").write_text("pieces:\n" + "".join(row % i for i in range(MAX_FILE_BYTES // len(row) + 10)), encoding="utf-8")
    start = time.thread_time()
    box.refused("validate", "--game", box.game, needle="tiny/pieces.yaml: is larger than 10 MB, the most a data file may be")
    spent = time.thread_time() - start  # this thread's processor time: neither a busy machine nor another thread inflates it
    assert spent < 1.0, f"{spent:.2f} s of processor time"


def test_copies_beyond_the_limit_are_refused_naming_it(box):
    box.refused("replace", "Scarlet", "--copies", "10000000", "--game", box.game, "--out", box.out / "r.pdf",
                needle="--copies 10,000,000: that is 10,000,000 pieces; Dossier prints at most 50,000 in one run")
    assert not box.out.exists()


# ---- 9. strict types where the meaning is

@pytest.mark.parametrize("value, needle", [
    ('"1"', "pieces[0].strength: expected a whole number, got '1'"),
    ("true", "pieces[0].strength: expected a whole number, got True"),
    ("1.0", "pieces[0].strength: expected a whole number, got 1.0"),
])
def test_a_strength_is_a_whole_number_not_text_or_a_flag(box, value, needle):
    edit(box.file("pieces.yaml"), "strength: 1", f"strength: {value}")
    box.refused("validate", "--game", box.game, needle=f"tiny/pieces.yaml: {needle}")


def test_unique_by_names_a_real_field(box):
    edit(box.file("game.yaml"), "unique_by: [nation, name]", "unique_by: [nation, nmae]")
    box.refused("validate", "--game", box.game, needle="tiny/game.yaml: kinds.spy.unique_by[1]: names unknown piece field 'nmae'")


def test_a_card_filter_on_a_missing_field_is_refused_even_with_no_records_to_filter(box):
    edit(box.file("cards.yaml"), "records: pieces\n    where: {kind: spy}\n    item: \"{name} ({strength})\"",
         "records: factions\n    where: {colour: red}\n    item: \"{name}\"")
    box.file("pieces.yaml").unlink()
    box.refused("validate", "--game", box.game, needle="tiny/cards.yaml: derived.spies.where: where names unknown field 'colour' of factions")


def test_a_card_filter_that_picks_nothing_is_refused(box):
    edit(box.file("cards.yaml"), "where: {kind: spy}", "where: {kind: spie}")
    box.refused("validate", "--game", box.game, needle="tiny/cards.yaml: derived.spies.where: picks none of the game's 2 pieces")


# ---- 11. smaller

def test_two_aliases_differing_only_by_case_are_a_clash(box):
    box.file("aliases.yaml").write_text('aliases:\n  Scarlet: "Agent R"\n  scarlet: "Agent B"\n', encoding="utf-8")
    box.refused("validate", "--game", box.game, needle="tiny/aliases.yaml: aliases.scarlet: clashes with the alias 'Scarlet'")


def test_an_alias_spelled_like_another_printed_name_is_a_clash(box):
    box.file("aliases.yaml").write_text('aliases:\n  agent b: "Agent R"\n', encoding="utf-8")
    box.refused("validate", "--game", box.game, needle="tiny/aliases.yaml: aliases.agent b: clashes with the printed name 'Agent B'")


@pytest.mark.parametrize("command", [("build",), ("replace", "Scarlet"), ("calibrate",)])
def test_an_empty_out_is_refused(box, command):
    result = box.run(*command, "--game", box.game, "--out", "")
    assert result.code == 2 and "Invalid value for '--out'" in result.stderr and "is empty" in result.stderr
    assert box.outside() == box.before and not list((box.root / "work").iterdir())


def test_dossier_data_naming_a_missing_folder_is_refused(box, monkeypatch):
    monkeypatch.setenv("DOSSIER_DATA", str(box.root / "nowhere"))
    box.refused("games", needle="is not a folder holding components/")
    box.refused("validate", needle="nowhere' is not a folder holding components/")


def test_stale_page_cleanup_deletes_only_pages_dossier_wrote(box):
    assert box.run("build", "--game", box.game, "--out", box.out, "--format", "pdf,svg", "--piece-size", "150mm").code == 0
    folder = box.out / "tiny"
    written = sorted(p.name for p in folder.glob("counters-*.svg"))
    assert len(written) == 6
    (folder / "counters-99.svg").write_text("<svg>mine</svg>", encoding="utf-8")
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    assert box.run("build", "--game", box.game, "--out", box.out, "--format", "pdf,svg").code == 0
    assert sorted(p.name for p in folder.glob("counters-*.svg")) == ["counters-1.svg", "counters-2.svg", "counters-99.svg"]
    assert (folder / "counters-99.svg").read_text(encoding="utf-8") == "<svg>mine</svg>"
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_mapping_key_of_the_wrong_type_is_named_by_its_place(box):
    box.file("aliases.yaml").write_text("aliases:\n  1: Paris\n", encoding="utf-8")
    box.refused("validate", "--game", box.game, needle="tiny/aliases.yaml: aliases[1]: as a key, expected text, got 1")


def test_a_duplicated_faction_id_is_reported_once(box):
    edit(box.file("game.yaml"), "{id: blue, name: Blue", "{id: red, name: Blue")
    err = box.refused("validate", "--game", box.game, needle="tiny/game.yaml: factions[1].id: id 'red' is already used by factions[0]")
    assert err.count("\n") == 1


def test_one_message_repeated_across_records_is_one_line(box):
    rows = "".join(f'  - {{kind: spy, nation: green, name: "G{i}", strength: 1}}\n' for i in range(40))
    box.file("pieces.yaml").write_text("pieces:\n" + rows, encoding="utf-8")
    box.file("aliases.yaml").unlink()
    err = box.refused("validate", "--game", box.game,
                      needle="pieces[0].nation (also pieces[1].nation, pieces[2].nation, pieces[3].nation and 36 more): unknown faction 'green'")
    assert err.count("\n") == 1
