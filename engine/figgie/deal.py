"""Seeded, auditable Figgie deals.

**The algorithm (version 1).** Given a 32-byte ``seed`` and ``n`` players (4 or 5):

1. ``x = int.from_bytes(SHA-512(b"figgie/deal/v1" + seed), "big")``, a 512-bit number.
2. ``x, deck = divmod(x, 12)``: the deck composition, numbered as in
   :mod:`engine.figgie.decks`.
3. The 40 cards of that deck are listed suit by suit (its spades, then clubs, hearts,
   diamonds); ``remaining = [0, 1, ..., 39]`` are their positions in that list.
4. For each card dealt: ``x, i = divmod(x, len(remaining))``; the card is
   ``remaining.pop(i)``. This reads ``x`` in the mixed radix 40, 39, ... and picks a
   uniformly random order of the deck (12 x 40! < 2**163: the bias from reducing a
   512-bit number is below 2**-340).
5. Seat 0 receives the first ``40 / n`` cards of that order, seat 1 the next, and so on.
   Only the number of cards of each suit in a hand matters in Figgie.

**The commitment** published while the game is played is ``SHA-256(seed)`` in hex
(:func:`engine.dealing.commitment`); the seed is revealed at the settlement, with the deck,
so anyone can re-derive the deal.

>>> deck, hands = deal(bytes(32), 4)
>>> sum(map(sum, hands)), [sum(col) for col in zip(*hands)] == list(DECKS[deck])
(40, True)
"""

from __future__ import annotations

import hashlib
from typing import Final

from engine.figgie.decks import DECKS, N_CARDS, N_DECKS, N_SUITS

DEAL_TAG: Final = b"figgie/deal/v1"


def deal(seed: bytes, n_players: int) -> tuple[int, list[list[int]]]:
    """The deck number and each seat's cards per suit, dealt from ``seed`` (see above)."""
    if n_players not in (4, 5):
        raise ValueError(f"Figgie is dealt to 4 or 5 players, not {n_players}")
    x = int.from_bytes(hashlib.sha512(DEAL_TAG + seed).digest(), "big")
    x, deck = divmod(x, N_DECKS)
    suit_of = [s for s in range(N_SUITS) for _ in range(DECKS[deck][s])]
    remaining = list(range(N_CARDS))
    each = N_CARDS // n_players
    hands = []
    for _ in range(n_players):
        hand = [0] * N_SUITS
        for _ in range(each):
            x, i = divmod(x, len(remaining))
            hand[suit_of[remaining.pop(i)]] += 1
        hands.append(hand)
    return deck, hands
