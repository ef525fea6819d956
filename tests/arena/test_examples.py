"""The protocol document's example bot is the file the tests play."""

from __future__ import annotations

import re

from tests.arena.helpers import HONEST_BOT, ROOT


def test_the_example_bot_in_the_protocol_document_is_the_example_file() -> None:
    document = (ROOT / "api_docs" / "bots.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", document, re.DOTALL)
    assert HONEST_BOT.read_text() in blocks


def test_the_example_bot_is_under_thirty_lines() -> None:
    assert len(HONEST_BOT.read_text().splitlines()) < 30
