"""A game's rules as one immutable value: the deck, the wild and dead cards, the common
cards, the maximum of cards and the cards each player starts with.

``Rules()`` is the classic game of 24 cards, bit for bit: the same 88 bets, the same action
ids (check 88, lost round 89), the same deal, the same maximum. Every variant is a ``Rules``
with other values; the rules decide the deck, the table of sets (:attr:`Rules.table`), the
action ids and the maximum of cards (:meth:`Rules.max_cards_for`).

>>> Rules().check, Rules().lost_round, Rules(deck_size=32).check
(88, 89, 140)
>>> [Rules().max_cards_for(n) for n in range(2, 9)]
[11, 8, 6, 4, 4, 3, 3]
>>> Rules(deck_size=32, jokers=2).card_dict(32), Rules(blanks=1).card_dict(24)
({'value': -1, 'colour': -1}, {'value': -2, 'colour': -2})
>>> Rules(common_cards=GROWING).common_count([3, 1, 0, 2])
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from engine.errors import InvalidRules
from engine.facts import MAX_PLAYERS, MIN_PLAYERS, N_COLOURS
from engine.sets import SetTable, table_for

DECK_SIZES: Final = (24, 32)
MAX_JOKERS: Final = 12
MAX_BLANKS: Final = 12
MAX_COMMON: Final = 12
MAX_HAND: Final = 11
"""Nobody ever holds more than 11 cards, whatever the deck."""

GROWING: Final = -1
"""``common_cards`` rule: 1 + a third of the cards players hold beyond their first."""
SLOWLY_GROWING: Final = -2
"""``common_cards`` rule: 1 + a fifth of the cards players hold beyond their first."""
_GROWTH_DIVISOR: Final = {GROWING: 3, SLOWLY_GROWING: 5}

JOKER_VALUE: Final = -1
BLANK_VALUE: Final = -2


class CardKind(Enum):
    """What a dealt card is: a card of the deck, a joker (wild), or a blank (dead)."""

    CARD = "card"
    JOKER = "joker"
    BLANK = "blank"


class RandomInitial(Enum):
    """``initial_cards="random"``: each player starts with 1..maximum cards, drawn from the
    game's first seed."""

    RANDOM = "random"


InitialCards = int | RandomInitial | tuple[tuple[str, int], ...] | None
"""None (everyone starts with one card), a number for everyone, random, or per nickname."""


_INT_RULES: Final = ("deck_size", "jokers", "blanks", "common_cards", "max_cards")


