"""What a game leaves behind: its history entries, its player rows, and each round as it
ended (a :class:`RoundRecord`, public once the round is over)."""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.dealing import commitment
from engine.facts import DECK, Card, Status
from engine.rules import CLASSIC, Rules
from engine.serialise import parse_round


class Move(NamedTuple):
    """One history entry: a bet (0..87), a check (88), or the lost-round event (89)."""

    player: str
    action_id: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "action_id": self.action_id}


class PlayerRow(NamedTuple):
    """A row of the player list: eliminated players keep theirs with 0 cards."""

    nickname: str
    n_cards: int
    ai_agent: str | None = None
    team: int | None = None

    def to_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"nickname": self.nickname, "n_cards": self.n_cards}
        if self.ai_agent is not None:
            row["ai_agent"] = self.ai_agent
        if self.team is not None:
            row["team"] = self.team
        return row


def hand_dicts(
    nicknames: tuple[str, ...] | list[str], hands: list[tuple[int, ...]], rules: Rules
) -> list[Any]:
    """The API's ``hands`` list: one entry per player holding cards."""
    card = rules.card_dict
    return [
        {"nickname": nick, "hand": [card(i) for i in hand]}
        for nick, hand in zip(nicknames, hands, strict=True)
        if hand
    ]


class RoundRecord(NamedTuple):
    """A round as it ended: who held what, what was said, who lost, and the seed.

    Everything in it is public once the round is over, so a record can be shown to any
    viewer and stored as it is. It is built cheaply when the round ends (a named tuple that
    keeps the round's own lists, which the game replaces for the next round) and converted
    on demand. Treat it as immutable.
    """

    number: int
    nicknames: tuple[str, ...]
    n_cards: tuple[int, ...]
    ai_agents: tuple[str | None, ...]
    hand_indices: list[tuple[int, ...]]
    seats_history: list[tuple[int, int]]
    seed: bytes
    loser_seat: int
    max_cards: int
    ended_game: bool
    common: tuple[int, ...] = ()
    rules: Rules = CLASSIC
    teams: tuple[int | None, ...] = ()

    @property
    def loser(self) -> str:
        return self.nicknames[self.loser_seat]

    @property
    def players(self) -> tuple[PlayerRow, ...]:
        teams = self.teams or (None,) * len(self.nicknames)
        return tuple(
            PlayerRow(n, c, a, t)
            for n, c, a, t in zip(self.nicknames, self.n_cards, self.ai_agents, teams, strict=True)
        )

    @property
    def hands(self) -> dict[str, tuple[Card, ...]]:
        """Each hand as classic cards (see :meth:`to_dict` for any deck)."""
        return {
            nick: tuple(DECK[i] for i in hand)
            for nick, hand in zip(self.nicknames, self.hand_indices, strict=True)
            if hand
        }

    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(Move(self.nicknames[s], a) for s, a in self.seats_history)

    @property
    def forfeited(self) -> bool:
        """Whether the round ended because its loser forfeited (see :meth:`Game.forfeit`)."""
        return len(self.seats_history) < 2 or self.seats_history[-2][1] != self.rules.check

    @property
    def checked_bet(self) -> int | None:
        """The bet that was checked (the entry before the check); None after a forfeit."""
        return None if self.forfeited else self.seats_history[-3][1]

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def to_dict(self) -> dict[str, Any]:
        """The round as the API shows a finished round: every hand, the seed, no secret."""
        return {
            "status": Status.FINISHED.value if self.ended_game else Status.RUNNING.value,
            "round_number": self.number,
            "max_cards": self.max_cards,
            "players": [p.to_dict() for p in self.players],
            "hands": hand_dicts(self.nicknames, self.hand_indices, self.rules),
            "common_hand": [self.rules.card_dict(i) for i in self.common],
            "rules": self.rules.to_dict(),
            "cp_nickname": None,
            "history": [m.to_dict() for m in self.history],
            "commitment": self.commitment,
            "seed": self.seed.hex(),
            "loser": self.loser,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundRecord:
        """Rebuild a record from :meth:`to_dict`, checking it against its own seed."""
        return cls(*parse_round(data))
