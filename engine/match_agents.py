"""The built-in computer players of a match (engine/match.py), by game kind.

Each game's agents are its own (``engine/economancy/agents``, ``engine/figgie/agents``);
this module only names them and asks one for a move at a table, from what its seat may see:

- an Economancy agent is shown its seat's protocol view (the course's state JSON) and
  answers a move;
- a Figgie agent is a tick agent of the research simulator (:mod:`engine.figgie.sim`): it
  is told its seat and first hand, then shown the market as its seat sees it at the tick the
  time of day falls in (trading's seconds mapped onto the simulator's 240 ticks) and
  answers an action number (no order for ``NO_OP``).

Agents are made afresh for every move from ``seed`` (the service draws one per move), so
nothing of an agent is stored between moves: an agent that reads the tape reads all of it.

>>> agent_names("economancy")
['greedy_attack', 'greedy_points', 'ours', 'planner', 'random']
>>> resolve("figgie", "ours")
'ours'
"""

from __future__ import annotations

import random
from typing import Any

from engine.match import Match


def agent_names(kind: str) -> list[str]:
    """The built-in agents of ``kind`` (aliases such as ``ours`` included), sorted."""
    if kind == "economancy":
        from engine.economancy.agents import AGENTS, ALIASES  # noqa: PLC0415 (on first use)

        return sorted([*AGENTS, *ALIASES])
    if kind == "figgie":
        from engine.figgie.agents import AGENTS as FIGGIE  # noqa: PLC0415 (on first use)

        return sorted(FIGGIE)
    return []


def resolve(kind: str, name: str) -> str:
    """The agent ``name`` names in ``kind``; ``KeyError`` naming the agents otherwise."""
    if kind == "economancy":
        from engine.economancy.agents import resolve_agent_name  # noqa: PLC0415

        return resolve_agent_name(name)
    if name not in agent_names(kind):
        known = ", ".join(agent_names(kind)) or "none"
        raise KeyError(f"no built-in agent called {name!r} for this game; known: {known}")
    return name


def choose(match: Match, seat: int, agent: str, seed: int, now: float) -> Any | None:
    """The move (the game's value, not JSON) the agent ``agent`` makes for ``seat`` now;
    None when it chooses to do nothing (a Figgie agent's ``NO_OP``)."""
    state: Any = match.state
    assert state is not None
    if match.kind == "economancy":
        from engine.economancy.agents import make_agent  # noqa: PLC0415

        rules = match.definition.rules_from_dict(match.rules)
        return make_agent(agent, seed, rules).choose(state.view(seat))
    if match.kind == "figgie":
        return _figgie(state, seat, agent, seed, now)
    raise KeyError(f"no built-in agents for {match.kind!r}")


def _figgie(state: Any, seat: int, agent: str, seed: int, now: float) -> Any | None:
    from engine.figgie.agents import make_agent  # noqa: PLC0415
    from engine.figgie.game import Order  # noqa: PLC0415
    from engine.figgie.market import ASK, BID  # noqa: PLC0415
    from engine.figgie.sim import NO_OP, TICKS, Observation, decode  # noqa: PLC0415

    player = make_agent(agent)
    player.reset(seat, state.n_seats, list(state.initial_hands[seat]), random.Random(seed))
    elapsed = (now - state.opened_at) / state.rules.trading_seconds
    tick = min(TICKS - 1, max(0, int(elapsed * TICKS)))
    action = player.act(Observation(state.market, seat, tick, TICKS))
    if action == NO_OP:
        return None
    kind, suit, price = decode(action)
    if kind is None:
        return None
    return Order(kind, suit, price if kind in (BID, ASK) else None)
