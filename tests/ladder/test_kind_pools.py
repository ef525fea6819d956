"""The ladder's pools of other games on every ladder store (SQLite, DynamoDB on moto, the
in-memory fake): a table of Figgie with computer levels seated as Figgie's agents, kept by the
store as it was formed (each level's agent with its seat), played out by the service's clock
and settled by the places of the game's result, in its own pool only."""

from __future__ import annotations

from app.ladder.service import Ladder
from app.service import GameService
from tests.support.clock import FakeClock


def test_a_figgie_table_is_formed_stored_and_settled_by_its_places_on_every_store(
    ladder: Ladder, games: GameService, fake: FakeClock
) -> None:
    secrets = {h: ladder.create_account(h)["secret"] for h in ("Ania", "Bolek")}
    for secret in secrets.values():
        ladder.join_queue(secret, "figgie-4-5", 0)
    (formed,) = ladder.match()
    stored = ladder.store.table(formed.table_id)
    assert stored is not None and stored.pool == "figgie-4-5"
    assert [s.agent for s in stored.seats if s.player_uuid is None] == ["random", "conservative"]
    seats = {h: ladder.queue_status(s) for h, s in secrets.items()}
    game = seats["Ania"]["game_uuid"]
    assert seats["Bolek"]["path"] == f"/figgie/games/{game}"
    for _ in range(400):
        if games.store.load(game).status == "Finished":  # type: ignore[union-attr]
            break
        fake.advance(2.0)
        games.sweep()
    finished = games.finished(game)
    assert finished.kind == "figgie"
    ladder.tick()
    result = ladder.store.result(formed.table_id)
    assert result is not None and len(result.changes) == 4
    places = {s.agent or s.player_uuid: s.place for s in finished.seats}
    changes = {c.account_id: c for c in result.changes}
    for seat in stored.seats:
        told = seats[seat.handle]["player_uuid"] if seat.handle in seats else seat.agent
        assert changes[seat.account_id].place == places[told]
    by_place = sorted(result.changes, key=lambda c: c.place)
    gains = [c.after.mu - c.before.mu for c in by_place]
    assert gains[0] > 0 > gains[-1] and gains == sorted(gains, reverse=True)
    for seat in stored.seats:  # rated in this pool only
        assert [r.pool for r in ladder.store.ratings(seat.account_id)] == ["figgie-4-5"]
