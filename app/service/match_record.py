"""A finished table's record: the game step by step, played again from its public events
(Economancy), or the finished game as everyone sees it at the end (Figgie).

**The log.** While a table of a game whose definition keeps a log (its ``record`` is
``"log"``, :data:`engine.protocol.RecordStyle`: Economancy) is
played, the write path stores, beside the match's own stored form, the log of its public
events (``state["log"]``): the events of every change from the start on, each as
``Event.to_dict()`` gives it and as the table's body showed it to every reader at the time,
with the ``chose`` notes left out (they say only that a seat has chosen). A choice the rules
keep secret is in the log only once it is revealed (the investments, the defenders of a
fight, the buys), so the log holds nothing a reader of the table had not already been shown.
A game started before logs were kept has none (:func:`logged_state`).

**The record** (``GET /{kind}/games/{game_uuid}/record``, :func:`record_body`) is given to
anyone once the game is over, and to nobody before (:class:`GameNotFinished`, 409): the
engine sets the game up again (Economancy deals nothing, so the set-up is the same) and makes
the moves each revealed event names, one event after another; every event the engine makes
must be the event that was kept, or the record is refused as unreadable (a log that does not
replay is never shown as the game). Each step is what one revealed event's moves did: the
events they made, the spectator's view after them (the course protocol's state JSON, the
very view the table shows) and the day counted from the start.

**A game that shows everything at its end** (``record`` ``"final_view"``: Figgie, whose settled
view holds every trade of the tape, every hand, the deck and the deal's seed) keeps no log:
its record is the spectator's view of the finished game, the very view the table shows
everyone once it is settled, from which the page steps through the trades. Nothing in either
record is a seat's secret: seats are named by nickname and agent only.

A finished game's record never changes, so its answer carries an ``ETag`` (a digest of the
body) and may be cached; a refusal is never cached (app/api/routes/common.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any, Final

from app.service.errors import GameNotFinished, RecordNotKept
from engine.facts import Status
from engine.match import Match
from engine.protocol import Event, GameState

Body = dict[str, Any]

LOG: Final = "log"
"""The key of the log in a match's stored form (never ``history``: Blef's moves, which the
metrics read)."""

_NOT_LOGGED: Final = frozenset({"chose"})


def logged_state(before: Mapping[str, Any], match: Match) -> dict[str, Any]:
    """The stored form of ``match`` after a change (``before``: the stored form it was read
    from), with the log carried on and this change's public events added to it. The log
    begins with the ``started`` event: a table still in the lobby, or a game started before
    logs were kept, has none."""
    state = match.to_dict()
    if match.definition.record != "log":
        return state
    kept = before.get(LOG)
    if kept is None and not any(event.kind == "started" for event in match.events):
        return state
    added = [event.to_dict() for event in match.events if event.kind not in _NOT_LOGGED]
    state[LOG] = [*(kept or ()), *added]
    return state


class RecordUnreadable(RuntimeError):
    """A kept log the engine does not play again into the same events (never expected)."""


def record_body(game_uuid: str, room: int, state: Mapping[str, Any]) -> Body:
    """The record of the finished table stored as ``state`` (see the module docstring)."""
    match = Match.from_dict(state)
    if match.status is not Status.FINISHED:
        raise GameNotFinished
    result = match.result()
    table = match.table
    head: Body = {
        "game_uuid": game_uuid,
        "kind": match.kind,
        "room": room,
        "rules": match.rules,
        "seats": [
            {"nickname": nickname, "ai": agent}
            for nickname, agent in zip(table.nicknames, table.ai_agents, strict=True)
        ],
        "result": None if result is None else result.to_dict(),
    }
    style = match.definition.record
    if style == "final_view":
        return {**head, "view": match.view(None)}
    log = state.get(LOG)
    if style != "log" or not isinstance(log, list) or not log:
        raise RecordNotKept
    return {**head, "steps": list(replay(match, log))}


def replay(match: Match, log: list[Any]) -> Iterator[Body]:
    """The steps of the game ``log`` was kept of, played again by the engine from the
    set-up of ``match``'s rules and seats (:class:`RecordUnreadable` if it does not replay)."""
    game = match.definition
    rules = game.rules_from_dict(match.rules)
    state: GameState[Any] = game.setup(rules, len(match.nicknames), _no_deal)
    if not log or not isinstance(log[0], dict) or log[0].get("kind") != "started":
        raise RecordUnreadable("the log does not begin with the start")
    yield _step(state, [log[0]])
    made: deque[dict[str, Any]] = deque()
    told: list[dict[str, Any]] = []
    for number, kept in enumerate(log[1:], start=1):
        if not made:
            for event in _play(state, kept):
                if event.kind not in _NOT_LOGGED:
                    made.append(event.to_dict())
        if not made or made.popleft() != kept:
            raise RecordUnreadable(f"event {number} of the log is not what its moves make")
        told.append(kept)
        if not made:
            yield _step(state, told)
            told = []
    if made or told or state.result() is None:
        raise RecordUnreadable("the log ends before the game does")


def _no_deal() -> bytes:
    """The seed source of a replay: a recorded game deals nothing (Economancy's set-up is the
    same every time), so a set-up that asks for a seed cannot be played again from events."""
    raise RecordUnreadable("this game deals from seeds, which its log does not keep")


def _play(state: GameState[Any], event: Mapping[str, Any]) -> list[Event]:
    """Make the moves ``event`` reveals (Economancy's events); the events they made."""
    kind = event.get("kind")
    made: list[Event] = []
    try:
        if kind == "forfeited":
            forfeit = getattr(state, "forfeit")  # noqa: B009 (Economancy's own verb)
            return list(forfeit(int(event["seat"])))
        for seat, move in _revealed(event):
            made += state.apply(seat, move)
    except (KeyError, TypeError, ValueError, LookupError) as error:
        raise RecordUnreadable(f"a {kind} event that names no legal move: {error!r}") from None
    except Exception as error:  # a move the rules refuse: the log is not this game's
        raise RecordUnreadable(f"a {kind} event's move is refused: {error}") from None
    return made


def _revealed(event: Mapping[str, Any]) -> list[tuple[int, Any]]:
    """The (seat, move) pairs an Economancy event reveals, in seat order: every investment,
    the attacker's card (0: it stopped), each defender's card, every buy."""
    kind = event.get("kind")
    if kind == "invested":
        amounts = event["amounts"]
        return [(seat, int(a)) for seat, a in enumerate(amounts) if a is not None]
    if kind == "attacks":
        return [(int(event["seat"]), int(event["card"]))]
    if kind == "stopped":
        return [(int(event["seat"]), 0)]
    if kind == "fight":
        defenders = event["defenders"]
        return sorted((int(seat), int(pair[0])) for seat, pair in defenders.items())
    if kind == "bought":
        choices = event["choices"]
        return sorted((int(seat), str(name)) for seat, name in choices.items())
    return []


def _step(state: GameState[Any], events: list[dict[str, Any]]) -> Body:
    return {
        "day_count": getattr(state, "day_count", None),
        "events": list(events),
        "view": state.view(None),
    }
