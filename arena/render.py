"""How the arena's results are shown: a game's transcript and a tournament's table (rich),
and the same table in Markdown for documents (docs/strength.md)."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from engine.facts import Card, Colour
from engine.rules import CLASSIC, CardKind, Rules

if TYPE_CHECKING:
    from arena.referee import GameReport, TimedMove
    from arena.tournament import EntryStats, TournamentResult
    from engine.game import RoundRecord


_VALUE_SYMBOLS = {
    24: ("9", "10", "J", "Q", "K", "A"),
    32: ("7", "8", "9", "10", "J", "Q", "K", "A"),
}


def card_text(card: Card) -> str:
    return f"{card.value.symbol}{card.colour.symbol}"


def index_text(rules: Rules, index: int) -> str:
    """A card of any deck by its deck index: ``A♠``, ``joker``, ``blank``."""
    kind = rules.kind_of(index)
    if kind is CardKind.JOKER:
        return "joker"
    if kind is CardKind.BLANK:
        return "blank"
    return f"{_VALUE_SYMBOLS[rules.deck_size][index // 4]}{Colour(index % 4).symbol}"


def bet_name(action_id: int, rules: Rules = CLASSIC) -> str:
    if 0 <= action_id < rules.check:
        return rules.table.name(action_id)
    return "check" if action_id == rules.check else f"action {action_id}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _round_lines(record: RoundRecord, timings: Iterator[TimedMove], report: GameReport) -> Group:
    title = Text(f"Round {record.number}", style="bold")
    title.append(f"  (at most {record.max_cards} cards; seed {record.seed.hex()[:12]}…)", "dim")
    rules = record.rules
    hands = Table.grid(padding=(0, 2))
    for nick, count, hand in zip(
        record.nicknames, record.n_cards, record.hand_indices, strict=True
    ):
        if count:
            cards = " ".join(index_text(rules, i) for i in hand)
            hands.add_row(f"  {nick}", _plural(count, "card"), cards)
    if record.common:
        common = " ".join(index_text(rules, i) for i in record.common)
        hands.add_row("  (common)", _plural(len(record.common), "card"), common)
    moves = Table.grid(padding=(0, 2))
    for move in record.history:
        if move.action_id == rules.lost_round:
            continue
        timing = next(timings, None)
        ms = f"{timing.seconds * 1000:.2f} ms" if timing else ""
        said = (
            "checks" if move.action_id == rules.check else f"bets {bet_name(move.action_id, rules)}"
        )
        moves.add_row(f"  {move.player}", said, Text(ms, style="dim"))
    loser = record.loser
    if record.forfeited:
        forfeit = next(seat.forfeit for seat in report.seats if seat.nickname == loser)
        why = f"{forfeit.reason.value}: {forfeit.detail}" if forfeit else "forfeit"
        outcome = Text(f"  → {loser} forfeits ({why}) and leaves the game", style="red")
    else:
        bet = record.checked_bet
        assert bet is not None
        there = "is there" if record.history[-2].player == loser else "is not there"
        outcome = Text(
            f"  → {loser} loses the round: {bet_name(bet, rules)} {there}", style="yellow"
        )
        if record.n_cards[record.loser_seat] == record.max_cards:
            outcome.append(f"; {loser} is out", style="bold red")
    return Group(title, hands, moves, outcome, Text(""))


def game_transcript(report: GameReport) -> Group:
    """Every round of a game kept with ``keep_rounds``, then the result and the seats."""
    parts: list[Group | Table | Text] = [
        Text(f"Seed {report.seed}, game {report.game_index}", style="dim"),
        agents_table(report),
        Text(f"Seating (order of play): {', '.join(report.seating)}\n"),
    ]
    timings = iter(report.moves)
    parts.extend(_round_lines(record, timings, report) for record in report.rounds)
    parts.append(game_result(report))
    return Group(*parts)


def agents_table(report: GameReport) -> Table:
    """Who plays which seat."""
    table = Table.grid(padding=(0, 2))
    for seat in report.seats:
        table.add_row(seat.nickname, Text(seat.agent, style="cyan"))
    return table


def game_result(report: GameReport) -> Group:
    """The winner, each seat's figures, and every forfeit in full."""
    lines: list[Table | Text] = [
        Text(f"Winner: {report.winner}", style="bold green"),
        seats_table(report),
    ]
    for forfeit in report.forfeits:
        lines.append(
            Text(
                f"{forfeit.nickname} forfeited in round {forfeit.round_number}: "
                f"{forfeit.reason.value}: {forfeit.detail}",
                style="red",
            )
        )
    return Group(*lines)


