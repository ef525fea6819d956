"""The store contract for what the table says around a game: the ``social`` part of a
game's document, and nickname reports kept for the operator past the game's expiry."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.store.base import GameStore, Report
from app.store.dynamo.store import DynamoStore
from app.store.sqlite import SqliteStore
from tests.store.games import new_doc, next_doc, running_game

T0 = 1_763_700_000.25
DAY = 24 * 3600


LATER = int(time.time()) + 30 * DAY
"""An expiry safely in the future (stores compare expiry with the real clock), one value so
that reports built at different moments compare equal."""


def _past() -> int:
    return int(time.time()) - 60


def _report(n: int, *, game: str = "g-1", reporter: str = "alice", **changes: Any) -> Report:
    report = Report(game, reporter, f"nick{n}", T0 + n, LATER)
    return replace(report, **changes)


SOCIAL = {
    "reactions": [{"nickname": "bob", "reaction": "👍", "at": T0}],
    "reports": {"bob": ["alice"]},
    "hidden": ["bob"],
}


def test_the_social_part_of_a_game_round_trips_with_its_document(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"), social=SOCIAL)
    store.create(doc)
    loaded = store.load(doc.game_uuid)
    assert loaded is not None
    assert loaded.social == SOCIAL


def test_the_social_part_survives_a_save_and_a_save_can_change_it(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"), social=SOCIAL)
    store.create(doc)
    changed = {
        **SOCIAL,
        "reactions": [*SOCIAL["reactions"], {"nickname": "alice", "reaction": "🎉", "at": T0 + 1}],
    }
    store.save(next_doc(doc, social=changed), 1)
    loaded = store.load(doc.game_uuid)
    assert loaded is not None
    assert loaded.social == changed
    store.save(next_doc(loaded), 2)  # a save that does not touch it keeps it
    again = store.load(doc.game_uuid)
    assert again is not None
    assert again.social == changed


def test_a_game_stored_without_social_loads_with_an_empty_one(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"))
    store.create(doc)
    loaded = store.load(doc.game_uuid)
    assert loaded is not None
    assert loaded.social == {}


def test_reports_are_listed_newest_first_up_to_the_limit(store: GameStore) -> None:
    reports = [_report(n) for n in (2, 5, 1, 4, 3)]
    for report in reports:
        store.add_report(report)
    newest_first = sorted(reports, key=lambda r: r.reported_at, reverse=True)
    assert store.list_reports(10) == newest_first
    assert store.list_reports(3) == newest_first[:3]


def test_no_reports_list_empty(store: GameStore) -> None:
    assert store.list_reports(50) == []


def test_the_same_report_again_replaces_it_rather_than_adding_one(store: GameStore) -> None:
    first = _report(1)
    store.add_report(first)
    store.add_report(_report(2))
    again = replace(first, reported_at=T0 + 10)
    store.add_report(again)
    assert store.list_reports(10) == [again, _report(2)]


def test_reports_differing_in_game_reporter_or_nickname_are_all_kept(store: GameStore) -> None:
    base = _report(1)
    variants = [
        base,
        replace(base, game_uuid="g-2", reported_at=T0 + 2),
        replace(base, reporter="carol", reported_at=T0 + 3),
        replace(base, nickname="nick9", reported_at=T0 + 4),
    ]
    for report in variants:
        store.add_report(report)
    assert store.list_reports(10) == variants[::-1]


def test_an_expired_report_is_not_listed(store: GameStore) -> None:
    live, expired = _report(1), _report(2, expires_at=_past())
    store.add_report(live)
    store.add_report(expired)
    assert store.list_reports(10) == [live]


def test_a_report_outlives_the_purge_of_its_game(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"), expires_at=_past())
    store.create(doc)
    report = _report(1, game=doc.game_uuid, nickname="bob")
    store.add_report(report)
    store.purge_expired(time.time())
    assert store.load(doc.game_uuid) is None
    assert store.list_reports(10) == [report]


def test_the_sqlite_purge_deletes_expired_reports_and_keeps_live_ones(tmp_path: Path) -> None:
    sqlite = SqliteStore(tmp_path / "blef.db")
    try:
        live, expired = _report(1), _report(2, expires_at=_past())
        sqlite.add_report(live)
        sqlite.add_report(expired)
        assert sqlite.purge_expired(time.time()) == 0  # still the count of games
        rows = sqlite._connection().execute("SELECT nickname FROM reports").fetchall()
        assert rows == [("nick1",)]
        assert sqlite.list_reports(10) == [live]
    finally:
        sqlite.close()


def test_a_sqlite_file_made_before_reports_gets_their_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE games (game_uuid TEXT PRIMARY KEY, version INTEGER NOT NULL,"
        " doc TEXT NOT NULL, listed INTEGER NOT NULL, last_modified REAL NOT NULL,"
        " expires_at INTEGER NOT NULL, room INTEGER NOT NULL, nicknames TEXT NOT NULL)"
    )
    old.commit()
    old.close()
    sqlite = SqliteStore(path)
    try:
        sqlite.add_report(_report(1))
        assert sqlite.list_reports(10) == [_report(1)]
    finally:
        sqlite.close()


@pytest.mark.parametrize(
    ("reporter", "nickname"),
    [
        ("Łukasz", "Żółć_gęślą"),
        ("ñandú", "ΑΒΓ_δ"),
        ("alice", "x" * 64),
        ("r" * 64, "日本語の名前"),
    ],
)
def test_unicode_and_longest_nicknames_are_kept_exactly(
    store: GameStore, reporter: str, nickname: str
) -> None:
    report = Report("g-1", reporter, nickname, T0, LATER)
    store.add_report(report)
    store.add_report(report)
    assert store.list_reports(10) == [report]


def test_many_reports_are_all_listed_with_a_large_limit(store: GameStore) -> None:
    if isinstance(store, DynamoStore):
        store.query_page_size = 40  # several pages, as a big table's 1 MB pages would be
    reports = [_report(n, game=f"g-{n % 7}", reporter=f"p{n % 5}") for n in range(150)]
    for report in reports:
        store.add_report(report)
    if isinstance(store, DynamoStore):
        store.reset_request_count()
    listed = store.list_reports(1000)
    assert listed == sorted(reports, key=lambda r: r.reported_at, reverse=True)
    if isinstance(store, DynamoStore):
        assert store.requests["Query"] == 4  # 150 items in pages of 40: it read them all
    assert store.list_reports(100) == listed[:100]
