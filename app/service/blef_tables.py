"""Blef at the tables' routes (``/blef/games/...``): the shape every game shares
(app/service/matches.py, api_docs/tables.md), mapped onto Blef's own use cases.

Nothing here changes a game by itself: each verb calls the established use case
(:meth:`~app.service.lobby.Lobby.join`, :meth:`~app.service.lobby.Lobby.start`,
:meth:`~app.service.play.Play.play`, ...), which goes through the one write path with its
``Idempotency-Key`` (a repeat is not applied again), and then answers the table as the
seat sees it now (:func:`blef_table_body`). A game made here is the same game at
``/games/{uuid}``; both shapes read and write one stored game.

The table of a Blef game: ``view`` is Blef's protocol view (engine/blef/state.py) for the
seat; seats are in join order in the lobby and in Blef's seating order once started (the
start draws it from the first round's seed: read ``you`` again after the start);
``events`` are those of the last move (a bet, or a check and the round's end); ``result``
places the seats by the order they went out (engine/standings.py).

Refusals follow the tables' conventions: a missing or wrong secret is ``403``, an unknown
game ``404 game_not_found``, a move the rules refuse now ``409`` with Blef's code
(``not_your_turn``, ``illegal_action``, ``game_not_started``, ``game_finished``), a move that
is no action id ``422 malformed_move``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from app.service import parse
from app.service.base import nickname_of
from app.service.errors import (
    InvalidParameter,
    MalformedByGame,
    NotAPlayer,
    SeatMoved,
    SeatSecretRefused,
)
from app.service.lobby import Lobby
from app.service.match_body import Body, refusals, social_parts
from app.service.match_social import MatchSocial
from app.service.matches import secret_of
from app.service.play import Play
from app.service.rematch import Rematch
from app.service.social import rename_in_rules
from app.service.table import Table
from app.service.writes import Shape, answering
from app.store.base import GameDoc, RoundSnapshot
from engine import errors as rules
from engine.facts import Status
from engine.game import Game
from engine.games import definition
from engine.match import BLEF
from engine.protocol import Event, MalformedMove
from engine.records import RoundRecord
from engine.standings import blef_result

TABLE = "table"
"""The mark of a request at ``/blef/games`` under its Idempotency-Key (app/service/writes.py)."""


class BlefTables(Lobby, Rematch, Table, Play, MatchSocial):
    """The tables' verbs for ``kind == "blef"``; every other kind goes on to
    :class:`~app.service.matches.Matches` (see the module docstring)."""

    # ------------------------------------------------------------------ reading

    def game_info(self, kind: str) -> Body:
        if kind != BLEF:
            return super().game_info(kind)
        from engine.agents import AGENTS, ALIASES  # noqa: PLC0415 (agents load on use)

        game = definition(BLEF)
        return {
            "name": game.name,
            "title": game.title,
            "min_seats": game.min_seats,
            "max_seats": game.max_seats,
            "rules": game.rules_to_dict(game.default_rules()),
            "agents": sorted([*AGENTS, *ALIASES]),
        }

    def list_tables(self, kind: str) -> Body:
        if kind != BLEF:
            return super().list_tables(kind)
        since = self.now - self.settings.public_list_window_seconds
        entries = []
        for entry in self.store.list_public(since, self.settings.max_listed_games, kind=BLEF):
            doc = self.store.load(entry.game_uuid)
            if doc is None or doc.kind != BLEF or not doc.listed:
                continue
            game = Game.from_dict(doc.state)
            entries.append(
                {
                    "game_uuid": doc.game_uuid,
                    "room": doc.room,
                    "seats": game.nicknames,
                    "max_seats": definition(BLEF).max_seats,
                    "rules": rename_in_rules(game.rules.to_dict(), doc.social.get("hidden", {})),
                }
            )
        return {"games": entries}

    def table(self, kind: str, game_uuid: str, secret: str | None) -> Body:
        if kind != BLEF:
            return super().table(kind, game_uuid, secret)
        with _as_table():
            return self._blef_table(game_uuid, secret if secret else None)

    # ------------------------------------------------------------------ the lobby

    def create_table(
        self,
        kind: str,
        rules_value: Mapping[str, Any] | None = None,
        public: bool = False,
        time_limit: object = 0,
        idempotency_key: str | None = None,
    ) -> Body:
        if kind != BLEF:
            return super().create_table(kind, rules_value, public, time_limit, idempotency_key)
        limit = parse.time_limit(time_limit)
        with refusals():
            chosen = definition(BLEF).rules_from_dict(rules_value or {})
        created = self.create_game(
            idempotency_key=idempotency_key, rules=chosen, public=public, time_limit=limit
        )
        doc = self.writes.load(created["game_uuid"])
        return {"game_uuid": doc.game_uuid, "room": doc.room, "kind": BLEF}

    def join_table(
        self,
        kind: str,
        game_uuid: str,
        nickname: str | None,
        idempotency_key: str | None = None,
    ) -> Body:
        if kind != BLEF:
            return super().join_table(kind, game_uuid, nickname, idempotency_key)
        with _as_table(), answering(TABLE, _joined):
            return self.join(game_uuid, nickname, idempotency_key)

    def leave_table(
        self, kind: str, game_uuid: str, secret: str | None, idempotency_key: str | None = None
    ) -> Body:
        if kind != BLEF:
            return super().leave_table(kind, game_uuid, secret, idempotency_key)
        player = secret_of(secret)
        with _as_table(), answering(TABLE, self._table_for(None)):
            return self.leave(game_uuid, player, idempotency_key)

    def ready_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        ready: bool,
        idempotency_key: str | None = None,
    ) -> Body:
        if kind != BLEF:
            return super().ready_table(kind, game_uuid, secret, ready, idempotency_key)
        player = secret_of(secret)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.set_ready(game_uuid, player, ready, idempotency_key)

    def start_table(
        self, kind: str, game_uuid: str, secret: str | None, idempotency_key: str | None = None
    ) -> Body:
        if kind != BLEF:
            return super().start_table(kind, game_uuid, secret, idempotency_key)
        player = secret_of(secret)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.start(game_uuid, player, idempotency_key)

    def seat_agent(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        agent: str | None,
        idempotency_key: str | None = None,
    ) -> Body:
        if kind != BLEF:
            return super().seat_agent(kind, game_uuid, secret, agent, idempotency_key)
        from engine.agents import AGENTS, ALIASES  # noqa: PLC0415 (agents load on use)

        player = secret_of(secret)
        if agent not in AGENTS and agent not in ALIASES:
            known = ", ".join(sorted([*AGENTS, *ALIASES]))
            raise InvalidParameter("agent", agent, "The agents are: " + known)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.invite_ai(game_uuid, player, agent, idempotency_key)

    def remove_from_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        if kind != BLEF:
            return super().remove_from_table(kind, game_uuid, secret, nickname, idempotency_key)
        player = secret_of(secret)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.remove_player(game_uuid, player, nickname, idempotency_key)

    # ------------------------------------------------------------------ playing

    def move(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        move: Any,
        idempotency_key: str | None = None,
    ) -> Body:
        """A Blef move is its action id: ``{"action_id": N}`` (the body of ``POST
        /games/{uuid}/play``) or the bare integer ``N`` (what the game's definition reads)."""
        if kind != BLEF:
            return super().move(kind, game_uuid, secret, move, idempotency_key)
        player = secret_of(secret)
        action = _action_id(move)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.play(game_uuid, player, action, idempotency_key=idempotency_key)

    # ------------------------------------------------------------------ around the game

    def react_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        reaction: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """Blef's reaction (:meth:`~app.service.table.Table.react`); answers the table."""
        if kind != BLEF:
            return super().react_table(kind, game_uuid, secret, reaction, idempotency_key)
        player = secret_of(secret)
        with _as_table(), answering(TABLE, self._table_for(player)):
            return self.react(game_uuid, player, reaction, idempotency_key)

    def report_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """Blef's report (:meth:`~app.service.table.Table.report`); answers the table."""
        if kind != BLEF:
            return super().report_table(kind, game_uuid, secret, nickname, idempotency_key)
        player = secret_of(secret)
        with _as_table(named=True), answering(TABLE, self._table_for(player)):
            return self.report(game_uuid, player, nickname, idempotency_key)

    def rematch_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: str | None = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Blef's rematch (:meth:`~app.service.rematch.Rematch.rematch`): the Bearer's seat
        of the finished game gets a seat at the next; ``{"game_uuid", "player_uuid",
        "kind"}``."""
        if kind != BLEF:
            return super().rematch_table(kind, game_uuid, secret, nickname, idempotency_key)
        player = secret_of(secret)
        name = None if nickname is None or nickname == "" else nickname
        with _as_table():
            body = self.rematch(parse.game_uuid(game_uuid), player, name, None, idempotency_key)
        return {**body, "kind": BLEF}

    # ------------------------------------------------------------------ the body

    def _table_for(self, secret: str | None) -> Shape:
        """The reply of a Blef change as the table the seat ``secret`` holds sees it then
        (None, or a seat that has just gone: a spectator's), which is what a repeat of its
        ``Idempotency-Key`` is answered."""

        def table(
            doc: GameDoc, game: Game, snapshots: Sequence[RoundSnapshot], _reply: Body
        ) -> Body:
            seat = None
            if secret is not None and secret in doc.player_uuids.values():
                seat = game.seat_of(nickname_of(doc, secret))
            needs_rounds = game.state is not None and (
                game.status is Status.FINISHED or not game.state.seats_history
            )
            rounds = [*self.store.load_rounds(doc.game_uuid), *snapshots] if needs_rounds else []
            return blef_table_body(doc, game, seat, [RoundRecord.from_dict(r.data) for r in rounds])

        return table

    def _blef_table(self, game_uuid: str, secret: str | None) -> Body:
        doc = self.writes.load(parse.game_uuid(game_uuid))
        game = Game.from_dict(doc.state)
        seat = None
        if secret is not None:
            seat = game.seat_of(nickname_of(doc, parse.player_uuid(secret)))
        needs_rounds = game.state is not None and (
            game.status is Status.FINISHED or not game.state.seats_history
        )
        rounds = self.store.load_rounds(doc.game_uuid) if needs_rounds else []
        return blef_table_body(doc, game, seat, [RoundRecord.from_dict(r.data) for r in rounds])


def blef_table_body(
    doc: GameDoc, game: Game, you: int | None, rounds: Sequence[RoundRecord]
) -> Body:
    """The table of a Blef game as seat ``you`` (None: a spectator) sees it; ``rounds`` are
    its ended rounds in order (needed once finished, or when a round has just ended)."""
    state = game.state
    running = game.status is Status.RUNNING
    current = game.current_seat
    turn = None
    if running and current is not None:
        turn = {"seats": [current], "mode": "one", "deadline": doc.move_deadline}
    result = None
    if game.status is Status.FINISHED and rounds:
        result = blef_result(rounds).to_dict()
    return {
        "game_uuid": doc.game_uuid,
        "kind": BLEF,
        "status": game.status.value,
        "version": doc.version,
        "rules": rename_in_rules(game.rules.to_dict(), doc.social.get("hidden", {})),
        "admin": game.admin,
        "seats": [
            {"nickname": nickname, "ai": agent, "ready": nickname in game.ready}
            for nickname, agent in zip(game.nicknames, game.ai_agents, strict=True)
        ],
        "you": you,
        "turn": turn,
        "your_turn": running and you is not None and you == current,
        "view": None if state is None else state.view(you),
        "events": [event.to_dict() for event in _last_events(game, rounds)],
        "result": result,
        **social_parts(doc),
    }


def _last_events(game: Game, rounds: Sequence[RoundRecord]) -> list[Event]:
    """What the last move did: a bet (the round goes on), or the round's end (its check,
    if one ended it, and who lost; the game's end)."""
    state = game.state
    if state is None:
        return []
    check = game.rules.check
    moves = state.seats_history
    if moves and moves[-1][1] != game.rules.lost_round:  # a bet or a check: the round goes on
        seat, action = moves[-1]
        return [Event("check" if action == check else "bet", seat, {"action_id": action})]
    if not rounds:
        return []
    ended = rounds[-1]
    events = [
        Event("check", seat, {"action_id": action})
        for seat, action in ended.seats_history[-2:]
        if action == check
    ]
    events.append(Event("round_ended", ended.loser_seat, {"round": ended.number}))
    if ended.ended_game:
        events.append(Event("game_over"))
    return events


def _joined(doc: GameDoc, game: Game, _snapshots: Sequence[RoundSnapshot], joined: Body) -> Body:
    """A join's answer at the tables: the secret and the seat it was given."""
    secret = str(joined["player_uuid"])
    return {"player_uuid": secret, "seat": game.seat_of(nickname_of(doc, secret))}


def _action_id(move: Any) -> int:
    """The action id a move body names (see :meth:`BlefTables.move`), or 422."""
    value = move.get("action_id") if isinstance(move, dict) and len(move) == 1 else move
    try:
        action: int = definition(BLEF).parse_move(value)
    except MalformedMove:
        raise MalformedByGame(
            'A Blef move is an action id: {"action_id": N} or N, an integer (0 .. the check)',
            "malformed_move",
        ) from None
    return action


@contextmanager
def _as_table(named: bool = False) -> Iterator[None]:
    """Blef's refusals in the tables' conventions (see the module docstring); with
    ``named``, a nickname the request names that nobody has is ``400 unknown_player``, as at
    the other games' tables (the secret's refusal stays 403)."""
    try:
        with refusals():
            yield
    except SeatMoved:
        raise
    except rules.UnknownPlayer:
        if named:
            raise
        raise SeatSecretRefused from None
    except NotAPlayer:
        raise SeatSecretRefused from None
    except InvalidParameter as error:
        if error.parameter in ("player_uuid", "admin_uuid"):
            raise SeatSecretRefused from None
        if error.parameter == "action_id":
            raise MalformedByGame(error.message, "malformed_move") from None
        raise
