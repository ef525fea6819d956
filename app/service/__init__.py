from app.service.games import GameService, StateReply

__all__ = ["GameService", "StateReply"]
