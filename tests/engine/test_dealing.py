"""Seeded dealing: reproducible, committed to, and exactly the documented algorithm.

``tests.engine.reference.documented_deal`` re-implements the algorithm from the docstring of
:mod:`engine.dealing` alone; agreement with it proves the documentation right.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dealing import (
    SEED_BYTES,
    _falling_products,
    commitment,
    deal,
    deal_hands,
    deal_indices,
    deal_round,
    random_seed,
    replay_seeds,
    seating_order,
    seed_sequence,
)
from engine.facts import CHECK, DECK
from engine.game import RoundRecord
from tests.engine.builders import started
from tests.engine.reference import documented_deal, documented_order, documented_seating

seeds = st.binary(min_size=32, max_size=32)


@st.composite
def hand_sizes(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(1, 8))
    sizes = draw(st.lists(st.integers(0, 11), min_size=n, max_size=n))
    while sum(sizes) > 24:
        sizes[sizes.index(max(sizes))] -= 1
    return sizes


@given(seeds, hand_sizes())
def test_the_deal_is_the_documented_algorithm(seed: bytes, sizes: list[int]) -> None:
    hands, mask = deal_hands(seed, sizes)
    assert hands == documented_deal(seed, sizes)
    assert mask == sum(1 << card for hand in hands for card in hand)
    assert deal(seed, sizes) == [tuple(DECK[i] for i in hand) for hand in hands]


@given(seeds, st.integers(0, 24))
def test_deal_indices_are_the_start_of_the_documented_ordering(seed: bytes, count: int) -> None:
    assert deal_indices(seed, count) == documented_order(b"blef/deal/v1", seed, 24)[:count]


@given(seeds, st.integers(2, 8))
def test_the_seating_is_the_documented_ordering_of_the_joiners(seed: bytes, n: int) -> None:
    order = seating_order(seed, n)
    assert order == documented_seating(seed, n)
    assert sorted(order) == list(range(n))


def test_the_documented_example_holds() -> None:
    assert commitment(bytes(32)).startswith("66687aadf862bd77")
    assert deal_indices(bytes(32), 3) == [5, 6, 11]
    assert documented_order(b"blef/deal/v1", bytes(32), 24)[:3] == [5, 6, 11]


@given(seeds, hand_sizes())
def test_a_deal_is_reproduced_from_its_seed(seed: bytes, sizes: list[int]) -> None:
    assert deal_hands(seed, sizes) == deal_hands(bytes(seed), list(sizes))
    assert deal(seed, sizes) == deal(seed, sizes)


@given(seeds, hand_sizes())
def test_hands_are_sorted_disjoint_and_of_the_asked_sizes(seed: bytes, sizes: list[int]) -> None:
    hands, _ = deal_hands(seed, sizes)
    assert [len(h) for h in hands] == sizes
    assert all(list(h) == sorted(h) for h in hands)
    dealt = [card for hand in hands for card in hand]
    assert len(dealt) == len(set(dealt))
    assert all(0 <= card < 24 for card in dealt)


def test_different_seeds_give_different_deals() -> None:
    source = seed_sequence("different deals")
    orderings = {tuple(deal_indices(source(), 24)) for _ in range(500)}
    assert len(orderings) == 500
    three_hands = {tuple(deal_hands(source(), [3, 3, 3])[0]) for _ in range(200)}
    assert len(three_hands) == 200


def test_every_card_is_about_equally_likely_to_come_first() -> None:
    source = seed_sequence("uniform")
    firsts = Counter(deal_indices(source(), 1)[0] for _ in range(4800))
    assert set(firsts) == set(range(24))
    assert all(120 <= n <= 280 for n in firsts.values()), firsts  # 200 expected


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    seed = seed_sequence(3)()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert len(commitment(seed)) == 64


@pytest.mark.parametrize("sizes", [[25], [12, 13], [11, 11, 3]])
def test_no_deal_needs_more_than_the_deck(sizes: list[int]) -> None:
    with pytest.raises(ValueError, match="deck of 24"):
        deal_hands(bytes(32), sizes)


@pytest.mark.parametrize("count", [-1, 25])
def test_deal_indices_refuse_an_impossible_count(count: int) -> None:
    with pytest.raises(ValueError, match="deck of 24"):
        deal_indices(bytes(32), count)


def test_random_seeds_are_32_fresh_bytes() -> None:
    drawn = {random_seed() for _ in range(20)}
    assert len(drawn) == 20
    assert all(len(seed) == SEED_BYTES == 32 for seed in drawn)


@pytest.mark.parametrize("master", [7, "seven", b"seven"])
def test_a_seed_sequence_is_reproducible_from_its_master(master: int | str | bytes) -> None:
    first, second = seed_sequence(master), seed_sequence(master)
    drawn = [first() for _ in range(5)]
    assert drawn == [second() for _ in range(5)]
    assert len(set(drawn)) == 5
    assert all(len(seed) == 32 for seed in drawn)
    assert seed_sequence(8)() != seed_sequence(7)()


def test_replay_seeds_give_back_the_recorded_seeds_then_stop() -> None:
    source = replay_seeds([b"a" * 32, b"b" * 32])
    assert source() == b"a" * 32
    assert source() == b"b" * 32
    with pytest.raises(ValueError, match="ran out"):
        source()


def test_a_game_deals_each_round_from_its_seed_by_the_documented_algorithm() -> None:
    game = started(3, seed=21)
    expected_seeds = seed_sequence(21)
    seating_seed = expected_seeds()
    assert game.nicknames == [
        ("alice", "bob", "carol")[i] for i in documented_seating(seating_seed, 3)
    ]
    records: list[RoundRecord] = []
    while len(records) < 4:
        game.apply(0)
        record = game.apply(CHECK)
        assert record is not None
        records.append(record)
    assert records[0].seed == seating_seed
    for record in records:
        assert record.hand_indices == documented_deal(record.seed, record.n_cards)
    assert [r.seed for r in records[1:]] == [expected_seeds() for _ in range(3)]


def straightforward_deal(
    seed: bytes, sizes: list[int], common: int, total: int, deck_size: int
) -> tuple[list[tuple[int, ...]], tuple[int, ...], int]:
    """The deal as the module's docstring states it, one card at a time: the reference
    that :func:`engine.dealing.deal_round`'s faster loop must match bit for bit."""
    if total == 24:
        n = int.from_bytes(hashlib.sha256(b"blef/deal/v1" + seed).digest(), "big")
    else:
        n = int.from_bytes(hashlib.sha512(b"blef/deal/v2" + seed).digest(), "big")
    remaining = list(range(total))
    order = []
    for left in range(total, total - sum(sizes) - common, -1):
        n, i = divmod(n, left)
        order.append(remaining.pop(i))
    piles, start = [], 0
    for size in [*sizes, common]:
        piles.append(tuple(sorted(order[start : start + size])))
        start += size
    mask = 0
    for card in order:
        if card < deck_size:
            mask |= 1 << card
    return piles[:-1], piles[-1], mask


