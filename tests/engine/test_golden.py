"""A golden playthrough: one seeded three-player game, its whole transcript compared exactly.

The transcript (seating, and for every round the hands, the moves, the loser and the seed)
is stored in ``tests/engine/golden/three_players_seed_2024.json``. Any change to the deal,
the seating, the set table or the round rules changes it, and this test says so.

The players are a scripted agent defined here (its moves come from SHA-256 of its name and
turn), so the transcript depends on the engine's rules alone, not on any built-in agent.

If a change of the transcript is deliberate (and only then), regenerate it and review the
diff::

    .venv/bin/python -m tests.engine.test_golden
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from engine.agents.base import Agent
from engine.facts import CHECK
from engine.observation import Observation
from engine.play import GameResult, play_game

GOLDEN = Path(__file__).parent / "golden" / "three_players_seed_2024.json"
PLAYERS = ("alice", "bob", "carol")
SEED = 2024


class ScriptedAgent(Agent):
    """Deterministic forever: checks one time in four, otherwise raises by 0..5."""

    name = "scripted"

    def __init__(self, key: str) -> None:
        self.key = key
        self.turn = 0

    def act(self, obs: Observation) -> int:
        self.turn += 1
        digest = hashlib.sha256(f"{self.key}/{self.turn}".encode()).digest()
        r = int.from_bytes(digest[:8], "big")
        low = obs.min_bet
        if low == CHECK or (low and r % 4 == 0):
            return CHECK
        return min(87, low + (r >> 2) % 6)


def card_text(card: Any) -> str:
    return f"{card.value.symbol}{card.colour.symbol}"


def transcript(result: GameResult) -> dict[str, Any]:
    return {
        "joined": list(PLAYERS),
        "seed": SEED,
        "seating": list(result.seating),
        "max_cards": result.game.max_cards,
        "winner": result.winner,
        "rounds": [
            {
                "number": record.number,
                "n_cards": dict(zip(record.nicknames, record.n_cards, strict=True)),
                "hands": {
                    nick: [card_text(card) for card in hand] for nick, hand in record.hands.items()
                },
                "history": [[move.player, move.action_id] for move in record.history],
                "loser": record.loser,
                "seed": record.seed.hex(),
                "commitment": record.commitment,
            }
            for record in result.rounds
        ],
    }


def play_golden_game() -> dict[str, Any]:
    result = play_game({name: ScriptedAgent(name) for name in PLAYERS}, seed=SEED)
    return transcript(result)


def render(data: dict[str, Any]) -> str:
    """The transcript as JSON with one round per line, so that a diff points at the round."""
    lines = [
        f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},"
        for key, value in data.items()
        if key != "rounds"
    ]
    rounds = [f"    {json.dumps(r, ensure_ascii=False)}" for r in data["rounds"]]
    body = ",\n".join(rounds)
    return "{\n" + "\n".join(lines) + '\n  "rounds": [\n' + body + "\n  ]\n}\n"


def test_the_golden_game_plays_exactly_as_recorded() -> None:
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    actual = play_golden_game()
    assert actual["seating"] == expected["seating"]
    for mine, theirs in zip(actual["rounds"], expected["rounds"], strict=False):
        assert mine == theirs, f"round {theirs['number']} differs"
    assert actual == expected


def test_the_golden_game_is_a_real_game() -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    rounds = data["rounds"]
    assert len(rounds) >= 10
    assert sorted(data["seating"]) == sorted(PLAYERS)
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert all(r["history"][-1] == [r["loser"], 89] for r in rounds)
    last_counts = rounds[-1]["n_cards"]
    assert last_counts[rounds[-1]["loser"]] == data["max_cards"] == 8
    assert data["winner"] != rounds[-1]["loser"]
    assert render(data) == GOLDEN.read_text(encoding="utf-8")  # stored as rendered


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(render(play_golden_game()), encoding="utf-8")
    print(f"wrote {GOLDEN}")
