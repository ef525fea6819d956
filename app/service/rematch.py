"""The rematch: the next game of the same table, made once, found by everyone who asks.

A player of a finished game asks with the game's UUID and their own (old) player UUID. The
first to ask makes the next game: the same rules and time limit, the same AI players, and
the asker seated (by the nickname and team they had, unless they give others) as its admin;
the finished game then points to it (``social["rematch"]``, written through the write path,
so two players racing to make it end with one game: the loser of the race joins the
winner's, and the game it made, seen by nobody, expires). Everyone who asks later joins that
same game. Asking again answers the same seat: the new game binds each old seat's key to the
key of the seat it was given (``social["rematch_seats"]``, one-way hashes of the UUIDs:
app/service/seats.py), never to a name, and drops the binding when that seat is freed (its
player left or was removed), so a seat is only ever handed back to the player of the old
seat, and a newcomer under the same name is never mistaken for them. The finished game
lists who asked (``rematch.asked`` in its state, by nickname), so the others see it live;
it never shows the next game's UUID, which only a player of the finished game obtains, by
asking.
"""

from __future__ import annotations

from app.service import parse
from app.service.base import UseCases, nickname_of
from app.service.errors import (
    ConflictError,
    GameGone,
    GameNotFinished,
    IdempotencyKeyReused,
    InvalidParameter,
)
from app.service.lobby import seat_human
from app.service.profanity import refuse_profane
from app.service.seats import REMATCH_SEATS, bind_rematch, keys_of, rematch_seat, seat_key
from app.service.writes import (
    Body,
    Outcome,
    Retry,
    earlier_reply,
    fingerprint,
    key_hash,
    remember_first,
    reply,
)
from app.store.base import Conflict, GameDoc
from engine.game import Game, Status

POINTER = "rematch"
ASKED = "rematch_asked"
SEATS = REMATCH_SEATS


