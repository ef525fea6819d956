"""What a player may know when it is their turn: the input every built-in agent decides from.

An :class:`Observation` is a thin, read-only window on a game for one seat. It is cheap to
make (agents are asked thousands of times a second in tournaments) and shows only what the
rules let that player know: the rules, their own hand, their team-mates' hands, the common
cards (face up), everyone's card counts, the current round's moves, and the finished rounds
the agent was told about.
"""

from __future__ import annotations

from engine.blef.state import BlefState
from engine.facts import DECK, Card
from engine.game import Game, Move
from engine.rules import CardKind, Rules


class Observation:
    """The view of a started ``game`` (or its rounds' state) from ``seat``, valid until
    the next move is applied."""

    __slots__ = ("_game", "check", "seat")

    def __init__(self, game: Game | BlefState, seat: int) -> None:
        state = game.state if isinstance(game, Game) else game
        if state is None:
            raise ValueError("an observation is of a game that has started")
        self._game = state
        self.seat = seat
        self.check = game.rules.check
        """The action id of a check (88 in the classic game, 140 with 32 cards)."""

    @property
    def rules(self) -> Rules:
        """The rules of the game (deck, jokers, blanks, common cards, ...)."""
        return self._game.rules

    @property
    def nickname(self) -> str:
        return self._game.labels[0][self.seat]

    @property
    def n_players(self) -> int:
        return len(self._game.cards)

    @property
    def hand(self) -> tuple[Card, ...]:
        """My cards as classic cards (the 24-card deck without jokers or blanks only: use
        :attr:`hand_indices` for any deck)."""
        return tuple(DECK[i] for i in self._game.hand_indices(self.seat))

    @property
    def hand_indices(self) -> tuple[int, ...]:
        """My cards as deck indices (value * 4 + colour; then jokers, then blanks), sorted."""
        return self._game.hand_indices(self.seat)

    @property
    def common_indices(self) -> tuple[int, ...]:
        """The round's common cards, face up for everyone (deck indices)."""
        return self._game.common_indices

    @property
    def teams(self) -> tuple[int | None, ...]:
        """Each seat's team (None: on their own)."""
        return self._game.labels[2]

    @property
    def teammate_hands(self) -> dict[int, tuple[int, ...]]:
        """The hands of my team-mates still holding cards, by seat (empty without a team):
        team-mates see each other's hands."""
        game = self._game
        teams = game.labels[2]
        team = teams[self.seat]
        if team is None:
            return {}
        return {
            seat: game.hand_indices(seat)
            for seat, t in enumerate(teams)
            if t == team and seat != self.seat and game.cards[seat]
        }

    def sees_hand_of(self, seat: int) -> bool:
        """Whether I see the hand of ``seat``: mine, or a team-mate's."""
        teams = self._game.labels[2]
        team = teams[self.seat]
        return seat == self.seat or (team is not None and teams[seat] == team)

    @property
    def known_indices(self) -> tuple[int, ...]:
        """Every card I see this round: my hand, my team-mates' hands, the common cards."""
        cards = list(self.hand_indices)
        for hand in self.teammate_hands.values():
            cards.extend(hand)
        cards.extend(self.common_indices)
        return tuple(sorted(cards))

    @property
    def unknown_cards(self) -> int:
        """How many cards are held by the players whose hands I cannot see."""
        counts = self._game.card_counts
        return sum(c for seat, c in enumerate(counts) if not self.sees_hand_of(seat))

    def _jokers(self, cards: tuple[int, ...]) -> int:
        rules = self._game.rules
        if not rules.jokers:
            return 0
        return sum(1 for card in cards if rules.kind_of(card) is CardKind.JOKER)

    @property
    def common_jokers(self) -> int:
        """Jokers among the common cards: every bettor may count them."""
        return self._jokers(self.common_indices)

    def known_usable_jokers(self, bettor: int) -> int | None:
        """The jokers a bet by ``bettor`` may count (their own and the common ones) when I
        see their hand; None when I do not (their jokers are among the unknown cards)."""
        if not self.sees_hand_of(bettor):
            return None
        return self._jokers(self._game.hand_indices(bettor)) + self.common_jokers

    @property
    def n_cards(self) -> tuple[int, ...]:
        """Cards held by each seat this round (0 for an eliminated player)."""
        return self._game.card_counts

    @property
    def total_cards(self) -> int:
        """All cards in players' hands this round, mine included (not the common cards)."""
        return sum(self._game.card_counts)

    @property
    def max_cards(self) -> int:
        return self._game.max_cards

    @property
    def round_number(self) -> int:
        return self._game.round_number

    @property
    def history(self) -> tuple[Move, ...]:
        return self._game.history

    @property
    def seat_history(self) -> list[tuple[int, int]]:
        """The round's moves as (seat, action_id) pairs (a copy)."""
        return self._game.seats_history

    @property
    def min_bet(self) -> int:
        """The lowest legal bet; ``rules.check`` (88 in the classic game) when only a check
        is left."""
        return self._game.min_bet

    @property
    def last_bet(self) -> int | None:
        return self._game.last_bet

    @property
    def can_check(self) -> bool:
        return self._game.min_bet > 0

    @property
    def legal_actions(self) -> list[int]:
        return self._game.legal_actions()
