"""The Web of Spies referee: set-up, moving, acquiring, attacking and countering, the end of a turn,
the asset markers, and who wins, with the rulebook's alternate rules.

Each answer cites the rulebook section that decides it, or an entry of this game's register in
docs/rulings.md ("Register W1") where it is unclear. How many agents, starting cards and asset
markers there are comes from the data beside this file; the rules' own numbers are written
here with the section they come from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional

from generators.referee import Allowed, Facts, NameIndex, Param, QuestionError, Ruling, Table, UnknownNameError

COMBAT_SYMBOLS = ("Surveillance", "Information", "Violence")  # Combat: "Combat Symbols"
# The rulebook's example calls a shared symbol "Binoculars"; the data reads it as Surveillance
# (components/web-of-spies/pieces.yaml marks that reading assumed).
SYMBOL_ALIASES = {"Binoculars": "Surveillance"}
ACTION_SYMBOLS = ("Attack", "Defend", "Sabotage")  # Symbol Key: shown on cards, but not combat symbols
ROLE_SYMBOL = {"defender": "Defend", "attacker": "Attack"}  # Combat: who may play which cards
SECRET_ASSET_COST = 2  # Acquire Action
HAND = 5  # Begin the Mission!; Draw: a hand of 5 cards
ASSET_CARDS = 80  # Components: 80 Asset Cards
FEWEST_PLAYERS = 2  # Objective: the last agency standing needs a rival
FEWEST_AGENTS = 3  # Setup Variants, Quicker Game: no fewer than 3 is recommended
FULLY_LOADED_CARDS = 3  # Setup Variants, Fully Loaded


class Answerer(str, Enum):
    defender = "defender"
    attacker = "attacker"


class Uncountered(str, Enum):
    attacker = "attacker"
    defender = "defender"


class Use(str, Enum):
    move = "move"
    acquire = "acquire"
    attack = "attack"
    ability = "ability"
    trash = "trash"
    unplayed = "unplayed"


class Spot(str, Enum):
    free = "free"
    taken = "taken"
    start_region = "start-region"


class Placement(str, Enum):
    standard = "standard"
    single_region = "single-region"
    scattered = "scattered"


class Region(str, Enum):
    empty = "empty"
    taken = "taken"


class CityState(str, Enum):
    empty = "empty"
    taken = "taken"


class EndRule(str, Enum):
    code_red = "code-red"
    elimination = "elimination"
    total_elimination = "total-elimination"
    trophy_kills = "trophy-kills"
    sudden_death = "sudden-death"


class Counter(Enum):
    countered = "countered"
    not_countered = "not countered"


class Acquire(Enum):
    allowed = "allowed"
    contested = "contested"
    too_few_cards = "too few cards"


class Move(Enum):
    allowed = "allowed"
    too_few_cards = "too few cards"


class Combat(Enum):
    defender_killed = "defender killed"
    nobody_killed = "nobody killed"


class Draw(Enum):
    full_hand = "full hand"
    short_hand = "short hand"


class Discard(Enum):
    face_down = "discarded face down"
    shown_then_face_down = "shown, then discarded face down"
    trashed = "trashed"


class PlaceAsset(Enum):
    place = "place"
    re_roll = "re-roll"
    nothing_to_place = "nothing to place"


class Setup(Enum):
    listed = "listed"


class Winner(Enum):
    game_goes_on = "game goes on"
    winner = "winner"
    code_red = "code red"
    play_on = "play on"


# ---- the data -------------------------------------------------------------------------------------

def _agents_per_agency(table: Table) -> int:
    first = table.game.info.factions[0].id
    return sum(p.count for p in table.game.pieces if p.kind == "agent" and p.nation == first)


def _starting_cards(table: Table) -> dict[str, int]:
    """Each agency's starting deck, card name and count (Setup, Step 1)."""
    first = table.game.info.factions[0].id
    found: dict[str, int] = {}
    for p in table.game.pieces:
        if p.kind in ("spy-card", "starting-card") and p.nation == first:
            found[p.name] = found.get(p.name, 0) + p.count
    return found


def _asset_slots(table: Table) -> int:
    return sum(p.count for p in table.game.pieces if p.kind == "asset-marker")


def _agencies(table: Table) -> int:
    return len(table.game.info.factions)


def names(found: list[int]) -> str:
    """"agency 1 and agency 3": agencies are known here only by the order their counts were given."""
    return " and ".join(f"agency {i + 1}" for i in found)


def _not_negative(*pairs: tuple[str, int]) -> None:
    for option, value in pairs:
        if value < 0:
            raise QuestionError(f"{option} {value}: a count cannot be negative")


