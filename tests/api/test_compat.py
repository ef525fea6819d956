"""app/api/compat.py answers FastAPI's "is this a pydantic.v1 model?" from what is already
imported: the same answers as FastAPI's own check, without importing pydantic.v1."""

from __future__ import annotations

import warnings

import pytest
from fastapi._compat import shared
from pydantic import BaseModel

import app.api  # noqa: F401 (installs the checks)
from app.api import compat


class Modern(BaseModel):
    x: int


def test_the_checks_are_installed_in_fastapi() -> None:
    assert shared.is_pydantic_v1_model_class is compat.is_pydantic_v1_model_class
    assert shared.is_pydantic_v1_model_instance is compat.is_pydantic_v1_model_instance


def test_a_pydantic_v2_model_or_a_plain_type_is_not_a_v1_model() -> None:
    for candidate in (Modern, int, dict[str, int], None):
        assert not compat.is_pydantic_v1_model_class(candidate)
    assert not compat.is_pydantic_v1_model_instance(Modern(x=1))


def test_a_pydantic_v1_model_is_still_recognised_and_refused() -> None:
    from fastapi.exceptions import PydanticV1NotSupportedError
    from fastapi.utils import create_model_field

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pydantic import v1

    class Old(v1.BaseModel):
        x: int

    assert compat.is_pydantic_v1_model_class(Old)
    assert compat.is_pydantic_v1_model_instance(Old(x=1))
    assert shared.annotation_is_pydantic_v1(list[Old])
    with pytest.raises(PydanticV1NotSupportedError):
        create_model_field("old", Old)
