"""The rules of an Economancy table: one immutable value, every field with its default.

- ``cards``: ``"base"`` (the 13 shop cards of the published base game, the default: the game
  as people buy and play it) or ``"simple"`` (the course's first subset of 8, what the course
  referee plays unless told ``--base``);
- ``bubble_attack``: Bubble's attack, 9 (the course referee's, and the card as first
  printed: the default, so that course programs meet the numbers they were written for) or
  5 (the card since its 2024 rebalance);
- ``day_limit``: the game is a draw when no one has won by the end of this many days
  (100 by default, as the course referee);
- ``on_timeout``: what a table does with a seat that does not choose in time:
  ``"default_move"`` (the default: the seat plays :meth:`~engine.economancy.state.
  EconomancyState.default_move`, i.e. invest 0, stop attacking, the first usable defender,
  Pass) or ``"forfeit"`` (the seat is out of the game, as by elimination). The rules never
  read a clock: the service applies this setting.

>>> EconomancyRules().to_dict()
{'cards': 'base', 'bubble_attack': 9, 'day_limit': 100, 'on_timeout': 'default_move'}
>>> EconomancyRules.from_dict({"cards": "simple", "bubble_attack": 5}).shop_kinds[:2]
(1, 2)
>>> EconomancyRules(day_limit=0)
Traceback (most recent call last):
...
engine.protocol.InvalidRules: day_limit must be an integer from 1 to 10000, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from engine.economancy.cards import CARD_SETS
from engine.protocol import InvalidRules

BUBBLE_ATTACKS: Final = (9, 5)
TIMEOUT_RULES: Final = ("default_move", "forfeit")
MAX_DAY_LIMIT: Final = 10_000


@dataclass(frozen=True, slots=True)
class EconomancyRules:
    cards: str = "base"
    bubble_attack: int = 9
    day_limit: int = 100
    on_timeout: str = "default_move"

    def __post_init__(self) -> None:
        if not isinstance(self.cards, str) or self.cards not in CARD_SETS:
            raise InvalidRules(f"cards must be one of {', '.join(CARD_SETS)}, not {self.cards!r}")
        if type(self.bubble_attack) is not int or self.bubble_attack not in BUBBLE_ATTACKS:
            raise InvalidRules(f"bubble_attack must be 9 or 5, not {self.bubble_attack!r}")
        if type(self.day_limit) is not int or not 1 <= self.day_limit <= MAX_DAY_LIMIT:
            raise InvalidRules(
                f"day_limit must be an integer from 1 to {MAX_DAY_LIMIT}, not {self.day_limit!r}"
            )
        if self.on_timeout not in TIMEOUT_RULES:
            raise InvalidRules(
                f"on_timeout must be one of {', '.join(TIMEOUT_RULES)}, not {self.on_timeout!r}"
            )

    @property
    def shop_kinds(self) -> tuple[int, ...]:
        """The card kinds this game's shop sells, in shop order."""
        return CARD_SETS[self.cards]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EconomancyRules:
        """The rules from JSON; missing keys take their defaults, unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise InvalidRules("the rules must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules(
                f"unknown rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}"
            )
        return cls(**dict(data))