class Rematch(UseCases):
    def rematch(
        self,
        previous_game_uuid: str | None,
        previous_player_uuid: str | None,
        nickname: str | None = None,
        team: object = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Seat the player of a finished game in the next game of its table (made now if
        nobody asked before): ``{"game_uuid", "player_uuid"}``. With a key (hard to guess:
        the reply holds a secret), a repeat gets the first answer unchanged and the same
        key with another request is refused, as for a keyed create."""
        key = None if idempotency_key is None else parse.strong_key(idempotency_key)
        if key is None:
            return self._rematch(previous_game_uuid, previous_player_uuid, nickname, team)
        request = fingerprint(
            "rematch",
            str(previous_game_uuid),
            str(previous_player_uuid),
            str(nickname or ""),
            str(team),
        )
        earlier = self.store.find_create_key(key_hash(key))
        if earlier is not None:
            return self._keyed_answer(earlier, key, request)
        body = self._rematch(previous_game_uuid, previous_player_uuid, nickname, team)
        next_gid: str = body["game_uuid"]

        def pin(doc: GameDoc, _game: Game) -> Outcome:
            if key_hash(key) in doc.replies:  # a race of two retries: the first stands
                return Outcome(reply({}), changed=False)
            remember_first(doc, key, request, body)
            return Outcome(reply({}))

        self.writes.change(next_gid, pin, retry=Retry.ALWAYS)
        doc = self.writes.load(next_gid)
        claimed = self.store.claim_create_key(key_hash(key), next_gid, doc.expires_at)
        return self._keyed_answer(claimed, key, request)

    def _keyed_answer(self, game_uuid: str, key: str, request: str) -> Body:
        """The first answer given under ``key`` (which is ``game_uuid``'s), unchanged; or
        :class:`IdempotencyKeyReused` if it answered another request."""
        doc = self.store.load(game_uuid)
        if doc is None:
            raise GameGone
        earlier = earlier_reply(doc, key, request)
        if earlier is None:
            raise IdempotencyKeyReused
        return earlier

    def _rematch(
        self,
        previous_game_uuid: str | None,
        previous_player_uuid: str | None,
        nickname: str | None,
        team: object,
    ) -> Body:
        if previous_game_uuid in (None, "") or previous_player_uuid in (None, ""):
            raise InvalidParameter(
                "previous_game_uuid"
                if previous_game_uuid in (None, "")
                else "previous_player_uuid",
                None,
                "A rematch names both the finished game and your player UUID in it",
            )
        old_gid = parse.canonical_uuid(
            previous_game_uuid,
            "previous_game_uuid",
            "Previous game UUID missing - please supply it",
            "Invalid previous game UUID",
        )
        old_player = parse.canonical_uuid(
            previous_player_uuid,
            "previous_player_uuid",
            "Previous player UUID missing - please supply it",
            "Invalid previous player UUID",
        )
        name = None if nickname is None or nickname == "" else parse.nickname(nickname)
        if name is not None:
            refuse_profane(name)
        side = parse.team(team)
        old_doc = self.writes.load(old_gid)
        old_name = nickname_of(old_doc, old_player)
        old_game = Game.from_dict(old_doc.state)
        seat = seat_key(old_player)
        old_keys = keys_of(old_doc.social, seat)  # the keys this seat had before moves
        name = name or old_name
        if side is None and team is None:
            side = old_game.team_of(old_name)
        next_gid = old_doc.social.get(POINTER)
        if next_gid is None:
            if old_game.status is not Status.FINISHED:
                raise GameNotFinished("A rematch is made once the game has finished")
            made = self._next_game(old_doc, old_game, name, side, seat)
            next_gid = self._note(old_gid, old_name, made.game_uuid)
            if next_gid == made.game_uuid:
                return {"game_uuid": made.game_uuid, "player_uuid": made.player_uuids[name]}
        seated = self._join_next(next_gid, name, side, seat, old_keys)
        self._note(old_gid, old_name)
        return seated

    def _next_game(
        self, old_doc: GameDoc, old: Game, name: str, team: int | None, seat: str
    ) -> GameDoc:
        """The next game of ``old``'s table, with the asker and the AI players seated."""
        game = Game(rules=old.rules)
        game.join(name, team=team)
        for row in old.players:
            if row.ai_agent is not None:
                game.join(row.nickname, ai_agent=row.ai_agent, team=row.team)
        now = self.now
        secret = self.new_secret()
        doc = GameDoc(
            game_uuid=self.new_secret(),
            room=self.store.allocate_room(),
            state=game.to_dict(),
            player_uuids={name: secret},
            created_at=now,
            last_modified=now,
            expires_at=int(now) + self.settings.game_ttl_seconds,
            time_limit=old_doc.time_limit,
            social={SEATS: {seat: seat_key(secret)}},
        )
        try:
            self.store.create(doc)
        except Conflict:
            raise ConflictError from None
        return doc

    def _note(self, old_gid: str, asker: str, new_gid: str | None = None) -> str:
        """Note on the finished game that ``asker`` wants the rematch (its watchers see who
        does: ``social["rematch_asked"]``, nicknames only), and make it point to ``new_gid``
        unless it points somewhere already; the game it points to in the end."""

        def note(doc: GameDoc, _game: Game) -> Outcome:
            pointed = doc.social.get(POINTER) or new_gid
            asked: list[str] = doc.social.setdefault(ASKED, [])
            if pointed == doc.social.get(POINTER) and asker in asked:
                return Outcome(reply({POINTER: pointed}), changed=False)
            doc.social[POINTER] = pointed
            if asker not in asked:
                asked.append(asker)
            return Outcome(reply({POINTER: pointed}))

        body = self.writes.change(
            old_gid, note, fingerprint=fingerprint("rematch", asker), retry=Retry.ALWAYS
        )
        pointed: str = body[POINTER]
        return pointed

    def _join_next(
        self, game_uuid: str, name: str, team: int | None, seat: str, old_keys: set[str]
    ) -> Body:
        """Seat the player of the old seat ``seat`` (whose keys, before moves, are
        ``old_keys``) in the next game; the seat already bound to it if they asked before
        and are still there."""

        def sit(doc: GameDoc, game: Game) -> Outcome:
            already = rematch_seat(doc.social, doc.player_uuids, old_keys)
            if already is not None:
                body = {"game_uuid": game_uuid, "player_uuid": doc.player_uuids[already]}
                return Outcome(reply(body), changed=False)
            secret = seat_human(doc, game, name, team, self.new_secret())
            bind_rematch(doc.social, seat, seat_key(secret))
            return Outcome(reply({"game_uuid": game_uuid, "player_uuid": secret}))

        return self.writes.change(
            game_uuid, sit, fingerprint=fingerprint("rematch-join", seat), retry=Retry.ALWAYS
        )
