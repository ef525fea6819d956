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
from engine.dealing import (
    SeedSource,
    commitment,
    deal_round,
    initial_cards_draw,
    random_seed,
    seating_order,
    team_seating,
)
from engine.facts import (
    AI_NICKNAME_PATTERN,
    DECK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NICKNAME_PATTERN,
    Card,
    Status,
    next_in_play,
    sides_left,
)
from engine.records import Move, PlayerRow, RoundRecord
from engine.rules import CLASSIC, CardKind, Rules
from engine.serialise import GameParts, dump_game, parse_game

__all__ = ["Game", "Move", "PlayerRow", "RoundRecord", "Status"]


_NO_HANDS: Final[list[tuple[int, ...]]] = []
# The statuses as module constants: reading a member through its enum class costs a
# lookup on the enum type, at every start, join and round.
_NOT_STARTED: Final = Status.NOT_STARTED
_RUNNING: Final = Status.RUNNING
_FINISHED: Final = Status.FINISHED
_new_record: Final = tuple.__new__
_Seated = tuple[tuple[str, ...], tuple[str | None, ...], tuple[int | None, ...]]


class Game:
    """One game of Blef, from the lobby to the finish.

    Players are identified by nickname. After the start, players are kept in seating order;
    an eliminated player keeps a row with 0 cards. Methods raise the exceptions of
    :mod:`engine.errors` and change nothing when they do.
    """

    __slots__ = (
        "_cards",
        "_check",
        "_common",
        "_hands",
        "_history",
        "_mask",
        "_n_active",
        "_next",
        "_seated",
        "_seed",
        "_seed_source",
        "_table",
        "_teams_play",
        "admin",
        "ai_agents",
        "auto_start",
        "current_seat",
        "max_cards",
        "min_bet",
        "nicknames",
        "public",
        "ready",
        "round_number",
        "rules",
        "status",
        "teams",
    )

    def __init__(self, seed_source: SeedSource | None = None, rules: Rules = CLASSIC) -> None:
        self._seed_source: SeedSource = seed_source or random_seed
        self.rules = rules
        """The rules (deck, jokers, blanks, common cards, maximum, start): the admin may
        change them in the lobby (:meth:`set_rules`)."""
        self._table = rules.table
        self._check = rules.check
        self.teams: list[int | None] = []
        """Each player's team (None: on their own), in list order."""
        self._common: tuple[int, ...] = ()
        self._teams_play = False
        self.status = _NOT_STARTED
        self.admin: str | None = None
        self.public = False
        self.max_cards = 0
        self.round_number = 0
        self.nicknames: list[str] = []
        self.ai_agents: list[str | None] = []
        self.ready: list[str] = []
        """Humans who said they are ready, in join order (the lobby only)."""
        self.auto_start = False
        """Whether the game starts by itself once every human is ready (and two are seated)."""
        self._cards: list[int] = []
        self._hands: list[tuple[int, ...]] = _NO_HANDS
        self._mask = 0
        self._seed: bytes | None = None
        self._history: list[tuple[int, int]] = []
        self.current_seat: int | None = None
        """Whose turn it is, as a seat; None in the lobby and once the game is finished.
        (A plain field, read at every move: the engine alone sets it.)"""
        self.min_bet = 0
        """The lowest bet the current player may make (``rules.check``, 88 in the classic
        game, means only a check is left). A plain field, as :attr:`current_seat`."""
        self._n_active = 0
        self._next: list[int] = []
        self._seated: _Seated = ((), (), ())
        """The seated players' nicknames, AI agents and teams as tuples, for each round's
        record: made at the start, on a rename (the only changes once started) and on a
        restore."""

    # ------------------------------------------------------------------ reading

    @property
    def n_players(self) -> int:
        return len(self.nicknames)

    @property
    def chosen_max_cards(self) -> int | None:
        """The admin's maximum of cards (None: the rule's), capped again at the start."""
        return self.rules.max_cards or None

    @property
    def players(self) -> tuple[PlayerRow, ...]:
        """The player list: join order in the lobby, seating order once started."""
        return tuple(
            PlayerRow(n, c, a, t)
            for n, c, a, t in zip(
                self.nicknames, self._cards, self.ai_agents, self.teams, strict=True
            )
        )

    @property
    def humans(self) -> list[str]:
        """The nicknames of the human players (not AI), in list order."""
        return [n for n, a in zip(self.nicknames, self.ai_agents, strict=True) if a is None]

    @property
    def current_player(self) -> str | None:
        """Whose turn it is; None in the lobby and once the game is finished."""
        return None if self.current_seat is None else self.nicknames[self.current_seat]

    @property
    def history(self) -> tuple[Move, ...]:
        """The current round's moves (a finished game's final round ends with the 89 event)."""
        nicks = self.nicknames
        return tuple(Move(nicks[s], a) for s, a in self._history)

    @property
    def last_bet(self) -> int | None:
        """The bet on the table in the current round, if any."""
        return self.min_bet - 1 if self.min_bet else None

    @property
    def commitment(self) -> str | None:
        """SHA-256 of the current round's seed (None before the start)."""
        return commitment(self._seed) if self._seed is not None else None

    @property
    def revealed_seed(self) -> bytes | None:
        """The current round's seed, once the game is over and it may be shown."""
        return self._seed if self.status is _FINISHED else None

    @property
    def winner(self) -> str | None:
        """The first player still holding cards once the game is over (with teams, one of
        the winning team: see :attr:`winners`)."""
        if self.status is not _FINISHED:
            return None
        cards = self._cards
        for seat in range(len(cards)):
            if cards[seat]:
                return self.nicknames[seat]
        raise AssertionError("a finished game has a player holding cards")

    @property
    def winners(self) -> list[str]:
        """Everyone still holding cards once the game is over: the last player, or the
        last team standing."""
        if self.status is not _FINISHED:
            return []
        return [n for n, c in zip(self.nicknames, self._cards, strict=True) if c]

    @property
    def common_indices(self) -> tuple[int, ...]:
        """The current round's common cards, face up for everyone (deck indices)."""
        return self._common

    def team_of(self, nickname: str) -> int | None:
        return self.teams[self.seat_of(nickname)]

    def sees_hand_of(self, viewer: str, seat: int) -> bool:
        """Whether ``viewer`` may see the hand of ``seat``: their own, or a team-mate's."""
        mine = self.seat_of(viewer)
        team = self.teams[mine]
        return seat == mine or (team is not None and self.teams[seat] == team)

    def n_cards(self, nickname: str) -> int:
        return self._cards[self.seat_of(nickname)]

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

    def hand(self, nickname: str) -> tuple[Card, ...]:
        """The cards ``nickname`` holds in the current round (empty outside a round), for
        the classic deck (see :meth:`hand_dicts` for any deck)."""
        seat = self.seat_of(nickname)
        if seat >= len(self._hands):
            return ()
        return tuple(DECK[i] for i in self._hands[seat])

    def hand_dicts(self, seat: int) -> list[dict[str, int]]:
        """The cards ``seat`` holds, as the API shows cards (any deck, jokers and blanks)."""
        return [self.rules.card_dict(i) for i in self.hand_indices(seat)]

    def hand_indices(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds in the current round, as sorted deck indices (value * 4 +
        colour): the cheap form the agents read (empty outside a round)."""
        hands = self._hands
        return hands[seat] if seat < len(hands) else ()

    @property
    def card_counts(self) -> tuple[int, ...]:
        """Cards each seat holds this round (0 for a player who is out)."""
        return tuple(self._cards)

    @property
    def seats_history(self) -> list[tuple[int, int]]:
        """The current round's moves as (seat, action id) pairs (a copy)."""
        return list(self._history)

    def is_player(self, nickname: str) -> bool:
        return nickname in self.nicknames

    def legal_actions(self) -> list[int]:
        """The actions the current player may take: every bet above the last one, and a
        check once there is a bet. Empty when nobody is to move."""
        if self.status is not _RUNNING:
            return []
        actions = list(range(self.min_bet, self._check))
        if self.min_bet:
            actions.append(self._check)
        return actions

    def check_running(self) -> None:
        """Refuse a move unless the game is running: not started yet, or finished."""
        if self.status is _NOT_STARTED:
            raise errors.GameNotStarted
        if self.status is _FINISHED:
            raise errors.GameFinished

    def is_legal(self, action_id: int) -> bool:
        """Whether :meth:`apply` would accept ``action_id`` now (False for a non-int)."""
        if self.status is not _RUNNING or type(action_id) is not int:
            return False
        if action_id == self._check:
            return self.min_bet > 0
        return self.min_bet <= action_id < self._check

    # ------------------------------------------------------------------ the lobby

    def check_seat_free(self) -> None:
        """Refuse as joining would, for the game alone: it has started, or it is full."""
        if self.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted
        if len(self.nicknames) >= MAX_PLAYERS:
            raise errors.RoomFull

    def join(self, nickname: str, ai_agent: str | None = None, team: int | None = None) -> int:
        """Add a player (in ``team``, or on their own); the first to join is the admin.
        Returns their position."""
        self.check_seat_free()
        _check_team(team)
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
        self._cards.append(0)
        if self.admin is None:
            self.admin = nickname
        # Joining never starts the game, even when every human is ready with auto start on:
        # an admin inviting several AI players gets them all (readiness or Start starts it).
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

    def _check_admin(self, by: str | None) -> None:
        if by is not None and by != self.admin:
            raise errors.NotAdmin

    def set_public(self, public: bool, by: str | None = None) -> bool:
        """Make the game listed (or not) before it starts. Returns whether it changed."""
        if self.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted("Cannot make the change - game already started")
        self._check_admin(by)
        changed = self.public != public
        self.public = public
        return changed

    def _check_lobby(self, running_message: str | None = None) -> None:
        if self.status is _RUNNING:
            raise errors.GameAlreadyStarted(running_message)
        if self.status is _FINISHED:
            raise errors.GameFinished

    def _human(self, nickname: str) -> int:
        seat = self.seat_of(nickname)
        if self.ai_agents[seat] is not None:
            raise errors.UnknownPlayer(f"{nickname!r} is an AI player")
        return seat

    def leave(self, nickname: str) -> None:
        """``nickname`` leaves the lobby: their seat and nickname are free again. If the
        admin leaves, the human who joined next becomes admin; when no human is left the
        AI players go too, and the empty game is private (nobody can find it; it expires).
        """
        self._check_lobby("Game already started - resign to leave a running game")
        self._human(nickname)
        self._drop(nickname)
        if self.admin == nickname:
            humans = self.humans
            self.admin = humans[0] if humans else None
        if self.admin is None:
            self.nicknames, self.ai_agents, self._cards, self.teams = [], [], [], []
            self.ready, self.public, self.auto_start = [], False, False
        self._maybe_start()

    def remove(self, nickname: str, by: str | None = None) -> None:
        """The admin (``by``) removes another player, human or AI, from the lobby."""
        self._check_lobby()
        self._check_admin(by)
        self.seat_of(nickname)
        if nickname == self.admin:
            raise errors.CannotRemoveSelf
        self._drop(nickname)
        self._maybe_start()

    def _drop(self, nickname: str) -> None:
        seat = self.seat_of(nickname)
        del self.nicknames[seat], self.ai_agents[seat], self._cards[seat], self.teams[seat]
        if nickname in self.ready:
            self.ready.remove(nickname)

    def set_ready(self, nickname: str, ready: bool, start: bool = False) -> bool:
        """A human says they are ready (or not). Returns whether that changed anything;
        the game may start by itself (see :attr:`auto_start`), or, with ``start``, once
        everyone is ready whatever the admin chose (the newer service's readiness)."""
        self._check_lobby()
        self._human(nickname)
        if (nickname in self.ready) == ready:
            return False
        if ready:
            self.ready = [n for n in self.nicknames if n in self.ready or n == nickname]
        else:
            self.ready.remove(nickname)
        if start and self.everyone_ready:
            self.start()
        self._maybe_start()
        return True

    def set_auto_start(self, on: bool, by: str | None = None) -> bool:
        """The admin chooses whether the game starts once every human is ready. Returns
        whether that changed anything (turning it on may start the game at once)."""
        self._check_lobby()
        self._check_admin(by)
        if self.auto_start == on:
            return False
        self.auto_start = on
        self._maybe_start()
        return True

    def max_cards_allowed(self) -> int:
        """The highest maximum of cards the admin may choose now: the rules' maximum for
        the players seated (counting at least two), without a preference."""
        return self.rules.but(max_cards=0).max_cards_for(max(self.n_players, MIN_PLAYERS))

    def set_rules(self, rules: Rules, by: str | None = None) -> bool:
        """The admin changes the rules before the start. Returns whether they changed;
        a change makes every human unready (they agreed to other rules)."""
        self._check_lobby("Cannot change rules after the game has started")
        self._check_admin(by)
        if rules == self.rules:
            return False
        self._set_rules(rules)
        self.ready = []
        return True

    def _set_rules(self, rules: Rules) -> None:
        self.rules = rules
        self._table = rules.table
        self._check = rules.check

    def set_team(self, nickname: str, team: int | None, by: str | None = None) -> bool:
        """Move ``nickname`` to ``team`` (None: on their own) before the start: the admin
        moves anyone, a player only themselves. Returns whether it changed; a change makes
        every human unready."""
        self._check_lobby()
        _check_team(team)
        seat = self.seat_of(nickname)
        if by is not None and by not in (nickname, self.admin):
            raise errors.NoPermission
        if self.teams[seat] == team:
            return False
        self.teams[seat] = team
        self.ready = []
        return True

    @property
    def n_sides(self) -> int:
        """How many sides are seated: teams, and players on their own."""
        return sides_left(self.teams, [1] * len(self.teams))

    def set_max_cards(self, limit: int, by: str | None = None) -> bool:
        """The admin chooses the maximum of cards, 1 to :meth:`max_cards_allowed`. At the
        start it is capped again by the rule's maximum for the players then seated.
        Returns whether it changed."""
        self._check_lobby()
        self._check_admin(by)
        top = self.max_cards_allowed()
        if type(limit) is not int or not 1 <= limit <= top:
            raise errors.InvalidMaxCards(
                f"The maximum of cards must be an integer between 1 and {top}"
                f" for {max(self.n_players, MIN_PLAYERS)} players"
            )
        if self.chosen_max_cards == limit:
            return False
        self._set_rules(self.rules.but(max_cards=limit))
        return True

    @property
    def everyone_ready(self) -> bool:
        """Whether at least two sides are seated and every human among them is ready."""
        humans = len(self.humans)
        return (
            self.n_players >= MIN_PLAYERS
            and self.n_sides > 1
            and humans > 0
            and len(self.ready) == humans
        )

    def _maybe_start(self) -> None:
        if self.auto_start and self.status is _NOT_STARTED and self.everyone_ready:
            self.start()

    def rename(self, nickname: str, new: str) -> None:
        """Show ``nickname`` as ``new`` from now on (e.g. a nickname reported as
        offensive). The history keeps its seats, so every move follows the player."""
        seat = self.seat_of(nickname)
        folded = new.casefold()
        if not NICKNAME_PATTERN.fullmatch(new) or any(
            n.casefold() == folded for i, n in enumerate(self.nicknames) if i != seat
        ):
            raise errors.InvalidNickname
        self.nicknames[seat] = new
        self._seat_players()
        if self.admin == nickname:
            self.admin = new
        self.ready = [new if n == nickname else n for n in self.ready]
        self.rules = self.rules.renamed(nickname, new)

    def start(self, by: str | None = None) -> None:
        """Start the game: shuffle the seating, give everyone one card, deal round 1.

        ``by`` is the nickname of whoever asks; only the admin may start. None skips the
        check (for bots and tests that own the whole game).
        """
        if self.status is not _NOT_STARTED:
            raise errors.GameAlreadyStarted
        self._check_admin(by)
        n = len(self.nicknames)
        if n < MIN_PLAYERS:
            raise errors.TooFewPlayers
        teams_play = self.teams.count(None) < n  # someone is in a team
        if teams_play and self.n_sides < 2:  # (without teams, every player is a side)
            raise errors.OneTeam
        rules = self.rules
        top = rules.max_cards_for(n)
        if top < 1:
            raise errors.InvalidRules(f"These rules leave no card to deal to {n} players")
        starting = rules.starting_cards(self.nicknames, top, 0)  # refuses before any change
        seed = self._seed_source()
        order = team_seating(seed, self.teams) if teams_play else seating_order(seed, n)
        self.nicknames = [self.nicknames[i] for i in order]
        self.ai_agents = [self.ai_agents[i] for i in order]
        self.teams = [self.teams[i] for i in order]
        if rules.initial_cards is not None:  # (one card each otherwise, whatever the order)
            starting = rules.starting_cards(self.nicknames, top, initial_cards_draw(seed))
        self._cards = starting
        self._n_active = n
        self._next = [*range(1, n), 0]  # the seat after each seat
        self._teams_play = teams_play
        self._seat_players()
        self.max_cards = top
        self.ready = []
        self.public = False
        self.status = _RUNNING
        self.round_number = 0
        self._begin_round(0, seed)

    def _begin_round(self, first_seat: int, seed: bytes) -> None:
        self.round_number += 1
        self._seed = seed
        rules = self.rules
        if rules.is_classic:
            self._hands, _, self._mask = deal_round(seed, self._cards)
        else:
            common = rules.common_count(self._cards)
            self._hands, self._common, self._mask = deal_round(
                seed, self._cards, common, rules.total_cards, rules.deck_size
            )
        self._history = []
        self.min_bet = 0
        self.current_seat = first_seat

    def _seat_players(self) -> None:
        self._seated = (tuple(self.nicknames), tuple(self.ai_agents), tuple(self.teams))

    def _rebuild_next(self) -> None:
        cards = self._cards
        self._next = [next_in_play(cards, seat) for seat in range(len(cards))]

    def _skip_seat(self, out: int) -> None:
        """``out`` has just left play: every seat whose next was ``out`` now passes to the
        seat after ``out`` (what :meth:`_rebuild_next` would find, without its search)."""
        following = self._next
        after = following[out]
        for seat, then in enumerate(following):
            if then == out:
                following[seat] = after

    # ------------------------------------------------------------------ playing

    def apply(self, action_id: int, by: str | None = None) -> RoundRecord | None:
        """Play ``action_id`` for the current player.

        ``by`` names who is moving and is checked against the current player; None plays
        for whoever's turn it is. A bet returns None; a check resolves the round and returns
        its :class:`RoundRecord` (the next round, if any, is already dealt).
        """
        current = self.current_seat
        if current is None:  # nobody is to move: the game is not running
            self.check_running()
            raise AssertionError("a running game always has a player to move")
        if by is not None and by != self.nicknames[current]:
            if by not in self.nicknames:
                raise errors.UnknownPlayer
            raise errors.NotYourTurn
        min_bet = self.min_bet
        check = self._check
        if type(action_id) is int and min_bet <= action_id < check:  # a legal bet
            self._history.append((current, action_id))
            self.min_bet = action_id + 1
            self.current_seat = self._next[current]
            return None
        if type(action_id) is not int or action_id != check or not min_bet:
            if type(action_id) is not int or not 0 <= action_id <= check:
                raise errors.InvalidAction(f"Action ID must be an integer between 0 and {check}")
            raise errors.IllegalAction  # a bet too low, or a check before any bet
        # A check: the round ends, lost by the checker if the bet set is there.
        history = self._history
        bettor, bet = history[-1]
        if self.rules.jokers:
            found = self._table.exists_with(bet, self._mask, self.usable_jokers(bettor))
        else:
            found = self._table.predicates[bet](self._mask)
        history.append((current, check))
        return self._end_round(current if found else bettor)

    def usable_jokers(self, bettor: int) -> int:
        """The jokers a bet by ``bettor`` may count: those in their own hand and among the
        common cards (an opponent's jokers never help the bettor)."""
        rules = self.rules
        return sum(
            1
            for card in (*self._hands[bettor], *self._common)
            if rules.kind_of(card) is CardKind.JOKER
        )

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
        current = self.current_seat
        assert current is not None
        return self._end_round(current)

    def _end_round(self, loser: int, forfeit: bool = False) -> RoundRecord:
        """The round ends, lost by ``loser``: one more card for them, or out past the
        maximum (out at once when they ``forfeit``). Closes the history with their 89 event,
        then finishes the game or deals the next round, begun by the loser (after a
        forfeit, by the player whose turn it was), or the next in play if they are out."""
        cards = self._cards
        cards_before = tuple(cards)
        first = loser
        if forfeit:
            current = self.current_seat
            assert current is not None
            first = current
            cards[loser] = 0
        else:
            held = cards[loser] + 1
            cards[loser] = 0 if held > self.max_cards else held
        self._history.append((loser, self._check + 1))
        seed = self._seed
        assert seed is not None
        self.current_seat = None
        ended = False  # (the game goes on unless someone has just left play)
        eliminated = not cards[loser]
        if eliminated:
            self._n_active -= 1
            self._skip_seat(loser)
            ended = self._n_active == 1 or (
                self._teams_play and sides_left(self.teams, self._cards) == 1
            )
        # tuple.__new__ skips the named tuple's own __new__ (a Python function): the same
        # record, made once per round.
        nicknames, ai_agents, teams = self._seated
        record = _new_record(
            RoundRecord,
            (
                self.round_number,
                nicknames,
                cards_before,
                ai_agents,
                self._hands,
                self._history,
                seed,
                loser,
                self.max_cards,
                ended,
                self._common,
                self.rules,
                teams,
            ),
        )
        if ended:
            # The final round stays as it ended: every hand shown, no new deal.
            self.status = _FINISHED
        else:
            if not cards[first]:
                first = self._next[first]
            self._begin_round(first, self._seed_source())
        return record

    def resign(self, nickname: str) -> RoundRecord:
        """``nickname`` leaves a running game: out at once, as in :meth:`forfeit`."""
        if self.status is _RUNNING and not self._cards[self.seat_of(nickname)]:
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
        seat = self.seat_of(nickname)
        cards = self._cards
        if not cards[seat]:
            raise errors.UnknownPlayer(f"{nickname!r} is already out of the game")
        return self._end_round(seat, forfeit=True)

    # ------------------------------------------------------------------ views and storage

    def parts(self) -> GameParts:
        """Everything this game is, as plain values (secrets included: for storage)."""
        return GameParts(
            self.status,
            self.admin,
            self.public,
            self.max_cards,
            self.round_number,
            list(self.nicknames),
            list(self.ai_agents),
            list(self._cards),
            list(self._hands),
            self._mask,
            self._seed,
            list(self._history),
            self.current_seat,
            list(self.ready),
            self.auto_start,
            self.rules,
            list(self.teams),
            self._common,
        )

    @classmethod
    def restore(cls, parts: GameParts, seed_source: SeedSource | None = None) -> Game:
        """The game ``parts`` describe (checked already: see engine.serialise.parse_game)."""
        game = cls(seed_source, parts.rules)
        game.status, game.admin, game.public = parts.status, parts.admin, parts.public
        game.max_cards, game.round_number = parts.max_cards, parts.round_number
        game.nicknames, game.ai_agents = list(parts.nicknames), list(parts.ai_agents)
        game.ready, game.auto_start = list(parts.ready), parts.auto_start
        game.teams = list(parts.teams)
        game._cards = list(parts.cards)
        if parts.status is _NOT_STARTED:
            return game
        game._seed, game._hands, game._mask = parts.seed, list(parts.hands), parts.mask
        game._common = parts.common
        game._history = list(parts.history)
        game._n_active = sum(1 for c in game._cards if c)
        game._teams_play = any(team is not None for team in game.teams)
        game._seat_players()
        if game._n_active:
            game._rebuild_next()
        if parts.status is _RUNNING:
            game.current_seat = parts.current
            game.min_bet = game._history[-1][1] + 1 if game._history else 0
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


MAX_TEAM: Final = 8


def _check_team(team: int | None) -> None:
    if team is not None and (type(team) is not int or not 1 <= team <= MAX_TEAM):
        raise errors.InvalidTeam(f"A team is a number between 1 and {MAX_TEAM}")
