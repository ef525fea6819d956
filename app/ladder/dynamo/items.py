"""A ladder item to a value and back (the keys: app/store/dynamo/ladder_keys.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.ladder.store import (
    DELETED_HANDLE,
    Account,
    Change,
    Passkey,
    Rating,
    Result,
    Seat,
    Table,
)
from app.store.dynamo.wire import number

Item = dict[str, Any]


def text(item: Item, name: str) -> str | None:
    value = item.get(name)
    return None if value is None else str(value["S"])


def num(item: Item, name: str) -> float | None:
    value = item.get(name)
    return None if value is None else float(value["N"])


def account_of(item: Item) -> Account:
    return Account(
        account_id=item["account_id"]["S"],
        handle=item["handle"]["S"],
        handle_key=item["handle_key"]["S"],
        secret_hash=item["secret_hash"]["S"],
        created_at=float(item["created_at"]["N"]),
        state=item["state"]["S"],
        pool=text(item, "pool"),
        ticket=text(item, "ticket"),
        queued_at=num(item, "queued_at"),
        table_id=text(item, "table_id"),
        bot=flag(item, "bot"),
        agent=text(item, "agent"),
        fill_at=num(item, "fill_at"),
        look_key=text(item, "look_key"),
    )


def flag(item: Item, name: str) -> bool:
    value = item.get(name)
    return value is not None and bool(value["BOOL"])


def rating_of(item: Item) -> Rating:
    return Rating(
        item["account_id"]["S"],
        item["pool"]["S"],
        float(item["mu"]["N"]),
        float(item["sigma"]["N"]),
        int(item["games"]["N"]),
    )


def seats_json(seats: Sequence[Seat]) -> str:
    """Each seat ``[account id, handle, player UUID]``, a computer level's agent, and
    ``true`` while the seat is awaited (the agent then ``null`` for a person)."""
    return json.dumps(
        [
            [s.account_id, s.handle, s.player_uuid]
            + ([s.agent] if s.agent is not None or s.awaited else [])
            + ([True] if s.awaited else [])
            for s in seats
        ]
    )


def seats_of(text: str) -> tuple[Seat, ...]:
    return tuple(Seat(*seat) for seat in json.loads(text))


def table_of(item: Item) -> Table:
    return Table(
        table_id=item["table_id"]["S"],
        pool=item["pool"]["S"],
        seats=seats_of(item["seats"]["S"]),
        formed_at=float(item["formed_at"]["N"]),
        state=item["state"]["S"],
        game_uuid=text(item, "game_uuid"),
    )


def result_json(result: Result) -> str:
    return json.dumps(
        {
            "table_id": result.table_id,
            "game_uuid": result.game_uuid,
            "pool": result.pool,
            "settled_at": result.settled_at,
            "changes": [
                [
                    c.account_id,
                    c.handle,
                    c.place,
                    [c.before.mu, c.before.sigma, c.before.games],
                    [c.after.mu, c.after.sigma, c.after.games],
                ]
                for c in result.changes
            ],
        },
        separators=(",", ":"),
    )


def result_of(text: str) -> Result:
    data = json.loads(text)
    pool = data["pool"]
    changes = []
    for account_id, handle, place, before, after in data["changes"]:
        changes.append(
            Change(
                account_id,
                handle,
                place,
                Rating(account_id, pool, before[0], before[1], before[2]),
                Rating(account_id, pool, after[0], after[1], after[2]),
            )
        )
    return Result(data["table_id"], data["game_uuid"], pool, data["settled_at"], tuple(changes))


def passkey_of(item: Item) -> Passkey:
    return Passkey(
        credential_id=item["credential_id"]["S"],
        account_id=item["account_id"]["S"],
        public_key=bytes(item["public_key"]["B"]),
        sign_count=int(item["sign_count"]["N"]),
        created_at=float(item["created_at"]["N"]),
        last_used_at=num(item, "last_used_at"),
    )


def renamed(account_id: str, attribute: str, text: str) -> str:
    """A stored result (``attribute`` ``result``) or a table's seats (``seats``) with the
    handle of ``account_id`` replaced by :data:`DELETED_HANDLE`."""
    if attribute == "seats":
        return seats_json(
            [
                Seat(s.account_id, DELETED_HANDLE, s.player_uuid, s.agent, s.awaited)
                if s.account_id == account_id
                else s
                for s in seats_of(text)
            ]
        )
    data = json.loads(text)
    for change in data["changes"]:
        if change[0] == account_id:
            change[1] = DELETED_HANDLE
    return json.dumps(data, separators=(",", ":"))


def typed(value: str | bool | float) -> Item:
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bool):
        return {"BOOL": value}
    return {"N": number(value)}
