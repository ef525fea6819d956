"""The bot arena: a referee that seats built-in agents and external programs at one table,
and a tournament harness that plays many such games in parallel and compares the players.

- :mod:`arena.specs`: what an AGENT argument means (a built-in name or ``exec:COMMAND``).
- :mod:`arena.process`: one external program, its pipes and its deadline.
- :mod:`arena.protocol`: the JSON lines exchanged with a program (see api_docs/bots.md).
- :mod:`arena.referee`: one game, with forfeits for programs that misbehave.
- :mod:`arena.tournament`: many games, seat rotation, parallel workers, the results.
- :mod:`arena.stats` and :mod:`arena.seats`: the pure helpers, unit-tested.

Nothing here runs at import time; the CLI imports these modules inside its commands.
"""
