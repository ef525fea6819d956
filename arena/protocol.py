"""The JSON lines the referee and an external program exchange (documented in
api_docs/bots.md).

The referee sends one JSON object per line: the player's own view of the game, as the API
would show it to that player (:func:`engine.views.view_for`), plus ``"event"``, ``"you"``
and ``"rounds"`` (every finished round of the game, all hands shown). The program answers
each ``your_turn`` message with one line, ``{"action_id": N}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from engine.game import Game, RoundRecord
from engine.views import view_for

YOUR_TURN: Final = "your_turn"
GAME_OVER: Final = "game_over"

_SHOWN: Final = 60


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class RoundLog:
    """The finished rounds of one game as a JSON array, shared by every program's messages.

    Each round is encoded once, when first needed (never, in a game without programs), and
    the joined array is kept until the next round ends: it only grows, so re-encoding it
    for every turn would be waste.
    """

    __slots__ = ("_encoded", "_joined", "_records")

    def __init__(self) -> None:
        self._records: list[RoundRecord] = []
        self._encoded: list[str] = []
        self._joined: str | None = None

    def add(self, record: RoundRecord) -> None:
        self._records.append(record)
        self._joined = None

    def __len__(self) -> int:
        return len(self._records)

    @property
    def records(self) -> tuple[RoundRecord, ...]:
        return tuple(self._records)

    def json(self) -> str:
        """The rounds so far as a JSON array."""
        if self._joined is None:
            for record in self._records[len(self._encoded) :]:
                self._encoded.append(_dumps(record.to_dict()))
            self._joined = "[" + ",".join(self._encoded) + "]"
        return self._joined


def message(game: Game, nickname: str, event: str, rounds: RoundLog) -> str:
    """The line sent to ``nickname``: ``event``, ``you``, its view, and ``rounds``.

    >>> from engine.dealing import seed_sequence
    >>> game = Game(seed_source=seed_sequence(1))
    >>> _ = game.join("ann"), game.join("ben")
    >>> game.start()
    >>> sent = json.loads(message(game, game.current_player, YOUR_TURN, RoundLog()))
    >>> sent["event"], sent["you"] == sent["cp_nickname"], sent["legal_actions"][:3]
    ('your_turn', True, [0, 1, 2])
    """
    head: dict[str, Any] = {"event": event, "you": nickname}
    head.update(view_for(game, nickname))
    text = _dumps(head)
    return f'{text[:-1]},"rounds":{rounds.json()}}}\n'


@dataclass(frozen=True, slots=True)
class BadAnswer:
    """An answer that is not ``{"action_id": <integer>}``; ``detail`` says why."""

    detail: str


def shown(data: bytes | str) -> str:
    """A short printable excerpt of what a program wrote, for a forfeit's detail."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def parse_answer(data: bytes) -> int | BadAnswer:
    """The action id in one answer line, or why the line is not an answer.

    Only the format is checked here; whether the action is legal is the game's business.
    Other keys of the object are ignored (a program may add, e.g., a comment).

    >>> parse_answer(b'{"action_id": 12}'), parse_answer(b' {"action_id":88, "why": "bluff"} ')
    (12, 88)
    >>> parse_answer(b'12')
    BadAnswer(detail='expected a JSON object with an integer "action_id", got \\'12\\'')
    """
    try:
        answer = json.loads(data)
    except ValueError:  # includes undecodable bytes
        return BadAnswer(f"not a JSON line: {shown(data)}")
    action = answer.get("action_id") if isinstance(answer, dict) else None
    if type(action) is not int:
        return BadAnswer(f'expected a JSON object with an integer "action_id", got {shown(data)}')
    return action
