"""Rematch, reactions and reports at the tables of every game but Blef (Blef's are its own
use cases, mapped in app/service/blef_tables.py), with Blef's semantics:

- **Rematch** (:meth:`MatchSocial.rematch_table`): a player of a finished table, proving
  their seat with its secret, gets a seat at the next table of the same kind, rules and
  time limit. The first to ask makes it (the asker seated and its admin, the computer players
  seated again); the finished table then points to it (``social["rematch"]``, written
  through the write path, so two askers racing end at one table); everyone who asks later
  joins that one. The next table binds each old seat's key (app/service/seats.py, a one-way
  hash of the secret) to the key of the seat it gave (``social["rematch_seats"]``), never to
  a name, and the binding is dropped when that seat is freed (its player left or was
  removed): asking again answers the same seat while it is held, a fresh one after. The
  finished table shows who asked (``rematch.asked``, nicknames); the next table's UUID and
  secrets go only to the askers. With an ``Idempotency-Key`` (hard to guess: the answer
  holds a secret) a repeat gets the first answer unchanged, as a keyed create does.
- **Reactions** (:meth:`MatchSocial.react_table`): one of the fixed reactions
  (app/service/social.py), limited per player in the table itself, shown in the table's
  body (``reactions``) and so in every push.
- **Reports** (:meth:`MatchSocial.report_table`): kept for the operator; once every other
  person at the table has reported a nickname, it is shown as ``Player_<seat>`` everywhere
  (the table's seats, admin, readiness, reactions, who asked for a rematch, the public list).
  The games' own views name seats, never people.

Every change goes through the one write path (:meth:`~app.service.writes.WritePath.change_match`).
"""

from __future__ import annotations

from typing import Any

from app.service import parse, social
from app.service.errors import (
    CannotReportAI,
    CannotReportSelf,
    ConflictError,
    GameGone,
    GameNotFinished,
    IdempotencyKeyReused,
)
from app.service.match_body import Body, refusals, table_body
from app.service.matches import Matches, hide_reported, hosted, seat_of, seat_person, secret_of
from app.service.profanity import refuse_profane
from app.service.seats import REMATCH_SEATS, bind_rematch, keys_of, rematch_seat, seat_key
from app.service.writes import (
    Change,
    Outcome,
    Retry,
    earlier_reply,
    fingerprint,
    key_hash,
    remember_first,
    reply,
)
from app.store.base import Conflict, GameDoc
from engine.facts import Status
from engine.match import Match

POINTER = "rematch"
ASKED = "rematch_asked"