def _deck_size(table: Table) -> int:
    """The most cards one agency's deck can hold: its starting cards and every asset card."""
    return sum(_starting_cards(table).values()) + ASSET_CARDS


def _cards_held(table: Table, option: str, value: int) -> None:
    _not_negative((option, value))
    if value > _deck_size(table):
        raise QuestionError(f"{option} {value}: an agency owns at most {_deck_size(table)} cards "
                            f"(its {_deck_size(table) - ASSET_CARDS} starting cards and all {ASSET_CARDS} assets)")


def _symbols(option: str, given: list[str]) -> list[str]:
    """The combat symbols named in `given` (repeated options, or commas), as printed, in the rulebook's order."""
    index = NameIndex("combat symbol", COMBAT_SYMBOLS, SYMBOL_ALIASES)
    found: set[str] = set()
    for entry in given:
        for word in (w.strip() for w in entry.split(",")):
            if not word:
                continue
            symbol = index.find(word)
            if symbol is None and word.casefold() in {a.casefold() for a in ACTION_SYMBOLS}:
                raise QuestionError(f"{option} {word}: {word.capitalize()} is an action symbol, not a combat symbol; "
                                    f"name the card's combat symbols ({', '.join(COMBAT_SYMBOLS)})")
            if symbol is None:
                raise UnknownNameError(f"combat symbol (for {option})", word, index.closest(word) or list(COMBAT_SYMBOLS))
            found.add(symbol)
    if not found:
        raise QuestionError(f"{option}: name at least one combat symbol ({', '.join(COMBAT_SYMBOLS)})")
    return [s for s in COMBAT_SYMBOLS if s in found]


# ---- combat ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CounterFacts(Facts):
    """The fields of a `counter` ruling."""

    attack: list[str]
    defend: list[str]
    shared: list[str]
    by: str


def counter(
    table: Table,
    attack: Annotated[list[str], Param("Combat symbols of the card being answered, e.g. violence,surveillance.", flag="--attack", metavar="SYMBOLS")],
    defend: Annotated[list[str], Param("Combat symbols of the card played in answer.", flag="--defend", metavar="SYMBOLS")],
    by: Annotated[Answerer, Param("Who plays the answering card: the defender, or the attacker pressing on.", flag="--by")] = Answerer.defender,
    no_role_symbol: Annotated[bool, Param("The answering card lacks Defend (or Attack, for the attacker), as the American CIA lacks Defend.", flag="--no-role-symbol")] = False,
) -> Ruling[Counter, CounterFacts]:
    """Does this card counter that one? It must share at least one combat symbol.

    Example: dossier referee --game web-of-spies counter --attack violence --defend violence,information
    """
    played = _symbols("--attack", attack)
    answer = _symbols("--defend", defend)
    shared = [s for s in played if s in answer]
    role = ROLE_SYMBOL[by.value]
    facts = {"attack": played, "defend": answer, "shared": shared, "by": by.value}
    given = " ".join(attack + defend).casefold()
    note = "".join(f" ({alias} read as {symbol}, as the data assumes.)" for alias, symbol in SYMBOL_ALIASES.items() if alias.casefold() in given)
    if no_role_symbol:
        return Ruling(Counter.not_countered,
                      f"The {by.value} may only play cards showing the {role} symbol; this one has none, so it cannot be played, "
                      "whatever symbols it shares.", ("Combat",), allowed=False, facts=CounterFacts(**facts))
    if shared:
        return Ruling(Counter.countered,
                      f"The cards share {' and '.join(shared)}, so the {by.value}'s card counters the last one played; "
                      "the exchange goes on while each side can counter." + note, ("Combat",), allowed=True, facts=CounterFacts(**facts))
    ending = ("the attack stands and the defending agent is killed unless another card counters it"
              if by is Answerer.defender else "the attacker cannot press on with it")
    return Ruling(Counter.not_countered,
                  f"{', '.join(answer)} shares no symbol with {', '.join(played)}: a counter must match at least one, so {ending}." + note,
                  ("Combat",), allowed=False, facts=CounterFacts(**facts))


@dataclass(frozen=True)
class AttackFacts(Facts):
    """The fields of a `attack` ruling."""

    agent_there: bool
    attack_card: bool
    fought_there: bool


