"""The newer established service's requests, made as its clients make them (GET with query
parameters, reading the JSON they get back), and as an attacker would make them.

The rule oracle at the end judges every round's loser from what the round's snapshot shows
(the revealed hands, the common cards, the bet), by counting cards, written apart from the
engine's set table and its masks.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.service import GameService

Json = dict[str, Any]


def create(client: TestClient, **params: Any) -> Json:
    response = client.get("/games/create", params=params)
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


def join(client: TestClient, game: str, nickname: str, **params: Any) -> str:
    response = client.get(f"/games/{game}/join", params={"nickname": nickname, **params})
    assert response.status_code == 200, response.text
    player: str = response.json()["player_uuid"]
    return player


def state(client: TestClient, game: str, player: str | None = None) -> Json:
    params = {} if player is None else {"player_uuid": player}
    body: Json = client.get(f"/games/{game}", params=params).json()
    return body


def table(client: TestClient, *names: str, **rules: Any) -> tuple[str, dict[str, str]]:
    """A game created by the first name (who joins in the same call), the others joined,
    the rules changed as given."""
    made = create(client, nickname=names[0])
    game = made["game_uuid"]
    players = {names[0]: made["player_uuid"]}
    for name in names[1:]:
        players[name] = join(client, game, name)
    if rules:
        answer = client.get(
            f"/games/{game}/change-rules", params={"admin_uuid": players[names[0]], **rules}
        )
        assert answer.status_code == 200, answer.text
    return game, players


def start(client: TestClient, game: str, admin: str) -> None:
    answer = client.get(f"/games/{game}/start", params={"admin_uuid": admin})
    assert answer.status_code == 202, answer.text


def test_create_with_a_nickname_creates_the_game_and_seats_its_creator_as_admin(
    client: TestClient,
) -> None:
    made = create(client, nickname="Ala")
    assert set(made) == {"game_uuid", "player_uuid"}
    seen = state(client, made["game_uuid"], made["player_uuid"])
    assert seen["admin_nickname"] == "Ala"
    assert seen["players"] == [
        {"nickname": "Ala", "n_cards": 0, "team": None, "ready": False},
    ]
    assert seen["rules"] == {
        "deck_size": 24,
        "jokers": 0,
        "blanks": 0,
        "common_cards": 0,
        "max_cards": 0,
        "initial_cards": None,
        "time_limit": 0,
    }
    assert seen["common_hand"] == []


def test_create_without_a_nickname_answers_as_the_established_service_did(
    client: TestClient,
) -> None:
    assert set(create(client)) == {"game_uuid"}


def test_create_with_a_profane_nickname_is_refused_and_makes_no_game(
    client: TestClient, service: GameService
) -> None:
    before = len(service.list_public())
    answer = client.get("/games/create", params={"nickname": "kurwa"})
    assert answer.status_code == 422
    assert answer.json()["reason"] == "profanity"
    assert len(service.list_public()) == before


def test_the_admin_changes_the_rules_and_every_reader_sees_them(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    answer = client.get(
        f"/games/{game}/change-rules",
        params={
            "admin_uuid": players["ann"],
            "deck_size": "32",
            "jokers": "2",
            "blanks": "1",
            "common_cards": "-1",
            "time_limit": "30",
        },
    )
    assert answer.json() == {"message": "Rules updated"}
    rules = state(client, game)["rules"]
    assert rules["deck_size"] == 32
    assert rules["jokers"] == 2
    assert rules["blanks"] == 1
    assert rules["common_cards"] == -1
    assert rules["time_limit"] == 30


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"jokers": "1"}, 400, "Admin UUID missing"),
        ({"admin_uuid": "not-a-uuid", "jokers": "1"}, 400, "Invalid admin UUID"),
        ({"jokers": "one"}, 400, "Every rule must be an integer"),
        ({"jokers": "1.5"}, 400, "Every rule must be an integer"),
        ({"jokers": "true"}, 400, "Every rule must be an integer"),
        ({"jokers": "13"}, 400, "jokers must be between 0 and 12"),
        ({"blanks": "-1"}, 400, "blanks must be between 0 and 12"),
        ({"deck_size": "28"}, 400, "deck_size must be 24 or 32"),
        ({"common_cards": "-3"}, 400, "common_cards must be between 0 and 12"),
        ({"max_cards": "12"}, 400, "max_cards must be 0"),
        ({"time_limit": "301"}, 400, "time limit must be"),
        ({"initial_cards": "lots"}, 400, "initial_cards must be"),
        ({"colour_blind": "1"}, 400, "Unknown rule"),
    ],
)
def test_a_bad_rule_change_is_refused_with_its_reason_and_changes_nothing(
    client: TestClient, params: dict[str, str], status: int, words: str
) -> None:
    game, players = table(client, "ann", "bob")
    if "admin_uuid" not in params and "Admin UUID missing" not in words:
        params = {"admin_uuid": players["ann"], **params}
    before = state(client, game)
    answer = client.get(f"/games/{game}/change-rules", params=params)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    assert state(client, game)["version"] == before["version"]


def test_only_the_admin_changes_the_rules(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    answer = client.get(
        f"/games/{game}/change-rules", params={"admin_uuid": players["bob"], "jokers": "1"}
    )
    assert answer.status_code == 400
    assert "Admin UUID does not match" in answer.json()["error"]


def test_the_rules_cannot_change_after_the_start(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    start(client, game, players["ann"])
    answer = client.get(
        f"/games/{game}/change-rules", params={"admin_uuid": players["ann"], "jokers": "1"}
    )
    assert answer.status_code == 403
    assert answer.json()["error"] == "Cannot change rules after the game has started"


def test_everyone_ready_starts_the_game(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    first = client.get(
        f"/games/{game}/set-readiness", params={"player_uuid": players["ann"], "ready": "True"}
    )
    assert first.status_code == 200
    assert state(client, game)["status"] == "Not started"
    assert [p["ready"] for p in state(client, game)["players"]] == [True, False]
    last = client.get(
        f"/games/{game}/set-readiness", params={"player_uuid": players["bob"], "ready": "True"}
    )
    assert last.json()["message"].endswith("Game started")
    assert state(client, game)["status"] == "Running"


def test_readiness_must_be_true_or_false(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    answer = client.get(
        f"/games/{game}/set-readiness", params={"player_uuid": players["ann"], "ready": "maybe"}
    )
    assert answer.status_code == 400
    assert "True or False" in answer.json()["error"]


def test_a_rule_change_makes_everyone_unready(client: TestClient) -> None:
    game, players = table(client, "ann", "bob", "cid")
    for name in ("ann", "bob"):
        client.get(
            f"/games/{game}/set-readiness", params={"player_uuid": players[name], "ready": "True"}
        )
    client.get(f"/games/{game}/change-rules", params={"admin_uuid": players["ann"], "jokers": "1"})
    assert state(client, game)["ready"] == []


def test_the_admin_removes_anyone_and_a_player_removes_only_themselves(
    client: TestClient,
) -> None:
    game, players = table(client, "ann", "bob", "cid", "dan")
    by_admin = client.get(
        f"/games/{game}/remove-player", params={"player_uuid": players["ann"], "nickname": "bob"}
    )
    assert by_admin.json() == {"message": "bob removed successfully"}
    refused = client.get(
        f"/games/{game}/remove-player", params={"player_uuid": players["cid"], "nickname": "dan"}
    )
    assert refused.status_code == 403
    assert refused.json()["error"] == "You do not have permission"
    itself = client.get(
        f"/games/{game}/remove-player", params={"player_uuid": players["dan"], "nickname": "DAN"}
    )
    assert itself.status_code == 200
    assert [p["nickname"] for p in state(client, game)["players"]] == ["ann", "cid"]
    gone = client.get(f"/games/{game}", params={"player_uuid": players["dan"]})
    assert gone.status_code == 400


def test_nobody_is_removed_once_the_game_has_started(client: TestClient) -> None:
    game, players = table(client, "ann", "bob")
    start(client, game, players["ann"])
    answer = client.get(
        f"/games/{game}/remove-player", params={"player_uuid": players["ann"], "nickname": "bob"}
    )
    assert answer.status_code == 403


def test_team_mates_see_each_other_s_hands_and_nobody_else_s(client: TestClient) -> None:
    made = create(client, nickname="ann", team="1")
    game = made["game_uuid"]
    players = {"ann": made["player_uuid"]}
    players["bob"] = join(client, game, "bob", team="1")
    players["cid"] = join(client, game, "cid", team="2")
    players["dan"] = join(client, game, "dan", team="2")
    start(client, game, players["ann"])
    seen = state(client, game, players["ann"])
    assert {h["nickname"] for h in seen["hands"]} == {"ann", "bob"}
    assert {h["nickname"] for h in state(client, game, players["dan"])["hands"]} == {"cid", "dan"}
    assert state(client, game)["hands"] == []
    # Seating spreads each team: no two team-mates side by side at a 2 + 2 table.
    teams = [p["team"] for p in seen["players"]]
    assert all(teams[i] != teams[(i + 1) % 4] for i in range(4))


def test_a_player_changes_their_own_team_and_the_admin_anyone_s(client: TestClient) -> None:
    game, players = table(client, "ann", "bob", "cid")
    own = client.get(
        f"/games/{game}/change-team", params={"player_uuid": players["bob"], "team": "2"}
    )
    assert own.status_code == 200
    other = client.get(
        f"/games/{game}/change-team",
        params={"player_uuid": players["bob"], "team": "2", "nickname": "cid"},
    )
    assert other.status_code == 403
    by_admin = client.get(
        f"/games/{game}/change-team",
        params={"player_uuid": players["ann"], "team": "2", "nickname": "cid"},
    )
    assert by_admin.status_code == 200
    assert [p["team"] for p in state(client, game)["players"]] == [None, 2, 2]
    bad = client.get(
        f"/games/{game}/change-team", params={"player_uuid": players["ann"], "team": "9"}
    )
    assert bad.status_code == 400


def test_a_game_of_one_team_does_not_start(client: TestClient) -> None:
    made = create(client, nickname="ann", team="3")
    game = made["game_uuid"]
    join(client, game, "bob", team="3")
    answer = client.get(f"/games/{game}/start", params={"admin_uuid": made["player_uuid"]})
    assert answer.status_code == 403
    assert "two teams" in answer.json()["error"]


# --------------------------------------------------------------------------- the rematch


def finish(client: TestClient, game: str, players: dict[str, str]) -> None:
    """Play ``game`` to the end: whoever is to move bets the lowest bet, or checks it."""
    for _ in range(2000):
        seen = state(client, game)
        if seen["status"] == "Finished":
            return
        mover = seen["cp_nickname"]
        view = state(client, game, players[mover])
        legal = view["legal_actions"]
        action = legal[-1] if len(view["history"]) >= 1 else legal[0]
        client.get(
            f"/games/{game}/play", params={"player_uuid": players[mover], "action_id": action}
        )
    raise AssertionError("the game did not end")


def test_the_rematch_is_made_once_and_everyone_who_asks_lands_in_it(client: TestClient) -> None:
    game, players = table(client, "ann", "bob", "cid", jokers="1")
    start(client, game, players["ann"])
    finish(client, game, players)
    answers = {
        name: create(client, previous_game_uuid=game, previous_player_uuid=players[name])
        for name in ("bob", "ann", "cid")
    }
    assert len({a["game_uuid"] for a in answers.values()}) == 1
    again = create(client, previous_game_uuid=game, previous_player_uuid=players["ann"])
    assert again == answers["ann"]
    new = answers["bob"]["game_uuid"]
    seen = state(client, new, answers["bob"]["player_uuid"])
    assert seen["admin_nickname"] == "bob"
    assert [p["nickname"] for p in seen["players"]] == ["bob", "ann", "cid"]
    assert seen["rules"]["jokers"] == 1
    assert seen["status"] == "Not started"


def test_a_rematch_of_a_game_still_in_play_or_by_a_stranger_is_refused(
    client: TestClient,
) -> None:
    game, players = table(client, "ann", "bob")
    start(client, game, players["ann"])
    early = client.get(
        "/games/create", params={"previous_game_uuid": game, "previous_player_uuid": players["ann"]}
    )
    assert early.status_code == 409
    finish(client, game, players)
    stranger = client.get(
        "/games/create",
        params={"previous_game_uuid": game, "previous_player_uuid": game},
    )
    assert stranger.status_code == 400
    half = client.get("/games/create", params={"previous_game_uuid": game})
    assert half.status_code == 400
    assert "both" in half.json()["error"]


def test_players_asking_for_the_rematch_at_once_all_land_in_one_game(
    client: TestClient,
) -> None:
    names = ["ann", "bob", "cid", "dan", "eve", "fay"]
    game, players = table(client, *names)
    start(client, game, players["ann"])
    finish(client, game, players)
    answers: dict[str, Json] = {}
    barrier = threading.Barrier(len(names))

    def ask(name: str) -> None:
        barrier.wait()
        answers[name] = create(client, previous_game_uuid=game, previous_player_uuid=players[name])

    threads = [threading.Thread(target=ask, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({a["game_uuid"] for a in answers.values()}) == 1
    new = next(iter(answers.values()))["game_uuid"]
    seated = {p["nickname"] for p in state(client, new)["players"]}
    assert seated == set(names)


def test_rule_changes_racing_joins_lose_no_player_and_no_rule(client: TestClient) -> None:
    game, players = table(client, "ann")
    names = [f"p{i}" for i in range(6)]
    barrier = threading.Barrier(len(names) + 1)

    def enter(name: str) -> None:
        barrier.wait()
        join(client, game, name)

    def change() -> None:
        barrier.wait()
        for jokers in (1, 2, 3):
            answer = client.get(
                f"/games/{game}/change-rules",
                params={"admin_uuid": players["ann"], "jokers": str(jokers)},
            )
            assert answer.status_code in (200, 409), answer.text

    threads = [threading.Thread(target=enter, args=(n,)) for n in names]
    threads.append(threading.Thread(target=change))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seen = state(client, game)
    assert {p["nickname"] for p in seen["players"]} == {"ann", *names}
    assert seen["rules"]["jokers"] in (1, 2, 3)


# --------------------------------------------------------------------------- the oracle

VARIANTS = [
    {"deck_size": "32"},
    {"jokers": "2"},
    {"deck_size": "32", "jokers": "3", "blanks": "2"},
    {"common_cards": "2"},
    {"common_cards": "-1", "jokers": "1"},
    {"deck_size": "32", "common_cards": "-2", "blanks": "4", "initial_cards": "2"},
]


def _oracle_exists(bet: int, deck: int, cards: list[tuple[int, int]], wild: int) -> bool:
    """Whether the set of ``bet`` is among ``cards`` (value, colour) with ``wild`` jokers,
    from the written rules: kinds in order, each a count of what is missing."""
    values = deck // 4
    by_value = Counter(v for v, _ in cards)
    by_colour = Counter(c for _, c in cards)
    have = set(cards)
    straights = [list(range(i, i + 5)) for i in range(values - 4)]
    if deck == 24:
        straights.append(list(range(6)))
    kinds: list[tuple[str, list[Any]]] = [
        ("high", list(range(values))),
        ("pair", list(range(values))),
        ("two pair", [(x, y) for x in range(values) for y in range(x)]),
        ("straight", straights),
        ("three", list(range(values))),
        ("full", [(x, y) for x in range(values) for y in range(values) if x != y]),
        ("flush", list(range(4))),
        ("four", list(range(values))),
        ("straight flush", [(s, c) for s in straights for c in range(4)]),
    ]
    index = bet
    for kind, options in kinds:
        if index >= len(options):
            index -= len(options)
            continue
        o = options[index]

        def short(value: int, need: int) -> int:
            return max(0, need - by_value[value])

        if kind == "straight":
            missing = sum(1 for v in o if not by_value[v])
        elif kind == "flush":
            missing = max(0, 5 - by_colour[o])
        elif kind == "straight flush":
            missing = sum(1 for v in o[0] if (v, o[1]) not in have)
        else:
            needs = {"high": (1,), "pair": (2,), "two pair": (2, 2), "three": (3,)}
            needs |= {"full": (3, 2), "four": (4,)}
            wanted = (o,) if isinstance(o, int) else o
            missing = sum(short(v, n) for v, n in zip(wanted, needs[kind], strict=True))
        return missing <= wild
    raise AssertionError(f"no set {bet}")


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items())
)
def test_every_round_s_loser_is_who_the_cards_say_in_every_variant(
    client: TestClient, variant: dict[str, str]
) -> None:
    rng = random.Random(str(variant))
    names = ["ann", "bob", "cid"]
    judged = 0
    for _ in range(3):
        game, players = table(client, *names, **variant)
        start(client, game, players["ann"])
        for _ in range(3000):
            seen = state(client, game)
            if seen["status"] == "Finished":
                break
            mover = seen["cp_nickname"]
            legal = state(client, game, players[mover])["legal_actions"]
            bets = legal[:-1] if seen["history"] else legal
            check = legal[-1] if seen["history"] else None
            if check is not None and (rng.random() < 0.4 or not bets):
                action = check
            else:
                action = rng.choice(bets[:6])
            answer = client.get(
                f"/games/{game}/play", params={"player_uuid": players[mover], "action_id": action}
            )
            assert answer.status_code == 200, answer.text
            if action != check:
                continue
            snap = answer.json()
            deck = snap["rules"]["deck_size"]
            history = snap["history"]
            bettor, bet = history[-3]["player"], history[-3]["action_id"]
            checker, loser = history[-2]["player"], history[-1]["player"]
            assert history[-2]["action_id"] == {24: 88, 32: 140}[deck]
            assert history[-1]["action_id"] == {24: 89, 32: 141}[deck]
            pool = [c for h in snap["hands"] for c in h["hand"]] + snap["common_hand"]
            cards = [(c["value"], c["colour"]) for c in pool if c["value"] >= 0]
            bettor_hand = next(h["hand"] for h in snap["hands"] if h["nickname"] == bettor)
            wild = sum(1 for c in [*bettor_hand, *snap["common_hand"]] if c["value"] == -1)
            found = _oracle_exists(bet, deck, cards, wild)
            assert loser == (checker if found else bettor), (bet, cards, wild)
            judged += 1
        else:
            raise AssertionError("the game did not end")
    assert judged >= 10


def test_the_finished_game_tells_who_asked_for_the_rematch_but_never_where_it_is(
    client: TestClient,
) -> None:
    game, players = table(client, "ann", "bob")
    start(client, game, players["ann"])
    finish(client, game, players)
    made = create(client, previous_game_uuid=game, previous_player_uuid=players["bob"])
    seen = state(client, game)
    assert seen["rematch"] == {"asked": ["bob"]}
    assert made["game_uuid"] not in client.get(f"/games/{game}").text
    create(client, previous_game_uuid=game, previous_player_uuid=players["ann"])
    create(client, previous_game_uuid=game, previous_player_uuid=players["ann"])
    assert state(client, game)["rematch"] == {"asked": ["bob", "ann"]}


@pytest.mark.parametrize(
    ("path", "params", "words"),
    [
        (
            "/games/not-a-uuid/change-rules",
            {"admin_uuid": "{admin}", "jokers": "1"},
            "Invalid game UUID",
        ),
        (
            "/games/6f1c1a2e-3b4d-4c5e-8f70-1a2b3c4d5e6f/change-rules",
            {"admin_uuid": "6f1c1a2e-3b4d-4c5e-8f70-1a2b3c4d5e6f", "jokers": "1"},
            "Game does not exist",
        ),
        ("/games/{game}/set-readiness", {"ready": "True"}, "Player UUID missing"),
        (
            "/games/{game}/set-readiness",
            {"player_uuid": "6f1c1a2e-3b4d-4c5e-8f70-1a2b3c4d5e6f", "ready": "True"},
            "does not match any active player",
        ),
        ("/games/{game}/invite-aiagent", {"admin_uuid": "{admin}"}, "Agent name missing"),
        (
            "/games/{game}/invite-aiagent",
            {"admin_uuid": "{admin}", "agent_name": "Nobody"},
            "Invalid agent_name",
        ),
    ],
)
def test_the_newer_service_s_refusals_carry_its_words(
    client: TestClient, path: str, params: dict[str, str], words: str
) -> None:
    game, players = table(client, "ann", "bob")
    filled = {k: v.replace("{admin}", players["ann"]) for k, v in params.items()}
    answer = client.get(path.replace("{game}", game), params=filled)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]
