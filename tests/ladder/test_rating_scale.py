"""The displayed rating: 1500 for a newcomer, whole numbers, never negative in a newcomer's
first games, monotone in the ordinal (the boards' order), and every line adding up as it
reads; the stakes before a game are the model's own changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.ladder import rating as model
from app.ladder.base import change_body
from app.ladder.store import Change, Rating

mus = st.floats(min_value=-20, max_value=70, allow_nan=False)
sigmas = st.floats(min_value=0.5, max_value=25 / 3, allow_nan=False)


def _rating(name: str, mu: float, sigma: float, games: int = 3) -> Rating:
    return Rating(name, "standard-2", mu, sigma, games)


def test_a_new_player_is_shown_1500_and_is_provisional() -> None:
    newcomer = model.initial("a", "standard-2")
    assert model.shown(newcomer) == 1500
    assert model.provisional(newcomer)


@given(mus, sigmas, mus, sigmas)
def test_the_displayed_rating_orders_players_as_the_ordinal_does(
    mu1: float, s1: float, mu2: float, s2: float
) -> None:
    if model.ordinal(mu1, s1) < model.ordinal(mu2, s2):
        assert model.display(mu1, s1) <= model.display(mu2, s2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["won", "lost"]), min_size=1, max_size=model.PROVISIONAL_GAMES))
def test_a_newcomer_is_never_shown_a_negative_rating_and_each_line_adds_up(
    outcomes: list[str],
) -> None:
    # Against a strong settled opponent (the hardest losses to take) and a fresh one alike.
    me = model.initial("me", "standard-2")
    for i, outcome in enumerate(outcomes):
        other = _rating("other", 40.0, 2.0) if i % 2 else model.initial("other", "standard-2")
        places = [1, 2] if outcome == "won" else [2, 1]
        after, _ = model.rate([me, other], places)
        line = change_body(Change("me", "me", places[0], me, after), 2)
        assert line["display_after"] > 0
        assert line["display_after"] - line["display_before"] == line["display_change"]
        assert round(line["rating_after"] - line["rating_before"], 2) == line["change"]
        assert (line["display_change"] > 0) == (outcome == "won")
        assert line["display_after"] > 1000
        me = after


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(mus, sigmas), min_size=2, max_size=8))
def test_the_stakes_are_the_models_change_if_first_and_if_last(
    players: list[tuple[float, float]],
) -> None:
    before = [_rating(f"p{i}", mu, sigma) for i, (mu, sigma) in enumerate(players)]
    stakes = model.stakes(before)
    n = len(before)
    for i, (win, loss) in enumerate(stakes):
        others = [j for j in range(n) if j != i]
        first = [1 if j == i else 2 + others.index(j) for j in range(n)]
        last = [n if j == i else 1 + others.index(j) for j in range(n)]
        shown = model.shown(before[i])
        assert win == model.shown(model.rate(before, first)[i]) - shown
        assert loss == model.shown(model.rate(before, last)[i]) - shown
        assert win >= loss


def test_two_newcomers_stand_to_win_more_than_they_stand_to_lose() -> None:
    # The sigma each game takes off lifts both ratings: said in the docs, shown here.
    (win, loss), other = model.stakes(
        [model.initial("a", "standard-2"), model.initial("b", "standard-2")]
    )
    assert (win, loss) == other
    assert win > 0 > loss
    assert win > -loss
    assert (win, loss) == (103, -55)  # the figures docs/ratings.md quotes


def test_100_displayed_points_between_settled_players_are_about_7_wins_in_10() -> None:
    # docs/ratings.md and the page that explains the rating say so: the library's own
    # prediction for two players whose ratings are settled (sigma 1).
    from openskill.models import PlackettLuce

    library = PlackettLuce(mu=model.MU, sigma=model.SIGMA)
    for gap, low, high in ((100, 0.69, 0.73), (200, 0.85, 0.88)):
        strong = library.rating(mu=25 + gap / model.DISPLAY_SCALE, sigma=1.0)
        weak = library.rating(mu=25, sigma=1.0)
        assert model.display(strong.mu, 1.0) - model.display(weak.mu, 1.0) == gap
        win, _ = library.predict_win([[strong], [weak]])
        assert low < win < high


def test_beating_a_stronger_player_gains_more_and_losing_to_one_costs_less() -> None:
    # As the page that explains the rating says.
    me = model.initial("me", "standard-2")
    stronger = _rating("strong", 35.0, 3.0)
    weaker = _rating("weak", 15.0, 3.0)
    (win_up, loss_up), _ = model.stakes([me, stronger])
    (win_down, loss_down), _ = model.stakes([me, weaker])
    assert win_up > win_down
    assert loss_up > loss_down  # a smaller loss: both are negative