def attack(
    table: Table,
    agent_there: Annotated[Optional[bool], Param("Whether you have an agent in the target's city.", flag="--agent-there/--no-agent-there")] = None,
    attack_card: Annotated[bool, Param("The card you open with shows the Attack symbol.", flag="--attack-card/--no-attack-card")] = True,
    fought_there: Annotated[bool, Param("There has been a combat in that city this turn already.", flag="--fought-there")] = False,
) -> Ruling[Allowed, AttackFacts]:
    """May I attack an enemy agent in this city? An agent there, an Attack card, one combat a city a turn.

    Example: dossier referee --game web-of-spies attack --agent-there --fought-there
    """
    if agent_there is None:
        raise QuestionError("say whether you have an agent in the target's city: --agent-there or --no-agent-there")
    reasons = []
    if not agent_there:
        reasons.append("you need an agent in the target's city")
    if not attack_card:
        reasons.append("you open with a card showing the Attack symbol")
    if fought_there:
        reasons.append("only one combat is allowed in each city a turn")
    facts = {"agent_there": agent_there, "attack_card": attack_card, "fought_there": fought_there}
    if reasons:
        return Ruling(Allowed.not_allowed, f"No attack: {'; '.join(reasons)}.", ("Combat", "Attack Action"), facts=AttackFacts(**facts))
    return Ruling(Allowed.allowed, "You may attack: you are the Attacker and play only Attack cards; the Defender answers with "
                  "Defend cards, each counter sharing a combat symbol with the card before.", ("Combat", "Attack Action"), facts=AttackFacts(**facts))


@dataclass(frozen=True)
class CombatFacts(Facts):
    """The fields of a `combat` ruling."""

    uncountered: str


def combat(
    table: Table,
    uncountered: Annotated[Uncountered, Param("Who played the last card that the other side could not counter.", flag="--uncountered")],
) -> Ruling[Combat, CombatFacts]:
    """How does this combat end? An attack card left uncountered kills; a defence that counters them all ends it.

    Example: dossier referee --game web-of-spies combat --uncountered defender
    """
    facts = {"uncountered": uncountered.value}
    if uncountered is Uncountered.attacker:
        return Ruling(Combat.defender_killed, "The Attacker's last card went uncountered, so the defending agent is killed.",
                      ("Combat",), facts=CombatFacts(**facts))
    return Ruling(Combat.nobody_killed, "The Defender countered every attack card and the Attacker could not press on: the combat "
                  "simply ends and neither agent is killed.", ("Combat",), facts=CombatFacts(**facts))


class Chain(Enum):
    defender_killed = "defender killed"
    nobody_killed = "nobody killed"
    not_allowed = "not allowed"


@dataclass(frozen=True)
class ChainFacts(Facts):
    """The fields of a `chain` ruling."""

    cards: int
    last_by: Optional[str]
    broken_at: Optional[int]


def chain(
    table: Table,
    cards: Annotated[list[str], Param("A card played, in order from the attacker's opening card: its action and combat symbols, "
                                      "e.g. attack,violence; repeat for each.", flag="--card", metavar="SYMBOLS")],
) -> Ruling[Chain, ChainFacts]:
    """How does this exchange of cards end? Attacker and defender alternate, each card showing its side's symbol
    (Attack or Defend) and sharing a combat symbol with the card before it; the last card that stands decides.

    Example: dossier referee --game web-of-spies chain --card attack,violence --card defend,violence,surveillance --card attack,surveillance
    """
    played = []
    for i, entry in enumerate(cards, 1):
        words = [w.strip() for w in entry.split(",") if w.strip()]
        roles = {a for a in ACTION_SYMBOLS for w in words if w.casefold() == a.casefold()}
        combat = _symbols(f"--card {i}", [w for w in words if w.casefold() not in {a.casefold() for a in ACTION_SYMBOLS}])
        played.append((roles, combat))
    if not played:
        raise QuestionError("--card: give the attacker's opening card, then each answer in turn")
    sides = ("attacker", "defender")
    for i, (roles, combat) in enumerate(played):
        side = sides[i % 2]
        role = ROLE_SYMBOL[side]
        why = None
        if role not in roles:
            why = f"card {i + 1} is the {side}'s, and the {side} plays only cards showing the {role} symbol"
        elif i and not set(combat) & set(played[i - 1][1]):
            why = (f"card {i + 1} ({', '.join(combat)}) shares no combat symbol with card {i} ({', '.join(played[i - 1][1])}), "
                   "and an answer must match at least one")
        if why:
            return Ruling(Chain.not_allowed, f"The exchange breaks at card {i + 1}: {why}, so it cannot be played; "
                          f"the combat stands as it was after card {i}." if i else f"The exchange breaks at card 1: {why}, "
                          "so it cannot open a combat.", ("Combat",), allowed=False,
                          facts=ChainFacts(cards=len(played), last_by=None, broken_at=i + 1))
    last = sides[(len(played) - 1) % 2]
    steps = " → ".join(f"{sides[i % 2]} {'/'.join(c)}" for i, (_, c) in enumerate(played))
    if last == "attacker":
        return Ruling(Chain.defender_killed, f"Each card counters the one before ({steps}); the attacker's last card stands "
                      "uncountered, so the defending agent is killed.", ("Combat",), allowed=True,
                      facts=ChainFacts(cards=len(played), last_by=last, broken_at=None))
    return Ruling(Chain.nobody_killed, f"Each card counters the one before ({steps}); the defender countered the last attack "
                  "card, and the combat ends with neither agent killed unless the attacker presses on with a card sharing "
                  "a symbol.", ("Combat",), allowed=True, facts=ChainFacts(cards=len(played), last_by=last, broken_at=None))


