"""The ladder table's schema, declared once: every item's key, its indexes and its time to
live (the ladder's own table, ``BLEF_LADDER_TABLE_NAME``; the games table's are in keys.py
and store.py). The ladder's store (app/ladder/dynamo/) builds every key it writes or reads
here; docs/ladder-dynamodb.md describes the design, its costs and how it scales.

=========================  =====================  ==========================================
item                       ``pk``                 ``sk``
=========================  =====================  ==========================================
an account                 ``ACCT#<id>``          ``A``
its rating in a pool       ``ACCT#<id>``          ``R#<pool>`` (GSI ``ladder-board``)
one of its settled games   ``ACCT#<id>``          ``G#<settled_at>#<table id>`` (a pointer)
one of its secrets         ``ACCT#<id>``          ``S#<hash>`` (its list of secrets)
one of its passkeys        ``ACCT#<id>``          ``P#<credential id>`` (its list)
one of its challenges      ``ACCT#<id>``          ``C#<challenge>`` (its list)
a handle's owner           ``HANDLE#<key>``       ``H``
a handle's look's owner    ``LOOK#<look key>``    ``L``
a secret's account         ``SECRET#<hash>``      ``S`` (one item per secret)
a passkey                  ``PASSKEY#<cred id>``  ``K``
a challenge                ``CHALLENGE#<value>``  ``C`` (GSI ``ladder-expiry``, TTL)
a place in a pool's queue  ``QUEUE#<pool>``       ``<account id>``
a table                    ``TABLE#<id>``         ``T`` (GSI ``ladder-open`` while open)
a table's game             ``RATED#<game uuid>``  ``G`` (the table's id)
a settled result           ``RESULTS#<pool>``     ``<settled_at>#<table id>``
the matcher's next look    ``MATCHER``            ``LOOK`` (the AWS clock's lease)
=========================  =====================  ==========================================

``<settled_at>`` is fixed-width (:func:`time_key`), so those keys sort by time. Three sparse
global secondary indexes:

- ``ladder-board``: partition ``board_pk = BOARD#<pool>#<shard>`` (the account's shard,
  :func:`shard_of`), sort ``ordinal`` (a number: mu - 3 sigma); projects what a board row
  shows. A page is the top of each shard merged; a rank is a COUNT Query per shard.
- ``ladder-open``: partition ``open_pk = OPEN``, sort ``formed_at``; keys only. A table is
  in it from its claim until its settlement (the sweep's list of open tables).
- ``ladder-expiry``: partition ``expiry_pk = CHALLENGES``, sort ``expires_at``; keys only.
  Every challenge, by when it expires: what :meth:`LadderDynamo.purge_challenges` deletes.
  DynamoDB's own TTL (attribute ``expires``, whole seconds) removes the ones nobody purges.

An account's partition ``ACCT#<id>`` lists everything it owns (one Query finds it all when
the account is deleted).

No other module spells one of these keys (tests/store/test_schema_home.py holds it).
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from app.store.dynamo.wire import create_table, index

Item = dict[str, Any]

BOARD_INDEX: Final = "ladder-board"
OPEN_INDEX: Final = "ladder-open"
EXPIRY_INDEX: Final = "ladder-expiry"
CHALLENGES: Final = "CHALLENGES"
"""The one partition of ``ladder-expiry``."""
TTL_ATTRIBUTE: Final = "expires"
"""The table's time-to-live attribute: whole seconds since the epoch (challenges only)."""
BOARD_SHARDS: Final = 4
"""Partitions of each pool's board in ``ladder-board`` (docs/ladder-dynamodb.md: why 4)."""
OPEN: Final = "OPEN"
BOARD_PROJECTION: Final = ["account_id", "pool", "mu", "sigma", "games", "handle_key"]
"""What ``ladder-board`` holds of a rating beside its keys: a board row without the item."""

ACCOUNT_PREFIX: Final = "ACCT#"
CHALLENGE_PREFIX: Final = "CHALLENGE#"
RATINGS: Final = "R#"
"""The sort-key prefix of an account's ratings in its partition."""
GAMES: Final = "G#"
"""... of its history pointers (one per settled game it sat at)."""
GAMES_END: Final = "G#~"
"""Past every history pointer (``~`` sorts after every digit)."""
SECRETS: Final = "S#"
"""... of its list of secrets."""
PASSKEYS: Final = "P#"
"""... of its list of passkeys."""
CHALLENGES_OF: Final = "C#"
"""... of its list of challenges."""


def key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def account_pk(account_id: str) -> str:
    """The partition of an account: the account and everything it owns."""
    return ACCOUNT_PREFIX + account_id


def account_key(account_id: str) -> Item:
    return key(account_pk(account_id), "A")


def rating_key(account_id: str, pool: str) -> Item:
    return key(account_pk(account_id), RATINGS + pool)


