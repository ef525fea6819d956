"""The use cases of the Blef service (app/service/service.py lists them by area)."""

from app.service.reading import StateReply
from app.service.service import GameService

__all__ = ["GameService", "StateReply"]
