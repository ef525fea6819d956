"""The four suits, the twelve deck compositions, and the posterior over decks.

A Figgie deck has 40 cards: one suit of 12 (the *common* suit), two of 10 and one of 8.
The *goal* suit is the other suit of the common suit's colour (spades with clubs, hearts
with diamonds), so it has 8 or 10 cards. Four choices of the common suit times three of
the 8-card suit give twelve equally likely decks, numbered so that deck ``i`` has common
suit ``i // 3`` (suits in the order spades, clubs, hearts, diamonds = 0, 1, 2, 3).

Given counts ``c[s]`` of cards known to exist in each suit (one's hand, and cards others are
known to hold), the posterior of deck ``i`` under the uniform prior is proportional to
``prod_s C(d_i[s], c[s])`` (the hypergeometric denominator is the same for every deck).

>>> [round(p, 3) for p in goal_probabilities((5, 2, 2, 1))]
[0.185, 0.494, 0.135, 0.185]
>>> DECKS[0], GOAL[0], BONUS[0]
((12, 8, 10, 10), 1, 120)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Final

SUITS: Final = ("spades", "clubs", "hearts", "diamonds")
"""The suits by index."""
SUIT_LETTERS: Final = "SCHD"
N_SUITS: Final = 4
N_CARDS: Final = 40
POT: Final = 200
GOAL_CARD_PAYOUT: Final = 10
"""What each goal-suit card pays its holder at the settlement."""

_PARTNER: Final = (1, 0, 3, 2)  # the other suit of the same colour


def _decks() -> tuple[tuple[int, ...], ...]:
    decks = []
    for common in range(N_SUITS):
        for eight in range(N_SUITS):
            if eight == common:
                continue
            decks.append(tuple(12 if s == common else 8 if s == eight else 10 for s in range(4)))
    return tuple(decks)


DECKS: Final = _decks()
"""The twelve compositions, cards per suit (S, C, H, D)."""
N_DECKS: Final = len(DECKS)
GOAL: Final = tuple(_PARTNER[i // 3] for i in range(N_DECKS))
"""The goal suit of each deck."""
GOAL_CARDS: Final = tuple(DECKS[i][GOAL[i]] for i in range(N_DECKS))
"""How many goal cards each deck has (8 or 10)."""
BONUS: Final = tuple(POT - GOAL_CARD_PAYOUT * GOAL_CARDS[i] for i in range(N_DECKS))
"""The majority bonus of each deck: what is left of the pot after 10 a goal card."""


def deck_weights(counts: Sequence[int]) -> list[int]:
    """``prod_s C(d_i[s], counts[s])`` for each deck ``i``: unnormalised posterior weights."""
    c0, c1, c2, c3 = counts
    return [comb(d[0], c0) * comb(d[1], c1) * comb(d[2], c2) * comb(d[3], c3) for d in DECKS]


def deck_posterior(counts: Sequence[int]) -> list[float]:
    """P(deck = i | the known ``counts``), uniform prior. Counts no deck can hold give
    ``ValueError``."""
    weights = deck_weights(counts)
    total = sum(weights)
    if not total:
        raise ValueError(f"no deck holds the counts {tuple(counts)}")
    return [w / total for w in weights]


def goal_probabilities(counts: Sequence[int]) -> list[float]:
    """P(goal suit = s | the known ``counts``) for each suit."""
    posterior = deck_posterior(counts)
    out = [0.0] * N_SUITS
    for i, p in enumerate(posterior):
        out[GOAL[i]] += p
    return out


def suit_index(text: str) -> int:
    """A suit from its name or letter, any case: ``"spades"``, ``"S"``, ...; ``ValueError``
    for anything else."""
    lowered = text.strip().lower()
    for i, name in enumerate(SUITS):
        if lowered in (name, name[:-1], SUIT_LETTERS[i].lower()):
            return i
    raise ValueError(f"{text!r} is not a suit: the suits are {', '.join(SUITS)}")
