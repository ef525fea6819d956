"""The probability aid: how likely each of the 88 sets is, seen from the caller's own hand.

It tells a player nothing they could not work out themselves: the input is exactly what
their own view shows (their hand and everyone's card counts), so it is offered only to a
seated player of a running game, about their own hand. Observers and other games' UUIDs are
refused as the state route refuses them.
"""

from __future__ import annotations

from typing import Any

from app.service.errors import CredentialsMissing, InvalidParameter, MissingParameter
from app.service.games import GameService
from engine import errors as rules
from engine.facts import Card, Colour, Value
from engine.game import Status
from engine.probability import set_probabilities

Body = dict[str, Any]

_CREDENTIAL_REASON = "Send your player UUID as a Bearer token"


def odds(service: GameService, game_uuid: str, player_uuid: str | None) -> Body:
    """``{"round_number", "hand", "unknown_cards", "probabilities": [88 floats]}`` for the
    player ``player_uuid`` names: the chance that each set exists among all cards in play,
    given their hand and that the others hold ``unknown_cards`` cards in total."""
    if player_uuid is None or player_uuid == "":
        raise CredentialsMissing("player_uuid", None, _CREDENTIAL_REASON)
    doc, viewer = service.viewer(game_uuid, player_uuid)
    if viewer is None:  # pragma: no cover - viewer() names a player for any accepted UUID
        raise MissingParameter("player_uuid", None, _CREDENTIAL_REASON)
    if doc.status == Status.NOT_STARTED.value:
        raise rules.GameNotStarted
    if doc.status == Status.FINISHED.value:
        raise rules.GameFinished
    view = service.state(game_uuid, player_uuid).body
    own: list[dict[str, int]] = next(
        (h["hand"] for h in view["hands"] if h["nickname"] == viewer), []
    )
    if not own:
        raise InvalidParameter("player_uuid", None, "This player is out of the game")
    hand = [Card(Value(c["value"]), Colour(c["colour"])) for c in own]
    unknown = sum(p["n_cards"] for p in view["players"] if p["nickname"] != viewer)
    return {
        "round_number": view["round_number"],
        "hand": own,
        "unknown_cards": unknown,
        "probabilities": list(set_probabilities(hand, unknown)),
    }
