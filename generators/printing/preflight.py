"""Preflight: what a build with the layout's own settings would refuse, found before anything is drawn.

Every command that prints runs the quick ones (fonts, sizes) after the data checks, so a font
that cannot be used or a piece too large for the paper is refused naming the preset file and
field, before anything is drawn. `dossier validate` also lays out every text (check_texts), so
a text too long for its piece is refused there first, naming the record; a build refuses it
too, while drawing and before writing. The layout work is the build's own (text fitting,
imposition), so what passes here prints.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import paths
from ..core.cards import deck_cards
from ..core.checks import setting_file
from ..core.errors import DataError, DossierError, Problem
from ..core.faces import TemplateError, faces
from ..core.files import Kind, kind_of
from ..core.layouts import preset_chain, preset_file
from ..core.limits import shown
from .counters import FacePainter, piece_label
from .event_tiles import tile_items, tile_size
from .fonts import FontError, piece_fonts, register_font
from .imposition import SheetError, caption_space, impose_groups, sheet_spec
from .settings import PrintSettings
from .textfit import TextFitError

if TYPE_CHECKING:

    from ..core.game import Game
    from ..core.layouts import Layout

# A font file larger than this is refused unread (a large CJK font is about 20 MB).
MAX_FONT_BYTES = 64 * 1024 * 1024


def _font_problem(name: str, game: "Game") -> str | None:
    """Why the font file `name` cannot be used, before reportlab reads it; None when it may be tried."""
    parts = Path(name.replace("\\", "/")).parts
    if not parts or Path(name).is_absolute() or name.startswith(("/", "\\")) or ".." in parts:
        return ("names a path outside the layouts folders; put the font file in the game's layouts/ folder "
                "(or a folder inside it) and give its name from there")
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
    for part in ("regular", "bold", "condensed", "condensed_bold"):
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


def _fits_paper(layout: "Layout", size: tuple[float, float], what: str) -> str | None:
    spec = sheet_spec(PrintSettings.of_layout(layout), size, backs=True, header=caption_space(layout, layout.caption.size))
    try:
        impose_groups([(size, 1)], spec, what=what)
    except SheetError as exc:
        return str(exc)
    return None


def usable_layout(game: "Game") -> "Layout | None":
    """The game's layout when it and its fonts can be used; None when check_layout or check_fonts reports why not."""
    try:
        layout = game.layout
        layout.paper_size()
    except DossierError:
        return None
    return None if check_fonts(game) else layout


def _piece_sizes(game: "Game", layout: "Layout") -> dict[str, tuple[str, tuple[float, float]]]:
    """Each layout size the roster uses, by name: the first kind using it and its (width, height)."""
    used: dict[str, tuple[str, tuple[float, float]]] = {}
    for piece in game.pieces:
        kind = game.info.kinds.get(piece.kind)
        if kind is not None and kind.size in layout.sizes and kind.size not in used:
            size = layout.sizes[kind.size]
            used[kind.size] = (piece.kind, (size.width, size.height))
    return used


def _card_size(game: "Game", layout: "Layout") -> tuple[Problem | None, tuple[float, float] | None]:
    """The card size, or the problem that it is missing or does not fit the paper."""
    preset = preset_file(game.info.layout, game.folder)
    if "card" not in layout.sizes:
        return Problem(preset, "sizes", "the game has cards.yaml but the layout gives no size called 'card'", "unknown-size"), None
    card = layout.sizes["card"]
    reason = _fits_paper(layout, (card.width, card.height), "card")
    if reason:
        where = setting_file(preset_chain(game.info.layout, game.folder), ("sizes", "card")) or preset
        return Problem(where, "sizes.card", reason, "too-large"), None
    return None, (card.width, card.height)


def _tile_size(game: "Game", layout: "Layout") -> tuple[Problem | None, tuple[float, float] | None]:
    """The tile size, or the problem that it does not fit the paper; (None, None) when the layout has none
    (check_layout reports it)."""
    try:
        size = tile_size(game)
    except DossierError:
        return None, None
    reason = _fits_paper(layout, size, "tile")
    return (Problem(game.file("tiles.yaml"), "tiles", reason, "too-large"), None) if reason else (None, size)


def check_sizes(game: "Game") -> list[Problem]:
    """Pieces, tiles and cards that fit on the layout's paper within its margins, as a build imposes them."""
    layout = usable_layout(game)
    if layout is None:
        return []
    problems = [Problem(game.file("game.yaml"), f"kinds.{kind}.size", reason, "too-large")
                for kind, size in _piece_sizes(game, layout).values()
                if (reason := _fits_paper(layout, size, game.info.kinds[kind].size))]
    if game.tiles:
        problems += [p for p in [_tile_size(game, layout)[0]] if p]
    if game.cards and game.cards.cards:
        problems += [p for p in [_card_size(game, layout)[0]] if p]
    return problems


def _field_of(game: "Game", message: str) -> str:
    """The roster entry a layout refusal names (it starts with the piece's label), else the whole roster."""
    return next((f"pieces[{i}]" for i, piece in enumerate(game.pieces) if message.startswith(piece_label(game, piece) + ":")),
                "pieces")


def check_texts(game: "Game") -> list[Problem]:
    """Every face, tile and card laid out as the build lays it out: a text too long for its piece is refused.

    This lays out every distinct face once, as much work as the build does again, so `dossier
    validate` runs it and the printing commands leave it to the build, which refuses the same.
    """
    layout = usable_layout(game)
    if layout is None:
        return []
    fonts = piece_fonts(layout.fonts, game.folder)
    sizes = {name: size for name, (kind, size) in _piece_sizes(game, layout).items()
             if not _fits_paper(layout, size, name)}
    problems: list[Problem] = []
    painter = FacePainter(game, fonts)
    refused: set[str] = set()  # a kind's faces share one arrangement, refused once, naming the piece it could not fit
    for piece in game.pieces:
        kind = game.info.kinds.get(piece.kind)
        if kind is None or kind.size not in sizes:
            continue  # check_pieces, check_layout and check_sizes report these
        try:
            for side, face in zip(("front", "back"), faces(game, piece)):
                painter.set_face(piece.kind, side, face, sizes[kind.size])
        except TemplateError:
            continue  # check_pieces reports it
        except TextFitError as exc:
            if str(exc) not in refused:
                refused.add(str(exc))
                problems.append(Problem(game.file("pieces.yaml"), _field_of(game, str(exc)), str(exc), "text-too-long"))
    if game.tiles and _tile_size(game, layout)[1]:
        try:
            tile_items(game, list(game.tiles), fonts)
        except TextFitError as exc:
            problems.append(Problem(game.file("tiles.yaml"), "tiles", str(exc), "text-too-long"))
    cards = deck_cards(game)
    card = _card_size(game, layout)[1] if cards else None
    if card:
        from .card_sheets import set_cards  # the card sheets' drawing code is only loaded for a game with cards

        try:
            set_cards(game, PrintSettings.of_layout(layout), cards, fonts, card)
        except TextFitError as exc:
            problems.append(Problem(game.file("cards.yaml"), "cards", str(exc), "text-too-long"))
    return problems


@contextmanager
def texts_refused_as_validate_does(game: "Game") -> Iterator[None]:
    """A text found too long while drawing, refused as `dossier validate` refuses it: naming the file and the field.

    The printing commands leave the text layout to the drawing (see check_texts), which knows only the piece, tile
    or card; the texts are checked here only once a drawing has failed, so a build that fits pays nothing for it.
    """
    try:
        yield
    except TextFitError:
        problems = check_texts(game)
        if problems:
            raise DataError(problems) from None
        raise
