"""What `dossier export` makes: one format per entry, each a function that draws a game's export
in memory and returns it as a Bundle for output.publish to write.

    tts     OUT/<game>/tts/<game>.json, a Tabletop Simulator saved object, and its images
    vassal  OUT/<game>/<game>.vmod, a VASSAL module
    images  OUT/<game>/images/<kind>/<id>-front.png and -back.png, and images.csv; with --service, each face
            at the size the print service's template asks for (print_services.py)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from ..core import paths
from ..core.errors import OptionError
from ..core.units import parse_length
from ..printing.options import read_option

if TYPE_CHECKING:
    from ..core.game import Game
    from .output import Bundle

# format -> "module:function"; each is imported only when an export runs.
FORMATS: dict[str, str] = {
    "tts": "generators.export.tts:export_tts",
    "vassal": "generators.export.vassal:export_vassal",
    "images": "generators.export.images:export_images",
}

DPI = 300
BLEED = "1/8in"
MAX_DPI = 1200  # a 63 x 88 mm card at 1200 dpi is already a 3,000 x 4,200 pixel image


GAME_SLOT = "{game}"  # in --image-url: the game folder's name


@dataclass(frozen=True)
class ExportOptions:
    """Choices a user makes on the command line: where to write, and for images their resolution and bleed
    (mm); for Tabletop Simulator, where the images will be served from (None: these files, on this computer)."""

    out: Path = paths.OUTPUT
    image_url: str | None = None
    dpi: int = DPI
    bleed: float = 3.175
    service: str = "generic"

    def image_address(self, game: "Game") -> str | None:
        """Where `game`'s images will be served from: `image_url` with {game} made the game folder's name."""
        if self.image_url is None:
            return None
        return self.image_url.replace(GAME_SLOT, quote(game.output_name))

    def game_dir(self, game: "Game") -> Path:
        """The folder a game's export lands in: OUT/<the game folder's name>."""
        return self.out / game.output_name


def make_export_options(fmt: str, out: Path, image_url: str | None = None, dpi: int | None = None,
                        bleed: str | None = None, service: str | None = None) -> ExportOptions:
    """ExportOptions from command-line text; a value that cannot be read, or that the format does not use, is refused."""
    from .print_services import GENERIC
    from .print_services import service as find_service

    if fmt not in FORMATS:
        raise OptionError(f"unknown export {fmt!r}; choose from {', '.join(FORMATS)}")
    unused = [name for name, value, used_by in (("--image-url", image_url, "tts"), ("--dpi", dpi, "images"),
                                                ("--bleed", bleed, "images"), ("--service", service, "images"))
              if value is not None and fmt != used_by]
    if unused:
        raise OptionError(f"{', '.join(unused)}: not used by `dossier export {fmt}`")
    if service is not None and service != GENERIC:
        chosen = find_service(service)
        given = [name for name, value in (("--dpi", dpi), ("--bleed", bleed)) if value is not None]
        if given:
            raise OptionError(f"{', '.join(given)}: --service {service} sets its own ({chosen.label}'s template)")
        return ExportOptions(out=Path(out), dpi=chosen.dpi, bleed=chosen.bleed, service=service)
    if dpi is not None and not 1 <= dpi <= MAX_DPI:
        raise OptionError(f"--dpi {dpi}: choose a resolution from 1 to {MAX_DPI}")
    bleed_mm = read_option("--bleed", parse_length, bleed or BLEED)
    if bleed_mm < 0:
        raise OptionError("--bleed: cannot be negative")
    return ExportOptions(out=Path(out), image_url=_image_url(image_url) if image_url is not None else None,
                         dpi=dpi or DPI, bleed=bleed_mm)


def _image_url(text: str) -> str:
    """The address images are served from, as given; one a save could not use as a folder of images is refused."""
    shown = repr(text[:200])
    hint = "give the address the images will be served from, like https://example.org/images"
    stripped = text.strip()
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in stripped):
        raise OptionError(f"--image-url {shown}: holds a space, tab, newline or control character; "
                          "write a space as %20")
    try:
        parts = urlsplit(stripped)
        parts.port  # reading the port checks it (a port above 65535, or not a number, is refused here)
    except ValueError as exc:
        raise OptionError(f"--image-url {shown}: not an address ({exc}); {hint}") from None
    if parts.scheme not in ("http", "https", "file") or not (parts.netloc or parts.scheme == "file"):
        raise OptionError(f"--image-url {shown}: {hint}")
    if parts.query or parts.fragment or "#" in stripped or "?" in stripped:
        raise OptionError(f"--image-url {shown}: an address with a ?query or #fragment cannot have file names "
                          f"added to its end; {hint}")
    if "{" in stripped.replace(GAME_SLOT, "") or "}" in stripped.replace(GAME_SLOT, ""):
        raise OptionError(f"--image-url {shown}: the one placeholder an address may hold is {GAME_SLOT}, "
                          "which becomes each game's folder name")
    return stripped.rstrip("/")


def per_game_images(options: ExportOptions, games: int) -> ExportOptions:
    """`options` for exporting `games` games at once: an --image-url without {game} gives each game its own
    folder under the address (BASE/<game folder>/<file>), so that no game's images are named in another's place."""
    if options.image_url is None or games < 2 or GAME_SLOT in options.image_url:
        return options
    return replace(options, image_url=f"{options.image_url}/{GAME_SLOT}")


def exporter(fmt: str) -> Callable[["Game", ExportOptions], "Bundle"]:
    """The function that makes export `fmt`."""
    from ..printing.preflight import texts_refused_as_validate_does

    module, function = FORMATS[fmt].split(":")
    make = getattr(importlib.import_module(module), function)

    def export(game: "Game", options: ExportOptions) -> "Bundle":
        with texts_refused_as_validate_does(game):
            return make(game, options)

    return export