class Marker(Enum):
    off_the_board = "off the board"
    replaced = "replaced"


@dataclass(frozen=True)
class MarkerFacts(Facts):
    """The fields of an `asset-marker` ruling."""

    turn_over: bool


def asset_marker(
    table: Table,
    turn_over: Annotated[bool, Param("The turn in which the asset was acquired has ended.", flag="--turn-over")] = False,
) -> Ruling[Marker, MarkerFacts]:
    """Where is the marker of an asset acquired this turn? Off the board until the acquiring player's turn ends.

    Example: dossier referee --game web-of-spies asset-marker
    """
    if not turn_over:
        return Ruling(Marker.off_the_board, "The acquired asset's marker leaves the board until the end of your turn: "
                      "its space holds no asset for the rest of the turn, so nobody can acquire or contest one there.",
                      ("Acquire Action",), facts=MarkerFacts(turn_over=False))
    return Ruling(Marker.replaced, f"At the end of your turn the board must hold {_asset_slots(table)} assets again: draw a new "
                  "asset for the empty slot and roll for its marker's city (see place-asset); the old space has no marker unless "
                  "the dice pick it again.", ("Ending Your Turn", "Acquire Action"), facts=MarkerFacts(turn_over=True))


# ---- actions -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveFacts(Facts):
    """The fields of a `move` ruling."""

    spaces: int
    cards: int


def move(
    table: Table,
    spaces: Annotated[int, Param("Spaces to move agents, all moves together.", flag="--spaces", metavar="N")],
    cards: Annotated[int, Param("Cards in your hand you can spare.", flag="--cards", metavar="N")],
) -> Ruling[Move, MoveFacts]:
    """Can I move this far? Each card discarded face down moves one agent one space.

    Example: dossier referee --game web-of-spies move --spaces 3 --cards 2
    """
    _not_negative(("--spaces", spaces))
    _cards_held(table, "--cards", cards)
    facts = {"spaces": spaces, "cards": cards}
    if cards < spaces:
        return Ruling(Move.too_few_cards, f"{spaces} spaces take {spaces} cards, one a space, and you can spare {cards}.",
                      ("Move Action",), allowed=False, facts=MoveFacts(**facts))
    return Ruling(Move.allowed, f"Discard {spaces} card{'s' if spaces != 1 else ''} face down, any cards, one for each space "
                  "(one city to the next is a space).", ("Move Action",), allowed=True, facts=MoveFacts(**facts))


@dataclass(frozen=True)
class TravelFacts(Facts):
    """The fields of a `travel` ruling: the cities passed, both ends included, and the cards it takes."""

    origin: str
    destination: str
    spaces: int
    path: list[str]
    cards: int


def travel(
    table: Table,
    origin: Annotated[str, Param("The city the agent stands in.", metavar="FROM")],
    destination: Annotated[str, Param("The city it is to reach.", metavar="TO")],
    cards: Annotated[int, Param("Cards in your hand you can spare.", flag="--cards", metavar="N")] = HAND,
) -> Ruling[Move, TravelFacts]:
    """How many cards does my agent need to reach that city? Counted on the board: one card a space, one city to the next.

    Example: dossier referee --game web-of-spies travel Caracas Lisbon --cards 3
    """
    from generators.referee import network

    _cards_held(table, "--cards", cards)
    if table.game.map is None:
        raise QuestionError(f"{table.game.name} has no board (map.yaml) to count spaces on")
    board = network.Network(table.game.map, table.game.aliases)
    start, end = board.resolve(origin), board.resolve(destination)
    found = board.route(start, end)
    if not found.is_reachable:
        raise QuestionError(f"no connection joins {start} and {end} on the board")
    facts = TravelFacts(start, end, found.spaces, found.path, cards)
    way = " → ".join(found.path)
    if cards < found.spaces:
        return Ruling(Move.too_few_cards, f"The shortest way is {found.spaces} spaces ({way}), one card a space, and you can spare {cards}: "
                      f"go {cards} of them this turn.", ("Move Action",), allowed=False, answer=f"{found.spaces} cards needed", facts=facts)
    return Ruling(Move.allowed, f"The shortest way is {found.spaces} space{'s' if found.spaces != 1 else ''} ({way}): discard "
                  f"{found.spaces} card{'s' if found.spaces != 1 else ''} face down, any cards, one for each space.", ("Move Action",),
                  allowed=True, answer=f"{found.spaces} card{'s' if found.spaces != 1 else ''}", facts=facts)


