"""Passkeys in a real browser, with Chromium's virtual authenticator (over CDP) against a live
`blef serve`, whose passkeys' origin is http://localhost:<port> by default: so the pages are
opened at localhost (a secure context with a domain for the RP ID) while the server listens on
127.0.0.1. A person makes an account and adds a passkey; a second browser context (a new
device) gets the same credential as a synced passkey would, signs in with it and sees the
same handle and rating; it signs out, signs in again, and deletes the account, after which
the passkey opens nothing."""

from __future__ import annotations

import re
import time
from typing import Any

from benchmarks.load import Server
from tests.web.pages import axe_violations, with_axe

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def local(server: Server) -> str:
    return f"http://localhost:{server.port}"


def authenticator(page: Any) -> tuple[Any, str]:
    """A virtual platform authenticator for this page's browser context (its own device)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, made["authenticatorId"]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def wait_for(ask: Any, what: str, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = ask()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds} s for {what}")


def rate(page: Any, base: str, secret: str) -> None:
    """Give the account a rating: a rated two-player game against a new account, which
    resigns (through the API, as a second person's page would)."""
    api = page.request
    bob = api.post(f"{base}/ladder/accounts", data={"handle": "bob"}).json()["secret"]
    for key in (secret, bob):
        api.post(f"{base}/ladder/queue", data={"pool": "standard-2"}, headers=bearer(key))
    seat = wait_for(
        lambda: (
            (q := api.get(f"{base}/ladder/queue", headers=bearer(bob)).json())["state"] == "seated"
            and q
        ),
        "the matcher to seat both",
    )
    api.post(f"{base}/games/{seat['game_uuid']}/resign", headers=bearer(seat["player_uuid"]))
    wait_for(
        lambda: "last_result" in api.get(f"{base}/ladder/queue", headers=bearer(secret)).json(),
        "the game to be rated",
    )


def test_a_passkey_added_on_one_device_signs_in_on_another_with_the_same_account(
    server: Server, new_page: Any
) -> None:
    base = local(server)
    phone = new_page(390, 844)
    with_axe(phone)
    phone_cdp, phone_key = authenticator(phone)

    phone.goto(base + "/")
    phone.get_by_label("Your name").fill("alice")
    phone.get_by_role("button", name=re.compile("^Make an account")).click()
    phone.get_by_role("heading", name="Signed in as alice").wait_for()
    secret = phone.evaluate("JSON.parse(localStorage.getItem('blef:account')).secret")
    phone.get_by_role("button", name="Add a passkey to this account").click()
    phone.locator("#passkey-status", has_text="Passkey added.").wait_for()
    phone.locator("#view").get_by_text("This account has 1 passkey").wait_for()
    assert axe_violations(phone) == []
    (credential,) = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})[
        "credentials"
    ]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    rate(phone, base, secret)
    phone.goto(base + "/#/ladder/standard-2")
    rank = phone.locator("#your-rank").inner_text()
    assert rank.startswith("Your rank: 1")

    # A new device: the same passkey, synced to its own authenticator.
    laptop = new_page(1280, 800)
    with_axe(laptop)
    laptop_cdp, laptop_key = authenticator(laptop)
    laptop_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": laptop_key, "credential": credential}
    )
    laptop.goto(base + "/")
    laptop.get_by_role("button", name="Sign in with a passkey").wait_for()
    assert axe_violations(laptop) == []
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    laptop.get_by_role("heading", name="Signed in as alice").wait_for()
    kept = laptop.evaluate("JSON.parse(localStorage.getItem('blef:account'))")
    assert kept["handle"] == "alice" and kept["device"] is True
    assert kept["secret"] != secret, "the new device has a key of its own"
    assert axe_violations(laptop) == []
    laptop.goto(base + "/#/ladder/standard-2")
    assert laptop.locator("#your-rank").inner_text() == rank

    # The laptop signs out: its own key is forgotten by the service, the phone's is not.
    laptop.goto(base + "/")
    laptop.once("dialog", lambda dialog: dialog.accept())
    laptop.get_by_role("button", name="Sign out").click()
    laptop.get_by_role("button", name="Sign in with a passkey").wait_for()
    api = laptop.request
    assert api.get(f"{base}/ladder/me", headers=bearer(kept["secret"])).status == 400
    assert api.get(f"{base}/ladder/me", headers=bearer(secret)).status == 200

    # Signed in again, the laptop deletes the account, after a confirmation.
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    laptop.get_by_role("heading", name="Signed in as alice").wait_for()
    asked: list[str] = []

    def confirm(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    laptop.once("dialog", confirm)
    laptop.get_by_role("button", name="Delete account").click()
    laptop.get_by_role("button", name=re.compile("^Make an account")).wait_for()
    assert asked and asked[0].startswith("Delete the account alice for good?")
    assert laptop.evaluate("localStorage.getItem('blef:account')") is None
    assert api.get(f"{base}/ladder/me", headers=bearer(secret)).status == 400
    laptop.get_by_role("button", name="Sign in with a passkey").click()
    laptop.locator("#view").get_by_text("That passkey opens no account here").wait_for()
    assert laptop.evaluate("localStorage.getItem('blef:account')") is None
    laptop.goto(base + "/#/player/alice")
    laptop.locator("#view").get_by_text("No player has that name.").wait_for()


def test_a_deletion_is_refused_in_words_while_waiting_for_a_game(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    page.goto(local(server) + "/")
    page.get_by_label("Your name").fill("carol")
    page.get_by_role("button", name=re.compile("^Make an account")).click()
    page.get_by_role("heading", name="Signed in as carol").wait_for()
    page.get_by_role("button", name="Find a rated game").click()
    page.locator("#waited").wait_for()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete account").click()
    page.get_by_text("Leave the queue, or finish your rated game, before deleting").first.wait_for()
    assert page.evaluate("localStorage.getItem('blef:account')") is not None
    page.get_by_role("button", name="Cancel").click()
