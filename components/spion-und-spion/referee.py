"""The Spion & Spion referee: a turn's choices, the Pass-Cards, ZOFF, the GRAY SPY, the BAZONG, the
NASTY TRAPS and their dice, the traitor, money, partners and how the game is won.

Each answer cites the rulebook section that decides it (the translated rulebook's headings),
or an entry of this game's register in docs/rulings.md ("Register S1") where it is unclear.
Card, trap and spy names and how many of each there are come from the data beside this file;
the numbers written here are the rulebook's own, each with the section it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Optional

from generators.referee import Allowed, Facts, NameIndex, only_in, Param, QuestionError, Ruling, Table, UnknownNameError

ZOFF_PAYMENT = 1                       # ZOFF; Summary of the actual valid Espionage rates
ROLL_COSTS = {1: 1, 2: 3, 3: 5}        # Nasty Traps: 1x roll 1, 2x rolls 3, 3x rolls 5 ZILLIONS
WINNING_ZILLIONS = {4: 37, 2: 25}      # The Goal of the Game; The Game for 2 Players
VARIANT_PLAYERS = {"four-player": 4, "two-player": 2}  # game.yaml's variants
FREEING_COST = 1                       # The Player Turn; Espionage rates: one ZILLION a spy
EMBASSY_LIMIT = 2                      # The Player Turn: no more than two spies in your embassy
PICKS = 3                              # Pass Cards: the first, second or third card from the top
TRAP_COST = 2                          # Nasty Traps; Espionage rates
BAZONG_BONUS = 5                       # The Bazong; Espionage rates
# Which picture on the TRAP-B-GONE dice removes which trap (Nasty Traps):
# Snake eats Magnet, Magnet crushes Bottle, Bottle poisons Snake.
REMOVED_BY = {"Magnet": "Snake", "Bottle": "Magnet", "Snake": "Bottle"}
VERBS = {"Snake": "eats", "Magnet": "crushes", "Bottle": "poisons"}
# What each Pass-Card makes you do (Pass Cards), by its printed name.
ADVANCES = {"FAHR": 2, "FLITZ": 3, "DUES": 4}
SCHECK_ZILLIONS = 3

RATES = "Espionage rates"  # the rulebook's "Summary of the actual valid Espionage rates"


class Side(str, Enum):
    attacker = "attacker"
    defender = "defender"


class Landing(str, Enum):
    empty = "empty"
    own_spy = "own-spy"
    enemy_spy = "enemy-spy"
    own_embassy = "own-embassy"
    enemy_embassy = "enemy-embassy"


class Target(str, Enum):
    space = "space"
    embassy = "embassy"
    empty = "empty"


class Spot(str, Enum):
    empty = "empty"
    occupied = "occupied"
    embassy = "embassy"


class Lying(str, Enum):
    embassy = "embassy"
    space = "space"


class Goods(str, Enum):
    figures = "figures"
    money = "money"
    turns = "turns"
    hot_envelope = "hot-envelope"
    advice = "advice"


class Zoff(Enum):
    attacker_wins = "attacker wins"
    defender_wins = "defender wins"


class ZoffSeveral(Enum):
    all_beaten = "all beaten"
    attacker_lost = "attacker lost"


class TrapRoll(Enum):
    removed = "removed"
    stays = "stays"


class TrapCost(Enum):
    price = "price"


class Win(Enum):
    threshold = "threshold"
    wins = "wins"
    not_yet = "not yet"


class PassCard(Enum):
    advance = "advance"
    stand_still = "stand still"
    take_money = "take money"
    gray_spy_helps = "gray spy helps"
    look_and_move = "look and move again"
    bazong_goes_home = "bazong goes home"


class Free(Enum):
    all_freed = "all freed"
    some_freed = "some freed"
    none_freed = "none freed"


class Move(Enum):
    moves = "moves"
    zoff = "zoff"
    not_allowed = "not allowed"


class Bazong(Enum):
    taken = "taken"
    not_taken = "not taken"


class Froehn(Enum):
    traitor_out = "traitor out"
    accuser_out = "accuser out"
    too_late = "too late"


class Pay(Enum):
    pays = "pays"
    leaves_the_game = "leaves the game"


# ---- the data -------------------------------------------------------------------------------------

def _named(table: Table, kind: str, value: str) -> str:
    """The printed name of a `kind` piece that `value` names, refused with the closest names otherwise."""
    names = sorted({p.name for p in table.game.pieces if p.kind == kind})
    if not names:
        raise QuestionError(f"{table.game.info.title} has no {kind} pieces in its data, which this question needs")
    index = NameIndex(table.game.info.kinds[kind].label, names)
    found = index.find(value)
    if found is None:
        raise UnknownNameError(index.what, value, index.closest(value) or names)
    return found


def _players(table: Table) -> int:
    return VARIANT_PLAYERS[table.variant]


def _spies_per_colour(table: Table) -> int:
    """Numbered spies plus the one with no number a FROEHN can bring in (Ingredients; Traitor)."""
    return sum(p.count for p in table.game.pieces if p.kind in ("spy", "spare-spy") and p.nation == "black")


def _enemy_spies(table: Table) -> int:
    return _spies_per_colour(table) * (_players(table) // 2)


def _pile(table: Table) -> int:
    return sum(p.count for p in table.game.pieces if p.kind == "pass-card" and p.nation == "black")


def _money(table: Table) -> int:
    return sum(p.value * p.count for p in table.game.pieces if p.kind == "zillion")


def _traps(table: Table) -> int:
    return sum(p.count for p in table.game.pieces if p.kind == "trap")


def _zillions(n: int) -> str:
    return f"{n} ZILLION" if n == 1 else f"{n} ZILLIONS"


def _count_text(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _money_held(zillions: int, table: Table, option: str = "--zillions") -> None:
    if not 0 <= zillions <= _money(table):
        raise QuestionError(f"{option} {zillions}: money is never negative, and the game holds {_money(table)} ZILLIONS in all")


def _between(value: int, low: int, high: int, option: str, why: str) -> None:
    if not low <= value <= high:
        raise QuestionError(f"{option} {value}: must be {low} to {high}, as {why}")


# ---- ZOFF -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ZoffFacts(Facts):
    """The fields of a `zoff` ruling."""

    attacker_card: str
    defender_card: str
    winner: str
    loser: str
    payment: int
    to_prison: Optional[str]
    reveals_number: bool
    attacker_moves_again: bool
    bazong: Optional[str]


def zoff(
    table: Table,
    attacker: Annotated[str, Param("The ZOFF card the attacker lays down.", flag="--attacker", metavar="A|B|C")],
    defender: Annotated[str, Param("The ZOFF card the defender lays down.", flag="--defender", metavar="A|B|C")],
    gray_spy: Annotated[bool, Param("The attacker is the GRAY SPY (LECHZ card).", flag="--gray-spy")] = False,
    carrier: Annotated[Optional[Side], Param("Which spy carries a BAZONG, if either does.", flag="--carrier")] = None,
) -> Ruling[Zoff, ZoffFacts]:
    """Who wins a ZOFF? The defender wins when both cards match, the attacker otherwise.

    Example: dossier referee --game spion-und-spion zoff --attacker A --defender B
    """
    attack = _named(table, "zoff-card", attacker)
    defend = _named(table, "zoff-card", defender)
    if gray_spy and carrier is Side.attacker:
        raise QuestionError("--carrier attacker with --gray-spy: the GRAY SPY never carries a BAZONG; she goes home after her fight")
    defender_wins = attack == defend
    winner, loser = (Side.defender, Side.attacker) if defender_wins else (Side.attacker, Side.defender)
    rules = ["ZOFF"]
    said = [f"The attacker laid {attack}, the defender {defend}: "
            + ("the defender guessed the plan and wins." if defender_wins else "the defender guessed wrong and loses.")]
    prison: Side | None = loser
    if gray_spy:
        rules.append("Grey Spy")
        if defender_wins:
            prison = None
            said.append(f"The GRAY SPY lost: her player pays the defender {_zillions(ZOFF_PAYMENT)}, but none of that player's spies goes to prison.")
        else:
            said.append(f"The GRAY SPY won: the defender pays her player {_zillions(ZOFF_PAYMENT)}, goes to prison and shows his number; "
                        "her player moves again without her, and she goes home.")
    else:
        said.append(f"The {loser.value} pays the {winner.value} {_zillions(ZOFF_PAYMENT)}, goes to prison and shows his number to everyone.")
        if winner is Side.attacker:
            said.append("The winning attacker moves again: one space or a Pass-Card.")
    bazong = None
    if carrier is not None:
        rules.append("The Bazong")
        if carrier is winner:
            bazong = "kept"
            said.append(f"The {carrier.value} won and keeps the BAZONG.")
        elif gray_spy:
            bazong = "dropped"
            said.append("Beaten by the GRAY SPY, the carrier leaves the BAZONG on the space, for anyone to pick up.")
        else:
            bazong = "to winner"
            said.append(f"The carrier lost, so the {winner.value} takes the BAZONG.")
    return Ruling(
        Zoff.defender_wins if defender_wins else Zoff.attacker_wins, " ".join(said), tuple(rules),
        facts=ZoffFacts(attacker_card=attack, defender_card=defend, winner=winner.value, loser=loser.value, payment=ZOFF_PAYMENT, to_prison=prison.value if prison else None, reveals_number=prison is not None, attacker_moves_again=winner is Side.attacker, bazong=bazong),
    )


@dataclass(frozen=True)
class ZoffSeveralFacts(Facts):
    """The fields of a `zoff-several` ruling."""

    defenders: int
    fights: int
    beaten: int


def zoff_several(
    table: Table,
    defenders: Annotated[int, Param("Enemy spies on the space the attacker lands on.", flag="--defenders", metavar="N")],
    lost: Annotated[Optional[int], Param("The fight the attacker loses (1 = the first), if he loses one.", flag="--lost", metavar="K")] = None,
    embassy: Annotated[bool, Param("The space is an embassy.", flag="--embassy")] = False,
) -> Ruling[ZoffSeveral, ZoffSeveralFacts]:
    """What happens when an attacker lands on several enemy spies? One ZOFF each, in his order, until he loses.

    Example: dossier referee --game spion-und-spion zoff-several --defenders 2 --lost 2
    """
    most = EMBASSY_LIMIT if embassy else _enemy_spies(table)
    why = f"an embassy holds no more than {EMBASSY_LIMIT} spies" if embassy else f"the other side has {most} spies in this game"
    _between(defenders, 1, most, "--defenders", why)
    if lost is not None:
        _between(lost, 1, defenders, "--lost", "the attacker fights one ZOFF per defender")
    rules = ("ZOFF", "The Bazong") if embassy else ("ZOFF",)
    order = "The attacker chooses which defender he fights first, and fights them one at a time."
    facts = {"defenders": defenders, "fights": lost or defenders, "beaten": (lost - 1) if lost else defenders}
    if lost is None:
        return Ruling(ZoffSeveral.all_beaten,
                      f"{order} He beat all {defenders}: each pays him {_zillions(ZOFF_PAYMENT)}, goes to prison and shows his number; "
                      "then he moves again (one space or a Pass-Card).", rules, facts=ZoffSeveralFacts(**facts))
    spared = defenders - lost
    return Ruling(ZoffSeveral.attacker_lost,
                  f"{order} He beat {lost - 1} and lost fight {lost}: he pays that defender {_zillions(ZOFF_PAYMENT)}, goes to prison and "
                  f"shows his number, and the fighting stops" + (f"; the other {spared} never fight." if spared else "."),
                  rules, facts=ZoffSeveralFacts(**facts))


# ---- traps -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TrapFacts(Facts):
    """The fields of a `trap` ruling."""

    trap: str
    roll: str
    removed: bool
    needed: str
    roll_removes: str


def trap(
    table: Table,
    trap_name: Annotated[str, Param("The NASTY TRAP on the board.", flag="--trap", metavar="snake|magnet|bottle")],
    roll: Annotated[str, Param("The picture the TRAP-B-GONE dice shows.", flag="--roll", metavar="snake|magnet|bottle")],
) -> Ruling[TrapRoll, TrapFacts]:
    """Does this roll of the TRAP-B-GONE dice remove this trap?

    Example: dossier referee --game spion-und-spion trap --trap magnet --roll snake
    """
    placed = _named(table, "trap", trap_name)
    rolled = _named(table, "trap", roll)
    if placed not in REMOVED_BY or rolled not in REMOVED_BY:
        raise QuestionError(f"the rulebook pairs only {', '.join(REMOVED_BY)}; the data names a trap it does not")
    needed = REMOVED_BY[placed]
    removes = next(t for t, by in REMOVED_BY.items() if by == rolled)
    cycle = f"{needed} {VERBS[needed]} {placed}"
    facts = {"trap": placed, "roll": rolled, "removed": rolled == needed, "needed": needed, "roll_removes": removes}
    if rolled == needed:
        return Ruling(TrapRoll.removed, f"{cycle}: rolling the {rolled} removes the {placed}. "
                      "The roll counts for any such trap on the board, not only the one in front of you.",
                      ("Nasty Traps",), facts=TrapFacts(**facts))
    return Ruling(TrapRoll.stays, f"{cycle}: only the {needed} removes the {placed}. "
                  f"The {rolled} removes the {removes} instead, wherever one stands on the board.",
                  ("Nasty Traps",), facts=TrapFacts(**facts))


@dataclass(frozen=True)
class TrapCostFacts(Facts):
    """The fields of a `trap-cost` ruling."""

    rolls: int
    zillions: int


def trap_cost(
    table: Table,
    rolls: Annotated[int, Param("How many rolls of the TRAP-B-GONE dice you announce (1 to 3).", flag="--rolls", metavar="N")],
) -> Ruling[TrapCost, TrapCostFacts]:
    """What do N rolls of the TRAP-B-GONE dice cost? Announced and paid in advance.

    Example: dossier referee --game spion-und-spion trap-cost --rolls 2
    """
    if rolls not in ROLL_COSTS:
        raise QuestionError(f"--rolls {rolls}: the dice may be rolled 1 to {max(ROLL_COSTS)} times in a row")
    zillions = ROLL_COSTS[rolls]
    return Ruling(TrapCost.price,
                  f"{_count_text(rolls, 'roll')} of the TRAP-B-GONE dice cost {_zillions(zillions)}, announced and paid into the "
                  "COAL BOX before the first roll; nothing comes back if an early roll succeeds. Your move goes on whatever the dice show.",
                  ("Nasty Traps", RATES), answer=_zillions(zillions).lower(), facts=TrapCostFacts(rolls=rolls, zillions=zillions))


@dataclass(frozen=True)
class TrapPlaceFacts(Facts):
    """The fields of a `trap-place` ruling."""

    cost: int
    spot: str


def trap_place(
    table: Table,
    bazong_out: Annotated[Optional[bool], Param("Whether any BAZONG (either colour) is outside an embassy.", flag="--bazong-out/--bazongs-home")] = None,
    spot: Annotated[Spot, Param("Where you want to put it: an empty space, an occupied one, or an embassy.", flag="--spot")] = Spot.empty,
    zillions: Annotated[int, Param("Your money.", flag="--zillions", metavar="Z")] = TRAP_COST,
    on_board: Annotated[int, Param("NASTY TRAPS already on the board.", flag="--on-board", metavar="N")] = 0,
    placed_this_turn: Annotated[bool, Param("You have placed a trap this turn already.", flag="--placed-this-turn")] = False,
    moved: Annotated[bool, Param("You have moved this turn already.", flag="--moved")] = False,
) -> Ruling[Allowed, TrapPlaceFacts]:
    """May I place a NASTY TRAP here now? 2 ZILLIONS, before you move, once a turn, only while a BAZONG is out.

    Example: dossier referee --game spion-und-spion trap-place --bazong-out --spot embassy
    """
    if bazong_out is None:
        raise QuestionError("say whether a BAZONG is out of its embassy: --bazong-out or --bazongs-home")
    _between(on_board, 0, _traps(table), "--on-board", f"the game has {_traps(table)} NASTY TRAPS")
    _money_held(zillions, table)
    reasons = []
    if not bazong_out:
        reasons.append("a trap may be placed only while some BAZONG, of either colour, is outside its embassy")
    if spot is Spot.embassy:
        reasons.append("never in an embassy")
    elif spot is Spot.occupied:
        reasons.append("only on a space nobody stands on")
    if on_board == _traps(table):
        reasons.append(f"all {_traps(table)} traps are on the board already")
    if placed_this_turn:
        reasons.append("one trap a turn")
    if moved:
        reasons.append("traps are placed before you move")
    if zillions < TRAP_COST:
        reasons.append(f"it costs {_zillions(TRAP_COST)} and you have {zillions}")
    facts = {"cost": TRAP_COST, "spot": spot.value}
    if reasons:
        return Ruling(Allowed.not_allowed, f"Not now: {'; '.join(reasons)}.", ("Nasty Traps", RATES), facts=TrapPlaceFacts(**facts))
    return Ruling(Allowed.allowed, f"Pay {_zillions(TRAP_COST)} into the COAL BOX and place it. It blocks every spy, "
                  "yours too, since no spy goes back.", ("Nasty Traps", RATES), facts=TrapPlaceFacts(**facts))


# ---- a turn: moving, Pass-Cards, prison ------------------------------------------------------------

@dataclass(frozen=True)
class DrawFacts(Facts):
    """The fields of a `draw` ruling."""

    pick: int
    pile: int


def draw(
    table: Table,
    pick: Annotated[int, Param("Which card from the top you want: 1 for the first.", flag="--pick", metavar="N")],
) -> Ruling[Allowed, DrawFacts]:
    """May I take this card from the Pass-Card pile? The first, second or third from the top.

    Example: dossier referee --game spion-und-spion draw --pick 3
    """
    pile = _pile(table)
    _between(pick, 1, pile, "--pick", f"a pile has {pile} Pass-Cards")
    facts = {"pick": pick, "pile": pile}
    if pick > PICKS:
        return Ruling(Allowed.not_allowed, f"You may take the first, second or third card from the top, not card {pick}.",
                      ("Pass Cards",), facts=DrawFacts(**facts))
    skipped = pick - 1
    after = (f" The {_count_text(skipped, 'card')} above it go under the pile in the same order, unseen." if skipped else "")
    return Ruling(Allowed.allowed, f"Take card {pick} and do what it shows; it goes under the pile, so the order never changes.{after} "
                  "Drawing a card is your turn's move instead of moving a spy one space.", ("Pass Cards", "The Player Turn"), facts=DrawFacts(**facts))


@dataclass(frozen=True)
class PassCardFacts(Facts):
    """The fields of a `pass-card` ruling."""

    card: str
    spaces: Optional[int] = None
    zillions: Optional[int] = None


def pass_card(
    table: Table,
    name: Annotated[str, Param("The Pass-Card drawn, e.g. FAHR or SCHLUCHZ.", metavar="NAME")],
    carrying: Annotated[Optional[bool], Param("Whether one of your spies carries an enemy BAZONG (SCHLUCHZ only).", flag="--carrying/--not-carrying")] = None,
) -> Ruling[PassCard, PassCardFacts]:
    """What does this Pass-Card make me do?

    Example: dossier referee --game spion-und-spion pass-card SCHLUCHZ --not-carrying
    """
    card = _named(table, "pass-card", name)
    facts = {"card": card}
    rules = ("Pass Cards",)
    if card in ADVANCES:
        n = ADVANCES[card]
        return Ruling(PassCard.advance, f"{card}: one of your spies advances {n} spaces, forward only; landing on an enemy "
                      "means ZOFF; a NASTY TRAP on the way cannot be passed, so the spy stops in front of it (Register S2).", rules + ("Nasty Traps", "Register S2"),
                      answer=f"advance {n}", facts=PassCardFacts(**facts, spaces=n))
    if card == "GAEHN":
        return Ruling(PassCard.stand_still, "GAEHN: you stand still and wait for your next turn.", rules, facts=PassCardFacts(**facts, spaces=0))
    if card == "SCHECK":
        return Ruling(PassCard.take_money, f"SCHECK: take {_zillions(SCHECK_ZILLIONS)} from the COAL BOX.", rules + (RATES,),
                      facts=PassCardFacts(**facts, zillions=SCHECK_ZILLIONS))
    if card == "LECHZ":
        return Ruling(PassCard.gray_spy_helps, "LECHZ: the GRAY SPY removes any one NASTY TRAP on the board and fights one "
                      "enemy spy of your choice (not in an embassy) as your attacker, this turn only; see gray-spy.", rules + ("Grey Spy",), facts=PassCardFacts(**facts))
    if card == "ANSICHTS":
        return Ruling(PassCard.look_and_move, "ANSICHTS: look at the number of one enemy spy, just one, then move again: "
                      "one space or another Pass-Card.", rules + ("Traitor",), facts=PassCardFacts(**facts))
    if card != "SCHLUCHZ":
        raise QuestionError(f"{card!r}: the rulebook's Pass Cards list says nothing of this card")
    if carrying is None:
        raise QuestionError("SCHLUCHZ depends on the BAZONG: say --carrying or --not-carrying")
    if carrying:
        return Ruling(PassCard.bazong_goes_home, "SCHLUCHZ: you lose one conquered BAZONG (your choice if you hold two, "
                      "Register S1); it goes back to its own embassy.", rules + ("The Bazong", "Register S1"), facts=PassCardFacts(**facts))
    return Ruling(PassCard.stand_still, "SCHLUCHZ: none of your spies carries an enemy BAZONG, so the card turns into a "
                  "GAEHN: you stand still and wait for your next turn.", rules, answer="stand still (as GAEHN)", facts=PassCardFacts(**facts, spaces=0))


@dataclass(frozen=True)
class FreeFacts(Facts):
    """The fields of a `free` ruling."""

    freed: int
    cost: int


def free(
    table: Table,
    prisoners: Annotated[int, Param("Your spies in prison.", flag="--prisoners", metavar="N")],
    in_embassy: Annotated[int, Param("Your spies in your embassy now.", flag="--in-embassy", metavar="K")] = 0,
    zillions: Annotated[Optional[int], Param("Your money (default: enough).", flag="--zillions", metavar="Z")] = None,
    moved: Annotated[bool, Param("You have moved this turn already.", flag="--moved")] = False,
) -> Ruling[Free, FreeFacts]:
    """How many of my spies may I buy out of prison now? One ZILLION each, before moving, back into an embassy that holds two.

    Example: dossier referee --game spion-und-spion free --prisoners 2 --in-embassy 1 --zillions 5
    """
    spies = _spies_per_colour(table)
    _between(prisoners, 0, spies, "--prisoners", f"a player has {spies} spies")
    _between(in_embassy, 0, EMBASSY_LIMIT, "--in-embassy", f"an embassy holds no more than {EMBASSY_LIMIT} spies")
    if prisoners + in_embassy > spies:
        raise QuestionError(f"--prisoners {prisoners} with --in-embassy {in_embassy}: a player has {spies} spies")
    money = _money(table) if zillions is None else zillions
    _money_held(money, table)
    room = EMBASSY_LIMIT - in_embassy
    freed = 0 if moved else min(prisoners, room, money // FREEING_COST)
    limits = []
    if moved:
        limits.append("spies are bought out before you move")
    if room < prisoners:
        limits.append(f"your embassy has room for {room} (no more than {EMBASSY_LIMIT} spies at once)")
    if money < min(prisoners, room) * FREEING_COST:
        limits.append(f"you have {_zillions(money)} at {FREEING_COST} a spy")
    facts = {"freed": freed, "cost": freed * FREEING_COST}
    verdict = Free.none_freed if freed == 0 else Free.all_freed if freed == prisoners else Free.some_freed
    said = f"You may buy out {freed} of {prisoners} for {_zillions(freed * FREEING_COST)} into the COAL BOX; they go back to your embassy"
    said += f" ({'; '.join(limits)})." if limits else "."
    return Ruling(verdict, said, ("The Player Turn", RATES), answer=f"free {freed}", facts=FreeFacts(**facts))


@dataclass(frozen=True)
class MoveFacts(Facts):
    """The fields of a `move` ruling."""

    land_on: str


def move(
    table: Table,
    land_on: Annotated[Landing, Param("What is on the space where the move ends.", flag="--land-on")] = Landing.empty,
    backward: Annotated[bool, Param("The move would go backwards, against the footsteps.", flag="--backward")] = False,
    pass_enemy: Annotated[bool, Param("The move passes over enemy spies on the way.", flag="--pass-enemy")] = False,
    trap_in_way: Annotated[bool, Param("A NASTY TRAP stands on the way or on the space.", flag="--trap-in-way")] = False,
    embassy_spies: Annotated[int, Param("With --land-on own-embassy: your spies already in it.", flag="--embassy-spies", metavar="N")] = 0,
) -> Ruling[Move, MoveFacts]:
    """May my spy make this move, and what happens where it ends?

    Forward only, over enemy spies freely, never past a trap; own spies share a space, enemies mean ZOFF.

    Example: dossier referee --game spion-und-spion move --pass-enemy --land-on enemy-spy
    """
    _between(embassy_spies, 0, EMBASSY_LIMIT, "--embassy-spies", f"an embassy holds no more than {EMBASSY_LIMIT} spies")
    if embassy_spies and land_on is not Landing.own_embassy:
        raise QuestionError("--embassy-spies is about your own embassy: add --land-on own-embassy")
    facts = {"land_on": land_on.value}
    if backward:
        return Ruling(Move.not_allowed, "No spy ever goes back: moves follow the footsteps, forward only.",
                      ("The Player Turn",), allowed=False, facts=MoveFacts(**facts))
    if trap_in_way:
        return Ruling(Move.not_allowed, "A NASTY TRAP cannot be passed, by enemies or by your own spies; it stays until the "
                      "GRAY SPY or the TRAP-B-GONE dice remove it.", ("Nasty Traps",), allowed=False, facts=MoveFacts(**facts))
    passing = " Passing enemy spies on the way does nothing." if pass_enemy else ""
    if land_on is Landing.own_embassy and embassy_spies == EMBASSY_LIMIT:
        return Ruling(Move.not_allowed, f"Your embassy already holds {EMBASSY_LIMIT} spies, the most it may.",
                      ("The Player Turn",), allowed=False, facts=MoveFacts(**facts))
    if land_on in (Landing.enemy_spy, Landing.enemy_embassy):
        extra = " In an enemy embassy, beating every spy there takes the BAZONG (see bazong)." if land_on is Landing.enemy_embassy else ""
        return Ruling(Move.zoff, f"The move is allowed, and landing on an enemy means ZOFF: your spy attacks.{passing}{extra}",
                      ("The Player Turn", "ZOFF"), allowed=True, facts=MoveFacts(**facts))
    where = {Landing.empty: "on the empty space", Landing.own_spy: "beside your own spy, sharing the space",
             Landing.own_embassy: "in your embassy (an embassy counts as one space)"}[land_on]
    return Ruling(Move.moves, f"The spy moves forward (one space on a plain turn, or as far as a Pass-Card says) and stands "
                  f"{where}.{passing}", ("The Player Turn",), allowed=True, facts=MoveFacts(**facts))


class Advance(Enum):
    lands = "lands"
    stops_at_trap = "stops at a trap"


@dataclass(frozen=True)
class AdvanceFacts(Facts):
    """The fields of an `advance` ruling: the board, the spaces entered in order, where the spy ends and what is there."""

    board: str
    start: str
    spaces: int
    path: list[str]
    end: str
    kind: Optional[str]
    owner: Optional[str]
    blocked_by: Optional[str]


def advance(
    table: Table,
    start: Annotated[str, Param("The space the spy stands on: its number, or an embassy (\"black embassy\").", metavar="SPACE")],
    colour: Annotated[str, Param("The spy's colour (black, white, black-red, white-blue).", flag="--colour")],
    spaces: Annotated[int, Param("Spaces to advance: 1 on a plain turn, 2 to 4 for a FAHR, FLITZ or DUES card.", flag="--spaces", metavar="N")] = 1,
    traps: Annotated[list[str], Param("A space holding a NASTY TRAP (give it again for more).", flag="--trap", metavar="SPACE")] = (),
) -> Ruling[Advance, AdvanceFacts]:
    """Where does my spy end if it advances N spaces from here? Counted on the board, along its footsteps.

    Every embassy counts as one space; an ALFRED space shows the spy's number to anyone; no spy passes a NASTY TRAP.

    Example: dossier referee --game spion-und-spion advance 3 --colour black --spaces 3
    """
    from generators.referee import track

    most = max(ADVANCES.values())
    _between(spaces, 1, most, "--spaces", f"a spy advances 1 space, or up to {most} with a Pass-Card")
    try:
        board = track.board_for(table.game, table.variant)
        moves = track.Track(board)
        side = table.game.faction(colour).id
        origin = moves.resolve(start)
        ahead = moves.direction(side)
        trapped = [moves.resolve(t) for t in traps]
    except track.BoardError as exc:
        raise QuestionError(str(exc)) from None
    for space in trapped:
        if board.space_of(space).kind == "embassy":
            raise QuestionError(f"--trap {space}: no NASTY TRAP may stand in an embassy")
        if space == origin:
            raise QuestionError(f"--trap {space}: a trap is placed only on a space nobody occupies, and your spy stands there")
    found = moves.advance(origin, side, spaces, trapped)
    end = board.space_of(found.end)
    partners = {s for s, way in board.directions.items() if way == ahead}
    label = lambda space_id: board.space_of(space_id).label  # noqa: E731
    facts = AdvanceFacts(board.id, origin, spaces, list(found.path), found.end, end.kind, end.owner, found.blocked_by)
    way = f"{table.game.faction(side).name} follows its own footsteps on {board.title.lower()}"
    steps = " → ".join(label(s) for s in found.path) or "nowhere"
    rules = ["The Player Turn"]
    if found.blocked_by:
        said = (f"{way}: {steps}. A NASTY TRAP on {label(found.blocked_by)} cannot be passed, so the spy stops in front of it, "
                f"on {end.label}, after {len(found.path)} of {spaces} spaces.")
        rules += ["Nasty Traps", "Register S2"]
    else:
        said = f"{way}: {steps}. The spy ends on {end.label}, {spaces} space{'s' if spaces != 1 else ''} on (every embassy counts as one space)."
    if end.kind == "alfred":
        said += " It is an ALFRED space: anyone may look at the spy's number."
        rules.append("Traitor")
    elif end.kind == "embassy" and end.owner in partners:
        said += f" It is your side's embassy: at most {EMBASSY_LIMIT} of its own spies may stand in it."
    elif end.kind == "embassy":
        said += " It is an enemy embassy, reached exactly: beat every spy in it (ZOFF) to take its BAZONG."
        rules += ["ZOFF", "The Bazong"]
    verdict = Advance.stops_at_trap if found.blocked_by else Advance.lands
    return Ruling(verdict, said, tuple(rules), answer=f"ends on {end.label}", facts=facts)


# ---- the GRAY SPY, the BAZONG, the traitor ---------------------------------------------------------

@dataclass(frozen=True)
class GraySpyFacts(Facts):
    """The fields of a `gray-spy` ruling."""

    target: str


def gray_spy(
    table: Table,
    target: Annotated[Target, Param("Where you send her: a space with an enemy spy, an embassy, or an empty space.", flag="--target")],
    later_turn: Annotated[bool, Param("You want to keep her for a later turn.", flag="--later-turn")] = False,
) -> Ruling[Allowed, GraySpyFacts]:
    """May the GRAY SPY (LECHZ) fight there? Any enemy not in an embassy, this turn only.

    Example: dossier referee --game spion-und-spion gray-spy --target embassy
    """
    facts = {"target": target.value}
    rules = ("Grey Spy", "Pass Cards")
    reasons = []
    if later_turn:
        reasons.append("she helps only in the turn you draw LECHZ; keeping her is not allowed")
    if target is Target.embassy:
        reasons.append("she never attacks in an embassy")
    elif target is Target.empty:
        reasons.append("she moves onto a space an enemy spy occupies, to fight him")
    if reasons:
        return Ruling(Allowed.not_allowed, f"Not there: {'; '.join(reasons)}. She still removes any one NASTY TRAP.",
                      rules, facts=GraySpyFacts(**facts))
    return Ruling(Allowed.allowed, "She removes any one NASTY TRAP and attacks that enemy under the ZOFF rules. If she loses, "
                  f"you pay {_zillions(ZOFF_PAYMENT)} but none of your spies goes to prison; if she wins, the loser pays you, goes to prison "
                  "and shows his number, and you move again without her. Then she goes home.", rules, facts=GraySpyFacts(**facts))


@dataclass(frozen=True)
class BazongFacts(Facts):
    """The fields of a `bazong` ruling."""

    where: str
    bonus: int


def bazong(
    table: Table,
    where: Annotated[Lying, Param("Where the enemy BAZONG lies: in its embassy, or dropped on a space.", flag="--where")] = Lying.embassy,
    exact: Annotated[bool, Param("Whether the move ends exactly on it.", flag="--exact/--not-exact")] = True,
    defenders: Annotated[int, Param("Enemy spies in the embassy.", flag="--defenders", metavar="N")] = 0,
    beaten: Annotated[int, Param("How many of them your spy beat in ZOFF.", flag="--beaten", metavar="K")] = 0,
    carrying: Annotated[bool, Param("Your spy already carries a BAZONG.", flag="--carrying")] = False,
) -> Ruling[Bazong, BazongFacts]:
    """Does my spy take the enemy BAZONG? Land exactly, beat every defender; 5 ZILLIONS from an embassy.

    Example: dossier referee --game spion-und-spion bazong --defenders 2 --beaten 2
    """
    _between(defenders, 0, EMBASSY_LIMIT, "--defenders", f"an embassy holds no more than {EMBASSY_LIMIT} spies")
    _between(beaten, 0, defenders, "--beaten", "your spy fights each defender once")
    if where is Lying.space and defenders:
        raise QuestionError("--defenders is about an embassy; a BAZONG on a space is picked up by whoever lands there")
    facts = {"where": where.value, "bonus": 0}
    rules = ["The Bazong"]
    if not exact:
        return Ruling(Bazong.not_taken, "Your spy must land exactly on it; passing over it takes nothing.",
                      tuple(rules), allowed=False, facts=BazongFacts(**facts))
    if beaten < defenders:
        return Ruling(Bazong.not_taken, f"Your spy must beat every enemy spy in the embassy, and beat {beaten} of {defenders}.",
                      ("The Bazong", "ZOFF"), allowed=False, facts=BazongFacts(**facts))
    choose = (" Your spy already carries one and carries one at most: choose which to take on; the other stays where it is."
              if carrying else "")
    if where is Lying.space:
        return Ruling(Bazong.taken, "A BAZONG left on a space is picked up by whoever lands there, friend or enemy, with no bonus "
                      f"(Register S3).{choose}", ("The Bazong", "Register S3"), allowed=True, facts=BazongFacts(**facts))
    facts["bonus"] = BAZONG_BONUS
    how = "You beat every defender" if defenders else "The embassy is empty"
    return Ruling(Bazong.taken, f"{how}: take the BAZONG and {_zillions(BAZONG_BONUS)} from the COAL BOX, and move again "
                  f"(one space, the safer way out, or a Pass-Card).{choose}", ("The Bazong", RATES), allowed=True, facts=BazongFacts(**facts))


@dataclass(frozen=True)
class FroehnFacts(Facts):
    """The fields of a `froehn` ruling."""

    match: bool


def froehn(
    table: Table,
    match: Annotated[Optional[bool], Param("Whether the number in your HOT-ENVELOPE matches the spy you pointed at.", flag="--match/--no-match")] = None,
    delivered: Annotated[bool, Param("That spy has already carried your BAZONG into his own embassy.", flag="--delivered")] = False,
) -> Ruling[Froehn, FroehnFacts]:
    """What happens when I shout FROEHN at a spy?

    Example: dossier referee --game spion-und-spion froehn --no-match
    """
    if match is None:
        raise QuestionError("say whether the envelope's number matches the spy: --match or --no-match")
    facts = {"match": match}
    if delivered:
        return Ruling(Froehn.too_late, "Too late: a BAZONG brought into the enemy's embassy wins the game for them at once, "
                      "traitor or not.", ("Traitor", "End of the Game"), facts=FroehnFacts(**facts))
    if match:
        return Ruling(Froehn.traitor_out, "Right: that spy leaves the game and your own spy with no number, set aside at the "
                      "start, takes his place, so you gain a spy. Nobody pays anything.", ("Traitor",), facts=FroehnFacts(**facts))
    partner = (" You may pass your HOT-ENVELOPE, number and all, to your partner, in this case only." if _players(table) == 4
               else " The 2-player game has no partners, so the envelope goes with you.")
    return Ruling(Froehn.accuser_out, f"Wrong: all your spies and your own BAZONG leave the game, and so do you.{partner}",
                  ("Traitor", "End of the Game") + (("Partner",) if _players(table) == 4 else ("The Game for 2 Players",)), facts=FroehnFacts(**facts))


# ---- money, partners and winning ----------------------------------------------------------------------

@dataclass(frozen=True)
class PayFacts(Facts):
    """The fields of a `pay` ruling."""

    owe: int
    zillions: int


def pay(
    table: Table,
    owe: Annotated[int, Param("What you must pay (a lost ZOFF, a trap, a roll...).", flag="--owe", metavar="N")],
    zillions: Annotated[int, Param("Your money.", flag="--zillions", metavar="Z")],
) -> Ruling[Pay, PayFacts]:
    """Can I pay, or do I leave the game? No money to pay what you owe, and you are out.

    Example: dossier referee --game spion-und-spion pay --owe 1 --zillions 0
    """
    _between(owe, 1, max(ROLL_COSTS.values()), "--owe", "the rulebook's payments run from 1 ZILLION to 5 (three TRAP-B-GONE rolls)")
    _money_held(zillions, table)
    facts = {"owe": owe, "zillions": zillions}
    if zillions >= owe:
        return Ruling(Pay.pays, f"You pay {_zillions(owe)} and keep {zillions - owe}; no change is ever given.",
                      (RATES,), facts=PayFacts(**facts))
    return Ruling(Pay.leaves_the_game, f"You owe {_zillions(owe)} and have {zillions}: a player who cannot pay what he owes leaves "
                  "the game in shame (Register S4).", ("End of the Game", "Register S4"), facts=PayFacts(**facts))


@dataclass(frozen=True)
class TradeFacts(Facts):
    """The fields of a `trade` ruling."""

    goods: str


@only_in("four-player")
def trade(
    table: Table,
    goods: Annotated[Goods, Param("What passes between partners: figures, money, turns, the hot-envelope, or advice.", flag="--goods")],
    wrong_froehn: Annotated[bool, Param("You have just shouted a wrong FROEHN.", flag="--after-wrong-froehn")] = False,
) -> Ruling[Allowed, TradeFacts]:
    """May partners pass this to each other?

    Example: dossier referee --game spion-und-spion trade --goods money
    """
    facts = {"goods": goods.value}
    if goods is Goods.advice:
        return Ruling(Allowed.allowed, "Partners may support each other, plan together, discuss and send signals.",
                      ("Partner",), facts=TradeFacts(**facts))
    if goods is Goods.hot_envelope and wrong_froehn:
        return Ruling(Allowed.allowed, "After a wrong FROEHN, and only then, you may pass your HOT-ENVELOPE to your partner.",
                      ("Partner", "Traitor"), facts=TradeFacts(**facts))
    return Ruling(Allowed.not_allowed, f"Partners may not trade figures, money, turns or HOT-ENVELOPES: "
                  f"{goods.value.replace('-', ' ')} may not pass between you.", ("Partner",), facts=TradeFacts(**facts))


@dataclass(frozen=True)
class WinFacts(Facts):
    """The fields of a `win` ruling."""

    players: int
    threshold: int
    zillions: Optional[int]
    wins: Optional[bool]


def win(
    table: Table,
    players: Annotated[Optional[int], Param("Players at the table: 4 or 2 (default: the variant's).", flag="--players", metavar="N")] = None,
    zillions: Annotated[Optional[int], Param("Money your team holds, to ask whether it wins.", flag="--zillions", metavar="Z")] = None,
    bazong_home: Annotated[bool, Param("Your side brought an enemy-coloured BAZONG into one of its own embassies.", flag="--bazong-home")] = False,
) -> Ruling[Win, WinFacts]:
    """How many ZILLIONS win? 37 for a team of the 4-player game, 25 in the 2-player game; a BAZONG brought home wins too.

    Example: dossier referee --game spion-und-spion win --players 4 --zillions 36
    """
    if players is None:
        players = _players(table)
    if players == 0:
        raise QuestionError("--players 0: the rulebook's game for 0 players is a joke with nothing to win; ask about 4 or 2 players")
    if players not in WINNING_ZILLIONS:
        raise QuestionError(f"--players {players}: the rulebook has games for {' and '.join(map(str, WINNING_ZILLIONS))} players")
    if zillions is not None:
        _money_held(zillions, table)
    needed = WINNING_ZILLIONS[players]
    rules = ("The Goal of the Game", "End of the Game") if players == 4 else ("The Game for 2 Players", "End of the Game")
    who = "a team (both partners' money together)" if players == 4 else "a player"
    base = (f"In the {players}-player game {who} wins on reaching {needed} ZILLIONS or more; "
            "bringing an enemy-coloured BAZONG into one of its own embassies wins too.")
    facts = {"players": players, "threshold": needed}
    if bazong_home:
        return Ruling(Win.wins, base + " The BAZONG is home: that wins, whatever the money.", rules,
                      facts=WinFacts(**facts, zillions=zillions, wins=True))
    if zillions is None:
        return Ruling(Win.threshold, base, rules, answer=f"{needed} zillions", facts=WinFacts(**facts, zillions=None, wins=None))
    wins = zillions >= needed
    verdict = (f" {zillions} reaches it." if wins else f" {zillions} is {needed - zillions} short.")
    return Ruling(Win.wins if wins else Win.not_yet, base + verdict, rules, facts=WinFacts(**facts, zillions=zillions, wins=wins))


class Turn(Enum):
    next_player = "next player"


@dataclass(frozen=True)
class TurnFacts(Facts):
    """The fields of a `turn` ruling."""

    after: str
    next: str
    order: list[str]


def turn(
    table: Table,
    after: Annotated[Optional[str], Param("The colour whose turn has just ended (none: who starts).", flag="--after", metavar="COLOUR")] = None,
) -> Ruling[Turn, TurnFacts]:
    """Who plays next? BLACK starts, then play passes clockwise, to the player on the left.

    Each player sits at the corner of his embassy, so the seats are the embassies in their order round the board.

    Example: dossier referee --game spion-und-spion turn --after black
    """
    from generators.referee import track

    try:
        board = track.board_for(table.game, table.variant)
    except track.BoardError as exc:
        raise QuestionError(str(exc)) from None
    order = [s.owner for s in board.spaces if s.kind == "embassy"]
    first = order.index(table.game.faction("black").id)
    order = order[first:] + order[:first]
    name = lambda colour: table.game.faction(colour).name  # noqa: E731
    seats = " → ".join(name(c) for c in order)
    if after is None:
        return Ruling(Turn.next_player, f"BLACK starts the game; then the turn passes to the left: {seats}, and round again.",
                      ("Preparation", "The Player Turn"), answer=f"{name(order[0])} starts",
                      facts=TurnFacts(after="", next=order[0], order=order))
    side = table.game.faction(after).id
    if side not in order:
        raise QuestionError(f"--after {after}: {name(side)} has no embassy on {board.title.lower()}, so it has no seat in this game")
    following = order[(order.index(side) + 1) % len(order)]
    return Ruling(Turn.next_player,
                  f"Play goes clockwise from BLACK, always to the player on the left, who sits at the next embassy corner: "
                  f"{seats}. After {name(side)} comes {name(following)}. Which way round the board is clockwise is not printed: "
                  "the embassies are taken in the board's order, which boards.yaml marks assumed.",
                  ("The Player Turn", "Preparation"), answer=f"{name(following)} plays next",
                  facts=TurnFacts(after=side, next=following, order=order))


QUESTIONS = {
    "turn": turn,
    "zoff": zoff,
    "zoff-several": zoff_several,
    "move": move,
    "advance": advance,
    "draw": draw,
    "pass-card": pass_card,
    "free": free,
    "gray-spy": gray_spy,
    "bazong": bazong,
    "trap": trap,
    "trap-cost": trap_cost,
    "trap-place": trap_place,
    "froehn": froehn,
    "pay": pay,
    "trade": trade,
    "win": win,
}
