"""One game of Economancy in progress (see docs/economancy.md for the rules in words).

The state is mutable: :meth:`EconomancyState.apply` validates a move completely before it
changes anything, then records it and, once the last chooser of a step has chosen, resolves
the step (an investment round, a fight, a buy round) and moves on to the next question.
Income is applied by the state itself at the start of every day.

**Turns.** Investing and buying are :attr:`~engine.protocol.TurnMode.SIMULTANEOUS` over the
seats still in the game (buying: those with a buy left); the attacker's choice is
:attr:`~engine.protocol.TurnMode.ONE`; defending is simultaneous over the defenders who have
a usable defender. :meth:`EconomancyState.turn` lists the seats that have not chosen yet.
Seats the protocol skips are never asked: an attacker with no card able to attack (the
attack phase ends), a defender with no usable defender (it is eliminated when the fight
resolves), a seat out of the game.

**Views.** :meth:`EconomancyState.view` is the protocol's state JSON: ``day``, ``phase``,
``shop``, ``players``, ``player`` (``None`` for a spectator). Choices not yet revealed
appear nowhere in it; the attacker's card is public as soon as it is chosen (its ``uses``
go up at once), the defenders' cards once the fight resolves.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import compress
from typing import Any, Final

from engine.economancy.cards import BY_NAME, CARDS, PASS, STIPEND
from engine.economancy.errors import (
    AlreadyChose,
    BadInvestment,
    CannotAfford,
    CannotAttack,
    CannotDefend,
    CardUsedUp,
    IndexOutOfRange,
    NotInShop,
    WrongPhase,
)
from engine.economancy.rules import EconomancyRules
from engine.protocol import Event, GameOver, NotYourTurn, Result, Turn, TurnMode, Viewer

Move = int | str
"""A move: an amount or a card index (investing, attacking, defending), or a card name or
``"Pass"`` (buying). Its JSON form is the one-element array ``[move]``."""

INVESTING: Final = "investing"
ATTACKING: Final = "attacking"
BUY: Final = "buy"
END: Final = "end"
PHASES: Final = (INVESTING, ATTACKING, BUY, END)

POINTS_TO_WIN: Final = 7
STARTING_COINS: Final = 1

_NAMES: Final = tuple(card.name for card in CARDS)
_COST: Final = tuple(card.cost or 0 for card in CARDS)
_POINTS: Final = tuple(card.points for card in CARDS)
_ATTACKS: Final = tuple(card.attacks for card in CARDS)
_DEFENDS: Final = tuple(card.defends for card in CARDS)
_DEFENCE: Final = tuple(card.defence for card in CARDS)
_GREED: Final = tuple(card.coins_per_defence for card in CARDS)
_DAY3_BUYS: Final = tuple(card.day3_buys for card in CARDS)
_BEAN: Final = tuple(card.bean for card in CARDS)
_INCOME: Final = tuple(tuple(card.income[day] for card in CARDS) for day in range(3))
_ATTACK_BY_BUBBLE: dict[int, tuple[int, ...]] = {}
_SET_KIND: Final[Any] = Event.__dict__["kind"].__set__
_SET_SEAT: Final[Any] = Event.__dict__["seat"].__set__
_SET_DATA: Final[Any] = Event.__dict__["data"].__set__
_NEW: Final = object.__new__


def _event(kind: str, seat: int | None, data: dict[str, Any]) -> Event:
    """``Event(kind, seat, data)``, the same value, built at about half the cost: the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``, and a game
    makes an event at every resolution (engine benchmark)."""
    event: Event = _NEW(Event)
    _SET_KIND(event, kind)
    _SET_SEAT(event, seat)
    _SET_DATA(event, data)
    return event


_CHOSE: Final = tuple(Event("chose", seat) for seat in range(4))
_ATTACK_EVENTS: dict[int, Event] = {}
"""The ``attacks`` events made so far, by seat, card index and kind: like ``chose`` and
``stopped``, one value shared by every game (events are never changed)."""
_STOPPED: Final = tuple(Event("stopped", seat) for seat in range(4))
_KEY: Final = ("0", "1", "2", "3")


def attack_table(bubble_attack: int) -> tuple[int, ...]:
    """Every kind's attack, Bubble's as the rules say."""
    table = _ATTACK_BY_BUBBLE.get(bubble_attack)
    if table is None:
        table = tuple(bubble_attack if card.name == "Bubble" else card.attack for card in CARDS)
        _ATTACK_BY_BUBBLE[bubble_attack] = table
    return table


_SCORING: Final = tuple((k, card.points) for k, card in enumerate(CARDS) if card.points)


def _json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_NAME_TEXT: Final = tuple(_json_text(name) for name in _NAMES)
_CARD_TEXT: Final = tuple(
    tuple(_json_text({"name": name, "uses": uses}) for uses in range(3)) for name in _NAMES
)
_PHASE_TEXT: Final = {phase: _json_text({"name": phase}) for phase in (INVESTING, BUY)}


_RANGES: Final = tuple(range(coins + 1) for coins in range(64))
"""The investing phase's legal moves for each amount of coins below 64 (ranges are values)."""

