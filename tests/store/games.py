"""Realistic game documents for the store tests, built with the engine itself."""

from __future__ import annotations

import dataclasses
import time
import uuid
from typing import Any

from app.store.base import GameDoc, RoundSnapshot
from engine.dealing import seed_sequence
from engine.facts import CHECK
from engine.game import Game
from engine.match import Match

WEEK = 7 * 24 * 3600


def lobby_game(*nicknames: str, public: bool = True) -> Game:
    """A game in the lobby: ``nicknames`` joined (the first is the admin)."""
    game = Game(seed_source=seed_sequence(11))
    for nickname in nicknames:
        game.join(nickname)
    if nicknames:
        game.set_public(public, by=nicknames[0])
    return game


def lobby_match(kind: str, *nicknames: str, public: bool = True) -> Match:
    """A table of ``kind`` (not Blef) in the lobby: ``nicknames`` joined."""
    match = Match.new(kind)
    for nickname in nicknames:
        match.join(nickname)
    if nicknames:
        match.table.set_public(public, by=nicknames[0])
    return match


def running_game(*nicknames: str, bets: int = 1) -> Game:
    """A started game (now private, as starting makes it) with ``bets`` bets made."""
    game = lobby_game(*nicknames)
    game.start(by=nicknames[0])
    for _ in range(bets):
        game.apply(game.min_bet)
    return game


def play_rounds(game: Game, rounds: int) -> list[RoundSnapshot]:
    """Play ``rounds`` rounds (a bet on the lowest set, then a check) and return their
    snapshots as the service stores them."""
    snapshots = []
    for _ in range(rounds):
        if game.min_bet == 0:
            game.apply(0)
        record = game.apply(CHECK)
        assert record is not None
        snapshots.append(RoundSnapshot("", record.number, record.to_dict()))
    return snapshots


def new_doc(
    game: Game | Match,
    *,
    game_uuid: str | None = None,
    room: int = 1,
    last_modified: float | None = None,
    **changes: Any,
) -> GameDoc:
    """A version-1 document for ``game`` as the service would create it."""
    now = time.time() if last_modified is None else last_modified
    doc = GameDoc(
        game_uuid=game_uuid or str(uuid.uuid4()),
        room=room,
        state=game.to_dict(),
        player_uuids={nick: str(uuid.uuid4()) for nick in game.nicknames},
        version=1,
        created_at=now,
        last_modified=now,
        expires_at=int(time.time()) + WEEK,
        replies={},
    )
    return dataclasses.replace(doc, **changes)


def next_doc(doc: GameDoc, game: Game | Match | None = None, **changes: Any) -> GameDoc:
    """The document a successful change of ``doc`` would save (version one higher)."""
    state = doc.state if game is None else game.to_dict()
    later = doc.last_modified + 0.25
    fields: dict[str, Any] = {
        "state": state,
        "version": doc.version + 1,
        "last_modified": later,
        "expires_at": int(time.time()) + WEEK,
    }
    fields.update(changes)
    return dataclasses.replace(doc, **fields)


def for_game(doc: GameDoc, snapshots: list[RoundSnapshot]) -> list[RoundSnapshot]:
    """The snapshots, addressed to ``doc``'s game."""
    return [dataclasses.replace(s, game_uuid=doc.game_uuid) for s in snapshots]
