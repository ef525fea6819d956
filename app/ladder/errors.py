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


class PasskeysUnavailable(ServiceError):
    """No public origin is configured (``BLEF_PUBLIC_ORIGIN``), so no passkey can be checked
    (HTTP 503)."""

    code = "passkeys_unavailable"
    default_message = (
        "Passkeys are not set up on this server (it needs BLEF_PUBLIC_ORIGIN); sign in with"
        " your key instead"
    )


class PasskeyRefused(ServiceError):
    """A passkey's answer that does not prove what it claims (HTTP 400); each kind its
    own code, below."""

    code = "passkey_refused"
    default_message = "The passkey's answer could not be verified"


class MalformedPasskeyResponse(PasskeyRefused):
    code = "passkey_malformed"
    default_message = (
        "Expected the credential as the browser gives it (PublicKeyCredential.toJSON())"
    )


class ChallengeUnknown(PasskeyRefused):
    """A challenge never issued, used already, or for the other ceremony."""

    code = "challenge_unknown"
    default_message = (
        "This passkey answer's challenge was never issued here, or was used already:"
        " ask for new options and try again"
    )


class ChallengeExpired(PasskeyRefused):
    code = "challenge_expired"
    default_message = "This passkey answer's challenge has expired: ask for new options"


class WrongOrigin(PasskeyRefused):
    code = "wrong_origin"
    default_message = "This passkey answer was made for another site"


class UnknownPasskey(PasskeyRefused):
    code = "unknown_passkey"
    default_message = "This passkey opens no account here"


class BadSignature(PasskeyRefused):
    code = "passkey_not_verified"
    default_message = "The passkey's signature does not verify"


class CounterWentBack(PasskeyRefused):
    """The authenticator's counter did not grow past the last one seen: a cloned key or a
    replayed answer."""

    code = "passkey_counter"
    default_message = (
        "This passkey's counter did not move forward: the answer is a replay, or the key was copied"
    )


class PasskeyExists(ServiceError):
    """The credential is stored already (HTTP 409)."""

    code = "passkey_exists"
    default_message = "This passkey is added already"


class LastWayIn(ServiceError):
    """Signing out the only secret of an account without a passkey (HTTP 409)."""

    code = "last_way_in"
    default_message = (
        "This is the only key to this account and it has no passkey: add a passkey (or copy"
        " the key) first, or delete the account"
    )


class AccountBusy(ServiceError):
    """Deleting an account that is queued or seated (HTTP 409)."""

    code = "account_busy"
    default_message = "Leave the queue (or finish your rated game) before deleting the account"


# ---------------------------------------------------------------------- bots and levels


class NameRefused(ServiceError):
    """A handle that breaks a rule of app/ladder/handle_rules.json (HTTP 422): the rule's id
    (``rule``, sent beside ``error`` and ``code``) and its sentence as the message."""

    code = "invalid_handle"

    def __init__(self, rule: str, sentence: str) -> None:
        super().__init__(sentence)
        self.rule = rule


class InvalidHandle(NameRefused):
    """A handle of the wrong form: too short or long, a character not allowed, ..."""

    code = "invalid_handle"


class ReservedHandle(NameRefused):
    """A handle kept for the computer levels (``AI_``, a level's name) or the service
    (``admin``, ``root``, ...), or one that looks like them."""

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


class TooManyAccounts(ServiceError):
    """Accounts made from one address past the deployment-wide allowance (HTTP 429, with
    ``Retry-After``)."""

    code = "too_many_accounts"
    default_message = "Too many accounts made from your address lately; try again later"

    def __init__(self, message: str | None = None, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotRatedGame(InvalidParameter):
    """A game that no rated table plays (HTTP 404)."""

    code = "not_a_rated_game"
