"""Every validation code of the game checks, each proved by one deliberately broken game (DATC style).

A small clean game (two factions, spies, tiles, aliases, a card, its own layout preset) is
written to a folder, one file of it is broken, and the folder is read and checked as
`dossier validate` does. Each case is named for what it proves and says which file, field and
code the refusal must name. The map's own checks have their broken maps in test_map_check.py.

`test_every_check_in_the_source_has_a_case` reads the checking modules' source for every
`Problem(..., "code")` and fails when one of them is reached by no case: a check added
without a broken-data case fails the suite.
"""

from __future__ import annotations

import ast
import copy
import inspect
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

import generators.core.game_folders
import generators.core.layouts
import generators.core.loader
import generators.core.yamlio
import generators.map.checks
import generators.validation
from generators.core import paths
from generators.core.errors import DataError, Problem
from generators.core.limits import MAX_FILE_BYTES
from generators.core.loader import read_game
from generators.core.yamlio import read_yaml
from generators.validation import Preflight, problems
from hostile_helpers import TILE_KIND

GAME = {
    "name": "tiny", "title": "Tiny", "layout": "tiny", "years": [1933, 1934], "variants": ["short", "long"],
    "sheet_total": 4,
    "tiles": {**TILE_KIND, "fields": {**TILE_KIND["fields"], "years": {**TILE_KIND["fields"]["years"], "max": 1934}}},
    "factions": [{"id": "red", "name": "Red", "code": "Rd", "symbol": "star"},
                 {"id": "blue", "name": "Blue", "code": "Bl", "symbol": "ring"}],
    "kinds": {"spy": {"label": "Spy", "size": "counter", "unique_by": ["name"],
                      "front": {"title": "{name}", "value": "{strength}", "symbol": "runner", "colour": "nation"},
                      "back": {"title": "{NATION}", "colour": "nation"}}},
    "lists": {"agents": ["spy"]},
}
PIECES = {"pieces": [
    {"kind": "spy", "nation": "red", "name": "Fox", "strength": 2, "games": ["short"]},
    {"kind": "spy", "nation": "red", "name": "Lynx", "strength": 3},
    {"kind": "spy", "nation": "blue", "name": "Heron", "strength": 2, "count": 2},
]}
TILES = {"tiles": [
    {"id": "Rd 1", "nation": "red", "number": 1, "years": [1933], "event": "Red wins.",
     "awards": [{"amount": 1, "kind": "c", "cities": ["Alba", "Cair"]}]},
    {"id": "random 2", "number": 2, "years": [1933, 1934], "event": "Anyone wins.",
     "awards": [{"amount": 2, "kind": "c", "cities": ["Cair"]}]},
]}
ALIASES = {"aliases": {"Foxy": "Fox", "Alb": "Alba"}}
CARDS = {
    "variants": {"short": "Short game", "long": "Long game"},
    "citations": ["1.1", "Tile list"],
    "cards": [{"id": "summary", "title": "Summary", "front": {"title": "How to play", "sections": [
        {"heading": "Moving", "items": [{"text": "A spy moves one space.", "rules": ["1.1"], "variant": "short"}]},
        {"heading": "Tiles", "from": "tiles"},
    ]}}],
    "derived": {"tiles": {"records": "tiles", "item": "{id}", "rules": ["Tile list"]}},
}
LAYOUT = {
    "extends": "default",
    "sizes": {"counter": {"width": "12.7mm", "height": "12.7mm"}, "tile": {"width": "1.5in", "height": "1in"}},
    "colours": {"red": {"fill": "#d55e00", "ink": "#000000"}, "blue": {"fill": "#0072b2", "ink": "#ffffff"}},
}
FILES = {"game.yaml": GAME, "pieces.yaml": PIECES, "tiles.yaml": TILES, "aliases.yaml": ALIASES,
         "cards.yaml": CARDS, "layouts/tiny.yaml": LAYOUT}

Files = dict[str, object]  # file name -> its document, raw text (str) or raw bytes; None removes the file


