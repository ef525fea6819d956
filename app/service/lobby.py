"""The lobby: create a game (and join it in the same call), join it, invite AI players, make
it public or private, set the move time limit, change the rules, start."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from app.service import parse
from app.service.base import UseCases, nickname_of, refuse_moved, require_admin
from app.service.errors import (
    ConflictError,
    GameGone,
    InvalidParameter,
    MissingParameter,
    NotAPlayer,
)
from app.service.profanity import refuse_profane
from app.service.social import is_reserved_name
from app.service.writes import (
    Body,
    Change,
    Outcome,
    Retry,
    earlier_reply,
    fingerprint,
    key_hash,
    message,
    remember_first,
    reply,
    unchanged,
)
from app.store.base import Conflict, GameDoc
from engine import errors as rules
from engine.game import Game, Status
from engine.rules import CLASSIC, Rules

NOBODY = ""
"""Who asks when a UUID names no player: no nickname is empty, so the engine's admin check
refuses it (after the checks of the game's state, in the established order)."""


def _requester(doc: GameDoc, player_uuid: str) -> str:
    try:
        return nickname_of(doc, player_uuid)
    except NotAPlayer:
        return NOBODY


@contextmanager
def _moved_refused(doc: GameDoc, admin_uuid: str) -> Iterator[None]:
    """The engine's check of the admin, with a UUID retired by a move refused as such (the
    engine checks the game's state first, in the established order)."""
    try:
        yield
    except rules.NotAdmin:
        refuse_moved(doc, admin_uuid)
        raise


class Lobby(UseCases):
    def create_game(
        self,
        idempotency_key: str | None = None,
        nickname: str | None = None,
        team: object = None,
        *,
        rules: Rules | None = None,
        public: bool = False,
        time_limit: int = 0,
    ) -> Body:
        """A new game in the lobby, with a random UUID; with a ``nickname``, created with that
        player already seated (in ``team``, if given) as its admin, in one write, answering
        both UUIDs (the newer established service's create).

        With a key (which must be hard to guess: the reply makes its holder the game's first
        comer), the store remembers a hash of the key and the game it made, and a retry gets
        that game back. The game is created before the key is claimed, so a race of two
        retries yields one answer: the loser's own game stays unknown to anyone and expires.
        A retry after the game expired gets :class:`GameGone`, not the UUID of a dead game.
        """
        name = None if nickname is None or nickname == "" else parse.nickname(nickname)
        side = parse.team(team)
        if name is not None:
            refuse_profane(name)
        key = None if idempotency_key is None else parse.strong_key(idempotency_key)
        request = fingerprint("create", name or "", str(side))
        if rules is not None or public or time_limit:  # the tables' create (blef_tables.py)
            chosen = json.dumps(None if rules is None else rules.to_dict(), sort_keys=True)
            request = fingerprint(request, chosen, str(public), str(time_limit))
        if key is not None:
            earlier = self.store.find_create_key(key_hash(key))
            if earlier is not None:
                return self._keyed_game(earlier, key, request, name)
        game = Game(rules=rules or CLASSIC)
        game.table.public = public
        player_uuids = {}
        if name is not None:
            game.join(name, team=side)
            player_uuids[name] = self.new_secret()
        elif side is not None:
            raise InvalidParameter("team", str(team), "A team needs a nickname to join with")
        now = self.now
        doc = GameDoc(
            game_uuid=self.new_secret(),
            room=self.store.allocate_room(),
            state=game.to_dict(),
            player_uuids=player_uuids,
            created_at=now,
            last_modified=now,
            expires_at=int(now) + self.settings.game_ttl_seconds,
            time_limit=time_limit,
        )
        body = _created(doc, name)
        if key is not None:  # the first answer, kept with the game for its replays
            remember_first(doc, key, request, body)
        try:
            self.store.create(doc)
        except Conflict:
            raise ConflictError from None
        self.writes.announce(Change(doc, None))
        if key is not None:
            claimed = self.store.claim_create_key(key_hash(key), doc.game_uuid, doc.expires_at)
            if claimed != doc.game_uuid:
                return self._keyed_game(claimed, key, request, name)
        return body

    def _keyed_game(self, game_uuid: str, key: str, request: str, nickname: str | None) -> Body:
        """The first answer of the create keyed ``key`` (which made ``game_uuid``), unchanged,
        if this is the same request; else :class:`IdempotencyKeyReused`. Never a secret
        looked up by the nickname the replay names: the seats may have changed hands since."""
        doc = self.store.load(game_uuid)
        if doc is None:
            raise GameGone
        earlier = earlier_reply(doc, key, request)
        if earlier is not None:
            return earlier
        if nickname is None:  # a game made before creates kept their answer: no secret in it
            return {"game_uuid": doc.game_uuid}
        raise GameGone(
            "The first answer to this Idempotency-Key is no longer kept; create a new game"
            " with a new key"
        )

    def join(
        self,
        game_uuid: str,
        nickname: str | None,
        idempotency_key: str | None = None,
        team: object = None,
    ) -> Body:
        """Add a human player; returns their secret ``player_uuid``. The nickname is kept in
        its composed (NFC) form, and refused if malformed (engine/names.py) or profane
        (app/service/profanity.py). A key, if sent, must be hard to guess: a repeat of it gets
        the same secret back."""
        name = parse.nickname(nickname)
        side = parse.team(team)
        refuse_profane(name)
        if idempotency_key is not None:
            parse.strong_key(idempotency_key)

        def seat(doc: GameDoc, game: Game) -> Outcome:
            player = seat_human(doc, game, name, side, self.new_secret())
            return Outcome(reply({"player_uuid": player}))

        return self.writes.change(
            game_uuid,
            seat,
            key=idempotency_key,
            fingerprint=fingerprint("join", name, str(side)),
            retry=Retry.ALWAYS,
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
        admin = parse.admin_uuid(admin_uuid)
        if agent_name is None or agent_name == "":
            raise MissingParameter(
                "agent_name", agent_name, "Agent name missing - please supply it"
            )
        from engine.agents import resolve_agent_name  # noqa: PLC0415 (agents load on use)

        def seat_ai(doc: GameDoc, game: Game) -> Outcome:
            game.check_seat_free()  # the established order: the game's state, then the admin
            require_admin(doc, game, admin)
            agent = resolve_agent_name(agent_name)
            nickname = game.ai_nickname(agent_name)
            game.join(nickname, ai_agent=agent)
            return Outcome(message(f"{nickname} joined the game"))

        return self.writes.change(
            game_uuid,
            seat_ai,
            key=idempotency_key,
            fingerprint=fingerprint("invite", admin, agent_name),
            retry=Retry.ALWAYS,
        )

    def set_public(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        public: bool,
        idempotency_key: str | None = None,
    ) -> Body:
        admin = parse.admin_uuid(admin_uuid)
        word = "public" if public else "private"

        def list_or_unlist(doc: GameDoc, game: Game) -> Outcome:
            with _moved_refused(doc, admin):
                listed = game.set_public(public, by=_requester(doc, admin))
            if listed:
                return Outcome(message(f"Game made {word}"))
            return unchanged(f"Request redundant - game already {word}")

        return self.writes.change(
            game_uuid,
            list_or_unlist,
            key=idempotency_key,
            fingerprint=fingerprint("visibility", admin, word),
        )

    def set_time_limit(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        seconds: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """Set the per-move time limit (admin only, in the lobby): 0 for none, or 1 to
        300 seconds. A player who lets it pass loses the round (app/service/due.py)."""
        admin = parse.admin_uuid(admin_uuid)
        limit = parse.time_limit(seconds)

        def set_limit(doc: GameDoc, game: Game) -> Outcome:
            # The time limit is the service's setting, not (yet) a rule the engine keeps.
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted("Cannot make the change - game already started")
            require_admin(doc, game, admin)
            if doc.time_limit == limit:
                return unchanged(f"Request redundant - time limit already {limit}")
            doc.time_limit = limit
            return Outcome(message(f"Time limit set to {limit}"))

        return self.writes.change(
            game_uuid,
            set_limit,
            key=idempotency_key,
            fingerprint=fingerprint("time-limit", admin, str(limit)),
        )

    def change_rules(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        changes: dict[str, object],
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin changes some of the rules before the start (engine/rules.py; the time
        limit is the service's): each value an integer (``initial_cards`` also ``random`` or
        ``nick:count,...``), each checked against its bounds. Every human is unready after
        a change. A change that loses a race to a join is applied again; one that loses to
        the start is refused as after the start."""
        admin = parse.admin_uuid(admin_uuid)
        values = parse.rule_changes(changes)
        limit = values.pop("time_limit", None)

        def change(doc: GameDoc, game: Game) -> Outcome:
            if game.status is not Status.NOT_STARTED:
                raise rules.GameAlreadyStarted("Cannot change rules after the game has started")
            require_admin(doc, game, admin)
            new = game.rules.but(**values)
            changed = game.set_rules(new)
            if limit is not None and doc.time_limit != limit:
                doc.time_limit = limit
                changed = True
            if not changed:
                return unchanged("Request redundant - the rules are already these")
            return Outcome(message("Rules updated"))

        return self.writes.change(
            game_uuid,
            change,
            key=idempotency_key,
            fingerprint=fingerprint("rules", admin, repr(sorted(changes.items()))),
            retry=Retry.ALWAYS,
        )

    def start(
        self, game_uuid: str, admin_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """Start the game (admin only). An AI player to move first moves after its think
        time, as its own change (app/service/due.py)."""
        admin = parse.admin_uuid(admin_uuid)

        def start(doc: GameDoc, game: Game) -> Outcome:
            with _moved_refused(doc, admin):
                game.start(by=_requester(doc, admin))
            return Outcome(message("Game started"))

        return self.writes.change(
            game_uuid, start, key=idempotency_key, fingerprint=fingerprint("start", admin)
        )


def _created(doc: GameDoc, nickname: str | None) -> Body:
    """What create answers: the game, and the creator's secret when they joined it."""
    if nickname is None:
        return {"game_uuid": doc.game_uuid}
    return {"game_uuid": doc.game_uuid, "player_uuid": doc.player_uuids[nickname]}


def seat_human(doc: GameDoc, game: Game, name: str, team: int | None, secret: str) -> str:
    """Seat the human ``name`` (in ``team``) with the secret ``secret``, which it returns;
    a nickname hidden at this table (or its alias) is taken. Refusals name the parameter,
    in the established wording, as for every bad input."""
    try:
        if is_reserved_name(doc.social, name):
            raise rules.NicknameTaken
        game.join(name, team=team)
    except (rules.InvalidNickname, rules.NicknameTaken) as error:
        raise type(error)(InvalidParameter("nickname", name, error.message).message) from None
    doc.player_uuids[name] = secret
    return secret
