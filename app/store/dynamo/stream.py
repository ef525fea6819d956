"""What a record of the games table's stream holds: a game's live state, or an ended round.

The pusher (app/watch/pusher.py) and the clock's scheduler (app/clock/aws.py) both read
stream images; this is the one place that knows how the store wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from app.store.base import GameDoc, RoundSnapshot
from app.store.dynamo.keys import ROUND_PREFIX, STATE_SK, game_of

Image = Mapping[str, Any]


def is_state(image: Image | None) -> bool:
    """Whether ``image`` is a game's live state item."""
    return bool(image) and (image or {}).get("sk", {}).get("S") == STATE_SK


def state_doc(image: Image | None) -> GameDoc | None:
    """The game a live state item's image holds, or None for any other item."""
    if image is None or not is_state(image) or "doc" not in image:
        return None
    return GameDoc.from_dict(json.loads(image["doc"]["S"]))


def ended_round(image: Image) -> RoundSnapshot | None:
    """The round an ended round's item holds, or None for any other item."""
    pk, sk = image.get("pk", {}).get("S", ""), image.get("sk", {}).get("S", "")
    game_uuid = game_of(pk)
    if game_uuid is None or not sk.startswith(ROUND_PREFIX) or "data" not in image:
        return None
    data = json.loads(image["data"]["S"])
    last_modified = float(image.get("last_modified", {}).get("N", "0"))
    return RoundSnapshot(game_uuid, int(data["round_number"]), data, last_modified)