@dataclass(frozen=True)
class Case:
    """A broken game: what `breaks` does to the clean files, and the problem the checks must report."""

    name: str
    breaks: Callable[[Files], None]
    file: str
    where: str
    code: str
    base: str = "tiny"  # "tiny" (the game above) or "spies" (a copy of the shipped game, for its map)


@dataclass
class Outcome:
    """What checking one broken game gave: every problem, and the source lines that made them."""

    problems: list[Problem] = field(default_factory=list)
    sites: set[tuple[str, int]] = field(default_factory=set)
    error: str | None = None


CASES: list[Case] = []


def case(file: str, where: str, code: str, base: str = "tiny"):
    """Register the decorated function as a broken-data case."""
    def register(breaks: Callable[[Files], None]) -> Callable[[Files], None]:
        CASES.append(Case(breaks.__name__, breaks, file, where, code, base))
        return breaks
    return register


def piece(files: Files, i: int) -> dict:
    return files["pieces.yaml"]["pieces"][i]


def tile(files: Files, i: int) -> dict:
    return files["tiles.yaml"]["tiles"][i]


def section(files: Files, i: int) -> dict:
    return files["cards.yaml"]["cards"][0]["front"]["sections"][i]


# game.yaml -------------------------------------------------------------------------------------

@case("game.yaml", "factions[1].id", "duplicate")
def two_factions_may_not_share_an_id(files):
    files["game.yaml"]["factions"][1].update(id="red")


@case("game.yaml", "factions[1].code", "duplicate")
def two_factions_may_not_share_a_code(files):
    files["game.yaml"]["factions"][1].update(code="Rd")


@case("game.yaml", "kinds.spy.unique_by[0]", "unknown-field")
def a_kind_is_told_apart_by_fields_pieces_have(files):
    files["game.yaml"]["kinds"]["spy"]["unique_by"] = ["nmae"]


@case("game.yaml", "kinds.spy.front.colour_by.gmaes", "unknown-field")
def a_face_is_coloured_by_a_field_pieces_have(files):
    files["game.yaml"]["kinds"]["spy"]["front"]["colour_by"] = {"gmaes": {"short": "neutral"}}


@case("game.yaml", "kinds.spy.front.title", "unknown-field")
def a_face_fills_slots_from_fields_pieces_have(files):
    files["game.yaml"]["kinds"]["spy"]["front"]["title"] = "{nmae}"


@case("game.yaml", "years", "bad-years")
def the_games_years_run_in_order_without_a_gap(files):
    files["game.yaml"]["years"] = [1933, 1935]


@case("game.yaml", "lists.agents[1]", "unknown-kind")
def a_list_names_only_kinds_the_game_has(files):
    files["game.yaml"]["lists"]["agents"].append("spies")


@case("game.yaml", "factions[0].symbol", "unknown-symbol")
def a_factions_symbol_has_a_drawing(files):
    files["game.yaml"]["factions"][0]["symbol"] = "hammer"


@case("game.yaml", "kinds.spy.front.symbol", "unknown-symbol")
def a_kinds_face_symbol_has_a_drawing(files):
    files["game.yaml"]["kinds"]["spy"]["front"]["symbol"] = "runer"


@case("game.yaml", "layout", "unknown-layout")
def the_layout_preset_named_exists(files):
    files["game.yaml"]["layout"] = "tiney"


@case("game.yaml", "kinds.spy.size", "unknown-size")
def a_kinds_size_is_in_the_layout(files):
    files["game.yaml"]["kinds"]["spy"]["size"] = "chit"


@case("game.yaml", "kinds.spy.front.colour", "unknown-colour")
def every_factions_colour_is_in_the_layout(files):
    del files["layouts/tiny.yaml"]["colours"]["blue"]


# layout presets --------------------------------------------------------------------------------

@case("layouts/tiny.yaml", "min_text_size.piece", "absurd-size")
def a_layout_length_stays_within_what_a_sheet_holds(files):
    files["layouts/tiny.yaml"]["min_text_size"] = {"piece": "6000pt"}


