"""The JavaScript Figgie bot (examples/figgie/fair_value.js) trades at a table of a real
server on 127.0.0.1 through the routes every game shares, against the server's computer
players, until the server's clock ends the market; a bot in any language needs only HTTP."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.api.main import create_app
from app.cli.bridge import Table
from app.config.settings import Settings
from tests.support.served import served
from tests.support.waiting import eventually

BOT = Path(__file__).resolve().parents[2] / "examples" / "figgie" / "fair_value.js"
TRADING_SECONDS = 10
"""The market's length: the server's own clock ends it (4 s could leave a bot starved of CPU
on a loaded machine no time for the one order the test asks of it)."""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    settings = Settings(db_path=tmp_path / "served.db", run_clock=True, ai_think_seconds=0)
    with served(create_app(settings)) as address:
        yield f"http://{address}"


def test_the_javascript_bot_trades_until_the_market_closes_and_reads_its_place(
    server: str,
) -> None:
    host = Table(server, kind="figgie")
    created = host.call("POST", "/games", {"rules": {"trading_seconds": TRADING_SECONDS}})
    game = created["game_uuid"]
    host.join(game, "host")  # a person who never trades
    for agent in ("fairvalue", "conservative"):
        host.call("POST", f"/games/{game}/ai", {"agent": agent})
    bot = subprocess.Popen(
        ["node", str(BOT), server, game, "fv_js"], stdout=subprocess.PIPE, text=True
    )
    try:
        eventually(lambda: len(host.read(game)["seats"]) == 4, "the bot joining by itself")
        host.call("POST", f"/games/{game}/start", {})
        out, _ = bot.communicate(timeout=120)
    finally:
        bot.kill()
    assert bot.returncode == 0, out
    lines = out.strip().splitlines()
    orders = [line for line in lines[:-1] if line.startswith("200 ")]
    assert orders, f"the bot made no order the market took: {out}"
    final = json.loads(lines[-1])
    table = host.read(game)
    assert table["status"] == "Finished"
    assert final["result"] == table["result"]
    seat = [s["nickname"] for s in table["seats"]].index("fv_js")
    assert final["you"] == seat
    assert sum(table["view"]["chips"]) == 4 * 350  # the pot paid out, chips conserved
