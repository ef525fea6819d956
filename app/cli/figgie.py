"""``blef referee figgie`` and ``blef tournament figgie``: Figgie on the research simulator.

The simulator and the arena are imported inside the commands, so building the CLI stays
cheap.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated

import typer

AGENT_HELP = (
    "A built-in Figgie agent: random, fairvalue, conservative, marketmaker, bayesian, ours."
)
Agents = Annotated[list[str], typer.Argument(help=AGENT_HELP, show_default=False, metavar="AGENT")]


def _check_agents(names: list[str]) -> None:
    from engine.figgie.agents import AGENTS  # noqa: PLC0415

    for name in names:
        if name not in AGENTS:
            raise typer.BadParameter(
                f"no Figgie agent {name!r}: the agents are {', '.join(AGENTS)}",
                param_hint="AGENT",
            )


def referee(
    agents: Agents,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed of the tournament (default: a random one).")
    ] = None,
    game: Annotated[int, typer.Option(min=0, help="Play this game of the tournament.")] = 0,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the game to this JSON file.")
    ] = None,
) -> None:
    """Play one Figgie game between 4 or 5 AGENTs (seat order) on the simulator; print it.

    The game is game --game of a tournament seeded --seed with these agents, seats fixed.
    """
    from arena.figgie.referee import referee as play_one  # noqa: PLC0415
    from arena.figgie.referee import render  # noqa: PLC0415
    from arena.figgie.tournament import FiggieTournament  # noqa: PLC0415

    _check_agents(agents)
    if len(agents) not in (4, 5):
        raise typer.BadParameter("Figgie needs 4 or 5 agents", param_hint="AGENT")
    seed = secrets.randbelow(2**32) if seed is None else seed
    config = FiggieTournament(tuple(agents), game + 1, seed, len(agents), "fixed")
    played = play_one(agents, config.game_seed(game))
    typer.echo(render(played))
    typer.echo(f"Replay: --seed {seed} --game {game}")
    if json_path is not None:
        json_path.write_text(json.dumps(played, indent=1) + "\n", encoding="utf-8")


def tournament(
    agents: Agents,
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 1000,
    players: Annotated[
        int | None, typer.Option(min=4, max=5, help="Players a game (default: one per AGENT).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed of the tournament (default: a random one).")
    ] = None,
    seats: Annotated[
        str, typer.Option(help="rotate: seat j of game k to AGENT (j + k) mod A; fixed: j mod A.")
    ] = "rotate",
    jobs: Annotated[int, typer.Option(min=1, help="Processes playing games in parallel.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(help="Directory: games appended to games.jsonl; a re-run resumes."),
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the figures to this JSON file.")
    ] = None,
    markdown: Annotated[
        Path | None, typer.Option(help="Also write the table, in Markdown, to this file.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play GAMES Figgie games between AGENTs on the simulator: mean profit and win rate
    per entry with 95 % intervals (a tie for the most chips is a win for each tied seat)."""
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from arena.figgie.tournament import FiggieTournament, markdown_table, run  # noqa: PLC0415

    _check_agents(agents)
    players = players if players is not None else len(agents)
    if players not in (4, 5):
        raise typer.BadParameter("give --players 4 or 5", param_hint="--players")
    seed = secrets.randbelow(2**32) if seed is None else seed
    try:
        config = FiggieTournament(tuple(agents), games, seed, players, seats)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    with Progress(console=Console(stderr=True), disable=quiet, transient=True) as progress:
        task = progress.add_task("games", total=games)
        try:
            result = run(
                config, jobs=jobs, out=out, on_progress=lambda n: progress.advance(task, n)
            )
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--out") from None
    table = Table(title=f"Figgie: {games} games, {players} players, seats {seats}")
    for column in ("entry", "seats", "mean profit", "95 % interval", "win rate", "95 % interval"):
        table.add_column(column, justify="left" if column == "entry" else "right")
    for entry in result.entries:
        low, high = entry.profit_interval
        win_low, win_high = entry.win_interval
        table.add_row(
            entry.entry,
            str(entry.seats),
            f"{entry.mean_profit:+.2f}",
            f"{low:+.2f} .. {high:+.2f}",
            f"{entry.win_rate:.1%}",
            f"{win_low:.1%} .. {win_high:.1%}",
        )
    console = Console(width=max(Console().width, 110))
    console.print(table)
    console.print(
        f"Seed {seed}; {result.played} games played in {result.elapsed_s:.1f} s with {jobs} "
        "job(s); a tie for the most chips counts as a win for each tied seat.",
        style="dim",
    )
    if json_path is not None:
        json_path.write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    if markdown is not None:
        markdown.write_text(markdown_table(result), encoding="utf-8")


def register(referees: typer.Typer, tournaments: typer.Typer) -> None:
    """Add ``figgie`` to ``blef referee`` and ``blef tournament``."""
    referees.command("figgie")(referee)
    tournaments.command("figgie")(tournament)
