"""Every Economancy card's numbers, declared once.

One row per card kind, in the order the shop lists them. The kind's index in :data:`CARDS`
is its id inside the engine (0 is the Sorcerer's Stipend, which no shop sells).

- ``cost``: coins to buy it (``None``: not sold);
- ``attack`` / ``defence``: its fighting numbers (Bubble's attack is a rules parameter,
  :attr:`engine.economancy.rules.EconomancyRules.bubble_attack`; the 9 here is the default);
- ``points``: victory points while the card is in its owner's army;
- ``per_player``: copies in the shop per player;
- ``income``: coins it adds in the income phase on day 1, 2 and 3;
- ``bean``: it adds a third of its owner's coins (rounded down) at the moment it is applied;
- ``attacks`` / ``defends``: how many times it may attack / defend in one attack phase;
- ``day3_buys``: extra buys it gives on day 3;
- ``coins_per_defence``: coins its owner gains each time it defends (even if it faints);
- ``simple``: in the course's first subset of eight shop cards.

>>> CARDS[BY_NAME["Ghost"]].cost, CARDS[BY_NAME["Ghost"]].income
(2, (0, 0, 1))
>>> [c.name for c in CARDS if c.simple and c.cost is not None][:3]
['Board of Monopoly', 'Incantation', 'Worker']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class CardKind:
    name: str
    cost: int | None
    attack: int
    defence: int
    points: int
    per_player: int
    income: tuple[int, int, int]
    attacks: int
    defends: int
    bean: bool = False
    day3_buys: int = 0
    coins_per_defence: int = 0
    simple: bool = True


STIPEND_NAME: Final = "Sorcerer's Stipend"
PASS: Final = "Pass"
"""The buy that buys nothing (it still uses a buy)."""

# fmt: off
CARDS: Final[tuple[CardKind, ...]] = (
    #        name                  cost atk def pts x/p income     atk# def#
    CardKind(STIPEND_NAME,         None, 0, 0,  0,  1, (2, 1, 1),  0,   0),
    CardKind("Board of Monopoly",  2,    1, 1,  1,  2, (0, 0, 0),  1,   1),
    CardKind("Incantation",        4,    1, 1,  3,  3, (0, 0, 0),  1,   1),
    CardKind("Worker",             1,    1, 2,  0,  2, (0, 1, 1),  1,   1),
    CardKind("Magic Bean Stock",   1,    1, 1,  0,  1, (0, 0, 0),  1,   1, bean=True),
    CardKind("Bubble",             2,    9, 2,  0,  1, (0, 0, 0),  0,   1),
    CardKind("Ghost",              2,    3, 2,  0,  2, (0, 0, 1),  1,   1),
    CardKind("Senior Worker",      2,    2, 2,  0,  2, (1, 1, 1),  1,   1),
    CardKind("Gold Fish",          3,    1, 2,  0,  1, (0, 0, 4),  1,   1),
    CardKind("Wall of Wealth",     1,    1, 2,  0,  2, (1, 0, 0),  1,   2, simple=False),
    CardKind("Apprentice",         3,    2, 1,  0,  1, (1, 1, 0),  1,   1, day3_buys=1,
             simple=False),
    CardKind("Thug",               3,    4, 4,  0,  1, (0, 1, 0),  1,   1, simple=False),
    CardKind("Shield of Greed",    4,    2, 7,  0,  1, (0, 0, 0),  1,   1, coins_per_defence=1,
             simple=False),
    CardKind("Golem",              5,    7, 7,  0,  1, (0, 0, 0),  1,   1, simple=False),
)
# fmt: on

STIPEND: Final = 0
BUBBLE: Final = 5
BY_NAME: Final[dict[str, int]] = {card.name: kind for kind, card in enumerate(CARDS)}
"""A card kind's id from its exact name."""

BASE_SHOP: Final[tuple[int, ...]] = tuple(k for k, c in enumerate(CARDS) if c.cost is not None)
"""The base game's 13 shop cards, in shop order."""
SIMPLE_SHOP: Final[tuple[int, ...]] = tuple(k for k in BASE_SHOP if CARDS[k].simple)
"""The course's first subset: 8 shop cards."""
CARD_SETS: Final[dict[str, tuple[int, ...]]] = {"base": BASE_SHOP, "simple": SIMPLE_SHOP}
"""The shops by the name of their card set (the rules' ``cards``)."""
