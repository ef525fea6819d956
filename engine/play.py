"""Play whole games between agents: for tests, benchmarks and tournaments.

>>> from engine.agents import RandomAgent
>>> result = play_game({"ann": RandomAgent(1), "ben": RandomAgent(2)}, seed=3)
>>> result.winner in ("ann", "ben"), result.rounds[-1].ended_game
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.agents.base import Agent
from engine.dealing import SeedSource, seed_sequence
from engine.game import Game, RoundRecord
from engine.observation import Observation
from engine.rules import CLASSIC, Rules


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: str
    rounds: tuple[RoundRecord, ...]
    seating: tuple[str, ...]
    game: Game


def play_game(
    agents: Mapping[str, Agent],
    *,
    seed: int | bytes | str | None = None,
    seed_source: SeedSource | None = None,
    notify: bool = True,
    rules: Rules = CLASSIC,
    teams: Mapping[str, int] | None = None,
) -> GameResult:
    """Play one game between ``agents`` (nickname -> agent) to the finish.

    ``seed`` makes the game reproducible (seating and every deal); without it seeds come
    from the cryptographic source. ``notify`` tells every agent each finished round.
    ``rules`` are the game's rules (the classic game by default); ``teams`` puts players
    in teams (nickname -> team 1..8; anyone not named plays on their own). With teams,
    :attr:`GameResult.winner` is the first seated player of the winning team.
    """
    if seed_source is None and seed is not None:
        seed_source = seed_sequence(seed)
    game = Game(seed_source=seed_source, rules=rules)
    chosen = teams or {}
    for nickname in agents:
        game.join(nickname, team=chosen.get(nickname))
    game.start()
    by_seat = [agents[nick] for nick in game.nicknames]
    seating = tuple(game.nicknames)
    rounds: list[RoundRecord] = []
    state = game.state
    assert state is not None
    # One observation per seat, reused: each is a live window on the game's rounds.
    observations = [Observation(state, seat) for seat in range(len(by_seat))]
    acts = [agent.act for agent in by_seat]
    # Told of each round: every agent, in seating order, but those that keep Agent's own
    # round_ended (which does nothing), so that a round costs them no call.
    told = [
        agent.round_ended
        for agent in by_seat
        if notify and getattr(agent.round_ended, "__func__", None) is not Agent.round_ended
    ]
    play = state.play
    while True:
        seat = state.current_seat
        assert seat is not None
        record = play(acts[seat](observations[seat]))
        if record is not None:
            rounds.append(record)
            for round_ended in told:
                round_ended(record)
            if record.ended_game:
                game.table.finish()
                break
    winner = game.winner
    assert winner is not None
    return GameResult(winner, tuple(rounds), seating, game)
