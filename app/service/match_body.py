"""What a table of any game but Blef answers: one body for every reader and writer.

``GET /{game}/games/{game_uuid}``, every move and every lobby verb's reply of those routes
answer :func:`table_body` for the asker's seat (``you``; None for a spectator): the lobby
(admin, seats, readiness), the turn (who may act, how, until when), the game's own view for
that seat (``GameState.view``; for Economancy the course protocol's state JSON), the events
of the last change and the result once it is over. Nothing here reads another seat's hidden
parts: the view is the game's, the events are public by the protocol's contract.

Also the refusals at a table, as the service's errors: :func:`refusals` turns a game's
:class:`~engine.protocol.GameError` into :class:`RefusedByGame` (its code and sentence kept)
and an unknown game into :class:`TableNotFound` (404).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from app.service.errors import (
    GameNotFound,
    MalformedByGame,
    RefusedByGame,
    TableNotFound,
)
from app.service.responses import current_state
from app.service.social import shown_names, shown_reactions
from app.store.base import GameDoc
from engine.facts import Status
from engine.match import BLEF, Match
from engine.protocol import InvalidRules, MalformedMove, MoveRefused

Body = dict[str, Any]


def table_body(doc: GameDoc, match: Match, you: int | None) -> Body:
    """The table as seat ``you`` (None: a spectator) may see it (see the module docstring)."""
    table = match.table
    running = match.status is Status.RUNNING
    turn = match.turn()
    turn_body = None
    if running:
        deadline = turn.deadline if turn.deadline is not None else doc.move_deadline
        turn_body = {
            "seats": sorted(turn.seats),
            "mode": turn.mode.value,
            "deadline": deadline if turn.seats else turn.deadline,
        }
    result = match.result()
    return {
        "game_uuid": doc.game_uuid,
        "kind": match.kind,
        "status": match.status.value,
        "version": doc.version,
        "rules": match.rules,
        "admin": table.admin,
        "seats": [
            {"nickname": nickname, "ai": agent, "ready": nickname in table.ready}
            for nickname, agent in zip(table.nicknames, table.ai_agents, strict=True)
        ],
        "you": you,
        "turn": turn_body,
        "your_turn": running and you is not None and turn.may_act(you),
        "view": match.view(you),
        "events": [event.to_dict() for event in match.events],
        "result": None if result is None else result.to_dict(),
        **social_parts(doc),
    }


def social_parts(doc: GameDoc) -> Body:
    """What the table says around the game, as every table's body shows it: the last
    reactions and who asked for the rematch (each hidden nickname as its alias)."""
    asked = doc.social.get("rematch_asked", ())
    return {
        "reactions": shown_reactions(doc.social),
        "rematch": {"asked": shown_names(asked, doc.social.get("hidden", {}))},
    }


def watched_body(doc: GameDoc, nickname: str | None) -> Body:
    """What a watcher of ``doc`` is pushed, as the player ``nickname`` (None: a spectator):
    for Blef the state object of ``GET /games/{game_uuid}``, for any other game the body of
    ``GET /{game}/games/{game_uuid}`` for that player's seat. Only the seat's holder is ever
    given its view; a nickname not seated at a started table sees what a spectator sees."""
    if doc.kind == BLEF:
        return current_state(doc, nickname)
    match = Match.from_dict(doc.state)
    seat = None
    if nickname is not None and nickname in match.table.nicknames:
        seat = match.table.seat_of(nickname)
    return table_body(doc, match, seat)


@contextmanager
def refusals() -> Iterator[None]:
    """A game's refusal as the service's (see the module docstring)."""
    try:
        yield
    except (MalformedMove, InvalidRules) as error:
        raise MalformedByGame(error.message, error.code) from None
    except MoveRefused as error:
        raise RefusedByGame(error.message, error.code) from None
    except TableNotFound:
        raise
    except GameNotFound as error:
        raise TableNotFound(error.message) from None
