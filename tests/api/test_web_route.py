"""The browser client's files: served by the app itself, with a strict CSP, and nothing else."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.web import STATIC_DIR


def test_the_page_is_served_at_the_root_with_a_self_only_content_security_policy(
    client: TestClient,
) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self';" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    assert '<script type="module" src="/app/main.js">' in r.text


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("main.js", "text/javascript"),
        ("bets.js", "text/javascript"),
        ("preact.js", "text/javascript"),
        ("style.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
        ("rules.md", "text/markdown"),
    ],
)
def test_every_module_and_style_is_served_under_app_with_its_type(
    client: TestClient, name: str, kind: str
) -> None:
    r = client.get(f"/app/{name}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith(kind)
    assert r.text == (STATIC_DIR / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "path",
    [
        "/app/..%2F..%2Fsettings.py",
        "/app/%2e%2e%2fapi%2fmain.py",
        "/app/__init__.py",
        "/app/nothing.js",
        "/app/.hidden.js",
        "/app/main.js%00.css",
    ],
)
def test_a_path_outside_the_clients_files_is_a_404_json_error(
    client: TestClient, path: str
) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"


def test_the_page_loads_no_asset_from_another_origin() -> None:
    for path in STATIC_DIR.iterdir():
        # XML namespace names (SVG's, in the favicon and in Preact) are names, not addresses.
        text = re.sub(r"http://www\.w3\.org/[0-9]{4}/[A-Za-z/]+", "", path.read_text("utf-8"))
        assert "http://" not in text
        assert "https://" not in text
        assert "//cdn" not in text


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.text(min_size=1, max_size=50))
def test_no_file_name_gets_a_5xx_or_a_file_outside_the_clients_folder(
    client: TestClient, name: str
) -> None:
    r = client.get("/app/" + quote(name, safe=""))
    assert r.status_code in {200, 404}
    if r.status_code == 200:
        assert (STATIC_DIR / name).is_file()


def test_the_rules_the_page_shows_are_docs_rules_md() -> None:
    docs = STATIC_DIR.parents[2] / "docs" / "rules.md"
    assert (STATIC_DIR / "rules.md").read_text(encoding="utf-8") == docs.read_text(encoding="utf-8")
