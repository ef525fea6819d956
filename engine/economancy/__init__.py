"""Economancy: the card-drafting game of wizards, behind the game protocol.

>>> from engine.games import definition
>>> state = definition("economancy").setup(definition("economancy").default_rules(), 2)
>>> state.view(0)["players"][0]["coins"]
3
"""

from __future__ import annotations

from engine.economancy.game import GAME, EconomancyGame, parse_move
from engine.economancy.rules import EconomancyRules
from engine.economancy.state import EconomancyState, Move

__all__ = ["GAME", "EconomancyGame", "EconomancyRules", "EconomancyState", "Move", "parse_move"]
