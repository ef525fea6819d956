"""Ways to put a game into an exact situation, for tests that need one.

A crafted state goes through :meth:`Game.from_dict`, so it must be a state the rules allow;
the hands are always what the given seed deals for the given card counts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine.dealing import SeedSource, deal_hands, seed_sequence
from engine.facts import max_cards
from engine.game import Game
from tests.engine.reference import set_exists

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
SEED = bytes(range(32))


# The keys every engine view has (views add "seed", "winner" and "legal_actions" when due,
# and "you" in a player's own view).
VIEW_KEYS = {
    "admin_nickname",
    "public",
    "status",
    "round_number",
    "max_cards",
    "players",
    "hands",
    "cp_nickname",
    "common_hand",
    "rules",
    "history",
    "commitment",
    "ready",
    "auto_start",
    "chosen_max_cards",
}


def no_more_seeds() -> bytes:
    """A seed source for games that must not deal again."""
    raise AssertionError("the game asked for a new deal")


def lobby(n: int, seed: int = 0) -> Game:
    """A game in the lobby with the first ``n`` names joined, seeded for reproducibility."""
    game = Game(seed_source=seed_sequence(seed))
    for name in NAMES[:n]:
        game.join(name)
    return game


def started(n: int, seed: int = 0) -> Game:
    game = lobby(n, seed)
    game.start(by=NAMES[0])
    return game


def running_state(
    cards: Sequence[int],
    *,
    current: int = 0,
    history: Sequence[tuple[int, int]] = (),
    seed: bytes = SEED,
    round_number: int = 3,
) -> dict[str, Any]:
    """The stored dict of a running game whose seats hold ``cards`` (0 = eliminated)."""
    hands, _ = deal_hands(seed, cards)
    n = len(cards)
    return {
        "format": 1,
        "status": "Running",
        "admin": NAMES[0],
        "public": False,
        "max_cards": max_cards(n),
        "round_number": round_number,
        "players": [{"nickname": NAMES[i], "n_cards": c} for i, c in enumerate(cards)],
        "hands": [list(h) for h in hands],
        "seed": seed.hex(),
        "history": [[s, a] for s, a in history],
        "current": current,
        "ready": [],
        "auto_start": False,
        "chosen_max_cards": None,
    }


def running(
    cards: Sequence[int],
    *,
    current: int = 0,
    history: Sequence[tuple[int, int]] = (),
    seed: bytes = SEED,
    seed_source: SeedSource | None = None,
) -> Game:
    state = running_state(cards, current=current, history=history, seed=seed)
    return Game.from_dict(state, seed_source=seed_source or seed_sequence("next rounds"))


def pool(game: Game) -> list[tuple[int, int]]:
    """Every card of the current round as (value, colour), from the players' hands."""
    return [(int(c.value), int(c.colour)) for n in game.nicknames for c in game.hand(n)]


def bet_that_exists(game: Game) -> int:
    """The most senior bet that exists among the round's cards (by the reference rules)."""
    cards = pool(game)
    return max(a for a in range(88) if set_exists(a, cards))


def bet_that_does_not_exist(game: Game) -> int:
    """The least senior bet that does not exist among the round's cards."""
    cards = pool(game)
    return min(a for a in range(88) if not set_exists(a, cards))


def snapshot(game: Game) -> str:
    """Everything about ``game``, to compare before and after a refused action."""
    return json.dumps(game.to_dict(), sort_keys=True)