@dataclass(frozen=True)
class AcquireFacts(Facts):
    """The fields of a `acquire` ruling."""

    cost: int
    agents: int
    rival: int
    cards: int


def acquire(
    table: Table,
    agents: Annotated[int, Param("Your agents in the asset marker's space.", flag="--agents", metavar="N")],
    rival: Annotated[int, Param("The most agents any other player has there.", flag="--rival", metavar="N")],
    cards: Annotated[int, Param("Cards in your hand you can discard towards the cost.", flag="--cards", metavar="N")],
    cost: Annotated[Optional[int], Param("The asset's cost (upper right corner).", flag="--cost", metavar="N")] = None,
    secret: Annotated[bool, Param("The face-down Secret Asset (its cost is always 2).", flag="--secret")] = False,
) -> Ruling[Acquire, AcquireFacts]:
    """May I acquire this asset? More agents than anyone on its space, and cards to pay its cost.

    Example: dossier referee --game web-of-spies acquire --agents 2 --rival 2 --cards 3 --cost 3
    """
    _not_negative(("--agents", agents), ("--rival", rival))
    _cards_held(table, "--cards", cards)
    most = _agents_per_agency(table)
    for option, value in (("--agents", agents), ("--rival", rival)):
        if value > most:
            raise QuestionError(f"{option} {value}: an agency has {most} agents")
    if secret == (cost is not None):
        raise QuestionError("give the asset's --cost, or --secret for the Secret Asset (cost 2), but not both")
    if cost is not None and cost < 0:
        raise QuestionError(f"--cost {cost}: a cost cannot be negative")
    price = SECRET_ASSET_COST if secret else cost
    facts = {"cost": price, "agents": agents, "rival": rival, "cards": cards}
    if agents <= rival:
        how = "as many as" if agents == rival else "fewer than"
        return Ruling(Acquire.contested,
                      f"You have {how} another player in that space ({agents} against {rival}): the asset is contested and cannot be bought.",
                      ("Acquire Action",), allowed=False, facts=AcquireFacts(**facts))
    if cards < price:
        return Ruling(Acquire.too_few_cards,
                      f"The asset costs {price}{' (the Secret Asset always costs 2)' if secret else ''} and you can discard only {cards}.",
                      ("Acquire Action",), allowed=False, facts=AcquireFacts(**facts))
    return Ruling(Acquire.allowed,
                  f"You hold the space ({agents} against {rival}) and discard {price} card{'s' if price != 1 else ''} to pay; "
                  "look at the asset and put it face down on your discard pile; its marker leaves the board until your turn ends.",
                  ("Acquire Action",), allowed=True, facts=AcquireFacts(**facts))


@dataclass(frozen=True)
class DiscardFacts(Facts):
    """The fields of a `discard` ruling."""

    use: str


def discard(
    table: Table,
    use: Annotated[Use, Param("What the card was used for: move, acquire, attack, ability, trash (an ability that says Trash), or unplayed.", flag="--use")],
) -> Ruling[Discard, DiscardFacts]:
    """Where does a card go after it is used, or left unplayed at the end of the turn?

    Example: dossier referee --game web-of-spies discard --use trash
    """
    facts = {"use": use.value}
    if use is Use.trash:
        return Ruling(Discard.trashed, "A card that says to Trash it for its ability leaves your deck for good: it is removed, "
                      "not discarded.", ("Card Action",), facts=DiscardFacts(**facts))
    if use in (Use.attack, Use.ability):
        return Ruling(Discard.shown_then_face_down, "Using its attack or special ability, you show the card; it is then "
                      "discarded face down all the same.", ("Actions", "Card Action"), facts=DiscardFacts(**facts))
    why = {Use.move: "Any card may pay for a move.", Use.acquire: "Any card may pay towards an asset.",
           Use.unplayed: "At the end of your turn every card you have not played is discarded."}[use]
    return Ruling(Discard.face_down, f"{why} It goes face down on your discard pile, keeping your hand secret.",
                  ("Actions", "Ending Your Turn") if use is Use.unplayed else ("Actions",), facts=DiscardFacts(**facts))


# ---- the end of a turn ------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawFacts(Facts):
    """The fields of a `draw` ruling."""

    from_deck: int
    reshuffled: bool
    from_new_deck: int
    hand: int