_BUY_MOVES: dict[tuple[int, ...], tuple[tuple[Move, ...], ...]] = {}


def _buy_moves(shop: tuple[int, ...]) -> tuple[tuple[Move, ...], ...]:
    """A shop's legal buys by coins held: ``Pass`` then every card one can afford, in shop
    order (index ``c`` for ``c`` coins; the last for every amount beyond). Made once per
    card set and shared: :meth:`EconomancyState.legal_moves` hands out these tuples."""
    table = _BUY_MOVES.get(shop)
    if table is None:
        top = max([_COST[k] for k in shop], default=0)
        table = tuple(
            (PASS, *[_NAMES[k] for k in shop if _COST[k] <= coins]) for coins in range(top + 1)
        )
        _BUY_MOVES[shop] = table
    return table


_SHOPS: dict[tuple[tuple[int, ...], int], dict[int, int]] = {}


def _new_shop(kinds: tuple[int, ...], n_seats: int) -> dict[int, int]:
    """A new game's shop: every card of ``kinds``, ``per_player`` copies a seat."""
    shop = _SHOPS.get((kinds, n_seats))
    if shop is None:
        shop = _SHOPS[kinds, n_seats] = {k: CARDS[k].per_player * n_seats for k in kinds}
    return dict(shop)


def card_points(cards: list[int]) -> int:
    """The victory points of an army."""
    points = 0
    for kind, value in _SCORING:
        points += value * cards.count(kind)
    return points


