"""The odds a player may work out from their own view, in any variant: for a game (the odds
route) and for an observation (the built-in agents).

Seen from ``viewer``: the known cards are their hand, their team-mates' hands and the common
cards; the unknown cards are the hands they cannot see. Whether a set "exists" depends on
who bet it, since a check counts only the bettor's own jokers and the common ones, so each
table is for one bettor:

* :func:`odds_for` (``bettor`` left out): the viewer's own next bet, the chance that each set
  of the game's table exists if the viewer bets it;
* :func:`odds_for` with ``bettor``: if that player bets it (a team-mate's jokers are known;
  an opponent's are a random share of the unknown cards);
* :func:`standing_bet_odds`: the chance that the bet on the table exists, as its bettor bet it.

All of them are exact (see :mod:`engine.variant_probability`).
"""

from __future__ import annotations

from engine.game import Game
from engine.observation import Observation
from engine.rules import CardKind, Rules
from engine.variant_probability import set_probabilities_for


def _jokers(rules: Rules, cards: tuple[int, ...]) -> int:
    if not rules.jokers:
        return 0
    return sum(1 for card in cards if rules.kind_of(card) is CardKind.JOKER)


def _table(
    rules: Rules,
    known: list[int],
    unknown: int,
    common_jokers: int,
    bettor_hand: tuple[int, ...] | None,
    bettor_cards: int,
) -> tuple[float, ...]:
    if bettor_hand is not None:
        usable, hidden = common_jokers + _jokers(rules, bettor_hand), 0
    else:
        usable, hidden = common_jokers, bettor_cards
    return set_probabilities_for(
        rules, known, unknown, usable_jokers=usable, hidden_bettor_cards=hidden
    )


def odds_for(game: Game, viewer_seat: int, bettor: int | None = None) -> tuple[float, ...]:
    """For every set of ``game.rules.table``, the exact chance that it exists if bet by
    ``bettor`` (default: the viewer), given what the player in ``viewer_seat`` sees."""
    bettor = viewer_seat if bettor is None else bettor
    viewer = game.nicknames[viewer_seat]
    counts = game.card_counts
    known: list[int] = list(game.common_indices)
    unknown = 0
    for seat, count in enumerate(counts):
        if game.sees_hand_of(viewer, seat):
            known.extend(game.hand_indices(seat))
        else:
            unknown += count
    rules = game.rules
    seen = game.sees_hand_of(viewer, bettor)
    return _table(
        rules,
        known,
        unknown,
        _jokers(rules, game.common_indices),
        game.hand_indices(bettor) if seen else None,
        counts[bettor],
    )


def standing_bet_odds(game: Game, viewer_seat: int) -> float | None:
    """The chance that the bet on the table exists, as its bettor bet it, seen from
    ``viewer_seat`` (None before the round's first bet)."""
    history = game.seats_history
    if not history:
        return None
    bettor, bet = history[-1]
    return odds_for(game, viewer_seat, bettor)[bet]


def observed_odds(obs: Observation, bettor: int | None = None) -> tuple[float, ...]:
    """:func:`odds_for` from an agent's observation (``bettor``: default the observer)."""
    bettor = obs.seat if bettor is None else bettor
    rules = obs.rules
    known = obs.known_indices
    usable = obs.known_usable_jokers(bettor)
    if usable is None:
        usable_jokers, hidden = obs.common_jokers, obs.n_cards[bettor]
    else:
        usable_jokers, hidden = usable, 0
    return set_probabilities_for(
        rules,
        known,
        obs.unknown_cards,
        usable_jokers=usable_jokers,
        hidden_bettor_cards=hidden,
    )


__all__ = ["observed_odds", "odds_for", "standing_bet_odds"]
