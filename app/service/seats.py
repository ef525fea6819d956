"""Who a watcher is: a player's seat, named by a key derived from their secret UUID.

A websocket watcher is bound to the player who opened it, never to a display name: names
change (a nickname reported as offensive is shown as ``Player_<row>``) and are freed (a
player who leaves the lobby, or is removed, gives theirs up, and a newcomer may take it).
What stays with the player, and only with them, is their secret UUID, so a watcher is
recorded by a **seat key**: a one-way hash of that UUID. The key names the seat without
being a credential (it cannot be turned back into the UUID, and no request accepts it), so
it may be stored beside a connection; each time a watcher is sent something, the key is
looked up among the game's players as they are *now*: the player's current name, or None
once they are gone, and then the watcher is sent nothing of theirs again.

>>> key = seat_key("6f1c2a8e-0000-4000-8000-000000000001")
>>> len(key), key == seat_key("6f1c2a8e-0000-4000-8000-000000000001")
(32, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Final

_CONTEXT: Final = b"blef seat key v1\x1f"


def seat_key(player_uuid: str) -> str:
    """The non-secret key of the seat ``player_uuid`` (canonical form) holds."""
    return hashlib.sha256(_CONTEXT + player_uuid.encode()).hexdigest()[:32]


def seated(player_uuids: Mapping[str, str], key: str) -> str | None:
    """The nickname of the player whose seat ``key`` names, as the game now calls them
    (``player_uuids`` maps nickname to secret UUID), or None if that player has left."""
    for nickname, secret in player_uuids.items():
        if hmac.compare_digest(seat_key(secret), key):
            return nickname
    return None


MOVED: Final = "moved_seats"
"""``GameDoc.social`` key: each retired seat key → the seat key that replaced it, oldest
first (a seat moved to another device, app/service/moving.py)."""
KEEP_MOVED: Final = 64
"""Retired seat keys remembered per game: a UUID retired longer ago than that many moves is
refused as naming no player, rather than as moved."""


def moved(social: Mapping[str, object], key: str) -> bool:
    """Whether the seat key ``key`` was retired by a move to another device."""
    retired = social.get(MOVED)
    return isinstance(retired, Mapping) and key in retired


def retire(social: dict[str, object], old: str, new: str) -> None:
    """Note that the seat key ``old`` was replaced by ``new`` (at most :data:`KEEP_MOVED`)."""
    retired = social.get(MOVED)
    kept: dict[str, str] = dict(retired) if isinstance(retired, Mapping) else {}
    kept[old] = new
    while len(kept) > KEEP_MOVED:
        del kept[next(iter(kept))]
    social[MOVED] = kept


def keys_of(social: Mapping[str, object], key: str) -> set[str]:
    """Every key the seat now keyed ``key`` has had: ``key`` and each retired key whose moves
    lead to it (a seat moved twice has had three keys)."""
    retired = social.get(MOVED)
    chain: Mapping[str, str] = retired if isinstance(retired, Mapping) else {}
    found = {key}
    grew = True
    while grew:
        grew = False
        for old, new in chain.items():
            if new in found and old not in found:
                found.add(old)
                grew = True
    return found


REMATCH_SEATS: Final = "rematch_seats"
"""``GameDoc.social`` key of a rematch: each seat key of the finished game's player who asked
→ the seat key of the seat they were given here (app/service/rematch.py). Bound to the
seats themselves, never to a name, and dropped when that seat is freed."""


def bind_rematch(social: dict[str, object], old: str, new: str) -> None:
    """The finished game's seat ``old`` is this game's seat ``new``."""
    bound = social.get(REMATCH_SEATS)
    kept: dict[str, str] = dict(bound) if isinstance(bound, Mapping) else {}
    kept[old] = new
    social[REMATCH_SEATS] = kept


def rematch_seat(
    social: Mapping[str, object], player_uuids: Mapping[str, str], old_keys: set[str]
) -> str | None:
    """The nickname of the player seated here for one of the finished game's seat keys
    ``old_keys`` (the keys of one seat), or None if none was, or they have left since.
    Entries written before seats were bound by key hold a nickname, and count for
    nothing."""
    bound = social.get(REMATCH_SEATS)
    if not isinstance(bound, Mapping):
        return None
    for old in old_keys:
        new = bound.get(old)
        if isinstance(new, str):
            nickname = seated(player_uuids, new)
            if nickname is not None:
                return nickname
    return None


def free(social: dict[str, object], key: str) -> None:
    """The seat keyed ``key`` was freed (its player left or was removed): no rematch
    binding leads to it any more."""
    bound = social.get(REMATCH_SEATS)
    if isinstance(bound, Mapping):
        social[REMATCH_SEATS] = {old: new for old, new in bound.items() if new != key}


def rekey(social: dict[str, object], old: str, new: str) -> None:
    """The seat keyed ``old`` is keyed ``new`` from now on (it moved to another device):
    what the table noted of that seat follows it (rematch bindings, who is hidden), and
    ``old`` is retired."""
    bound = social.get(REMATCH_SEATS)
    if isinstance(bound, Mapping):
        social[REMATCH_SEATS] = {k: new if v == old else v for k, v in bound.items()}
    hidden = social.get("hidden_seats")
    if isinstance(hidden, Mapping) and old in hidden:
        social["hidden_seats"] = {new if k == old else k: v for k, v in hidden.items()}
    retire(social, old, new)
