"""Reading: the state a viewer may see, a finished round, the public list, a finished
game's record, and the probability aid. Nothing here writes."""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass

from app.service import parse
from app.service.base import UseCases, nickname_of
from app.service.errors import (
    CredentialsMissing,
    GameNotFinished,
    GameNotFound,
    InvalidParameter,
)
from app.service.finished import FinishedSeat, TableFinished
from app.service.responses import current_state, list_entry, record_body, snapshot_body
from app.service.seats import keys_of, seat_key
from app.service.writes import Body
from app.store.base import GameDoc
from engine import errors as rules
from engine.game import Game, Status
from engine.match import BLEF
from engine.records import RoundRecord


@dataclass(frozen=True, slots=True)
class StateReply:
    """A state or snapshot to send, with the tag a client can send back in If-None-Match."""

    body: Body
    etag: str


_CREDENTIAL_REASON = "Send your player UUID as a Bearer token"


class Reading(UseCases):
    def viewer(
        self, game_uuid: str | None, player_uuid: str | None, kind: str | None = BLEF
    ) -> tuple[GameDoc, str | None]:
        """The game and who is looking at it: the nickname ``player_uuid`` belongs to, or
        None for an observer (no UUID). Refuses what :meth:`state` refuses: a bad UUID, an
        unknown game, a UUID of no player. Websocket watchers are checked with it, with
        ``kind`` None (a table of any game may be watched)."""
        doc = self.writes.load(parse.game_uuid(game_uuid), kind)
        if player_uuid is None or player_uuid == "":
            return doc, None
        return doc, nickname_of(doc, parse.player_uuid(player_uuid))

    def state(
        self, game_uuid: str, player_uuid: str | None = None, round_param: str | None = None
    ) -> StateReply:
        """The current state as the given player (or an observer) may see it, or the
        snapshot of a finished round (``round_param``: blank or -1 for the current one)."""
        doc, viewer = self.viewer(game_uuid, player_uuid)
        wanted = parse.round_number(round_param)
        current = doc.facts.round_number
        if wanted is not None and wanted > current:
            raise rules.RoundNotReached
        finished = doc.status == Status.FINISHED.value
        if wanted is None or (wanted == current and not finished):
            return StateReply(current_state(doc, viewer), f'"v{doc.version}"')
        snapshot = self.store.load_round(doc.game_uuid, wanted)
        if snapshot is None:  # a snapshot can only be missing if the store lost it
            raise GameNotFound(f"Round {wanted} of this game is no longer stored")
        return StateReply(snapshot_body(doc, snapshot), f'"v{doc.version}-r{wanted}"')

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
        since = self.now - self.settings.public_list_window_seconds
        games = self.store.list_public(since, count, after)
        following = None
        if len(games) == count:
            last = games[-1]
            following = _write_cursor(last.last_modified, last.game_uuid)
        return [list_entry(game) for game in games], following

    def record(self, game_uuid: str) -> Body:
        """A finished game's every round (players, hands, history, seeds)."""
        doc = self.writes.load(parse.game_uuid(game_uuid))
        if doc.status != Status.FINISHED.value:
            raise GameNotFinished
        rounds = self.store.load_rounds(doc.game_uuid)
        return record_body(doc, [s.data for s in rounds])

    def finished(self, game_uuid: str) -> TableFinished:
        """A finished game of any kind as the ladder needs it: each seat's place (Blef's
        rule: the order its players went out, engine/standings.py; another game's: its
        result's places, ties allowed) with who sat there (a person's player UUID, an AI
        player's agent). :class:`GameNotFinished` while it runs."""
        from engine.standings import blef_result  # noqa: PLC0415 (the ladder's use only)

        doc = self.writes.load(parse.game_uuid(game_uuid), kind=None)
        if doc.status != Status.FINISHED.value:
            raise GameNotFinished
        if doc.kind != "blef":
            return _match_finished(doc)
        rounds = [RoundRecord.from_dict(s.data) for s in self.store.load_rounds(doc.game_uuid)]
        places = blef_result(rounds).places
        facts = doc.facts
        return TableFinished(
            "blef",
            doc.game_uuid,
            tuple(
                FinishedSeat(place, secret, agent, _keys(doc, secret))
                for place, nickname, agent in zip(
                    places, facts.nicknames, facts.ai_agents, strict=True
                )
                for secret in [None if agent is not None else doc.player_uuids.get(nickname)]
            ),
        )

    def odds(self, game_uuid: str, player_uuid: str | None) -> Body:
        """The probability aid for the player ``player_uuid`` names, from what they see.

        A classic game (24 cards, no joker, blank or common card, no team) answers as it
        always has: ``{"round_number", "hand", "unknown_cards", "probabilities": [88
        floats]}``, the chance that each set exists among all cards in play given their own
        hand and that the others hold ``unknown_cards`` cards in total.

        Any other game answers the same keys, with ``probabilities`` holding one entry per
        set of the game's table (88 or 140) and cards shown as the rules show them (a
        joker is -1/-1, a blank -2/-2), plus ``rules``, ``common_hand`` (the face-up common
        cards), ``teammate_hands`` (the team-mates' hands the player sees; ``unknown_cards``
        counts only the hands they cannot see) and ``standing_bet``: ``{"action_id",
        "player", "probability"}`` for the bet on the table (null before the first bet),
        the chance that it exists as its bettor bet it (counting only that player's jokers
        and the common ones). ``probabilities`` are for the player's own next bet (their own
        jokers and the common ones count). All exact (:mod:`engine.odds`).

        It tells a player nothing they could not work out from their own view, so it is
        offered only to a seated player of a running game, about their own hand (observers
        are refused as the state route refuses them)."""
        from engine.odds import odds_for, standing_bet_odds  # noqa: PLC0415 (tables load on use)

        if player_uuid is None or player_uuid == "":
            raise CredentialsMissing("player_uuid", None, _CREDENTIAL_REASON)
        doc, viewer = self.viewer(game_uuid, player_uuid)
        game = Game.from_dict(doc.state)
        game.check_running()
        assert viewer is not None  # a player UUID was sent, and viewer() found its player
        seat = game.seat_of(viewer)
        own = game.hand_indices(seat)
        if not own:
            raise InvalidParameter("player_uuid", None, "This player is out of the game")
        rules = game.rules
        seen = [s for s in range(game.n_players) if s != seat and game.sees_hand_of(viewer, s)]
        unknown = sum(n for s, n in enumerate(game.card_counts) if s != seat and s not in seen)
        body: Body = {
            "round_number": game.round_number,
            "hand": game.hand_dicts(seat),
            "unknown_cards": unknown,
            "probabilities": list(odds_for(game, seat)),
        }
        if rules.is_classic and all(team is None for team in game.teams):
            return body
        history = game.seats_history
        standing = None
        if history:
            bettor, bet = history[-1]
            standing = {
                "action_id": bet,
                "player": game.nicknames[bettor],
                "probability": standing_bet_odds(game, seat),
            }
        body["rules"] = rules.to_dict()
        body["common_hand"] = [rules.card_dict(i) for i in game.common_indices]
        body["teammate_hands"] = [
            {"nickname": game.nicknames[s], "hand": game.hand_dicts(s)}
            for s in seen
            if game.card_counts[s]
        ]
        body["standing_bet"] = standing
        return body


