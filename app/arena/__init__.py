"""The bot arena: a referee that seats built-in agents and external programs at one table,
and a tournament harness that plays many such games in parallel and compares the players.

- :mod:`app.arena.specs`: what an AGENT argument means (a built-in name or ``exec:COMMAND``).
- :mod:`app.arena.process`: one external program, its pipes and its deadline.
- :mod:`app.arena.protocol`: the JSON lines exchanged with a program (see api_docs/bots.md).
- :mod:`app.arena.referee`: one game, with forfeits for programs that misbehave.
- :mod:`app.arena.tournament`: many games, seat rotation, parallel workers, the results.
- :mod:`app.arena.stats` and :mod:`app.arena.seats`: the pure helpers, unit-tested.

Nothing here runs at import time; the CLI imports these modules inside its commands.
"""
