"""cards.yaml as typed records: cards with two sides of sections of cited rule summaries, and the
derivations that fill sections from the game's own records at build time."""

from __future__ import annotations

from typing import Literal, Optional, Union

from pydantic import ConfigDict, Field

from .models import Record, Template

Scalar = Union[str, int, float, bool]


class Item(Record):
    """One rule summary: the project's own words, the rules it rests on, and the variant it is for."""

    text: str
    rules: list[str] = Field(default_factory=list)
    variant: Optional[str] = None
    symbol: Optional[str] = None  # a drawn symbol set before the item (in place of its bullet), where a symbol says it faster
    swatch: Optional[str] = None  # a layout colour shown as a patch before the item (a faction's), in place of its bullet


class Derivation(Record):
    """How to turn some of the game's records into card items.

    Records are filtered by `where` (field: value or list of values). Without `group_by` each
    record becomes one item from the `item` template; with it, records sharing a value of that
    field (each element, for a list field) become one item: `label` then their `item` texts
    joined by `separator`. `together` gathers records that fall in every group into one item
    under that label instead of repeating them in each. `unbreakable` keeps each record's text
    on one printed line (its spaces become no-break spaces).
    """

    records: Literal["pieces", "tiles", "factions"]
    where: dict[str, Union[Scalar, list[Scalar]]] = Field(default_factory=dict)
    item: Template
    group_by: Optional[str] = None
    label: Template = "{group}:"
    separator: str = ", "
    order: Literal["listed", "ascending", "descending"] = "listed"
    sort_by: Optional[str] = None  # a field the records are put in ascending order of, before they are grouped
    together: Optional[str] = None
    variant_from: Optional[str] = None
    unbreakable: bool = False
    rules: list[str] = Field(default_factory=list)
    blank: Optional[Template] = None  # the item of a record that lacks a field `item` names: a line to write on
    symbol: Optional[Template] = None  # each item's symbol, from its record (e.g. "{symbol}")
    swatch: Optional[Template] = None  # each item's colour patch, a layout colour named from its record (e.g. "{nation_id}")
    mark_assumed: Optional[str] = None  # set after each value its record marks assumed (e.g. "*")


class Section(Record):
    """A heading and its items; `from` names a derivation whose items follow the written ones, `table` a
    reference table whose rows do (an assumed value marked, a value to write in a ruled line).

    `show` says how the player aid sets the items: a list, numbered `steps` drawn as a flow, or a
    `table` whose cells are each item's text split at ": ", under `columns` (a last column beyond
    the cells holds the item's variant).
    """

    model_config = ConfigDict(populate_by_name=True)

    heading: str
    items: list[Item] = Field(default_factory=list)
    derived: Optional[str] = Field(default=None, alias="from")
    show: Literal["list", "steps", "table"] = "list"
    columns: list[str] = Field(default_factory=list)
    table: Optional[str] = None  # a tables.yaml table whose rows follow as items (its headings the columns)
    rules: list[str] = Field(default_factory=list)  # what the `table`'s items cite


class Side(Record):
    """One face of a card."""

    title: str
    sections: list[Section] = Field(default_factory=list)


class Card(Record):
    """A reference card: an id (unique in the file), a title, and its two sides; `deck: false` keeps it
    off the printed deck and the exports' decks, for the player aid alone; `copies`, how many of it the card
    sheet prints in place of the layout's copies (one for the table, where each player has the others)."""

    id: str
    title: str
    front: Side
    back: Optional[Side] = None
    deck: bool = True
    copies: Optional[int] = Field(default=None, ge=1, le=50)

    def sides(self) -> list[tuple[str, Side]]:
        """("front", side) and, when the card has one, ("back", side)."""
        return [("front", self.front)] + ([("back", self.back)] if self.back else [])


class CardsFile(Record):
    """cards.yaml: the cards, the derivations they use, labels for variants, and the citations allowed.

    `citation_tags` gives a citation the short tag cards print for it ("Search" for a long
    section title); `aid` names the card sides ("card-id.front", "card-id.back") the player aid
    opens with, in order; the sides it does not name follow in card order.
    """

    cards: list[Card]
    derived: dict[str, Derivation] = Field(default_factory=dict)
    variants: dict[str, str] = Field(default_factory=dict)
    citations: list[str] = Field(default_factory=list)
    citation_tags: dict[str, str] = Field(default_factory=dict)
    aid: list[str] = Field(default_factory=list)
    aid_only_named: bool = False  # the aid prints only the sides `aid` names, not every card's after them