def _write_cursor(last_modified: float, game_uuid: str) -> str:
    raw = json.dumps([last_modified, game_uuid], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str) -> tuple[float, str]:
    """The position a cursor names; anything not made by :func:`_write_cursor` is a 400."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        last_modified, game_uuid = json.loads(raw)
        position = (float(last_modified), parse.game_uuid(str(game_uuid)))
    except (ValueError, TypeError, InvalidParameter):
        raise InvalidParameter(
            "cursor", cursor, "Not a cursor this service gave (send X-Next-Cursor back as is)"
        ) from None
    if not math.isfinite(position[0]):
        raise InvalidParameter("cursor", cursor, "Not a cursor this service gave")
    return position


def _match_finished(doc: GameDoc) -> TableFinished:
    """A finished table of another game than Blef: its result's places (the game's own
    rule, engine/protocol.py ``Result``), seat by seat in join order."""
    from engine.match import Match  # noqa: PLC0415 (the ladder's use only)

    match = Match.from_dict(doc.state)
    result = match.result()
    if result is None:
        raise GameNotFinished
    table = match.table
    return TableFinished(
        doc.kind,
        doc.game_uuid,
        tuple(
            FinishedSeat(place, secret, agent, _keys(doc, secret))
            for place, nickname, agent in zip(
                result.places, table.nicknames, table.ai_agents, strict=True
            )
            for secret in [None if agent is not None else doc.player_uuids.get(nickname)]
        ),
    )


def _keys(doc: GameDoc, secret: str | None) -> frozenset[str]:
    """The seat keys the seat holding ``secret`` has had (its moves included)."""
    if secret is None:
        return frozenset()
    return frozenset(keys_of(doc.social, seat_key(secret)))
