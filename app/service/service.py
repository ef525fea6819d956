"""The Blef service: every use case, by area, over one store and one write path.

======================  ===============================================================
area                    use cases
======================  ===============================================================
app/service/lobby.py    create_game (and join), join, invite_ai, set_public,
                        set_time_limit, change_rules, start
app/service/rematch.py  rematch (the next game of a finished game's table)
app/service/moving.py   move_seat (a seat taken to another device: a fresh UUID, the
                        old one retired)
app/service/table.py    leave, remove_player, remove_by, resign, set_ready,
                        set_readiness, set_team, set_auto_start, set_max_cards, react,
                        report
app/service/play.py     play
app/service/reading.py  viewer, state, list_public, list_public_page, record, odds
app/service/due.py      advance, sweep (what time does: AI moves, timeouts)
app/service/matches.py  tables of any other game: game_info, list_tables, table,
                        create_table, join_table, leave_table, ready_table,
                        start_table, seat_agent, remove_from_table, move
app/service/match_social.py  rematch_table, react_table, report_table (at those tables)
app/service/match_due.py  advance_match (what time does at those tables)
app/service/blef_tables.py  the same verbs for Blef at ``/blef/games/...``, mapped onto
                        the use cases above (a game made there is the same at /games)
======================  ===============================================================

Every change goes through app/service/writes.py. The service takes and returns plain values;
it knows nothing of HTTP, websockets or the clock's runners, which call it.

AI players never move inside a human's request: each AI move is its own change, made when
the clock wakes the game after the AI's think time, so that every move and every round's end
is its own version that clients see.
"""

from __future__ import annotations

from app.service.blef_tables import BlefTables
from app.service.due import WhenDue
from app.service.lobby import Lobby
from app.service.matches import Matches
from app.service.moving import Moving
from app.service.play import Play
from app.service.reading import Reading
from app.service.rematch import Rematch
from app.service.table import Table


class GameService(BlefTables, Lobby, Rematch, Moving, Table, Play, Reading, WhenDue, Matches):
    """The use cases of every area (see the module docstring); built with a store and the
    settings, and ``clock``, ``new_uuid``, ``seed_source``, ``agent_factory`` for tests."""