@st.composite
def decks_and_deals(draw: st.DrawFn) -> tuple[list[int], int, int, int]:
    """A deck (classic 24 cards, or 24/32 with jokers and blanks) and a deal that fits it."""
    deck_size = draw(st.sampled_from([24, 32]))
    extra = 0 if draw(st.booleans()) else draw(st.integers(0, 24))
    total = deck_size + extra
    n = draw(st.integers(1, 8))
    sizes = draw(st.lists(st.integers(0, 11), min_size=n, max_size=n))
    while sum(sizes) > total:
        sizes[sizes.index(max(sizes))] -= 1
    common = draw(st.integers(0, min(12, total - sum(sizes))))
    return sizes, common, total, deck_size


@given(seeds, decks_and_deals())
def test_the_fast_deal_equals_the_straightforward_one(
    seed: bytes, deal_: tuple[list[int], int, int, int]
) -> None:
    sizes, common, total, deck_size = deal_
    got = deal_round(seed, sizes, common, total, deck_size)
    assert got == straightforward_deal(seed, sizes, common, total, deck_size)
    if total == 24 and not common:
        assert got == (*deal_hands(seed, sizes)[:1], (), deal_hands(seed, sizes)[1])


@given(seeds, hand_sizes())
def test_the_fast_classic_deal_equals_the_straightforward_one(
    seed: bytes, sizes: list[int]
) -> None:
    assert deal_round(seed, sizes) == straightforward_deal(seed, sizes, 0, 24, 24)


