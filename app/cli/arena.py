"""``blef referee`` and ``blef tournament``: the bot arena on the command line.

The arena modules are imported inside the commands, so building the CLI stays cheap.
"""

from __future__ import annotations

import importlib
import json
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from arena.specs import AgentSpec
    from engine.rules import Rules

AGENT_HELP = (
    "A built-in agent name (e.g. random), or exec:COMMAND for an external program speaking "
    "the protocol of api_docs/bots.md; optionally prefixed with LABEL= to name it."
)

Agents = Annotated[list[str], typer.Argument(help=AGENT_HELP, show_default=False, metavar="AGENT")]
TimeLimit = Annotated[
    float,
    typer.Option("--time-limit", min=0.001, help="Seconds an external program has per move."),
]
StartupTime = Annotated[
    float,
    typer.Option(
        "--startup-time", min=0.0, help="Extra seconds for a program's first move (start-up)."
    ),
]
JsonPath = Annotated[
    Path | None, typer.Option("--json", help="Also write the results to this JSON file.")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")]
RulesText = Annotated[
    str,
    typer.Option(
        "--rules",
        help=(
            "The variant: comma-separated key=value of deck (24 or 32), jokers, blanks "
            "(0..12), common (0..12, growing, slowly_growing), max (0..11), initial (1..11 "
            "or random); e.g. deck=32,jokers=1,common=2. Default: the classic game."
        ),
    ),
]


def _parse_agents(texts: list[str]) -> list[AgentSpec]:
    from arena.specs import AgentSpecError, parse_agent  # noqa: PLC0415

    try:
        return [parse_agent(text) for text in texts]
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="AGENT") from None


def _parse_rules(text: str) -> Rules:
    from arena.specs import RulesSpecError, parse_rules  # noqa: PLC0415

    try:
        return parse_rules(text)
    except RulesSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="--rules") from None


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _new_seed() -> int:
    return secrets.randbelow(2**32)


def referee(
    agents: Agents,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deals and agents (default: a random one).")
    ] = None,
    game: Annotated[
        int, typer.Option(min=0, help="Use the seeds of this game of a tournament with --seed.")
    ] = 0,
    time_limit: TimeLimit = 1.0,
    startup_time: StartupTime = 5.0,
    json_path: JsonPath = None,
    quiet: Quiet = False,
    rules: RulesText = "",
) -> None:
    """Referee one game between AGENTs (2 to 8), seated in the order given, and print it."""
    from rich.console import Console  # noqa: PLC0415

    from arena.referee import referee_game  # noqa: PLC0415
    from arena.render import game_result, game_transcript  # noqa: PLC0415

    specs = _parse_agents(agents)
    chosen = _parse_rules(rules)
    if not 2 <= len(specs) <= 8:
        raise typer.BadParameter("a game needs 2 to 8 agents", param_hint="AGENT")
    if chosen.max_cards_for(len(specs)) < 1:
        raise typer.BadParameter(
            f"these rules leave no card to deal to {len(specs)} players", param_hint="--rules"
        )
    seed = _new_seed() if seed is None else seed
    report = referee_game(
        specs,
        seed=seed,
        game_index=game,
        time_limit=time_limit,
        startup_time=startup_time,
        rules=chosen,
    )
    console = Console()
    console.print(game_result(report) if quiet else game_transcript(report))
    if json_path is not None:
        _write_json(json_path, report.to_dict())
    again = f" --rules {rules}" if rules.strip() else ""
    console.print(f"Replay:{again} --seed {seed} --game {game}", style="dim")


def tournament(
    agents: Agents,
    players: Annotated[
        int | None,
        typer.Option(min=2, max=8, help="Players per game (default: one seat per AGENT)."),
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 100,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the whole tournament (default: a random one).")
    ] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Processes playing games in parallel.")] = 1,
    time_limit: TimeLimit = 1.0,
    startup_time: StartupTime = 5.0,
    json_path: JsonPath = None,
    markdown: Annotated[
        Path | None, typer.Option(help="Also write the table, in Markdown, to this file.")
    ] = None,
    quiet: Quiet = False,
    rules: RulesText = "",
) -> None:
    """Play GAMES games between AGENTs, seats rotated from game to game, and compare them.

    Seat j of game k goes to AGENT (j + k) mod len(AGENTs). Each AGENT argument is its own
    entry (a name given twice appears as name#1 and name#2). The same seed gives the same
    games whatever --jobs is.
    """
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import (  # noqa: PLC0415
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from arena.render import markdown_table, tournament_table  # noqa: PLC0415
    from arena.tournament import TournamentConfig, run_tournament  # noqa: PLC0415

    specs = _parse_agents(agents)
    chosen = _parse_rules(rules)
    if players is None:
        if not 2 <= len(specs) <= 8:
            raise typer.BadParameter("give --players (2 to 8)", param_hint="--players")
        players = len(specs)
    if chosen.max_cards_for(players) < 1:
        raise typer.BadParameter(
            f"these rules leave no card to deal to {players} players", param_hint="--rules"
        )
    seed = _new_seed() if seed is None else seed
    config = TournamentConfig(
        tuple(specs),
        players=players,
        games=games,
        seed=seed,
        time_limit=time_limit,
        startup_time=startup_time,
        rules=chosen,
    )
    console = Console()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=games)
        result = run_tournament(config, jobs=jobs, on_progress=lambda n: progress.advance(task, n))
    console.print(tournament_table(result))
    if json_path is not None:
        _write_json(json_path, result.to_dict())
    if markdown is not None:
        markdown.write_text(markdown_table(result), encoding="utf-8")
    console.print(f"Seed {seed}; {result.elapsed_s:.1f} s with {jobs} job(s).", style="dim")


class GameCommands(TyperGroup):
    """A command per game (``blef referee economancy ...``), Blef's when the first word
    names no game: ``blef referee random random`` stays Blef's referee."""

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        # (Typer vendors its own click: its types are private, hence Any.)
        if not args or args[0] not in self.commands:
            return DEFAULT_GAME, self.commands[DEFAULT_GAME], args
        return super().resolve_command(ctx, args)


DEFAULT_GAME = "blef"
GAME_MODULES = ("economancy", "figgie")
"""The modules of app/cli that add a game's commands (``register(referee, tournament)``)."""


def _game_group(name: str, help_text: str) -> typer.Typer:
    return typer.Typer(
        cls=GameCommands,
        name=name,
        help=help_text,
        no_args_is_help=True,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )


def register(cli: typer.Typer) -> None:
    """Add ``referee`` and ``tournament`` to the ``blef`` command: Blef's by default, another
    game's when its name comes first."""
    referees = _game_group("referee", "Referee one game: [GAME] AGENT... (GAME: blef by default).")
    tournaments = _game_group(
        "tournament", "Play a tournament: [GAME] AGENT... (GAME: blef by default)."
    )
    referees.command(DEFAULT_GAME)(referee)
    tournaments.command(DEFAULT_GAME)(tournament)
    for name in GAME_MODULES:
        try:
            module = importlib.import_module(f"app.cli.{name}")
        except ModuleNotFoundError:  # a game's commands not written yet
            continue
        module.register(referees, tournaments)
    cli.add_typer(referees)
    cli.add_typer(tournaments)
