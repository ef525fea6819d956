"""The DynamoDB schema has one home (app/store/dynamo/keys.py): no other module spells a key,
and what the store writes is what the stream decoders read back."""

from __future__ import annotations

import ast
from pathlib import Path

from app.store.base import GameDoc, RoundSnapshot
from app.store.dynamo import keys, stream
from engine.game import Game
from tests.support.dynamo import DynamoTable

APP = Path(__file__).resolve().parents[2] / "app"
EXACT = {keys.STATE_SK, keys.REVERSE_SK, keys.ADDRESS_SK, keys.COUNTER_PK, keys.ROOM_SK}
EXACT |= {keys.REPORT_PK, keys.CREATE_SK, keys.LISTED, keys.DUE, keys.PUBLIC_WATCHERS_PK}
PREFIXES = (keys.GAME_PREFIX, keys.ROUND_PREFIX, keys.CONNECTION_PREFIX)
PREFIXES += (keys.ADDRESS_PREFIX, keys.CREATE_PREFIX)


def _spelled_keys(path: Path) -> list[str]:
    """The string constants of ``path``'s code (docstrings left out) that are a key."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        f"{path.relative_to(APP)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and (node.value in EXACT or node.value.startswith(PREFIXES))
    ]


SELECTS = APP / "store" / "dynamo" / "paging.py"
"""The Query loop: it may say ``COUNT`` (a Query's ``Select``), never a key."""


def test_no_module_but_the_keys_module_spells_a_key_of_the_games_table() -> None:
    found = [
        hit
        for path in sorted(APP.rglob("*.py"))
        if path not in (APP / "store" / "dynamo" / "keys.py", SELECTS)
        for hit in _spelled_keys(path)
    ]
    assert found == []
    assert [hit for hit in _spelled_keys(SELECTS) if not hit.endswith("'COUNT'")] == []


LADDER_KEYS = APP / "store" / "dynamo" / "ladder_keys.py"
LADDER_PREFIXES = (
    "ACCT#",
    "HANDLE#",
    "LOOK#",
    "SECRET#",
    "PASSKEY#",
    "ALLOW#",
    "CHALLENGE#",
    "QUEUE#",
)
LADDER_PREFIXES += ("QUEUE#", "TABLE#", "RATED#", "RESULTS#", "BOARD#", "MATCHER")


def test_no_module_but_the_ladder_keys_module_spells_a_key_of_the_ladder_table() -> None:
    """The ladder's table has its one home too (app/store/dynamo/ladder_keys.py): its
    store's sections build every key there, and no other module spells one."""
    found = [
        f"{path.relative_to(APP)}:{node.lineno}: {node.value!r}"
        for path in sorted(APP.rglob("*.py"))
        if path != LADDER_KEYS
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith(LADDER_PREFIXES)
    ]
    assert found == []


def test_a_saved_state_and_round_read_back_from_their_stream_images(
    moto_table: DynamoTable,
) -> None:
    store = moto_table.store()
    game = Game()
    game.join("ann"), game.join("ben")
    doc = GameDoc("g-1", 1, game.to_dict(), {"ann": "u1", "ben": "u2"}, last_modified=5.0)
    store.create(doc)
    game.start()
    record = game.apply(game.legal_actions()[0]) or game.apply(88)
    assert record is not None
    after = GameDoc("g-1", 1, game.to_dict(), doc.player_uuids, version=2, last_modified=6.0)
    snapshot = RoundSnapshot("g-1", record.number, record.to_dict(), 5.5)
    store.save(after, 1, [snapshot])

    state_image = moto_table.item(keys.game_pk("g-1"), keys.STATE_SK)
    round_image = moto_table.item(keys.game_pk("g-1"), keys.round_sk(record.number))
    assert state_image is not None and round_image is not None
    assert stream.is_state(state_image) and not stream.is_state(round_image)
    assert stream.state_doc(state_image) == after
    assert stream.ended_round(round_image) == snapshot
    assert stream.state_doc(round_image) is None and stream.ended_round(state_image) is None
