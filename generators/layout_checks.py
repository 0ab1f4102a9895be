"""Cross-checks between a game's data and its layout preset: the preset exists, and names every
size and colour the game's kinds ask for.

Without these a typo in a size or colour name would pass `dossier validate` and fail (size) or
print silently in the fallback colour (colour) only at build time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .checks import EXTRA_CHECKS
from .errors import DataError, Problem, UnknownNameError
from .layouts import preset_chain, preset_file
from .names import NameIndex
from .roster import NATION

if TYPE_CHECKING:
    from .loader import Game


def check_layout(game: "Game") -> list[Problem]:
    """Every size and colour the game's kinds name, missing from its layout preset."""
    file = game.file("game.yaml")
    try:
        layout = game.layout
    except UnknownNameError as exc:
        return [Problem(file, "layout", f"{exc}; presets are looked for in the game folder's layouts/ and then the shared layouts/", "unknown-layout")]
    except DataError as exc:
        return list(exc.problems)
    preset = preset_file(game.info.layout, game.folder)
    problems: list[Problem] = []
    if layout.paper not in NameIndex("paper size", layout.papers):
        chain = preset_chain(game.info.layout, game.folder)
        where = next((file for file, document in reversed(chain) if "paper" in document), preset)
        problems.append(Problem(where, "paper", f"unknown paper size {layout.paper!r}; known: {', '.join(layout.papers)}", "unknown-paper"))
    for name, kind in game.info.kinds.items():
        if kind.size not in layout.sizes:
            known = ", ".join(sorted(layout.sizes)) or "none"
            problems.append(Problem(file, f"kinds.{name}.size", f"size {kind.size!r} is not in layout preset {preset.name} (sizes: {known})", "unknown-size"))
        reported: set[str] = set()
        for face_name, face in (("front", kind.front), ("back", kind.back)):
            if face is None:
                continue
            if face.colour == NATION:
                factions = {f.id for f in game.info.factions}  # unknown factions are reported by check_pieces
                wanted = sorted({p.nation for p in game.pieces if p.kind == name and p.nation in factions})
            else:
                wanted = [face.colour]
            for colour in wanted:
                if colour not in layout.colours and colour not in reported:
                    reported.add(colour)
                    problems.append(Problem(file, f"kinds.{name}.{face_name}.colour",
                                            f"colour {colour!r} is not in layout preset {preset.name} (colours: {', '.join(sorted(layout.colours))})",
                                            "unknown-colour"))
    return problems


EXTRA_CHECKS.append(check_layout)
