"""A tiny game to break, and a way to see that a command changed nothing it should not."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from generators.core import paths

# A tile kind as a small game declares it (see docs/tiles.md): a faction's tiles numbered with its code.
TILE_KIND = {
    "id": ["{nation_code} {number}", "random {number}"],
    "fields": {
        "nation": {"type": "faction", "optional": True}, "number": {"type": "int", "unique": True},
        "years": {"type": "ints", "min": 1933, "max": 1939, "ordered": True, "all": "Any Year"}, "event": {"type": "text"},
        "awards": {"type": "list", "optional": True, "shown": "{amount}{kind}: {cities}.", "fields": {
            "amount": {"type": "int", "min": 1}, "kind": {"type": "text", "choices": {"c": "chits"}},
            "cities": {"type": "texts", "distinct": True, "cities": True}}}},
    "front": {"band": ["{id}", "{nation}", "{years}"], "colour": ["{nation_id}", "random"], "text": "{event}",
              "entries": "awards"},
}

TINY = {
    "game.yaml": """\
name: tiny
title: Tiny
layout: tiny
years: [1936, 1937]
factions:
  - {id: red, name: Red, code: Rd}
  - {id: blue, name: Blue, code: Bl}
tiles:
  id: ["{nation_code} {number}"]
  fields:
    nation: {type: faction}
    number: {type: int, unique: true}
    years: {type: ints, min: 1936, max: 1937, ordered: true}
    event: {type: text}
    awards:
      type: list
      optional: true
      shown: "{amount}{kind}: {cities}."
      fields: {amount: {type: int, min: 1}, kind: {type: text, choices: {c: chits}}, cities: {type: texts, cities: true}}
  front: {band: ["{id}", "{nation}", "{years}"], colour: ["{nation_id}"], text: "{event}", entries: awards}
kinds:
  spy:
    label: Spy
    size: counter
    unique_by: [nation, name]
    front: {title: "{name}", value: "{strength}", colour: nation}
    back: {title: "{NATION}", colour: nation}
""",
    "pieces.yaml": """\
pieces:
  - {kind: spy, nation: red, name: "Agent R", strength: 1}
  - {kind: spy, nation: blue, name: "Agent B", strength: 2, count: 2}
""",
    "tiles.yaml": """\
tiles:
  - {id: "Rd 1", nation: red, number: 1, years: [1936], event: "Border incident", awards: [{amount: 1, kind: c, cities: [Paris]}]}
""",
    "aliases.yaml": """\
aliases:
  Scarlet: "Agent R"
""",
    "cards.yaml": """\
cards:
  - id: spies
    title: Spies
    front:
      title: Spies
      sections:
        - heading: The spies
          from: spies
derived:
  spies:
    records: pieces
    where: {kind: spy}
    item: "{name} ({strength})"
    rules: ["1.1"]
""",
    "layouts/tiny.yaml": """\
extends: default
sizes:
  tile: {width: 1in, height: 1in}
colours:
  red: {fill: "#d55e00", ink: "#000000"}
  blue: {fill: "#56b4e9", ink: "#000000"}
""",
}


def write_game(folder: Path, files: dict[str, str] = TINY) -> Path:
    """The game `files` written into `folder`; returns the folder."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple]:
    """Every entry under `root` (but `skip`) by relative path: what it is and, for a file, its content's hash."""
    found: dict[str, tuple] = {}
    for folder, folders, files in os.walk(root):
        here = Path(folder)
        folders[:] = [f for f in folders if here / f != skip]
        for name in folders + files:
            path = here / name
            if path == skip:
                continue
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                what = ("file", hashlib.sha1(path.read_bytes()).hexdigest())
            elif stat.S_ISLNK(info.st_mode):
                what = ("link", os.readlink(path))
            else:
                what = (stat.S_IFMT(info.st_mode),)
            found[str(path.relative_to(root))] = what
    return found


def shipped() -> dict[str, tuple]:
    """The shipped game data and layouts, as snapshot sees them."""
    return {**snapshot(paths.components_dir()), **snapshot(paths.layouts_dir())}


def files_of(folder: Path) -> dict[str, str]:
    """The files Dossier builds in `folder` by name (its own record and leftovers aside), with their hashes."""
    return {name: what[1] for name, what in snapshot(folder).items() if what[0] == "file" and not name.startswith(".")}
