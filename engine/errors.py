"""The engine's exceptions: one small family, each saying exactly what went wrong.

Every error has a stable machine-readable ``code`` and a human ``message``. The messages
are the established Blef service's texts where clients match on them.
"""

from __future__ import annotations

from typing import ClassVar

from engine.protocol import GameError, MalformedMove, MoveRefused


class BlefError(GameError):
    """Base of every rule violation Blef reports (a :class:`~engine.protocol.GameError`:
    a stable ``code`` and a ``message`` in words)."""

    code: ClassVar[str] = "blef_error"
    default_message: ClassVar[str] = "Blef rule violated"


class GameNotStarted(BlefError, MoveRefused):
    code = "game_not_started"
    default_message = "This game has not yet started"


class GameAlreadyStarted(BlefError):
    code = "game_already_started"
    default_message = "Game already started"


class GameFinished(BlefError, MoveRefused):
    code = "game_finished"
    default_message = "This game has already finished"


class NotYourTurn(BlefError, MoveRefused):
    code = "not_your_turn"
    default_message = "The submitted UUID does not match the UUID of the current player"


class InvalidAction(BlefError, MalformedMove):
    """The action is not an action id at all (wrong type or outside 0..88)."""

    code = "invalid_action"
    default_message = "Action ID must be an integer between 0 and 88"


class IllegalAction(BlefError, MoveRefused):
    """The action id exists but the rules do not allow it now."""

    code = "illegal_action"
    default_message = "This action not allowed right now"


class RoomFull(BlefError):
    code = "room_full"
    default_message = "Game room full"


class InvalidNickname(BlefError):
    code = "invalid_nickname"
    default_message = (
        "Nickname must start with a letter and only contain letters, digits and underscores"
        " (at most 64 characters)"
    )


class NicknameTaken(BlefError):
    code = "nickname_taken"
    default_message = "Nickname already taken"


class NotAdmin(BlefError):
    code = "not_admin"
    default_message = "Admin UUID does not match"


class TooFewPlayers(BlefError):
    code = "too_few_players"
    default_message = "At least 2 players needed to start a game"


class UnknownPlayer(BlefError):
    code = "unknown_player"
    default_message = "The UUID does not match any active player"


class UnknownAgent(BlefError):
    code = "unknown_agent"
    default_message = "No AI agent of that name"


class RoundNotReached(BlefError):
    code = "round_not_reached"
    default_message = "The game has not reached this round"


class CannotRemoveSelf(BlefError):
    code = "cannot_remove_self"
    default_message = "You cannot remove yourself - leave the game instead"


class AlreadyOut(BlefError):
    code = "already_out"
    default_message = "You are already out of the game"


class InvalidMaxCards(BlefError):
    code = "invalid_max_cards"
    default_message = "The maximum of cards is out of range"


class InvalidState(BlefError):
    """A serialised game that describes an impossible state."""

    code = "invalid_state"
    default_message = "Invalid game state"


class InvalidRules(BlefError):
    """A rule out of its bounds, of the wrong type, or impossible for the players seated."""

    code = "invalid_rules"
    default_message = "Every rule must be an integer"


class InvalidTeam(BlefError):
    code = "invalid_team"
    default_message = "A team is a number between 1 and 8"


class OneTeam(BlefError):
    """Everyone seated is in one team: nobody would play against anybody."""

    code = "one_team"
    default_message = "At least two teams (or players on their own) are needed to start"


class NoPermission(BlefError):
    """A player asked for something only the admin (or that player) may do."""

    code = "no_permission"
    default_message = "You do not have permission"
