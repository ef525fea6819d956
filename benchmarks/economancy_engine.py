"""Economancy engine benchmark: whole random games per CPU second, the engine against a
lean loop of the same rules.

Both sides play the same games: seats choose uniformly among their legal moves (listed in
the same order on both sides), asked in the same order, from the same seeded random
numbers, so each game ends the same way (checked before timing on 150 games, and by
tests/economancy/test_lean_loop.py: the winner, the day count and every seat's final coins
and cards must agree).

- **engine**: :meth:`GAME.setup`, then ``to_act()``, ``legal_moves()`` and ``apply()``
  (every move validated, events made, the protocol's turns kept) until the game is over;
- **lean**: :func:`lean_game`, the same rules written as one function over bare lists
  (no validation, no events, no views), the floor a hand-written simulation reaches.

``--rounds`` rounds of ``--games`` games of each table size (2, 3, 4 players, base card
set), each game played on both sides one after the other in a shuffled order (so both see
the same machine load, moment by moment), each side's CPU time summed; it prints each
round's ratio of games per CPU second (engine / lean), their median and range, and the
conditions (load average before and after).

    .venv/bin/python benchmarks/economancy_engine.py [--rounds 7] [--games 300]

``--split`` says instead where the engine side's time goes (see :func:`split`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

from engine.economancy import GAME, EconomancyRules  # noqa: E402
from engine.economancy.cards import CARDS  # noqa: E402

COST = [c.cost or 0 for c in CARDS]
ATK = {b: [b if c.name == "Bubble" else c.attack for c in CARDS] for b in (9, 5)}
DEF = [c.defence for c in CARDS]
PTS = [c.points for c in CARDS]
NATK = [c.attacks for c in CARDS]
NDEF = [c.defends for c in CARDS]
INCOME = [[c.income[d] for c in CARDS] for d in range(3)]
BEAN = [c.bean for c in CARDS]
EXTRA = [c.day3_buys for c in CARDS]
GREED = [c.coins_per_defence for c in CARDS]
PER = [c.per_player for c in CARDS]


Outcome = tuple[int | None, int, list[int], list[list[int]]]
"""How a game ended: the winner (None: a draw), the day count, every seat's coins and
cards (card kinds in army order)."""


def engine_game(seed: int, n: int, rules: EconomancyRules) -> Outcome:
    draw = random.Random(seed).random
    state = GAME.setup(rules, n)
    while not state.over:
        seat = state.to_act()[0]
        moves = state.legal_moves(seat)
        state.apply(seat, moves[int(draw() * len(moves))])
    return state.winner, state.day_count, state.coins, state.cards


def lean_game(
    seed: int, n: int, kinds: tuple[int, ...], day_limit: int, bubble_attack: int = 9
) -> Outcome:
    """The same random game on bare lists (see the module docstring)."""
    draw = random.Random(seed).random
    atk = ATK[bubble_attack]
    shop = {k: PER[k] * n for k in kinds}
    coins = [1] * n
    buys = [0] * n
    cards = [[0] for _ in range(n)]
    uses = [[0] for _ in range(n)]
    day = 1

    def winner() -> int | None:
        alive = [s for s in range(n) if cards[s]]
        if len(alive) == 1:
            return alive[0]
        pts = [sum(PTS[k] for k in cards[s]) for s in alive]
        top = max(pts)
        if top >= 7 and pts.count(top) == 1:
            return alive[pts.index(top)]
        return None

    while True:
        d = (day - 1) % 3
        for s in range(n):
            if cards[s]:
                c, b = coins[s], 1
                for k in cards[s]:
                    c += INCOME[d][k]
                    if BEAN[k]:
                        c += c // 3
                    if d == 2:
                        b += EXTRA[k]
                coins[s], buys[s] = c, b
        bids = {}
        for s in range(n):
            if cards[s]:
                bids[s] = int(draw() * (coins[s] + 1))
        for s, b in bids.items():
            coins[s] -= b
        top = max(bids.values())
        leaders = [s for s, b in bids.items() if b == top]
        if len(leaders) == 1:
            a = leaders[0]
            while True:
                opts = [i for i, k in enumerate(cards[a]) if uses[a][i] < NATK[k]]
                if not opts:
                    break
                opts.insert(0, 0)
                i = opts[int(draw() * len(opts))]
                if i == 0:
                    break
                uses[a][i] += 1
                kind = cards[a][i]
                picks = {}
                for s in range(n):
                    if s != a and cards[s]:
                        usable = [j for j, k in enumerate(cards[s]) if uses[s][j] < NDEF[k]]
                        if usable:
                            picks[s] = usable[int(draw() * len(usable))]
                faints = False
                fallen = []
                for s, j in picks.items():
                    k = cards[s][j]
                    uses[s][j] += 1
                    coins[s] += GREED[k]
                    if atk[k] > DEF[kind]:
                        faints = True
                    if atk[kind] > DEF[k]:
                        fallen.append((s, j))
                for s, j in fallen:
                    del cards[s][j]
                    del uses[s][j]
                for s in range(n):
                    if s != a and cards[s] and s not in picks:
                        cards[s], uses[s], coins[s], buys[s] = [], [], 0, 0
                if faints:
                    del cards[a][i]
                    del uses[a][i]
                w = winner()
                if w is not None:
                    return w, day, coins, cards
            for u in uses:
                u[:] = [0] * len(u)
        while True:
            buyers = [s for s in range(n) if cards[s] and buys[s] > 0]
            if not buyers:
                break
            wanted: dict[int, list[int]] = {}
            for s in buyers:
                opts = [-1, *(k for k in shop if COST[k] <= coins[s])]
                k = opts[int(draw() * len(opts))]
                buys[s] -= 1
                if k >= 0:
                    coins[s] -= COST[k]
                    wanted.setdefault(k, []).append(s)
            for k, who in wanted.items():
                if len(who) <= shop[k]:
                    shop[k] -= len(who)
                    for s in who:
                        cards[s].append(k)
                        uses[s].append(0)
                else:
                    shop[k] = 0
            w = winner()
            if w is not None:
                return w, day, coins, cards
        if day >= day_limit:
            return None, day, coins, cards
        day += 1


class _Stub:
    """A state that does no work, asked as :func:`engine_game` asks (for ``--split``)."""

    __slots__ = ("asked", "left")

    def __init__(self, moves: int) -> None:
        self.asked, self.left = (0,), moves

    @property
    def over(self) -> bool:
        return self.left <= 0

    def to_act(self) -> tuple[int, ...]:
        return self.asked

    def legal_moves(self, seat: int) -> list[int]:
        return [] if seat not in self.asked else [0, 1, 2]

    def apply(self, seat: int, move: int) -> list[None]:
        self.left -= 1
        return [None]


def split(rounds: int, games: int, rules: EconomancyRules) -> dict[str, float]:
    """Where the engine side's time goes, on the same games: the whole of
    :func:`engine_game`; only ``apply`` (the recorded moves replayed), with and without
    validation (``apply_checked``); the asking alone (:class:`_Stub`, as many moves);
    the lean loop. Median microseconds of CPU a game over ``rounds``."""
    played = []
    for n in (2, 3, 4):
        for seed in range(games):
            draw, state, moves = random.Random(seed).random, GAME.setup(rules, n), []
            while not state.over:
                seat = state.to_act()[0]
                legal = state.legal_moves(seat)
                moves.append((seat, legal[int(draw() * len(legal))]))
                state.apply(*moves[-1])
            played.append((n, seed, moves))

    def whole() -> None:
        for n, seed, _ in played:
            engine_game(seed, n, rules)

    def replay() -> None:
        for n, _, moves in played:
            state = GAME.setup(rules, n)
            for seat, move in moves:
                state.apply(seat, move)

    def unchecked() -> None:
        for n, _, moves in played:
            state = GAME.setup(rules, n)
            for seat, move in moves:
                state.apply_checked(seat, move)

    def asking() -> None:
        for _, seed, moves in played:
            draw, stub = random.Random(seed).random, _Stub(len(moves))
            while not stub.over:
                seat = stub.to_act()[0]
                legal = stub.legal_moves(seat)
                stub.apply(seat, legal[int(draw() * len(legal))])

    def lean() -> None:
        for n, seed, _ in played:
            lean_game(seed, n, rules.shop_kinds, rules.day_limit)

    parts = {"whole": whole, "apply": replay, "apply_unchecked": unchecked}
    parts |= {"asking_stub": asking, "lean": lean}
    spent: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(rounds):
        for name, part in parts.items():
            start = time.process_time()
            part()
            spent[name].append((time.process_time() - start) / len(played) * 1e6)
    return {name: round(statistics.median(us), 1) for name, us in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--split", action="store_true", help="where the engine's time goes")
    args = parser.parse_args()
    load = os.getloadavg()
    rules = EconomancyRules()
    if args.split:
        figures = split(args.rounds, args.games, rules)
        print("median us of CPU a game:", json.dumps(figures))
        print(json.dumps({"us_per_game": figures, "conditions": conditions(load)}))
        return
    sides = {
        "engine": lambda seed, n: engine_game(seed, n, rules),
        "lean": lambda seed, n: lean_game(seed, n, rules.shop_kinds, rules.day_limit),
    }
    for n in (2, 3, 4):  # the same games on both sides
        for seed in range(50):
            assert sides["engine"](seed, n) == sides["lean"](seed, n), (seed, n)
    order = random.Random(1)
    clock = time.process_time
    ratios = []
    rates: dict[str, list[float]] = {"engine": [], "lean": []}
    for _ in range(args.rounds):
        spent = {"engine": 0.0, "lean": 0.0}
        for n in (2, 3, 4):
            for seed in range(args.games):  # each game on both sides, in a random order
                names = list(sides)
                order.shuffle(names)
                for name in names:
                    start = clock()
                    sides[name](seed, n)
                    spent[name] += clock() - start
        rate = {name: 3 * args.games / spent[name] for name in sides}
        for name in sides:
            rates[name].append(rate[name])
        ratios.append(rate["engine"] / rate["lean"])
        print(
            f"engine {rate['engine']:8.0f} games/CPU s, lean {rate['lean']:8.0f}: "
            f"ratio {ratios[-1]:.2f}"
        )
    summary = {
        "games_per_side_per_round": 3 * args.games,
        "rounds": args.rounds,
        "median_engine_games_per_cpu_s": round(statistics.median(rates["engine"])),
        "median_lean_games_per_cpu_s": round(statistics.median(rates["lean"])),
        "median_ratio": round(statistics.median(ratios), 3),
        "min_ratio": round(min(ratios), 3),
        "max_ratio": round(max(ratios), 3),
        "conditions": conditions(load),
    }
    print(f"median ratio engine/lean: {summary['median_ratio']} (goal >= 0.8)")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
