"""A rated table's seats (``Ladder.rated_table``) on every ladder store: a computer level's
seat named by its level and agent, each seat's rating and the model's stakes while the game
is played, the places and changes once it is settled (the stakes made good), and a pair past
the daily limit told as not rated."""

from __future__ import annotations

from app.ladder import bots
from app.ladder import rating as model
from app.ladder.service import Ladder
from app.service import GameService
from tests.ladder.contract import waited
from tests.support.clock import FakeClock

TWO = "standard-2"


def test_a_level_seat_is_named_by_its_level_and_the_stakes_come_true_once_settled(
    ladder: Ladder, games: GameService
) -> None:
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, TWO, 0)
    ladder.match()
    status = ladder.queue_status(secret)
    game = status["game_uuid"]
    playing = ladder.rated_table(game)
    assert playing["state"] == "playing"
    person, level = playing["seats"]
    assert (person["handle"], person["bot"]) == ("Ania", False)
    assert level["bot"] is True and level["level"] == bots.LEVELS[0].name
    assert level["agent"] == bots.LEVELS[0].agent and "player_uuid" not in level
    stakes = model.stakes([model.initial("a", TWO), model.initial("b", TWO)])[0]
    assert (person["if_first"], person["if_last"]) == stakes
    assert person["display_rating"] == 1500 and person["provisional"] is True

    games.resign(game, status["player_uuid"])
    ladder.tick()
    over = ladder.rated_table(game.upper())
    person, level = over["seats"]
    assert over["state"] == "settled"
    assert (person["place"], level["place"]) == (2, 1)
    assert person["display_change"] == playing["seats"][0]["if_last"]
    assert level["display_change"] == playing["seats"][1]["if_first"]
    assert person["display_before"] + person["display_change"] == person["display_after"]


def test_a_pair_past_the_daily_limit_is_told_not_rated_before_it_plays(
    ladder: Ladder, games: GameService, fake: FakeClock
) -> None:
    secrets = {h: ladder.create_account(h)["secret"] for h in ("Ania", "Bolek")}

    def seat() -> dict:
        for secret in secrets.values():
            ladder.join_queue(secret, TWO)
        waited(ladder, fake, 600, *secrets.values())
        ladder.match()
        status: dict = ladder.queue_status(secrets["Bolek"])
        return status

    for _ in range(bots.PAIR_LIMIT):
        status = seat()
        assert all(s["rated"] for s in ladder.rated_table(status["game_uuid"])["seats"])
        games.resign(status["game_uuid"], status["player_uuid"])
        ladder.tick()
    status = seat()
    seats = ladder.rated_table(status["game_uuid"])["seats"]
    assert [s["rated"] for s in seats] == [False, False]
    assert all("if_first" not in s for s in seats)
    games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()
    assert all(s["rated"] is False for s in ladder.rated_table(status["game_uuid"])["seats"])