@case("layouts/tiny.yaml", "fonts.condensed", "bad-font")
def every_font_of_the_layout_can_be_read(files):
    files["layouts/tiny.yaml"]["fonts"] = {"condensed": "NoSuchFace.ttf"}


@case("layouts/tiny.yaml", "type.mole", "unknown-kind")
def a_type_size_is_set_for_a_kind_the_game_has(files):
    files["layouts/tiny.yaml"]["type"] = {"mole": {"title": "7pt"}}


@case("layouts/tiny.yaml", "type.spy.shout", "unknown-role")
def a_type_size_is_set_for_a_role_pieces_have(files):
    files["layouts/tiny.yaml"]["type"] = {"spy": {"shout": "7pt"}}


@case("layouts/tiny.yaml", "paper", "unknown-paper")
def the_layouts_paper_is_a_known_size(files):
    files["layouts/tiny.yaml"]["paper"] = "folio"


@case("layouts/tiny.yaml", "extends", "layout-loop")
def a_preset_may_not_extend_itself(files):
    files["layouts/tiny.yaml"]["extends"] = "tiny"


@case("layouts/tiny.yaml", "extends", "unknown-layout")
def a_preset_extends_a_preset_that_exists(files):
    files["layouts/tiny.yaml"]["extends"] = "defualt"


@case("layouts/tiny.yaml", "", "invalid")
def a_preset_is_a_mapping_of_settings(files):
    files["layouts/tiny.yaml"] = "- extends\n- default\n"


# pieces.yaml -----------------------------------------------------------------------------------

@case("pieces.yaml", "", "missing-file")
def a_game_with_a_sheet_total_has_a_roster(files):
    files["pieces.yaml"] = None


@case("pieces.yaml", "pieces", "too-many")
def a_roster_prints_at_most_the_piece_limit(files):
    piece(files, 0)["count"] = piece(files, 2)["count"] = 30_000  # each within the limit, together beyond it
    files["game.yaml"].pop("sheet_total")


@case("pieces.yaml", "pieces[1].art", "bad-art")
def a_pieces_picture_lies_inside_the_game_folder(files):
    piece(files, 1)["art"] = "../elsewhere.svg"


@case("pieces.yaml", "pieces[1].art", "bad-art")
def a_pieces_picture_exists(files):
    piece(files, 1)["art"] = "art/lynx.svg"


@case("pieces.yaml", "pieces[1].name", "missing-glyph")
def every_character_printed_is_in_the_fonts(files):
    piece(files, 1)["name"] = "Lynx \u2603"


@case("pieces.yaml", "pieces[1].kind", "unknown-kind")
def a_piece_is_of_a_kind_the_game_has(files):
    piece(files, 1)["kind"] = "mole"


@case("pieces.yaml", "pieces[1].nation", "unknown-faction")
def a_piece_belongs_to_a_faction_the_game_has(files):
    piece(files, 1)["nation"] = "green"


@case("pieces.yaml", "pieces[0].games", "unknown-variant")
def a_piece_names_only_variants_the_game_has(files):
    piece(files, 0)["games"] = ["medium"]


@case("pieces.yaml", "pieces[1]", "duplicate")
def pieces_unique_by_nation_and_name_are_unique(files):
    files["game.yaml"]["kinds"]["spy"]["unique_by"] = ["nation", "name"]
    piece(files, 1)["name"] = "Fox"


@case("pieces.yaml", "pieces[0].name", "duplicate")
def names_unique_across_kinds_are_unique(files):
    files["game.yaml"]["kinds"]["mole"] = copy.deepcopy(files["game.yaml"]["kinds"]["spy"]) | {"label": "Mole"}
    piece(files, 1).update(kind="mole", name="Fox")


@case("pieces.csv", "", "two-sources")
def a_roster_is_kept_in_one_file(files):
    files["pieces.csv"] = "kind,nation,name,strength\nspy,red,Fox,2\n"


