"""The games table's keys, declared once (the table's layout is in store.py's docstring).

>>> game_pk("g1"), round_sk(3), game_of("GAME#g1")
('GAME#g1', 'ROUND#0003', 'g1')
>>> game_of("REPORT") is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

    Item = dict[str, AttributeValueTypeDef]

GAME_PREFIX: Final = "GAME#"
"""The partition of a game: its live state, its rounds, its websocket watchers."""
STATE_SK: Final = "STATE"
ROUND_PREFIX: Final = "ROUND#"
MAX_ROUND: Final = 9999
"""The largest round number a 4-digit sort key holds (a game has a few dozen at most)."""
COUNTER_PK: Final = "COUNTER"
ROOM_SK: Final = "ROOM"
CREATE_PREFIX: Final = "CREATE#"
CREATE_SK: Final = "KEY"
REPORT_PK: Final = "REPORT"
CONNECTION_PREFIX: Final = "CONN#"
"""A websocket's watcher item (``sk`` in its game's partition) and its reverse item (``pk``)."""
REVERSE_SK: Final = "CONN"
PUBLIC_WATCHERS_PK: Final = "PUBLIC#WATCHERS"
"""The partition of public-games watchers (no game item's ``pk`` starts with ``PUBLIC#``)."""
ADDRESS_PREFIX: Final = "WSIP#"
"""The per-address count of open websockets."""
ADDRESS_SK: Final = "COUNT"

PUBLIC_INDEX: Final = "public-games"
LISTED: Final = "PUBLIC"
"""``list_pk`` of a listed Blef game: the partition of the sparse public-games index."""
DUE_INDEX: Final = "due-games"
DUE: Final = "DUE"
"""``due_pk`` of a game the clock must wake: the partition of the sparse due-games index."""
TTL_ATTRIBUTE: Final = "expires_at"


def listed_pk(kind: str) -> str:
    """``list_pk`` of a listed game of ``kind``: Blef's is :data:`LISTED` (as it always
    was), every other kind's its own partition of the same index.

    >>> listed_pk("blef"), listed_pk("figgie")
    ('PUBLIC', 'PUBLIC#figgie')
    """
    return LISTED if kind == "blef" else f"{LISTED}#{kind}"


def key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def game_pk(game_uuid: str) -> str:
    return GAME_PREFIX + game_uuid


def game_of(pk: str) -> str | None:
    """The game a ``pk`` belongs to, or None if it is not a game's partition."""
    return pk.removeprefix(GAME_PREFIX) if pk.startswith(GAME_PREFIX) else None


def round_sk(round_number: int) -> str:
    if not 0 <= round_number <= MAX_ROUND:
        raise ValueError(f"round number {round_number} is outside 0..{MAX_ROUND}")
    return f"{ROUND_PREFIX}{round_number:04d}"


def state_key(game_uuid: str) -> Item:
    return key(game_pk(game_uuid), STATE_SK)


def round_key(game_uuid: str, round_number: int) -> Item:
    return key(game_pk(game_uuid), round_sk(round_number))


COUNTER_KEY: Final = key(COUNTER_PK, ROOM_SK)


def create_key(key_hash: str) -> Item:
    return key(CREATE_PREFIX + key_hash, CREATE_SK)


def report_sk(game_uuid: str, reporter: str, nickname: str) -> str:
    """One report per (game, reporter, nickname); nicknames are word characters, never #."""
    return f"{game_uuid}#{reporter}#{nickname}"


def watcher_pk(game_uuid: str | None) -> str:
    """The partition of a game's watchers, or (None) of the public-games watchers."""
    return PUBLIC_WATCHERS_PK if game_uuid is None else game_pk(game_uuid)


def watcher_key(game_uuid: str | None, connection_id: str) -> Item:
    return key(watcher_pk(game_uuid), CONNECTION_PREFIX + connection_id)


def reverse_key(connection_id: str) -> Item:
    return key(CONNECTION_PREFIX + connection_id, REVERSE_SK)


def address_key(address: str) -> Item:
    return key(ADDRESS_PREFIX + address, ADDRESS_SK)
