"""Errors of the service layer. Like the engine's, each has a stable ``code`` and a message;
the HTTP status of every error (engine or service) is decided in one place, app/api/errors.py.
"""

from __future__ import annotations

from typing import ClassVar

from engine.errors import BlefError

_ECHO_LIMIT = 80


class ServiceError(BlefError):
    code: ClassVar[str] = "service_error"


class GameNotFound(ServiceError):
    code = "game_not_found"
    default_message = "Game does not exist"


class InvalidParameter(ServiceError):
    """A parameter that is missing or not of the right form, in the established wording:
    ``Bad input value in '<name>': <value>`` then a newline and the reason."""

    code = "invalid_parameter"

    def __init__(self, name: str, value: object, reason: str) -> None:
        shown = "" if value is None else _printable(str(value))
        if len(shown) > _ECHO_LIMIT:
            shown = shown[:_ECHO_LIMIT] + "..."
        self.parameter = name
        super().__init__(f"Bad input value in '{name}': {shown}\n{reason}")


def _printable(text: str) -> str:
    """``text`` as it can be sent back in a UTF-8 reply: a lone surrogate (which JSON can
    carry in but no UTF-8 encoder can write out) is shown as its ``\\udxxx`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class MissingParameter(InvalidParameter):
    code = "missing_parameter"


class CredentialsMissing(MissingParameter):
    """No credential on a route that takes it from the ``Authorization`` header only: HTTP
    401 with ``WWW-Authenticate: Bearer``, as that header's absence calls for."""


class ConflictError(ServiceError):
    code = "conflict"
    default_message = (
        "The game changed while this request was being handled; nothing was applied."
        " Fetch the state and try again"
    )


class StaleVersion(ConflictError):
    default_message = "The game has moved on since the version you sent; nothing was applied"


class GameNotFinished(ServiceError):
    code = "game_not_finished"
    default_message = "The game has not finished yet; its record is available once it has"


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key sent with another request (another nickname, team, player,
    move or parameters): the key's first answer stands, and is not given for this request."""

    code = "idempotency_key_reused"
    default_message = (
        "This Idempotency-Key was already used for a different request; nothing was done."
        " Send a new key with a new request, or repeat the first request unchanged"
    )


class WeakIdempotencyKey(InvalidParameter):
    """An Idempotency-Key too guessable to prove that a retry comes from the client that
    sent the original, on a route whose reply holds a secret."""

    code = "weak_idempotency_key"


class GameGone(ServiceError):
    """A keyed create retried after the game it made has expired or been deleted."""

    code = "game_gone"
    default_message = (
        "The game this Idempotency-Key created is gone (expired); create a new one with a new key"
    )


class NotAPlayer(ServiceError):
    """Credentials that name no player (or an AI player) of this game."""

    code = "unknown_player"
    default_message = "The UUID does not match any active player"


class SeatMoved(NotAPlayer):
    """A player UUID that was retired when its seat moved to another device (HTTP 403): the
    seat is played from there, with the new UUID it was given."""

    code = "seat_moved"
    default_message = (
        "This seat moved to another device; this player UUID no longer works."
        " Play on the device the seat was moved to"
    )


class UnknownReaction(InvalidParameter):
    """A reaction that is not one of the fixed list (app/service/social.py)."""

    code = "unknown_reaction"


class TooManyReactions(ServiceError):
    """A player's reactions past their rate (HTTP 429, with ``Retry-After``)."""

    code = "too_many_reactions"
    default_message = "Too many reactions; wait a few seconds"

    def __init__(self, message: str | None = None, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class CannotReportSelf(ServiceError):
    code = "cannot_report_self"
    default_message = "You cannot report your own nickname"


class CannotReportAI(ServiceError):
    code = "cannot_report_ai"
    default_message = "AI players' nicknames are chosen by the service; there is nothing to report"


class ProfaneNickname(ServiceError):
    """A nickname the profanity filter (app/service/profanity.py) reads as rude, in any of its
    languages or disguised (leetspeak, look-alike letters, underscores between letters):
    HTTP 422, with ``"reason": "profanity"`` beside the usual ``error`` and ``code``. The
    name is not echoed back."""

    code = "profane_nickname"
    reason: ClassVar[str] = "profanity"
    default_message = "This nickname is not allowed: it reads as a rude word. Choose another one"


class UnknownGameKind(ServiceError):
    """A game kind the service does not host (HTTP 404)."""

    code = "unknown_game_kind"
    default_message = "No game of that kind is hosted here"


class SeatSecretRefused(NotAPlayer):
    """A table's route sent no Bearer secret where one is needed, or one that is no seat's
    at that table (HTTP 403)."""

    default_message = (
        "The Authorization: Bearer <player_uuid> header is not the secret of a seat at this table"
    )


class RefusedByGame(ServiceError):
    """A game's own refusal (engine/protocol.py) of a move or rules at a table of any game
    but Blef, with the game's stable code and sentence: ``move_refused`` and its subclasses
    (HTTP 409), or ``malformed_move`` / ``invalid_rules`` (HTTP 422, :class:`MalformedByGame`)."""

    code = "move_refused"

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        vars(self)["code"] = code  # the game's own code, as it names the rule


class MalformedByGame(RefusedByGame):
    code = "malformed_move"


class TooManyOrders(ServiceError):
    """A seat's moves past its rate at a table (HTTP 429, with ``Retry-After``)."""

    code = "too_many_orders"
    default_message = "Too many moves from this seat; wait a moment"

    def __init__(self, message: str | None = None, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TableNotFound(GameNotFound):
    """No table of that kind with that UUID, at a table's routes (HTTP 404; Blef's
    established routes answer ``game_not_found`` with 400, as they always have)."""


class RecordNotKept(ServiceError):
    """A finished table whose game keeps no record (a kind without one, or a game started
    before records were kept: app/service/match_record.py), HTTP 404."""

    code = "record_not_kept"
    default_message = (
        "No record of this game was kept: only Economancy games started since records"
        " are kept, and Figgie games, have one"
    )