@case("pieces.yaml", "pieces[2]", "bad-template")
def a_face_names_only_values_the_piece_has(files):
    del piece(files, 2)["strength"]


@case("pieces.yaml", "pieces[0].symbol", "unknown-symbol")
def a_pieces_own_symbol_has_a_drawing(files):
    piece(files, 0)["symbol"] = "pistol"


@case("pieces.yaml", "pieces", "bad-total")
def the_counts_fill_the_sheet(files):
    piece(files, 2)["count"] = 3


# tiles.yaml ------------------------------------------------------------------------------------

@case("tiles.yaml", "tiles[0].id", "duplicate")
def two_tiles_may_not_share_an_id(files):
    tile(files, 1).update(id="Rd 1", nation="red")


@case("tiles.yaml", "tiles[0].number", "duplicate")
def two_tiles_may_not_share_a_number(files):
    tile(files, 1).update(id="random 1", number=1)


@case("tiles.yaml", "tiles[0].nation", "unknown-faction")
def a_tile_belongs_to_a_faction_the_game_has(files):
    tile(files, 0)["nation"] = "green"


@case("tiles.yaml", "tiles[0].id", "bad-id")
def a_tiles_id_is_its_factions_code_and_number(files):
    tile(files, 0)["id"] = "Bl 1"


@case("tiles.yaml", "tiles[1].years[1]", "out-of-range")
def a_tiles_years_are_the_games_years(files):
    tile(files, 1)["years"] = [1933, 1940]


@case("tiles.yaml", "tiles[1].years", "out-of-order")
def a_tiles_years_run_in_order_without_repeats(files):
    tile(files, 1)["years"] = [1934, 1933]


@case("tiles.yaml", "tiles", "undeclared-tiles")
def tiles_are_a_kind_the_game_declares(files):
    del files["game.yaml"]["tiles"]


@case("tiles.yaml", "tiles[0].awards[0].cities", "duplicate")
def an_award_lists_a_city_once(files):
    tile(files, 0)["awards"][0]["cities"] = ["Alba", "Alba"]


@case("tiles.yaml", "tiles[0].awards[0].cities[0]", "unknown-city", base="spies")
def an_award_city_is_on_the_map(files):
    files["tiles.yaml"] = files["tiles.yaml"].replace('cities: ["', 'cities: ["Atlantis", "', 1)


# aliases.yaml ----------------------------------------------------------------------------------

@case("aliases.yaml", "aliases.FOXY", "alias-clash")
def two_spellings_alike_but_for_case_lead_to_one_name(files):
    files["aliases.yaml"]["aliases"]["FOXY"] = "Lynx"


@case("aliases.yaml", "aliases.Foxy", "unknown-name")
def an_alias_points_at_a_name_the_game_prints(files):
    files["aliases.yaml"]["aliases"]["Foxy"] = "Fax"


# cards.yaml ------------------------------------------------------------------------------------

@case("cards.yaml", "aid[0]", "unknown-card")
def the_player_aid_opens_with_card_sides_that_exist(files):
    files["cards.yaml"]["aid"] = ["summary.back"]


@case("cards.yaml", "cards[0].front.sections[0].columns", "invalid")
def columns_are_for_a_section_shown_as_a_table(files):
    section(files, 0)["columns"] = ["Chit", "Cost"]


@case("cards.yaml", "citation_tags.9.9", "unknown-citation")
def a_citation_tag_is_for_a_citation_the_file_allows(files):
    files["cards.yaml"]["citation_tags"] = {"9.9": "9.9"}


@case("cards.yaml", "citation_tags.Tile list", "invalid")
def a_citation_tag_is_words_of_the_rule_it_names(files):
    files["cards.yaml"]["citation_tags"] = {"Tile list": "Tiles"}


@case("cards.yaml", "citation_tags.Tile list", "duplicate")
def two_citations_may_not_share_a_tag(files):
    files["cards.yaml"]["citation_tags"] = {"1.1": "1.1", "Tile list": "1.1"}


