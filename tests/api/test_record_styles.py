"""Which games answer a record, and how, is declared once by each game's definition
(``record``, engine/protocol.py's ``RecordStyle``): the service and its routes follow it."""

from __future__ import annotations

import pytest

from app.api.table_schemas import SCHEMAS
from engine.games import KINDS, definition


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_declares_how_its_record_is_kept(kind: str) -> None:
    assert definition(kind).record in ("log", "final_view", "rounds")


@pytest.mark.parametrize("kind", [k for k in KINDS if k in SCHEMAS])
def test_a_table_game_has_a_record_route_exactly_when_its_definition_keeps_a_record(
    kind: str,
) -> None:
    keeps = definition(kind).record in ("log", "final_view")
    assert (SCHEMAS[kind].record is not None) == keeps


def test_only_blef_keeps_its_own_rounds_and_answers_at_its_established_route() -> None:
    assert [k for k in KINDS if definition(k).record == "rounds"] == ["blef"]