class EconomancyState:
    """One game of Economancy (see the module docstring)."""

    __slots__ = (
        "asked",
        "attack_values",
        "attacker",
        "attacker_card",
        "buy_moves",
        "buy_shop",
        "buys",
        "cards",
        "choosers",
        "coins",
        "day_count",
        "eliminated",
        "n",
        "over",
        "pending",
        "phase",
        "reason",
        "rules",
        "score",
        "shop",
        "uses",
        "winner",
    )

    def __init__(self, rules: EconomancyRules, n_seats: int) -> None:
        self.rules = rules
        self.n = n_seats
        self.attack_values = attack_table(rules.bubble_attack)
        """Every card kind's attack under these rules (Bubble's is a rules parameter)."""
        self.day_count = 1
        self.phase = INVESTING
        self.shop: dict[int, int] = _new_shop(rules.shop_kinds, n_seats)
        self.over = False
        """Whether the game has ended (kept with :attr:`phase` by the moves and by
        :meth:`refresh`)."""
        self.buy_shop = self.shop
        self.buy_moves = _buy_moves(rules.shop_kinds)
        """The buy phase's legal moves by coins held (see :func:`_buy_moves`), for the shop
        :attr:`buy_shop`; :meth:`legal_moves` remakes them if :attr:`shop` was replaced."""
        self.coins = [STARTING_COINS] * n_seats
        self.buys = [0] * n_seats
        self.cards: list[list[int]] = [[STIPEND] for _ in range(n_seats)]
        self.uses: list[list[int]] = [[0] for _ in range(n_seats)]
        self.score = [0] * n_seats
        """Every seat's points, kept with :attr:`cards` by the moves (and recomputed by
        :meth:`refresh`): looking for a winner reads them instead of counting the armies."""
        self.pending: dict[int, Move] = {}
        self.choosers: tuple[int, ...] = ()
        self.asked: tuple[int, ...] = ()
        """The seats still to choose, in seat order (kept by :meth:`refresh`)."""
        self.attacker = -1
        self.attacker_card = -1
        self.winner: int | None = None
        self.reason = ""
        self.eliminated: list[tuple[int, ...]] = []
        """Groups of seats in the order they left the game (a fight may eliminate several)."""

    @classmethod
    def new(cls, rules: EconomancyRules, n_seats: int) -> EconomancyState:
        """A new game: day 1's income applied, everyone asked to invest."""
        state = cls(rules, n_seats)
        state.begin()
        return state

    def begin(self) -> None:
        """Start the game: day 1's income, then everyone asked to invest (which sets
        :attr:`asked`; :attr:`over` and :attr:`score` are already right for a new game)."""
        self._income()
        self._start_investing()

    # ------------------------------------------------------------------ reading

    @property
    def n_seats(self) -> int:
        return self.n

    @property
    def day(self) -> int:
        """The day of the cycle: 1, 2 or 3."""
        return (self.day_count - 1) % 3 + 1

    def alive(self, seat: int) -> bool:
        return bool(self.cards[seat])

    def points(self, seat: int) -> int:
        return card_points(self.cards[seat])

    def can_attack(self, seat: int) -> bool:
        """Whether ``seat`` has a card able to attack and not used up."""
        attacks = _ATTACKS
        uses = self.uses[seat]
        for i, k in enumerate(self.cards[seat]):  # noqa: SIM110 - cheaper than any()
            if uses[i] < attacks[k]:
                return True
        return False

    def can_defend(self, seat: int) -> bool:
        """Whether ``seat`` has a card able to defend and not used up."""
        defends = _DEFENDS
        uses = self.uses[seat]
        for i, k in enumerate(self.cards[seat]):  # noqa: SIM110 - cheaper than any()
            if uses[i] < defends[k]:
                return True
        return False

    def asking_attacker(self) -> bool:
        return self.phase == ATTACKING and self.attacker_card < 0

    def turn(self) -> Turn:
        if self.phase == END:
            return Turn.nobody()
        if self.phase == ATTACKING and self.attacker_card < 0:
            return Turn.one(self.attacker)
        return Turn(frozenset(self.asked), TurnMode.SIMULTANEOUS)

    def to_act(self) -> tuple[int, ...]:
        """The seats that must still choose, in seat order (the course referee's order)."""
        return self.asked

    def refresh(self) -> None:
        """Recompute :attr:`asked` after the fields were set by hand (storage, tests, an
        agent's look-ahead), and the points tally :attr:`score`; moves keep both up to date
        themselves."""
        self.score = [card_points(army) for army in self.cards]
        self.over = self.phase == END
        if self.over:
            self.asked = ()
        elif self.phase == ATTACKING and self.attacker_card < 0:
            self.asked = (self.attacker,)
        elif not self.pending:
            self.asked = self.choosers
        else:
            pending = self.pending
            self.asked = tuple([s for s in self.choosers if s not in pending])

    def legal_moves(self, seat: int) -> Sequence[Move]:
        """Every legal move of ``seat`` now; investing gives a ``range`` (coins can grow
        into the millions with Magic Bean Stocks), the other phases a list."""
        # Called before every move: plain loops (a comprehension is a function call on
        # Python 3.11).
        if seat not in self.asked:
            return []
        phase = self.phase
        if phase == INVESTING:
            coins = self.coins[seat]
            return _RANGES[coins] if coins < 64 else range(coins + 1)
        if phase == BUY:  # any card it can afford, sold out or not
            if self.buy_shop is not self.shop:
                self.buy_shop = self.shop
                self.buy_moves = _buy_moves(tuple(self.shop))
            by_coins = self.buy_moves
            coins = self.coins[seat]
            return by_coins[coins if coins < len(by_coins) else -1]
        cards, uses = self.cards[seat], self.uses[seat]
        i = 0
        if self.attacker_card < 0:
            table = _ATTACKS
            moves: list[Move] = [0]  # stop
        else:
            table = _DEFENDS
            moves = []
        for k in cards:
            if uses[i] < table[k]:
                moves.append(i)
            i += 1  # noqa: SIM113 - cheaper than enumerate() here
        return moves

    def default_move(self, seat: int) -> Move:
        """The move a table plays for a seat that did not choose in time (rules
        ``on_timeout="default_move"``): invest 0, stop attacking, the first usable defender
        (leftmost), Pass."""
        if seat not in self.asked:
            raise NotYourTurn(f"seat {seat} is not asked anything now")
        if self.phase == INVESTING or self.asking_attacker():
            return 0
        if self.phase == BUY:
            return PASS
        return self.legal_moves(seat)[0]

    # ------------------------------------------------------------------ moves

    def check(self, seat: int, move: Move) -> None:
        """Raise the :class:`~engine.protocol.MoveRefused` that ``move`` earns, if any."""
        phase = self.phase
        if phase == END:
            raise GameOver()
        if seat not in self.asked:
            if seat in self.pending:
                raise AlreadyChose()
            raise NotYourTurn(f"seat {seat} is not asked to {self._question()} now")
        if phase == BUY:
            if type(move) is not str:
                raise WrongPhase(f'this is the buy phase: name a card, or ["{PASS}"]')
            if move == PASS:
                return
            kind = BY_NAME.get(move)
            if kind is None or kind not in self.shop:
                raise NotInShop(f"{move!r} is not sold in this game's shop")
            if _COST[kind] > self.coins[seat]:
                raise CannotAfford(
                    f"{move} costs {_COST[kind]} coins and you have {self.coins[seat]}"
                )
            return
        if type(move) is not int:
            what = "an amount to invest" if phase == INVESTING else "a card index"
            raise WrongPhase(f"this is the {phase} phase: the move is [{what}], not a name")
        if phase == INVESTING:
            if not 0 <= move <= self.coins[seat]:
                raise BadInvestment(
                    f"you may invest 0 to {self.coins[seat]} coins (what you have), not {move}"
                )
            return
        cards = self.cards[seat]
        attacking = self.attacker_card < 0
        if attacking and move == 0:
            return  # stop attacking
        if not 0 <= move < len(cards):
            top = len(cards) - 1
            raise IndexOutOfRange(
                f"your army has cards 0 to {top}; {move} is out of range"
                + (" (0 stops attacking)" if attacking else "")
            )
        kind = cards[move]
        name = _NAMES[kind]
        used = self.uses[seat][move]
        if attacking:
            if _ATTACKS[kind] == 0:
                raise CannotAttack(f"{name} cannot attack")
            if used >= _ATTACKS[kind]:
                raise CardUsedUp(f"{name} (card {move}) has already attacked this attack phase")
        else:
            if _DEFENDS[kind] == 0:
                raise CannotDefend(f"{name} cannot defend")
            if used >= _DEFENDS[kind]:
                times = "twice" if _DEFENDS[kind] == 2 else "already"
                raise CardUsedUp(f"{name} (card {move}) has {times} defended this attack phase")

    def _question(self) -> str:
        if self.phase == INVESTING:
            return "invest"
        if self.phase == BUY:
            return "buy"
        return "attack" if self.attacker_card < 0 else "defend"

    def apply(self, seat: int, move: Move, now: float = 0.0) -> list[Event]:
        """Make ``move`` for ``seat`` (refused, changing nothing, when the rules do not
        allow it) and return what happened."""
        # The hot path of every game: the common legal moves are recognised by direct
        # checks; anything else goes through :meth:`check`, which raises the refusal it
        # earns (or passes the rare legal rest, such as 0 to stop attacking).
        asked = self.asked
        if seat not in asked:
            self.check(seat, move)  # raises: the game is over, or the seat is not asked
        phase = self.phase
        if phase == INVESTING:
            if type(move) is not int or not 0 <= move <= self.coins[seat]:
                self.check(seat, move)
        elif phase == BUY:
            if move != PASS:
                kind = BY_NAME.get(move) if type(move) is str else None
                if kind is None or kind not in self.shop or _COST[kind] > self.coins[seat]:
                    self.check(seat, move)
        elif self.attacker_card < 0:
            cards = self.cards[seat]
            if (
                type(move) is not int
                or not 0 <= move < len(cards)
                or (move and self.uses[seat][move] >= _ATTACKS[cards[move]])
            ):
                self.check(seat, move)  # 0 stops attacking
            return self._attack_with(move)  # type: ignore[arg-type]  # an int, checked
        else:
            cards = self.cards[seat]
            if (
                type(move) is not int
                or not 0 <= move < len(cards)
                or self.uses[seat][move] >= _DEFENDS[cards[move]]
            ):
                self.check(seat, move)
        self.pending[seat] = move
        if len(asked) > 1:  # others still to choose: nothing is revealed yet
            self.asked = asked[1:] if asked[0] == seat else tuple([s for s in asked if s != seat])
            return [_CHOSE[seat]]
        events: list[Event] = []
        if phase == INVESTING:
            self._resolve_investing(events)
        elif phase == BUY:
            self._resolve_buy(events)
        else:
            self._resolve_fight(events)
        return events

    def apply_checked(self, seat: int, move: Move) -> list[Event]:
        """:meth:`apply` for a move already known to be legal (agents' look-ahead)."""
        phase = self.phase
        if phase == ATTACKING and self.attacker_card < 0:
            return self._attack_with(int(move))
        self.pending[seat] = move
        asked = self.asked
        if len(asked) > 1:
            self.asked = asked[1:] if asked[0] == seat else tuple([s for s in asked if s != seat])
            return [_CHOSE[seat]]
        return self._resolve(phase)

    def advance(self, now: float) -> list[Event]:
        return []

    def forfeit(self, seat: int) -> list[Event]:
        """Take ``seat`` out of the game (a fault, or a table's ``on_timeout="forfeit"``),
        as if eliminated, and go on: the game ends if one seat is left or someone now leads
        with 7 points or more; a fight or round waiting only for this seat resolves."""
        if self.phase == END:
            raise GameOver()
        if not 0 <= seat < self.n or not self.cards[seat]:
            raise NotYourTurn(f"seat {seat} is not in the game")
        self._eliminate((seat,))
        self.pending.pop(seat, None)
        events = [Event("forfeited", seat)]
        if self._check_winner(events):
            self.refresh()
            return events
        self.choosers = tuple(s for s in self.choosers if s != seat)
        if self.phase == ATTACKING and seat == self.attacker:
            self._end_attack(events)
            self.refresh()
            return events
        if self.phase == ATTACKING and self.attacker_card < 0:
            self.refresh()
            return events
        if len(self.pending) == len(self.choosers):
            events += self._resolve(self.phase)
        self.refresh()
        return events

    # ------------------------------------------------------------------ resolution

    def _resolve(self, phase: str) -> list[Event]:
        """Resolve the step every chooser has now chosen in (``phase``, the state's)."""
        events: list[Event] = []
        if phase == INVESTING:
            self._resolve_investing(events)
        elif phase == BUY:
            self._resolve_buy(events)
        else:
            self._resolve_fight(events)
        return events

    def _income(self) -> None:
        day = (self.day_count - 1) % 3
        income = _INCOME[day]
        bean = _BEAN
        third_day = day == 2
        coins, buys = self.coins, self.buys
        for seat, cards in enumerate(self.cards):
            if not cards:
                continue
            c = coins[seat]
            for k in cards:
                c += income[k]
                if bean[k]:  # a third of the coins so far
                    c += c // 3
            coins[seat] = c
            b = 1
            if third_day:
                for k in cards:
                    b += _DAY3_BUYS[k]
            buys[seat] = b

    def _start_investing(self) -> None:
        self.phase = INVESTING
        self.pending = {}
        self.choosers = self.asked = tuple(compress(range(self.n), self.cards))  # in the game

    def _resolve_investing(self, events: list[Event]) -> None:
        pending = self.pending
        coins = self.coins
        amounts: list[int | None] = [None] * self.n
        top, attacker = -1, None
        for seat, amount in pending.items():
            paid: int = amount  # type: ignore[assignment]  # an int: apply checked its type
            coins[seat] -= paid
            amounts[seat] = paid
            if paid > top:
                top, attacker = paid, seat
            elif paid == top:
                attacker = None
        events.append(_event("invested", None, {"amounts": amounts, "attacker": attacker}))
        self.pending = {}
        if attacker is None:
            self._start_buy()
            return
        self.phase = ATTACKING
        self.attacker = attacker
        self.attacker_card = -1
        self.choosers = ()
        self.asked = (attacker,)
        if not self.can_attack(attacker):
            self._end_attack(events)

    def _attack_with(self, index: int) -> list[Event]:
        attacker = self.attacker
        if index == 0:
            events = [_STOPPED[attacker]]
            self._end_attack(events)
            return events
        cards, uses = self.cards, self.uses
        uses[attacker][index] += 1
        self.attacker_card = index
        kind = cards[attacker][index]
        key = (index * 4 + attacker) * 16 + kind
        event = _ATTACK_EVENTS.get(key)
        if event is None:
            event = _event("attacks", attacker, {"card": index, "name": _NAMES[kind]})
            _ATTACK_EVENTS[key] = event
        events = [event]
        self.pending = {}
        defends = _DEFENDS
        choosers = []
        for seat in range(self.n):  # every other seat with a usable defender
            if seat != attacker:
                used = uses[seat]
                for i, k in enumerate(cards[seat]):
                    if used[i] < defends[k]:
                        choosers.append(seat)
                        break
        if choosers:
            self.choosers = self.asked = tuple(choosers)
            return events
        self.choosers = ()
        self._resolve_fight(events)
        return events

    def _resolve_fight(self, events: list[Event]) -> None:
        attacker, index = self.attacker, self.attacker_card
        attack, defence = self.attack_values, _DEFENCE
        kind = self.cards[attacker][index]
        hits, guards = attack[kind], defence[kind]
        attacker_faints = False
        defenders: dict[str, list[Any]] = {}
        fainted: list[list[Any]] = []
        pending, cards, uses, coins = self.pending, self.cards, self.uses, self.coins
        for seat in self.choosers:  # every defender chose; in seat order
            i: int = pending[seat]  # type: ignore[assignment]  # an int: apply checked its type
            k = cards[seat][i]
            uses[seat][i] += 1
            coins[seat] += _GREED[k]
            name = _NAMES[k]
            defenders[_KEY[seat]] = [i, name]
            if attack[k] > guards:
                attacker_faints = True
            if hits > defence[k]:
                fainted.append([seat, i, name])
        score, lost = self.score, False  # lost: points left an army
        for seat, i, _ in fainted:
            points = _POINTS[cards[seat][i]]
            if points:
                score[seat] -= points
                lost = True
            del cards[seat][i]
            del uses[seat][i]
        out: tuple[int, ...] = ()  # a seat with no usable defender is eliminated
        for s in range(self.n):
            if s != attacker and cards[s] and s not in pending:
                out += (s,)
        if attacker_faints:
            fainted.insert(0, [attacker, index, _NAMES[kind]])
            if _POINTS[kind]:
                score[attacker] -= _POINTS[kind]
                lost = True
            del cards[attacker][index]
            del uses[attacker][index]
        if out:
            self._eliminate(out)
        events.append(
            _event(
                "fight",
                attacker,
                {
                    "card": index,
                    "name": _NAMES[kind],
                    "defenders": defenders,
                    "fainted": fainted,
                    "eliminated": list(out),
                },
            )
        )
        self.pending = {}
        self.choosers = ()
        self.attacker_card = -1
        if (lost or out) and self._check_winner(events):  # else no seat's points or
            return  # place changed: nobody has won since the last check
        attacks, used = _ATTACKS, uses[attacker]
        for i, k in enumerate(cards[attacker]):  # can_attack(attacker), without the call
            if used[i] < attacks[k]:
                self.asked = (attacker,)
                return
        self._end_attack(events)

    def _eliminate(self, seats: tuple[int, ...]) -> None:
        for seat in seats:
            self.cards[seat] = []
            self.uses[seat] = []
            self.coins[seat] = 0
            self.buys[seat] = 0
            self.score[seat] = 0
        self.eliminated.append(seats)

    def _end_attack(self, events: list[Event]) -> None:
        for uses in self.uses:
            if any(uses):
                uses[:] = [0] * len(uses)
        self.attacker_card = -1
        self._start_buy()

    def _start_buy(self) -> None:
        self.phase = BUY
        self.pending = {}
        self._ask_buyers([])

    def _resolve_buy(self, events: list[Event]) -> None:
        pending = self.pending
        wanted: dict[int, list[int]] = {}
        coins, buys = self.coins, self.buys
        more = False  # whether a buyer has a buy left
        for seat, name in pending.items():
            left = buys[seat] - 1
            buys[seat] = left
            if left > 0:
                more = True
            if name != PASS:
                kind = BY_NAME[name]  # type: ignore[index]
                coins[seat] -= _COST[kind]
                wanted.setdefault(kind, []).append(seat)
        shop = self.shop
        got: dict[str, str] = {}
        scored = False  # whether points came into an army
        if wanted:
            cards, uses, score = self.cards, self.uses, self.score
            for kind, seats in wanted.items():
                if len(seats) <= shop[kind]:
                    shop[kind] -= len(seats)
                    points = _POINTS[kind]
                    for seat in seats:
                        cards[seat].append(kind)
                        uses[seat].append(0)
                        score[seat] += points
                        got[_KEY[seat]] = _NAMES[kind]
                    if points:
                        scored = True
                else:
                    shop[kind] = 0
        choices = {}
        for s in self.choosers:  # every buyer chose; in seat order
            choices[_KEY[s]] = pending[s]
        events.append(_event("bought", None, {"choices": choices, "got": got}))
        self.pending = {}
        if scored and self._check_winner(events):  # no seat's points changed: nobody has
            return  # won since the last check (after the last fight or buy round)
        if more:  # the buyers with a buy left (every other seat had none this round)
            choosers = []
            for s in self.choosers:
                if buys[s] > 0:
                    choosers.append(s)
            self.choosers = self.asked = tuple(choosers)
        else:
            self._end_day(events)

    def _ask_buyers(self, events: list[Event]) -> None:
        """Ask every seat in the game with a buy left; the day ends when there is none."""
        cards, buys = self.cards, self.buys
        choosers = []
        for s in range(self.n):
            if cards[s] and buys[s] > 0:
                choosers.append(s)
        if choosers:
            self.choosers = self.asked = tuple(choosers)
        else:
            self._end_day(events)

    def _end_day(self, events: list[Event]) -> None:
        """The day ends (nobody has a buy left): a draw at the day limit, else the next
        day's income and everyone in the game asked to invest."""
        cards = self.cards
        if self.day_count >= self.rules.day_limit:
            self._finish(None, "day_limit", events)
            return
        self.day_count += 1
        self._income()
        self.phase = INVESTING  # as _start_investing
        self.pending = {}
        self.choosers = self.asked = tuple(compress(range(self.n), cards))  # in the game

    def _check_winner(self, events: list[Event]) -> bool:
        best, leader, tied, alive, last = -1, -1, False, 0, -1
        score = self.score
        for seat, army in enumerate(self.cards):
            if not army:
                continue
            alive += 1
            last = seat
            p = score[seat]
            if p > best:
                best, leader, tied = p, seat, False
            elif p == best:
                tied = True
        if alive == 1:
            self._finish(last, "last_standing", events)
            return True
        if best >= POINTS_TO_WIN and not tied:
            self._finish(leader, "points", events)
            return True
        return False

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.phase = END
        self.over = True
        self.winner = winner
        self.reason = reason
        self.pending = {}
        self.choosers = self.asked = ()
        self.attacker = -1
        self.attacker_card = -1
        events.append(_event("game_over", winner, {"reason": reason}))

    # ------------------------------------------------------------------ views

    def phase_json(self) -> dict[str, Any]:
        phase = self.phase
        if phase == ATTACKING:
            card: int | bool = self.attacker_card if self.attacker_card >= 0 else False
            return {
                "name": ATTACKING,
                "attacker": self.attacker,
                "attacker_card": card,
                "attacker-card": card,
            }
        if phase == END:
            return {"name": END, "winner": False if self.winner is None else self.winner}
        return {"name": phase}

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The protocol's state JSON as ``viewer`` may see it (``player`` is ``None`` for a
        spectator). Choices not yet revealed are in nobody's view."""
        names = _NAMES
        return {
            "day": (self.day_count - 1) % 3 + 1,
            "phase": self.phase_json(),
            "shop": {names[k]: count for k, count in self.shop.items()},
            "players": [
                {
                    "coins": self.coins[s],
                    "buys": self.buys[s],
                    "cards": [
                        {"name": names[k], "uses": u}
                        for k, u in zip(self.cards[s], self.uses[s], strict=True)
                    ],
                }
                for s in range(self.n)
            ],
            "player": viewer,
        }

    def view_text(self, viewer: Viewer) -> str:
        """:meth:`view` as compact JSON text, the very string ``json.dumps(view,
        separators=(",", ":"), ensure_ascii=False)`` gives (a test checks it at every step
        of random games), built from ready-made pieces: the referee sends one to a
        program before every move."""
        phase = self.phase
        if phase == ATTACKING:
            card = "false" if self.attacker_card < 0 else str(self.attacker_card)
            phase_text = (
                f'{{"name":"attacking","attacker":{self.attacker},'
                f'"attacker_card":{card},"attacker-card":{card}}}'
            )
        elif phase == END:
            winner = "false" if self.winner is None else str(self.winner)
            phase_text = f'{{"name":"end","winner":{winner}}}'
        else:
            phase_text = _PHASE_TEXT.get(phase) or _json_text({"name": phase})
        name = _NAME_TEXT
        shop = ",".join([f"{name[k]}:{count}" for k, count in self.shop.items()])
        players = []
        coins, buys = self.coins, self.buys
        for s in range(self.n):
            cards = ",".join(
                [
                    _CARD_TEXT[k][u] if 0 <= u < 3 else f'{{"name":{name[k]},"uses":{u}}}'
                    for k, u in zip(self.cards[s], self.uses[s], strict=True)
                ]
            )
            players.append(f'{{"coins":{coins[s]},"buys":{buys[s]},"cards":[{cards}]}}')
        player = "null" if viewer is None else str(viewer)
        return (
            f'{{"day":{(self.day_count - 1) % 3 + 1},"phase":{phase_text},'
            f'"shop":{{{shop}}},"players":[{",".join(players)}],"player":{player}}}'
        )

    def result(self) -> Result | None:
        """Places: the winner first; seats still in the game next, tied; then the
        eliminated, those who lasted longer first (a fight's eliminations tie). A draw at
        the day limit puts every seat still in the game first."""
        if self.phase != END:
            return None
        places = [0] * self.n
        standing = [s for s in range(self.n) if self.cards[s]]
        place = 1
        if self.winner is not None:
            places[self.winner] = 1
            place = 2
            standing.remove(self.winner)
        for seat in standing:
            places[seat] = place
        place += len(standing)
        for group in reversed(self.eliminated):
            for seat in group:
                places[seat] = place
            place += len(group)
        scores = tuple(float(card_points(self.cards[s])) for s in range(self.n))
        return Result(tuple(places), self.reason, scores)

    # ------------------------------------------------------------------ copies and storage

    def clone(self) -> EconomancyState:
        """An independent copy (for agents' look-ahead)."""
        other = EconomancyState.__new__(EconomancyState)
        other.rules = self.rules
        other.n = self.n
        other.attack_values = self.attack_values
        other.day_count = self.day_count
        other.phase = self.phase
        other.over = self.over
        other.shop = dict(self.shop)
        other.buy_shop = other.shop
        other.buy_moves = (
            self.buy_moves if self.buy_shop is self.shop else _buy_moves(tuple(other.shop))
        )
        other.coins = list(self.coins)
        other.buys = list(self.buys)
        other.cards = [list(c) for c in self.cards]
        other.uses = [list(u) for u in self.uses]
        other.score = list(self.score)
        other.pending = dict(self.pending)
        other.choosers = self.choosers
        other.asked = self.asked
        other.attacker = self.attacker
        other.attacker_card = self.attacker_card
        other.winner = self.winner
        other.reason = self.reason
        other.eliminated = list(self.eliminated)
        return other

    def to_dict(self) -> dict[str, Any]:
        """Everything, hidden choices included: for storage only."""
        return {
            "version": 1,
            "rules": self.rules.to_dict(),
            "n_seats": self.n,
            "day_count": self.day_count,
            "phase": self.phase,
            "shop": {_NAMES[k]: c for k, c in self.shop.items()},
            "coins": list(self.coins),
            "buys": list(self.buys),
            "cards": [[_NAMES[k] for k in cards] for cards in self.cards],
            "uses": [list(u) for u in self.uses],
            "pending": {str(s): m for s, m in sorted(self.pending.items())},
            "choosers": list(self.choosers),
            "attacker": self.attacker,
            "attacker_card": self.attacker_card,
            "winner": self.winner,
            "reason": self.reason,
            "eliminated": [list(g) for g in self.eliminated],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EconomancyState:
        """The state :meth:`to_dict` wrote; ``ValueError`` naming what does not hold."""
        try:
            rules = EconomancyRules.from_dict(data["rules"])
            n = int(data["n_seats"])
            state = cls(rules, n)
            state.day_count = int(data["day_count"])
            state.phase = str(data["phase"])
            state.shop = {BY_NAME[name]: int(c) for name, c in data["shop"].items()}
            state.coins = [int(c) for c in data["coins"]]
            state.buys = [int(b) for b in data["buys"]]
            state.cards = [[BY_NAME[name] for name in cards] for cards in data["cards"]]
            state.uses = [[int(u) for u in uses] for uses in data["uses"]]
            state.pending = {int(s): m for s, m in data["pending"].items()}
            state.choosers = tuple(int(s) for s in data["choosers"])
            state.attacker = int(data["attacker"])
            state.attacker_card = int(data["attacker_card"])
            winner = data["winner"]
            state.winner = None if winner is None else int(winner)
            state.reason = str(data["reason"])
            state.eliminated = [tuple(int(s) for s in g) for g in data["eliminated"]]
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a stored Economancy state: {exc!r}") from None
        state.validate()
        return state

    def validate(self) -> None:
        """Check every invariant (and :meth:`refresh`); ``ValueError`` naming the first
        that fails."""
        self.refresh()
        n = self.n
        problems = []
        if not 2 <= n <= 4:
            problems.append(f"{n} seats (2 to 4)")
        if self.phase not in PHASES:
            problems.append(f"phase {self.phase!r}")
        if set(self.shop) != set(self.rules.shop_kinds):
            problems.append("the shop's cards differ from the rules' card set")
        if any(c < 0 for c in self.shop.values()):
            problems.append("a negative shop count")
        for name, column in (("coins", self.coins), ("buys", self.buys), ("cards", self.cards)):
            if len(column) != n:
                problems.append(f"{name} for {len(column)} seats")
        if not problems:
            for s in range(n):
                cards, uses = self.cards[s], self.uses[s]
                if self.coins[s] < 0 or self.buys[s] < 0:
                    problems.append(f"seat {s} has negative coins or buys")
                if len(uses) != len(cards):
                    problems.append(f"seat {s}'s uses do not match its cards")
                if cards and (cards[0] != STIPEND or STIPEND in cards[1:]):
                    problems.append(f"seat {s}'s army does not start with the only Stipend")
                if not cards and (self.coins[s] or self.buys[s]):
                    problems.append(f"seat {s} is out but keeps coins or buys")
            if any(s not in self.choosers for s in self.pending):
                problems.append("a pending choice from a seat that was not asked")
        if problems:
            raise ValueError("invalid Economancy state: " + "; ".join(problems))
        for seat, move in list(self.pending.items()):  # each hidden choice was legal
            saved = dict(self.pending)
            del self.pending[seat]
            self.refresh()
            try:
                self.check(seat, move)
            except Exception as exc:
                raise ValueError(f"invalid Economancy state: seat {seat}'s choice: {exc}") from None
            finally:
                self.pending = saved
                self.refresh()

    @classmethod
    def from_view(cls, view: Mapping[str, Any], rules: EconomancyRules) -> EconomancyState:
        """The state a seat's view shows (what a player program knows), with no hidden
        choice made yet: for agents that look ahead. ``rules`` supplies what a view does
        not say (Bubble's attack, the day limit); its card set must match the view's shop.
        The card set is read from the shop. The absolute day is unknown: the first
        cycle's day is assumed."""
        n = len(view["players"])
        base = any(not CARDS[BY_NAME[name]].simple for name in view["shop"])
        state = cls(replace(rules, cards="base" if base else "simple"), n)
        state.day_count = int(view["day"])
        state.shop = {BY_NAME[name]: int(c) for name, c in view["shop"].items()}
        players = view["players"]
        state.coins = [int(p["coins"]) for p in players]
        state.buys = [int(p["buys"]) for p in players]
        state.cards = [[BY_NAME[c["name"]] for c in p["cards"]] for p in players]
        state.uses = [[int(c["uses"]) for c in p["cards"]] for p in players]
        phase = view["phase"]
        name = phase["name"]
        state.phase = name
        if name == INVESTING:
            state.choosers = tuple(s for s in range(n) if state.cards[s])
        elif name == BUY:
            state.choosers = tuple(s for s in range(n) if state.cards[s] and state.buys[s] > 0)
        elif name == ATTACKING:
            state.attacker = int(phase["attacker"])
            card = phase.get("attacker_card", phase.get("attacker-card", False))
            state.attacker_card = -1 if card is False or card is None else int(card)
            if state.attacker_card >= 0:
                state.choosers = tuple(
                    s
                    for s in range(n)
                    if s != state.attacker and state.cards[s] and state.can_defend(s)
                )
        else:
            winner = phase.get("winner", False)
            state.winner = None if winner is False else int(winner)
        state.refresh()
        return state