@case("cards.yaml", "variants.medium", "unknown-variant")
def the_cards_label_only_variants_the_game_has(files):
    files["cards.yaml"]["variants"]["medium"] = "Medium game"


@case("cards.yaml", "cards[0].front.sections[0].items[0].variant", "unknown-variant")
def a_card_item_is_for_a_variant_the_game_has(files):
    section(files, 0)["items"][0]["variant"] = "medium"


@case("cards.yaml", "cards[1].id", "duplicate")
def two_cards_may_not_share_an_id(files):
    files["cards.yaml"]["cards"].append(copy.deepcopy(files["cards.yaml"]["cards"][0]))


@case("cards.yaml", "cards[0].front.sections[1].from", "unknown-derivation")
def a_section_is_filled_from_a_derivation_the_file_declares(files):
    section(files, 1)["from"] = "tile"


@case("cards.yaml", "cards[0].front.sections[1].table", "unknown-table")
def a_section_prints_a_table_the_game_has(files):
    section(files, 1).update(table="set-up", rules=section(files, 0)["items"][0]["rules"])


@case("cards.yaml", "cards[0].front.sections[0]", "empty-section")
def a_section_has_items_or_a_derivation(files):
    section(files, 0)["items"] = []


@case("cards.yaml", "cards[0].front.sections[0].items[0].text", "empty-text")
def an_item_says_something(files):
    section(files, 0)["items"][0]["text"] = "  "


@case("cards.yaml", "cards[0].front.sections[0].items[0].rules", "no-citation")
def an_item_cites_a_rule(files):
    section(files, 0)["items"][0]["rules"] = []


@case("cards.yaml", "cards[0].front.sections[0].items[0].rules[0]", "unknown-citation")
def an_item_cites_a_rule_in_the_files_citations(files):
    section(files, 0)["items"][0]["rules"] = ["1.2"]


@case("cards.yaml", "derived.tiles.item", "unknown-field")
def a_derivation_names_fields_its_records_have(files):
    files["cards.yaml"]["derived"]["tiles"]["item"] = "{name}"


@case("cards.yaml", "derived.tiles", "bad-derivation")
def a_derivations_group_label_names_fields_its_records_have(files):
    files["cards.yaml"]["derived"]["tiles"].update(group_by="years", label="{season}:")


@case("cards.yaml", "derived.tiles.where", "empty-derivation")
def a_derivations_filter_picks_some_record(files):
    files["cards.yaml"]["derived"]["tiles"]["where"] = {"number": 99}


# display.yaml ----------------------------------------------------------------------------------

@case("display.yaml", "aids[0].from_card", "invalid")
def a_displays_list_takes_a_card_section_that_exists(files):
    files["display.yaml"] = {"title": "Tiny display", "aids": [
        {"id": "moves", "kind": "list", "title": "Moving", "from_card": {"card": "summary", "section": "Flying"}}]}


BOARD = {"id": "ring", "title": "Ring", "directions": {"red": "forward", "blue": "backward"},
         "spaces": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}


@case("boards.yaml", "boards[0].variant", "unknown-variant")
def a_board_is_for_a_variant_the_game_has(files):
    files["boards.yaml"] = {"boards": [BOARD | {"variant": "endless"}]}


@case("boards.yaml", "boards[1].id", "duplicate-board")
def two_boards_may_not_share_an_id(files):
    files["boards.yaml"] = {"boards": [BOARD, BOARD]}


@case("pieces.yaml", "pieces[1].start", "unknown-place")
def a_piece_starts_on_a_place_a_board_has(files):
    files["boards.yaml"] = {"boards": [BOARD]}
    files["pieces.yaml"]["pieces"][1]["start"] = "d"


@case("pieces.yaml", "pieces[2].start", "too-many-starts")
def a_piece_starts_on_no_more_places_than_it_has_copies(files):
    files["boards.yaml"] = {"boards": [BOARD]}
    files["pieces.yaml"]["pieces"][2]["start"] = ["a", "b", "c"]


