"""The game of Blef as a state machine: lobby, start, rounds, checks, eliminations, finish.

A :class:`Game` knows players only by nickname; credentials belong to the service around it.

>>> from engine.dealing import seed_sequence
>>> from engine.facts import CHECK
>>> game = Game(seed_source=seed_sequence(7))
>>> game.join("alice"), game.join("bob")
(0, 1)
>>> game.start(by="alice")
>>> game.status, game.round_number, game.max_cards
(<Status.RUNNING: 'Running'>, 1, 11)
>>> first = game.current_player
>>> game.apply(0, by=first) is None        # a bet on "high card 9"
True
>>> record = game.apply(CHECK)             # the next player checks: the round ends
>>> record.number, record.history[-1].action_id
(1, 89)
"""

from __future__ import annotations

from typing import Any, Final

from engine import errors
from engine.blef.state import BlefState
from engine.dealing import SeedSource, random_seed
from engine.facts import DECK, MIN_PLAYERS, Card, Status
from engine.records import Move, PlayerRow, RoundRecord
from engine.rules import CLASSIC, Rules
from engine.serialise import GameParts, dump_game, parse_game
from engine.table import MAX_TEAM, Table, check_team

__all__ = ["MAX_TEAM", "Game", "Move", "PlayerRow", "RoundRecord", "Status", "check_team"]

_NOT_STARTED: Final = Status.NOT_STARTED
_RUNNING: Final = Status.RUNNING
_FINISHED: Final = Status.FINISHED


