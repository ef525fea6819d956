"""An account's name: every rule of app/ladder/handle_rules.json refused over HTTP with a 422
naming the rule in a sentence, the same verdict from the browser's check (namerules.js, run
under node) as from the service on random names, the reserved words kept, and the limit on
name tries, on a fake clock: a name merely refused never counts as an account made."""

from __future__ import annotations

import json
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.fairness import FairnessMiddleware
from app.api.main import create_app
from app.config.settings import Settings
from app.ladder import handle_rules
from app.ladder.handle_rules import problem, rules
from engine import names

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "app" / "ladder" / handle_rules.RULES_FILE
CHECKER = ROOT / "tests" / "web" / "namerules_check.mjs"
NODE = shutil.which("node")


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False, rate_limit_burst=0)
    with TestClient(create_app(settings)) as client:
        yield client


def make(http: TestClient, handle: object) -> Any:
    return http.post("/ladder/accounts", json={"handle": handle})


# ------------------------------------------------------------------ every rule, over HTTP

EXAMPLES = {
    "empty": "",
    "too_long": "A" * 65,
    "first_letter": "_Kasia",
    "space": "Anna Maria",
    "character": "Kasia!",
    "double_underscore": "Anna__Maria",
    "underscore_end": "name_",
    "too_short": "K",
    "computer": "AI_Kasia",
    "computer_name": "Easy_AI",
    "reserved": "admin",
}


def test_every_rule_of_the_data_file_has_an_example_here() -> None:
    assert set(EXAMPLES) == set(rules()["messages"])


@pytest.mark.parametrize(("rule", "handle"), sorted(EXAMPLES.items()))
def test_a_name_that_breaks_a_rule_is_refused_with_the_rule_in_a_sentence(
    http: TestClient, rule: str, handle: str
) -> None:
    answer = make(http, handle)
    body = answer.json()
    assert answer.status_code == 422, body
    assert body["rule"] == rule
    reserved = rule.startswith(("computer", "reserved"))
    assert body["code"] == ("reserved_handle" if reserved else "invalid_handle")
    assert body["error"] == problem(handle).sentence  # type: ignore[union-attr]
    assert "not of the right form" not in body["error"] and body["error"].endswith(".")
    assert http.get("/ladder/players/" + (handle or "x")).status_code in (400, 404)


@pytest.mark.parametrize(
    ("handle", "word"),
    [
        ("Admin_Kasia", "admin"),
        ("root", "root"),
        ("r00t7", "root"),
        ("4dm1n", None),  # a digit first: the first rule it breaks is the first letter
        ("Adm1n", "admin"),
        ("SYSTEM", "system"),
        ("blef_2024", "blef"),
        ("Moderator", "moderator"),
        ("\uff21\uff24\uff2d\uff29\uff2e", "admin"),  # full-width
        ("\u0430dmin", "admin"),  # a Cyrillic a: the service's look-alike check
        ("ADMlN", "admin"),  # a small L for the I
    ],
)
def test_reserved_words_and_their_look_alikes_are_refused(
    http: TestClient, handle: str, word: str | None
) -> None:
    body = make(http, handle).json()
    if word is None:
        assert body["rule"] == "first_letter"
    else:
        assert (body["code"], body["rule"]) == ("reserved_handle", "reserved")
        assert f"“{word}”" in body["error"]


@pytest.mark.parametrize(
    "handle", ["Beginner", "easy", "Medium_bot", "Hard_Computer", "CPU_Easy", "Easy2", "AIHard"]
)
def test_a_computer_levels_name_is_refused(http: TestClient, handle: str) -> None:
    body = make(http, handle).json()
    assert (body["code"], body["rule"]) == ("reserved_handle", "computer_name")


@pytest.mark.parametrize(
    "handle", ["Rooted", "Systematic", "Al_Capone", "Easy_Rider", "Hardy", "Kasia_99", "Łukasz"]
)
def test_a_name_that_only_contains_a_reserved_word_is_free(http: TestClient, handle: str) -> None:
    assert make(http, handle).status_code == 201


def test_a_name_that_is_not_text_or_missing_is_a_bad_request_not_a_rule(http: TestClient) -> None:
    assert make(http, 5).json()["code"] == "invalid_parameter"
    assert http.post("/ladder/accounts", json={}).json()["code"] == "missing_parameter"


def test_the_rules_are_published_as_the_data_file_holds_them(http: TestClient) -> None:
    assert http.get("/ladder/handle-rules").json() == json.loads(RULES.read_text())


