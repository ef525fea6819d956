"""The ladder store in SQLite, passkeys: the WebAuthn challenges and the passkeys that
open an account.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.ladder.sqlite.base import SqliteBase
from app.ladder.store import Challenge, LadderConflict, Passkey


class PasskeysSqlite(SqliteBase):
    """Challenges and passkeys (app/ladder/store.py ``PasskeyStore``)."""

    _PASSKEY = (
        "SELECT credential_id, account_id, public_key, sign_count, created_at, last_used_at"
        " FROM ladder_passkeys"
    )

    def put_challenge(self, challenge: Challenge) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO ladder_challenges (challenge, ceremony, account_id, expires_at)"
                " VALUES (?, ?, ?, ?)",
                (
                    challenge.challenge,
                    challenge.ceremony,
                    challenge.account_id,
                    challenge.expires_at,
                ),
            )

    def take_challenge(self, challenge: str) -> Challenge | None:
        with self._write() as conn:
            row = conn.execute(
                "DELETE FROM ladder_challenges WHERE challenge = ?"
                " RETURNING challenge, ceremony, account_id, expires_at",
                (challenge,),
            ).fetchone()
        return None if row is None else Challenge(*row)

    def purge_challenges(self, before: float) -> int:
        with self._write() as conn:
            gone: int = conn.execute(
                "DELETE FROM ladder_challenges WHERE expires_at < ?", (before,)
            ).rowcount
        return gone

    @staticmethod
    def _passkey(row: Any) -> Passkey:
        credential_id, account_id, public_key, sign_count, created_at, last_used_at = row
        return Passkey(
            credential_id, account_id, bytes(public_key), sign_count, created_at, last_used_at
        )

    def add_passkey(self, passkey: Passkey) -> None:
        try:
            with self._write() as conn:
                added = conn.execute(
                    "INSERT INTO ladder_passkeys (credential_id, account_id, public_key,"
                    " sign_count, created_at, last_used_at)"
                    " SELECT ?, account_id, ?, ?, ?, ? FROM ladder_accounts WHERE account_id = ?",
                    (
                        passkey.credential_id,
                        passkey.public_key,
                        passkey.sign_count,
                        passkey.created_at,
                        passkey.last_used_at,
                        passkey.account_id,
                    ),
                ).rowcount
                if added != 1:
                    raise LadderConflict("no such account")
        except sqlite3.IntegrityError:
            raise LadderConflict("passkey stored already") from None

    def passkey(self, credential_id: str) -> Passkey | None:
        row = (
            self._conn()
            .execute(f"{self._PASSKEY} WHERE credential_id = ?", (credential_id,))
            .fetchone()
        )
        return None if row is None else self._passkey(row)

    def passkeys(self, account_id: str) -> list[Passkey]:
        rows = (
            self._conn()
            .execute(
                f"{self._PASSKEY} WHERE account_id = ? ORDER BY created_at, credential_id",
                (account_id,),
            )
            .fetchall()
        )
        return [self._passkey(row) for row in rows]

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_passkeys SET sign_count = ?, last_used_at = ?"
                " WHERE credential_id = ? AND sign_count = ?",
                (new_sign_count, at, credential_id, sign_count),
            ).rowcount
            if changed != 1:
                raise LadderConflict("the passkey's counter moved on")
