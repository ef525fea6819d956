"""The use cases of the Blef service, one method each, over a :class:`GameStore`.

Every change follows one path (:meth:`GameService.change`): load the game, check an
``Idempotency-Key`` against the replies already given, rebuild the engine's :class:`Game`,
apply the change, stamp the times (``last_modified``, the move deadline and when the clock is
next due, app/clock/agenda.py), then save conditionally on the version that was read, with
the snapshot of the round that ended, if one did, in one atomic write. A lost race raises
:class:`ConflictError` (HTTP 409) and nothing is written. Joining and the table's requests
(leave, ready, react, ...) are retried on a conflict, since re-applying them to the fresher
state is exactly what the client asked for; a move is retried only if the game's own state
is still the one the mover saw (a reaction, which changes no card or turn, may have won the
race). After a save, every subscriber (the websocket watchers and the clock of ``blef
serve``) is told of the :class:`Change`.

AI players never move inside a human's request: each AI move is its own change, made by the
clock (app/clock) after the AI's think time, so that every move and every round's end is its
own version that clients see.

The service takes and returns plain values; it knows nothing of HTTP.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import logging
import math
import secrets
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from app.clock.agenda import plan
from app.service import ids, table
from app.service.errors import (
    CannotReportAI,
    CannotReportSelf,
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
from app.service.seats import seat_key
from app.settings import Settings
from app.store.base import Conflict, GameDoc, GameStore, Report, RoundSnapshot
from engine import errors as rules
from engine.agents import make_agent, resolve_agent_name
from engine.agents.base import Agent
from engine.dealing import SeedSource
from engine.game import Game, RoundRecord, Status

log = logging.getLogger("blef.service")

_KEEP_REPLIES: Final = 16
"""Idempotent replies kept per game. A retry comes within seconds, while the same few
moves are in flight; keeping few keeps the stored item (and each DynamoDB write) small."""
_RETRIED_ATTEMPTS: Final = 8
_ORDER_STRIPES: Final = 64
_TICK: Final = 0.001
"""The least step between two ``last_modified`` values: every version is strictly newer
than the one before, and an ended round's snapshot sits strictly between them."""

Body = dict[str, Any]
Finish = Callable[[GameDoc, Sequence[RoundSnapshot]], Body]
"""Builds the reply from the document as saved and the snapshots saved with it."""
Outcome = tuple[Finish, list[RoundRecord]]
"""What a change returns: how to build its reply, and the rounds it ended."""
ChangeFunction = Callable[[GameDoc, Game], Outcome]


@dataclass(frozen=True, slots=True)
class Change:
    """A game as just saved (``doc``), as it was before (None when it was just created),
    and the snapshots of the rounds that ended in this change, oldest first."""

    doc: GameDoc
    previous: GameDoc | None
    snapshots: tuple[RoundSnapshot, ...] = ()