def draw(
    table: Table,
    deck: Annotated[int, Param("Cards left in your draw pile.", flag="--deck", metavar="N")],
    discards: Annotated[int, Param("Cards in your discard pile, this turn's included.", flag="--discard", metavar="N")],
) -> Ruling[Draw, DrawFacts]:
    """How do I draw my new hand of 5 at the end of my turn?

    Example: dossier referee --game web-of-spies draw --deck 2 --discard 9
    """
    _not_negative(("--deck", deck), ("--discard", discards))
    if deck + discards > _deck_size(table):
        raise QuestionError(f"--deck {deck} and --discard {discards}: an agency owns at most {_deck_size(table)} cards "
                            f"(its {_deck_size(table) - ASSET_CARDS} starting cards and all {ASSET_CARDS} assets)")
    from_deck = min(HAND, deck)
    from_shuffle = min(HAND - from_deck, discards) if from_deck < HAND else 0
    hand = from_deck + from_shuffle
    said = f"Draw {from_deck} from your deck"
    if from_deck < HAND:
        said += (f"; it runs out, so shuffle your {discards} discards into a new deck and draw {from_shuffle} more" if discards
                 else "; it runs out, and with no discards to shuffle your hand stays short")
    said += f": a hand of {hand}."
    verdict = Draw.full_hand if hand == HAND else Draw.short_hand
    return Ruling(verdict, said, ("Ending Your Turn",), answer=f"hand of {hand}",
                  facts=DrawFacts(from_deck=from_deck, reshuffled=from_deck < HAND and discards > 0, from_new_deck=from_shuffle, hand=hand))


@dataclass(frozen=True)
class PlaceAssetFacts(Facts):
    """The fields of a `place-asset` ruling."""

    on_board: int
    to_place: int


def place_asset(
    table: Table,
    on_board: Annotated[int, Param("Asset markers on the board now.", flag="--on-board", metavar="N")],
    spot: Annotated[Spot, Param("The city the dice picked: free, taken by another marker, or in the agents' start region (Single Region set-up).", flag="--spot")] = Spot.free,
    at_setup: Annotated[bool, Param("These are the starting assets, placed at set-up.", flag="--at-setup")] = False,
) -> Ruling[PlaceAsset, PlaceAssetFacts]:
    """Where does a new asset go? Three always on the board, slots filled from the left, never two markers on one spot.

    Example: dossier referee --game web-of-spies place-asset --on-board 2 --spot taken
    """
    slots = _asset_slots(table)
    if not 0 <= on_board <= slots:
        raise QuestionError(f"--on-board {on_board}: the board has {slots} asset slots and markers")
    facts = {"on_board": on_board, "to_place": slots - on_board}
    if on_board == slots:
        return Ruling(PlaceAsset.nothing_to_place, f"All {slots} assets are out; there is nothing to replace.",
                      ("Ending Your Turn",), facts=PlaceAssetFacts(**facts))
    fill = ("Draw an asset for the leftmost empty slot (refill from left to right; public assets face up, the Secret Asset face down), "
            "then roll the white die for the region and the black die for the city.")
    if spot is Spot.taken:
        return Ruling(PlaceAsset.re_roll, f"{fill} That spot already has an asset marker, and no spot ever holds two: re-roll.",
                      ("Ending Your Turn",), facts=PlaceAssetFacts(**facts))
    if spot is Spot.start_region and at_setup:
        return Ruling(PlaceAsset.re_roll, f"{fill} In the Single Region set-up no asset may start the game in the agents' "
                      "region: re-roll.", ("Setup", "Setup Variants"), facts=PlaceAssetFacts(**facts))
    if spot is Spot.start_region:
        return Ruling(PlaceAsset.place, f"{fill} The Single Region ban keeps assets out of the agents' region only at the "
                      "start of the game, so put the marker there.", ("Ending Your Turn", "Setup Variants", "Register W1"), facts=PlaceAssetFacts(**facts))
    return Ruling(PlaceAsset.place, f"{fill} Put its marker there; {slots} assets must be out before the next turn starts.",
                  ("Ending Your Turn", "Setup"), facts=PlaceAssetFacts(**facts))


# ---- set-up -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SetupFacts(Facts):
    """The fields of a `setup` ruling."""

    players: int
    agents: int
    deck: int
    hand: int


