"""Print-on-demand services and the products their templates describe (layouts/print-services.yaml):
which product a face is printed as, and the exact image size the service's template asks for."""

from __future__ import annotations

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
class Service:
    """A print service: its label, the resolution and bleed (mm) it asks for, and its products."""

    name: str
    label: str
    dpi: int
    bleed: float
    products: tuple[Product, ...]
    match: float

    def product_for(self, size: tuple[float, float]) -> tuple[Product, bool] | None:
        """The product a face of `size` mm is printed as, and whether it lies turned (landscape on a portrait
        product); None when no product's trim is within `match` mm of it either way round."""
        best = None
        for product in self.products:
            for turned in (False, True):
                trim = product.trim[::-1] if turned else product.trim
                off = max(abs(trim[0] - size[0]), abs(trim[1] - size[1]))
                if off <= self.match and (best is None or off < best[0]):
                    best = (off, product, turned)
        return (best[1], best[2]) if best else None


@lru_cache(maxsize=1)
def services() -> dict[str, Service]:
    """Every service layouts/print-services.yaml lists, by name."""
    data = read_yaml(paths.layouts_dir() / SERVICES_FILE)
    match = parse_length(data.get("match", "1.5mm"))
    found = {}
    for name, entry in data["services"].items():
        products = tuple(Product(p["name"], (parse_length(p["trim"][0]), parse_length(p["trim"][1])),
                                 (int(p["pixels"][0]), int(p["pixels"][1]))) for p in entry.get("products", []))
        found[name] = Service(name, entry["label"], int(entry["dpi"]), parse_length(entry["bleed"]), products, match)
    return found


def service(name: str) -> Service:
    """Service `name`, or a refusal naming the services there are."""
    known = services()
    if name not in known:
        raise OptionError(f"--service {name!r}: choose from {', '.join(known)}")
    return known[name]