def seats_table(report: GameReport) -> Table:
    table = Table()
    for column in ("player", "entry", "moves", "mean ms", "max ms", "rounds won", "result"):
        table.add_column(column, justify="right" if "ms" in column or column == "moves" else "left")
    for seat in report.seats:
        mean = f"{seat.decision_s * 1000 / seat.timed_moves:.2f}" if seat.timed_moves else "-"
        if seat.nickname == report.winner:
            result = "winner"
        elif seat.forfeit is not None:
            result = f"forfeit ({seat.forfeit.reason.value})"
        else:
            result = f"out in round {seat.eliminated_in_round}"
        table.add_row(
            seat.nickname,
            seat.entry,
            str(seat.moves),
            mean,
            f"{seat.max_decision_s * 1000:.2f}",
            f"{seat.rounds_won}/{seat.rounds_played}",
            result,
        )
    return table


def _forfeits_text(entry: EntryStats) -> str:
    if not entry.forfeits:
        return "0"
    reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(entry.forfeit_reasons.items()))
    return f"{entry.forfeits} ({reasons})"


def _row(entry: EntryStats) -> list[str]:
    low, high = entry.wilson_95
    mean = entry.mean_decision_ms
    return [
        entry.entry,
        str(entry.games),
        str(entry.wins),
        f"{entry.win_rate:.1%} ± {entry.standard_error:.1%}",
        f"{low:.1%} – {high:.1%}",
        f"{entry.rounds_won}/{entry.rounds_played} ({entry.rounds_won_rate:.1%})",
        "-" if mean is None else f"{mean:.3f}",
        _forfeits_text(entry),
    ]


_HEADERS = (
    "entry",
    "games",
    "wins",
    "win rate ± SE",
    "95% Wilson",
    "rounds won",
    "mean decision ms",
    "forfeits",
)


def head_to_head_text(result: TournamentResult) -> str | None:
    h2h = result.head_to_head
    if h2h is None:
        return None
    # Below the smallest float the exact p-value rounds to 0: say so rather than "p = 0".
    p = f"p = {h2h.p_value:.3g}" if h2h.p_value > 0 else "p < 1e-300"
    return (
        f"Head to head: {h2h.first} won {h2h.first_wins} of {h2h.games} games against "
        f"{h2h.second}; {p} (exact two-sided binomial test of a 50% win rate)"
    )


def tournament_table(result: TournamentResult) -> Table:
    config = result.config
    table = Table(
        title=f"{config.games} games, {config.players} players, seed {config.seed}",
        caption=head_to_head_text(result),
    )
    for header in _HEADERS:
        table.add_column(header, justify="left" if header == "entry" else "right")
    for entry in result.entries:
        table.add_row(*_row(entry))
    return table


def command_line(result: TournamentResult) -> str:
    """The ``blef tournament`` command that replays ``result``."""
    config = result.config
    words = ["blef", "tournament", *(spec.text for spec in config.agents)]
    words += ["--players", str(config.players), "--games", str(config.games)]
    words += ["--seed", str(config.seed), "--jobs", str(result.jobs)]
    words += ["--time-limit", f"{config.time_limit:g}"]
    return shlex.join(words)


def markdown_table(result: TournamentResult) -> str:
    """The tournament's table in Markdown, with the command that produced it."""
    lines = [
        f"`{command_line(result)}`",
        "",
        f"{result.config.games} games, {result.config.players} players, "
        f"run {result.date} in {result.elapsed_s:.0f} s with {result.jobs} job(s).",
        "",
        "| " + " | ".join(_HEADERS) + " |",
        "|" + "|".join("---" if h == "entry" else "---:" for h in _HEADERS) + "|",
    ]
    lines += ["| " + " | ".join(_row(entry)) + " |" for entry in result.entries]
    h2h = head_to_head_text(result)
    if h2h:
        lines += ["", h2h + "."]
    return "\n".join(lines) + "\n"
