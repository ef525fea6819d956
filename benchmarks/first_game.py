"""What a first game against the computer takes in the browser client: clicks and minutes.

A scripted newcomer opens the page in Debian's chromium (a phone, 390x844, and a desktop,
1280x800), types a name, presses "Play now against the computer" (two computer players),
and plays to the game-over screen: on each turn it presses Check when the standing bet
looks high (past a pair) and otherwise Bet on the bet the picker offers; it presses
Continue on every reveal. It counts every press and key it makes, and the wall-clock time
(which includes the computer players' think time, ``--think`` seconds per move, as on the
deployed service). A person reads and thinks too: these are the least a first game asks.

    .venv/bin/python benchmarks/first_game.py [--games 3] [--think 1.0]

Prints one JSON line per viewport: median clicks, rounds and minutes over the games, with
the conditions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conditions import conditions

from benchmarks.load import Server

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def one_game(browser: Any, base: str, width: int, height: int, name: str) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    page = context.new_page()
    started = time.monotonic()
    page.goto(base + "/")
    page.get_by_label("Your name").fill(name)
    clicks = 1  # the name, typed
    page.locator("#play-now").click()
    clicks += 1
    rounds = 0
    while not page.locator("#winner").is_visible():
        box = page.locator("#reveal")
        if box.is_visible():
            box.get_by_role("button", name="Continue").click()
            clicks += 1
            rounds += 1
            continue
        check, bet = page.locator("#check-button"), page.locator("#bet-button")
        try:
            if check.is_visible() and "pair" not in check.inner_text().lower():
                check.click(timeout=2000)
                clicks += 1
            elif bet.is_visible():
                bet.click(timeout=2000)
                clicks += 1
            else:
                page.wait_for_timeout(100)
        except Exception:  # the page moved on (a new state) before the press
            page.wait_for_timeout(100)
    minutes = (time.monotonic() - started) / 60
    context.close()
    return {"clicks": clicks, "rounds": rounds, "minutes": minutes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--think", type=float, default=1.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    results = []
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "blef.db"
        env = {"BLEF_DB_PATH": str(db), "BLEF_AI_THINK_SECONDS": str(args.think)}
        with Server(db, Path(where) / "serve.log", env=env) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for label, (width, height) in {"phone": (390, 844), "desktop": (1280, 800)}.items():
                games = [one_game(browser, server.url, width, height, f"Newcomer{i}")
                         for i in range(args.games)]  # fmt: skip
                results.append(
                    {
                        "viewport": label,
                        "games": args.games,
                        "think_seconds": args.think,
                        "median_clicks": statistics.median(g["clicks"] for g in games),
                        "median_rounds": statistics.median(g["rounds"] for g in games),
                        "median_minutes": round(statistics.median(g["minutes"] for g in games), 2),
                        "clicks_per_round": round(
                            statistics.median(g["clicks"] / max(1, g["rounds"]) for g in games), 1
                        ),
                    }
                )
            browser.close()
    for result in results:
        print(json.dumps({**result, **conditions(load_before)}))


if __name__ == "__main__":
    main()