@case("display.yaml", "aids[0].table", "invalid")
def a_displays_table_names_a_reference_table_the_game_has(files):
    files["display.yaml"] = {"title": "Tiny display", "aids": [{"id": "setup", "kind": "table", "table": "set-up"}]}


# tables.yaml -----------------------------------------------------------------------------------

@case("tables.yaml", "tables[0]", "invalid")
def a_reference_tables_column_names_a_field_its_rows_have(files):
    files["tables.yaml"] = {"tables": [{"id": "set-up", "title": "Set-Up", "columns": [{"heading": "Spies", "text": "{spys}"}],
                                        "rows": [{"nation": "red", "spies": 2}]}]}


@case("tables.yaml", "tables[0].values.Rd 9", "invalid")
def a_reference_tables_values_name_a_row_it_has(files):
    files["tables.yaml"] = {"tables": [{"id": "events", "title": "Events", "from": {"records": "tiles"},
                                        "columns": [{"heading": "Tile", "text": "{id}"}, {"heading": "Effect", "text": "{effect}"}],
                                        "unprinted": {"effect": "not printed"}, "values": {"Rd 9": {"effect": "x"}}}]}


@case("display.yaml", "aids[0].marks", "invalid")
def a_track_marks_only_boxes_it_has(files):
    files["display.yaml"] = {"title": "Tiny display", "aids": [
        {"id": "years", "kind": "track", "title": "Years", "cells": {"first": 1933, "last": 1934}, "marks": {1939: ["end"]}}]}


# what a build would refuse, which validate refuses first ---------------------------------------

@case("game.yaml", "kinds.spy.size", "too-large")
def a_piece_fits_the_paper(files):
    files["layouts/tiny.yaml"]["sizes"]["counter"] = {"width": "300mm", "height": "20mm"}


@case("tiles.yaml", "tiles", "too-large")
def a_tile_fits_the_paper(files):
    files["layouts/tiny.yaml"]["sizes"]["tile"] = {"width": "1in", "height": "300mm"}


@case("layouts/tiny.yaml", "sizes.card", "too-large")
def a_card_fits_the_paper(files):
    files["layouts/tiny.yaml"]["sizes"]["card"] = {"width": "300mm", "height": "100mm"}


@case("layouts/tiny.yaml", "sizes", "unknown-size")
def a_game_with_cards_has_a_card_size(files):
    layout = files["layouts/tiny.yaml"]
    del layout["extends"]  # the shared default gives a card size; a preset of its own may not
    layout["fonts"] = {"regular": "Vera.ttf", "bold": "VeraBd.ttf"}


@case("pieces.yaml", "pieces[1]", "text-too-long")
def a_pieces_name_fits_its_face(files):
    piece(files, 1)["name"] = "Lynx " * 40


@case("tiles.yaml", "tiles", "text-too-long")
def a_tiles_text_fits_the_tile(files):
    tile(files, 0)["event"] = "Red wins the day. " * 40


@case("cards.yaml", "cards", "text-too-long")
def a_cards_text_fits_the_card(files):
    section(files, 0)["items"][0]["text"] = "A spy moves one space. " * 200


# reading the files -----------------------------------------------------------------------------

@case("game.yaml", "", "missing-file")
def a_game_folder_holds_a_game_yaml(files):
    files["game.yaml"] = None


@case("tiles.yaml", "", "invalid")
def an_empty_file_is_refused(files):
    files["tiles.yaml"] = ""


@case("tiles.yaml", "", "invalid")
def a_file_is_a_mapping_at_the_top(files):
    files["tiles.yaml"] = "- id: Rd 1\n"


@case("tiles.yaml", "", "unreadable")
def a_file_is_utf8_text(files):
    files["tiles.yaml"] = b"tiles:\n  - {id: \xff\xfe}\n"


@case("tiles.yaml", "line 2, column 1", "yaml-syntax")
def a_file_is_well_formed_yaml(files):
    files["tiles.yaml"] = "tiles: [\n"


