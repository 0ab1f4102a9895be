"""Preflight: what a build with the layout's own settings would refuse, found before anything is drawn.

`dossier validate` and every command that prints run these after the data checks, so a font
that cannot be used, a piece too large for the paper or a text too long for its piece is
refused naming the file and field, not halfway through a build. The layout work is the
build's own (text fitting, imposition), so what passes here prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import paths
from ..core.cards import resolve_cards
from ..core.checks import setting_file
from ..core.errors import DossierError, Problem
from ..core.faces import TemplateError, faces
from ..core.files import Kind, kind_of
from ..core.layouts import preset_chain, preset_file
from ..core.limits import shown
from .card_sheets import set_cards
from .counters import FacePainter, piece_label
from .event_tiles import tile_items, tile_size
from .fonts import FontError, register_font, register_fonts
from .imposition import SheetError, caption_space, impose_groups, sheet_spec
from .item_sheets import CAPTION_SIZE
from .options import BuildOptions
from .textfit import TextFitError

if TYPE_CHECKING:
    from pathlib import Path

    from ..core.card_models import Card
    from ..core.game import Game
    from ..core.layouts import Layout
    from ..core.models import Piece
    from .fonts import FontSet

# A font file larger than this is refused unread (a large CJK font is about 20 MB).
MAX_FONT_BYTES = 64 * 1024 * 1024


def _font_problem(name: str, game: "Game") -> str | None:
    """Why the font file `name` cannot be used, before reportlab reads it; None when it may be tried."""
    if "/" in name or "\\" in name:
        return "names a path; put the font file in the game's layouts/ folder and give its file name"
    for folder in (game.folder / "layouts", paths.layouts_dir()):
        candidate = folder / name
        kind = kind_of(candidate, follow=False)
        if kind is Kind.MISSING:
            continue
        kind = kind_of(candidate)
        if kind is not Kind.FILE:
            return f"{candidate} is {kind}, not a font file"
        if candidate.stat().st_size > MAX_FONT_BYTES:
            return f"{candidate} is larger than {MAX_FONT_BYTES // 2**20} MB"
    return None


def check_fonts(game: "Game") -> list[Problem]:
    """The layout's fonts, each read as reportlab will embed it; a problem names the preset and field."""
    try:
        layout = game.layout
    except DossierError:
        return []  # check_layout reports it
    chain = preset_chain(game.info.layout, game.folder)
    problems = []
    for part in ("regular", "bold"):
        name = getattr(layout.fonts, part)
        file = setting_file(chain, ("fonts", part)) or preset_file(game.info.layout, game.folder)
        reason = _font_problem(name, game)
        if reason is None:
            try:
                register_font(name, game.folder)
            except FontError as exc:
                reason = str(exc).split(": ", 1)[-1]
            except Exception as exc:  # reportlab parsing a malformed file can fail in many ways
                reason = f"cannot be read as a TrueType font ({type(exc).__name__}: {exc})"
        if reason:
            problems.append(Problem(file, f"fonts.{part}", f"font {shown(name)} cannot be used: {reason}", "bad-font"))
    return problems


def _label(game: "Game", piece: "Piece") -> str:
    """The piece as messages name it, its name cut when long (the message is about that name being too long)."""
    label = piece_label(game, piece)
    return label if len(label) <= 80 else f"{piece.name[:40]}... ({piece.kind})"


def _fits_paper(layout: "Layout", size: tuple[float, float], what: str) -> str | None:
    spec = sheet_spec(layout, BuildOptions(), size, backs=True, header=caption_space(layout, CAPTION_SIZE))
    try:
        impose_groups([(size, 1)], spec, what=what)
    except SheetError as exc:
        return str(exc)
    return None


def check_printable(game: "Game") -> list[Problem]:
    """Pieces, tiles and cards that fit the layout's paper, and faces, tiles and cards whose texts fit them."""
    try:
        layout = game.layout
        layout.paper_size()
    except DossierError:
        return []  # check_layout reports it
    if check_fonts(game):
        return []  # reported by check_fonts; nothing can be measured without the fonts
    fonts = register_fonts(layout.fonts, game.folder)
    game_file, preset = game.file("game.yaml"), preset_file(game.info.layout, game.folder)
    problems: list[Problem] = []
    too_large: set[str] = set()
    used = dict.fromkeys(game.info.kinds[p.kind].size for p in game.pieces if p.kind in game.info.kinds)
    for size_name in used:
        if size_name not in layout.sizes:
            continue  # check_layout reports it
        size = layout.sizes[size_name]
        reason = _fits_paper(layout, (size.width, size.height), size_name)
        if reason:
            too_large.add(size_name)
            kind = next(k for k, spec in game.info.kinds.items() if spec.size == size_name)
            problems.append(Problem(game_file, f"kinds.{kind}.size", reason, "too-large"))
    painter = FacePainter(layout, fonts)
    for i, piece in enumerate(game.pieces):
        kind = game.info.kinds.get(piece.kind)
        if kind is None or kind.size in too_large or kind.size not in layout.sizes:
            continue  # check_pieces and check_layout report these
        size = layout.sizes[kind.size]
        try:
            for face in faces(game, piece):
                painter.art(face, (size.width, size.height), painter.min_text(kind.size), _label(game, piece))
        except TemplateError:
            continue  # check_pieces reports it
        except TextFitError as exc:
            problems.append(Problem(game.file("pieces.yaml"), f"pieces[{i}]", str(exc), "text-too-long"))
    if game.tiles:
        problems += _tile_problems(game, layout, fonts)
    cards = resolve_cards(game)
    if cards:
        problems += _card_problems(game, layout, fonts, cards, preset)
    return problems


def _tile_problems(game: "Game", layout: "Layout", fonts: "FontSet") -> list[Problem]:
    try:
        size = tile_size(game, layout)
    except DossierError:
        return []  # check_layout reports an unknown size
    reason = _fits_paper(layout, size, "tile")
    if reason:
        return [Problem(game.file("tiles.yaml"), "tiles", reason, "too-large")]
    try:
        tile_items(game, list(game.tiles), layout, fonts)
    except TextFitError as exc:
        return [Problem(game.file("tiles.yaml"), "tiles", str(exc), "text-too-long")]
    return []


def _card_problems(game: "Game", layout: "Layout", fonts: "FontSet", cards: list["Card"], preset: "Path") -> list[Problem]:
    where = setting_file(preset_chain(game.info.layout, game.folder), ("sizes", "card")) or preset
    if "card" not in layout.sizes:
        return [Problem(preset, "sizes", "the game has cards.yaml but the layout gives no size called 'card'", "unknown-size")]
    card = layout.sizes["card"]
    reason = _fits_paper(layout, (card.width, card.height), "card")
    if reason:
        return [Problem(where, "sizes.card", reason, "too-large")]
    try:
        set_cards(game, cards, layout, fonts, (card.width, card.height))
    except TextFitError as exc:
        return [Problem(game.file("cards.yaml"), "cards", str(exc), "text-too-long")]
    return []
