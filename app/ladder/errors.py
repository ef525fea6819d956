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
    """A deployment without a ladder table (DynamoDB with ``BLEF_LADDER_TABLE_NAME`` empty):
    HTTP 503."""

    code = "ladder_unavailable"
    default_message = "Accounts and rated games are not available on this deployment"
