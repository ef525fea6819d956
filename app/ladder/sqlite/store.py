"""The ladder in SQLite: every section of app/ladder/store.py's ``LadderStore`` (see the
package's docstring)."""

from __future__ import annotations

from app.ladder.sqlite.accounts import AccountsSqlite
from app.ladder.sqlite.bots import BotsSqlite
from app.ladder.sqlite.passkeys import PasskeysSqlite
from app.ladder.sqlite.queue import QueueSqlite
from app.ladder.sqlite.ratings import RatingsSqlite


class LadderSqlite(AccountsSqlite, PasskeysSqlite, QueueSqlite, RatingsSqlite, BotsSqlite):
    """The ladder store in SQLite, on the file at ``path``."""


__all__ = ["LadderSqlite"]