def _is_int(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game is played by. Construct with keyword values; every value is checked.

    - ``deck_size``: 24 (9, 10, J, Q, K, A) or 32 (7, 8, 9, 10, J, Q, K, A), four colours.
    - ``jokers``: 0..12 wild cards shuffled in. A check counts as wild only the jokers in
      the bettor's own hand and among the common cards.
    - ``blanks``: 0..12 dead cards shuffled in: they take a place in a hand and count for
      nothing.
    - ``common_cards``: 0..12 cards dealt face up after the hands each round, seen by
      everyone and counting for every set; or :data:`GROWING` / :data:`SLOWLY_GROWING`.
    - ``max_cards``: 0 (the rule's maximum) or a preference 1..11, capped by what the deck
      allows for the players seated at the start.
    - ``initial_cards``: what each player holds in round 1 (see :data:`InitialCards`).

    A time limit is not among them: the engine reads no clock. The service around it keeps
    a game's time limit and calls ``Game.time_out`` when the time is up.
    """

    deck_size: int = 24
    jokers: int = 0
    blanks: int = 0
    common_cards: int = 0
    max_cards: int = 0
    initial_cards: InitialCards = None
    n_bets: int = field(init=False, repr=False, compare=False)
    """How many sets there are to bet on: 88 with 24 cards, 140 with 32."""
    check: int = field(init=False, repr=False, compare=False)
    """The action id of a check: 88 with 24 cards, 140 with 32."""
    lost_round: int = field(init=False, repr=False, compare=False)
    """The history event "this player lost the round": 89 with 24 cards, 141 with 32."""
    is_classic: bool = field(init=False, repr=False, compare=False)
    """Whether the cards are the classic game's (the maximum and the start aside): 24 cards,
    no joker, no blank, no common card."""
    _tops: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    """:meth:`max_cards_for` by number of players, as it is first asked (games start often;
    the rules cannot change)."""

    def __post_init__(self) -> None:
        for name in _INT_RULES:
            if not _is_int(getattr(self, name)):
                raise InvalidRules("Every rule must be an integer")
        if self.deck_size not in DECK_SIZES:
            raise InvalidRules("deck_size must be 24 or 32")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise InvalidRules(f"jokers must be between 0 and {MAX_JOKERS}")
        if not 0 <= self.blanks <= MAX_BLANKS:
            raise InvalidRules(f"blanks must be between 0 and {MAX_BLANKS}")
        if not (0 <= self.common_cards <= MAX_COMMON or self.common_cards in _GROWTH_DIVISOR):
            raise InvalidRules(
                f"common_cards must be between 0 and {MAX_COMMON}, or -1 (increasing)"
                " or -2 (slowly increasing)"
            )
        if not 0 <= self.max_cards <= MAX_HAND:
            raise InvalidRules(f"max_cards must be 0 (no preference) or between 1 and {MAX_HAND}")
        initial = self.initial_cards
        if _is_int(initial):
            assert isinstance(initial, int)
            if not 1 <= initial <= MAX_HAND:
                raise InvalidRules(f"initial_cards must be between 1 and {MAX_HAND}")
        elif isinstance(initial, tuple):
            names = [name.casefold() for name, _ in initial]
            if len(set(names)) != len(names) or not initial:
                raise InvalidRules("initial_cards names each player at most once")
            for name, count in initial:
                if not isinstance(name, str) or not _is_int(count) or not 1 <= count <= MAX_HAND:
                    raise InvalidRules(f"initial_cards must be between 1 and {MAX_HAND}")
        elif initial is not None and not isinstance(initial, RandomInitial):
            raise InvalidRules("initial_cards must be a number, 'random' or 'nick:count,...'")
        n_bets = 88 if self.deck_size == 24 else 140  # table_for(deck_size).n_bets, tested
        object.__setattr__(self, "n_bets", n_bets)
        object.__setattr__(self, "check", n_bets)
        object.__setattr__(self, "lost_round", n_bets + 1)
        classic = n_bets == 88 and not (self.jokers or self.blanks or self.common_cards)
        object.__setattr__(self, "is_classic", classic)

    # ------------------------------------------------------------------ the deck

    @property
    def n_values(self) -> int:
        return self.deck_size // N_COLOURS

    @property
    def total_cards(self) -> int:
        """Every card shuffled: the deck, the jokers and the blanks."""
        return self.deck_size + self.jokers + self.blanks

    def kind_of(self, index: int) -> CardKind:
        """What the card of deck index ``index`` is: indices 0..deck_size-1 are the deck
        (value * 4 + colour), then come the jokers, then the blanks."""
        if index < self.deck_size:
            return CardKind.CARD
        if index < self.deck_size + self.jokers:
            return CardKind.JOKER
        return CardKind.BLANK

    def card_dict(self, index: int) -> dict[str, int]:
        """The card of deck index ``index`` as the API shows it (a joker is value and
        colour -1, a blank -2)."""
        if index < self.deck_size:
            return {"value": index // N_COLOURS, "colour": index % N_COLOURS}
        if index < self.deck_size + self.jokers:
            return {"value": JOKER_VALUE, "colour": JOKER_VALUE}
        return {"value": BLANK_VALUE, "colour": BLANK_VALUE}

    def index_of(self, card: Mapping[str, Any], jokers_seen: int = 0, blanks_seen: int = 0) -> int:
        """The deck index of an API card dict; the ``k``-th joker (blank) of a hand listing
        is told by how many were seen before it. ValueError for a card not in this deck."""
        value, colour = card.get("value"), card.get("colour")
        if not (_is_int(value) and _is_int(colour)):
            raise ValueError("a card's value and colour are integers")
        assert isinstance(value, int)
        assert isinstance(colour, int)
        if value == JOKER_VALUE and colour == JOKER_VALUE and jokers_seen < self.jokers:
            return self.deck_size + jokers_seen
        if value == BLANK_VALUE and colour == BLANK_VALUE and blanks_seen < self.blanks:
            return self.deck_size + self.jokers + blanks_seen
        if 0 <= value < self.n_values and 0 <= colour < N_COLOURS:
            return value * N_COLOURS + colour
        raise ValueError("no such card in this deck")

    # ------------------------------------------------------------------ the sets

    @property
    def table(self) -> SetTable:
        """The sets of this deck, in rising seniority (88 for 24 cards, 140 for 32)."""
        return table_for(self.deck_size)

    # ------------------------------------------------------------------ the counts

    def common_count(self, card_counts: Sequence[int]) -> int:
        """How many common cards a round with these hands gets."""
        divisor = _GROWTH_DIVISOR.get(self.common_cards)
        if divisor is None:
            return self.common_cards
        return 1 + sum(c - 1 for c in card_counts if c) // divisor

    def _fits(self, top: int, n_players: int, total: int) -> bool:
        """Whether every player at ``top`` cards, with the common cards, fits in ``total``."""
        return top * n_players + self.common_count([top] * n_players) <= total

    def max_cards_for(self, n_players: int) -> int:
        """The most cards a player may hold in a game that started with ``n_players``.

        The largest hand that lets every player hold it, the common cards beside them, and
        at most 11; with jokers and no preference, counted on a smaller deck so that a hand
        is not mostly jokers. A preference (``max_cards``) lowers it, never raises it. 0
        means no game can be dealt with these rules and players (start refuses it).
        """
        top = self._tops.get(n_players)
        if top is None:
            top = self._tops[n_players] = self._max_cards_for(n_players)
        return top

    def _max_cards_for(self, n_players: int) -> int:
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS}..{MAX_PLAYERS} players, not {n_players}")
        total = self.total_cards
        if self.jokers and not self.max_cards:
            total = min(
                (self.deck_size + self.blanks + self.jokers) * 5 // (5 + self.jokers + 1),
                self.deck_size,
            )
        top = 0  # (two players of 24 cards: 11, not 12, so the hands never hold the deck)
        while top < MAX_HAND and self._fits(top + 1, n_players, total):
            top += 1
        return min(top, self.max_cards) if self.max_cards else top

    def starting_cards(self, nicknames: Sequence[str], top: int, draw: int) -> list[int]:
        """What each player holds in round 1 (``draw``: a random number for ``random``)."""
        initial = self.initial_cards
        if initial is None:
            return [1] * len(nicknames)
        if isinstance(initial, int):
            counts = [initial] * len(nicknames)
        elif isinstance(initial, RandomInitial):
            counts = []
            for _ in nicknames:
                draw, k = divmod(draw, top)
                counts.append(k + 1)
        else:
            chosen = {name.casefold(): count for name, count in initial}
            counts = [chosen.get(n.casefold(), 1) for n in nicknames]
        if any(c > top for c in counts):
            raise InvalidRules(f"initial_cards must be between 1 and the maximum, {top}")
        return counts

    # ------------------------------------------------------------------ the format

    def to_dict(self) -> dict[str, Any]:
        """The rules as the API shows them and stores keep them (all integers but
        ``initial_cards``: null, a number, ``"random"`` or ``"nick:count,..."``)."""
        return {
            "deck_size": self.deck_size,
            "jokers": self.jokers,
            "blanks": self.blanks,
            "common_cards": self.common_cards,
            "max_cards": self.max_cards,
            "initial_cards": initial_text(self.initial_cards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """The rules :meth:`to_dict` wrote (missing keys take their defaults)."""
        values = {k: data[k] for k in _INT_RULES if k in data}
        return cls(**values, initial_cards=parse_initial(data.get("initial_cards")))

    def renamed(self, nickname: str, new: str) -> Rules:
        """These rules with the player ``nickname`` (matched ignoring case, as the rule
        reads names) called ``new`` in ``initial_cards``; the same rules if it names nobody."""
        initial = self.initial_cards
        if not isinstance(initial, tuple):
            return self
        folded = nickname.casefold()
        pairs = tuple((new if n.casefold() == folded else n, c) for n, c in initial)
        return self if pairs == initial else self.but(initial_cards=pairs)

    def but(self, **changes: Any) -> Rules:
        """These rules with some values changed (checked as any new rules are)."""
        values = {k: getattr(self, k) for k in (*_INT_RULES, "initial_cards")}
        values.update(changes)
        return Rules(**values)


RULE_NAMES: Final = (*_INT_RULES, "initial_cards")


def initial_text(initial: InitialCards) -> int | str | None:
    """``initial_cards`` as written in the API: a number, ``random``, ``nick:count,...``."""
    if initial is None or isinstance(initial, int):
        return initial
    if isinstance(initial, RandomInitial):
        return "random"
    return ",".join(f"{name}:{count}" for name, count in initial)


def parse_initial(value: object) -> InitialCards:
    """``initial_cards`` from the API's forms; 0 (or null) unsets it. InvalidRules if bad."""
    if value is None:
        return None
    if _is_int(value):
        assert isinstance(value, int)
        return value or None
    if not isinstance(value, str):
        raise InvalidRules("initial_cards must be a number, 'random' or 'nick:count,...'")
    text = value.strip()
    if text in {"", "0"}:
        return None
    if text.lower() == RandomInitial.RANDOM.value:
        return RandomInitial.RANDOM
    if text.isdigit():
        return int(text)
    pairs: list[tuple[str, int]] = []
    for part in text.split(","):
        name, sep, count = part.strip().rpartition(":")
        if not sep or not name or not count.strip().isdigit():
            raise InvalidRules("initial_cards must be a number, 'random' or 'nick:count,...'")
        pairs.append((name.strip(), int(count)))
    return tuple(pairs)


CLASSIC: Final = Rules()
"""The classic game."""
