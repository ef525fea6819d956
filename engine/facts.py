"""The facts of Blef, declared once: the deck, the limits, the special action ids.

Everything else in the project reads these names instead of repeating the numbers.

>>> len(DECK), DECK[0], DECK[-1]
(24, Card(9♣), Card(A♠))
>>> [max_cards(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
[11, 8, 6, 4, 4, 3, 3]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final


class Value(IntEnum):
    """Card values in rising seniority, encoded 0..5 as the API does."""

    NINE = 0
    TEN = 1
    JACK = 2
    QUEEN = 3
    KING = 4
    ACE = 5

    @property
    def symbol(self) -> str:
        return _VALUE_SYMBOLS[self]

    @property
    def plural(self) -> str:
        return _VALUE_PLURALS[self]


class Colour(IntEnum):
    """Card colours (suits) in rising seniority, encoded 0..3 as the API does."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return _COLOUR_SYMBOLS[self]


_VALUE_SYMBOLS: Final = ("9", "10", "J", "Q", "K", "A")
_VALUE_PLURALS: Final = ("nines", "tens", "jacks", "queens", "kings", "aces")
_COLOUR_SYMBOLS: Final = ("♣", "♦", "♥", "♠")

N_VALUES: Final = 6
N_COLOURS: Final = 4
N_CARDS: Final = N_VALUES * N_COLOURS


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 24 cards. ``index`` (value * 4 + colour) orders the deck and is its bit."""

    value: Value
    colour: Colour

    @property
    def index(self) -> int:
        return self.value * N_COLOURS + self.colour

    @property
    def bit(self) -> int:
        return 1 << (self.value * N_COLOURS + self.colour)

    def to_dict(self) -> dict[str, int]:
        return {"value": int(self.value), "colour": int(self.colour)}

    def __repr__(self) -> str:
        return f"Card({self.value.symbol}{self.colour.symbol})"


DECK: Final[tuple[Card, ...]] = tuple(Card(v, c) for v in Value for c in Colour)
"""The 24 cards in index order: DECK[card.index] is card."""


COLOUR_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << (v * N_COLOURS + c) for v in range(N_VALUES)) for c in range(N_COLOURS)
)
"""Every card of each colour (clubs, diamonds, hearts, spades) as a 24-bit mask."""


def card_from_index(index: int) -> Card:
    return DECK[index]


def mask_of(cards: tuple[Card, ...] | list[Card]) -> int:
    """The 24-bit set of ``cards`` (bit ``card.index`` set for each card)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.value * N_COLOURS + card.colour)
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set in ``mask``, in deck order."""
    return tuple(DECK[i] for i in range(N_CARDS) if mask >> i & 1)


MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
N_BETS: Final = 88
"""Bets are the action ids 0..87, in rising seniority."""
CHECK: Final = 88
"""The action id of a check."""
LOST_ROUND: Final = 89
"""The history event id meaning "this player lost the round". Never a legal action."""
MAX_NICKNAME_LENGTH: Final = 64

NICKNAME_PATTERN: Final = re.compile(
    rf"(?=.{{1,{MAX_NICKNAME_LENGTH}}}\Z)[^\W\d_][^\W_]*(?:_[^\W_]+)*", re.DOTALL
)
"""A human nickname, as the service stores it (NFC-normalised): a Unicode letter first, then
Unicode letters and digits, with single underscores between the parts (none leading, doubled
or trailing); 1..64 characters (the established apps generate names of 33 characters and
more, ``Inconceivable_Ichabodcraniosaurus``). Python's word characters stand for letters and
digits here; engine/names.py holds the exact rule, with a reason for each refusal, and never
accepts what this pattern refuses."""
AI_NICKNAME_PATTERN: Final = re.compile(r"[A-Za-z][A-Za-z0-9]*(_[2-8])?_\(AI\)")
"""The nickname the service gives an AI player: ``Name_(AI)``, then ``Name_2_(AI)``, ..."""


def max_cards(n_players: int) -> int:
    """The most cards a player may hold in a game that started with ``n_players``.

    floor(24 / n), except 11 (not 12) for two players, so that the two hands never
    hold the whole deck.
    """
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS}..{MAX_PLAYERS} players, not {n_players}")
    return 11 if n_players == 2 else N_CARDS // n_players


class Status(StrEnum):
    """The three states of a game, spelled as the API spells them."""

    NOT_STARTED = "Not started"
    RUNNING = "Running"
    FINISHED = "Finished"


def next_in_play(cards: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` whose player still holds cards (someone must)."""
    n = len(cards)
    seat = (seat + 1) % n
    while not cards[seat]:
        seat = (seat + 1) % n
    return seat


def sides_left(teams: Sequence[int | None], cards: Sequence[int]) -> int:
    """How many sides still hold cards: each team once, each player on their own once."""
    return len(
        {
            ("solo", i) if t is None else t
            for i, (t, c) in enumerate(zip(teams, cards, strict=True))
            if c
        }
    )