class Game:
    """One game of Blef, from the lobby to the finish: a :class:`~engine.table.Table` (the
    seats, the admin, readiness) and, once started, a :class:`~engine.blef.state.BlefState`
    (the rounds).

    Players are identified by nickname. After the start, players are kept in seating order;
    an eliminated player keeps a row with 0 cards. Methods raise the exceptions of
    :mod:`engine.errors` and change nothing when they do.
    """

    __slots__ = ("_seed_source", "rules", "state", "table")

    def __init__(self, seed_source: SeedSource | None = None, rules: Rules = CLASSIC) -> None:
        self._seed_source: SeedSource = seed_source or random_seed
        self.rules = rules
        """The rules (deck, jokers, blanks, common cards, maximum, start): the admin may
        change them in the lobby (:meth:`set_rules`)."""
        self.table = Table()
        self.state: BlefState | None = None
        """The rounds, once the game has started (None in the lobby)."""

    # ------------------------------------------------------------------ the table's facts

    @property
    def status(self) -> Status:
        return self.table.status

    @property
    def admin(self) -> str | None:
        return self.table.admin

    @property
    def public(self) -> bool:
        return self.table.public

    @property
    def nicknames(self) -> list[str]:
        return self.table.nicknames

    @property
    def ai_agents(self) -> list[str | None]:
        return self.table.ai_agents

    @property
    def teams(self) -> list[int | None]:
        """Each player's team (None: on their own), in list order."""
        return self.table.teams

    @property
    def ready(self) -> list[str]:
        """Humans who said they are ready, in join order (the lobby only)."""
        return self.table.ready

    @property
    def auto_start(self) -> bool:
        """Whether the game starts by itself once every human is ready (and two are seated)."""
        return self.table.auto_start

    @property
    def n_players(self) -> int:
        return len(self.table.nicknames)

    @property
    def chosen_max_cards(self) -> int | None:
        """The admin's maximum of cards (None: the rule's), capped again at the start."""
        return self.rules.max_cards or None

    @property
    def humans(self) -> list[str]:
        """The nicknames of the human players (not AI), in list order."""
        return self.table.humans

    def seat_of(self, nickname: str) -> int:
        """The position of ``nickname`` in the player list (case-sensitive)."""
        return self.table.seat_of(nickname)

    def player_named(self, name: str) -> str:
        """The seated player's nickname that ``name`` names, compared ignoring case as
        joining compares nicknames (``Alice`` names ``alice``)."""
        return self.table.player_named(name)

    def is_player(self, nickname: str) -> bool:
        return nickname in self.table.nicknames

    def team_of(self, nickname: str) -> int | None:
        return self.table.team_of(nickname)

    @property
    def n_sides(self) -> int:
        """How many sides are seated: teams, and players on their own."""
        return self.table.n_sides

    @property
    def everyone_ready(self) -> bool:
        """Whether at least two sides are seated and every human among them is ready."""
        return self.table.everyone_ready

    # ------------------------------------------------------------------ the rounds' facts

    @property
    def current_seat(self) -> int | None:
        """Whose turn it is, as a seat; None in the lobby and once the game is finished."""
        state = self.state
        return None if state is None else state.current_seat

    @property
    def min_bet(self) -> int:
        """The lowest bet the current player may make (``rules.check``, 88 in the classic
        game, means only a check is left)."""
        state = self.state
        return 0 if state is None else state.min_bet

    @property
    def max_cards(self) -> int:
        """The maximum of cards of the game (0 before the start)."""
        state = self.state
        return 0 if state is None else state.max_cards

    @property
    def round_number(self) -> int:
        state = self.state
        return 0 if state is None else state.round_number

    @property
    def players(self) -> tuple[PlayerRow, ...]:
        """The player list: join order in the lobby, seating order once started."""
        table = self.table
        return tuple(
            PlayerRow(n, c, a, t)
            for n, c, a, t in zip(
                table.nicknames, self.card_counts, table.ai_agents, table.teams, strict=True
            )
        )

    @property
    def current_player(self) -> str | None:
        """Whose turn it is; None in the lobby and once the game is finished."""
        seat = self.current_seat
        return None if seat is None else self.table.nicknames[seat]

    @property
    def history(self) -> tuple[Move, ...]:
        """The current round's moves (a finished game's final round ends with the 89 event)."""
        state = self.state
        if state is None:
            return ()
        nicks = self.table.nicknames
        return tuple(Move(nicks[s], a) for s, a in state.seats_history)

    @property
    def last_bet(self) -> int | None:
        """The bet on the table in the current round, if any."""
        state = self.state
        return None if state is None else state.last_bet

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the current round's seed (None before the start)."""
        state = self.state
        return None if state is None else state.commitment

    @property
    def revealed_seed(self) -> bytes | None:
        """The current round's seed, once the game is over and it may be shown."""
        state = self.state
        return None if state is None else state.revealed_seed

    @property
    def winner(self) -> str | None:
        """The first player still holding cards once the game is over (with teams, one of
        the winning team: see :attr:`winners`)."""
        winners = self.winners
        return winners[0] if winners else None

    @property
    def winners(self) -> list[str]:
        """Everyone still holding cards once the game is over: the last player, or the
        last team standing."""
        if self.status is not _FINISHED:
            return []
        return [n for n, c in zip(self.table.nicknames, self.card_counts, strict=True) if c]

    @property
    def common_indices(self) -> tuple[int, ...]:
        """The current round's common cards, face up for everyone (deck indices)."""
        state = self.state
        return () if state is None else state.common_indices

    def sees_hand_of(self, viewer: str, seat: int) -> bool:
        """Whether ``viewer`` may see the hand of ``seat``: their own, or a team-mate's."""
        teams = self.table.teams
        mine = self.seat_of(viewer)
        team = teams[mine]
        return seat == mine or (team is not None and teams[seat] == team)

    def n_cards(self, nickname: str) -> int:
        return self.card_counts[self.seat_of(nickname)]

    def hand(self, nickname: str) -> tuple[Card, ...]:
        """The cards ``nickname`` holds in the current round (empty outside a round), for
        the classic deck (see :meth:`hand_dicts` for any deck)."""
        return tuple(DECK[i] for i in self.hand_indices(self.seat_of(nickname)))

    def hand_dicts(self, seat: int) -> list[dict[str, int]]:
        """The cards ``seat`` holds, as the API shows cards (any deck, jokers and blanks)."""
        return [self.rules.card_dict(i) for i in self.hand_indices(seat)]

    def hand_indices(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds in the current round, as sorted deck indices (value * 4 +
        colour): the cheap form the agents read (empty outside a round)."""
        state = self.state
        return () if state is None else state.hand_indices(seat)

    @property
    def card_counts(self) -> tuple[int, ...]:
        """Cards each seat holds this round (0 for a player who is out)."""
        state = self.state
        return (0,) * len(self.table.nicknames) if state is None else tuple(state.cards)

    @property
    def seats_history(self) -> list[tuple[int, int]]:
        """The current round's moves as (seat, action id) pairs (a copy)."""
        state = self.state
        return [] if state is None else state.seats_history

    def legal_actions(self) -> list[int]:
        """The actions the current player may take: every bet above the last one, and a
        check once there is a bet. Empty when nobody is to move."""
        state = self.state
        return [] if state is None else state.legal_actions()

    def check_running(self) -> None:
        """Refuse a move unless the game is running: not started yet, or finished."""
        if self.status is _NOT_STARTED:
            raise errors.GameNotStarted
        if self.status is _FINISHED:
            raise errors.GameFinished

    def is_legal(self, action_id: int) -> bool:
        """Whether :meth:`apply` would accept ``action_id`` now (False for a non-int)."""
        state = self.state
        return state is not None and state.is_legal(action_id)

    def usable_jokers(self, bettor: int) -> int:
        """The jokers a bet by ``bettor`` may count: those in their own hand and among the
        common cards (an opponent's jokers never help the bettor)."""
        state = self.state
        return 0 if state is None else state.usable_jokers(bettor)

    # ------------------------------------------------------------------ the lobby

    def check_seat_free(self) -> None:
        """Refuse as joining would, for the game alone: it has started, or it is full."""
        self.table.check_seat_free()

    def join(self, nickname: str, ai_agent: str | None = None, team: int | None = None) -> int:
        """Add a player (in ``team``, or on their own); the first to join is the admin.
        Returns their position. Joining never starts the game, even when every human is
        ready with auto start on: an admin inviting several AI players gets them all."""
        return self.table.join(nickname, ai_agent, team)

    def ai_nickname(self, name: str) -> str:
        """The nickname the next AI player called ``name`` gets: ``Name_(AI)``, then
        ``Name_2_(AI)``, ``Name_3_(AI)``, ... whichever is free first."""
        return self.table.ai_nickname(name)

    def set_public(self, public: bool, by: str | None = None) -> bool:
        """Make the game listed (or not) before it starts. Returns whether it changed."""
        return self.table.set_public(public, by)

    def leave(self, nickname: str) -> None:
        """``nickname`` leaves the lobby: their seat and nickname are free again. If the
        admin leaves, the human who joined next becomes admin; when no human is left the
        AI players go too, and the empty game is private (nobody can find it; it expires).
        """
        self.table.leave(nickname)
        self._maybe_start()

    def remove(self, nickname: str, by: str | None = None) -> None:
        """The admin (``by``) removes another player, human or AI, from the lobby."""
        self.table.remove(nickname, by)
        self._maybe_start()

    def set_ready(self, nickname: str, ready: bool, start: bool = False) -> bool:
        """A human says they are ready (or not). Returns whether that changed anything;
        the game may start by itself (see :attr:`auto_start`), or, with ``start``, once
        everyone is ready whatever the admin chose (the newer service's readiness)."""
        if not self.table.set_ready(nickname, ready):
            return False
        if start and self.table.everyone_ready:
            self.start()
        self._maybe_start()
        return True

    def set_auto_start(self, on: bool, by: str | None = None) -> bool:
        """The admin chooses whether the game starts once every human is ready. Returns
        whether that changed anything (turning it on may start the game at once)."""
        if not self.table.set_auto_start(on, by):
            return False
        self._maybe_start()
        return True

    def max_cards_allowed(self) -> int:
        """The highest maximum of cards the admin may choose now: the rules' maximum for
        the players seated (counting at least two), without a preference."""
        return self.rules.but(max_cards=0).max_cards_for(max(self.n_players, MIN_PLAYERS))

    def set_rules(self, rules: Rules, by: str | None = None) -> bool:
        """The admin changes the rules before the start. Returns whether they changed;
        a change makes every human unready (they agreed to other rules)."""
        self.table.check_lobby("Cannot change rules after the game has started")
        self.table.check_admin(by)
        if rules == self.rules:
            return False
        self.rules = rules
        self.table.ready = []
        return True

    def set_team(self, nickname: str, team: int | None, by: str | None = None) -> bool:
        """Move ``nickname`` to ``team`` (None: on their own) before the start: the admin
        moves anyone, a player only themselves. Returns whether it changed; a change makes
        every human unready."""
        return self.table.set_team(nickname, team, by)

    def set_max_cards(self, limit: int, by: str | None = None) -> bool:
        """The admin chooses the maximum of cards, 1 to :meth:`max_cards_allowed`. At the
        start it is capped again by the rule's maximum for the players then seated.
        Returns whether it changed."""
        self.table.check_lobby()
        self.table.check_admin(by)
        top = self.max_cards_allowed()
        if type(limit) is not int or not 1 <= limit <= top:
            raise errors.InvalidMaxCards(
                f"The maximum of cards must be an integer between 1 and {top}"
                f" for {max(self.n_players, MIN_PLAYERS)} players"
            )
        if self.chosen_max_cards == limit:
            return False
        self.rules = self.rules.but(max_cards=limit)
        return True

    def _maybe_start(self) -> None:
        if self.table.starts_by_itself:
            self.start()

    def rename(self, nickname: str, new: str) -> None:
        """Show ``nickname`` as ``new`` from now on (e.g. a nickname reported as
        offensive). The history keeps its seats, so every move follows the player."""
        seat = self.table.rename(nickname, new)
        self.rules = self.rules.renamed(nickname, new)
        if self.state is not None:
            self.state.relabel(seat, new)
            self.state.rules = self.rules

    def start(self, by: str | None = None) -> None:
        """Start the game: shuffle the seating, give everyone one card, deal round 1.

        ``by`` is the nickname of whoever asks; only the admin may start. None skips the
        check (for bots and tests that own the whole game).
        """
        table = self.table
        if table.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted
        table.check_admin(by)
        self.state, order = BlefState.start(
            self.rules, table.nicknames, table.ai_agents, table.teams, self._seed_source
        )
        table.seat_in(order)

    # ------------------------------------------------------------------ playing

    def apply(self, action_id: int, by: str | None = None) -> RoundRecord | None:
        """Play ``action_id`` for the current player.

        ``by`` names who is moving and is checked against the current player; None plays
        for whoever's turn it is. A bet returns None; a check resolves the round and returns
        its :class:`RoundRecord` (the next round, if any, is already dealt).
        """
        state = self.state
        if state is None or state.current_seat is None:  # nobody is to move
            self.check_running()
            raise AssertionError("a running game always has a player to move")
        if by is not None:
            nicknames = self.table.nicknames
            if by != nicknames[state.current_seat]:
                if by not in nicknames:
                    raise errors.UnknownPlayer
                raise errors.NotYourTurn
        record = state.play(action_id)
        if record is not None and record.ended_game:
            self.table.finish()
        return record

    def time_out(self) -> RoundRecord:
        """The player to move let their time run out: they lose the round, exactly as if
        they had lost a check (one more card next round, or out past the maximum).

        The engine reads no clock; the service decides that the time is up and says so
        here. The round's history closes with the lost-round event (89) for that player,
        with no check before it, the way every client already reads a lost round. Returns
        the round's record.
        """
        if self.status is not _RUNNING:
            self.check_running()
        assert self.state is not None
        return self._ended(self.state.time_out())

    def resign(self, nickname: str) -> RoundRecord:
        """``nickname`` leaves a running game: out at once, as in :meth:`forfeit`."""
        if self.status is _RUNNING and not self.card_counts[self.seat_of(nickname)]:
            raise errors.AlreadyOut
        return self.forfeit(nickname)

    def forfeit(self, nickname: str) -> RoundRecord:
        """Eliminate ``nickname`` at once, e.g. a bot that crashed, answered late or cheated.

        The round in play ends there: its history closes with the lost-round event (89)
        for the forfeiting player, with no check before it. If one player is left the game
        is finished; otherwise a new round is dealt, begun by the player whose turn it was
        (or the next one, if that was the forfeiting player). Returns the abandoned round.
        """
        if self.status is not _RUNNING:
            self.check_running()
        assert self.state is not None
        return self._ended(self.state.forfeit(self.seat_of(nickname)))

    def _ended(self, record: RoundRecord) -> RoundRecord:
        if record.ended_game:
            self.table.finish()
        return record

    # ------------------------------------------------------------------ views and storage

    def parts(self) -> GameParts:
        """Everything this game is, as plain values (secrets included: for storage)."""
        table, state = self.table, self.state
        return GameParts(
            table.status,
            table.admin,
            table.public,
            self.max_cards,
            self.round_number,
            list(table.nicknames),
            list(table.ai_agents),
            list(self.card_counts),
            [] if state is None else list(state.hands),
            0 if state is None else state.mask,
            None if state is None else state.seed,
            self.seats_history,
            self.current_seat,
            list(table.ready),
            table.auto_start,
            self.rules,
            list(table.teams),
            self.common_indices,
        )

    @classmethod
    def restore(cls, parts: GameParts, seed_source: SeedSource | None = None) -> Game:
        """The game ``parts`` describe (checked already: see engine.serialise.parse_game)."""
        game = cls(seed_source, parts.rules)
        table = game.table
        table.status, table.admin, table.public = parts.status, parts.admin, parts.public
        table.nicknames, table.ai_agents = list(parts.nicknames), list(parts.ai_agents)
        table.ready, table.auto_start = list(parts.ready), parts.auto_start
        table.teams = list(parts.teams)
        if parts.status is not _NOT_STARTED:
            game.state = BlefState.restore(parts, game._seed_source)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole state as a JSON-ready dict, secrets included: for stores only."""
        return dump_game(self.parts())

    @classmethod
    def from_dict(cls, data: dict[str, Any], seed_source: SeedSource | None = None) -> Game:
        """Rebuild a game from :meth:`to_dict`, refusing an impossible state."""
        return cls.restore(parse_game(data), seed_source)

    def __repr__(self) -> str:
        return (
            f"<Game {self.status.value} round={self.round_number} "
            f"players={self.nicknames} turn={self.current_player}>"
        )
