"""The use cases of the Blef service, one method each, over a :class:`GameStore`.

Every change follows one path (:meth:`GameService._change`): load the game, check an
``Idempotency-Key`` against the replies already given, rebuild the engine's :class:`Game`,
apply the change (and any AI turns it leads to), then save conditionally on the version that
was read, with the snapshots of every round that ended, in one atomic write. A lost race
raises :class:`ConflictError` (HTTP 409) and nothing is written. Joining is retried on a
conflict, since re-applying a join to the fresher state is exactly what the client asked for;
moves are not, since the mover decided on the state they saw.

The service takes and returns plain values; it knows nothing of HTTP.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from app.service import ids
from app.service.errors import (
    ConflictError,
    GameGone,
    GameNotFinished,
    GameNotFound,
    IdempotencyKeyReused,
    InvalidParameter,
    MissingParameter,
    NotAPlayer,
    StaleVersion,
)
from app.service.responses import (
    current_state,
    list_entry,
    record_body,
    snapshot_body,
    state_body,
)
from app.settings import Settings
from app.store.base import Conflict, GameDoc, GameStore, RoundSnapshot
from engine import errors as rules
from engine.agents import make_agent, resolve_agent_name
from engine.agents.base import Agent
from engine.dealing import SeedSource
from engine.game import Game, RoundRecord, Status
from engine.observation import Observation

log = logging.getLogger("blef.service")

_KEEP_REPLIES: Final = 16
"""Idempotent replies kept per game. A retry comes within seconds, while the same few
moves are in flight; keeping few keeps the stored item (and each DynamoDB write) small."""
_JOIN_ATTEMPTS: Final = 8

Body = dict[str, Any]
Finish = Callable[[GameDoc], Body]


@dataclass(frozen=True, slots=True)
class StateReply:
    """A state or snapshot to send, with the tag a client can send back in If-None-Match."""

    body: Body
    etag: str


class GameService:
    """The use cases. ``clock`` and ``new_uuid`` are injectable for tests."""

    def __init__(
        self,
        store: GameStore,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        new_uuid: Callable[[], uuid.UUID] = uuid.uuid4,
        seed_source: SeedSource | None = None,
        agent_factory: Callable[[str, int | None], Agent] = make_agent,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self._clock = clock
        self._new_uuid = new_uuid
        self._seed_source = seed_source
        self._agent_factory = agent_factory

    # ------------------------------------------------------------------ lobby

    def create_game(self, idempotency_key: str | None = None) -> Body:
        """A new game in the lobby, with a random UUID.

        With a key (which must be hard to guess: the reply makes its holder the game's first
        comer), the store remembers a hash of the key and the game it made, and a retry gets
        that game back. The game is created before the key is claimed, so a race of two
        retries yields one answer: the loser's own game stays unknown to anyone and expires.
        A retry after the game expired gets :class:`GameGone`, not the UUID of a dead game.
        """
        if idempotency_key is not None:
            earlier = self.store.find_create_key(_key_hash(ids.strong_key(idempotency_key)))
            if earlier is not None:
                return self._keyed_game(earlier)
        now = self._clock()
        doc = GameDoc(
            game_uuid=str(self._new_uuid()),
            room=self.store.allocate_room(),
            state=Game().to_dict(),
            created_at=now,
            last_modified=now,
            expires_at=int(now) + self.settings.game_ttl_seconds,
        )
        try:
            self.store.create(doc)
        except Conflict:
            raise ConflictError from None
        if idempotency_key is not None:
            claimed = self.store.claim_create_key(
                _key_hash(idempotency_key), doc.game_uuid, doc.expires_at
            )
            if claimed != doc.game_uuid:
                return self._keyed_game(claimed)
        return {"game_uuid": doc.game_uuid}

    def _keyed_game(self, game_uuid: str) -> Body:
        if self.store.load(game_uuid) is None:
            raise GameGone
        return {"game_uuid": game_uuid}

    def join(
        self, game_uuid: str, nickname: str | None, idempotency_key: str | None = None
    ) -> Body:
        """Add a human player; returns their secret ``player_uuid``. A key, if sent, must be
        hard to guess: a repeat of it gets the same secret back."""
        name = ids.nickname(nickname)
        if idempotency_key is not None:
            ids.strong_key(idempotency_key)
        fingerprint = _fingerprint("join", name)

        def change(doc: GameDoc, game: Game) -> tuple[Finish, list[RoundSnapshot]]:
            game.join(name)
            player = str(self._new_uuid())
            doc.player_uuids[name] = player
            return (lambda _doc: {"player_uuid": player}), []

        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_JOIN_ATTEMPTS
        )

    def invite_ai(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        agent_name: str | None,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin seats a built-in AI player, named ``<agent_name>_(AI)`` (then
        ``<agent_name>_2_(AI)``, ...)."""
        admin = ids.admin_uuid(admin_uuid)
        if agent_name is None or agent_name == "":
            raise MissingParameter(
                "agent_name", agent_name, "Agent name missing - please supply it"
            )
        fingerprint = _fingerprint("invite", admin, agent_name)

        def change(doc: GameDoc, game: Game) -> tuple[Finish, list[RoundSnapshot]]:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted
            if game.n_players >= 8:
                raise rules.RoomFull
            self._require_admin(doc, game, admin)
            canonical = resolve_agent_name(agent_name)
            nickname = game.ai_nickname(agent_name)
            game.join(nickname, ai_agent=canonical)
            return (lambda _doc: {"message": f"{nickname} joined the game"}), []

        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_JOIN_ATTEMPTS
        )

    def set_public(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        public: bool,
        idempotency_key: str | None = None,
    ) -> Body:
        admin = ids.admin_uuid(admin_uuid)
        word = "public" if public else "private"
        fingerprint = _fingerprint("visibility", admin, word)

        def change(doc: GameDoc, game: Game) -> tuple[Finish, list[RoundSnapshot]]:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted("Cannot make the change - game already started")
            self._require_admin(doc, game, admin)
            if game.set_public(public):
                return (lambda _doc: {"message": f"Game made {word}"}), []
            raise _Unchanged({"message": f"Request redundant - game already {word}"})

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    def start(
        self, game_uuid: str, admin_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """Start the game (admin only); AI players whose turn comes first move at once."""
        admin = ids.admin_uuid(admin_uuid)
        fingerprint = _fingerprint("start", admin)

        def change(doc: GameDoc, game: Game) -> tuple[Finish, list[RoundSnapshot]]:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted
            self._require_admin(doc, game, admin)
            game.start()
            records = self._play_ai_turns(game, doc.game_uuid, [])
            return (lambda _doc: {"message": "Game started"}), self._snapshots(doc, records)

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    # ------------------------------------------------------------------ playing

    def play(
        self,
        game_uuid: str,
        player_uuid: str | None,
        action_id: object,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Make a move for the player holding ``player_uuid``.

        Returns that player's view of the state after the move; after a check, the state of
        the round that just ended, with every hand shown. AI players whose turn follows move
        within the same request.
        """
        fingerprint = _fingerprint("play", str(player_uuid), repr(action_id), str(expected_version))

        def change(doc: GameDoc, game: Game) -> tuple[Finish, list[RoundSnapshot]]:
            # The established order of checks: the game's status, the player, the action.
            self._require_running(doc)
            player = ids.player_uuid(player_uuid)
            nickname = self._nickname_of(doc, player)
            action = ids.action_id(action_id)
            if expected_version is not None and expected_version != doc.version:
                raise StaleVersion
            record = game.apply(action, by=nickname)
            ended = [record] if record is not None else []
            records = self._play_ai_turns(game, doc.game_uuid, ended)
            snapshots = self._snapshots(doc, records)
            if record is not None:
                data = snapshots[0].data
                return (lambda new: snapshot_body(new, data)), snapshots
            return (lambda new: state_body(new, game.view_for(nickname))), snapshots

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    # ------------------------------------------------------------------ reading

    def state(
        self, game_uuid: str, player_uuid: str | None = None, round_param: str | None = None
    ) -> StateReply:
        """The current state as the given player (or an observer) may see it, or the
        snapshot of a finished round (``round_param``: blank or -1 for the current one)."""
        doc, viewer = self.viewer(game_uuid, player_uuid)
        wanted = ids.round_number(round_param)
        current = int(doc.state["round_number"])
        if wanted is not None and wanted > current:
            raise rules.RoundNotReached
        finished = doc.status == Status.FINISHED.value
        if wanted is None or (wanted == current and not finished):
            return StateReply(current_state(doc, viewer), f'"v{doc.version}"')
        snapshot = self.store.load_round(doc.game_uuid, wanted)
        if snapshot is None:  # a snapshot can only be missing if the store lost it
            raise GameNotFound(f"Round {wanted} of this game is no longer stored")
        return StateReply(snapshot_body(doc, snapshot.data), f'"v{doc.version}-r{wanted}"')

    def viewer(self, game_uuid: str | None, player_uuid: str | None) -> tuple[GameDoc, str | None]:
        """The game and who is looking at it: the nickname ``player_uuid`` belongs to, or
        None for an observer (no UUID). Refuses what :meth:`state` refuses: a bad UUID, an
        unknown game, a UUID of no player. Websocket watchers are checked with it."""
        doc = self._load(ids.game_uuid(game_uuid))
        viewer = None
        if player_uuid is not None and player_uuid != "":
            viewer = self._nickname_of(doc, ids.player_uuid(player_uuid))
        return doc, viewer

    def version(self, game_uuid: str) -> int | None:
        """The game's current version, or None once it is gone: what a websocket watcher
        polls to learn that the game changed."""
        doc = self.store.load(ids.game_uuid(game_uuid))
        return None if doc is None else doc.version

    def list_public(self, limit: int | None = None) -> list[Body]:
        """The first page of :meth:`list_public_page`."""
        return self.list_public_page(limit)[0]

    def list_public_page(
        self, limit: int | None = None, cursor: str | None = None
    ) -> tuple[list[Body], str | None]:
        """Public games still in the lobby, changed within the listing window, newest first:
        at most ``limit`` of them, which may not exceed the configured maximum (a clear 400,
        rather than silently fewer games than asked for), after ``cursor``; and the cursor of
        the next page (None when this one is the last). Paging reaches every listed game, so
        a flood of new games cannot hide an older one from a client that pages."""
        cap = self.settings.max_listed_games
        if limit is not None and not 1 <= limit <= cap:
            raise InvalidParameter("limit", limit, f"Must be an integer between 1 and {cap}")
        count = cap if limit is None else limit
        after = None if cursor is None or cursor == "" else _read_cursor(cursor)
        since = self._clock() - self.settings.public_list_window_seconds
        games = self.store.list_public(since, count, after)
        following = None
        if len(games) == count:
            last = games[-1]
            following = _write_cursor(last.last_modified, last.game_uuid)
        return [list_entry(game) for game in games], following

    def record(self, game_uuid: str) -> Body:
        """A finished game's every round (players, hands, history, seeds)."""
        doc = self._load(ids.game_uuid(game_uuid))
        if doc.status != Status.FINISHED.value:
            raise GameNotFinished
        rounds = self.store.load_rounds(doc.game_uuid)
        return record_body(doc, [s.data for s in rounds])

    # ------------------------------------------------------------------ the one write path

    def _change(
        self,
        game_uuid: str,
        change: Callable[[GameDoc, Game], tuple[Finish, list[RoundSnapshot]]],
        idempotency_key: str | None,
        fingerprint: str,
        *,
        attempts: int = 1,
    ) -> Body:
        gid = ids.game_uuid(game_uuid)
        for attempt in range(attempts):
            doc = self._load(gid)
            if idempotency_key is not None:
                earlier = _earlier_reply(doc, idempotency_key, fingerprint)
                if earlier is not None:
                    return earlier
            game = Game.from_dict(doc.state, seed_source=self._seed_source)
            work = replace(doc, player_uuids=dict(doc.player_uuids), replies=dict(doc.replies))
            try:
                finish, snapshots = change(work, game)
            except _Unchanged as unchanged:
                return unchanged.body
            now = self._clock()
            work.state = game.to_dict()
            work.version = doc.version + 1
            work.last_modified = max(now, doc.last_modified + 0.001)
            work.expires_at = int(now) + self.settings.game_ttl_seconds
            body = finish(work)
            if idempotency_key is not None:
                _remember(work, idempotency_key, fingerprint, body)
            try:
                self.store.save(work, doc.version, snapshots)
            except Conflict:
                log.info("conflict", extra={"attempt": attempt + 1})
                continue
            return body
        if idempotency_key is not None:  # the winner of the race may have been our own retry
            doc = self._load(gid)
            earlier = _earlier_reply(doc, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
        raise ConflictError

    # ------------------------------------------------------------------ helpers

    def _load(self, game_uuid: str) -> GameDoc:
        doc = self.store.load(game_uuid)
        if doc is None:
            raise GameNotFound
        return doc

    @staticmethod
    def _require_running(doc: GameDoc) -> None:
        if doc.status == Status.NOT_STARTED.value:
            raise rules.GameNotStarted
        if doc.status == Status.FINISHED.value:
            raise rules.GameFinished

    @staticmethod
    def _nickname_of(doc: GameDoc, player_uuid: str) -> str:
        for nickname, secret in doc.player_uuids.items():
            if secrets.compare_digest(secret, player_uuid):
                return nickname
        raise NotAPlayer

    @staticmethod
    def _require_admin(doc: GameDoc, game: Game, admin_uuid: str) -> None:
        admin = game.admin
        secret = doc.player_uuids.get(admin) if admin is not None else None
        if secret is None or not secrets.compare_digest(secret, admin_uuid):
            raise rules.NotAdmin

    @staticmethod
    def _snapshots(doc: GameDoc, records: list[RoundRecord]) -> list[RoundSnapshot]:
        return [RoundSnapshot(doc.game_uuid, r.number, r.to_dict()) for r in records]

    def _play_ai_turns(
        self, game: Game, game_uuid: str, records: list[RoundRecord]
    ) -> list[RoundRecord]:
        """Let AI players move while it is their turn, adding the rounds that end to
        ``records`` (which holds the rounds this request ended before); returns it.

        Agents are made afresh for each request. One that learns from finished rounds is
        first told every round of the game so far (those stored, then ``records``), so it
        plays as it would have had it sat at the table all along.
        """
        agents: dict[int, Agent] = {}
        earlier: list[RoundRecord] | None = None
        for _ in range(self.settings.max_ai_moves_per_request):
            seat = game.current_seat
            if game.status is not Status.RUNNING or seat is None:
                break
            name = game.ai_agents[seat]
            if name is None:
                break
            agent = agents.get(seat)
            if agent is None:
                agent = agents[seat] = self._agent_factory(name, secrets.randbits(63))
                if agent.learns_from_rounds:
                    if earlier is None:
                        earlier = [
                            RoundRecord.from_dict(s.data) for s in self.store.load_rounds(game_uuid)
                        ]
                    for past in (*earlier, *records):
                        agent.round_ended(past)
            action = agent.act(Observation(game, seat))
            if not game.is_legal(action):
                log.warning("ai_illegal_action", extra={"agent": name})
                action = game.legal_actions()[-1]
            record = game.apply(action)
            if record is not None:
                records.append(record)
                for other in agents.values():
                    other.round_ended(record)
        return records


class _Unchanged(Exception):
    """Raised by a change that turns out to change nothing: answer without writing."""

    def __init__(self, body: Body) -> None:
        super().__init__()
        self.body = body


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _write_cursor(last_modified: float, game_uuid: str) -> str:
    raw = json.dumps([last_modified, game_uuid], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str) -> tuple[float, str]:
    """The position a cursor names; anything not made by :func:`_write_cursor` is a 400."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        last_modified, game_uuid = json.loads(raw)
        position = (float(last_modified), ids.game_uuid(str(game_uuid)))
    except (ValueError, TypeError, InvalidParameter):
        raise InvalidParameter(
            "cursor", cursor, "Not a cursor this service gave (send X-Next-Cursor back as is)"
        ) from None
    if not math.isfinite(position[0]):
        raise InvalidParameter("cursor", cursor, "Not a cursor this service gave")
    return position


def _key_hash(key: str) -> str:
    """What is stored of an Idempotency-Key: its SHA-256, so a reader of the database (or
    of a backup) cannot replay a stored reply that holds a secret."""
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def _earlier_reply(doc: GameDoc, key: str, fingerprint: str) -> Body | None:
    reply = doc.replies.get(_key_hash(key))
    if reply is None:
        return None
    if reply.get("fingerprint") != fingerprint:
        raise IdempotencyKeyReused
    body: Body = reply["body"]
    return body


def _remember(doc: GameDoc, key: str, fingerprint: str, body: Body) -> None:
    doc.replies[_key_hash(key)] = {"fingerprint": fingerprint, "body": json.loads(json.dumps(body))}
    while len(doc.replies) > _KEEP_REPLIES:
        del doc.replies[next(iter(doc.replies))]
