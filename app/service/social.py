"""What the table says around the game: reactions and nickname reports.

None of it is a rule of Blef, so it lives beside the engine's state, in ``GameDoc.social``,
kept with the game and deleted with it (a report is also kept for the operator, in the
store's report list, see :meth:`GameService.report`). Every function here works on that
plain dict, changed only inside the service's one write path, so two reactions or two
reports racing are ordered by the game's conditional save like any move.

``social`` holds:

- ``reactions``: the last :data:`SHOWN_REACTIONS` reactions, ``{"nickname", "reaction",
  "at"}``, oldest first (what the state shows);
- ``sent``: per player, the times of their last reactions (the rate limit: per player, in
  the game itself, so it holds across server processes and Lambda instances);
- ``reports``: per reported nickname, who reported it;
- ``hidden``: per hidden nickname, the ``Player_<seat>`` name it is shown as since (what
  stored rounds, which keep the names as played, are shown with);
- ``hidden_seats``: per hidden player's seat key (app/service/seats.py), the nickname they
  were hidden under: who is hidden is known by the player, never by a display name.

Every name in ``hidden``, the hidden nicknames and the aliases alike, is reserved at that
table: nobody may join under it, and no later alias is made equal to it, so a name shown
in a stored round always means one player.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Final, Protocol

from app.service.errors import TooManyReactions, UnknownReaction
from app.service.seats import seat_key
from engine.rules import Rules

REACTIONS: Final = ("👍", "👎", "👏", "😂", "😮", "😢", "🤔", "🎉")
"""The reactions a player may send: a fixed list, so that nothing else can be said."""
SHOWN_REACTIONS: Final = 5

Social = dict[str, Any]


class Seated(Protocol):
    """Who sits at a table: Blef's :class:`~engine.game.Game` and any game's
    :class:`~engine.table.Table` alike."""

    @property
    def nicknames(self) -> list[str]: ...

    @property
    def humans(self) -> list[str]: ...

    def seat_of(self, nickname: str) -> int: ...


def reaction(value: object) -> str:
    """``value`` if it is one of :data:`REACTIONS`, else a clear 400."""
    if not isinstance(value, str) or value not in REACTIONS:
        raise UnknownReaction("reaction", value, "Must be one of " + " ".join(REACTIONS))
    return value


def shown_reactions(social: Social) -> list[dict[str, Any]]:
    return [dict(r) for r in social.get("reactions", ())]


def add_reaction(
    social: Social, nickname: str, sent: str, now: float, *, burst: int, window: float
) -> None:
    """Record ``nickname``'s reaction at ``now``, unless they sent ``burst`` reactions in the
    last ``window`` seconds (:class:`TooManyReactions`, saying when they may send again)."""
    times: list[float] = list(social.get("sent", {}).get(nickname, ()))
    recent = [t for t in times if now - t < window]
    if len(recent) >= burst:
        wait = max(1, math.ceil(recent[-burst] + window - now))
        raise TooManyReactions(
            f"At most {burst} reactions every {window:g} seconds; try again in {wait} s",
            retry_after=wait,
        )
    social.setdefault("sent", {})[nickname] = [*recent, now][-burst:]
    shown = [*social.get("reactions", ()), {"nickname": nickname, "reaction": sent, "at": now}]
    social["reactions"] = shown[-SHOWN_REACTIONS:]


def record_report(social: Social, reporter: str, nickname: str) -> bool:
    """Note that ``reporter`` reported ``nickname``; False if they already had."""
    reporters: list[str] = social.setdefault("reports", {}).setdefault(nickname, [])
    if reporter in reporters:
        return False
    reporters.append(reporter)
    return True


def _reserved(social: Social) -> set[str]:
    hidden: dict[str, str] = social.get("hidden", {})
    return {name.casefold() for pair in hidden.items() for name in pair}


def is_reserved_name(social: Social, nickname: str) -> bool:
    """Whether ``nickname`` is a name this table hid or showed a hidden player as (in any
    case): it may not be taken again here."""
    return nickname.casefold() in _reserved(social)


def hidden_seats(social: Social, player_uuids: dict[str, str]) -> dict[str, str]:
    """The hidden players, by seat key, with the nickname each was hidden under. (A game
    stored before seat keys knows its hidden players only by their aliases: a player seated
    under an alias is taken to be the hidden one.)"""
    if "hidden_seats" in social:
        return dict(social["hidden_seats"])
    return {
        seat_key(player_uuids[new]): old
        for old, new in social.get("hidden", {}).items()
        if new in player_uuids
    }


def to_hide(social: Social, game: Seated, player_uuids: dict[str, str]) -> list[str]:
    """The nicknames every other human at the table has reported, not yet hidden."""
    humans = game.humans
    hidden = hidden_seats(social, player_uuids)
    due = []
    for nickname, reporters in social.get("reports", {}).items():
        others = [h for h in humans if h != nickname]
        if (
            nickname in humans
            and seat_key(player_uuids[nickname]) not in hidden
            and others
            and all(h in reporters for h in others)
        ):
            due.append(nickname)
    return due


def alias(social: Social, game: Seated, nickname: str) -> str:
    """``Player_<seat>`` (the 1-based row of the player list), made unique if need be: no
    other player's name, and no name this table ever hid or showed a hidden player as."""
    base = f"Player_{game.seat_of(nickname) + 1}"
    taken = {n.casefold() for n in game.nicknames if n != nickname} | _reserved(social)
    candidate, k = base, 2
    while candidate.casefold() in taken:
        candidate, k = f"{base}_{k}", k + 1
    return candidate


