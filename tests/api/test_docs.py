"""The API guide's tables are checked against the code they describe."""

import re
from pathlib import Path

from app.service import errors as service_errors
from engine import errors as rule_errors
from engine.sets import SETS

GUIDE = (Path(__file__).resolve().parents[2] / "api_docs" / "guide.md").read_text("utf-8")


def test_the_guide_lists_every_action_id_with_its_set() -> None:
    rows = dict(re.findall(r"^\| (\d+) \| (.+?) \|$", GUIDE, flags=re.MULTILINE))
    assert {int(k): v for k, v in rows.items() if int(k) < 88} == {
        s.action_id: s.name for s in SETS
    }
    assert rows["88"] == "check"


def test_the_guide_documents_every_error_code() -> None:
    classes = [
        *vars(rule_errors).values(),
        *vars(service_errors).values(),
    ]
    codes = {
        cls.code
        for cls in classes
        if isinstance(cls, type)
        and issubclass(cls, rule_errors.BlefError)
        and cls.code not in ("blef_error", "service_error")
    }
    documented = set(re.findall(r"^\| `([a-z_]+)` \| \d{3} \|", GUIDE, flags=re.MULTILINE))
    assert codes <= documented
