"""The ladder store on DynamoDB, passkeys: the WebAuthn challenges (single use, with an
expiry index and a time to live) and the passkeys that open an account.
"""

from __future__ import annotations

import math

from botocore.exceptions import ClientError

from app.ladder.dynamo.base import MINE, NEW, DynamoBase, Lost
from app.ladder.dynamo.items import Item, passkey_of, text
from app.ladder.store import Challenge, LadderConflict, Passkey
from app.store.dynamo.ladder_keys import (
    CHALLENGES,
    EXPIRY_INDEX,
    PASSKEYS,
    TTL_ATTRIBUTE,
    account_pk,
    challenge_entry_key,
    challenge_key,
    challenge_of,
    passkey_entry_key,
    passkey_key,
)
from app.store.dynamo.wire import lost_race, number


class PasskeysDynamo(DynamoBase):
    """Challenges and passkeys (app/ladder/store.py ``PasskeyStore``)."""

    # ------------------------------------------------------------------ challenges

    def put_challenge(self, challenge: Challenge) -> None:
        """A new ``CHALLENGE#<value>`` item (in ``ladder-expiry`` by its expiry, with a TTL):
        a sign-in's one conditional PutItem; a registration's also listed in its account's
        partition (one transaction), so that deleting the account finds it."""
        expires = {"N": str(math.ceil(challenge.expires_at))}
        item: Item = {
            **challenge_key(challenge.challenge),
            "ceremony": {"S": challenge.ceremony},
            "expires_at": {"N": number(float(challenge.expires_at))},
            "expiry_pk": {"S": CHALLENGES},
            TTL_ATTRIBUTE: expires,
        }
        actions = [self._put(item, NEW)]
        if challenge.account_id is not None:
            item["account_id"] = {"S": challenge.account_id}
            entry: Item = {
                **challenge_entry_key(challenge.account_id, challenge.challenge),
                "account_id": {"S": challenge.account_id},
                TTL_ATTRIBUTE: expires,
            }
            actions.append(self._put(entry, NEW))
        try:
            if len(actions) == 1:  # a sign-in's: one PutItem
                if not self._alone(actions[0]):
                    raise Lost
            else:
                self._transact(actions)
        except Lost:
            raise LadderConflict("the challenge is stored already") from None

    def take_challenge(self, challenge: str) -> Challenge | None:
        """DeleteItem with ``ReturnValues = ALL_OLD``, if it exists: one request both reads and
        removes it, so of two racing takes one gets it and the other's condition fails."""
        try:
            reply = self.client.delete_item(
                TableName=self.table_name,
                Key=challenge_key(challenge),
                ConditionExpression="attribute_exists(pk)",
                ReturnValues="ALL_OLD",
            )
        except ClientError as err:
            if lost_race(err):
                return None
            raise
        return self._taken(reply.get("Attributes", {}))

    def _taken(self, item: Item) -> Challenge:
        """A challenge just deleted: its account's list forgets it too."""
        owner = text(item, "account_id")
        value = challenge_of(item["pk"]["S"])
        if owner is not None:
            self._alone(self._delete(challenge_entry_key(owner, value), MINE, me=owner))
        return Challenge(value, item["ceremony"]["S"], owner, float(item["expires_at"]["N"]))

    def purge_challenges(self, before: float) -> int:
        """Query ``ladder-expiry`` for the challenges expiring before ``before`` (keys only),
        then DeleteItem each if it still exists (a take may have won it): how many went."""
        expired = [
            {"pk": row["pk"], "sk": row["sk"]}
            for row in self._query(
                IndexName=EXPIRY_INDEX,
                KeyConditionExpression="expiry_pk = :c AND expires_at < :before",
                ExpressionAttributeValues={
                    ":c": {"S": CHALLENGES},
                    ":before": {"N": number(float(before))},
                },
            )
        ]
        purged = 0
        for expired_key in expired:
            try:
                reply = self.client.delete_item(
                    TableName=self.table_name,
                    Key=expired_key,
                    ConditionExpression="expires_at < :before",
                    ExpressionAttributeValues={":before": {"N": number(float(before))}},
                    ReturnValues="ALL_OLD",
                )
            except ClientError as err:
                if lost_race(err):
                    continue  # taken meanwhile
                raise
            self._taken(reply["Attributes"])
            purged += 1
        return purged

    # ------------------------------------------------------------------ passkeys

    def add_passkey(self, passkey: Passkey) -> None:
        """One transaction: the account's ``keyring`` up by one (it must exist), the
        ``PASSKEY#<id>`` item and the account's list entry, each new."""
        item: Item = {
            **passkey_key(passkey.credential_id),
            "credential_id": {"S": passkey.credential_id},
            "account_id": {"S": passkey.account_id},
            "public_key": {"B": bytes(passkey.public_key)},
            "sign_count": {"N": number(passkey.sign_count)},
            "created_at": {"N": number(float(passkey.created_at))},
        }
        if passkey.last_used_at is not None:
            item["last_used_at"] = {"N": number(float(passkey.last_used_at))}
        entry: Item = {
            **passkey_entry_key(passkey.account_id, passkey.credential_id),
            "account_id": {"S": passkey.account_id},
        }
        try:
            self._transact(
                [
                    self._keyring_up(passkey.account_id),
                    self._put(item, NEW),
                    self._put(entry, NEW),
                ]
            )
        except Lost:
            raise LadderConflict("no such account, or the passkey is stored already") from None

    def passkey(self, credential_id: str) -> Passkey | None:
        item = self._get(passkey_key(credential_id))
        return None if item is None else passkey_of(item)

    def passkeys(self, account_id: str) -> list[Passkey]:
        listed = [
            passkey_key(entry["sk"]["S"][len(PASSKEYS) :])
            for entry in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :passkeys)",
                ExpressionAttributeValues={
                    ":pk": {"S": account_pk(account_id)},
                    ":passkeys": {"S": PASSKEYS},
                },
                ConsistentRead=True,
            )
        ]
        found = [passkey_of(item) for item in self._get_many(listed)]
        return sorted(found, key=lambda p: (p.created_at, p.credential_id))

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        used = self._alone(
            self._update(
                passkey_key(credential_id),
                "SET #sign_count = :new, #last_used_at = :at",
                "attribute_exists(pk) AND #sign_count = :old",
                new=new_sign_count,
                at=float(at),
                old=sign_count,
            )
        )
        if not used:
            raise LadderConflict("the passkey's counter moved on, or it is gone")