def hide(social: Social, player_uuids: dict[str, str], old: str, new: str) -> None:
    """The player called ``old`` (``player_uuids`` already names them ``new``) is hidden:
    remember who, and follow their new name through everything the table holds."""
    seats = hidden_seats(social, player_uuids)
    seats[seat_key(player_uuids[new])] = old
    social["hidden_seats"] = seats
    social.setdefault("hidden", {})[old] = new
    _rename_keys(social, old, new)


def forget(social: Social, nickname: str) -> None:
    """A player left the lobby: what they reported and were reported for goes with them
    (their nickname is free again; a hidden one stays unavailable at this table)."""
    social.get("reports", {}).pop(nickname, None)
    for reporters in social.get("reports", {}).values():
        if nickname in reporters:
            reporters.remove(nickname)
    social.get("sent", {}).pop(nickname, None)


def _rename_keys(social: Social, old: str, new: str) -> None:
    reports: dict[str, list[str]] = social.get("reports", {})
    if old in reports:
        reports[new] = reports.pop(old)
    for reporters in reports.values():
        reporters[:] = [new if r == old else r for r in reporters]
    sent: dict[str, list[float]] = social.get("sent", {})
    if old in sent:
        sent[new] = sent.pop(old)
    for entry in social.get("reactions", ()):
        if entry["nickname"] == old:
            entry["nickname"] = new


def rename_in_round(data: dict[str, Any], hidden: dict[str, str]) -> dict[str, Any]:
    """A stored round's record as it is shown now: hidden nicknames replaced (the record is
    stored as it was played; its deal depends on card counts only, not on names)."""
    if not hidden:
        return data

    def shown(name: Any) -> Any:
        return hidden.get(name, name) if isinstance(name, str) else name

    out = dict(data)
    out["players"] = [{**p, "nickname": shown(p["nickname"])} for p in data["players"]]
    out["hands"] = [{**h, "nickname": shown(h["nickname"])} for h in data["hands"]]
    out["history"] = [{**m, "player": shown(m["player"])} for m in data["history"]]
    out["loser"] = shown(data.get("loser"))
    if "rules" in data:
        out["rules"] = rename_in_rules(data["rules"], hidden)
    return out


def rename_in_rules(rules: dict[str, Any], hidden: dict[str, str]) -> dict[str, Any]:
    """The rules object (engine.rules.Rules.to_dict) with the hidden nicknames that
    ``initial_cards`` names shown as their aliases (``nick:count,...``)."""
    named = Rules.from_dict(rules)
    renamed = named
    for old, new in hidden.items():
        renamed = renamed.renamed(old, new)
    return rules if renamed is named else {**rules, **renamed.to_dict()}


def shown_names(names: Iterable[str], hidden: dict[str, str]) -> list[str]:
    """Nicknames as the table shows them now: each hidden one as its alias."""
    return [hidden.get(name, name) for name in names]
