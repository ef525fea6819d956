"""The passkeys' origin is configuration, checked when read: a scheme, a domain name and a
port at most (https, or http on localhost); ``blef serve`` defaults it to localhost."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.cli.serve import serve_settings
from app.config.settings import Settings


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://Blef.Example", "https://blef.example"),
        ("https://blef.example/", "https://blef.example"),
        ("https://blef.example:8443", "https://blef.example:8443"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("http://app.localhost", "http://app.localhost"),
        ("", None),
    ],
)
def test_an_origin_is_kept_in_its_canonical_form(given: str, kept: str | None) -> None:
    assert Settings(public_origin=given).public_origin == kept


@pytest.mark.parametrize(
    "given",
    [
        "http://blef.example",  # not a secure context
        "https://127.0.0.1",  # an RP ID is a domain name
        "https://[::1]:8000",
        "https://blef.example/play",
        "https://blef.example/?x=1",
        "https://user@blef.example",
        "ftp://blef.example",
        "blef.example",
    ],
)
def test_an_origin_passkeys_could_not_use_is_refused_when_read(given: str) -> None:
    with pytest.raises(ValidationError, match="public_origin"):
        Settings(public_origin=given)


def test_blef_serve_defaults_the_origin_to_localhost_and_keeps_one_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BLEF_PUBLIC_ORIGIN", raising=False)
    assert serve_settings(tmp_path / "b.db", 8123).public_origin == "http://localhost:8123"
    monkeypatch.setenv("BLEF_PUBLIC_ORIGIN", "https://blef.example")
    assert serve_settings(tmp_path / "b.db", 8123).public_origin == "https://blef.example"
