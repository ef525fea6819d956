"""An account's name in a real browser, on a phone and on a desktop: the rule said before
typing, each problem said next to the field as the person types (the field marked, the
sentence tied to it), the button naming the account only when the name can be one, the
service's refusals next to the field too, and a limit told as a time to come back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from benchmarks.load import Server
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
    page.get_by_text(
        re.compile(
            r"You have tried many names in a short time: you can try again in 40 seconds, at "
        )
    ).wait_for()
    assert page.locator("#make-account").is_disabled()
