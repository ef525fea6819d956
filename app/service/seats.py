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
