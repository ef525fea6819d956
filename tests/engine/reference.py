"""Independent, deliberately plain re-implementations of the rules, for checking the engine.

Nothing here imports the engine's set table or dealing code: the sets are written out from
the table of sets as the established service orders them (docs/rules.md) and the deal from
the algorithm documented in the docstring of :mod:`engine.dealing`. Speed does not matter.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence

# Values 9 10 J Q K A are 0..5; colours clubs diamonds hearts spades are 0..3.
VALUES = range(6)
COLOURS = range(4)
VALUE_NAMES = ("nines", "tens", "jacks", "queens", "kings", "aces")
SMALL = (0, 1, 2, 3, 4)
BIG = (1, 2, 3, 4, 5)
GREAT = (0, 1, 2, 3, 4, 5)

# Two pair X and Y with X more senior than Y, ordered by X then Y.
TWO_PAIRS = [(x, y) for x in VALUES for y in VALUES if y < x]
# Full house X over Y with X != Y, ordered by X then Y.
FULL_HOUSES = [(x, y) for x in VALUES for y in VALUES if x != y]


def describe(action_id: int) -> tuple[str, tuple[int, ...], int | None]:
    """What bet ``action_id`` is, as (kind, values, colour), from the reference table."""
    a = action_id
    if 0 <= a <= 5:
        return ("high card", (a,), None)
    if 6 <= a <= 11:
        return ("pair", (a - 6,), None)
    if 12 <= a <= 26:
        return ("two pair", TWO_PAIRS[a - 12], None)
    if a == 27:
        return ("small straight", SMALL, None)
    if a == 28:
        return ("big straight", BIG, None)
    if a == 29:
        return ("great straight", GREAT, None)
    if 30 <= a <= 35:
        return ("three of a kind", (a - 30,), None)
    if 36 <= a <= 65:
        return ("full house", FULL_HOUSES[a - 36], None)
    if 66 <= a <= 69:
        return ("flush", (), a - 66)
    if 70 <= a <= 75:
        return ("four of a kind", (a - 70,), None)
    if 76 <= a <= 79:
        return ("small straight flush", SMALL, a - 76)
    if 80 <= a <= 83:
        return ("big straight flush", BIG, a - 80)
    if 84 <= a <= 87:
        return ("great straight flush", GREAT, a - 84)
    raise ValueError(f"{action_id} is not a bet")


def set_exists(action_id: int, cards: Iterable[tuple[int, int]]) -> bool:
    """Whether the set of ``action_id`` is among ``cards`` ((value, colour) pairs)."""
    cards = set(cards)
    per_value = Counter(value for value, _ in cards)
    per_colour = Counter(colour for _, colour in cards)
    kind, values, colour = describe(action_id)
    if kind == "high card":
        return per_value[values[0]] >= 1
    if kind == "pair":
        return per_value[values[0]] >= 2
    if kind == "two pair":
        x, y = values
        return per_value[x] >= 2 and per_value[y] >= 2
    if kind in ("small straight", "big straight", "great straight"):
        return all(per_value[v] >= 1 for v in values)
    if kind == "three of a kind":
        return per_value[values[0]] >= 3
    if kind == "full house":
        x, y = values
        return per_value[x] >= 3 and per_value[y] >= 2
    if kind == "flush":
        assert colour is not None
        return per_colour[colour] >= 5
    if kind == "four of a kind":
        return per_value[values[0]] == 4
    # a straight flush: each of its values in its colour
    return all((v, colour) in cards for v in values)


def minimal_cards(action_id: int) -> list[tuple[int, int]]:
    """A smallest set of cards that makes ``action_id`` exist (colours chosen plainly)."""
    kind, values, colour = describe(action_id)
    if kind == "flush":
        assert colour is not None
        return [(v, colour) for v in range(5)]
    if colour is not None:  # straight flushes
        return [(v, colour) for v in values]
    if kind in ("small straight", "big straight", "great straight"):
        return [(v, 0) for v in values]
    counts = {
        "high card": (1,),
        "pair": (2,),
        "two pair": (2, 2),
        "three of a kind": (3,),
        "full house": (3, 2),
        "four of a kind": (4,),
    }[kind]
    return [(v, c) for v, n in zip(values, counts, strict=True) for c in range(n)]


def index_of(value: int, colour: int) -> int:
    return value * 4 + colour


def pair_of(index: int) -> tuple[int, int]:
    return divmod(index, 4)


def mask_from(cards: Iterable[tuple[int, int]]) -> int:
    mask = 0
    for value, colour in cards:
        mask |= 1 << index_of(value, colour)
    return mask


def cards_from(mask: int) -> list[tuple[int, int]]:
    return [pair_of(i) for i in range(24) if mask >> i & 1]


def documented_order(tag: bytes, seed: bytes, size: int) -> list[int]:
    """Steps 1 to 3 of the documented algorithm: an ordering of ``size`` items."""
    number = int.from_bytes(hashlib.sha256(tag + seed).digest(), "big")
    remaining = list(range(size))
    order = []
    while remaining:
        number, i = divmod(number, len(remaining))
        order.append(remaining.pop(i))
    return order


def documented_deal(seed: bytes, hand_sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """The documented deal: consecutive cards of the ordering, each hand sorted."""
    order = documented_order(b"blef/deal/v1", seed, 24)
    hands = []
    position = 0
    for size in hand_sizes:
        hands.append(tuple(sorted(order[position : position + size])))
        position += size
    return hands


def documented_seating(seed: bytes, n_players: int) -> list[int]:
    return documented_order(b"blef/seating/v1", seed, n_players)