@case("tiles.yaml", "", "yaml-syntax")
def a_file_holds_no_control_characters(files):
    files["tiles.yaml"] = "tiles: []\n\x07\n"


@case("tiles.yaml", "tiles[0].event", "control-character")
def a_text_holds_no_escaped_control_character(files):
    files["tiles.yaml"]["tiles"][0]["event"] = "Border\x0bincident"  # written as the escape "\v"


@case("aliases.yaml", "line 3, column 3", "yaml-value")
def a_key_given_twice_is_refused(files):
    files["aliases.yaml"] = "aliases:\n  Foxy: Fox\n  Foxy: Lynx\n"


# running a case --------------------------------------------------------------------------------

def clean_files() -> Files:
    return copy.deepcopy(FILES)


def write_files(folder: Path, files: Files) -> None:
    for name, content in files.items():
        path = folder / name
        if content is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False),
                            encoding="utf-8")


def spies_files(folder: Path) -> Files:
    """A copy of the shipped Spies! folder, its files given as text to break."""
    shutil.copytree(paths.components_dir() / "spies", folder, ignore=shutil.ignore_patterns("__pycache__"))
    return {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.yaml")}


def check(folder: Path) -> list[Problem]:
    """Every problem `dossier validate` reports for the game in `folder`, reading included."""
    try:
        return problems(read_game(folder), Preflight.FULL)
    except DataError as exc:
        return list(exc.problems)


@contextmanager
def noting_sites() -> Iterator[set[tuple[str, int]]]:
    """Within the block, the (source file, line) of every Problem made is added to the set yielded."""
    sites: set[tuple[str, int]] = set()
    original = Problem.__init__

    def noting(self, *args, **kwargs):
        caller = sys._getframe(1)
        sites.add((caller.f_code.co_filename, caller.f_lineno))
        original(self, *args, **kwargs)

    Problem.__init__ = noting
    try:
        yield sites
    finally:
        Problem.__init__ = original


def run(one: Case, folder: Path) -> Outcome:
    """Break a fresh game as `one` says and check it, noting which source lines made each problem."""
    files = spies_files(folder) if one.base == "spies" else clean_files()
    one.breaks(files)
    write_files(folder, files)
    outcome = Outcome()
    with noting_sites() as outcome.sites:
        try:
            outcome.problems = check(folder)
        except Exception as exc:  # a check that crashes instead of reporting fails its case, named
            outcome.error = f"{type(exc).__name__}: {exc}"
    return outcome


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    """Every case run once; the per-case tests and the coverage test read the same outcomes."""
    root = tmp_path_factory.mktemp("broken")
    return {one.name: run(one, root / one.name) for one in CASES}


def test_the_clean_game_passes_every_check(tmp_path):
    write_files(tmp_path, clean_files())
    assert check(tmp_path) == []


@pytest.mark.parametrize("one", CASES, ids=[c.name for c in CASES])
def test_broken_data_is_refused_with_its_code(outcomes, one, tmp_path):
    outcome = outcomes[one.name]
    assert outcome.error is None, outcome.error
    named = [(p.file.name if p.file.parent.name != "layouts" else f"layouts/{p.file.name}", p.where, p.code)
             for p in outcome.problems]
    assert (one.file, one.where, one.code) in named, f"expected {one.file}: {one.where} [{one.code}], got {named}"


def test_a_missing_file_is_refused_by_name(tmp_path):
    with pytest.raises(DataError) as refused:
        read_yaml(tmp_path / "tiles.yaml")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("tiles.yaml", "missing-file")


def test_a_folder_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(DataError) as refused:
        read_game(tmp_path / "nowhere")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("nowhere", "missing-file")


def test_a_data_file_that_is_not_a_regular_file_is_refused_by_name(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / "tiles.yaml")
    with pytest.raises(DataError) as refused:
        read_yaml(tmp_path / "tiles.yaml")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("tiles.yaml", "not-a-file") and "FIFO" in problem.message.upper()


def test_a_data_file_linked_from_outside_its_folder_is_refused_by_name(tmp_path):
    (tmp_path / "game").mkdir(parents=True, exist_ok=True)
    (tmp_path / "elsewhere.yaml").write_text("tiles: []\n", encoding="utf-8")
    (tmp_path / "game" / "tiles.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(DataError) as refused:
        read_yaml(tmp_path / "game" / "tiles.yaml", within=tmp_path / "game")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("tiles.yaml", "outside-folder")


def test_a_data_file_over_the_size_limit_is_refused_by_name(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "tiles.yaml").write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(DataError) as refused:
        read_yaml(tmp_path / "tiles.yaml")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("tiles.yaml", "too-large")


def test_a_game_given_as_a_file_is_refused_by_name(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "game.txt").write_text("not a folder", encoding="utf-8")
    with pytest.raises(DataError) as refused:
        read_game(tmp_path / "game.txt")
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == ("game.txt", "not-a-folder")


def test_a_game_folder_that_cannot_be_listed_is_refused_by_name(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "game.yaml").write_text("name: x\n", encoding="utf-8")

    def denied(path):
        raise PermissionError(13, "Permission denied", str(path))

    with pytest.MonkeyPatch.context() as patch:  # as root, chmod cannot stop a listing
        patch.setattr(generators.core.game_folders.os, "scandir", denied)
        with pytest.raises(DataError) as refused:
            read_game(tmp_path)
    [problem] = refused.value.problems
    assert (problem.file.name, problem.code) == (tmp_path.name, "unreadable") and "Permission denied" in problem.message


# every check has its case ----------------------------------------------------------------------

def checking_modules() -> list:
    """The modules whose Problems are validation codes: those of the checks `load_game` runs (less the map's,
    proved in test_map_check.py) and the reading of files and layout presets."""
    checks = generators.validation.CHECKS + generators.validation.preflight_checks(Preflight.FULL)
    modules = {inspect.getmodule(check) for check in checks} - {generators.map.checks}
    return sorted(modules | {generators.core.loader, generators.core.game_folders, generators.core.yamlio, generators.core.layouts},
                  key=lambda m: m.__name__)


def problem_sites(module) -> dict[tuple[str, int, int], str]:
    """Every `Problem(..., "code")` in a module's source: (file, first line, last line) -> code."""
    file = inspect.getsourcefile(module)
    sites = {}
    for node in ast.walk(ast.parse(Path(file).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem" and len(node.args) == 4:
            code = node.args[3]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                sites[(file, node.lineno, node.end_lineno)] = code.value
    return sites


def test_the_source_scan_finds_the_checks():
    # the scan itself must see what it guards: a scan that found nothing would pass anything
    found = [code for module in checking_modules() for code in problem_sites(module).values()]
    assert len(found) >= 40 and {"bad-years", "empty-section", "unknown-symbol", "yaml-syntax"} <= set(found)


def test_every_check_in_the_source_has_a_case(outcomes, tmp_path):
    reached = set().union(*(o.sites for o in outcomes.values()))
    for direct in (test_a_missing_file_is_refused_by_name, test_a_folder_that_is_not_there_is_refused,
                   test_a_data_file_that_is_not_a_regular_file_is_refused_by_name,
                   test_a_data_file_over_the_size_limit_is_refused_by_name, test_a_game_given_as_a_file_is_refused_by_name,
                   test_a_data_file_linked_from_outside_its_folder_is_refused_by_name,
                   test_a_game_folder_that_cannot_be_listed_is_refused_by_name):
        with noting_sites() as noted:
            direct(tmp_path / direct.__name__)
        reached |= noted
    missing = [f"{Path(file).relative_to(Path(generators.validation.__file__).parent)}:{first} [{code}]"
               for module in checking_modules() for (file, first, last), code in problem_sites(module).items()
               if not any(f == file and first <= line <= last for f, line in reached)]
    assert not missing, f"checks no broken-data case reaches (add one to CASES): {missing}"
