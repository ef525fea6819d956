"""Every built-in agent plays every variant by the rules, and the adapted ones beat random.

Property tests deal random variants (24 or 32 cards, 0-3 jokers, 0-3 blanks, common cards
from "slowly growing" to 4, teams or not) and check that every agent always answers with a
legal action and that every game ends. The strength tests play seeded two-player games
against the random agent, seats alternated, in two variants: ``deck=32`` and
``deck=24, jokers=2, common=2``; every adapted agent wins at least 90% of 60 games (a coin
would need 5 standard errors of luck to get there; measured: 100%).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import make_agent
from engine.dealing import seed_sequence
from engine.errors import InvalidRules
from engine.game import Game
from engine.observation import Observation
from engine.play import play_game
from engine.rules import SLOWLY_GROWING, Rules
from tests.agents.helpers import AGENT_NAMES, NAMES, Recording

variants = st.builds(
    Rules,
    deck_size=st.sampled_from([24, 32]),
    jokers=st.integers(0, 3),
    blanks=st.integers(0, 3),
    common_cards=st.integers(SLOWLY_GROWING, 4),
    max_cards=st.sampled_from([0, 0, 2, 3, 5]),
)


def _teams(n_players: int, teamed: bool) -> dict[str, int]:
    if not teamed:
        return {}
    return {name: 1 + i % 2 for i, name in enumerate(NAMES[:n_players])}


def _playable(rules: Rules, n_players: int) -> bool:
    try:
        return rules.max_cards_for(n_players) >= 1
    except (InvalidRules, ValueError):
        return False


@settings(max_examples=40, deadline=None)
@given(
    rules=variants,
    n_players=st.integers(2, 6),
    teamed=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_every_agent_plays_whole_variant_games_legally(
    rules: Rules, n_players: int, teamed: bool, seed: int
) -> None:
    if not _playable(rules, n_players):
        return
    agents = {
        name: Recording(make_agent(AGENT_NAMES[(seed + i) % len(AGENT_NAMES)], seed + i))
        for i, name in enumerate(NAMES[:n_players])
    }
    result = play_game(agents, seed=seed, rules=rules, teams=_teams(n_players, teamed))
    assert result.rounds[-1].ended_game
    assert result.game.rules == rules
    for agent in agents.values():
        assert rules.check not in agent.first_moves


@settings(max_examples=40, deadline=None)
@given(
    rules=variants,
    n_players=st.integers(2, 6),
    teamed=st.booleans(),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 30),
)
def test_every_agent_answers_any_variant_situation_with_a_legal_action(
    rules: Rules, n_players: int, teamed: bool, seed: int, moves: int
) -> None:
    if not _playable(rules, n_players):
        return
    game = Game(seed_sequence(seed), rules)
    teams = _teams(n_players, teamed)
    for name in NAMES[:n_players]:
        game.join(name, team=teams.get(name))
    game.start()
    walker = make_agent("random", seed)
    for _ in range(moves):
        seat = game.current_seat
        assert seat is not None
        record = game.apply(walker.act(Observation(game, seat)))
        if record is not None and record.ended_game:
            return
    seat = game.current_seat
    assert seat is not None
    obs = Observation(game, seat)
    for name in AGENT_NAMES:
        assert make_agent(name, seed).act(obs) in obs.legal_actions, name


def test_the_observation_shows_the_common_cards_and_the_team_mates_hands() -> None:
    game = Game(seed_sequence(4), Rules(deck_size=32, jokers=2, common_cards=2))
    for name, team in zip(NAMES[:4], (1, 1, 2, 2), strict=True):
        game.join(name, team=team)
    game.start()
    seat = game.seat_of("ann")
    mate = game.seat_of("ben")
    obs = Observation(game, seat)
    assert obs.rules == game.rules
    assert obs.common_indices == game.common_indices
    assert len(obs.common_indices) == 2
    assert obs.teammate_hands == {mate: game.hand_indices(mate)}
    assert sorted(obs.known_indices) == sorted(
        [*game.hand_indices(seat), *game.hand_indices(mate), *game.common_indices]
    )
    assert obs.unknown_cards == 2
    assert obs.known_usable_jokers(seat) == game.usable_jokers(seat)
    assert obs.known_usable_jokers(mate) == game.usable_jokers(mate)
    assert obs.known_usable_jokers(game.seat_of("cat")) is None


STRENGTH_VARIANTS = {
    "deck=32": Rules(deck_size=32),
    "deck=24,jokers=2,common=2": Rules(jokers=2, common_cards=2),
}


@pytest.mark.parametrize("variant", sorted(STRENGTH_VARIANTS))
@pytest.mark.parametrize("name", ["probabilist", "bold", "bayesian"])
def test_each_adapted_agent_beats_random_in_variants(name: str, variant: str) -> None:
    rules = STRENGTH_VARIANTS[variant]
    games = 60
    wins = 0
    for game in range(games):
        me, other = make_agent(name, 2 * game), make_agent("random", 2 * game + 1)
        agents = {"me": me, "other": other} if game % 2 == 0 else {"other": other, "me": me}
        result = play_game(agents, seed=f"variants/{variant}/{game // 2}", rules=rules)
        wins += result.winner == "me"
    assert wins / games >= 0.9, f"{name} won {wins}/{games} in {variant}"
