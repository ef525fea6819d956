"""The shapes of what the service answers: the established state object, snapshots, the
public list and the game record. Built from engine views and round records only, never from
raw state, so no secret can slip in; the ``public`` flag is the string "true"/"false" that
the established iOS client requires.
"""

from __future__ import annotations

from typing import Any

from app.service.social import rename_in_round, shown_names, shown_reactions
from app.store.base import GameDoc, PublicGame, RoundSnapshot
from engine.game import Game
from engine.rules import CLASSIC
from engine.views import view_for

Body = dict[str, Any]


def _flag(value: object) -> str:
    return "true" if value else "false"


def state_body(doc: GameDoc, view: dict[str, Any]) -> Body:
    """The state object for a view of the current round (see engine.views.view_for)."""
    body: Body = {
        "game_uuid": doc.game_uuid,
        "admin_nickname": view["admin_nickname"],
        "public": _flag(view["public"]),
        "status": view["status"],
        "round_number": view["round_number"],
        "max_cards": view["max_cards"],
        "room": doc.room,
        "players": _rows(view),
        "hands": view["hands"],
        "common_hand": view["common_hand"],
        "cp_nickname": view["cp_nickname"],
        "history": view["history"],
        "last_modified": doc.last_modified,
        "version": doc.version,
        "commitment": view["commitment"],
        "time_limit": doc.time_limit,
        "move_deadline": doc.move_deadline,
        "ready": view["ready"],
        "auto_start": view["auto_start"],
        "chosen_max_cards": view["chosen_max_cards"],
        "rules": {**view["rules"], "time_limit": doc.time_limit},
        "reactions": shown_reactions(doc.social),
    }
    asked = doc.social.get("rematch_asked")
    if asked:
        body["rematch"] = {"asked": shown_names(asked, doc.social.get("hidden", {}))}
    for optional in ("legal_actions", "seed", "winner", "winners", "you"):
        if optional in view:
            body[optional] = view[optional]
    return body


def _rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The player rows as the newer established clients read them: each with its ``team``
    (null: on their own) and whether the human said they are ready (null for an AI)."""
    ready = set(view["ready"])
    return [
        {
            **row,
            "team": row.get("team"),
            "ready": None if "ai_agent" in row else row["nickname"] in ready,
        }
        for row in view["players"]
    ]


def current_state(doc: GameDoc, viewer: str | None) -> Body:
    """The current round's state object as ``viewer`` (a nickname, or None for an observer)
    may see it: what ``GET /games/{game_uuid}`` answers, and what a websocket watcher is
    sent. Raises engine.errors.UnknownPlayer for a nickname that is not in the game.

    ``viewer`` is the name the game calls the player *now*: watchers find it from their
    seat at every change (app/service/seats.py), never from the name they connected under."""
    return state_body(doc, view_for(Game.from_dict(doc.state), viewer))


def snapshot_body(doc: GameDoc, round_: RoundSnapshot) -> Body:
    """The state object for a finished round (engine.RoundRecord.to_dict()): every hand,
    the history ending with the 89 event, and the round's seed. Its ``last_modified`` is the
    snapshot's own: older than the state after the round, newer than the state before."""
    snapshot = rename_in_round(round_.data, doc.social.get("hidden", {}))
    facts = doc.facts
    return {
        "game_uuid": doc.game_uuid,
        "admin_nickname": facts.admin,
        "public": _flag(facts.public),
        "status": snapshot["status"],
        "round_number": snapshot["round_number"],
        "max_cards": snapshot["max_cards"],
        "room": doc.room,
        "players": snapshot["players"],
        "hands": snapshot["hands"],
        "cp_nickname": None,
        "history": snapshot["history"],
        "last_modified": round_.last_modified or doc.last_modified,
        "version": doc.version,
        "commitment": snapshot["commitment"],
        "time_limit": doc.time_limit,
        "move_deadline": None,
        "seed": snapshot["seed"],
        "loser": snapshot["loser"],
        "common_hand": snapshot.get("common_hand", []),
        "rules": {**snapshot.get("rules", CLASSIC.to_dict()), "time_limit": doc.time_limit},
    }


def list_entry(game: PublicGame) -> Body:
    return {
        "game_uuid": game.game_uuid,
        "room": game.room,
        "players": list(game.players),
        "last_modified": game.last_modified,
    }


def record_body(doc: GameDoc, rounds: list[dict[str, Any]]) -> Body:
    facts = doc.facts
    return {
        "game_uuid": doc.game_uuid,
        "room": doc.room,
        "status": facts.status.value,
        "max_cards": facts.max_cards,
        "players": [
            {"nickname": nickname} if agent is None else {"nickname": nickname, "ai_agent": agent}
            for nickname, agent in zip(facts.nicknames, facts.ai_agents, strict=True)
        ],
        "winner": facts.winner,
        "rounds": [rename_in_round(r, doc.social.get("hidden", {})) for r in rounds],
    }
