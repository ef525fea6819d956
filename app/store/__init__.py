"""Game stores: the protocol and its implementations (imported lazily by name)."""

from app.store.base import Conflict, GameDoc, GameStore, PublicGame, RoundSnapshot, Store

__all__ = ["Conflict", "GameDoc", "GameStore", "PublicGame", "RoundSnapshot", "Store"]
