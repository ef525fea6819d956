"""A clock tests move by hand: the service, the game clock and the stores' notion of "now"
for timing (never for expiry, which stays on real time)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from app.service import GameService


@dataclass
class FakeClock:
    """Starts at the real time (stores expire games on real time), then moves only when
    told to."""

    now: float = field(default_factory=lambda: float(int(time.time())))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def ai_game(service: GameService) -> tuple[str, str]:
    """alice and two random AI players, started, with an AI to move first (the seating is
    random: up to 50 games are made to find one). With a clock running the AI may already
    have moved when the state is read, so alice begins only if it is her turn in the first
    round with no move made."""
    for _ in range(50):
        game = service.create_game()["game_uuid"]
        alice = service.join(game, "alice")["player_uuid"]
        service.invite_ai(game, alice, "random")
        service.invite_ai(game, alice, "random")
        service.start(game, alice)
        body = service.state(game).body
        alice_began = (
            body["cp_nickname"] == "alice" and body["round_number"] == 1 and not body["history"]
        )
        if not alice_began:
            return game, alice
    raise AssertionError("no seating with an AI first in 50 games")
