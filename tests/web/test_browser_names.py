"""An account's name in a real browser, on a phone and on a desktop: the rule said before
typing, each problem said next to the field as the person types (the field marked, the
sentence tied to it), the button naming the account only when the name can be one, the
service's refusals next to the field too, and a limit told as a time to come back."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from benchmarks.load import Server
from tests.support.waiting import eventually
from tests.web.pages import axe_violations, with_axe

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def _account_requests(page: Any) -> list[str]:
    made: list[str] = []
    page.on(
        "request",
        lambda r: (
            made.append(r.post_data or "")
            if r.url.endswith("/ladder/accounts") and r.method == "POST"
            else None
        ),
    )
    return made


def _says(page: Any, text: str | re.Pattern[str]) -> None:
    """Wait until the line under the field says ``text``."""
    page.locator("#account-name-help", has_text=text).wait_for()


def _marked(page: Any) -> bool:
    field = page.locator("#account-name")
    assert field.get_attribute("aria-describedby") == "account-name-help"
    return field.get_attribute("aria-invalid") == "true"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_name_is_checked_as_it_is_typed_and_refusals_are_said_at_the_field(
    server: Server, new_page: Any, size: str
) -> None:
    page = new_page(*SIZES[size])
    with_axe(page)
    made = _account_requests(page)
    page.goto(server.url + "/")
    field = page.get_by_label("Name for your account")
    button = page.locator("#make-account")
    _says(page, "2 to 64 characters: a letter first")  # said before typing
    assert button.inner_text() == "Make an account"

    page.get_by_label("Your name").fill("name_")  # the lobby's name, followed here
    _says(page, "A name cannot end with _.")
    assert field.input_value() == "name_" and _marked(page)
    lobby = page.locator("#your-name")  # a game's nickname keeps the same rule of form
    assert lobby.get_attribute("aria-invalid") == "true"
    assert page.locator("#name-help").inner_text() == "A name cannot end with _."
    assert button.inner_text() == "Make an account"
    assert axe_violations(page) == []

    for typed, said in [
        ("admin", "“admin” is kept for the people who run the service"),
        ("Easy_AI", "“Easy_AI” is a computer player's name"),
        ("Anna Maria", "A name has no spaces"),
        ("K", "A name has at least 2 characters."),
    ]:
        field.fill(typed)
        _says(page, said)
        assert _marked(page) and button.inner_text() == "Make an account"
    button.click()
    assert page.evaluate("document.activeElement.id") == "account-name"
    assert made == []  # nothing the rules refuse is sent

    field.fill("Shit_head")  # only the service reads rudeness: it refuses, said at the field
    assert not _marked(page) and button.inner_text() == "Make an account as Shit_head"
    button.click()
    _says(page, "That name is not allowed here. Choose a polite one.")
    assert _marked(page) and button.inner_text() == "Make an account"
    assert axe_violations(page) == []

    handle = f"Kasia_{size}"
    field.fill(handle)
    assert not _marked(page) and button.inner_text() == f"Make an account as {handle}"
    button.click()
    page.get_by_role("heading", name=f"Signed in as {handle}").wait_for()
    assert [json.loads(body)["handle"] for body in made] == ["Shit_head", handle]
    assert axe_violations(page) == []


def test_a_limit_on_tries_says_when_to_come_back_and_holds_the_button_till_then(
    server: Server, new_page: Any
) -> None:
    page = new_page(*SIZES["phone"])
    page.route(
        re.compile(r".*/ladder/accounts$"),
        lambda route: route.fulfill(
            status=429,
            headers={"Retry-After": "40", "Content-Type": "application/json"},
            body=json.dumps({"error": "Too many", "code": "rate_limited"}),
        ),
    )
    page.goto(server.url + "/")
    page.get_by_label("Name for your account").fill("Zuzanna")
    page.locator("#make-account").click()
    _says(page, re.compile(r"You have tried many names in a short time: you can try again in 40 s"))
    assert page.locator("#make-account").is_disabled()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_computer_player_is_named_alike_at_a_rated_table_and_on_the_board(
    server: Server, new_page: Any, size: str
) -> None:
    """A person lets a computer level fill their rated table at once: the table is headed
    as a rated game, nobody is its host, and the computer's seat, the board's row and its
    profile all read its level's one name ("Beginner (computer)")."""
    handle = f"Filler_{size}"
    with httpx.Client(base_url=server.url, timeout=30) as http:
        secret = http.post("/ladder/accounts", json={"handle": handle}).json()["secret"]
        me = {"Authorization": f"Bearer {secret}"}
        http.post("/ladder/queue", json={"pool": "standard-2", "fill_after": 0}, headers=me)
        seat = _until(lambda: http.get("/ladder/queue", headers=me).json(), "seated")
    page = new_page(*SIZES[size])
    with_axe(page)
    page.goto(server.url + "/")
    page.evaluate(
        "([h, s]) => localStorage.setItem('blef:account', JSON.stringify({handle: h, secret: s}))",
        [handle, secret],
    )
    page.reload()
    page.locator("#rated-in-play").get_by_role("link").click()
    page.get_by_role("heading", name=re.compile(r"^Rated game · 2 players")).wait_for()
    assert "host" not in page.locator("main").inner_text()
    seat_names = page.locator(".seats .name").all_inner_texts()
    computer = next(name for name in seat_names if name != handle)
    assert re.fullmatch(r"(Beginner|Easy|Medium|Hard) \(computer\)", computer), seat_names
    assert axe_violations(page) == []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        http.post(
            f"/games/{seat['game_uuid']}/resign",
            headers={"Authorization": f"Bearer {seat['player_uuid']}"},
        )
        _until(lambda: http.get("/ladder/queue", headers=me).json(), "idle")
    page.goto(server.url + "/#/ladder/standard-2")
    row = page.locator("#leaderboard tbody tr", has_text=computer)
    row.wait_for()
    assert row.get_by_role("link").inner_text() == computer  # the table's name, the board's
    assert "bot" not in row.inner_text() and "AI_" not in row.inner_text()
    row.get_by_role("link").click()
    page.get_by_role("heading", name=computer).wait_for()
    assert axe_violations(page) == []


def _until(read: Any, state: str) -> Any:
    return eventually(lambda: (answer := read())["state"] == state and answer, f"{state!r}")


def test_a_tables_join_form_checks_the_name_as_typed_by_the_same_rule(
    server: Server, new_page: Any
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        game = http.post("/games/create", json={"nickname": "Host"}).json()["game_uuid"]
    page = new_page(*SIZES["phone"])
    with_axe(page)
    page.goto(f"{server.url}/#/game/{game}")
    field = page.locator("#nickname")
    field.fill("bob_")
    page.locator("#nickname-help", has_text="A name cannot end with _.").wait_for()
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == "nickname-help"
    assert axe_violations(page) == []
    field.fill("Łukasz")  # a letter of any script, as the service takes it
    assert field.get_attribute("aria-invalid") == "false"
    page.get_by_role("button", name="Join").click()
    page.locator(".you").get_by_text("Łukasz", exact=True).wait_for()