def test_a_refused_name_makes_nothing(http: TestClient) -> None:
    assert make(http, "name_").status_code == 422
    assert make(http, "name").status_code == 201


# ------------------------------------------------------------------ the browser agrees

_NAMEISH = st.sampled_from(
    [
        *rules()["reserved_words"],
        *rules()["levels"],
        *rules()["computer_words"],
        "AI",
        "Kasia",
        "Łukasz",
        "Zoe\u0301",
        "李",
        "Ёжик",
        "\uff21",
        "\u0430",
    ]
)
_PIECE = st.one_of(
    _NAMEISH,
    st.sampled_from(["_", "__", " ", "0", "1", "4", "7", "!", "-", "\u200d", "\u0301"]),
    st.text(st.characters(exclude_categories=("Cs", "Cn")), max_size=3),
)
NAMES = st.one_of(
    st.lists(_PIECE, max_size=6).map("".join),
    st.text(st.characters(exclude_categories=("Cs", "Cn")), max_size=70),
)
"""Names near the rules' edges: reserved words and levels joined by underscores, digits,
spaces and other signs, letters of other scripts, long runs. Characters unassigned in this
Python's Unicode (``Cn``) are left out: node's may be newer, and would call them letters."""


@pytest.fixture(scope="module")
def browser_check() -> Iterator[Any]:
    if NODE is None:
        pytest.skip("node is not installed")
    process = subprocess.Popen(
        [NODE, str(CHECKER), str(RULES)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    def check(name: str) -> Any:
        stdin.write(json.dumps(name) + "\n")
        stdin.flush()
        return json.loads(stdout.readline())

    yield check
    stdin.close()
    process.wait(timeout=10)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES)
def test_the_browser_and_the_service_find_the_same_rule_broken(
    browser_check: Any, name: str
) -> None:
    found = problem(name)
    told = browser_check(name)
    if found is None:
        assert told["handle"] is None
    else:
        assert told["handle"] == {"rule": found.rule, "text": found.sentence}
    # A game's nickname: the browser refuses exactly what the engine refuses.
    assert (told["nickname"] is None) == (names.problem(unicodedata.normalize("NFC", name)) is None)


@settings(max_examples=300)
@given(name=NAMES)
def test_a_name_the_rules_accept_is_a_nickname_a_game_accepts(name: str) -> None:
    if problem(name) is None:
        assert names.problem(unicodedata.normalize("NFC", name)) is None


# ------------------------------------------------------------------ the limit on tries


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[tuple[TestClient, FakeClock]]:
    """The app with its own limits off, behind the limits of a fresh middleware on a fake
    clock (the same class and routes the app installs)."""
    clock = FakeClock()
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False, rate_limit_burst=0)
    app = FairnessMiddleware(
        create_app(settings), rate_burst=5, rate_per_second=0.5, max_in_flight=0, clock=clock
    )
    with TestClient(app) as client:  # type: ignore[arg-type]
        yield client, clock


def test_a_person_trying_refused_names_for_a_minute_is_never_held_back(
    limited: tuple[TestClient, FakeClock],
) -> None:
    """The trial's person: tries every few seconds (here twenty names, each refused, one
    every three seconds), then a good one: all answered, none held back."""
    http, clock = limited
    for i in range(20):
        assert make(http, f"name{i}_").status_code == 422
        clock.now += 3
    assert make(http, "Kasia").status_code == 201


def test_only_accounts_made_count_and_the_wait_told_is_the_wait(
    limited: tuple[TestClient, FakeClock],
) -> None:
    http, clock = limited
    assert [make(http, f"Made{i}").status_code for i in range(4)] == [201] * 4
    assert make(http, "Made0").status_code == 409  # taken: made nothing, counts nothing
    assert make(http, "Made4").status_code == 201
    refused = make(http, "Made5")
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert wait == 60
    assert refused.json()["error"].endswith("you can make another in 60 seconds.")
    clock.now += wait - 1
    assert make(http, "Made5").status_code == 429
    clock.now += 1
    assert make(http, "Made5").status_code == 201


def test_a_flood_of_names_is_held_back_and_told_when_to_come_back(
    limited: tuple[TestClient, FakeClock],
) -> None:
    http, clock = limited
    assert {make(http, f"flood{i}_").status_code for i in range(20)} == {422}
    refused = make(http, "flood_")
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert refused.headers["Retry-After"] == "3"
    assert refused.json()["error"] == (
        "You have tried many names in a short time: try again in 3 seconds."
    )
    clock.now += 3
    assert make(http, "Flood").status_code == 201
