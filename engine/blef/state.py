"""A running game of Blef: the rounds, from the first deal to the last player standing.

:class:`BlefState` is everything of a game of Blef that is not the table around it (the
seats' names, the admin, readiness: :class:`~engine.table.Table`): how many cards each seat
holds, the round's deal and its seed, the moves of the round, whose turn it is, the maximum
of cards. It knows seats by number; the names it keeps (``labels``) are only written into
each finished round's record, which shows them. It is the game protocol's state for Blef
(:mod:`engine.blef`): :meth:`turn`, :meth:`legal_moves`, :meth:`apply`, :meth:`view`,
:meth:`result`; :meth:`play` is the same move on the fast path the agents and the service use.

>>> from engine.dealing import seed_sequence
>>> state, order = BlefState.start(CLASSIC, ("ann", "bob"), (None, None), (None, None),
...                                seed_sequence(7))
>>> state.round_number, state.max_cards, state.current_seat
(1, 11, 0)
>>> state.play(0) is None                      # a bet on "high card 9"
True
>>> record = state.play(state.rules.check)  # a check ends the round: its record
>>> record.number, record.loser, state.round_number
(1, 'ann', 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine import errors
from engine.dealing import (
    SeedSource,
    commitment,
    deal_round,
    initial_cards_draw,
    seating_order,
    team_seating,
)
from engine.facts import Status, next_in_play, sides_left
from engine.protocol import Event, Result, Turn, TurnMode, Viewer
from engine.records import Move, RoundRecord
from engine.rules import CLASSIC, CardKind, Rules
from engine.serialise import GameParts, dump_game

__all__ = ["CLASSIC", "BlefState"]

_NO_HANDS: Final[list[tuple[int, ...]]] = []
_new_record: Final = tuple.__new__
Labels = tuple[tuple[str, ...], tuple[str | None, ...], tuple[int | None, ...]]
"""The seats' nicknames, AI agents and teams, as each round's record shows them."""


class BlefState:
    """The rounds of one game of Blef (see the module docstring). Methods raise the
    exceptions of :mod:`engine.errors` and change nothing when they do."""

    __slots__ = (
        "_check",
        "_common",
        "_hands",
        "_history",
        "_mask",
        "_n_active",
        "_next",
        "_seed",
        "_seed_source",
        "_table",
        "_teams_play",
        "cards",
        "current_seat",
        "finished",
        "labels",
        "max_cards",
        "min_bet",
        "round_number",
        "rules",
    )

    def __init__(
        self, rules: Rules, labels: Labels, max_cards: int, seed_source: SeedSource
    ) -> None:
        self.rules = rules
        self._table = rules.table
        self._check = rules.check
        self._seed_source = seed_source
        self.labels = labels
        teams = labels[2]
        self._teams_play = any(team is not None for team in teams)
        self.max_cards = max_cards
        self.round_number = 0
        self.cards: list[int] = [0] * len(teams)
        """Cards each seat holds (0 for a seat that is out)."""
        self._hands: list[tuple[int, ...]] = _NO_HANDS
        self._common: tuple[int, ...] = ()
        self._mask = 0
        self._seed: bytes | None = None
        self._history: list[tuple[int, int]] = []
        self.current_seat: int | None = None
        """Whose turn it is, as a seat; None once the game is finished. (A plain field,
        read at every move: this class alone sets it.)"""
        self.min_bet = 0
        """The lowest bet the current player may make (``rules.check`` means only a check
        is left). A plain field, as :attr:`current_seat`."""
        self.finished = False
        self._n_active = 0
        self._next: list[int] = []

    # ------------------------------------------------------------------ the start

    @classmethod
    def start(
        cls,
        rules: Rules,
        nicknames: Sequence[str],
        ai_agents: Sequence[str | None],
        teams: Sequence[int | None],
        seed_source: SeedSource,
    ) -> tuple[BlefState, list[int]]:
        """Seat the players (in join order here) and deal round 1: returns the self and
        the seating (``order[i]``: the join position of the player in seat ``i``).
        Refuses, changing nothing, too few players, one side, or rules that leave no card."""
        n = len(nicknames)
        if n < 2:
            raise errors.TooFewPlayers
        teams_play = list(teams).count(None) < n  # someone is in a team
        if teams_play and sides_left(teams, [1] * n) < 2:
            raise errors.OneTeam
        top = rules.max_cards_for(n)
        if top < 1:
            raise errors.InvalidRules(f"These rules leave no card to deal to {n} players")
        starting = rules.starting_cards(list(nicknames), top, 0)  # refuses before any change
        seed = seed_source()
        order = team_seating(seed, list(teams)) if teams_play else seating_order(seed, n)
        names = [nicknames[i] for i in order]
        if rules.initial_cards is not None:  # (one card each otherwise, whatever the order)
            starting = rules.starting_cards(names, top, initial_cards_draw(seed))
        labels = (tuple(names), tuple(ai_agents[i] for i in order), tuple(teams[i] for i in order))
        self = cls(rules, labels, top, seed_source)
        self.cards = starting
        self._n_active = n
        self._next = [*range(1, n), 0]  # the seat after each seat
        self._begin_round(0, seed)
        return self, order

    def _begin_round(self, first_seat: int, seed: bytes) -> None:
        self.round_number += 1
        self._seed = seed
        rules = self.rules
        if rules.is_classic:
            self._hands, _, self._mask = deal_round(seed, self.cards)
        else:
            common = rules.common_count(self.cards)
            self._hands, self._common, self._mask = deal_round(
                seed, self.cards, common, rules.total_cards, rules.deck_size
            )
        self._history = []
        self.min_bet = 0
        self.current_seat = first_seat

    @classmethod
    def restore(cls, parts: GameParts, seed_source: SeedSource) -> BlefState:
        """The running (or finished) game ``parts`` describe, checked already (see
        :func:`engine.serialise.parse_game`)."""
        labels = (tuple(parts.nicknames), tuple(parts.ai_agents), tuple(parts.teams))
        self = cls(parts.rules, labels, parts.max_cards, seed_source)
        self.round_number = parts.round_number
        self.cards = list(parts.cards)
        self._seed, self._hands, self._mask = parts.seed, list(parts.hands), parts.mask
        self._common = parts.common
        self._history = list(parts.history)
        cards = self.cards
        self._n_active = sum(1 for c in cards if c)
        if self._n_active:
            self._next = [next_in_play(cards, seat) for seat in range(len(cards))]
        if parts.status is Status.RUNNING:
            self.current_seat = parts.current
            self.min_bet = self._history[-1][1] + 1 if self._history else 0
        else:
            self.finished = True
        return self

    def relabel(self, seat: int, nickname: str) -> None:
        """Show ``seat`` as ``nickname`` in the records of the rounds to come."""
        names = list(self.labels[0])
        names[seat] = nickname
        self.labels = (tuple(names), self.labels[1], self.labels[2])

    # ------------------------------------------------------------------ reading

    @property
    def n_seats(self) -> int:
        return len(self.cards)

    @property
    def hands(self) -> list[tuple[int, ...]]:
        """The round's hands by seat, as sorted deck indices (for storage and views)."""
        return self._hands

    @property
    def mask(self) -> int:
        return self._mask

    @property
    def seed(self) -> bytes | None:
        """The current round's seed (secret until the round is over)."""
        return self._seed

    @property
    def common_indices(self) -> tuple[int, ...]:
        """The current round's common cards, face up for everyone (deck indices)."""
        return self._common

    def hand_indices(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds in the current round, as sorted deck indices."""
        hands = self._hands
        return hands[seat] if seat < len(hands) else ()

    @property
    def card_counts(self) -> tuple[int, ...]:
        return tuple(self.cards)

    @property
    def seats_history(self) -> list[tuple[int, int]]:
        """The current round's moves as (seat, action id) pairs (a copy)."""
        return list(self._history)

    @property
    def history(self) -> tuple[Move, ...]:
        """The current round's moves by nickname."""
        names = self.labels[0]
        return tuple(Move(names[s], a) for s, a in self._history)

    @property
    def last_bet(self) -> int | None:
        return self.min_bet - 1 if self.min_bet else None

    @property
    def commitment(self) -> str | None:
        return commitment(self._seed) if self._seed is not None else None

    @property
    def revealed_seed(self) -> bytes | None:
        """The current round's seed, once the game is over and it may be shown."""
        return self._seed if self.finished else None

    def legal_actions(self) -> list[int]:
        """Every bet above the last one, and a check once there is a bet; empty when the
        game is over."""
        if self.finished:
            return []
        actions = list(range(self.min_bet, self._check))
        if self.min_bet:
            actions.append(self._check)
        return actions

    def is_legal(self, action_id: int) -> bool:
        if self.finished or type(action_id) is not int:
            return False
        if action_id == self._check:
            return self.min_bet > 0
        return self.min_bet <= action_id < self._check

    def usable_jokers(self, bettor: int) -> int:
        """The jokers a bet by ``bettor`` may count: those in their own hand and among the
        common cards (an opponent's jokers never help the bettor)."""
        rules = self.rules
        return sum(
            1
            for card in (*self._hands[bettor], *self._common)
            if rules.kind_of(card) is CardKind.JOKER
        )

    # ------------------------------------------------------------------ playing

    def play(self, action_id: int, seat: int | None = None) -> RoundRecord | None:
        """Play ``action_id`` for the current player (``seat``, if given, must be them).
        A bet returns None; a check resolves the round and returns its record (the next
        round, if any, is already dealt)."""
        current = self.current_seat
        if current is None:
            raise errors.GameFinished
        if seat is not None and seat != current:
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

    def time_out(self) -> RoundRecord:
        """The player to move let their time run out: they lose the round, as if they had
        lost a check (the history closes with their 89 event, with no check before it)."""
        current = self.current_seat
        if current is None:
            raise errors.GameFinished
        return self._end_round(current)

    def forfeit(self, seat: int) -> RoundRecord:
        """Eliminate ``seat`` at once (a resignation, a bot that crashed or cheated): the
        round ends there, lost by them; the next, if any, is begun by the player whose turn
        it was (or the next one)."""
        if self.current_seat is None:
            raise errors.GameFinished
        if not self.cards[seat]:
            raise errors.UnknownPlayer(f"{self.labels[0][seat]!r} is already out of the game")
        return self._end_round(seat, forfeit=True)

    def _end_round(self, loser: int, forfeit: bool = False) -> RoundRecord:
        cards = self.cards
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
        if not cards[loser]:
            self._n_active -= 1
            self._skip_seat(loser)
            ended = self._n_active == 1 or (
                self._teams_play and sides_left(self.labels[2], cards) == 1
            )
        # tuple.__new__ skips the named tuple's own __new__ (a Python function): the same
        # record, made once per round.
        nicknames, ai_agents, teams = self.labels
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
            self.finished = True  # the final round stays as it ended: every hand shown
        else:
            if not cards[first]:
                first = self._next[first]
            self._begin_round(first, self._seed_source())
        return record

    def _skip_seat(self, out: int) -> None:
        """``out`` has just left play: every seat whose next was ``out`` now passes to the
        seat after ``out``."""
        following = self._next
        after = following[out]
        for seat, then in enumerate(following):
            if then == out:
                following[seat] = after

    # ------------------------------------------------------------------ the game protocol

    def turn(self) -> Turn:
        current = self.current_seat
        return Turn.nobody() if current is None else Turn(frozenset((current,)), TurnMode.ONE)

    def legal_moves(self, seat: int) -> list[int]:
        return self.legal_actions() if seat == self.current_seat else []

    def advance(self, now: float) -> list[Event]:
        """Time changes nothing by Blef's rules (a move time limit is the table's)."""
        return []

    def apply(self, seat: int, move: int, now: float = 0.0) -> list[Event]:
        """:meth:`play` as the protocol says it: the events the move caused."""
        action_id = move
        record = self.play(action_id, seat)
        kind = "check" if action_id == self._check else "bet"
        events = [Event(kind, seat, {"action_id": action_id})]
        if record is not None:
            loser = record.seats_history[-1][0]
            events.append(Event("round_ended", loser, {"round": record.number}))
            if record.ended_game:
                events.append(Event("game_over"))
        return events

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat, or None) may see, by seat: counts, the moves of the
        round, the common cards, their own hand and their team-mates'; every hand and the
        seed once the game is over."""
        teams = self.labels[2]
        rules = self.rules
        seats = range(self.n_seats)
        if self.finished:
            shown = list(seats)
        elif viewer is None:
            shown = []
        else:
            mine = teams[viewer]
            shown = [s for s in seats if s == viewer or (mine is not None and teams[s] == mine)]
        view: dict[str, Any] = {
            "round_number": self.round_number,
            "max_cards": self.max_cards,
            "cards": list(self.cards),
            "hands": {
                str(s): [rules.card_dict(i) for i in hand]
                for s in shown
                if (hand := self.hand_indices(s))
            },
            "common_hand": [rules.card_dict(i) for i in self._common],
            "current": self.current_seat,
            "history": [[s, a] for s, a in self._history],
            "commitment": self.commitment,
        }
        if viewer is not None and viewer == self.current_seat:
            view["legal_actions"] = self.legal_actions()
        if self.finished and self._seed is not None:
            view["seed"] = self._seed.hex()
        return view

    def to_dict(self) -> dict[str, Any]:
        """The stored form of a game made of these rounds and a table of their seats (the
        first seat its admin): the storage format of :meth:`engine.game.Game.to_dict`."""
        names, agents, teams = self.labels
        finished = self.finished
        parts = GameParts(
            Status.FINISHED if finished else Status.RUNNING,
            names[0],
            False,
            self.max_cards,
            self.round_number,
            list(names),
            list(agents),
            list(self.cards),
            list(self._hands),
            self._mask,
            self._seed,
            list(self._history),
            self.current_seat,
            [],
            False,
            self.rules,
            list(teams),
            self._common,
        )
        return dump_game(parts)

    def result(self) -> Result | None:
        """Once over: the seats still holding cards share first place; everyone else is
        out and shares the place after them (the order they went out in is in the rounds'
        records, which the table keeps)."""
        if not self.finished:
            return None
        winners = sum(1 for c in self.cards if c)
        return Result(tuple(1 if c else winners + 1 for c in self.cards), "last_standing")
