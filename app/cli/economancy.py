"""``blef referee economancy`` and ``blef tournament economancy``: Economancy's arena.

The arena modules are imported inside the commands, so building the CLI stays cheap.
"""

from __future__ import annotations

import json
import secrets
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from arena.economancy.specs import ProgramSpec
    from engine.economancy import EconomancyRules

PROGRAM_HELP = (
    "A built-in agent (random, greedy_points, greedy_attack, planner or ours), or a player "
    "program: a path or a command line (quote it), optionally exec:COMMAND; LABEL= before "
    "it names it."
)
Programs = Annotated[
    list[str] | None,
    typer.Argument(help=PROGRAM_HELP, show_default=False, metavar="PROGRAM"),
]
TimeLimit = Annotated[
    float, typer.Option("--time-limit", min=0.001, help="Seconds a program has per move.")
]
StartupTime = Annotated[
    float,
    typer.Option("--startup-time", min=0.0, help="Extra seconds for a program's first move."),
]
RulesText = Annotated[
    str,
    typer.Option(
        "--rules",
        help=(
            "Comma-separated key=value: cards (base or simple, the course's first 8), "
            "bubble_attack (9 or 5), day_limit (1..10000); e.g. cards=simple,day_limit=50. "
            "Default: the base game, Bubble 9, 100 days."
        ),
    ),
]


def parse_rules(text: str) -> EconomancyRules:
    """The rules of a ``--rules`` argument; ``typer.BadParameter`` naming the bad part."""
    from engine.economancy import EconomancyRules  # noqa: PLC0415
    from engine.protocol import InvalidRules  # noqa: PLC0415

    values: dict[str, Any] = {}
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not value:
            raise typer.BadParameter(f"expected key=value, got {part!r}", param_hint="--rules")
        if key in values:
            raise typer.BadParameter(f"{key!r} given twice", param_hint="--rules")
        values[key] = int(value) if value.lstrip("-").isdigit() else value
    try:
        return EconomancyRules.from_dict(values)
    except InvalidRules as exc:
        raise typer.BadParameter(exc.message, param_hint="--rules") from None


def _programs(texts: list[str]) -> list[ProgramSpec]:
    from arena.economancy.specs import ProgramSpecError, parse_program  # noqa: PLC0415

    try:
        return [parse_program(text) for text in texts]
    except ProgramSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="PROGRAM") from None


def referee(
    programs: Programs = None,
    time_limit: TimeLimit = 10.0,
    startup_time: StartupTime = 5.0,
    rules: RulesText = "",
    seed: Annotated[
        int | None, typer.Option(help="Seed of the built-in agents (default: a random one).")
    ] = None,
    trace: Annotated[
        Path | None, typer.Option(help="Write every state sent and move received (JSON Lines).")
    ] = None,
    replay: Annotated[
        Path | None,
        typer.Option(help="Instead of playing: replay a trace and check every state."),
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the game's report as JSON.")
    ] = None,
) -> None:
    """Referee one game of Economancy between 2 to 4 PROGRAMs, seated in the order given."""
    if replay is not None:
        _replay(replay)
        return
    from arena.economancy.referee import referee_game  # noqa: PLC0415

    specs = _programs(programs or [])
    if not 2 <= len(specs) <= 4:
        raise typer.BadParameter("a game needs 2 to 4 programs", param_hint="PROGRAM")
    chosen = parse_rules(rules)
    seed = secrets.randbelow(2**32) if seed is None else seed
    handle = trace.open("w", encoding="utf-8") if trace is not None else None
    try:
        report = referee_game(
            specs,
            rules=chosen,
            seed=seed,
            time_limit=time_limit,
            startup_time=startup_time,
            trace=handle,
        )
    finally:
        if handle is not None:
            handle.close()
    for seat in report.seats:
        line = f"seat {seat.seat}: {seat.label} ({seat.moves} moves)"
        if seat.fault is not None:
            line += f" - fault on day {seat.fault.day}: {seat.fault.reason}: {seat.fault.detail}"
        typer.echo(line)
    if report.winner is None:
        typer.echo(f"Draw: no winner after {report.days} days ({report.reason}).")
    else:
        typer.echo(
            f"Winner: {report.winner_label} (seat {report.winner}) by {report.reason} "
            f"on day {report.days}; places {list(report.places)}."
        )
    if json_path is not None:
        json_path.write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
    typer.echo(f"Seed {seed}.")


def _replay(path: Path) -> None:
    from arena.economancy.referee import ReplayMismatch, replay_trace  # noqa: PLC0415

    try:
        with path.open(encoding="utf-8") as lines:
            report = replay_trace(lines)
    except (ReplayMismatch, ValueError, KeyError) as exc:
        typer.echo(f"The replay differs from the trace: {exc}", err=True)
        raise typer.Exit(1) from None
    outcome = "a draw" if report.winner is None else f"seat {report.winner} wins"
    typer.echo(
        f"Replayed {report.moves} moves and {report.faults} faults: all {report.states} "
        f"states match; {outcome} ({report.reason})."
    )


def tournament(
    programs: Programs = None,
    players: Annotated[
        str, typer.Option(help="Table sizes, comma-separated: every combination of each.")
    ] = "2",
    games: Annotated[int, typer.Option(min=1, help="Games per table.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the whole tournament.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes playing in parallel.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(help="Directory of the results: resumable (finished games are kept)."),
    ] = None,
    time_limit: TimeLimit = 10.0,
    startup_time: StartupTime = 5.0,
    rules: RulesText = "",
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the statistics as JSON.")
    ] = None,
    markdown_path: Annotated[
        Path | None, typer.Option("--markdown", help="Also write the tables in Markdown.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Play every table of the PROGRAMs (each size of --players), seats rotated."""
    from arena.economancy.tournament import (  # noqa: PLC0415
        ResumeError,
        TournamentConfig,
        markdown,
        parse_sizes,
        run_tournament,
    )

    specs = _programs(programs or [])
    try:
        sizes = parse_sizes(players)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players") from None
    if len(specs) < 2:
        raise typer.BadParameter("a tournament needs at least 2 programs", param_hint="PROGRAM")
    sizes = tuple(p for p in sizes if p <= len(specs))
    if not sizes:
        raise typer.BadParameter("no table size fits the programs given", param_hint="--players")
    config = TournamentConfig(
        tuple(specs),
        sizes=sizes,
        games=games,
        seed=seed,
        rules=parse_rules(rules),
        time_limit=time_limit,
        startup_time=startup_time,
    )

    def progress(done: int, total: int) -> None:
        if not quiet:
            sys.stderr.write(f"\r{done}/{total} games")
            sys.stderr.flush()

    try:
        result = run_tournament(config, out=out, jobs=jobs, on_progress=progress)
    except ResumeError as exc:
        raise typer.BadParameter(str(exc), param_hint="--out") from None
    if not quiet:
        sys.stderr.write("\n")
    words = ["blef", "tournament", "economancy", *(s.text for s in specs)]
    words += ["--players", ",".join(map(str, sizes)), "--games", str(games), "--seed", str(seed)]
    if rules.strip():
        words += ["--rules", rules]
    table = markdown(result, shlex.join(words))
    typer.echo(table)
    typer.echo(f"{result.played} games played now, {len(result.records)} in all.")
    if json_path is not None:
        json_path.write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    if markdown_path is not None:
        markdown_path.write_text(table, encoding="utf-8")


def register(referees: typer.Typer, tournaments: typer.Typer) -> None:
    """Add ``economancy`` to ``blef referee`` and ``blef tournament``."""
    referees.command("economancy")(referee)
    tournaments.command("economancy")(tournament)
