"""How likely each set is in any variant: 24 or 32 cards, jokers, blanks, common cards, teams.

**Exact, for every variant.** A viewer knows some cards (``known``: their own hand, their
team-mates' hands and the common cards, all of them in play) and that the players whose
hands they cannot see hold ``unknown`` cards in total. From the viewer's point of view those
cards are a uniformly random ``unknown``-subset of the U cards they have not seen (the
rest of the deck, the jokers and the blanks they have not seen). :func:`set_probabilities_for`
gives, for every set of the rules' table, the exact probability that it exists when a check
counts the bettor's usable jokers:

* the bettor's hand is seen (the viewer, or a team-mate): their usable jokers (their own and
  the common ones) are a known number ``usable_jokers``; the unseen jokers are dead cards;
* the bettor's hand is not seen (an opponent holding ``hidden_bettor_cards`` cards): their
  hand is a uniformly random part of the unknown cards, so only the jokers that fall in *that
  hand* count, with the common ones (``usable_jokers``); the jokers the other hidden players
  hold never help the bettor.

**How.** Every set lacks, among some cards, a number of cards that adds up over disjoint
groups of the deck: for a group of cards ``g`` with a need ``r`` (a value's four cards for a
pair, three or a two pair's value, a straight's values with need 1, a colour's cards for a
flush with need 5, the named cards of a four of a kind or a straight flush with need "all"),
the set lacks ``max(0, r - cards of g present)``; it exists when the total lacked is at most
the usable jokers (:meth:`engine.sets.SetTable.exists_with`). Given the known cards, each
group is ``(u, r')``: u of its cards unseen, r' still needed. A small dynamic programme over
the groups counts the draws of d cards from each group (``C(u, d)`` ways), tracking the
cards drawn and the total lacked; the remaining draws come from the unseen jokers and the
other unseen cards by binomials; and when the bettor's hand is hidden, the jokers it holds
follow the hypergeometric law of a ``hidden_bettor_cards``-card hand inside the unknown
cards. Integer counts throughout, so :func:`exact_set_probabilities_for` gives fractions;
the counts are cached by the shape of the groups, so a whole table costs a few milliseconds
the first time and a dictionary look-up after.

For the classic cards (24, no joker, no blank, no common card) it answers with the closed
form of :mod:`engine.probability` (the same floats), with the team-mates' cards as known.

:func:`sampled_set_probabilities` is an independent seeded Monte Carlo estimate that deals
the unseen cards into each hidden hand by its size, as the deck would: the tests hold it to
the exact answer (and the exact answer to a brute force over every deal) on small cases.

>>> from engine.rules import Rules
>>> rules = Rules(jokers=1)
>>> p = set_probabilities_for(rules, [20], 1)      # I hold the ace of clubs, one card unseen
>>> p[5], round(p[11], 6)                          # high card A; a pair of aces: 3 of 24
(1.0, 0.125)
>>> q = set_probabilities_for(rules, [20, 24], 1, usable_jokers=1)  # my joker, as bettor
>>> q[11]
1.0
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Final

from engine.facts import N_COLOURS
from engine.probability import set_probabilities
from engine.rules import CardKind, Rules
from engine.sets import SetKind, SetTable, table_for

Group = tuple[int, int]
"""A group of cards of one set: (its card mask, how many of them the set needs)."""

_FLUSH_NEED: Final = 5


@cache
def set_groups(deck_size: int) -> tuple[tuple[Group, ...], ...]:
    """For each set of the deck's table, the disjoint groups whose lacks add up to what
    it lacks (see the module docstring); equal to :meth:`engine.sets.BetSet.missing`."""
    table = table_for(deck_size)
    groups: list[tuple[Group, ...]] = []
    for s in table.sets:
        if s.required_mask:
            groups.append(((s.required_mask, s.required_mask.bit_count()),))
        elif s.kind is SetKind.FLUSH:
            assert s.colour is not None
            colour = sum(1 << (v * N_COLOURS + s.colour) for v in range(table.n_values))
            groups.append(((colour, _FLUSH_NEED),))
        else:
            groups.append(
                tuple((15 << (v * N_COLOURS), need) for v, need in enumerate(s.value_needs) if need)
            )
    return tuple(groups)


def _shape(groups: tuple[Group, ...], known: int) -> tuple[Group, ...]:
    """The groups still open given the known cards: (unseen cards, cards still needed)."""
    shape = []
    for mask, need in groups:
        held = (mask & known).bit_count()
        if held < need:
            shape.append(((mask & ~known).bit_count(), need - held))
    shape.sort()
    return tuple(shape)


def _hit(k: int, m: int, t: int, b: int) -> Fraction:
    """The chance that a b-card hand, drawn from m cards of which t are jokers, holds at
    least k jokers."""
    if k <= 0:
        return Fraction(1)
    if k > b or k > t:
        return Fraction(0)
    favourable = sum(comb(t, j) * comb(m - t, b - j) for j in range(k, min(t, b) + 1))
    return Fraction(favourable, comb(m, b))


@lru_cache(maxsize=1 << 16)
def _favourable(
    shape: tuple[Group, ...], unseen: int, m: int, jokers_unseen: int, b: int, usable: int
) -> Fraction:
    """The number of m-subsets of the ``unseen`` cards in which the set of ``shape``
    exists (weighted by the chance of the bettor's jokers when ``b`` > 0)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    grouped = 0
    for u, r in shape:
        grouped += u
        step: dict[tuple[int, int], int] = {}
        for (n, lack), w in ways.items():
            for d in range(min(u, m - n) + 1):
                key = (n + d, lack + max(0, r - d))
                step[key] = step.get(key, 0) + w * comb(u, d)
        ways = step
    others = unseen - grouped - jokers_unseen
    total = Fraction(0)
    for (n, lack), w in ways.items():
        if b == 0:
            if lack <= usable:
                total += w * comb(unseen - grouped, m - n)
            continue
        if lack - usable > b:
            continue
        for t in range(min(jokers_unseen, m - n) + 1):
            rest = comb(jokers_unseen, t) * comb(others, m - n - t)
            if rest:
                total += w * rest * _hit(lack - usable, m, t, b)
    return total


def _counts(rules: Rules, known: Iterable[int]) -> tuple[int, int, int]:
    """The known deck mask, the unseen cards and the unseen jokers; ValueError if bad."""
    cards = list(known)
    if len(set(cards)) != len(cards) or any(
        not 0 <= c < rules.total_cards or type(c) is not int for c in cards
    ):
        raise ValueError("known cards are distinct deck indices of these rules")
    mask = 0
    jokers = 0
    for card in cards:
        kind = rules.kind_of(card)
        if kind is CardKind.CARD:
            mask |= 1 << card
        elif kind is CardKind.JOKER:
            jokers += 1
    return mask, rules.total_cards - len(cards), rules.jokers - jokers


def _check(unseen: int, unknown: int, usable_jokers: int, hidden_bettor_cards: int) -> None:
    if not 0 <= unknown <= unseen:
        raise ValueError(f"0..{unseen} cards are unseen, not {unknown}")
    if not 0 <= hidden_bettor_cards <= unknown:
        raise ValueError("the hidden bettor's cards are among the unknown cards")
    if usable_jokers < 0:
        raise ValueError("usable jokers are not negative")


def exact_set_probabilities_for(
    rules: Rules,
    known: Iterable[int],
    unknown: int,
    *,
    usable_jokers: int = 0,
    hidden_bettor_cards: int = 0,
) -> tuple[Fraction, ...]:
    """:func:`set_probabilities_for` as exact fractions (any rules, the classic too)."""
    mask, unseen, jokers_unseen = _counts(rules, known)
    _check(unseen, unknown, usable_jokers, hidden_bettor_cards)
    denominator = comb(unseen, unknown)
    return tuple(
        _favourable(
            _shape(groups, mask),
            unseen,
            unknown,
            jokers_unseen,
            hidden_bettor_cards,
            usable_jokers,
        )
        / denominator
        for groups in set_groups(rules.deck_size)
    )


@lru_cache(maxsize=1 << 13)
def _floats(
    deck_size: int,
    mask: int,
    unseen: int,
    unknown: int,
    jokers_unseen: int,
    b: int,
    usable: int,
) -> tuple[float, ...]:
    denominator = comb(unseen, unknown)
    return tuple(
        float(
            _favourable(_shape(groups, mask), unseen, unknown, jokers_unseen, b, usable)
            / denominator
        )
        for groups in set_groups(deck_size)
    )


def set_probabilities_for(
    rules: Rules,
    known: Iterable[int],
    unknown: int,
    *,
    usable_jokers: int = 0,
    hidden_bettor_cards: int = 0,
) -> tuple[float, ...]:
    """The exact probability that each set of ``rules.table`` exists, seen by a viewer.

    ``known``: the deck indices the viewer sees (own hand, team-mates' hands, common cards;
    jokers and blanks included). ``unknown``: the cards held by the players whose hands the
    viewer cannot see. ``usable_jokers``: the jokers the bettor may surely count (the
    common ones, and the bettor's own when the viewer sees the bettor's hand).
    ``hidden_bettor_cards``: 0 when the viewer sees the bettor's hand, else the size of the
    bettor's hand (its jokers, among the unknown cards, then count too). Element ``i`` is
    the probability for bet ``i``. See the module docstring for the model and the method.
    """
    mask, unseen, jokers_unseen = _counts(rules, known)
    _check(unseen, unknown, usable_jokers, hidden_bettor_cards)
    if rules.is_classic:
        return set_probabilities(mask, unknown)
    if not rules.jokers:
        hidden_bettor_cards = 0  # nobody holds a joker: the bettor's hand does not matter
    return _floats(
        rules.deck_size, mask, unseen, unknown, jokers_unseen, hidden_bettor_cards, usable_jokers
    )


def sampled_set_probabilities(
    rules: Rules,
    known: Iterable[int],
    hidden_hands: Sequence[int],
    *,
    bettor: int | None = None,
    usable_jokers: int = 0,
    samples: int = 2000,
    seed: int = 0,
) -> tuple[float, ...]:
    """A seeded Monte Carlo estimate of :func:`set_probabilities_for`, by dealing.

    Each sample shuffles the cards the viewer has not seen and deals them into the hidden
    hands, ``hidden_hands[j]`` cards to hidden player ``j``, as the deck would. A set is
    counted when it exists among the known and dealt cards with ``usable_jokers`` plus,
    when ``bettor`` is the index of a hidden hand, the jokers dealt to that hand. Its
    standard error is at most ``0.5 / sqrt(samples)`` per set (``sqrt(p (1 - p) / n)``).
    """
    cards = list(known)
    mask, unseen_count, _ = _counts(rules, cards)
    held = set(cards)
    unseen = [c for c in range(rules.total_cards) if c not in held]
    sizes = list(hidden_hands)
    dealt = sum(sizes)
    _check(unseen_count, dealt, usable_jokers, sizes[bettor] if bettor is not None else 0)
    if samples < 1:
        raise ValueError("at least one sample")
    table: SetTable = rules.table
    n_bets = table.n_bets
    deck, first_joker = rules.deck_size, rules.deck_size + rules.jokers
    start = sum(sizes[:bettor]) if bettor is not None else 0
    stop = start + (sizes[bettor] if bettor is not None else 0)
    counts = [0] * n_bets
    rng = random.Random(seed)
    exists_with = table.exists_with
    for _ in range(samples):
        drawn = rng.sample(unseen, dealt)
        pool = mask
        for card in drawn:
            if card < deck:
                pool |= 1 << card
        jokers = usable_jokers + sum(1 for c in drawn[start:stop] if deck <= c < first_joker)
        for i in range(n_bets):
            if exists_with(i, pool, jokers):
                counts[i] += 1
    return tuple(c / samples for c in counts)


__all__ = [
    "exact_set_probabilities_for",
    "sampled_set_probabilities",
    "set_groups",
    "set_probabilities_for",
]
