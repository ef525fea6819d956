"""Time: what moves a game forward without a player's request.

An AI player's move after its think time, and the timeout of a player who lets their move
deadline pass, are decided here and applied through the service's one write path
(:meth:`app.service.GameService.change`), always conditionally on the version that was read,
so a duplicate or late trigger changes nothing. The engine stays timeless: it is told that
a player timed out (:meth:`engine.game.Game.time_out`), it never reads a clock.

- :mod:`app.clock.agenda`: when a game is next due, stamped on every write
  (``GameDoc.move_deadline`` and ``GameDoc.due_at``).
- :mod:`app.clock.core`: :class:`~app.clock.core.GameClock`, which acts on a due game.
- :mod:`app.clock.local`: the runner inside ``blef serve`` (a thread with an agenda rebuilt
  from the store on start, fed by the service's change notifications), which also purges
  expired games.
- :mod:`app.clock.aws`: the runners on AWS (the table's stream, an SQS delay queue, and a
  sweeper on a schedule).
"""
