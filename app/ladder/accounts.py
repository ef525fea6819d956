"""The ladder's use cases, accounts and keys: an account made (its secret told once), who
a secret opens, another device's secret, and deletion. Passkeys: app/ladder/passkeys.py."""

from __future__ import annotations

import logging
import math
import unicodedata
from typing import Final

from app.ladder import bots, handle_rules
from app.ladder.base import Body, LadderBase, secret_hash
from app.ladder.errors import (
    AccountBusy,
    HandleTaken,
    InvalidHandle,
    ReservedHandle,
    TooManyAccounts,
    UnknownAccount,
)
from app.ladder.handles import look_key
from app.ladder.store import QUEUED, SEATED, Account, LadderConflict
from app.service import parse
from app.service.errors import InvalidParameter, MissingParameter
from app.service.profanity import refuse_profane

log = logging.getLogger("blef.ladder")

ACCOUNTS_PER_ADDRESS: Final = 20
"""Accounts one client address may make in an hour, across every process (each process also
keeps its own tighter bucket: app/api/fairness.py): an account is a row kept for good."""
ALLOWANCE_SECONDS: Final = 3600


class Accounts(LadderBase):
    """Accounts and keys (see the module docstring)."""

    def create_account(self, handle: object, address: str | None = None) -> Body:
        """A new account with ``handle`` (the nickname rules, polite): its id, its handle and
        its secret, which is told this once and stored only as a hash. With the client's
        ``address``, at most :data:`ACCOUNTS_PER_ADDRESS` accounts an hour from it, counted
        in the store so that every process and Lambda instance shares the count (429)."""
        name = _handle(handle)
        refuse_profane(name)
        bots.refuse_reserved(name)
        if self.store.account_by_handle(name.casefold()) is not None:
            raise HandleTaken("handle", name, _TAKEN)  # before the address's allowance
        if address is not None:
            self._take_account_allowance(address)
        secret = self._new_secret()
        account = Account(
            account_id=self._new_id(),
            handle=name,
            handle_key=name.casefold(),
            look_key=look_key(name),
            secret_hash=secret_hash(secret),
            created_at=self.now,
        )
        try:
            self.store.create_account(account)
        except LadderConflict:
            raise HandleTaken("handle", name, _TAKEN) from None
        log.info("account_created")
        return {"account_id": account.account_id, "handle": name, "secret": secret}

    def _take_account_allowance(self, address: str) -> None:
        now = self.now
        hour = int(now // ALLOWANCE_SECONDS)
        ends = (hour + 1) * ALLOWANCE_SECONDS
        if not self.store.take_allowance(
            f"accounts/{address}", hour, ACCOUNTS_PER_ADDRESS, now=now, expires_at=ends
        ):
            log.info("account_allowance_spent")
            raise TooManyAccounts(retry_after=max(1, math.ceil(ends - now)))

    def new_device_secret(self, account_id: str) -> str:
        """A new secret for one more device of the account (a passkey sign-in): told once,
        kept only as its hash; the account's other secrets stay valid."""
        secret = self._new_secret()
        try:
            self.store.add_secret(account_id, secret_hash(secret), self.now)
        except LadderConflict:
            raise UnknownAccount from None  # deleted meanwhile
        return secret

    def delete_account(self, secret: str | None) -> None:
        """Delete the account: its secrets and passkeys, its ratings (off every board), its
        profile; its handle is free again and the results it shared show it as deleted.
        Refused (409) while queued or seated at a rated game not yet over."""
        account = self.authenticate(secret)
        if account.state == SEATED and account.table_id is not None:
            self.settle(account.table_id)  # a game over not yet settled: settle it now
            account = self._reload(account)
        if account.state == QUEUED:
            raise AccountBusy("You are waiting for a rated game: leave the queue first")
        if account.state == SEATED:
            raise AccountBusy(
                "You are at a rated game that is not over: finish it (or resign) first"
            )
        try:
            self.store.delete_account(account.account_id)
        except LadderConflict:
            if self.store.account(account.account_id) is None:
                raise UnknownAccount from None  # deleted by a racing request
            raise AccountBusy from None  # queued or seated by a racing request
        log.info("account_deleted")


_TAKEN: Final = "This handle is taken; choose another"


def _handle(value: object) -> str:
    """A new handle in its composed form: a JSON string (else 400, naming ``handle``) that
    keeps the published rules (app/ladder/handle_rules.py; else 422 naming the rule)."""
    if value is None:
        raise MissingParameter("handle", None, "Handle missing - please supply one")
    if not isinstance(value, str):
        raise InvalidParameter("handle", value, "A handle is a JSON string")
    name = unicodedata.normalize("NFC", parse.text("handle", value))
    broken = handle_rules.problem(name) or handle_rules.looks_reserved(name)
    if broken is not None:
        kind = ReservedHandle if broken.rule.startswith(("computer", "reserved")) else InvalidHandle
        raise kind(broken.rule, broken.sentence)
    return name
