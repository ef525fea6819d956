"""Seeded, auditable dealing.

Every round is dealt from a 256-bit seed by the algorithm below, so anyone holding the seed
can re-derive the deal, and a whole game replays from its seeds and its actions.

**The algorithm (version 1).** Given a 32-byte ``seed``:

1. ``n = int.from_bytes(SHA-256(b"blef/deal/v1" + seed), "big")``, a 256-bit number.
2. Start from the 24 card indices in deck order, ``remaining = [0, 1, ..., 23]``
   (index = value * 4 + colour).
3. Repeat once per card to deal: ``n, i = divmod(n, len(remaining))``; the next card is
   ``remaining.pop(i)``. This reads ``n`` in the mixed radix 24, 23, 22, ... and so picks
   a uniformly random ordering of the deck; the bias from reducing a 256-bit number is
   below 2**-170, far below anything observable.
4. Players still in the game receive consecutive cards of that order, in seating order,
   each as many as they hold. Each hand is then sorted by card index for display.

**Other decks (version 2).** When the deck is not the classic 24 cards (32 cards, jokers or
blanks: up to 56 cards), ``n`` is instead the 512-bit number read from
``SHA-512(b"blef/deal/v2" + seed)`` (big-endian), over the indices
``0 .. total - 1`` (the deck, then the jokers, then the blanks), so the bias stays below
2**-250. Common cards, when the rules have them, are the cards dealt right after the hands.
The classic deck keeps version 1, so every classic game deals exactly as before.

The seating order at the start of a game is derived the same way from the first round's
seed with the tag ``b"blef/seating/v1"``, over the players in the order they joined.

**The commitment** published while a round is played is ``SHA-256(seed)`` in hex; the seed
itself is revealed when the round ends, so a client can check the deal it was shown.

>>> seed = bytes(32)
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> deal_indices(seed, 3)
[5, 6, 11]
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Final

from engine.facts import DECK, N_CARDS, Card

SEED_BYTES: Final = 32
_DEAL_TAG: Final = b"blef/deal/v1"
_DEAL_TAG_V2: Final = b"blef/deal/v2"
_SEATING_TAG: Final = b"blef/seating/v1"
_SEQUENCE_TAG: Final = b"blef/seed-sequence/v1"
_DECK_INDICES: Final = tuple(range(N_CARDS))
_COUNTER: Final = struct.Struct(">Q")  # a seed sequence's counter: 8 bytes, big-endian

SeedSource = Callable[[], bytes]
"""Anything that returns a fresh 32-byte seed each time it is called."""


def random_seed() -> bytes:
    """A seed from the operating system's cryptographic random source (the default)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The SHA-256 of ``seed`` in lower-case hex, published before the seed."""
    return hashlib.sha256(seed).hexdigest()


def _ordering(tag: bytes, seed: bytes, size: int, count: int) -> list[int]:
    n = int.from_bytes(hashlib.sha256(tag + seed).digest(), "big")
    remaining = list(range(size))
    picked = []
    for left in range(size, size - count, -1):
        n, i = divmod(n, left)
        picked.append(remaining.pop(i))
    return picked


def deal_indices(seed: bytes, count: int) -> list[int]:
    """The first ``count`` card indices of the deck ordering that ``seed`` picks."""
    if not 0 <= count <= N_CARDS:
        raise ValueError(f"cannot deal {count} cards from a deck of {N_CARDS}")
    return _ordering(_DEAL_TAG, seed, N_CARDS, count)


_sha512 = hashlib.sha512
_from_bytes = int.from_bytes
_BIT: Final = tuple(1 << i for i in range(64))
_DEAL_HASH: Final = hashlib.sha256(_DEAL_TAG)  # copied per deal: cheaper than hashing the tag
_UNROLLED: Final = 6  # hands of up to this many cards read their digits with one divmod


@cache
def _falling_products(total: int) -> tuple[tuple[int, ...], ...]:
    """``[size][left]``: ``left * (left - 1) * ... * (left - size + 1)`` (0 when ``size >
    left``), for ``size`` 0 to :data:`_UNROLLED` and ``left`` 0 to ``total``: the number
    a hand of ``size`` cards divides the seed's number by when ``left`` cards remain."""
    rows = [(1,) * (total + 1)]
    for size in range(1, _UNROLLED + 1):
        above = rows[-1]
        rows.append(tuple(above[left] * max(left - size + 1, 0) for left in range(total + 1)))
    return tuple(rows)


_CLASSIC_PRODUCTS: Final = _falling_products(N_CARDS)  # 7 x 25 numbers