def setup(
    table: Table,
    players: Annotated[int, Param("How many agencies play.", metavar="N")],
    agents: Annotated[Optional[int], Param("Agents each (Quicker Game: fewer, 3 at least recommended).", flag="--agents", metavar="N")] = None,
    fully_loaded: Annotated[bool, Param("The Fully Loaded variant: 3 asset cards into each starting deck.", flag="--fully-loaded")] = False,
) -> Ruling[Setup, SetupFacts]:
    """What does each agency start with?

    Example: dossier referee --game web-of-spies setup 3 --agents 4
    """
    if not FEWEST_PLAYERS <= players <= _agencies(table):
        raise QuestionError(f"setup {players}: Web of Spies is played by {FEWEST_PLAYERS} to {_agencies(table)} agencies")
    most = _agents_per_agency(table)
    count = most if agents is None else agents
    if not 1 <= count <= most:
        raise QuestionError(f"--agents {count}: an agency has {most} agents")
    cards = _starting_cards(table)
    deck = sum(cards.values()) + (FULLY_LOADED_CARDS if fully_loaded else 0)
    listed = ", ".join(f"{n} {name}{'s' if n > 1 and not name.endswith('s') else ''}" if n > 1 else f"1 {name}" for name, n in cards.items())
    said = [f"Each of the {players} agencies takes {count} agents (pawns), a Player Mat and {sum(cards.values())} starting cards ({listed})."]
    rules = ["Setup"]
    if fully_loaded:
        said.append(f"Fully Loaded: deal each {FULLY_LOADED_CARDS} asset cards into the starting deck, unseen ({deck} cards).")
        rules.append("Setup Variants")
    if count < most:
        said.append(f"Quicker Game: {count} agents each" + (" (fewer than the 3 the rulebook recommends)." if count < FEWEST_AGENTS else "."))
        rules.append("Setup Variants")
    said.append(f"Shuffle the deck to the left of the mat and draw {HAND}. Highest roll starts and places first; then 2 public assets face up, "
                "1 Secret Asset face down, each marker on a city rolled with the white (region) and black (city) dice.")
    return Ruling(Setup.listed, " ".join(said), tuple(dict.fromkeys(rules)), answer=f"{count} agents and {deck} cards each",
                  facts=SetupFacts(players=players, agents=count, deck=deck, hand=HAND))


@dataclass(frozen=True)
class StartCityFacts(Facts):
    """The fields of a `start-city` ruling."""

    region: str
    city: str
    placement: str


def start_city(
    table: Table,
    region: Annotated[Region, Param("The region of the city: empty, or already holding another agency.", flag="--region")],
    city: Annotated[CityState, Param("The city itself: empty, or holding another agency's agents.", flag="--city")] = CityState.empty,
    placement: Annotated[Placement, Param("How agents are placed: standard, single-region or scattered (Setup Variants).", flag="--placement")] = Placement.standard,
) -> Ruling[Allowed, StartCityFacts]:
    """May I place my agents in this city at the start?

    Example: dossier referee --game web-of-spies start-city --region taken --placement single-region
    """
    facts = {"region": region.value, "city": city.value, "placement": placement.value}
    if placement is Placement.scattered:
        return Ruling(Allowed.allowed, "Scattered: players take turns placing one spy at a time anywhere in the world; "
                      "spies already on the board do not limit where the next goes.", ("Setup Variants",), facts=StartCityFacts(**facts))
    if placement is Placement.single_region:
        if city is CityState.taken:
            return Ruling(Allowed.not_allowed, "Single Region: every agency starts in the chosen region, but no two in one city.",
                          ("Setup Variants",), facts=StartCityFacts(**facts))
        return Ruling(Allowed.allowed, "Single Region: place all your agents in a city of the chosen region that no one else "
                      "has taken.", ("Setup Variants",), facts=StartCityFacts(**facts))
    if region is Region.taken:
        return Ruling(Allowed.not_allowed, "Only one agency may start in each region: choose a city in an empty region.",
                      ("Setup",), facts=StartCityFacts(**facts))
    return Ruling(Allowed.allowed, "Place all your agents in that city; the region is empty. Players choose clockwise "
                  "from the starting player.", ("Setup",), facts=StartCityFacts(**facts))


# ---- winning --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WinnerFacts(Facts):
    """The fields of a `winner` ruling."""

    agents: list[int]
    end_rule: str
    trophies: list[int]
    winners: Optional[list[int]] = None


