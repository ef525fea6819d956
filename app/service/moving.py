"""Moving a seat to another device: the new device is given a fresh secret, and the old one
is retired.

A player's secret UUID is their seat: whoever holds it plays as them and sees their hand. A
seat taken to another device by sharing that one secret could never be taken back (a lost
or lent phone would go on seeing the hand), so a move **replaces** it. The request is made
with the seat's current UUID (from the device that holds it, or from the take-your-seat link
it made); it answers a fresh UUID, and from then on the old one names no player: its
requests are refused with 403 ``seat_moved`` (app/service/base.py), and the websockets
opened with it are told so and closed (app/watch/pusher.py, app/api/routes/watch.py).

What the table noted of the seat follows it (its rematch binding, whether it is hidden:
app/service/seats.py), and the game remembers the retired key (a one-way hash, never the
UUID), so that its holder is told what happened instead of "no such player". A client that
never moves a seat (the established ones) keeps its UUID for the whole game.

With an ``Idempotency-Key`` (it must be hard to guess: the reply holds a secret) a retry of
a move whose answer was lost gets that answer again, instead of a refusal that would leave
nobody holding the seat.
"""

from __future__ import annotations

from app.service import parse, seats
from app.service.base import UseCases, nickname_of
from app.service.writes import Body, Outcome, Retry, fingerprint, reply
from app.store.base import GameDoc
from engine.game import Game


class Moving(UseCases):
    def move_seat(
        self, game_uuid: str, player_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """Retire ``player_uuid`` and give its seat a fresh UUID: ``{"game_uuid",
        "player_uuid", "nickname"}`` (the nickname as the game shows it now)."""
        player = parse.player_uuid(player_uuid)
        if idempotency_key is not None:
            parse.strong_key(idempotency_key)

        def move(doc: GameDoc, _game: Game) -> Outcome:
            nickname = nickname_of(doc, player)
            fresh = self.new_secret()
            doc.player_uuids[nickname] = fresh
            seats.rekey(doc.social, seats.seat_key(player), seats.seat_key(fresh))
            body = {"game_uuid": doc.game_uuid, "player_uuid": fresh, "nickname": nickname}
            return Outcome(reply(body))

        return self.writes.change(
            game_uuid,
            move,
            key=idempotency_key,
            fingerprint=fingerprint("move-seat", player),
            retry=Retry.ALWAYS,
        )

    def seat_moved(self, game_uuid: str, player_uuid: str) -> bool:
        """Whether ``player_uuid`` was retired by a move of its seat to another device, at
        the table ``game_uuid`` of any game (:class:`GameNotFound` if there is none): a
        reader that keeps a seat's first secret (the ladder) asks before telling it."""
        doc = self.writes.load(parse.game_uuid(game_uuid), None)
        return seats.moved(doc.social, seats.seat_key(parse.player_uuid(player_uuid)))
