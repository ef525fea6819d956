"""Tournaments: rotation, statistics, forfeits, parallel workers and reproducibility."""

from __future__ import annotations

import json

import pytest

from arena.referee import referee_game
from arena.tournament import TournamentConfig, TournamentResult, run_tournament
from tests.arena.helpers import HONEST, bot_agent, specs, without_timings


def _config(
    *agents: str, players: int = 2, games: int = 6, seed: int = 1, **options: float
) -> TournamentConfig:
    options.setdefault("time_limit", 5.0)
    options.setdefault("startup_time", 20.0)
    return TournamentConfig(
        tuple(specs(*agents)), players=players, games=games, seed=seed, **options
    )


def _entries(result: TournamentResult) -> dict[str, dict[str, object]]:
    return {entry["entry"]: entry for entry in result.to_dict()["entries"]}


def test_a_tournament_with_an_external_program_runs_to_the_end() -> None:
    progress: list[int] = []
    result = run_tournament(_config(HONEST, "random", games=4), on_progress=progress.append)
    assert sum(progress) == 4
    assert [report.game_index for report in result.games] == [0, 1, 2, 3]
    entries = _entries(result)
    assert entries["honest_bettor"]["games"] == entries["random"]["games"] == 4
    assert entries["honest_bettor"]["wins"] + entries["random"]["wins"] == 4
    assert entries["honest_bettor"]["forfeits"] == 0
    assert entries["honest_bettor"]["mean_decision_ms"] is not None
    head_to_head = result.to_dict()["head_to_head"]
    assert head_to_head["first"] == "honest_bettor"
    assert head_to_head["games"] == 4
    assert head_to_head["first_wins"] == entries["honest_bettor"]["wins"]
    assert 0 < head_to_head["p_value"] <= 1


def test_seats_rotate_from_game_to_game() -> None:
    result = run_tournament(_config("a=random", "b=random", "c=random", players=2, games=3))
    seated = [[seat.entry for seat in report.seats] for report in result.games]
    assert seated == [["a", "b"], ["b", "c"], ["c", "a"]]
    nicknames = [[seat.nickname for seat in report.seats] for report in result.games]
    assert nicknames == [["a_1", "b_2"], ["b_1", "c_2"], ["c_1", "a_2"]]


def test_an_entry_holding_several_seats_wins_a_game_once() -> None:
    result = run_tournament(_config("random", "random", players=4, games=10))
    first, second = result.entries
    assert (first.games, second.games) == (10, 10)
    assert (first.seats, second.seats) == (20, 20)
    assert first.wins + second.wins == 10
    assert result.head_to_head is not None
    assert result.head_to_head.first_wins == first.wins


def test_rounds_won_are_the_rounds_taken_part_in_and_not_lost() -> None:
    result = run_tournament(_config("random", "random", players=3, games=5))
    total_rounds = sum(report.n_rounds for report in result.games)
    played = sum(entry.rounds_played for entry in result.entries)
    won = sum(entry.rounds_won for entry in result.entries)
    assert played - won == total_rounds  # exactly one seat loses each round
    for entry in result.entries:
        assert 0 <= entry.rounds_won <= entry.rounds_played


def test_there_is_no_head_to_head_test_unless_there_are_two_entries() -> None:
    result = run_tournament(_config("random", "random", "random", players=3, games=3))
    assert result.head_to_head is None
    assert result.to_dict()["head_to_head"] is None


@pytest.mark.parametrize(
    ("mode", "reason", "time_limit", "startup_time"),
    [
        ("sleep", "timeout", 0.3, 0.2),
        ("crash", "crashed", 5.0, 20.0),
        ("garbage", "bad_output", 5.0, 20.0),
        ("illegal", "illegal_action", 5.0, 20.0),
    ],
)
def test_misbehaving_programs_forfeit_without_disturbing_the_other_games(
    mode: str, reason: str, time_limit: float, startup_time: float
) -> None:
    # Game 0 seats (bot, random#1), game 1 (random#1, random#2), game 2 (random#2, bot).
    config = _config(
        bot_agent(mode),
        "random",
        "random",
        games=3,
        time_limit=time_limit,
        startup_time=startup_time,
    )
    result = run_tournament(config, jobs=2 if mode == "sleep" else 1)
    entries = _entries(result)
    assert entries["testbot"]["games"] == 2
    assert entries["testbot"]["wins"] == 0
    assert entries["testbot"]["forfeits"] == 2
    assert entries["testbot"]["forfeit_reasons"] == {reason: 2}
    games = result.to_dict()["games"]
    for game in (games[0], games[2]):
        (forfeit,) = game["forfeits"]
        assert forfeit["reason"] == reason
        assert forfeit["nickname"].startswith("testbot_")
        assert game["winner_entry"].startswith("random#")
    assert games[1]["forfeits"] == []
    assert games[1]["n_rounds"] > 0
    assert entries["random#1"]["forfeits"] == entries["random#2"]["forfeits"] == 0


def test_results_are_reproducible_from_the_seed_whatever_the_number_of_jobs() -> None:
    config = _config(HONEST, "random", "random", players=3, games=6, seed=42)
    alone = run_tournament(config, jobs=1).to_dict()
    shared = run_tournament(config, jobs=2).to_dict()
    assert shared["run"]["jobs"] == 2
    assert without_timings(alone) == without_timings(shared)
    assert json.loads(json.dumps(alone)) == alone
    again_other_seed = run_tournament(
        _config(HONEST, "random", "random", players=3, games=6, seed=43)
    ).to_dict()
    assert without_timings(again_other_seed)["games"] != without_timings(alone)["games"]


@pytest.mark.parametrize(
    ("players", "games", "message"),
    [(1, 1, "2..8 players"), (9, 1, "2..8 players"), (2, 0, "at least one game")],
)
def test_an_impossible_tournament_is_refused(players: int, games: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _config("random", players=players, games=games)


def test_any_tournament_game_replays_alone_with_the_referee() -> None:
    config = _config(HONEST, "random", "random", players=2, games=3, seed=9)
    result = run_tournament(config)
    game = result.games[1]
    assert game.replay_command.endswith("--seed 9 --game 1")
    seated_specs, _ = config.seats(1)
    replay = referee_game(seated_specs, seed=9, game_index=1, time_limit=5.0, startup_time=20.0)
    assert replay.winner == game.winner
    assert replay.seating == game.seating
    assert replay.n_rounds == game.n_rounds
    assert [s.rounds_won for s in replay.seats] == [s.rounds_won for s in game.seats]
