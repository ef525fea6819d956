"""Figgie, Jane Street's trading card game: the rules (:mod:`.market`, :mod:`.game`), the
research simulator (:mod:`.sim`) and agents (:mod:`.agents`). ``GAME`` is its definition
for :mod:`engine.games`."""

from __future__ import annotations

from engine.figgie.game import FiggieGame, FiggieRules, FiggieState, Order

GAME = FiggieGame()

__all__ = ["GAME", "FiggieGame", "FiggieRules", "FiggieState", "Order"]
