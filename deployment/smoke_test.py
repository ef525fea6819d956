#!/usr/bin/env python3
"""Play one whole game against a running Blef service, through both forms of the API.

    .venv/bin/python deployment/smoke_test.py --url https://abc123.execute-api.eu-west-1.amazonaws.com

The established forms (GET with query parameters, as the iOS, Android and web clients call
them) and the POST forms (JSON bodies, ``Authorization: Bearer``) are mixed on purpose:

create (GET) -> join alice and bob (GET), carol (POST) -> make public (POST), again (GET:
"redundant") -> the game is listed -> CORS preflight -> start (POST; a second start by GET is
refused) -> conditional GET (ETag, 304) -> moves until the game is finished: alice and bob
play by GET, carol by POST with ``expected_version``; each plays the lowest legal bet, or
checks once the round has two bets -> every round's snapshot ends with the 89 event -> the
game record.

One line per step, a summary at the end; the first failure stops the run with a message and
exit status 1. Player UUIDs are never printed. Each run leaves one finished game behind,
which expires with the service's TTL.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

CHECK = 88
LOST_ROUND = 89
CORS_ORIGIN = "https://smoke-test.example"


class SmokeFailure(Exception):
    """A step went wrong; the message says which and how."""


@dataclass
class Player:
    nickname: str
    uuid: str
    via_post: bool
    """Plays (and reads its view) through the POST forms with a Bearer token."""


@dataclass
class Stats:
    requests: int = 0
    moves_get: int = 0
    moves_post: int = 0
    rounds: list[str] = field(default_factory=list)


class Smoke:
    def __init__(self, client: httpx.Client) -> None:
        self.client = client
        self.stats = Stats()

    # ------------------------------------------------------------------ plumbing

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        self.stats.requests += 1
        try:
            return self.client.request(method, path, params=params, json=json, headers=sent)
        except httpx.HTTPError as error:
            raise SmokeFailure(f"{method} {path}: {type(error).__name__}: {error}") from error

    def call(
        self,
        method: str,
        path: str,
        *,
        expect: int = 200,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        token: str | None = None,
    ) -> Any:
        """Send a request, insist on the status, return the JSON body."""
        response = self.request(method, path, params=params, json=json, token=token)
        if response.status_code != expect:
            raise SmokeFailure(
                f"{method} {path} answered {response.status_code}, expected {expect}: "
                f"{response.text[:500]}"
            )
        try:
            return response.json()
        except ValueError as error:
            raise SmokeFailure(
                f"{method} {path} did not answer JSON: {response.text[:200]}"
            ) from error

    # ------------------------------------------------------------------ the game

    def run(self, max_moves: int) -> None:
        started = time.perf_counter()
        game = self.call("GET", "/games/create")
        g = _text(game, "game_uuid", "create")
        step("create (GET)", f"game {g}")

        alice = Player("alice", self._join_get(g, "alice"), via_post=False)
        bob = Player("bob", self._join_get(g, "bob"), via_post=False)
        joined = self.call("POST", f"/games/{g}/join", json={"nickname": "carol"})
        carol = Player("carol", _text(joined, "player_uuid", "join carol"), via_post=True)
        players = {p.nickname: p for p in (alice, bob, carol)}
        step("join", "alice and bob (GET), carol (POST)")

        lobby = self.call("GET", f"/games/{g}", params={"player_uuid": alice.uuid})
        expect_equal(lobby.get("admin_nickname"), "alice", "the first to join is the admin")
        expect_equal(lobby.get("status"), "Not started", "status before the start")

        made = self.call("POST", f"/games/{g}/make-public", token=alice.uuid)
        expect_equal(made, {"message": "Game made public"}, "make-public (POST)")
        again = self.call("GET", f"/games/{g}/make-public", params={"admin_uuid": alice.uuid})
        expect_equal(
            again, {"message": "Request redundant - game already public"}, "make-public (GET)"
        )
        step("make public", "POST, then GET answers 'Request redundant'")

        entry = self._listed(g)
        if entry is None:
            raise SmokeFailure("GET /games: the public game is not listed")
        expect_equal(sorted(entry.get("players", [])), sorted(players), "listed players")
        step("list", f"room {entry.get('room')} listed with {', '.join(entry['players'])}")

        self._preflight(f"/games/{g}/play")
        step("CORS preflight", "OPTIONS answered with Access-Control-Allow-Origin")

        self.call("POST", f"/games/{g}/start", expect=202, token=alice.uuid)
        refused = self.call(
            "GET", f"/games/{g}/start", expect=403, params={"admin_uuid": alice.uuid}
        )
        expect_equal(refused.get("error"), "Game already started", "second start (GET)")
        state = self.call("GET", f"/games/{g}")
        expect_equal(state.get("status"), "Running", "status after the start")
        expect_equal(state.get("public"), "false", "a started game is private")
        if self._listed(g) is not None:
            raise SmokeFailure("GET /games: a started game is still listed")
        step("start (POST)", f"round {state.get('round_number')}, max cards {state['max_cards']}")

        self._conditional_get(g)
        step("conditional GET", "If-None-Match with the ETag answered 304")

        final = self._play_until_finished(g, players, max_moves)
        winners = [p["nickname"] for p in final["players"] if p["n_cards"] > 0]
        if len(winners) != 1:
            raise SmokeFailure(f"finished game has {len(winners)} players with cards: {winners}")
        expect_equal(final.get("cp_nickname"), None, "nobody's turn in a finished game")
        rounds = int(final["round_number"])
        moves = self.stats.moves_get + self.stats.moves_post
        step("play", f"finished after {rounds} rounds and {moves} moves; {winners[0]} won")

        for number in range(1, rounds + 1):
            snapshot = self.call("GET", f"/games/{g}", params={"round": number})
            history = snapshot.get("history") or []
            if not history or history[-1].get("action_id") != LOST_ROUND:
                raise SmokeFailure(f"round {number}'s snapshot does not end with an 89 event")
            if not snapshot.get("hands"):
                raise SmokeFailure(f"round {number}'s snapshot shows no hands")
        step("snapshots", f"rounds 1..{rounds} each end with the 89 event, hands shown")

        record = self.call("GET", f"/games/{g}/record")
        expect_equal(record.get("status"), "Finished", "record status")
        expect_equal(len(record.get("rounds", [])), rounds, "rounds in the record")
        if "winner" in record:
            expect_equal(record["winner"], winners[0], "the record's winner")
        step("record", f"{rounds} rounds")

        elapsed = time.perf_counter() - started
        print(
            f"PASS: game {g}: 3 players, {rounds} rounds, {moves} moves "
            f"({self.stats.moves_get} GET, {self.stats.moves_post} POST), winner {winners[0]}; "
            f"{self.stats.requests} requests in {elapsed:.1f} s"
        )

    def _join_get(self, g: str, nickname: str) -> str:
        joined = self.call("GET", f"/games/{g}/join", params={"nickname": nickname})
        return _text(joined, "player_uuid", f"join {nickname}")

    def _listed(self, g: str) -> dict[str, Any] | None:
        listing = self.call("GET", "/games")
        if not isinstance(listing, list):
            raise SmokeFailure(f"GET /games did not answer a list: {str(listing)[:200]}")
        return next((e for e in listing if e.get("game_uuid") == g), None)

    def _preflight(self, path: str) -> None:
        response = self.request(
            "OPTIONS",
            path,
            headers={
                "Origin": CORS_ORIGIN,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
            },
        )
        allowed = response.headers.get("access-control-allow-origin")
        if response.status_code >= 300 or allowed not in {"*", CORS_ORIGIN}:
            raise SmokeFailure(
                f"OPTIONS {path} answered {response.status_code} with "
                f"Access-Control-Allow-Origin {allowed!r}"
            )

    def _conditional_get(self, g: str) -> None:
        first = self.request("GET", f"/games/{g}")
        etag = first.headers.get("etag")
        if first.status_code != 200 or not etag:
            raise SmokeFailure(f"GET /games/{g} answered {first.status_code} without an ETag")
        second = self.request("GET", f"/games/{g}", headers={"If-None-Match": etag})
        if second.status_code != 304:
            raise SmokeFailure(f"GET /games/{g} with If-None-Match answered {second.status_code}")

    def _play_until_finished(
        self, g: str, players: Mapping[str, Player], max_moves: int
    ) -> dict[str, Any]:
        for _ in range(max_moves):
            state = self.call("GET", f"/games/{g}")
            if state.get("status") == "Finished":
                return dict(state)
            current = state.get("cp_nickname")
            if current not in players:
                raise SmokeFailure(f"round {state.get('round_number')}: whose turn? {current!r}")
            player = players[current]
            view = self._view(g, player)
            legal = view.get("legal_actions")
            if legal is None:  # the established service does not list them
                legal = legal_actions(view.get("history") or [])
            action = choose(legal, view.get("history") or [])
            after = self._play(g, player, action, view.get("version"))
            if action == CHECK:
                history = after.get("history") or []
                if not history or history[-1].get("action_id") != LOST_ROUND:
                    raise SmokeFailure(
                        f"round {state.get('round_number')}: the answer to a check does not "
                        "end with the 89 event"
                    )
                loser = history[-1].get("player")
                self.stats.rounds.append(str(loser))
                step(f"round {state.get('round_number')}", f"{loser} lost")
        raise SmokeFailure(f"the game did not finish within {max_moves} moves")

    def _view(self, g: str, player: Player) -> dict[str, Any]:
        if player.via_post:
            view = self.call("GET", f"/games/{g}", token=player.uuid)
        else:
            view = self.call("GET", f"/games/{g}", params={"player_uuid": player.uuid})
        hands = view.get("hands") or []
        if [h.get("nickname") for h in hands] != [player.nickname]:
            raise SmokeFailure(f"{player.nickname}'s view shows the hands of {hands!r}")
        return dict(view)

    def _play(self, g: str, player: Player, action: int, version: Any) -> dict[str, Any]:
        path = f"/games/{g}/play"
        if player.via_post:
            body: dict[str, Any] = {"action_id": action}
            if isinstance(version, int):
                body["expected_version"] = version
            self.stats.moves_post += 1
            return dict(self.call("POST", path, json=body, token=player.uuid))
        self.stats.moves_get += 1
        params = {"player_uuid": player.uuid, "action_id": action}
        return dict(self.call("GET", path, params=params))


def legal_actions(history: Sequence[Mapping[str, Any]]) -> list[int]:
    """The legal actions from a round's history (the bets after the last 89 event): every
    bet above the last one, and a check once there is a bet to check."""
    bets = _round_bets(history)
    if not bets:
        return list(range(CHECK))
    return [*range(bets[-1] + 1, CHECK), CHECK]


def choose(legal: Sequence[int], history: Sequence[Mapping[str, Any]]) -> int:
    """Check once the round has two bets (or nothing else is legal); else the lowest bet."""
    bets = [a for a in legal if a < CHECK]
    if CHECK in legal and (len(_round_bets(history)) >= 2 or not bets):
        return CHECK
    if not bets:
        raise SmokeFailure(f"no legal action to choose from: {list(legal)}")
    return min(bets)


def _round_bets(history: Sequence[Mapping[str, Any]]) -> list[int]:
    actions = [int(entry["action_id"]) for entry in history]
    if LOST_ROUND in actions:
        actions = actions[len(actions) - actions[::-1].index(LOST_ROUND) :]
    return [a for a in actions if a < CHECK]


def _text(body: Any, key: str, what: str) -> str:
    value = body.get(key) if isinstance(body, dict) else None
    if not isinstance(value, str) or not value:
        raise SmokeFailure(f"{what}: no {key!r} in the answer {str(body)[:200]}")
    return value


def expect_equal(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise SmokeFailure(f"{what}: expected {expected!r}, got {actual!r}")


def step(name: str, detail: str) -> None:
    print(f"ok  {name}: {detail}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one game against a Blef service.")
    parser.add_argument("--url", required=True, help="the service's base URL")
    parser.add_argument("--max-moves", type=int, default=2_000, help="give up after this many")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds per request")
    args = parser.parse_args(argv)

    base_url = args.url.rstrip("/")
    print(f"smoke test against {base_url}", flush=True)
    with httpx.Client(base_url=base_url, timeout=args.timeout) as client:
        smoke = Smoke(client)
        try:
            smoke.run(args.max_moves)
        except SmokeFailure as failure:
            print(f"FAIL: {failure}", file=sys.stderr, flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
