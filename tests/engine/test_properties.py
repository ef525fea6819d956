"""Properties of whole games: random games with 2..8 players, driven by random legal actions.

Hypothesis draws the number of players, the seed of the deals and a random generator that
picks the moves (with a drawn appetite for checking, so that some rounds are long climbs and
some end at once). Every property is checked at every step of every game.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from engine.agents import RandomAgent
from engine.dealing import commitment, replay_seeds, seed_sequence
from engine.facts import CHECK, LOST_ROUND, max_cards, next_in_play
from engine.game import Game, RoundRecord, Status
from engine.play import play_game
from engine.views import view_for
from tests.engine.builders import NAMES, VIEW_KEYS
from tests.engine.reference import set_exists

MAX_STEPS = 5_000  # far above any real game: a safety net, not a limit the rules set

STEPS = (0, 0, 0, 1, 1, 2, 3, 5, 8, 13, 30)  # how far a bet climbs: mostly small steps

Hook = Callable[[Game], None]


@dataclass
class Played:
    """A finished random game and what it took to play it."""

    n: int
    game: Game
    actions: list[int] = field(default_factory=list)
    records: list[RoundRecord] = field(default_factory=list)


def choose(game: Game, rng: random.Random, p_check: float) -> int:
    low = game.min_bet
    if low == CHECK or (low and rng.random() < p_check):
        return CHECK
    return min(87, low + rng.choice(STEPS))


def play(n: int, seed: int, rng: random.Random, p_check: float, hook: Hook | None = None) -> Played:
    game = Game(seed_source=seed_sequence(seed))
    for name in NAMES[:n]:
        game.join(name)
    game.start(by=NAMES[0])
    played = Played(n, game)
    if hook:
        hook(game)
    while game.status is Status.RUNNING:
        assert len(played.actions) < MAX_STEPS
        action = choose(game, rng, p_check)
        played.actions.append(action)
        record = game.apply(action)
        if record is not None:
            played.records.append(record)
        if hook:
            hook(game)
    return played


random_games = st.builds(
    lambda n, seed, rng, p_check: (n, seed, rng, p_check),
    st.integers(2, 8),
    st.integers(0, 2**32),
    st.randoms(use_true_random=False),
    st.sampled_from([0.05, 0.3, 0.7]),
)
Setup = tuple[int, int, random.Random, float]


@given(random_games)
def test_every_game_ends_with_exactly_one_winner(setup: Setup) -> None:
    played = play(*setup)
    game = played.game
    assert game.status is Status.FINISHED
    holding = [row.nickname for row in game.players if row.n_cards]
    assert holding == [game.winner]
    assert played.records[-1].ended_game
    assert not any(r.ended_game for r in played.records[:-1])
    # each of the others lost exactly max_cards rounds (1 card, then one more per loss)
    losses = Counter(r.loser for r in played.records)
    top = max_cards(played.n)
    assert all(losses[name] == top for name in game.nicknames if name != game.winner)
    assert losses[game.winner] < top


@given(random_games)
def test_bets_strictly_rise_within_every_round(setup: Setup) -> None:
    def rising(game: Game) -> None:
        bets = [m.action_id for m in game.history if m.action_id < CHECK]
        assert bets == sorted(set(bets))

    played = play(*setup, hook=rising)
    for record in played.records:
        actions = [a for _, a in record.seats_history]
        assert actions[-2:] == [CHECK, LOST_ROUND]
        bets = actions[:-2]
        assert bets
        assert all(a < b for a, b in itertools.pairwise(bets))
        assert all(a < CHECK for a in bets)


@given(random_games)
def test_the_current_player_always_has_a_legal_action_until_the_end(setup: Setup) -> None:
    def can_move(game: Game) -> None:
        if game.status is Status.FINISHED:
            assert game.current_player is None
            assert game.legal_actions() == []
            return
        current = game.current_player
        assert current is not None
        assert game.n_cards(current) > 0
        legal = game.legal_actions()
        assert legal
        assert all(game.is_legal(a) for a in legal)
        assert (CHECK in legal) == bool(game.history)

    play(*setup, hook=can_move)


@given(random_games)
def test_nobody_holds_more_than_the_maximum_and_at_most_24_cards_are_dealt(setup: Setup) -> None:
    def within_limits(game: Game) -> None:
        top = max_cards(game.n_players)
        assert game.max_cards == top
        counts = [row.n_cards for row in game.players]
        assert all(0 <= c <= top for c in counts)
        hands = [game.hand(name) for name in game.nicknames]
        assert sum(len(h) for h in hands) <= 24
        dealt = [card for hand in hands for card in hand]
        assert len(dealt) == len(set(dealt))
        if game.status is Status.RUNNING:
            assert [len(h) for h in hands] == counts

    play(*setup, hook=within_limits)


@given(random_games)
def test_every_round_is_decided_by_the_rules_and_the_next_one_follows_from_it(
    setup: Setup,
) -> None:
    played = play(*setup)
    records = played.records
    assert records[0].n_cards == (1,) * played.n
    for record, following in zip(records, [*records[1:], None], strict=True):
        (bettor, bet), (checker, _), (loser, _) = record.seats_history[-3:]
        pool = [(int(c.value), int(c.colour)) for hand in record.hands.values() for c in hand]
        assert loser == (checker if set_exists(bet, pool) else bettor)
        counts = list(record.n_cards)
        counts[loser] = counts[loser] + 1 if counts[loser] < record.max_cards else 0
        if following is None:
            assert [row.n_cards for row in played.game.players] == counts
            continue
        assert list(following.n_cards) == counts
        assert following.number == record.number + 1
        first = following.seats_history[0][0]
        if counts[loser]:
            assert first == loser
        else:
            seat = (loser + 1) % played.n
            while not counts[seat]:
                seat = (seat + 1) % played.n
            assert first == seat


def assert_no_leak(game: Game) -> None:
    """No view shows a hand it should not, nor the seed of a round still being played."""
    running = game.status is Status.RUNNING
    assert game.state is not None
    seed = game.state.seed  # the secret under test
    assert seed is not None
    for viewer in (None, *game.nicknames):
        view = view_for(game, viewer)
        text = json.dumps(view)
        assert view.get("you") == viewer  # a player is told who they are, nobody else is
        extra = set(view) - VIEW_KEYS - {"you"}
        shown = {entry["nickname"]: entry["hand"] for entry in view["hands"]}
        if running:
            assert seed.hex() not in text
            assert extra <= {"legal_actions"}
            assert ("legal_actions" in view) == (viewer == game.current_player)
            allowed = {viewer} if viewer is not None and game.hand(viewer) else set()
            assert set(shown) == allowed
        else:
            assert extra == {"seed", "winner", "winners"}
            assert view["seed"] == seed.hex()
            allowed = {n for n in game.nicknames if game.hand(n)}
            assert set(shown) == allowed
        for name, hand in shown.items():
            assert hand == [card.to_dict() for card in game.hand(name)]
        assert view["commitment"] == commitment(seed)


@given(random_games)
def test_no_view_ever_leaks_a_hidden_card(setup: Setup) -> None:
    play(*setup, hook=assert_no_leak)


@given(random_games)
def test_serialisation_round_trips_at_every_step(setup: Setup) -> None:
    def round_trips(game: Game) -> None:
        stored = json.loads(json.dumps(game.to_dict()))
        again = Game.from_dict(stored)
        assert again.to_dict() == stored
        assert again.legal_actions() == game.legal_actions()
        assert again.current_player == game.current_player

    play(*setup, hook=round_trips)


@given(random_games)
def test_a_game_replays_from_its_recorded_seeds_and_actions(setup: Setup) -> None:
    played = play(*setup)
    replay = Game(seed_source=replay_seeds([r.seed for r in played.records]))
    for name in NAMES[: played.n]:
        replay.join(name)
    replay.start()
    records = [replay.apply(action) for action in played.actions]
    assert [r for r in records if r is not None] == played.records
    assert replay.winner == played.game.winner
    assert replay.to_dict() == played.game.to_dict()


@given(st.integers(2, 8), st.integers(0, 2**32))
def test_a_game_of_random_agents_replays_from_its_seeds_and_actions(n: int, seed: int) -> None:
    names = NAMES[:n]
    result = play_game({name: RandomAgent(seed + i) for i, name in enumerate(names)}, seed=seed)
    assert result.winner == result.game.winner
    assert result.seating == tuple(result.game.nicknames)
    actions = [a for r in result.rounds for _, a in r.seats_history if a != LOST_ROUND]
    replay = Game(seed_source=replay_seeds([r.seed for r in result.rounds]))
    for name in names:
        replay.join(name)
    replay.start()
    records = [r for r in map(replay.apply, actions) if r is not None]
    assert records == list(result.rounds)
    assert replay.winner == result.winner
    again = play_game({name: RandomAgent(seed + i) for i, name in enumerate(names)}, seed=seed)
    assert again.rounds == result.rounds


def test_games_of_every_size_keep_every_property_at_every_step() -> None:
    """A fixed sweep, so that every table size is covered whatever hypothesis draws."""

    def every_check(game: Game) -> None:
        assert_no_leak(game)
        counts = [row.n_cards for row in game.players]
        assert all(c <= game.max_cards for c in counts)
        assert sum(len(game.hand(n)) for n in game.nicknames) <= 24
        assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).to_dict() == game.to_dict()

    for n in range(2, 9):
        for seed in range(6):
            played = play(n, seed, random.Random(seed), (0.05, 0.3, 0.7)[seed % 3], every_check)
            assert played.game.winner is not None


@given(st.integers(2, 8), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_whose_turn_follows_the_players_still_in_through_checks_timeouts_and_forfeits(
    n: int, seed: int, rng: random.Random
) -> None:
    # The game keeps its next-seat table by re-pointing the seats whose next player has just
    # left play; at every step it must be the table searched afresh from the card counts (as
    # a restored game builds it), so that play and each new round pass to a player still in.
    game = Game(seed_source=seed_sequence(seed))
    for name in NAMES[:n]:
        game.join(name)
    game.start()
    steps = 0
    while game.status is Status.RUNNING:
        steps += 1
        assert steps < MAX_STEPS
        roll = rng.random()
        if roll < 0.05:
            still_in = [nick for nick, c in zip(game.nicknames, game.card_counts, strict=True) if c]
            game.forfeit(rng.choice(still_in))
        elif roll < 0.15:
            game.time_out()
        else:
            game.apply(choose(game, rng, 0.3))
        cards = game.card_counts
        assert game.state is not None
        assert game.state._next == [next_in_play(cards, seat) for seat in range(n)]
        if game.status is Status.RUNNING:
            seat = game.current_seat
            assert seat is not None and cards[seat]
            restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
            assert restored.state is not None
            assert restored.state._next == game.state._next
            assert restored.current_player == game.current_player


@given(
    st.integers(0, 2**32),
    st.sampled_from([24, 32]),
    st.lists(st.integers(0, 140), min_size=1, max_size=60),
)
def test_the_random_agent_draws_exactly_its_documented_uniform_choice(
    agent_seed: int, deck_size: int, lows: list[int]
) -> None:
    # act() is floor(random() * k) above the lowest bet: the same numbers as int(), for
    # every draw, so that games between random agents replay as they always did.
    from engine.observation import Observation
    from engine.rules import Rules

    game = Game(seed_source=seed_sequence(1), rules=Rules(deck_size=deck_size))
    game.join("ann")
    game.join("ben")
    game.start()
    agent, reference = RandomAgent(agent_seed), random.Random(agent_seed)
    check = game.rules.check
    observation = Observation(game, 0)
    assert game.state is not None
    for wanted in lows:
        low = game.state.min_bet = min(wanted, check)
        if low:
            expected = low + int(reference.random() * (check + 1 - low))
        else:
            expected = int(reference.random() * check)
        assert agent.act(observation) == expected
        assert low <= expected <= check and (low or expected < check)
