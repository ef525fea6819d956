"""Small helpers the built-in agents share."""

from __future__ import annotations

from typing import Final

from engine.facts import COLOUR_MASKS, N_VALUES
from engine.observation import Observation
from engine.odds import observed_odds
from engine.probability import set_probabilities
from engine.sets import FIRST_FLUSH, FIRST_STRAIGHT_FLUSH, SETS, SetKind


def hand_mask(obs: Observation) -> int:
    """The 24-bit mask of the observing player's cards."""
    mask = 0
    for index in obs.hand_indices:
        mask |= 1 << index
    return mask


def is_plain(obs: Observation) -> bool:
    """Whether the observation is of the classic cards with nothing known but one's own
    hand (no team-mate): the case of the closed form and the classic agents' fast paths."""
    return obs.rules.is_classic and not obs.teammate_hands


def own_odds(obs: Observation) -> tuple[float, ...]:
    """The chance that each set of the game's table exists if the observer bets it."""
    if is_plain(obs):
        return set_probabilities(hand_mask(obs), obs.total_cards - len(obs.hand_indices))
    return observed_odds(obs)


def standing_odds(obs: Observation, own: tuple[float, ...]) -> float:
    """The chance that the bet on the table exists as its bettor bet it (``own``: the
    observer's :func:`own_odds`, the same numbers when jokers cannot tell bettors apart)."""
    bettor, bet = obs.seat_history[-1]
    if not obs.rules.jokers or bettor == obs.seat:
        return own[bet]
    return observed_odds(obs, bettor)[bet]


def most_senior_at_least(p: tuple[float, ...], low: int, threshold: float) -> int | None:
    """The most senior bet at or above ``low`` whose probability is at least ``threshold``
    (``p`` has one entry per bet of the game's table)."""
    for action_id in range(len(p) - 1, low - 1, -1):
        if p[action_id] >= threshold:
            return action_id
    return None


def most_probable(p: tuple[float, ...], low: int) -> int:
    """The bet at or above ``low`` (below the check) with the highest probability; the most
    senior of equals."""
    best = low
    best_p = p[low]
    for action_id in range(low + 1, len(p)):
        if p[action_id] >= best_p:
            best, best_p = action_id, p[action_id]
    return best


_POP4: Final = tuple(i.bit_count() for i in range(16))


def _bit_table() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """Bits of the sets that depend on value counts only, as small lookup tables.

    ``single[v][count]``: the sets on one value (high card, pair, three and four of a kind)
    that ``count`` cards of value ``v`` make. ``by_present[p]``: the straights present when
    the values in the 6-bit set ``p`` are. ``by_paired[t * 64 + p]``: the two pairs and full
    houses present when the values in ``t`` have three or more cards and those in ``p`` two
    or more. Built once, from the needs of each set in :data:`engine.sets.SETS`.
    """
    single = [[0] * 5 for _ in range(N_VALUES)]
    straights: list[tuple[int, int]] = []
    pairs: list[tuple[int, int, int]] = []
    for s in SETS:
        if s.colour is not None or s.kind is SetKind.FLUSH:
            continue
        needed = [(v, n) for v, n in enumerate(s.value_needs) if n]
        if len(needed) == 1:
            ((v, n),) = needed
            for count in range(n, 5):
                single[v][count] |= 1 << s.action_id
        elif len(needed) == 2:
            (x, nx), (y, ny) = needed
            # A full house needs three of one value and two of the other.
            three = x if nx == 3 else y if ny == 3 else None
            two = y if three == x else x
            if three is None:
                pairs.append((1 << s.action_id, 0, 1 << x | 1 << y))
            else:
                pairs.append((1 << s.action_id, 1 << three, 1 << two))
        else:
            straights.append((1 << s.action_id, sum(1 << v for v, _ in needed)))
    by_present = tuple(
        sum(bit for bit, values in straights if present & values == values) for present in range(64)
    )
    by_paired = tuple(
        sum(bit for bit, three, two in pairs if tripled & three == three and paired & two == two)
        for tripled in range(64)
        for paired in range(64)
    )
    return tuple(tuple(row) for row in single), by_present, by_paired


_AT_LEAST: Final = tuple(tuple(int(c >= n) for c in range(5)) for n in range(4))
_STRAIGHT_FLUSHES: Final = tuple(
    (1 << s.action_id, s.required_mask, s.colour) for s in SETS[FIRST_STRAIGHT_FLUSH:]
)
_TABLES: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]] = []


def existence_bits(mask: int) -> int:
    """The sets present among the cards of ``mask``, as an 88-bit int (bit i: set i).

    Equal to ``sum(1 << i for i in range(88) if exists(i, mask))``, a few times faster.
    """
    if not _TABLES:
        _TABLES.append(_bit_table())
    single, by_present, by_paired = _TABLES[0]
    pop = _POP4
    c0 = pop[mask & 15]
    c1 = pop[mask >> 4 & 15]
    c2 = pop[mask >> 8 & 15]
    c3 = pop[mask >> 12 & 15]
    c4 = pop[mask >> 16 & 15]
    c5 = pop[mask >> 20 & 15]
    at_least = _AT_LEAST
    present = at_least[1][c0] | at_least[1][c1] << 1 | at_least[1][c2] << 2
    present |= at_least[1][c3] << 3 | at_least[1][c4] << 4 | at_least[1][c5] << 5
    paired = at_least[2][c0] | at_least[2][c1] << 1 | at_least[2][c2] << 2
    paired |= at_least[2][c3] << 3 | at_least[2][c4] << 4 | at_least[2][c5] << 5
    tripled = at_least[3][c0] | at_least[3][c1] << 1 | at_least[3][c2] << 2
    tripled |= at_least[3][c3] << 3 | at_least[3][c4] << 4 | at_least[3][c5] << 5
    bits = (
        single[0][c0]
        | single[1][c1]
        | single[2][c2]
        | single[3][c3]
        | single[4][c4]
        | single[5][c5]
        | by_present[present]
        | by_paired[tripled << 6 | paired]
    )
    if mask.bit_count() < 5:
        return bits
    for colour, colour_mask in enumerate(COLOUR_MASKS):
        if (mask & colour_mask).bit_count() >= 5:
            bits |= 1 << (FIRST_FLUSH + colour)
            for bit, required, sf_colour in _STRAIGHT_FLUSHES:
                if sf_colour == colour and mask & required == required:
                    bits |= bit
    return bits
