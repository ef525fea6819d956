"""The clock of ``blef serve`` (app/clock/local.py) keeps one entry per game and due time: a
Figgie market trading up to its deadline puts one entry on the agenda, not one per order,
and that entry ends the round at the deadline with no request arriving."""

from __future__ import annotations

from app.clock.local import LocalClock
from app.service import GameService
from tests.support.clock import FakeClock

SUITS = ("spades", "clubs", "hearts", "diamonds")


def test_a_trading_market_is_one_entry_on_the_agenda_which_ends_it_at_the_deadline(
    service: GameService, fake: FakeClock
) -> None:
    clock = LocalClock(service)
    game = service.create_table("figgie", {"trading_seconds": 60})["game_uuid"]
    seats = [service.join_table("figgie", game, name)["player_uuid"] for name in "abcd"]
    service.start_table("figgie", game, seats[0])
    trades = 0
    for n in range(40):
        fake.advance(1)
        seller, buyer = seats[n % 4], seats[(n + 1) % 4]
        hand = service.table("figgie", game, seller)["view"]["hand"]
        suit = next(s for s in SUITS if hand[s] > 0)
        service.move("figgie", game, seller, {"type": "ask", "suit": suit, "price": 5})
        service.move("figgie", game, buyer, {"type": "lift", "suit": suit})
        trades += 1
        assert clock.pending() == 1
        assert clock.run_due() == 0  # not due yet: the entry stays
        assert clock.pending() == 1

    fake.advance(20)
    assert clock.run_due() == 1

    table = service.table("figgie", game, None)
    assert table["status"] == "Finished"
    assert len(table["view"]["tape"]) == trades
    assert sum(table["view"]["chips"]) == 4 * 350
    assert clock.pending() == 0
