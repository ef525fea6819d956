"""Blef under the shape every game shares (``/blef/games/...``, app/service/blef_tables.py),
as a bot author uses it: one generic client, written against the tables' contract only,
plays Blef, Economancy and Figgie to their results; the same game is the same at the
established ``/games/{uuid}``; and as the adversary tries it (a wrong secret, a spectator
moving, malformed and out-of-turn moves, a replayed Idempotency-Key)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.main import create_app
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.support.api import bearer
from tests.support.clock import FakeClock

Chooser = Callable[[dict[str, Any]], Any]


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def timed(tmp_path: Path, fake_clock: FakeClock) -> Iterator[tuple[TestClient, LocalClock]]:
    """A service whose time moves only when the test says so, and its game clock."""
    settings = Settings(db_path=tmp_path / "timed.db", ai_think_seconds=0, run_clock=False)
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings, clock=fake_clock)
    with TestClient(create_app(settings, service), raise_server_exceptions=False) as http:
        yield http, LocalClock(service)
    store.close()


# ---------------------------------------------------------------------- a generic bot


def _blef_move(table: dict[str, Any]) -> Any:
    """Open with the lowest bet, then check."""
    legal = table["view"]["legal_actions"]
    return {"action_id": legal[-1] if table["view"]["history"] else legal[0]}


def _economancy_move(table: dict[str, Any]) -> Any:
    view = table["view"]
    phase = view["phase"]["name"]
    if phase == "investing":
        return [0]
    if phase == "buy":
        return ["Pass"]
    if phase == "attacking" and view["phase"]["attacker"] == view["player"]:
        return [0]
    return [1]


def _figgie_move() -> Chooser:
    """One bid per seat, then wait for the end of trading."""
    bid: set[int] = set()

    def choose(table: dict[str, Any]) -> Any:
        if table["you"] in bid:
            return None
        bid.add(table["you"])
        return {"type": "bid", "suit": "hearts", "price": 1}

    return choose


def play_to_the_end(
    client: TestClient,
    kind: str,
    choose: Chooser,
    wait: Callable[[float], None],
    seats_wanted: int | None = None,
    seen: Callable[[dict[str, Any]], None] = lambda _table: None,
) -> tuple[str, dict[str, Any]]:
    """What a bot author writes from the contract alone, the same for every game: make a
    table, seat the fewest players the game takes, start, then poll each seat and move when
    it is its turn until the result; ``wait`` a while when nobody has anything to do, or as
    long as a 429's ``Retry-After`` says."""
    info = client.get(f"/{kind}").json()
    created = client.post(f"/{kind}/games", json={})
    assert created.status_code == 201, created.text
    game = created.json()["game_uuid"]
    url = f"/{kind}/games/{game}"
    seats = []
    for n in range(seats_wanted or info["min_seats"]):
        joined = client.post(f"{url}/join", json={"nickname": f"bot{n}"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == n
        seats.append(joined.json()["player_uuid"])
    started = client.post(f"{url}/start", headers=bearer(seats[0]))
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "Running"
    for _ in range(2000):
        moved = False
        for secret in seats:
            table = client.get(url, headers=bearer(secret)).json()
            if table["status"] == "Finished":
                return game, table
            if table["your_turn"]:
                assert table["you"] in table["turn"]["seats"]
                move = choose(table)
                if move is not None:
                    r = client.post(f"{url}/move", headers=bearer(secret), json=move)
                    if r.status_code == 429:
                        wait(float(r.headers["Retry-After"]))
                        continue
                    assert r.status_code == 200, r.text
                    seen(r.json())
                    moved = True
        if not moved:
            wait(60)
    raise AssertionError(f"the {kind} game did not finish")


@pytest.mark.parametrize("kind", ["blef", "economancy", "figgie"])
def test_one_generic_bot_plays_every_game_to_its_result(
    kind: str, timed: tuple[TestClient, LocalClock], fake_clock: FakeClock
) -> None:
    client, clock = timed
    choosers: dict[str, Chooser] = {
        "blef": _blef_move,
        "economancy": _economancy_move,
        "figgie": _figgie_move(),
    }

    def wait(seconds: float) -> None:
        fake_clock.advance(seconds)
        clock.run_until_idle()

    _game, final = play_to_the_end(client, kind, choosers[kind], wait)
    n = len(final["seats"])
    assert final["result"] is not None
    assert sorted(final["result"]["places"])[0] == 1
    assert all(1 <= place <= n for place in final["result"]["places"])
    assert final["turn"] is None and final["your_turn"] is False


def test_blef_describes_itself_as_every_game_does(client: TestClient) -> None:
    info = client.get("/blef").json()
    assert (info["name"], info["min_seats"], info["max_seats"]) == ("blef", 2, 8)
    assert info["rules"]["deck_size"] == 24
    assert {"random", "probabilist", "bayesian"} <= set(info["agents"])


def test_a_blef_result_places_the_seats_in_the_order_they_went_out_of_three(
    timed: tuple[TestClient, LocalClock], fake_clock: FakeClock
) -> None:
    client, _clock = timed
    out: list[int] = []

    def note(table: dict[str, Any]) -> None:
        out.extend(s for s, n in enumerate(table["view"]["cards"]) if n == 0 and s not in out)

    _game, final = play_to_the_end(client, "blef", _blef_move, fake_clock.advance, 3, note)
    places = final["result"]["places"]
    assert len(out) == 2
    assert (places[out[0]], places[out[1]]) == (3, 2)
    assert places.count(1) == 1


def test_a_blef_result_places_the_seats_in_the_order_they_went_out(
    timed: tuple[TestClient, LocalClock], fake_clock: FakeClock
) -> None:
    client, _clock = timed
    game, final = play_to_the_end(client, "blef", _blef_move, fake_clock.advance)
    places = final["result"]["places"]
    assert sorted(places) == [1, 2] and final["result"]["reason"] == "last_standing"
    out = final["view"]["cards"].index(0)  # the seat left without cards is last
    assert places[out] == 2
    assert final["events"][-1] == {"kind": "game_over"}
    record = client.get(f"/games/{game}/record")
    assert record.status_code == 200  # the established record of the same game


def test_a_game_made_at_blef_games_is_the_same_game_at_games(client: TestClient) -> None:
    created = client.post("/blef/games", json={"rules": {"deck_size": 32}, "public": True})
    game = created.json()["game_uuid"]
    listed = client.get("/blef/games").json()["games"]
    assert [g["game_uuid"] for g in listed] == [game]
    assert [g["game_uuid"] for g in client.get("/games").json()] == [game]
    ann = client.post(f"/blef/games/{game}/join", json={"nickname": "ann"}).json()
    # a player may join by the established route too: the same lobby
    bob = client.post(f"/games/{game}/join", json={"nickname": "bob"}).json()
    table = client.post(f"/blef/games/{game}/start", headers=bearer(ann["player_uuid"])).json()
    state = client.get(f"/games/{game}", headers=bearer(ann["player_uuid"])).json()

    def agree(table: dict[str, Any], state: dict[str, Any]) -> None:
        assert table["version"] == state["version"]
        assert table["status"] == state["status"]
        assert table["rules"]["deck_size"] == state["rules"]["deck_size"] == 32
        assert [s["nickname"] for s in table["seats"]] == [p["nickname"] for p in state["players"]]
        assert table["view"]["cards"] == [p["n_cards"] for p in state["players"]]
        assert [a for _s, a in table["view"]["history"]] == [
            m["action_id"] for m in state["history"]
        ]
        turn = table["turn"]["seats"][0]
        assert table["seats"][turn]["nickname"] == state["cp_nickname"]
        shown = {h["nickname"]: h["hand"] for h in state["hands"]}
        seen = {table["seats"][int(s)]["nickname"]: h for s, h in table["view"]["hands"].items()}
        assert seen == shown
        assert table["view"].get("legal_actions") == state.get("legal_actions")

    agree(table, state)
    secrets = {"ann": ann["player_uuid"], "bob": bob["player_uuid"]}
    first = secrets[state["cp_nickname"]]
    # a move at the established route shows at the table, and the other way round
    r = client.post(f"/games/{game}/play", headers=bearer(first), json={"action_id": 3})
    assert r.status_code == 200, r.text
    table = client.get(f"/blef/games/{game}", headers=bearer(first)).json()
    assert table["events"] == [{"kind": "bet", "seat": table["you"], "action_id": 3}]
    second = secrets[client.get(f"/games/{game}").json()["cp_nickname"]]
    r = client.post(f"/blef/games/{game}/move", headers=bearer(second), json={"action_id": 5})
    assert r.status_code == 200, r.text
    state = client.get(f"/games/{game}", headers=bearer(second)).json()
    agree(r.json(), state)
    assert [m["action_id"] for m in state["history"]] == [3, 5]


def test_the_lobby_verbs_of_blef_answer_the_table(client: TestClient) -> None:
    game = client.post("/blef/games", json={}).json()["game_uuid"]
    url = f"/blef/games/{game}"
    ann = client.post(f"{url}/join", json={"nickname": "ann"}).json()["player_uuid"]
    bob = client.post(f"{url}/join", json={"nickname": "bob"}).json()["player_uuid"]
    r = client.post(f"{url}/ai", headers=bearer(ann), json={"agent": "random"})
    assert r.status_code == 200, r.text
    assert [s["ai"] for s in r.json()["seats"]] == [None, None, "random"]
    assert r.json()["admin"] == "ann" and r.json()["you"] == 0
    r = client.post(f"{url}/ready", headers=bearer(bob), json={"ready": True})
    assert [s["ready"] for s in r.json()["seats"]] == [False, True, False]
    r = client.post(f"{url}/remove", headers=bearer(ann), json={"nickname": "Random_(AI)"})
    assert r.status_code == 200, r.text
    assert [s["nickname"] for s in r.json()["seats"]] == ["ann", "bob"]
    r = client.post(f"{url}/leave", headers=bearer(bob))
    assert r.status_code == 200, r.text
    assert [s["nickname"] for s in r.json()["seats"]] == ["ann"] and r.json()["you"] is None
    assert client.get(url, headers=bearer(bob)).status_code == 403  # bob's secret is spent


def test_the_adversary_gets_blefs_refusals_in_the_tables_conventions(client: TestClient) -> None:
    game = client.post("/blef/games", json={}).json()["game_uuid"]
    url = f"/blef/games/{game}"
    ann = client.post(f"{url}/join", json={"nickname": "ann"}).json()["player_uuid"]
    bob = client.post(f"{url}/join", json={"nickname": "bob"}).json()["player_uuid"]
    early = client.post(f"{url}/move", headers=bearer(ann), json={"action_id": 0})
    assert (early.status_code, early.json()["code"]) == (409, "game_not_started")
    refused_ai = client.post(f"{url}/ai", headers=bearer(bob), json={"agent": "random"})
    assert refused_ai.json()["code"] == "not_admin"  # as at every table (engine/table.py)
    client.post(f"{url}/start", headers=bearer(ann))
    table = client.get(url, headers=bearer(ann)).json()
    mover, waiter = (ann, bob) if table["your_turn"] else (bob, ann)
    version = table["version"]

    def refused(status: int, code: str, response: Any) -> None:
        assert response.status_code == status, response.text
        assert response.json()["code"] == code
        assert response.json()["error"]
        assert client.get(url).json()["version"] == version

    def move(body: Any, secret: str | None = mover, **headers: str) -> Any:
        sent = {**(bearer(secret) if secret else {}), **headers}
        return client.post(f"{url}/move", headers=sent, json=body)

    stranger = str(uuid.uuid4())
    refused(403, "unknown_player", move({"action_id": 0}, stranger))
    refused(403, "unknown_player", client.get(url, headers=bearer(stranger)))
    refused(403, "unknown_player", move({"action_id": 0}, None))  # a spectator
    refused(403, "unknown_player", move({"action_id": 0}, "not-a-uuid"))
    for malformed in ("3", {"action_id": "3"}, {"action_id": True}, {"move": 3}, [3], 2.5):
        refused(422, "malformed_move", move(malformed))
    refused(422, "malformed_move", move({"action_id": 0, "extra": 1}))
    refused(422, "malformed_move", move({"action_id": 500}))
    refused(409, "not_your_turn", move({"action_id": 0}, waiter))
    refused(404, "game_not_found", client.get(f"/blef/games/{uuid.uuid4()}"))
    refused(404, "game_not_found", client.get(f"/economancy/games/{game}"))
    refused(422, "invalid_rules", client.post("/blef/games", json={"rules": {"deck_size": 7}}))

    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = move({"action_id": 4}, **key)
    assert first.status_code == 200, first.text
    replay = move({"action_id": 4}, **key)
    assert replay.status_code == 200
    assert replay.json()["version"] == first.json()["version"]  # not applied twice
    assert replay.json()["view"]["history"] == first.json()["view"]["history"]
    version = first.json()["version"]
    refused(422, "idempotency_key_reused", move({"action_id": 5}, **key))
    refused(409, "illegal_action", move({"action_id": 2}, waiter))  # lower than the bet
    assert move(7, waiter).status_code == 200  # the bare action id is a move too


def test_a_blef_table_made_with_a_time_limit_takes_the_round_from_a_slow_seat(
    timed: tuple[TestClient, LocalClock], fake_clock: FakeClock
) -> None:
    client, clock = timed
    game = client.post("/blef/games", json={"time_limit": 10}).json()["game_uuid"]
    url = f"/blef/games/{game}"
    ann = client.post(f"{url}/join", json={"nickname": "ann"}).json()["player_uuid"]
    client.post(f"{url}/join", json={"nickname": "bob"})
    table = client.post(f"{url}/start", headers=bearer(ann)).json()
    slow = table["turn"]["seats"][0]
    assert table["turn"]["deadline"] == fake_clock.now + 10
    assert client.get(f"/games/{game}").json()["time_limit"] == 10
    fake_clock.advance(11)
    clock.run_until_idle()
    after = client.get(url).json()
    assert {"kind": "round_ended", "seat": slow, "round": 1} in after["events"]
    assert after["view"]["cards"][slow] == 2


def test_a_retried_blef_create_and_join_answer_the_first_table_and_seat(
    client: TestClient,
) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/blef/games", json={"public": True}, headers=key).json()
    assert client.post("/blef/games", json={"public": True}, headers=key).json() == first
    other = client.post("/blef/games", json={"public": False}, headers=key)
    assert (other.status_code, other.json()["code"]) == (422, "idempotency_key_reused")
    url = f"/blef/games/{first['game_uuid']}"
    join = {"Idempotency-Key": str(uuid.uuid4())}
    seat = client.post(f"{url}/join", json={"nickname": "ann"}, headers=join).json()
    assert client.post(f"{url}/join", json={"nickname": "ann"}, headers=join).json() == seat
    assert [s["nickname"] for s in client.get(url).json()["seats"]] == ["ann"]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)


def _names_an_action(body: Any) -> bool:
    value = body.get("action_id") if isinstance(body, dict) and len(body) == 1 else body
    return type(value) is int


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_JSON.filter(lambda body: not _names_an_action(body) and body is not None))
def test_any_body_that_names_no_action_id_is_malformed_and_changes_nothing(
    client: TestClient, body: Any
) -> None:
    game = client.post("/blef/games", json={}).json()["game_uuid"]
    url = f"/blef/games/{game}"
    seats = [client.post(f"{url}/join", json={"nickname": n}).json() for n in ("ann", "bob")]
    table = client.post(f"{url}/start", headers=bearer(seats[0]["player_uuid"])).json()
    mover = seats[0] if table["your_turn"] else seats[1]
    r = client.post(f"{url}/move", headers=bearer(mover["player_uuid"]), json=body)
    assert (r.status_code, r.json()["code"]) == (422, "malformed_move"), r.text
    assert client.get(url).json()["version"] == table["version"]