Listener = Callable[[Change], None]


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
        self.agent_factory = agent_factory
        self._listeners: list[Listener] = []
        # A game's saves and their announcements happen under one of these locks, so that
        # listeners hear of a game's versions in order even when threads race to save.
        self._order = [threading.Lock() for _ in range(_ORDER_STRIPES)]

    @property
    def now(self) -> float:
        """The service's clock (injectable, so tests can move time)."""
        return self._clock()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every :class:`Change` saved from now on, in the thread
        that saved it, in the order of the game's versions. A listener must be quick and
        must not raise (what it raises is logged and ignored)."""
        self._listeners.append(listener)

    def _announce(self, change: Change) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.exception("listener_failed")

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
        self._announce(Change(doc, None))
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

        def change(doc: GameDoc, game: Game) -> Outcome:
            try:
                if table.is_reserved_name(doc.social, name):
                    raise rules.NicknameTaken
                game.join(name)
            except (rules.InvalidNickname, rules.NicknameTaken) as error:
                # The established wording names the parameter, as for every bad input.
                raise type(error)(
                    InvalidParameter("nickname", name, error.message).message
                ) from None
            player = str(self._new_uuid())
            doc.player_uuids[name] = player
            return (lambda _doc, _snapshots: {"player_uuid": player}), []

        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
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

        def change(doc: GameDoc, game: Game) -> Outcome:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted
            if game.n_players >= 8:
                raise rules.RoomFull
            self._require_admin(doc, game, admin)
            canonical = resolve_agent_name(agent_name)
            nickname = game.ai_nickname(agent_name)
            game.join(nickname, ai_agent=canonical)
            return (lambda _doc, _snapshots: {"message": f"{nickname} joined the game"}), []

        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
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

        def change(doc: GameDoc, game: Game) -> Outcome:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted("Cannot make the change - game already started")
            self._require_admin(doc, game, admin)
            if game.set_public(public):
                return (lambda _doc, _snapshots: {"message": f"Game made {word}"}), []
            raise _Unchanged({"message": f"Request redundant - game already {word}"})

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    def set_time_limit(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        seconds: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """Set the per-move time limit (admin only, in the lobby): 0 for none, or 1 to
        300 seconds. A player who lets it pass loses the round (see app/clock)."""
        admin = ids.admin_uuid(admin_uuid)
        limit = ids.time_limit(seconds)
        fingerprint = _fingerprint("time-limit", admin, str(limit))

        def change(doc: GameDoc, game: Game) -> Outcome:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted("Cannot make the change - game already started")
            self._require_admin(doc, game, admin)
            if doc.time_limit == limit:
                raise _Unchanged({"message": f"Request redundant - time limit already {limit}"})
            doc.time_limit = limit
            return (lambda _doc, _snapshots: {"message": f"Time limit set to {limit}"}), []

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    def start(
        self, game_uuid: str, admin_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """Start the game (admin only). An AI player to move first moves after its think
        time, as its own change (app/clock)."""
        admin = ids.admin_uuid(admin_uuid)
        fingerprint = _fingerprint("start", admin)

        def change(doc: GameDoc, game: Game) -> Outcome:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted
            self._require_admin(doc, game, admin)
            game.start()
            return (lambda _doc, _snapshots: {"message": "Game started"}), []

        return self._change(game_uuid, change, idempotency_key, fingerprint)

    # ------------------------------------------------------------------ the table

    def leave(
        self, game_uuid: str, player_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """A player leaves the lobby: their seat, nickname and UUID are freed; an admin who
        leaves hands over to the human who joined next; the last human out empties the
        game (its AI players go too; it is private and expires)."""
        player = ids.player_uuid(player_uuid)

        def change(doc: GameDoc, game: Game) -> Outcome:
            nickname = self._nickname_of(doc, player)
            was_admin = game.admin == nickname
            game.leave(nickname)
            self._drop_player(doc, nickname)
            if not game.n_players:
                doc.player_uuids.clear()
                doc.social = {"hidden": doc.social.get("hidden", {})}
            message = "You left the game"
            if was_admin and game.admin is not None:
                message += f" - {game.admin} is the admin now"
            return self._after_lobby_change(doc, game, message)

        return self._change(
            game_uuid,
            change,
            idempotency_key,
            _fingerprint("leave", player),
            attempts=_RETRIED_ATTEMPTS,
        )

    def remove_player(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin removes another player (human or AI) from the lobby; a removed human's
        UUID stops working."""
        admin = ids.admin_uuid(admin_uuid)
        target = ids.required_text("nickname", nickname)

        def change(doc: GameDoc, game: Game) -> Outcome:
            self._require_admin(doc, game, admin)
            removed = game.player_named(target)
            game.remove(removed, by=game.admin)
            self._drop_player(doc, removed)
            return self._after_lobby_change(doc, game, f"{removed} was removed from the game")

        fingerprint = _fingerprint("remove", admin, target)
        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

    def resign(
        self, game_uuid: str, player_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """A player leaves a running game: out at once, as a forfeit; the round ends there
        (its snapshot is kept) and the game goes on, or ends if one player is left."""
        player = ids.player_uuid(player_uuid)

        def change(doc: GameDoc, game: Game) -> Outcome:
            record = game.resign(self._nickname_of(doc, player))
            message = "You resigned - you are out of the game"
            if game.status is Status.FINISHED:
                message += f"; {game.winner} won"
            return (lambda _doc, _snapshots: {"message": message}), [record]

        return self._change(
            game_uuid,
            change,
            idempotency_key,
            _fingerprint("resign", player),
            attempts=_RETRIED_ATTEMPTS,
        )

    def set_ready(
        self,
        game_uuid: str,
        player_uuid: str | None,
        ready: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A human says they are ready (or not); the game starts here if the admin chose
        auto start and this makes every human ready with two or more seated."""
        player = ids.player_uuid(player_uuid)
        wanted = ids.flag("ready", ready)
        word = "ready" if wanted else "not ready"

        def change(doc: GameDoc, game: Game) -> Outcome:
            if not game.set_ready(self._nickname_of(doc, player), wanted):
                raise _Unchanged({"message": f"Request redundant - already {word}"})
            return self._after_lobby_change(doc, game, word.capitalize())

        fingerprint = _fingerprint("ready", player, word)
        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

    def set_auto_start(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        auto_start: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin chooses whether the game starts by itself once every human is ready
        (turning it on starts the game at once if they already are)."""
        admin = ids.admin_uuid(admin_uuid)
        wanted = ids.flag("auto_start", auto_start)
        word = "on" if wanted else "off"

        def change(doc: GameDoc, game: Game) -> Outcome:
            self._require_admin(doc, game, admin)
            if not game.set_auto_start(wanted, by=game.admin):
                raise _Unchanged({"message": f"Request redundant - auto start already {word}"})
            return self._after_lobby_change(doc, game, f"Auto start {word}")

        fingerprint = _fingerprint("auto-start", admin, word)
        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

    def set_max_cards(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        max_cards: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin chooses the maximum of cards (1 to the rule's maximum for the players
        seated); the start caps it again by the rule's maximum for the players then."""
        admin = ids.admin_uuid(admin_uuid)
        limit = ids.whole_number("max_cards", max_cards)

        def change(doc: GameDoc, game: Game) -> Outcome:
            self._require_admin(doc, game, admin)
            if not game.set_max_cards(limit, by=game.admin):
                raise _Unchanged({"message": f"Request redundant - maximum already {limit}"})
            return _message(f"Maximum of cards set to {limit}"), []

        fingerprint = _fingerprint("max-cards", admin, str(limit))
        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

    def react(
        self,
        game_uuid: str,
        player_uuid: str | None,
        reaction: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A player sends one of the fixed reactions; every watcher gets it with the state
        (the last few are shown). Limited per player (``reaction_burst`` per
        ``reaction_window_seconds``), counted in the game itself."""
        player = ids.player_uuid(player_uuid)
        sent = table.reaction(reaction)
        settings = self.settings

        def change(doc: GameDoc, game: Game) -> Outcome:
            table.add_reaction(
                doc.social,
                self._nickname_of(doc, player),
                sent,
                self._clock(),
                burst=settings.reaction_burst,
                window=settings.reaction_window_seconds,
            )
            return _message("Reaction sent"), []

        fingerprint = _fingerprint("react", player, sent)
        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

    def report(
        self,
        game_uuid: str,
        player_uuid: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A player reports another human's nickname as offensive. The report is kept for
        the operator (the store's report list); once every other human at the table has
        reported a nickname, it is shown as ``Player_<seat>`` from then on."""
        gid = ids.game_uuid(game_uuid)
        player = ids.player_uuid(player_uuid)
        target = ids.required_text("nickname", nickname)
        reported: dict[str, str] = {}

        def change(doc: GameDoc, game: Game) -> Outcome:
            reporter = self._nickname_of(doc, player)
            named = game.player_named(target)
            if named == reporter:
                raise CannotReportSelf
            if game.ai_agents[game.seat_of(named)] is not None:
                raise CannotReportAI
            seat = seat_key(doc.player_uuids[named])
            original = table.hidden_seats(doc.social, doc.player_uuids).get(seat)
            if original is not None:  # this player is hidden already: filed under their name
                reported.update(reporter=reporter, nickname=original)
                raise _Unchanged({"message": "Request redundant - that nickname is hidden"})
            reported.update(reporter=reporter, nickname=named)
            if not table.record_report(doc.social, reporter, named):
                raise _Unchanged({"message": "Request redundant - already reported"})
            message = "Reported"
            for old, new in self._hide_reported(doc, game):
                message += f" - {old} is shown as {new} from now on"
            return _message(message), []

        fingerprint = _fingerprint("report", player, target)
        body = self._change(gid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS)
        if reported:  # the operator's copy; the same report again replaces it
            now = self._clock()
            self.store.add_report(
                Report(
                    game_uuid=gid,
                    reporter=reported["reporter"],
                    nickname=reported["nickname"],
                    reported_at=now,
                    expires_at=int(now) + self.settings.report_ttl_seconds,
                )
            )
        return body

    def _after_lobby_change(self, doc: GameDoc, game: Game, message: str) -> Outcome:
        """A lobby change's reply, saying so if it started the game (auto start); hides a
        nickname whose last non-reporter just left."""
        self._hide_reported(doc, game)
        if game.status is Status.RUNNING:
            message += " - Game started"
        return _message(message), []

    @staticmethod
    def _drop_player(doc: GameDoc, nickname: str) -> None:
        """Forget a player who left the lobby: their UUID, the idempotent replies that hold
        it (a replayed join must not hand back a dead secret), what the table noted."""
        secret = doc.player_uuids.pop(nickname, None)
        if secret is not None:
            for key, reply in list(doc.replies.items()):
                if reply.get("body", {}).get("player_uuid") == secret:
                    del doc.replies[key]
        table.forget(doc.social, nickname)

    @staticmethod
    def _hide_reported(doc: GameDoc, game: Game) -> list[tuple[str, str]]:
        """Rename every nickname that every other human at the table has reported."""
        done = []
        for nickname in table.to_hide(doc.social, game, doc.player_uuids):
            new = table.alias(doc.social, game, nickname)
            game.rename(nickname, new)
            doc.player_uuids[new] = doc.player_uuids.pop(nickname)
            table.hide(doc.social, doc.player_uuids, nickname, new)
            done.append((nickname, new))
        return done

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

        Returns that player's view of the state right after the move; after a check, the
        snapshot of the round it ended, every hand shown, whose ``last_modified`` is older
        than the state that follows it. AI players whose turn follows move later, each as
        its own change (app/clock).
        """
        fingerprint = _fingerprint("play", str(player_uuid), repr(action_id), str(expected_version))
        decided_on: list[dict[str, Any]] = []

        def change(doc: GameDoc, game: Game) -> Outcome:
            # Retried after a lost race only if the game itself is as the move found it
            # (what won the race was a reaction, say): the mover decided on that state.
            if decided_on and doc.state != decided_on[0]:
                raise ConflictError
            decided_on.append(doc.state)
            # The established order of checks: the game's status, the player, the action.
            self._require_running(doc)
            player = ids.player_uuid(player_uuid)
            nickname = self._nickname_of(doc, player)
            action = ids.action_id(action_id)
            if expected_version is not None and expected_version != doc.version:
                raise StaleVersion
            record = game.apply(action, by=nickname)
            if record is not None:
                return (lambda new, snapshots: snapshot_body(new, snapshots[0])), [record]
            return (lambda new, _snapshots: state_body(new, game.view_for(nickname))), []

        return self._change(
            game_uuid, change, idempotency_key, fingerprint, attempts=_RETRIED_ATTEMPTS
        )

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
        return StateReply(snapshot_body(doc, snapshot), f'"v{doc.version}-r{wanted}"')

    def viewer(self, game_uuid: str | None, player_uuid: str | None) -> tuple[GameDoc, str | None]:
        """The game and who is looking at it: the nickname ``player_uuid`` belongs to, or
        None for an observer (no UUID). Refuses what :meth:`state` refuses: a bad UUID, an
        unknown game, a UUID of no player. Websocket watchers are checked with it."""
        doc = self._load(ids.game_uuid(game_uuid))
        viewer = None
        if player_uuid is not None and player_uuid != "":
            viewer = self._nickname_of(doc, ids.player_uuid(player_uuid))
        return doc, viewer

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

    def change(
        self, game_uuid: str, change: ChangeFunction, *, expected_version: int | None = None
    ) -> Body:
        """Apply ``change`` through the one write path, refusing (:class:`StaleVersion`)
        unless the game is still at ``expected_version``: how the clock acts on what it
        decided from that version, so that a duplicate or late trigger changes nothing."""

        def checked(doc: GameDoc, game: Game) -> Outcome:
            if expected_version is not None and doc.version != expected_version:
                raise StaleVersion
            return change(doc, game)

        return self._change(game_uuid, checked, None, "")

    def _change(
        self,
        game_uuid: str,
        change: ChangeFunction,
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
            work = replace(
                doc,
                player_uuids=dict(doc.player_uuids),
                replies=dict(doc.replies),
                social=copy.deepcopy(doc.social),
            )
            try:
                finish, records = change(work, game)
            except _Unchanged as unchanged:
                return unchanged.body
            now = self._clock()
            work.state = game.to_dict()
            work.version = doc.version + 1
            # Strictly newer than the version before, with room for the ended rounds'
            # snapshots in between (clients order what they receive by last_modified).
            work.last_modified = max(now, doc.last_modified + _TICK * (len(records) + 1))
            work.expires_at = int(now) + self.settings.game_ttl_seconds
            timing = plan(
                doc.state,
                work.state,
                now=now,
                time_limit=work.time_limit,
                think_seconds=self.settings.ai_think_seconds,
                deadline_before=doc.move_deadline,
                due_before=doc.due_at,
            )
            work.move_deadline, work.due_at = timing.move_deadline, timing.due_at
            snapshots = [
                RoundSnapshot(
                    gid,
                    record.number,
                    record.to_dict(),
                    work.last_modified - _TICK * (len(records) - i),
                )
                for i, record in enumerate(records)
            ]
            body = finish(work, snapshots)
            if idempotency_key is not None:
                _remember(work, idempotency_key, fingerprint, body)
            try:
                with self._order[zlib.crc32(gid.encode()) % _ORDER_STRIPES]:
                    self.store.save(work, doc.version, snapshots)
                    self._announce(Change(work, doc, tuple(snapshots)))
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
            # The established wording names the parameter, as for every bad input.
            reason = GameNotFound.default_message
            raise GameNotFound(InvalidParameter("game_uuid", game_uuid, reason).message)
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


class _Unchanged(Exception):
    """Raised by a change that turns out to change nothing: answer without writing."""

    def __init__(self, body: Body) -> None:
        super().__init__()
        self.body = body


def _message(text: str) -> Finish:
    return lambda _doc, _snapshots: {"message": text}


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
