"""What each viewer may see. Raw game state is never handed to a viewer; this module decides.

- An observer (``viewer=None``) sees no hand of the current round.
- A player sees their own hand only, and the legal actions when it is their turn.
- A finished game shows every hand of its final round, and that round's seed.
- A finished round (a :class:`~engine.game.RoundRecord`) shows everything, to anyone.

No view holds a seed before its round is over, nor anything about a player's credentials
(the engine has none).
"""

from __future__ import annotations

from typing import Any

from engine import errors
from engine.facts import Status
from engine.game import Game


def _hand_entry(nickname: str, game: Game) -> dict[str, Any] | None:
    hand = game.hand(nickname)
    if not hand:
        return None
    return {"nickname": nickname, "hand": [card.to_dict() for card in hand]}


def view_for(game: Game, viewer: str | None = None) -> dict[str, Any]:
    """The state of ``game`` as ``viewer`` (a nickname, or None for an observer) may see it.

    Raises :class:`~engine.errors.UnknownPlayer` when ``viewer`` is not in the game.
    """
    if viewer is not None and not game.is_player(viewer):
        raise errors.UnknownPlayer
    status = game.status
    if status is Status.FINISHED:
        shown = list(game.nicknames)
    elif status is Status.RUNNING and viewer is not None:
        shown = [viewer]
    else:
        shown = []
    hands = [entry for entry in (_hand_entry(n, game) for n in shown) if entry is not None]
    view: dict[str, Any] = {
        "admin_nickname": game.admin,
        "public": game.public,
        "status": status.value,
        "round_number": game.round_number,
        "max_cards": game.max_cards,
        "players": [row.to_dict() for row in game.players],
        "hands": hands,
        "cp_nickname": game.current_player,
        "history": [move.to_dict() for move in game.history],
        "commitment": game.commitment,
        "ready": list(game.ready),
        "auto_start": game.auto_start,
        "chosen_max_cards": game.chosen_max_cards,
    }
    if viewer is not None:
        view["you"] = viewer
    seed = game.revealed_seed
    if seed is not None:
        view["seed"] = seed.hex()
        view["winner"] = game.winner
    if viewer is not None and viewer == game.current_player:
        view["legal_actions"] = game.legal_actions()
    return view
