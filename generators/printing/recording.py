"""A drawing recorded once and replayed into each backend: the PDF and the SVG pages of a document are two
renderings of the same recorded operations, so the work of laying a product out is done once, and a test can
read what was drawn (`Recording.operations`) as well as the files.

Replaying calls each backend with exactly the operations and arguments the product gave, in the same order,
so a file rendered from a recording is byte for byte the file the product drawing into that backend makes.
A placed drawing (a poster on its tile sheets) is recorded once, the first time it is placed, and replayed
wherever it is placed, as the backends themselves draw it once per document.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fonts import FontSet
from .painter import Drawing, Painter


@dataclass(frozen=True)
class Operation:
    """One call of a painter: its name ("rect") and its arguments as given."""

    name: str
    args: tuple
    kwargs: dict = field(default_factory=dict)


@dataclass
class Recording:
    """The operations a product drew, in order; `replay` draws them again on any painter."""

    operations: list[Operation] = field(default_factory=list)

    def replay(self, painter: Painter) -> None:
        for op in self.operations:
            getattr(painter, op.name)(*op.args, **op.kwargs)

    def of(self, name: str) -> list[Operation]:
        """The operations called `name`, in order."""
        return [op for op in self.operations if op.name == name]


class RecordingPainter(Painter):
    """A painter that draws nothing and records every operation, keeping the page size as the backends do."""

    def __init__(self, fonts: FontSet):
        super().__init__(fonts)
        self.recording = Recording()
        self._into = self.recording.operations
        self._drawings: dict[str, Drawing] = {}

    def _keep(self, name: str, *args: Any, **kwargs: Any) -> None:
        self._into.append(Operation(name, args, kwargs))

    def new_page(self, width, height):
        self.width, self.height = width, height
        self.pages += 1
        self._keep("new_page", width, height)

    def rect(self, *args, **kwargs):
        self._keep("rect", *args, **kwargs)

    def line(self, *args, **kwargs):
        self._keep("line", *args, **kwargs)

    def polyline(self, *args, **kwargs):
        self._keep("polyline", *args, **kwargs)

    def polygon(self, *args, **kwargs):
        self._keep("polygon", *args, **kwargs)

    def circle(self, *args, **kwargs):
        self._keep("circle", *args, **kwargs)

    def text(self, *args, **kwargs):
        self._keep("text", *args, **kwargs)

    def symbol(self, *args, **kwargs):  # the PDF backend draws each distinct symbol once, as a form
        self._keep("symbol", *args, **kwargs)

    def picture(self, *args, **kwargs):
        self._keep("picture", *args, **kwargs)

    def place(self, drawing, x, y, scale=1.0, clip=None):
        recorded = self._drawings.get(drawing.key)
        if recorded is None:  # recorded in its own page's size, as the PDF backend draws it into a form
            inner = Recording()
            self._drawings[drawing.key] = recorded = Drawing(drawing.width, drawing.height, inner.replay, drawing.key)
            outer, page = self._into, (self.width, self.height)
            self._into, self.width, self.height = inner.operations, drawing.width, drawing.height
            drawing.draw(self)
            self._into, (self.width, self.height) = outer, page
        self._keep("place", recorded, x, y, scale, clip)


def record(draw, fonts: FontSet) -> Recording:
    """What `draw` draws, recorded."""
    painter = RecordingPainter(fonts)
    draw(painter)
    return painter.recording

