"""The clock's runners: what wakes a game when it is due, and nothing more.

When a game is due is decided by the service at every change (app/service/timing.py), and
what happens then (an AI player's move, a timeout) is a use case of the service
(app/service/due.py), applied through its one write path conditionally on the version the
runner was told about. The runners only call :meth:`~app.service.due.WhenDue.advance` at the
right time:

- :mod:`app.clock.local`: the runner inside ``blef serve`` (a thread with an agenda rebuilt
  from the store on start, fed by the service's change notifications), which also purges
  expired games.
- :mod:`app.clock.aws`: the runners on AWS (the table's stream, an SQS delay queue, and a
  sweeper on a schedule).
"""
