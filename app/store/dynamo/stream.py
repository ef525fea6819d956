"""What a record of the games table's stream holds: a game's live state, or an ended round.

The pusher (app/watch/pusher.py), the clock's scheduler (app/clock/aws.py) and the ladder's
clock (app/clock/ladder.py) read stream records; this is the one place that knows how the
store wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
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


def _changed_images(record: Mapping[str, Any]) -> tuple[Image, Image] | None:
    """The new and old images of an inserted or modified item (empty when absent); None for
    a removal or anything else."""
    if record.get("eventName") not in ("INSERT", "MODIFY"):
        return None
    change = record.get("dynamodb") or {}
    return change.get("NewImage") or {}, change.get("OldImage") or {}


@dataclass(frozen=True, slots=True)
class DueVersion:
    """A version of a game that leaves something due (an AI move, a deadline) at ``due_at``.

    ``due_before``: when the version before it (the record's old image, if the stream
    carries it and it is the same game's live item) was due; None if it was not, or is not
    known. ``written_at``: the version's ``last_modified`` (None if the image lacks it)."""

    game_uuid: str
    version: int
    due_at: float
    due_before: float | None = None
    written_at: float | None = None

    @property
    def still_due_as_before(self) -> bool:
        """Whether this version is due at the very time the version before it was, which
        had not come yet when it was written: the message sent for that time still stands."""
        return (
            self.due_before is not None
            and self.due_before == self.due_at
            and self.written_at is not None
            and self.due_at > self.written_at
        )


def due_version(record: Mapping[str, Any]) -> DueVersion | None:
    """What a stream record leaves due: a live game item inserted or modified whose new image
    has ``due_at``; None for any other record (the event source's filter should never send
    those, but a record is checked rather than trusted)."""
    images = _changed_images(record)
    if images is None or not is_state(images[0]):
        return None
    image, old = images
    try:
        game_uuid = str(image["game_uuid"]["S"])
        version = int(image["version"]["N"])
        due_at = float(image["due_at"]["N"])
    except (KeyError, TypeError, ValueError):
        return None
    return DueVersion(
        game_uuid,
        version,
        due_at,
        _number(old, "due_at", game_uuid),
        _number(image, "last_modified"),
    )


def _number(image: Image, name: str, game_uuid: str | None = None) -> float | None:
    """The number ``name`` of ``image`` (with ``game_uuid``: only if it is that game's live
    item), or None."""
    if game_uuid is not None and (
        not is_state(image) or image.get("game_uuid", {}).get("S") != game_uuid
    ):
        return None
    try:
        return float(image[name]["N"])
    except (KeyError, TypeError, ValueError):
        return None


def finished_game(record: Mapping[str, Any]) -> str | None:
    """The game a stream record shows finishing (a live item whose status becomes
    ``Finished``), or None (a game finished before this change, a rename or a reaction
    after the end, was told already)."""
    images = _changed_images(record)
    if images is None:
        return None
    new, old = images
    if not is_state(new) or new.get("status", {}).get("S") != "Finished":
        return None
    if old.get("status", {}).get("S") == "Finished":
        return None
    game = new.get("game_uuid", {}).get("S")
    return str(game) if game else None
