"""The table around a game: who is seated, who hosts, who is ready, whether it is listed.

A :class:`Table` is the part of a game that is the same for every game the service hosts:
seats with a nickname (a human's, or an AI player's ``Name_(AI)``), a team, readiness; the
admin (the first to join, then the next human); public or private; whether the game starts
by itself once everyone is ready. It knows nothing of cards or moves: a game (Blef's
:class:`~engine.game.Game`) holds a table and its own state, and starts when the table says
it may. Refusals are the established service's errors (:mod:`engine.errors`), and change
nothing.

>>> table = Table(max_seats=4)
>>> table.join("ann"), table.join("Dazhbog_(AI)", ai_agent="probabilist")
(0, 1)
>>> table.admin, table.humans
('ann', ['ann'])
>>> table.set_ready("ann", True), table.everyone_ready
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine import errors
from engine.facts import (
    AI_NICKNAME_PATTERN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NICKNAME_PATTERN,
    Status,
    sides_left,
)

MAX_TEAM: Final = 8

_NOT_STARTED: Final = Status.NOT_STARTED
_RUNNING: Final = Status.RUNNING
_FINISHED: Final = Status.FINISHED


class Table:
    """The seats and the lobby's choices of one game (see the module docstring).

    Seats are listed in join order in the lobby; the game may reorder them once, when it
    starts (:meth:`seat_in`). ``status`` is the game's: the lobby's changes are refused once
    it has started.
    """

    __slots__ = (
        "admin",
        "ai_agents",
        "auto_start",
        "max_seats",
        "min_seats",
        "nicknames",
        "public",
        "ready",
        "status",
        "teams",
    )

    def __init__(self, min_seats: int = MIN_PLAYERS, max_seats: int = MAX_PLAYERS) -> None:
        self.min_seats = min_seats
        self.max_seats = max_seats
        self.status = _NOT_STARTED
        self.admin: str | None = None
        self.public = False
        self.nicknames: list[str] = []
        self.ai_agents: list[str | None] = []
        self.teams: list[int | None] = []
        """Each seat's team (None: on their own), in list order."""
        self.ready: list[str] = []
        """Humans who said they are ready, in seat order (the lobby only)."""
        self.auto_start = False
        """Whether the game starts by itself once every human is ready (and two are seated)."""

    # ------------------------------------------------------------------ reading

    @property
    def n_players(self) -> int:
        return len(self.nicknames)

    @property
    def humans(self) -> list[str]:
        """The nicknames of the human players (not AI), in list order."""
        return [n for n, a in zip(self.nicknames, self.ai_agents, strict=True) if a is None]

    def seat_of(self, nickname: str) -> int:
        """The position of ``nickname`` in the player list (case-sensitive)."""
        try:
            return self.nicknames.index(nickname)
        except ValueError:
            raise errors.UnknownPlayer(f"No player called {nickname!r} in this game") from None

    def player_named(self, name: str) -> str:
        """The seated player's nickname that ``name`` names, compared ignoring case as
        joining compares nicknames (``Alice`` names ``alice``)."""
        folded = name.casefold()
        for nickname in self.nicknames:
            if nickname.casefold() == folded:
                return nickname
        raise errors.UnknownPlayer(f"No player called {name!r} in this game")

    def is_player(self, nickname: str) -> bool:
        return nickname in self.nicknames

    def team_of(self, nickname: str) -> int | None:
        return self.teams[self.seat_of(nickname)]

    @property
    def n_sides(self) -> int:
        """How many sides are seated: teams, and players on their own."""
        return sides_left(self.teams, [1] * len(self.teams))

    @property
    def everyone_ready(self) -> bool:
        """Whether enough sides are seated and every human among them is ready."""
        humans = len(self.humans)
        return (
            self.n_players >= self.min_seats
            and self.n_sides > 1
            and humans > 0
            and len(self.ready) == humans
        )

    @property
    def starts_by_itself(self) -> bool:
        """Whether the game should start now, by the admin's auto start."""
        return self.auto_start and self.status is _NOT_STARTED and self.everyone_ready

    # ------------------------------------------------------------------ checks

    def check_seat_free(self) -> None:
        """Refuse as joining would, for the table alone: it has started, or it is full."""
        if self.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted
        if len(self.nicknames) >= self.max_seats:
            raise errors.RoomFull

    def check_admin(self, by: str | None) -> None:
        """Refuse unless ``by`` is the admin (None: whoever asks owns the whole game)."""
        if by is not None and by != self.admin:
            raise errors.NotAdmin

    def check_lobby(self, running_message: str | None = None) -> None:
        """Refuse a lobby change once the game has started (or finished)."""
        if self.status is _RUNNING:
            raise errors.GameAlreadyStarted(running_message)
        if self.status is _FINISHED:
            raise errors.GameFinished

    def human(self, nickname: str) -> int:
        """The seat of the human ``nickname``; refused for an AI player."""
        seat = self.seat_of(nickname)
        if self.ai_agents[seat] is not None:
            raise errors.UnknownPlayer(f"{nickname!r} is an AI player")
        return seat

    # ------------------------------------------------------------------ the lobby

    def join(self, nickname: str, ai_agent: str | None = None, team: int | None = None) -> int:
        """Seat a player (in ``team``, or on their own); the first to join is the admin.
        Returns their position."""
        self.check_seat_free()
        check_team(team)
        if ai_agent is not None and self.admin is None:
            # An AI is seated by a human admin; it can never be (or inherit) the admin.
            raise errors.NotAdmin("An AI player joins only when a game's admin invites it")
        pattern = NICKNAME_PATTERN if ai_agent is None else AI_NICKNAME_PATTERN
        if not isinstance(nickname, str) or not pattern.fullmatch(nickname):
            raise errors.InvalidNickname
        folded = nickname.casefold()
        for taken in self.nicknames:
            if taken.casefold() == folded:
                raise errors.NicknameTaken
        self.nicknames.append(nickname)
        self.ai_agents.append(ai_agent)
        self.teams.append(team)
        if self.admin is None:
            self.admin = nickname
        return len(self.nicknames) - 1

    def ai_nickname(self, name: str) -> str:
        """The nickname the next AI player called ``name`` gets: ``Name_(AI)``, then
        ``Name_2_(AI)``, ``Name_3_(AI)``, ... whichever is free first."""
        taken = {n.casefold() for n in self.nicknames}
        candidate = f"{name}_(AI)"
        k = 2
        while candidate.casefold() in taken:
            candidate = f"{name}_{k}_(AI)"
            k += 1
        return candidate

    def set_public(self, public: bool, by: str | None = None) -> bool:
        """List the game (or not) before it starts. Returns whether it changed."""
        if self.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted("Cannot make the change - game already started")
        self.check_admin(by)
        changed = self.public != public
        self.public = public
        return changed

    def leave(self, nickname: str) -> int:
        """``nickname`` leaves the lobby: their seat and nickname are free again. If the
        admin leaves, the human who joined next becomes admin; when no human is left the AI
        players go too, and the empty game is private. Returns the seat they had."""
        self.check_lobby("Game already started - resign to leave a running game")
        seat = self.human(nickname)
        self.drop(seat)
        if self.admin == nickname:
            humans = self.humans
            self.admin = humans[0] if humans else None
        if self.admin is None:
            self.nicknames, self.ai_agents, self.teams = [], [], []
            self.ready, self.public, self.auto_start = [], False, False
        return seat

    def remove(self, nickname: str, by: str | None = None) -> int:
        """The admin (``by``) removes another player, human or AI, from the lobby. Returns
        the seat they had."""
        self.check_lobby()
        self.check_admin(by)
        seat = self.seat_of(nickname)
        if nickname == self.admin:
            raise errors.CannotRemoveSelf
        self.drop(seat)
        return seat

    def drop(self, seat: int) -> None:
        """Free ``seat`` (its player leaves the list; the seats after it move up)."""
        nickname = self.nicknames[seat]
        del self.nicknames[seat], self.ai_agents[seat], self.teams[seat]
        if nickname in self.ready:
            self.ready.remove(nickname)

    def set_ready(self, nickname: str, ready: bool) -> bool:
        """A human says they are ready (or not). Returns whether that changed anything."""
        self.check_lobby()
        self.human(nickname)
        if (nickname in self.ready) == ready:
            return False
        if ready:
            self.ready = [n for n in self.nicknames if n in self.ready or n == nickname]
        else:
            self.ready.remove(nickname)
        return True

    def set_auto_start(self, on: bool, by: str | None = None) -> bool:
        """The admin chooses whether the game starts once every human is ready. Returns
        whether that changed anything."""
        self.check_lobby()
        self.check_admin(by)
        if self.auto_start == on:
            return False
        self.auto_start = on
        return True

    def set_team(self, nickname: str, team: int | None, by: str | None = None) -> bool:
        """Move ``nickname`` to ``team`` (None: on their own) before the start: the admin
        moves anyone, a player only themselves. Returns whether it changed; a change makes
        every human unready."""
        self.check_lobby()
        check_team(team)
        seat = self.seat_of(nickname)
        if by is not None and by not in (nickname, self.admin):
            raise errors.NoPermission
        if self.teams[seat] == team:
            return False
        self.teams[seat] = team
        self.ready = []
        return True

    def rename(self, nickname: str, new: str) -> int:
        """Show ``nickname`` as ``new`` from now on (a nickname reported as offensive).
        Returns their seat."""
        seat = self.seat_of(nickname)
        folded = new.casefold()
        if not NICKNAME_PATTERN.fullmatch(new) or any(
            n.casefold() == folded for i, n in enumerate(self.nicknames) if i != seat
        ):
            raise errors.InvalidNickname
        self.nicknames[seat] = new
        if self.admin == nickname:
            self.admin = new
        self.ready = [new if n == nickname else n for n in self.ready]
        return seat

    def seat_in(self, order: Sequence[int]) -> None:
        """Reorder the seats as the game seats its players at the start (``order[i]``: the
        join position of the player now in seat ``i``), and close the lobby: nobody is
        ready any more, the game is private and running."""
        self.nicknames = [self.nicknames[i] for i in order]
        self.ai_agents = [self.ai_agents[i] for i in order]
        self.teams = [self.teams[i] for i in order]
        self.ready = []
        self.public = False
        self.status = _RUNNING

    def finish(self) -> None:
        """The game is over: the table stays as it ended."""
        self.status = _FINISHED


def check_team(team: int | None) -> None:
    """Refuse a team that is not a number from 1 to :data:`MAX_TEAM`."""
    if team is not None and (type(team) is not int or not 1 <= team <= MAX_TEAM):
        raise errors.InvalidTeam(f"A team is a number between 1 and {MAX_TEAM}")