def deal_round(
    seed: bytes,
    hand_sizes: Iterable[int],
    common: int = 0,
    total: int = N_CARDS,
    deck_size: int = N_CARDS,
) -> tuple[list[tuple[int, ...]], tuple[int, ...], int]:
    """Deal one hand of card indices per entry of ``hand_sizes``, in that order, then
    ``common`` face-up cards, from a deck of ``total`` indices (see above).

    Returns the hands and the common cards, each sorted, and the bit set of the deck's cards
    among them (indices below ``deck_size``: jokers and blanks left out). This is the one
    implementation of the algorithm; :func:`deal_hands`, :func:`deal` and the game call it.

    It is the loop of the module's docstring, made cheaper without changing a card
    (tests/engine/test_dealing.py holds it equal to that loop): a hand of ``k`` cards, up to
    six, takes its ``k`` digits at once as ``x`` with one ``divmod`` by ``left * (left - 1) *
    ... * (left - k + 1)`` (a small number), then reads them from ``x`` (the same digits:
    ``x % left``, then ``x // left % (left - 1)``, ...), one line per card; the remaining
    indices stay in increasing order as cards are taken out; the mask adds the cards' bits
    (they differ, so adding is or-ing them, and adding small numbers is cheaper).

    A negative size is refused, and so is a deal larger than the deck: the hand that does
    not fit divides by zero (its product, or ``left``, is 0), which is caught, not counted
    beforehand.
    """
    if common:
        sizes: Sequence[int] = [*hand_sizes, common]
    elif type(hand_sizes) is list:
        sizes = hand_sizes  # only read
    else:
        sizes = list(hand_sizes)
    if total == N_CARDS:
        digest = _DEAL_HASH.copy()
        digest.update(seed)
        n = _from_bytes(digest.digest(), "big")
        remaining = list(_DECK_INDICES)
        products = _CLASSIC_PRODUCTS
        bit = _BIT
    else:
        n = _from_bytes(_sha512(_DEAL_TAG_V2 + seed).digest(), "big")
        remaining = list(range(total))
        products = _falling_products(total)
        bit = _BIT if total <= len(_BIT) else tuple(1 << i for i in range(total))
    pop = remaining.pop
    _, _, by2, by3, by4, by5, by6 = products
    left = total
    mask = 0
    piles: list[tuple[int, ...]] = []
    add = piles.append
    try:
        for size in sizes:
            if size < 4:
                if size == 1:
                    n, i = divmod(n, left)
                    a = pop(i)
                    left -= 1
                    mask += bit[a]
                    add((a,))
                elif size == 2:
                    n, x = divmod(n, by2[left])
                    a = pop(x % left)
                    b = pop(x // left)
                    left -= 2
                    mask += bit[a] + bit[b]
                    add((a, b) if a < b else (b, a))
                elif size == 3:
                    n, x = divmod(n, by3[left])
                    a = pop(x % left)
                    x //= left
                    b = pop(x % (left - 1))
                    c = pop(x // (left - 1))
                    left -= 3
                    mask += bit[a] + bit[b] + bit[c]
                    if a > b:
                        a, b = b, a
                    if b > c:
                        b, c = c, b
                        if a > b:
                            a, b = b, a
                    add((a, b, c))
                else:
                    if size:
                        raise ValueError(f"a hand cannot hold {size} cards")
                    add(())  # a player who is out
            elif size == 4:
                n, x = divmod(n, by4[left])
                a = pop(x % left)
                x //= left
                b = pop(x % (left - 1))
                x //= left - 1
                c = pop(x % (left - 2))
                d = pop(x // (left - 2))
                left -= 4
                mask += bit[a] + bit[b] + bit[c] + bit[d]
                pile = [a, b, c, d]
                pile.sort()
                add(tuple(pile))
            elif size == 5:
                n, x = divmod(n, by5[left])
                a = pop(x % left)
                x //= left
                b = pop(x % (left - 1))
                x //= left - 1
                c = pop(x % (left - 2))
                x //= left - 2
                d = pop(x % (left - 3))
                e = pop(x // (left - 3))
                left -= 5
                mask += bit[a] + bit[b] + bit[c] + bit[d] + bit[e]
                pile = [a, b, c, d, e]
                pile.sort()
                add(tuple(pile))
            elif size == 6:
                n, x = divmod(n, by6[left])
                a = pop(x % left)
                x //= left
                b = pop(x % (left - 1))
                x //= left - 1
                c = pop(x % (left - 2))
                x //= left - 2
                d = pop(x % (left - 3))
                x //= left - 3
                e = pop(x % (left - 4))
                f = pop(x // (left - 4))
                left -= 6
                mask += bit[a] + bit[b] + bit[c] + bit[d] + bit[e] + bit[f]
                pile = [a, b, c, d, e, f]
                pile.sort()
                add(tuple(pile))
            else:  # seven cards or more: one digit at a time
                pile = []
                for _ in range(size):
                    n, i = divmod(n, left)
                    left -= 1
                    a = pop(i)
                    mask += bit[a]
                    pile.append(a)
                pile.sort()
                add(tuple(pile))
    except ZeroDivisionError:  # a hand that the rest of the deck cannot fill
        raise ValueError(f"cannot deal {sum(sizes)} cards from a deck of {total}") from None
    if deck_size != total:
        mask &= (1 << deck_size) - 1  # jokers and blanks count for no set
    if common:
        return piles[:-1], piles[-1], mask
    return piles, (), mask


def deal_hands(seed: bytes, hand_sizes: Iterable[int]) -> tuple[list[tuple[int, ...]], int]:
    """Deal the classic deck: one hand of card indices per entry of ``hand_sizes``.

    Returns the hands (each sorted) and the mask of every dealt card.
    """
    hands, _, mask = deal_round(seed, hand_sizes)
    return hands, mask


def deal(seed: bytes, hand_sizes: Iterable[int]) -> list[tuple[Card, ...]]:
    """Deal one hand of cards per entry of ``hand_sizes`` (0 gives an empty hand)."""
    hands, _ = deal_hands(seed, hand_sizes)
    return [tuple(DECK[i] for i in hand) for hand in hands]


def seating_order(seed: bytes, n_players: int) -> list[int]:
    """The seating order at the start: a permutation of the join-order positions."""
    return _ordering(_SEATING_TAG, seed, n_players, n_players)


def team_seating(seed: bytes, teams: Sequence[int | None]) -> list[int]:
    """The seating order of players in ``teams`` (join order; None: on one's own), each
    team spread around the table as evenly as possible.

    The players are first put in a random order (as :func:`seating_order`), which decides
    every tie. Then the largest team takes seats ``floor(i * n / k)`` of the table, the next
    largest the same way over the seats still free, and so on (players on their own are
    teams of one); finally the table is turned so that a random seat comes first.
    """
    n = len(teams)
    shuffled = seating_order(seed, n)
    groups: dict[object, list[int]] = {}
    for position in shuffled:
        team = teams[position]
        groups.setdefault(("solo", position) if team is None else team, []).append(position)
    ordered = sorted(groups.values(), key=len, reverse=True)  # stable: ties in random order
    free = list(range(n))
    seats: list[int] = [0] * n
    for members in ordered:
        k, left = len(members), len(free)
        chosen = [free[i * left // k] for i in range(k)]
        for seat, position in zip(chosen, members, strict=True):
            seats[seat] = position
        free = [s for s in free if s not in chosen]
    first = _ordering(_SEATING_TAG + b"/first", seed, n, 1)[0]
    return seats[first:] + seats[:first]


def initial_cards_draw(seed: bytes) -> int:
    """A 256-bit number drawn from the first round's seed, for ``initial_cards=random``."""
    return int.from_bytes(hashlib.sha256(b"blef/initial-cards/v1" + seed).digest(), "big")


def seed_sequence(master: bytes | int | str) -> SeedSource:
    """A deterministic seed source: seed k is SHA-256(tag + master + k as 8 bytes).

    For tests, tournaments and research, where a game must be reproducible from one
    number. Never use it for games played by people: their seeds would be guessable.
    """
    if isinstance(master, int):
        master = master.to_bytes(32, "big", signed=False)
    elif isinstance(master, str):
        master = master.encode()
    hashed_base = hashlib.sha256(_SEQUENCE_TAG + master)  # copied per seed: cheaper
    counter = 0
    pack = _COUNTER.pack

    def next_seed() -> bytes:
        nonlocal counter
        counter += 1
        digest = hashed_base.copy()
        digest.update(pack(counter))
        return digest.digest()

    return next_seed


def replay_seeds(seeds: Iterable[bytes]) -> SeedSource:
    """A seed source that gives back recorded seeds in order, for replaying a game."""
    iterator: Iterator[bytes] = iter(seeds)

    def next_seed() -> bytes:
        try:
            return next(iterator)
        except StopIteration:
            raise ValueError("the recorded seeds ran out before the game ended") from None

    return next_seed
