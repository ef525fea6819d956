"""The ladder store on DynamoDB, accounts and keys: an account, its handle and its
secrets (one per device), the allowances shared by every process, and deletion.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from app.ladder.dynamo.base import (
    COLLISION_ATTEMPTS,
    MAX_TRANSACTION_ITEMS,
    MINE,
    NEW,
    DynamoBase,
    Lost,
)
from app.ladder.dynamo.items import Item, account_of, renamed
from app.ladder.store import IDLE, Account, LadderConflict
from app.store.dynamo.ladder_keys import (
    CHALLENGES_OF,
    GAMES,
    PASSKEYS,
    RATINGS,
    SECRETS,
    account_key,
    account_pk,
    allowance_key,
    challenge_key,
    handle_key_item,
    look_key_item,
    passkey_key,
    result_key_of,
    secret_entry_key,
    secret_key,
    table_key_of,
)
from app.store.dynamo.wire import number


class AccountsDynamo(DynamoBase):
    """Accounts and keys (app/ladder/store.py ``AccountStore``)."""

    # ------------------------------------------------------------------ accounts

    def create_account(self, account: Account) -> None:
        item: Item = {
            **account_key(account.account_id),
            "account_id": {"S": account.account_id},
            "handle": {"S": account.handle},
            "handle_key": {"S": account.handle_key},
            "secret_hash": {"S": account.secret_hash},
            "created_at": {"N": number(float(account.created_at))},
            "state": {"S": IDLE},
            "bot": {"BOOL": account.bot},
        }
        if account.agent is not None:
            item["agent"] = {"S": account.agent}
        looks = []
        if account.look_key is not None:
            item["look_key"] = {"S": account.look_key}
            looks.append(
                self._put(
                    {**look_key_item(account.look_key), "account_id": {"S": account.account_id}},
                    NEW,
                )
            )
        try:
            self._transact(
                [
                    self._put(item, NEW),
                    self._put(self._handle_item(account), NEW),
                    *looks,
                    *self._secret_puts(account.account_id, account.secret_hash, account.created_at),
                ]
            )
        except Lost:
            raise LadderConflict("handle taken") from None

    @staticmethod
    def _handle_item(account: Account) -> Item:
        return {
            **handle_key_item(account.handle_key),
            "account_id": {"S": account.account_id},
        }

    def _secret_puts(self, account_id: str, secret_hash: str, at: float) -> list[Any]:
        """A secret's two items, each new: ``SECRET#<hash>`` (how a request finds its
        account) and ``ACCT#<id>/S#<hash>`` (the account's list of secrets)."""
        owner = {"account_id": {"S": account_id}}
        return [
            self._put({**secret_key(secret_hash), **owner}, NEW),
            self._put(
                {
                    **secret_entry_key(account_id, secret_hash),
                    **owner,
                    "created_at": {"N": number(float(at))},
                },
                NEW,
            ),
        ]

    def _account_of(self, pointer: Item | None) -> Account | None:
        if pointer is None:
            return None
        item = self._get(account_key(pointer["account_id"]["S"]))
        return None if item is None else account_of(item)

    def account_by_secret(self, secret_hash: str) -> Account | None:
        return self._account_of(self._get(secret_key(secret_hash)))

    def account_by_handle(self, handle_key: str) -> Account | None:
        return self._account_of(self._get(handle_key_item(handle_key)))

    # ------------------------------------------------------------------ devices

    def add_secret(self, account_id: str, secret_hash: str, at: float) -> None:
        """One transaction: the account's ``keyring`` counter up by one (so a deletion that
        listed its secrets before fails), and the secret's two items, each new."""
        try:
            self._transact(
                [self._keyring_up(account_id), *self._secret_puts(account_id, secret_hash, at)]
            )
        except Lost:
            raise LadderConflict("no such account, or the secret is taken") from None

    def forget_secret(self, secret_hash: str) -> bool:
        pointer = self._get(secret_key(secret_hash))
        if pointer is None:
            return False
        owner = pointer["account_id"]["S"]
        try:
            self._transact(
                [
                    self._delete(secret_key(secret_hash), "#account_id = :me", me=owner),
                    self._delete(secret_entry_key(owner, secret_hash), MINE, me=owner),
                ]
            )
        except Lost:
            return False  # forgotten meanwhile
        return True

    def secret_count(self, account_id: str) -> int:
        return self._count(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :secrets)",
            ExpressionAttributeValues={
                ":pk": {"S": account_pk(account_id)},
                ":secrets": {"S": SECRETS},
            },
            ConsistentRead=True,
        )

    # ------------------------------------------------------------------ allowances

    def take_allowance(
        self, key: str, window: int, limit: int, *, now: float, expires_at: float
    ) -> bool:
        """One UpdateItem of the allowance's counter, ``ADD`` one unless it has reached the
        limit (a condition, so racing takers never pass it); DynamoDB's time to live removes
        it after ``expires_at``."""
        return self._alone(
            self._update(
                allowance_key(key, window),
                "ADD #used :one SET #expires = :expires",
                "attribute_not_exists(#used) OR #used < :limit",
                one=1,
                limit=limit,
                expires=int(expires_at) + 1,
            )
        )

    # ------------------------------------------------------------------ deletion

    def delete_account(self, account_id: str) -> None:
        """GetItem the account, Query its whole partition (ratings, history pointers, lists
        of secrets, passkeys and challenges), BatchGetItem the results and tables it shared;
        then one transaction: the account deleted if still ``idle`` with the ``keyring`` read
        (no secret or passkey added since), its handle claim, ratings, secrets, passkeys,
        challenges and history pointers deleted, and each shared result and table rewritten
        with :data:`DELETED_HANDLE` (conditional on the text read). A transaction holds 100
        items: past that, the first 100 (the account, its handle and ratings first, then
        its ways in) are the atomic step and the rest follow, each item on its own, each
        still conditional (docs/ladder-dynamodb.md)."""
        for _ in range(COLLISION_ATTEMPTS):
            item = self._get(account_key(account_id))
            if item is None or item["state"]["S"] != IDLE:
                raise LadderConflict("not idle, or no such account")
            steps = self._deletion(account_id, item)
            head, tail = steps[:MAX_TRANSACTION_ITEMS], steps[MAX_TRANSACTION_ITEMS:]
            try:
                self._transact([action for action, _ in head])
            except Lost:
                continue  # something changed since the reads: read again
            for _, alone in tail:
                alone()
            return
        raise LadderConflict("the account keeps changing")

    def _deletion(self, account_id: str, account: Item) -> list[tuple[Any, Callable[[], Any]]]:
        """What deleting the account does, in order: each step's transaction action and how
        it is done on its own (past the first 100)."""
        me = {"me": account_id}
        ring = account.get("keyring")
        still = "#state = :idle AND " + (
            "attribute_not_exists(#keyring)" if ring is None else "#keyring = :ring"
        )
        ring_value = {} if ring is None else {"ring": int(ring["N"])}
        first: list[Any] = [
            self._delete(account_key(account_id), still, idle=IDLE, **ring_value),
            self._delete(handle_key_item(account["handle_key"]["S"]), "#account_id = :me", **me),
        ]
        if "look_key" in account:
            first.append(
                self._delete(look_key_item(account["look_key"]["S"]), "#account_id = :me", **me)
            )
        owned = list(
            self._query(
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": account_pk(account_id)}},
                ConsistentRead=True,
            )
        )
        ratings, ways_in, games = [], [], []
        for entry in owned:
            sort = entry["sk"]["S"]
            mine = self._delete({"pk": entry["pk"], "sk": entry["sk"]}, MINE, **me)
            if sort.startswith(RATINGS):
                ratings.append(mine)
            elif sort.startswith(SECRETS):
                ways_in += [mine, self._delete(secret_key(sort[len(SECRETS) :]), MINE, **me)]
            elif sort.startswith(PASSKEYS):
                ways_in += [mine, self._delete(passkey_key(sort[len(PASSKEYS) :]), MINE, **me)]
            elif sort.startswith(CHALLENGES_OF):
                ways_in += [
                    mine,
                    self._delete(challenge_key(sort[len(CHALLENGES_OF) :]), MINE, **me),
                ]
            elif sort.startswith(GAMES):
                games.append((entry, mine))
        renames = self._renames(account_id, [entry for entry, _ in games])
        steps: list[tuple[Any, Callable[[], Any]]] = [
            (action, partial(self._alone, action)) for action in first + ratings + ways_in
        ]
        steps += renames
        steps += [(action, partial(self._alone, action)) for _, action in games]
        return steps

    def _renames(
        self, account_id: str, pointers: list[Item]
    ) -> list[tuple[Any, Callable[[], Any]]]:
        """Each result and table the account sat at, its handle replaced: an UpdateItem
        conditional on the text read (and, on its own, read again until it holds)."""
        wanted = [result_key_of(p) for p in pointers]
        wanted += [table_key_of(p) for p in pointers]
        steps: list[tuple[Any, Callable[[], Any]]] = []
        for stored in self._get_many(wanted):
            attribute = "seats" if "seats" in stored else "result"
            old = stored[attribute]["S"]
            new = renamed(account_id, attribute, old)
            if new == old:
                continue
            where = {"pk": stored["pk"], "sk": stored["sk"]}
            steps.append(
                (
                    self._rewrite(where, attribute, old, new),
                    partial(self._rename, where, attribute, account_id),
                )
            )
        return steps

    def _rewrite(self, where: Item, attribute: str, old: str, new: str) -> Any:
        return self._update(
            where, f"SET #{attribute} = :new", f"#{attribute} = :old", new=new, old=old
        )

    def _rename(self, where: Item, attribute: str, account_id: str) -> None:
        """One result or table renamed on its own: read, rewrite if the text is still as
        read, again if another deletion rewrote it meanwhile."""
        for _ in range(10):
            stored = self._get(where)
            if stored is None:
                return
            old = stored[attribute]["S"]
            new = renamed(account_id, attribute, old)
            if new == old or self._alone(self._rewrite(where, attribute, old, new)):
                return
        raise LadderConflict("a shared result keeps changing")