def test_the_fast_deal_equals_the_straightforward_one_on_the_deals_of_recorded_games() -> None:
    # The deals a benchmark of 4-player games makes (hands of 0 to 6 cards in every order),
    # and those of 2- and 8-player games: every one bit for bit the documented loop's.
    from engine.agents import RandomAgent
    from engine.play import play_game

    for n in (2, 4, 8):
        agents = {f"p{i}": RandomAgent(i) for i in range(n)}
        for game_seed in range(60):
            for record in play_game(agents, seed=game_seed).rounds:
                sizes = list(record.n_cards)
                expected = straightforward_deal(record.seed, sizes, 0, 24, 24)
                assert deal_round(record.seed, sizes) == expected
                assert record.hand_indices == expected[0]


@given(seeds, st.lists(st.integers(0, 6), min_size=1, max_size=8), st.integers(24, 56))
def test_hands_of_up_to_six_cards_in_any_order_deal_as_the_documented_loop(
    seed: bytes, sizes: list[int], total: int
) -> None:
    while sum(sizes) > total:
        sizes[sizes.index(max(sizes))] -= 1
    deck_size = 24 if total < 32 else 32
    got = deal_round(seed, sizes, 0, total, deck_size)
    assert got == straightforward_deal(seed, sizes, 0, total, deck_size)


@given(st.integers(1, 56))
def test_the_products_a_hand_divides_by_are_the_falling_factorials(total: int) -> None:
    products = _falling_products(total)
    for size, row in enumerate(products):
        assert len(row) == total + 1
        for left, product in enumerate(row):
            expected = math.prod(range(left - size + 1, left + 1)) if size <= left else 0
            assert product == expected


@given(st.one_of(st.integers(0, 2**256 - 1), st.text(max_size=20), st.binary(max_size=40)))
def test_a_seed_sequence_is_the_sha256_of_its_tag_master_and_counter(
    master: int | str | bytes,
) -> None:
    if isinstance(master, int):
        raw = master.to_bytes(32, "big")
    elif isinstance(master, str):
        raw = master.encode()
    else:
        raw = master
    source = seed_sequence(master)
    for k in range(1, 6):
        expected = hashlib.sha256(b"blef/seed-sequence/v1" + raw + k.to_bytes(8, "big"))
        assert source() == expected.digest()


@given(
    seeds,
    st.lists(st.integers(0, 30), min_size=1, max_size=9),
    st.integers(0, 12),
    st.sampled_from([(24, 24), (24, 30), (32, 32), (32, 56)]),
)
def test_a_deal_larger_than_the_deck_is_refused_and_any_other_is_dealt(
    seed: bytes, sizes: list[int], common: int, deck: tuple[int, int]
) -> None:
    deck_size, total = deck
    if sum(sizes) + common > total:
        with pytest.raises(ValueError, match=f"cannot deal {sum(sizes) + common} cards"):
            deal_round(seed, sizes, common, total, deck_size)
    else:
        expected = straightforward_deal(seed, sizes, common, total, deck_size)
        assert deal_round(seed, sizes, common, total, deck_size) == expected


@pytest.mark.parametrize(("sizes", "common"), [([-1, 2], 0), ([3, -2], 0), ([1, 1], -1)])
def test_a_negative_number_of_cards_is_refused(sizes: list[int], common: int) -> None:
    with pytest.raises(ValueError, match="cannot hold -"):
        deal_round(bytes(32), sizes, common)