def game_entry_key(account_id: str, settled_at: float, table_id: str) -> Item:
    return key(account_pk(account_id), f"{GAMES}{time_key(settled_at)}#{table_id}")


def secret_entry_key(account_id: str, secret_hash: str) -> Item:
    return key(account_pk(account_id), SECRETS + secret_hash)


def passkey_entry_key(account_id: str, credential_id: str) -> Item:
    return key(account_pk(account_id), PASSKEYS + credential_id)


def challenge_entry_key(account_id: str, challenge: str) -> Item:
    return key(account_pk(account_id), CHALLENGES_OF + challenge)


def handle_key_item(handle_key: str) -> Item:
    return key(f"HANDLE#{handle_key}", "H")


def look_key_item(look_key: str) -> Item:
    """The claim of a handle's look (app/ladder/handles.py): one account per look."""
    return key(f"LOOK#{look_key}", "L")


def secret_key(secret_hash: str) -> Item:
    return key(f"SECRET#{secret_hash}", "S")


def passkey_key(credential_id: str) -> Item:
    return key(f"PASSKEY#{credential_id}", "K")


def allowance_key(allowance: str, window: int) -> Item:
    return key(f"ALLOW#{allowance}", f"W#{window}")


def challenge_key(challenge: str) -> Item:
    return key(CHALLENGE_PREFIX + challenge, "C")


def queue_pk(pool: str) -> str:
    return f"QUEUE#{pool}"


def queue_key(pool: str, account_id: str) -> Item:
    return key(queue_pk(pool), account_id)


def table_key(table_id: str) -> Item:
    return key(f"TABLE#{table_id}", "T")


def game_key(game_uuid: str) -> Item:
    return key(f"RATED#{game_uuid}", "G")


def results_pk(pool: str) -> str:
    return f"RESULTS#{pool}"


def result_key(pool: str, settled_at: float, table_id: str) -> Item:
    return key(results_pk(pool), f"{time_key(settled_at)}#{table_id}")


LOOK_KEY: Final = key("MATCHER", "LOOK")


def time_key(at: float) -> str:
    """A time as a fixed-width string (to the microsecond) that sorts as the time does, for
    times 0 .. 10^13 seconds.

    >>> time_key(1700000000.5), time_key(5.25) < time_key(10.0)
    ('0001700000000.500000', True)
    """
    if not 0 <= at < 10**13:
        raise ValueError(f"time {at!r} is outside what a key holds")
    return f"{at:020.6f}"


def shard_of(account_id: str, shards: int) -> int:
    """The board shard of an account: stable, spread evenly by a hash of its id.

    >>> shard_of("a", 4) == shard_of("a", 4), 0 <= shard_of("b", 4) < 4
    (True, True)
    """
    return int.from_bytes(hashlib.sha256(account_id.encode()).digest()[:4], "big") % shards


def board_pk(pool: str, shard: int) -> str:
    return f"BOARD#{pool}#{shard}"


def ordinal(mu: float, sigma: float) -> float:
    """mu - 3 sigma: what the boards sort by (OpenSkill's ordinal)."""
    return mu - 3 * sigma


def games_from(since: float) -> str:
    """The sort key of an account's first history pointer settled at ``since`` or later."""
    return GAMES + time_key(max(float(since), 0.0))


def result_key_of(pointer: Item) -> Item:
    """The result a history pointer ``ACCT#<id>/G#<settled_at>#<table id>`` points to."""
    return key(results_pk(pointer["pool"]["S"]), pointer["sk"]["S"][len(GAMES) :])


def table_key_of(pointer: Item) -> Item:
    """The table a history pointer points to."""
    return table_key(pointer["sk"]["S"].split("#", 2)[2])


def challenge_of(pk: str) -> str:
    """The challenge a ``CHALLENGE#<value>`` partition holds."""
    return pk[len(CHALLENGE_PREFIX) :]


# ---------------------------------------------------------------------- the table


def create_ladder_table(client: Any, table_name: str) -> None:
    """Create the ladder's table with the schema above (on-demand) and wait until it is
    active; safe when it exists. The CDK stack makes the same (infra/blef_infra/ladder.py)."""
    create_table(
        client,
        table_name,
        attributes={
            "board_pk": "S",
            "ordinal": "N",
            "open_pk": "S",
            "formed_at": "N",
            "expiry_pk": "S",
            "expires_at": "N",
        },
        indexes=[
            index(BOARD_INDEX, "board_pk", "ordinal", BOARD_PROJECTION),
            index(OPEN_INDEX, "open_pk", "formed_at"),
            index(EXPIRY_INDEX, "expiry_pk", "expires_at"),
        ],
        ttl_attribute=TTL_ATTRIBUTE,
    )
