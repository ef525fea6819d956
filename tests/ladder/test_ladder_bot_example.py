"""The ladder bot printed in api_docs/bots.md, run as written: the code block is taken from
the Markdown and run as separate programs against a server this test starts on 127.0.0.1
(``blef serve``'s app, its clock thread running the matcher), beside people this test plays
over HTTP from other loopback addresses. Every game is played to its end and rated once,
and the ratings recomputed here with OpenSkill from the stored results are the stored
ones."""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from app.ladder.service import Ladder
from tests.ladder.recompute import assert_ratings_recomputed
from tests.support.waiting import PATIENCE

ROOT = Path(__file__).resolve().parents[2]
POOL = "standard-2"
BOT_GAMES = 3


def example_bot() -> str:
    """The Python block under "A complete ladder bot" in api_docs/bots.md."""
    text = (ROOT / "api_docs" / "bots.md").read_text()
    section = text.split("## A complete ladder bot", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "no code block under 'A complete ladder bot'"
    return match.group(1)


class Person:
    """A person played by the test: their own loopback address, the events long-poll, a
    random legal move each turn; allows computer players after ``fill`` seconds."""

    def __init__(self, base: str, address: str, handle: str, fill: int | None, seed: int):
        transport = httpx.HTTPTransport(local_address=address)
        self.http = httpx.Client(base_url=base, transport=transport, timeout=40)
        self.rng = random.Random(seed)
        self.fill = fill
        made = self.http.post("/ladder/accounts", json={"handle": handle})
        assert made.status_code == 201, made.text
        self.headers = {"Authorization": f"Bearer {made.json()['secret']}"}
        self.games = 0
        self.errors: list[str] = []

    def queue(self) -> None:
        body: dict[str, Any] = {"pool": POOL}
        if self.fill is not None:
            body["fill_after"] = self.fill
        answer = self.http.post("/ladder/queue", json=body, headers=self.headers)
        assert answer.status_code == 200, answer.text

    def play(self, until: threading.Event) -> None:
        try:
            cursor = self.http.get("/ladder/events?wait=0", headers=self.headers).json()["cursor"]
            self.queue()
            seated = False
            while True:
                answer = self.http.get(
                    "/ladder/events", params={"after": cursor, "wait": 2}, headers=self.headers
                )
                assert answer.status_code == 200, answer.text
                cursor = answer.json()["cursor"]
                for event in answer.json()["events"]:
                    if event["type"] == "game_started":
                        seated = True
                    elif event["type"] == "your_turn":
                        action = self.rng.choice(event["state"]["legal_actions"])
                        self.http.post(
                            f"/games/{event['game_uuid']}/play",
                            json={"action_id": action, "expected_version": event["version"]},
                            headers={"Authorization": f"Bearer {event['player_uuid']}"},
                        )
                    elif event["type"] == "game_over":
                        seated = False
                        self.games += 1
                        if not until.is_set():
                            self.queue()
                if until.is_set() and not seated:
                    left = self.http.delete("/ladder/queue", headers=self.headers).json()
                    if left["state"] == "idle":
                        return
                    seated = left["state"] in ("seated", "forming")
        except Exception as error:  # reported by the test
            self.errors.append(repr(error))


def test_the_documented_bot_plays_rated_quick_play_games_to_the_end_beside_people(
    server: tuple[str, Ladder], tmp_path: Path
) -> None:
    base, ladder = server
    script = tmp_path / "ladder_bot.py"
    script.write_text(example_bot())
    bots = [
        subprocess.Popen(
            [sys.executable, str(script), base, handle, POOL, "100"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for handle in ("RoboOne", "RoboTwo")
    ]
    said: list[list[dict]] = [[], []]

    def read(index: int) -> None:
        stdout = bots[index].stdout
        assert stdout is not None
        for line in stdout:
            said[index].append(json.loads(line))

    readers = [threading.Thread(target=read, args=(i,), daemon=True) for i in range(2)]
    people = [
        Person(base, "127.0.0.2", "Ania", fill=1, seed=1),
        Person(base, "127.0.0.3", "Bolek", fill=None, seed=2),
    ]
    done = threading.Event()
    threads = [threading.Thread(target=p.play, args=(done,)) for p in people]
    for thread in [*readers, *threads]:
        thread.start()
    deadline = time.monotonic() + 300
    try:
        # Each bot plays on (and so keeps the other company) until both have told
        # BOT_GAMES games over; then they are stopped.
        while min(len(s) for s in said) < BOT_GAMES and time.monotonic() < deadline:
            assert all(bot.poll() is None for bot in bots), [
                b.stderr.read() for b in bots if b.stderr
            ]
            time.sleep(0.2)
    finally:
        done.set()
        for bot in bots:
            bot.kill()
            bot.wait(30)
        for thread in threads:
            thread.join(60)
    for overs in said:
        assert len(overs) >= BOT_GAMES
        assert all(o["type"] == "game_over" and o["place"] in (1, 2) for o in overs), overs
    # A stopped bot's game (if it was at one) ends as its resignation.
    for table in ladder.store.open_tables():
        for seat in table.seats:
            account = ladder.store.account(seat.account_id)
            if account is not None and account.bot and seat.player_uuid and table.game_uuid:
                with contextlib.suppress(Exception):  # out already, or the game is over
                    ladder.games.resign(table.game_uuid, seat.player_uuid)
    assert [p.errors for p in people] == [[], []]

    # Every table formed was played to its end and settled once; the bots' games are rated.
    deadline = time.monotonic() + PATIENCE
    while ladder.store.open_tables() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ladder.store.open_tables() == []
    results = ladder.store.results(POOL)
    assert len({r.table_id for r in results}) == len(results)
    handles = {c.handle for r in results for c in r.changes}
    for handle in ("RoboOne", "RoboTwo"):
        account = ladder.store.account_by_handle(handle.casefold())
        assert account is not None and account.bot
        rated = [r for r in results if any(c.account_id == account.account_id for c in r.changes)]
        assert len(rated) >= BOT_GAMES
    assert {"RoboOne", "RoboTwo"} <= handles
    board = httpx.get(f"{base}/ladder/leaderboard/{POOL}").json()["players"]
    assert {row["handle"]: row["bot"] for row in board}["RoboOne"] is True
    assert all(row["bot"] is False for row in board if row["handle"] in ("Ania", "Bolek"))
    assert_ratings_recomputed(ladder.store, POOL)
