"""The stored-history checker (benchmarks/load.py's ``check_rounds``) judges a classic game
by its own oracle and a game of other rules by the engine's reading and the seed's
commitment only: a variant game played to the end passes it, and a classic round bent
still fails it."""

from __future__ import annotations

import random

from app.config.settings import Settings
from app.service import GameService
from benchmarks.load import check_rounds
from engine.dealing import seed_sequence
from tests.support.memory_store import MemoryStore


def _played(rules: dict[str, int], seed: int) -> list[dict[str, object]]:
    store = MemoryStore()
    service = GameService(
        store, Settings(ai_think_seconds=0, run_clock=False), seed_source=seed_sequence(seed)
    )
    made = service.create_game(nickname="ala")
    game, players = made["game_uuid"], {"ala": made["player_uuid"]}
    if rules:
        service.change_rules(game, players["ala"], rules)
    for name in ("ola", "ela"):
        players[name] = service.join(game, name)["player_uuid"]
    service.start(game, players["ala"])
    rng = random.Random(seed)
    for _ in range(2000):
        view = service.state(game, players["ala"]).body
        if view["status"] == "Finished":
            break
        mover = view["cp_nickname"]
        legal = service.state(game, players[mover]).body["legal_actions"]
        service.play(game, players[mover], str(rng.choice(legal)))
    return [snapshot.data for snapshot in store.load_rounds(game)]


def test_a_variant_game_played_to_the_end_passes_the_checker() -> None:
    rounds = _played({"deck_size": 32, "jokers": 8, "common_cards": -1}, 5)
    assert rounds and rounds[-1]["status"] == "Finished"
    assert check_rounds(rounds) == []


def test_a_classic_round_with_other_hands_still_fails_the_checker() -> None:
    rounds = _played({}, 6)
    assert check_rounds(rounds) == []
    first = rounds[0]
    hands = first["hands"]
    assert isinstance(hands, list)
    hands[0], hands[1] = (
        {**hands[0], "hand": hands[1]["hand"]},
        {**hands[1], "hand": hands[0]["hand"]},
    )
    problems = check_rounds(rounds)
    assert any(p.startswith("round 1:") and "not what the" in p for p in problems), problems
