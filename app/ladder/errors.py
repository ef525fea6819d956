"""The ladder's refusals: each a stable ``code`` and a message, its HTTP status decided in
app/api/errors.py with every other error's."""

from __future__ import annotations

from app.service.errors import InvalidParameter, ServiceError


class UnknownAccount(ServiceError):
    """An ``Authorization: Bearer`` secret that names no account (HTTP 401)."""

    code = "unknown_account"
    default_message = "The secret does not match any account"


class HandleTaken(InvalidParameter):
    """A handle (in its canonical form) that another account already has (HTTP 409)."""

    code = "handle_taken"


class UnknownPool(InvalidParameter):
    code = "unknown_pool"


class UnknownHandle(InvalidParameter):
    code = "unknown_handle"


class AlreadyAtTable(ServiceError):
    """Joining the queue while seated at a rated game that has not been settled (HTTP 409)."""

    code = "already_at_table"
    default_message = (
        "You are seated at a rated game that has not finished; finish it (or resign) first"
    )


class LadderUnavailable(ServiceError):
    """The ladder runs on SQLite (``blef serve``) only, so far: not on DynamoDB (HTTP 503)."""

    code = "ladder_unavailable"
    default_message = "Accounts and rated games are not available on this deployment yet"


# ---------------------------------------------------------------------- bots and levels


class ReservedHandle(InvalidParameter):
    """A handle starting with ``AI_``: the computer levels' (HTTP 400)."""

    code = "reserved_handle"


class CannotBecomeBot(ServiceError):
    """Becoming a bot after a rated game, or while queued or seated (HTTP 409)."""

    code = "cannot_become_bot"
    default_message = (
        "Only an account that has never sat at a rated table, and is neither queued nor"
        " seated now, can become a bot"
    )


class BotsCannotFill(ServiceError):
    """A bot asking for computer players to fill its table (HTTP 403)."""

    code = "bots_cannot_fill"
    default_message = (
        "Filling a table with computer players is for people; a bot waits for other players"
    )


class InvalidCursor(InvalidParameter):
    """An events cursor this service did not give (HTTP 400)."""

    code = "invalid_cursor"
