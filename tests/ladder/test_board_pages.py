"""Leaderboard pages past the first: every row once, in one order, and each row's rank
1 + how many rate strictly higher (equal ratings share a rank), on every page alike."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.ladder import results
from app.ladder.service import Ladder
from app.ladder.store import LadderStore
from app.service import GameService
from app.service.errors import InvalidParameter
from tests.ladder.contract import named as account
from tests.ladder.contract import rated
from tests.support.clock import FakeClock
from tests.support.ladder_memory import LadderMemory
from tests.support.memory_store import MemoryStore

POOL = "standard-2"


def board(store: LadderStore, scores: list[int]) -> None:
    """An account per score (``P000``, ``P001``, ...), rated mu = score + 3, sigma = 1: its
    ordinal is the score."""
    for i, score in enumerate(scores):
        rated(store, account(store, f"P{i:03d}"), score + 3.0, 1.0)


def every_page(ladder: Ladder, size: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    offset: int | None = 0
    while offset is not None:
        page = ladder.leaderboard(POOL, size, None, offset)
        assert page["offset"] == offset
        rows.extend(page["players"])
        offset = page.get("next_offset")
        assert offset is None or page["players"], "a page that says more has rows"
    return rows


def expected(scores: list[int]) -> list[tuple[int, str]]:
    """(rank, handle) by score descending then handle, ranked 1 + strictly higher."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], f"P{i:03d}"))
    return [(1 + sum(s > scores[i] for s in scores), f"P{i:03d}") for i in order]


def test_ranks_stay_right_across_pages_of_a_board_with_ties(ladder: Ladder) -> None:
    scores = [5, 9, 5, 1, 9, 5, 7, 5, 5, 0, 9]
    board(ladder.store, scores)
    want = expected(scores)
    assert [r[0] for r in want] == [1, 1, 1, 4, 5, 5, 5, 5, 5, 10, 11]
    for size in (1, 2, 3, 4, 100):
        assert [(r["rank"], r["handle"]) for r in every_page(ladder, size)] == want
    tail = ladder.leaderboard(POOL, 3, None, 5)  # a page opening inside a tie
    assert [(r["rank"], r["handle"]) for r in tail["players"]] == want[5:8]
    assert tail["next_offset"] == 8
    past = ladder.leaderboard(POOL, 20, None, 500)
    assert past["players"] == [] and "next_offset" not in past


def test_a_board_of_more_than_a_hundred_is_read_in_pages_of_a_hundred(ladder: Ladder) -> None:
    scores = [i // 7 for i in range(230)]  # many ties, three pages
    board(ladder.store, scores)
    first = ladder.leaderboard(POOL, 100, None)
    assert len(first["players"]) == 100 and first["next_offset"] == 100
    assert [(r["rank"], r["handle"]) for r in every_page(ladder, 100)] == expected(scores)


@pytest.mark.parametrize("offset", [-1, 10_001, 1.5, "3", True, [0]])
def test_an_offset_out_of_bounds_or_not_an_integer_is_refused_naming_offset(
    ladder: Ladder, offset: object
) -> None:
    with pytest.raises(InvalidParameter, match="offset"):
        ladder.leaderboard(POOL, None, None, offset)


@settings(max_examples=40, deadline=None)
@given(scores=st.lists(st.integers(-3, 3), max_size=30), size=st.integers(1, 12))
def test_any_board_read_in_pages_of_any_size_is_the_whole_board_ranked_once(
    scores: list[int], size: int
) -> None:
    fake = FakeClock()
    games = GameService(
        MemoryStore(clock=fake), Settings(ai_think_seconds=0, run_clock=False), clock=fake
    )
    ladder = Ladder(LadderMemory(), games, clock=fake)
    board(ladder.store, scores)
    assert [(r["rank"], r["handle"]) for r in every_page(ladder, size)] == expected(scores)


def test_no_page_is_offered_past_the_deepest_a_board_may_be_read(
    ladder: Ladder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(results, "BOARD_OFFSET_MAX", 2)  # a board deeper than may be read
    board(ladder.store, [9, 8, 7, 6, 5])
    assert ladder.leaderboard(POOL, 1, None, 1)["next_offset"] == 2
    deepest = ladder.leaderboard(POOL, 1, None, 2)
    assert [r["handle"] for r in deepest["players"]] == ["P002"]
    assert "next_offset" not in deepest  # rows remain, but no page past the deepest
    with pytest.raises(InvalidParameter):
        ladder.leaderboard(POOL, 1, None, 3)
