"""The sizes of the ladder's DynamoDB items as the store writes them (docs/ladder-dynamodb.md,
"Item sizes"), by DynamoDB's size rule (attribute names plus values), on in-process moto.

Run: ``python -m benchmarks.ladder_items`` (prints JSON: bytes per item kind).
Handles of 13 characters, 32-character account and table ids, UUID games, 64-byte secrets'
SHA-256 hashes as the service stores them, an 86-character challenge (64 random bytes,
base64url), a 43-character credential id and a 77-byte COSE public key (an ES256 key).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from typing import Any

from app.ladder.service import secret_hash
from app.ladder.store import Account, Challenge, Change, Passkey, Rating, Result, Seat, Table
from benchmarks.lambda_harness import item_size
from tests.support.ladder_dynamo import moto_ladder

POOL = "standard-3-8"


def size(item: dict[str, Any]) -> int:
    """:func:`item_size`, string sets counted as DynamoDB does (the sum of their strings)."""
    sets = {k: v for k, v in item.items() if "SS" in v}
    rest = {k: v for k, v in item.items() if k not in sets}
    return item_size(rest) + sum(len(k) + sum(len(s) for s in v["SS"]) for k, v in sets.items())


def main() -> None:
    sizes: dict[str, int] = {}
    with moto_ladder() as store:

        def grab(pk: str, sk: str) -> dict[str, Any]:
            reply = store.client.get_item(
                TableName=store.table_name, Key={"pk": {"S": pk}, "sk": {"S": sk}}
            )
            item: dict[str, Any] = reply["Item"]
            return item

        people = [
            Account(uuid.uuid4().hex, f"Player{n:07d}", f"player{n:07d}", secret_hash(str(n)), 1.0)
            for n in range(8)
        ]
        for who in people:
            store.create_account(who)
        first = people[0]
        ids = first.account_id
        sizes["account (idle)"] = size(grab(f"ACCT#{ids}", "A"))
        sizes["handle claim"] = size(grab(f"HANDLE#{first.handle_key}", "H"))
        sizes["secret"] = size(grab(f"SECRET#{first.secret_hash}", "S"))
        sizes["secret list entry"] = size(grab(f"ACCT#{ids}", f"S#{first.secret_hash}"))
        credential = "c" * 43
        store.add_passkey(Passkey(credential, ids, b"k" * 77, 0, 2.0))
        store.use_passkey(credential, 0, 1, 3.0)
        sizes["passkey (used)"] = size(grab(f"PASSKEY#{credential}", "K"))
        sizes["passkey list entry"] = size(grab(f"ACCT#{ids}", f"P#{credential}"))
        sizes["account (with a key added)"] = size(grab(f"ACCT#{ids}", "A"))
        value = "v" * 86
        store.put_challenge(Challenge(value, "register", ids, 1_700_000_300.0))
        sizes["challenge (registration)"] = size(grab(f"CHALLENGE#{value}", "C"))
        sizes["challenge list entry"] = size(grab(f"ACCT#{ids}", f"C#{value}"))
        for players in (2, 8):
            table_id = uuid.uuid4().hex
            seated = people[:players]
            tickets = {}
            for who in seated:
                tickets[who.account_id] = uuid.uuid4().hex
                store.enqueue_filled(who.account_id, POOL, tickets[who.account_id], 5.0, 25.0, 65.0)
            if players == 2:
                sizes["account (queued, with a fill time)"] = size(grab(f"ACCT#{ids}", "A"))
                sizes["queue entry (with a fill time)"] = size(grab(f"QUEUE#{POOL}", ids))
            table = Table(table_id, POOL, tuple(Seat(w.account_id, w.handle) for w in seated), 6.0)
            store.claim(table, tickets)
            game = str(uuid.uuid4())
            store.seat(
                replace(
                    table,
                    state="playing",
                    game_uuid=game,
                    seats=tuple(replace(s, player_uuid=str(uuid.uuid4())) for s in table.seats),
                )
            )
            changes = tuple(
                Change(
                    w.account_id,
                    w.handle,
                    place,
                    store.rating(w.account_id, POOL) or Rating(w.account_id, POOL, 25.0, 8.3, 0),
                    Rating(w.account_id, POOL, 25.123456789, 8.123456789, players // 8 + 1),
                )
                for place, w in enumerate(seated, 1)
            )
            at = 1_700_000_000.123456
            store.settle(Result(table_id, game, POOL, at + players, changes))
            sizes[f"table, {players} players (settled)"] = size(grab(f"TABLE#{table_id}", "T"))
            listed = store.client.query(
                TableName=store.table_name,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :g)",
                ExpressionAttributeValues={":pk": {"S": f"ACCT#{ids}"}, ":g": {"S": "G#"}},
                ScanIndexForward=False,
                Limit=1,
            )["Items"][0]
            sizes[f"history pointer, {players} players"] = size(listed)
            sizes[f"result, {players} players"] = size(
                grab(f"RESULTS#{POOL}", listed["sk"]["S"][2:])
            )
        sizes["rating"] = size(grab(f"ACCT#{ids}", f"R#{POOL}"))
        sizes["account (idle, has played)"] = size(grab(f"ACCT#{ids}", "A"))
    print(json.dumps(sizes, indent=2))


if __name__ == "__main__":
    main()
