"""Whatever order a batch's records come in, the pusher's order is the game's own: versions
rising, each ended round just before the first version past it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.store.base import GameDoc, RoundSnapshot
from app.watch.pusher import GameBatch, StateChange


@st.composite
def shuffled_game(draw: st.DrawFn) -> tuple[GameBatch, list[int]]:
    """A game's consecutive versions, each in a round that never goes down (the last maybe
    Finished), the snapshots of the rounds that ended among them, all shuffled."""
    count = draw(st.integers(min_value=1, max_value=12))
    first_round = draw(st.integers(min_value=1, max_value=5))
    steps = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    finished = draw(st.booleans())
    changes, rounds, round_number = [], [], first_round
    for index, next_round in enumerate(steps):
        last = index == count - 1
        status = "Finished" if last and finished else "Running"
        if (next_round and index) or status == "Finished":
            rounds.append(RoundSnapshot("g", round_number, {}, 0.0))
            round_number += 0 if status == "Finished" else 1
        state = {"round_number": round_number, "status": status}
        changes.append(StateChange(GameDoc("g", 1, state, version=10 + index), None))
    expected = [c.doc.version for c in changes]
    return (
        GameBatch(draw(st.permutations(changes)), draw(st.permutations(rounds))),
        expected,
    )


@given(shuffled_game())
def test_a_shuffled_batch_comes_out_in_version_order_each_round_before_what_follows_it(
    drawn: tuple[GameBatch, list[int]],
) -> None:
    batch, versions = drawn
    ordered = batch.in_order()
    assert [i.doc.version for i in ordered if isinstance(i, StateChange)] == versions
    assert len(ordered) == len(batch.changes) + len(batch.rounds)
    for position, item in enumerate(ordered):
        if isinstance(item, RoundSnapshot):
            before = [i for i in ordered[:position] if isinstance(i, StateChange)]
            after = [i for i in ordered[position + 1 :] if isinstance(i, StateChange)]
            # nothing before it is past the round; the next state is
            assert all(c.doc.state["round_number"] <= item.round_number for c in before)
            assert all(c.doc.status != "Finished" for c in before)
            assert after, "every ended round here is followed by the state written with it"
            nxt = after[0].doc
            assert nxt.state["round_number"] > item.round_number or nxt.status == "Finished"
