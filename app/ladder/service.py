"""The ladder's use cases, by area, over one store (app/ladder/store.py): accounts, the
quick-play queue and its matcher, rated results, leaderboards and profiles, bots. Plain
values in and out, over a :class:`LadderStore` and the game service's public use cases
(create, change the rules, join, start, the record of a finished game); it knows nothing of
HTTP.

==============================  ==========================================================
area                            use cases
==============================  ==========================================================
app/ladder/accounts.py          create_account, me, new_device_secret, delete_account
app/ladder/passkeys.py          the passkey ceremonies (a class of its own over a Ladder)
app/ladder/queue.py             join_queue, leave_queue, queue_status, match, tick,
                                drop_absent, call_off_absent, awaiting_arrival,
                                release_stale, longest_wait, reserve_look
app/ladder/results.py           notice, settle, settle_finished, settle_game, leaderboard,
                                profile
app/ladder/bots_and_events.py   become_bot, levels, events
==============================  ==========================================================

The matcher (:meth:`~app.ladder.queue.Queue.match`) forms a table when enough accounts
wait in a pool within a rating window that widens the longer they wait;
:meth:`~app.ladder.results.Results.settle` applies a finished rated game's result once.
``blef serve``'s clock thread calls :meth:`~app.ladder.queue.Queue.tick` (both, for every
pool); tests call them directly.
"""

from __future__ import annotations

from app.ladder.accounts import Accounts
from app.ladder.base import secret_hash
from app.ladder.bots_and_events import BotsAndEvents
from app.ladder.pools import BY_NAME
from app.ladder.queue import Queue, pick_table
from app.ladder.results import Results


class Ladder(Accounts, Queue, Results, BotsAndEvents):
    """The ladder's use cases of every area (see the module docstring); built with a store
    and the game service, and ``clock``, ``new_id``, ``new_secret`` for tests."""


__all__ = ["BY_NAME", "Ladder", "pick_table", "secret_hash"]
