"""What each viewer may see. Raw game state is never handed to a viewer; this module decides.

- An observer (``viewer=None``) sees no hand of the current round.
- A player sees their own hand and their team-mates' hands only, and the legal actions
  when it is their turn.
- Everyone sees the common cards (``common_hand``) and the rules.
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


def _hand_entry(game: Game, seat: int) -> dict[str, Any] | None:
    hand = game.hand_dicts(seat)
    if not hand:
        return None
    return {"nickname": game.nicknames[seat], "hand": hand}


def view_for(game: Game, viewer: str | None = None) -> dict[str, Any]:
    """The state of ``game`` as ``viewer`` (a nickname, or None for an observer) may see it.

    Raises :class:`~engine.errors.UnknownPlayer` when ``viewer`` is not in the game.
    """
    if viewer is not None and not game.is_player(viewer):
        raise errors.UnknownPlayer
    status = game.status
    seats = range(game.n_players)
    if status is Status.FINISHED:
        shown = list(seats)
    elif status is Status.RUNNING and viewer is not None:
        shown = [seat for seat in seats if game.sees_hand_of(viewer, seat)]
    else:
        shown = []
    hands = [entry for entry in (_hand_entry(game, seat) for seat in shown) if entry is not None]
    rules = game.rules
    view: dict[str, Any] = {
        "admin_nickname": game.admin,
        "public": game.public,
        "status": status.value,
        "round_number": game.round_number,
        "max_cards": game.max_cards,
        "players": [row.to_dict() for row in game.players],
        "hands": hands,
        "common_hand": [rules.card_dict(i) for i in game.common_indices],
        "cp_nickname": game.current_player,
        "history": [move.to_dict() for move in game.history],
        "commitment": game.commitment,
        "ready": list(game.ready),
        "auto_start": game.auto_start,
        "chosen_max_cards": game.chosen_max_cards,
        "rules": rules.to_dict(),
    }
    if viewer is not None:
        view["you"] = viewer
    seed = game.revealed_seed
    if seed is not None:
        view["seed"] = seed.hex()
        view["winner"] = game.winner
        view["winners"] = game.winners
    if viewer is not None and viewer == game.current_player:
        view["legal_actions"] = game.legal_actions()
    return view
