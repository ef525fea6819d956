"""Building Economancy states by hand for the tests."""

from __future__ import annotations

from engine.economancy import EconomancyRules, EconomancyState
from engine.economancy.cards import BY_NAME

SIMPLE = EconomancyRules(cards="simple")


def army(*names: str) -> list[int]:
    """An army: the Stipend, then the named cards in order."""
    return [0, *(BY_NAME[name] for name in names)]


def state_with(
    armies: list[list[int]],
    coins: list[int],
    *,
    rules: EconomancyRules = SIMPLE,
    day_count: int = 1,
) -> EconomancyState:
    """A game at the start of the investing phase of ``day_count`` (income not applied:
    ``coins`` are the coins to invest from), with these armies."""
    state = EconomancyState.new(rules, len(armies))
    state.day_count = day_count
    state.cards = [list(a) for a in armies]
    state.uses = [[0] * len(a) for a in armies]
    state.coins = list(coins)
    state.buys = [1 if a else 0 for a in armies]
    state.choosers = tuple(s for s in range(len(armies)) if armies[s])
    state.validate()
    return state


def play(state: EconomancyState, *moves: tuple[int, int | str]) -> None:
    for seat, move in moves:
        state.apply(seat, move)
