"""Print-on-demand services and the products their templates describe (layouts/print-services.yaml):
which product a face is printed as (its own size, or the nearest product of its shape, scaled), and the
exact image size the service's template asks for."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..core import paths
from ..core.errors import OptionError
from ..core.units import parse_length
from ..core.yamlio import read_yaml

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


@lru_cache(maxsize=1)
def services() -> dict[str, Service]:
    """Every service layouts/print-services.yaml lists, by name."""
    data = read_yaml(paths.layouts_dir() / SERVICES_FILE)
    match = parse_length(data.get("match", "1mm"))
    shape, nearest = _share(data.get("shape", "0%")), _share(data.get("nearest", "100%"))
    found = {}
    for name, entry in data["services"].items():
        products = tuple(Product(p["name"], (parse_length(p["trim"][0]), parse_length(p["trim"][1])),
                                 (int(p["pixels"][0]), int(p["pixels"][1]))) for p in entry.get("products", []))
        found[name] = Service(name, entry["label"], int(entry["dpi"]), parse_length(entry["bleed"]), products, match,
                              shape, nearest)
    return found


def _share(text: str) -> float:
    """A share written as a percentage ("3%" -> 0.03)."""
    return float(str(text).rstrip("%")) / 100


def service(name: str) -> Service:
    """Service `name`, or a refusal naming the services there are."""
    known = services()
    if name not in known:
        raise OptionError(f"--service {name!r}: choose from {', '.join(known)}")
    return known[name]