class MatchSocial(Matches):
    """Rematch, reactions and reports at a table (see the module docstring)."""

    # ------------------------------------------------------------------ reactions

    def react_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        reaction: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The Bearer's seat sends a reaction; answers the table as it sees it."""
        hosted(kind)
        player = secret_of(secret)
        sent = social.reaction(reaction)
        settings = self.settings

        def react(doc: GameDoc, match: Match) -> Outcome:
            nickname, seat = seat_of(doc, match, player)
            social.add_reaction(
                doc.social,
                nickname,
                sent,
                self.now,
                burst=settings.reaction_burst,
                window=settings.reaction_window_seconds,
            )
            return Outcome(lambda saved, _: table_body(saved, match, seat))

        request = fingerprint("react", player, sent)
        return self._change(kind, game_uuid, react, idempotency_key, request, Retry.ALWAYS)

    # ------------------------------------------------------------------ reports

    def report_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The Bearer's seat reports another person's nickname (matched ignoring case);
        answers the table as it sees it. Reporting again, or a player already hidden,
        changes nothing (and is filed for the operator under the name reported)."""
        hosted(kind)
        gid = parse.game_uuid(game_uuid)
        player = secret_of(secret)
        target = parse.player_name(nickname)

        def report(doc: GameDoc, match: Match) -> Outcome:
            reporter, seat = seat_of(doc, match, player)
            table = match.table
            named = table.player_named(target)
            if named == reporter:
                raise CannotReportSelf
            if table.ai_agents[table.seat_of(named)] is not None:
                raise CannotReportAI

            def body(saved: GameDoc, _: Any) -> Body:
                return table_body(saved, match, seat)

            hidden = social.hidden_seats(doc.social, doc.player_uuids)
            original = hidden.get(seat_key(doc.player_uuids[named]))
            if original is not None:  # hidden already: filed under the name they had
                return self._filed(gid, reporter, original, Outcome(body, changed=False))
            if not social.record_report(doc.social, reporter, named):
                return self._filed(gid, reporter, named, Outcome(body, changed=False))
            hide_reported(doc, match)
            return self._filed(gid, reporter, named, Outcome(body))

        request = fingerprint("report", player, target)
        return self._change(kind, gid, report, idempotency_key, request, Retry.ALWAYS)

    # ------------------------------------------------------------------ rematch

    def rematch_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: str | None = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """The Bearer's seat of the finished table ``game_uuid`` takes a seat at its next
        table: ``{"game_uuid", "player_uuid", "kind"}`` (see the module docstring)."""
        hosted(kind)
        gid = parse.game_uuid(game_uuid)
        player = secret_of(secret)
        name = None if nickname is None or nickname == "" else parse.nickname(nickname)
        if name is not None:
            refuse_profane(name)
        key = None if idempotency_key is None else parse.strong_key(idempotency_key)
        if key is None:
            return self._rematch_table(kind, gid, player, name)
        request = fingerprint("table-rematch", kind, gid, player, name or "")
        earlier = self.store.find_create_key(key_hash(key))
        if earlier is not None:
            return self._keyed_rematch(earlier, key, request)
        body = self._rematch_table(kind, gid, player, name)
        next_gid: str = body["game_uuid"]

        def pin(doc: GameDoc, _match: Match) -> Outcome:
            if key_hash(key) in doc.replies:  # a race of two retries: the first stands
                return Outcome(reply({}), changed=False)
            remember_first(doc, key, request, body)
            return Outcome(reply({}))

        with refusals():
            self.writes.change_match(next_gid, kind, pin, retry=Retry.ALWAYS)
            doc = self.writes.load(next_gid, kind)
        claimed = self.store.claim_create_key(key_hash(key), next_gid, doc.expires_at)
        return self._keyed_rematch(claimed, key, request)

    def _keyed_rematch(self, game_uuid: str, key: str, request: str) -> Body:
        doc = self.store.load(game_uuid)
        if doc is None:
            raise GameGone
        earlier = earlier_reply(doc, key, request)
        if earlier is None:
            raise IdempotencyKeyReused
        return earlier

    def _rematch_table(self, kind: str, gid: str, player: str, name: str | None) -> Body:
        with refusals():
            old_doc = self.writes.load(gid, kind)
        old = Match.from_dict(old_doc.state)
        old_name, _seat = seat_of(old_doc, old, player)
        seat = seat_key(player)
        old_keys = keys_of(old_doc.social, seat)  # every key this seat has had
        name = name or old_name
        next_gid = old_doc.social.get(POINTER)
        if next_gid is None:
            if old.status is not Status.FINISHED:
                raise GameNotFinished("A rematch is made once the game has finished")
            made = self._next_table(old_doc, old, name, seat)
            next_gid = self._note_asker(kind, gid, old_name, made.game_uuid)
            if next_gid == made.game_uuid:
                secret = made.player_uuids[name]
                return {"game_uuid": made.game_uuid, "player_uuid": secret, "kind": kind}
        seated = self._join_next_table(kind, next_gid, name, seat, old_keys)
        self._note_asker(kind, gid, old_name)
        return seated

    def _next_table(self, old_doc: GameDoc, old: Match, name: str, seat: str) -> GameDoc:
        """The next table of ``old``'s, with the asker and the computer players seated."""
        match = Match.new(old.kind, old.rules)
        doc = GameDoc(
            game_uuid=self.new_secret(),
            room=self.store.allocate_room(),
            state={},
            created_at=self.now,
            last_modified=self.now,
            expires_at=int(self.now) + self.settings.game_ttl_seconds,
            time_limit=old_doc.time_limit,
        )
        secret = self.new_secret()
        seat_person(doc, match, name, secret)
        table = old.table
        for nickname, agent in zip(table.nicknames, table.ai_agents, strict=True):
            if agent is not None and nickname.casefold() != name.casefold():
                match.join(nickname, ai_agent=agent)
        doc.state = match.to_dict()
        doc.social = {REMATCH_SEATS: {seat: seat_key(secret)}}
        try:
            self.store.create(doc)
        except Conflict:
            raise ConflictError from None
        self.writes.announce(Change(doc, None))
        return doc

    def _note_asker(self, kind: str, old_gid: str, asker: str, new_gid: str | None = None) -> str:
        """Note on the finished table that ``asker`` wants the rematch, and make it point to
        ``new_gid`` unless it points somewhere already; the table it points to in the end."""

        def note(doc: GameDoc, _match: Match) -> Outcome:
            pointed = doc.social.get(POINTER) or new_gid
            asked: list[str] = doc.social.setdefault(ASKED, [])
            if pointed == doc.social.get(POINTER) and asker in asked:
                return Outcome(reply({POINTER: pointed}), changed=False)
            doc.social[POINTER] = pointed
            if asker not in asked:
                asked.append(asker)
            return Outcome(reply({POINTER: pointed}))

        with refusals():
            body = self.writes.change_match(
                old_gid, kind, note, fingerprint=fingerprint("rematch", asker), retry=Retry.ALWAYS
            )
        pointed: str = body[POINTER]
        return pointed

    def _join_next_table(
        self, kind: str, game_uuid: str, name: str, seat: str, old_keys: set[str]
    ) -> Body:
        """Seat the player of the old seat ``seat`` at the next table; the seat already
        bound to it if they asked before and still hold it."""

        def sit(doc: GameDoc, match: Match) -> Outcome:
            already = rematch_seat(doc.social, doc.player_uuids, old_keys)
            if already is not None:
                body = {"game_uuid": game_uuid, "player_uuid": doc.player_uuids[already]}
                return Outcome(reply({**body, "kind": kind}), changed=False)
            secret = self.new_secret()
            seat_person(doc, match, name, secret)
            bind_rematch(doc.social, seat, seat_key(secret))
            return Outcome(reply({"game_uuid": game_uuid, "player_uuid": secret, "kind": kind}))

        request = fingerprint("rematch-join", seat)
        with refusals():
            return self.writes.change_match(
                game_uuid, kind, sit, fingerprint=request, retry=Retry.ALWAYS
            )
