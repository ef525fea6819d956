"""Every variant of the rules: the 140 sets of 32 cards in their declared order, existence
with jokers against a brute force over the cards the jokers could be, blanks that never
help, the maximum of cards, teams, and whole games of random variants that keep every
property of the classic game.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors
from engine.dealing import seed_sequence
from engine.game import Game
from engine.rules import CLASSIC, GROWING, SLOWLY_GROWING, CardKind, Rules
from engine.sets import SETS, SetKind, table_for
from engine.views import view_for

TABLE_32 = table_for(32)


def spec_order_32() -> list[tuple[str, tuple[int, ...], int | None]]:
    """The 32-card sets as the newer service declares them: kinds in order; two pair and
    full house by the first value, then the second; straights 7-J up to 10-A; straight
    flushes by straight, then colour."""
    v = range(8)
    straights = [tuple(range(i, i + 5)) for i in range(4)]
    return [
        *[("high card", (x,), None) for x in v],
        *[("pair", (x,), None) for x in v],
        *[("two pair", (x, y), None) for x in v for y in v if y < x],
        *[("straight", s, None) for s in straights],
        *[("three of a kind", (x,), None) for x in v],
        *[("full house", (x, y), None) for x in v for y in v if y != x],
        *[("flush", (), c) for c in range(4)],
        *[("four of a kind", (x,), None) for x in v],
        *[("straight flush", s, c) for s in straights for c in range(4)],
    ]


def test_the_140_sets_of_32_cards_are_declared_in_the_newer_service_s_order() -> None:
    shown = [(s.kind.value, s.values, s.colour) for s in TABLE_32.sets]
    assert shown == spec_order_32()
    assert [s.action_id for s in TABLE_32.sets] == list(range(140))
    assert (TABLE_32.check, TABLE_32.lost_round) == (140, 141)
    firsts = {kind: TABLE_32.first_of(kind) for kind in (SetKind.STRAIGHT, SetKind.FLUSH)}
    assert firsts == {SetKind.STRAIGHT: 44, SetKind.FLUSH: 112}
    assert TABLE_32.first_of(SetKind.STRAIGHT_FLUSH) == 124


def test_the_classic_rules_keep_the_88_sets_and_their_ids() -> None:
    assert CLASSIC.table.sets == SETS
    assert (CLASSIC.check, CLASSIC.lost_round) == (88, 89)
    assert Rules() == CLASSIC


def _plain(table_deck: int, bet: int, mask: int) -> bool:
    """Whether the set is among ``mask`` by its needs alone (no table predicate)."""
    s = table_for(table_deck).sets[bet]
    return s.missing(mask) == 0


@settings(max_examples=60, deadline=None)
@given(
    deck=st.sampled_from([24, 32]),
    seed=st.integers(0, 10**9),
    size=st.integers(0, 14),
    jokers=st.integers(0, 2),
)
def test_a_set_exists_with_jokers_exactly_when_some_cards_they_could_be_complete_it(
    deck: int, seed: int, size: int, jokers: int
) -> None:
    rng = random.Random(seed)
    table = table_for(deck)
    cards = rng.sample(range(deck), min(size, deck))
    mask = sum(1 << c for c in cards)
    for bet in rng.sample(range(table.n_bets), 20):
        brute = any(
            table.exists(bet, mask | sum(1 << c for c in extra))
            for k in range(jokers + 1)
            for extra in itertools.combinations(range(deck), k)
        )
        assert table.exists_with(bet, mask, jokers) == brute, (bet, cards, jokers)
        assert table.exists(bet, mask) == _plain(deck, bet, mask)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), blanks=st.integers(1, 4))
def test_blanks_never_make_a_set_exist(seed: int, blanks: int) -> None:
    rules = Rules(deck_size=32, blanks=blanks)
    game = Game(seed_source=seed_sequence(seed), rules=rules)
    for name in ("ann", "bob", "cid"):
        game.join(name)
    game.start()
    hands = [game.hand_indices(s) for s in range(3)]
    dealt = [c for h in hands for c in h]
    without_blanks = sum(1 << c for c in dealt if rules.kind_of(c) is CardKind.CARD)
    assert game.card_counts == (1, 1, 1)
    # The engine's pool is the deck's cards alone, whatever blanks were dealt.
    for bet in range(140):
        assert TABLE_32.exists(bet, without_blanks) == TABLE_32.exists_with(bet, without_blanks, 0)


rules_strategy = st.builds(
    Rules,
    deck_size=st.sampled_from([24, 32]),
    jokers=st.integers(0, 4),
    blanks=st.integers(0, 4),
    common_cards=st.sampled_from([0, 1, 2, 3, GROWING, SLOWLY_GROWING]),
    max_cards=st.integers(0, 6),
)


@settings(max_examples=80, deadline=None)
@given(rules=rules_strategy, players=st.integers(2, 8))
def test_the_maximum_of_cards_always_leaves_room_for_every_hand_and_the_common_cards(
    rules: Rules, players: int
) -> None:
    top = rules.max_cards_for(players)
    assert 0 <= top <= 11
    if rules.max_cards:
        assert top <= rules.max_cards
    if top:
        assert top * players + rules.common_count([top] * players) <= rules.total_cards


def test_the_classic_maximum_is_the_classic_table() -> None:
    assert [CLASSIC.max_cards_for(n) for n in range(2, 9)] == [11, 8, 6, 4, 4, 3, 3]


@settings(max_examples=80, deadline=None)
@given(rules=rules_strategy, players=st.lists(st.integers(2, 8), min_size=1, max_size=10))
def test_the_maximum_worked_out_once_is_the_one_worked_out_afresh(
    rules: Rules, players: list[int]
) -> None:
    # max_cards_for remembers each answer per number of players: asking again, in any order,
    # and asking equal rules made anew give what the rules work out from scratch.
    for n in players:
        assert rules.max_cards_for(n) == Rules.from_dict(rules.to_dict()).max_cards_for(n)
        assert rules.max_cards_for(n) == rules._max_cards_for(n)
    with pytest.raises(ValueError, match="players"):
        rules.max_cards_for(9)
    fresh = Rules.from_dict(rules.to_dict())
    assert rules == fresh and hash(rules) == hash(fresh)  # what it remembers is not compared


@settings(max_examples=40, deadline=None)
@given(
    rules=rules_strategy,
    players=st.integers(2, 6),
    seed=st.integers(0, 10**9),
    teams=st.booleans(),
)
def test_whole_games_of_random_variants_end_and_show_each_viewer_only_what_they_may_see(
    rules: Rules, players: int, seed: int, teams: bool
) -> None:
    names = [f"p{i}" for i in range(players)]
    game = Game(seed_source=seed_sequence(seed), rules=rules)
    for i, name in enumerate(names):
        game.join(name, team=(i % 2) + 1 if teams else None)
    if rules.max_cards_for(players) < 1:
        with pytest.raises(errors.InvalidRules):
            game.start()
        return
    game.start()
    rng = random.Random(seed)
    for _ in range(5000):
        if game.status.value == "Finished":
            break
        legal = game.legal_actions()
        assert legal
        assert max(legal) <= rules.check
        action = legal[-1] if len(legal) > 1 and rng.random() < 0.3 else rng.choice(legal[:4])
        record = game.apply(action)
        if record is not None:
            dealt = sum(record.n_cards) + len(record.common)
            assert dealt <= rules.total_cards
            assert len(record.common) == rules.common_count(record.n_cards)
            assert record.seats_history[-1][1] == rules.lost_round
        restored = Game.from_dict(game.to_dict())
        assert restored.to_dict() == game.to_dict()
        observer = view_for(game)
        assert observer["hands"] == [] or game.status.value == "Finished"
        assert len(observer["common_hand"]) == len(game.common_indices)
        if game.status.value == "Running":
            me = names[0]
            shown = {h["nickname"] for h in view_for(game, me)["hands"]}
            mates = {n for n in names if game.sees_hand_of(me, game.seat_of(n)) and game.n_cards(n)}
            assert shown == mates
    else:
        raise AssertionError("the game did not end")
    left = {game.team_of(n) if game.team_of(n) is not None else n for n in game.winners}
    assert len(left) == 1


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**9), sizes=st.lists(st.integers(1, 3), min_size=2, max_size=4))
def test_seating_never_puts_team_mates_side_by_side_when_no_team_is_over_half_the_table(
    seed: int, sizes: list[int]
) -> None:
    teams = [team for team, size in enumerate(sizes, start=1) for _ in range(size)]
    n = len(teams)
    if max(sizes) > n // 2 or n > 8:
        return
    game = Game(seed_source=seed_sequence(seed))
    for i, team in enumerate(teams):
        game.join(f"p{i}", team=team)
    game.start()
    seated = game.teams
    assert all(seated[i] != seated[(i + 1) % n] for i in range(n)), seated


def test_a_game_of_one_team_does_not_start_and_the_last_team_standing_wins() -> None:
    game = Game(seed_source=seed_sequence(1))
    game.join("ann", team=1)
    game.join("bob", team=1)
    with pytest.raises(errors.OneTeam):
        game.start()
    game.set_team("bob", 2, by="ann")
    game.join("cid", team=2)
    game.start()
    for _ in range(500):
        if game.status.value == "Finished":
            break
        legal = game.legal_actions()
        game.apply(legal[-1] if game.last_bet is not None else legal[0])
    assert game.status.value == "Finished"
    assert len({game.team_of(n) for n in game.winners}) == 1


def test_only_the_admin_moves_another_player_between_teams() -> None:
    game = Game()
    for name in ("ann", "bob", "cid"):
        game.join(name)
    assert game.set_team("bob", 2, by="bob")
    with pytest.raises(errors.NoPermission):
        game.set_team("cid", 2, by="bob")
    assert game.set_team("cid", 2, by="ann")
    with pytest.raises(errors.InvalidTeam):
        game.set_team("cid", 9, by="ann")


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"deck_size": 28}, "deck_size must be 24 or 32"),
        ({"jokers": 13}, "jokers must be between 0 and 12"),
        ({"blanks": -1}, "blanks must be between 0 and 12"),
        ({"common_cards": -3}, "common_cards must be between 0 and 12"),
        ({"max_cards": 12}, "max_cards must be 0"),
        ({"jokers": True}, "Every rule must be an integer"),
        ({"jokers": "1"}, "Every rule must be an integer"),
        ({"initial_cards": 12}, "initial_cards must be between 1 and 11"),
    ],
)
def test_a_rule_out_of_its_bounds_or_of_the_wrong_type_is_refused(
    values: dict[str, object], words: str
) -> None:
    with pytest.raises(errors.InvalidRules, match=words):
        Rules(**values)  # type: ignore[arg-type]


def test_initial_cards_above_the_maximum_refuse_the_start_and_change_nothing() -> None:
    game = Game(rules=Rules(initial_cards=9))
    for name in ("ann", "bob", "cid"):
        game.join(name)
    before = game.to_dict()
    with pytest.raises(errors.InvalidRules, match="the maximum, 8"):
        game.start()
    assert game.to_dict() == before


def test_a_classic_game_is_stored_exactly_as_before_the_rules_existed() -> None:
    game = Game(seed_source=seed_sequence(3))
    game.join("ann")
    game.join("bob")
    game.start()
    stored = game.to_dict()
    assert "rules" not in stored
    assert "common" not in stored
    assert all("team" not in row for row in stored["players"])
