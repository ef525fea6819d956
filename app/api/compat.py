"""A cheaper answer to a question FastAPI asks often: "is this a pydantic.v1 model?".

FastAPI 0.163 answers it by importing ``pydantic.v1`` (about 35 ms, a tenth of a cold start
of the HTTP function) for every response model it declares, and again, under
``warnings.catch_warnings``, for every object ``jsonable_encoder`` meets. A pydantic.v1
model cannot exist unless ``pydantic.v1`` has been imported, so the same answer comes from
``sys.modules`` without importing it: exactly the same result, for a fraction of the cost.
Installed when ``app.api`` is first imported, before any route is declared.
"""

from __future__ import annotations

import sys
from typing import Any

from fastapi import encoders
from fastapi._compat import shared


def is_pydantic_v1_model_class(cls: Any) -> bool:
    v1 = sys.modules.get("pydantic.v1")
    return v1 is not None and shared.lenient_issubclass(cls, v1.BaseModel)


def is_pydantic_v1_model_instance(obj: Any) -> bool:
    v1 = sys.modules.get("pydantic.v1")
    return v1 is not None and isinstance(obj, v1.BaseModel)


def install() -> None:
    """Put the two checks in FastAPI's place (idempotent)."""
    shared.is_pydantic_v1_model_class = is_pydantic_v1_model_class
    shared.is_pydantic_v1_model_instance = is_pydantic_v1_model_instance
    setattr(encoders, "is_pydantic_v1_model_instance", is_pydantic_v1_model_instance)  # noqa: B010