def winner(
    table: Table,
    agents: Annotated[list[int], Param("Agents each agency still has on the board, one number per agency.", flag="--agents", metavar="N")],
    end_rule: Annotated[EndRule, Param("How the game ends: code-red (the rulebook's own), or one of its End Game variants.", flag="--end-rule")] = EndRule.code_red,
    trophies: Annotated[list[int], Param("With --end-rule trophy-kills: trophies each agency holds, in the same order.", flag="--trophies", metavar="N")] = (),
    code_red: Annotated[bool, Param("CODE RED is already in force (a tie was reached).", flag="--code-red")] = False,
) -> Ruling[Winner, WinnerFacts]:
    """Who wins, or does play go on? The rulebook's end (most agents; a tie goes to CODE RED) or a variant's.

    Example: dossier referee --game web-of-spies winner --agents 3 --agents 3 --agents 0
    """
    most = _agents_per_agency(table)
    if not FEWEST_PLAYERS <= len(agents) <= _agencies(table):
        raise QuestionError(f"--agents given {len(agents)} times: name the agents of each of the {FEWEST_PLAYERS} to {_agencies(table)} agencies")
    for n in agents:
        if not 0 <= n <= most:
            raise QuestionError(f"--agents {n}: an agency has 0 to {most} agents")
    if trophies and end_rule is not EndRule.trophy_kills:
        raise QuestionError("--trophies count only with --end-rule trophy-kills")
    if end_rule is EndRule.trophy_kills and len(trophies) != len(agents):
        raise QuestionError("--end-rule trophy-kills: give --trophies for every agency, in the order of --agents")
    kills = len(agents) * most - sum(agents)
    if any(t < 0 for t in trophies) or sum(trophies) > kills:
        raise QuestionError(f"--trophies: there are {kills} dead agents to take trophies from")
    if code_red and end_rule is not EndRule.code_red:
        raise QuestionError("--code-red is the rulebook's own tie rule; the End Game variants replace it")
    rule_name = {EndRule.code_red: "the rulebook's own end (CODE RED on a tie)", EndRule.elimination: "the Elimination variant",
                 EndRule.total_elimination: "the Total Elimination variant", EndRule.trophy_kills: "the Trophy Kills variant",
                 EndRule.sudden_death: "the Sudden Death variant"}[end_rule]
    rules = ("Objective",) if end_rule is EndRule.code_red else ("End Game and Tie Breaker Variants",)
    alive = [i for i, n in enumerate(agents) if n > 0]
    facts = {"agents": agents, "end_rule": end_rule.value, "trophies": list(trophies)}
    said = f"Under {rule_name}: "
    if len(alive) == 1:
        return Ruling(Winner.winner, said + f"{names(alive)} is the last agency left and wins.", rules,
                      answer=f"{names(alive)} wins", facts=WinnerFacts(**facts, winners=alive))
    if len(alive) == len(agents):
        return Ruling(Winner.game_goes_on, said + "no agency has been eliminated yet, so the game goes on.", rules, facts=WinnerFacts(**facts))
    if end_rule is EndRule.total_elimination or code_red:
        why = "play goes on until one agency remains" + (" (CODE RED: any agency that loses an agent is out)" if code_red else "")
        return Ruling(Winner.play_on, said + why + ".", rules, facts=WinnerFacts(**facts))
    scores = trophies if end_rule is EndRule.trophy_kills else agents
    best = max(scores[i] for i in alive)
    leaders = [i for i in alive if scores[i] == best]
    measure = "trophies" if end_rule is EndRule.trophy_kills else "agents on the board"
    if len(leaders) == 1:
        return Ruling(Winner.winner, said + f"an agency is eliminated and {names(leaders)} has the most {measure} ({best}): it wins.",
                      rules + (("Register W2",) if end_rule is EndRule.sudden_death else ()),
                      answer=f"{names(leaders)} wins", facts=WinnerFacts(**facts, winners=leaders))
    tie = {EndRule.code_red: ("CODE RED: play goes on, and from now any agency that loses an agent is eliminated "
                              "and removes its agents; the last agency left wins.", Winner.code_red),
           EndRule.elimination: ("the tie plays on until another agency is eliminated; then the most agents wins.", Winner.play_on),
           EndRule.trophy_kills: (f"{names(leaders)} tie and play on; every other agency is eliminated at once. The win is checked again "
                                  "at each elimination.", Winner.play_on),
           EndRule.sudden_death: ("SUDDEN DEATH: the first agency to pull ahead, gaining agents or killing enemy agents, wins at once.",
                                  Winner.play_on)}[end_rule]
    return Ruling(tie[1], said + f"an agency is eliminated and {names(leaders)} tie on {best} {measure}: " + tie[0],
                  rules + (("Register W2",) if end_rule is EndRule.sudden_death else ()), facts=WinnerFacts(**facts, winners=[]))


QUESTIONS = {
    "setup": setup,
    "start-city": start_city,
    "move": move,
    "travel": travel,
    "acquire": acquire,
    "attack": attack,
    "counter": counter,
    "combat": combat,
    "chain": chain,
    "discard": discard,
    "draw": draw,
    "place-asset": place_asset,
    "asset-marker": asset_marker,
    "winner": winner,
}
