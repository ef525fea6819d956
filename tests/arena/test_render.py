"""How results are shown: transcripts, tables, Markdown."""

from __future__ import annotations

import dataclasses

from rich.console import Console

from arena.referee import referee_game
from arena.render import (
    command_line,
    game_transcript,
    head_to_head_text,
    markdown_table,
    tournament_table,
)
from arena.tournament import HeadToHead, TournamentConfig, run_tournament
from tests.arena.helpers import specs


def _text(renderable: object) -> str:
    console = Console(width=200, record=True)
    console.print(renderable)
    return console.export_text()


def test_a_transcript_shows_every_round_its_hands_moves_and_loser() -> None:
    report = referee_game(specs("random", "random"), seed=2)
    text = _text(game_transcript(report))
    for record in report.rounds:
        assert f"Round {record.number} " in text
        assert f"→ {record.loser} loses the round" in text
    assert f"Winner: {report.winner}" in text
    assert "is out" in text  # the final round eliminates the loser


def test_the_tournament_table_and_its_markdown_show_every_entry_and_the_command() -> None:
    config = TournamentConfig(tuple(specs("random", "me=random")), players=2, games=6, seed=3)
    result = run_tournament(config)
    text = _text(tournament_table(result))
    assert "random" in text
    assert "me" in text
    markdown = markdown_table(result)
    assert command_line(result) == (
        "blef tournament random me=random --players 2 --games 6 --seed 3 --jobs 1 --time-limit 1"
    )
    assert markdown.startswith(f"`{command_line(result)}`")
    assert markdown.count("\n| ") == 3  # the header and one row per entry
    assert "Head to head: random won" in markdown


def test_a_p_value_too_small_for_a_float_is_shown_as_a_bound() -> None:
    config = TournamentConfig(tuple(specs("random", "random")), players=2, games=2, seed=1)
    result = run_tournament(config)
    crushing = dataclasses.replace(
        result, head_to_head=HeadToHead("random#1", "random#2", 4000, 4000, 0.0)
    )
    assert "p < 1e-300" in (head_to_head_text(crushing) or "")
