"""Print-on-demand services and the products their templates describe (layouts/print-services.yaml):
which product a face is printed as (its own size, or the nearest product of its shape, scaled), and the
exact image size the service's template asks for."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from ..core import paths
from ..core.errors import DataError, OptionError
from ..core.layouts import PositiveMm, UnsignedMm
from ..core.limits import shown
from ..core.schema_errors import problems_from_validation
from ..core.yamlio import read_yaml
from .exports import MAX_DPI

SERVICES_FILE = "print-services.yaml"
GENERIC = "generic"


@dataclass(frozen=True)
class Product:
    """A product of a service: its name as the service sells it, its trim (mm) and its image (pixels, bleed included)."""

    name: str
    trim: tuple[float, float]
    pixels: tuple[int, int]


@dataclass(frozen=True)
class Fit:
    """How a face is printed as a product: lying turned (landscape on a portrait product) or not, and
    scaled by `scale` (1.0 when the product's trim is the face's own size)."""

    product: Product
    turned: bool
    scale: float

    @property
    def trim(self) -> tuple[float, float]:
        """The product's trim (mm) the way the face lies on it."""
        return self.product.trim[::-1] if self.turned else self.product.trim

    @property
    def label(self) -> str:
        """The product as the manifest names it: its name, and the scale when the face is scaled to it."""
        return self.product.name if self.scale == 1.0 else f"{self.product.name} (scaled {self.scale:.0%})"


@dataclass(frozen=True)
class Service:
    """A print service: its label, the resolution and bleed (mm) it asks for, and its products."""

    name: str
    label: str
    dpi: int
    bleed: float
    products: tuple[Product, ...]
    match: float  # mm: a trim this close to a face's size is the face's own size
    shape: float  # share: proportions this close are one shape
    nearest: float  # the most a face is scaled (up, or down by its inverse) to the nearest product

    def product_for(self, size: tuple[float, float]) -> Fit | None:
        """How a face of `size` mm is printed: as the product whose trim is within `match` mm of it either
        way round; else as the nearest product of its shape, scaled, when within `nearest`; else None."""
        exact, near = None, None
        for product in self.products:
            for turned in (False, True):
                trim = product.trim[::-1] if turned else product.trim
                off = max(abs(trim[0] - size[0]), abs(trim[1] - size[1]))
                if off <= self.match and (exact is None or off < exact[0]):
                    exact = (off, Fit(product, turned, 1.0))
                proportions = (trim[0] / trim[1]) / (size[0] / size[1])
                scale = trim[0] / size[0]
                if abs(proportions - 1) <= self.shape and 1 / self.nearest <= scale <= self.nearest:
                    if near is None or abs(math.log(scale)) < near[0]:
                        near = (abs(math.log(scale)), Fit(product, turned, scale))
        found = exact or near
        return found[1] if found else None


MAX_PRODUCT_PIXELS = 10_000  # a side of a product's image: a poker card at 1200 dpi is 4,400 pixels
MAX_BLEED_MM = 25.0  # an inch: every service asks for an eighth


def _share(value: Any) -> float:
    """A share written as a percentage ("3%" -> 0.03)."""
    text = str(value).strip()
    if not text.endswith("%"):
        raise ValueError(f"{shown(value)} is not a percentage; write it like 3%")
    try:
        share = float(text[:-1]) / 100
    except ValueError:
        raise ValueError(f"{shown(value)} is not a percentage; write it like 3%") from None
    if not math.isfinite(share) or share < 0:
        raise ValueError(f"{shown(value)}: a share must be a finite percentage, 0% or more")
    return share


Share = Annotated[float, BeforeValidator(_share)]
Pixels = Annotated[int, Field(ge=1, le=MAX_PRODUCT_PIXELS)]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ProductEntry(_Entry):
    name: str = Field(min_length=1, max_length=200)
    trim: tuple[PositiveMm, PositiveMm]
    pixels: tuple[Pixels, Pixels]


class _ServiceEntry(_Entry):
    label: str = Field(min_length=1, max_length=200)
    dpi: int = Field(ge=1, le=MAX_DPI)
    bleed: UnsignedMm = Field(le=MAX_BLEED_MM)
    products: list[_ProductEntry] = Field(default_factory=list, max_length=1_000)


class ServicesFile(_Entry):
    """layouts/print-services.yaml as written: every value checked, so a broken or hostile file is refused
    naming its field instead of failing, or drawing images no memory holds, half-way through an export."""

    services: dict[Annotated[str, Field(min_length=1, max_length=100)], _ServiceEntry] = Field(max_length=100)
    match: UnsignedMm = 1.0
    shape: Share = 0.0
    nearest: Share = Field(1.0, ge=1.0, le=100.0)  # 100% is no scaling at all


def services() -> dict[str, Service]:
    """Every service layouts/print-services.yaml lists, by name; a file that cannot be used raises DataError."""
    return _services(paths.layouts_dir() / SERVICES_FILE)


@lru_cache(maxsize=4)
def _services(file: Path) -> dict[str, Service]:
    try:
        data = ServicesFile.model_validate(read_yaml(file))
    except ValidationError as exc:
        raise DataError(problems_from_validation(exc, file, model=ServicesFile)) from None
    return {name: Service(name, entry.label, entry.dpi, entry.bleed,
                          tuple(Product(p.name, p.trim, p.pixels) for p in entry.products),
                          data.match, data.shape, data.nearest)
            for name, entry in data.services.items()}


def service(name: str) -> Service:
    """Service `name`, or a refusal naming the services there are."""
    known = services()
    if name not in known:
        raise OptionError(f"--service {name!r}: choose from {', '.join(known)}")
    return known[name]
