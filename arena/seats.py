"""Who sits where in tournament game k, the nicknames of the seats, and the seeds of a game.

**Seats.** Seats are the join positions 0..n-1 of a game (the engine then shuffles the
seating order from the game's first seed, so who starts is random but reproducible).
In game ``k`` seat ``j`` is taken by agent ``(j + k) mod len(agents)``: game 0 fills the
seats with the agents in turn, and each game shifts the assignment by one, so over any
``len(agents)`` consecutive games every agent sits in every seat equally often.

>>> seat_assignment(n_agents=2, n_players=4, game_index=0)
(0, 1, 0, 1)
>>> seat_assignment(n_agents=3, n_players=2, game_index=1)
(1, 2)

**Seeds.** Everything random in game ``k`` of a tournament with seed ``S`` derives from
``(S, k)``: the engine's deals (and seating) from :func:`game_master_seed`, and each
built-in agent's seed from :func:`agent_seed` with its seat. A game therefore replays
exactly, whichever worker plays it and whatever else runs at the same time (external
programs may of course be random on their own).
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

from engine.facts import MAX_NICKNAME_LENGTH

_NOT_NICKNAME: Final = re.compile(r"[^A-Za-z0-9]+")


def seat_assignment(n_agents: int, n_players: int, game_index: int) -> tuple[int, ...]:
    """The agent index at each seat of game ``game_index`` (see the module docstring)."""
    if n_agents < 1 or n_players < 1 or game_index < 0:
        raise ValueError("need at least one agent and one seat, and a game index >= 0")
    return tuple((seat + game_index) % n_agents for seat in range(n_players))


def rotate(items: list[str] | tuple[str, ...], n_players: int, game_index: int) -> list[str]:
    """The items seated in game ``game_index``: ``items[seat_assignment(...)[j]]`` at seat j.

    >>> rotate(["a", "b", "c"], 3, 1)
    ['b', 'c', 'a']
    """
    return [items[i] for i in seat_assignment(len(items), n_players, game_index)]


def nickname(name: str, seat: int) -> str:
    """A valid nickname for ``seat`` (0-based) played by agent ``name``: ``<name>_<seat+1>``.

    The name is reduced to ASCII letters and digits with single underscores between them
    (the nickname rule of engine/names.py), starts with a letter and is shortened so the
    whole fits in the nickname length. Seats make nicknames unique in a game.

    >>> nickname("random", 0), nickname("lowest-bettor", 2), nickname("9lives", 1)
    ('random_1', 'lowest_bettor_3', 'bot_9lives_2')
    """
    suffix = f"_{seat + 1}"
    clean = _NOT_NICKNAME.sub("_", name).strip("_") or "bot"
    if not clean[0].isalpha():
        clean = f"bot_{clean}"
    return clean[: MAX_NICKNAME_LENGTH - len(suffix)].rstrip("_") + suffix


def _digest(*parts: object) -> bytes:
    text = "/".join(str(p) for p in parts)
    return hashlib.sha256(f"blef/arena/v1/{text}".encode()).digest()


def game_master_seed(seed: int, game_index: int) -> bytes:
    """The master seed of the engine's seed sequence for game ``game_index``."""
    return _digest("game", seed, game_index)


def agent_seed(seed: int, game_index: int, seat: int) -> int:
    """The seed given to the built-in agent at ``seat`` (0-based) in game ``game_index``."""
    return int.from_bytes(_digest("agent", seed, game_index, seat)[:8], "big")
