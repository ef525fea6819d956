"""``blef play economancy URL PROGRAM``: a course player program at a table of the service.

The bridge joins a table (``--game UUID``; without it, it creates one and prints its UUID for
the others to join), then polls the table with its seat's secret. Whenever it is its seat's
turn it writes the seat's ``view`` (the course protocol's state JSON) to the program's
standard input, reads one move (one JSON value) from its standard output, and posts it. At
the end it sends the program the end state, closes its input and stops it. The program is
run as the course referee runs it (arena/economancy/referee.py's :class:`ProgramPlayer`:
the same pipes, value reader, time limit and fault reasons).

It speaks only HTTP (the standard library's client), as any bot in any language would:
``POST /economancy/games``, ``/join``, ``GET /economancy/games/{uuid}``, ``/move``.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
import urllib.error
import urllib.request
from typing import Annotated, Any

import typer

POLL_SECONDS = 0.2


class TableError(RuntimeError):
    """The service refused a request: its status, code and sentence."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.code = str(body.get("code", ""))
        super().__init__(f"{status} {self.code}: {body.get('error', body)}")


class Table:
    """The HTTP calls a seat makes at a table of ``kind`` on the service at ``base``."""

    def __init__(self, base: str, kind: str = "economancy") -> None:
        self.base = base.rstrip("/")
        self.kind = kind
        self.secret: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}/{self.kind}{path}", data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.secret is not None:
            request.add_header("Authorization", f"Bearer {self.secret}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            try:
                detail = json.loads(error.read())
            except ValueError:
                detail = {"error": str(error)}
            raise TableError(error.code, detail) from None

    def create(self) -> str:
        return str(self.call("POST", "/games", {})["game_uuid"])

    def join(self, game: str, nickname: str) -> int:
        joined = self.call("POST", f"/games/{game}/join", {"nickname": nickname})
        self.secret = str(joined["player_uuid"])
        return int(joined["seat"])

    def read(self, game: str) -> dict[str, Any]:
        body: dict[str, Any] = self.call("GET", f"/games/{game}")
        return body

    def move(self, game: str, move: Any) -> dict[str, Any]:
        body: dict[str, Any] = self.call("POST", f"/games/{game}/move", move)
        return body


def bridge(
    url: str,
    program: str,
    game: str | None,
    nickname: str,
    *,
    time_limit: float = 10.0,
    startup_time: float = 5.0,
    poll: float = POLL_SECONDS,
    agents: tuple[str, ...] = (),
    out: Any = None,
) -> dict[str, Any]:
    """Play the table ``game`` (a new one when None) with ``program``; returns the last
    table body (finished, or as it stood when the program faulted). At a table it created,
    the bridge is the admin: it seats the built-in ``agents`` and starts the game."""
    from arena.economancy.referee import ProgramPlayer  # noqa: PLC0415 (the arena, on use)

    out = sys.stdout if out is None else out

    table = Table(url)
    if game is None:
        game = table.create()
        print(f"created table {game}", file=out, flush=True)
    seat = table.join(game, nickname)
    print(f"joined table {game} as {nickname} (seat {seat})", file=out, flush=True)
    for agent in agents:
        table.call("POST", f"/games/{game}/ai", {"agent": agent})
    if agents:
        table.call("POST", f"/games/{game}/start", {})
    player = ProgramPlayer(shlex.split(program), time_limit, startup_time)
    player.start()
    answered = -1
    try:
        while True:
            body = table.read(game)
            if body["status"] == "Finished":
                view = body["view"]
                player.tell_end(json.dumps(view), view)
                print(f"finished: {json.dumps(body['result'])}", file=out, flush=True)
                return body
            if body["your_turn"] and body["version"] != answered:
                view = body["view"]
                answer = player.ask(json.dumps(view, separators=(",", ":")), view)
                if answer.reason is not None:
                    print(f"the program faulted ({answer.reason}): {answer.detail}", file=out)
                    return body
                answered = body["version"]
                try:
                    table.move(game, answer.value)
                except TableError as refusal:
                    print(f"move {json.dumps(answer.value)} refused: {refusal}", file=out)
                    if refusal.status == 422:
                        return body
                continue
            time.sleep(poll)
    finally:
        player.finish()
        player.close(1.0)


def register(cli: typer.Typer) -> None:
    """Add ``blef play economancy URL PROGRAM``."""
    play = typer.Typer(name="play", help="Play at a table of the service with a program.")

    @play.command("economancy")
    def economancy(
        url: Annotated[str, typer.Argument(help="The service, e.g. http://127.0.0.1:8000")],
        program: Annotated[str, typer.Argument(help="The player program's command line")],
        game: Annotated[
            str | None, typer.Option("--game", help="The table to join (default: a new one)")
        ] = None,
        nickname: Annotated[str, typer.Option("--nickname", help="The seat's name")] = "Program",
        time_limit: Annotated[
            float, typer.Option("--time-limit", min=0.001, help="Seconds per move")
        ] = 10.0,
        ai: Annotated[
            list[str] | None,
            typer.Option("--ai", help="At a new table: seat this built-in agent, then start"),
        ] = None,
    ) -> None:
        """Join (or create) an Economancy table and let PROGRAM choose each move."""
        agents = tuple(ai or ())
        if agents and game is not None:
            typer.echo("--ai seats computer players only at a table the bridge creates", err=True)
            raise typer.Exit(2)
        try:
            body = bridge(url, program, game, nickname, time_limit=time_limit, agents=agents)
        except TableError as refusal:
            typer.echo(f"the service refused: {refusal}", err=True)
            raise typer.Exit(1) from None
        if body["status"] != "Finished":
            raise typer.Exit(1)

    cli.add_typer(play)
