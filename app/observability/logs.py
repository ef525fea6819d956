"""Logs: one line per event, carrying the request id and a game tag.

On AWS Lambda (``AWS_LAMBDA_FUNCTION_NAME`` is set) the ``blef`` loggers write JSON through
Powertools for AWS Lambda's formatter (``timestamp``, ``level``, ``location``, ``message``,
``service``, then the fields below); under ``blef serve`` they write readable text lines
(``06:01:02 INFO blef.access request method=GET route=/games/{game_uuid} status=200``).
Powertools is imported only on Lambda, by the first invocation, never at import. The access
line (``request``) is written for every request under ``blef serve``, and on Lambda only for
requests answered 400 or above: the API's own access log has every request, joined to these
lines by the invocation's request id (app/api/middleware.py, infra/blef_infra/api.py).

What is logged is chosen field by field: the route template (``/games/{game_uuid}/play``,
never the concrete path or its query string, where the established clients put their secret
UUIDs), the status, the duration, error codes, and ``game``: a tag of the game (the first
12 hex digits of its UUID's SHA-256), which ties a game's lines together and cannot be
turned back into the UUID. No UUID and no card is ever passed to a logger, and on Lambda an
exception is logged by its type only (its message might quote a UUID).
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import time
from contextvars import ContextVar
from typing import Any

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)
"""The tag (:func:`game_tag`) of the game the current request or message is about."""

SERVICE = "blef"
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def game_tag(game_uuid: str) -> str:
    """A game's tag for logs: stable, short, and not the UUID (which is a credential)."""
    return hashlib.sha256(game_uuid.encode()).hexdigest()[:12]


def on_lambda() -> bool:
    return bool(os.environ.get("AWS_LAMBDA_FUNCTION_NAME"))


class ContextFilter(logging.Filter):
    """Puts the current request id and game tag on every record (as ``request_id`` and
    ``game``), whatever thread or task logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        rid = request_id.get()
        if rid is not None and not hasattr(record, "request_id"):
            record.request_id = rid
        game = game_id.get()
        if game is not None and not hasattr(record, "game"):
            record.game = game
        return True


def extras(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a record was given (``extra=``), and those the filter added."""
    return {
        key: value
        for key, value in record.__dict__.items()
        if key not in _STANDARD and not key.startswith("_")
    }


class TextFormatter(logging.Formatter):
    """``blef serve``'s lines: time, level, logger, message, then ``key=value`` fields."""

    json_lines = False

    def format(self, record: logging.LogRecord) -> str:
        clock = time.strftime("%H:%M:%S", time.localtime(record.created))
        fields = " ".join(f"{key}={value}" for key, value in extras(record).items())
        line = f"{clock} {record.levelname} {record.name} {record.getMessage()}"
        if record.exc_info and record.exc_info[0] is not None:
            line += f" error_type={record.exc_info[0].__name__}"
            line += "\n" + self.formatException(record.exc_info)
        return f"{line} {fields}" if fields else line


def lambda_formatter() -> logging.Formatter:
    """Powertools' JSON formatter, with exceptions by their type only."""
    from aws_lambda_powertools.logging.formatter import (  # noqa: PLC0415 (Lambda only)
        LambdaPowertoolsFormatter,
    )

    class Formatter(LambdaPowertoolsFormatter):
        json_lines = True

        # No traceback text (an exception's message may quote a UUID): the type only.
        def _extract_log_exception(  # type: ignore[override]
            self, log_record: logging.LogRecord
        ) -> tuple[None, str | None, None]:
            exc_type = log_record.exc_info[0] if log_record.exc_info else None
            return None, exc_type.__name__ if exc_type is not None else None, None

    return Formatter(service=SERVICE, utc=True)


class _StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stdout`` is at the time of each record."""

    _blef = True

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


def configure_logging(level: str = "INFO", *, json_lines: bool | None = None) -> None:
    """Send the ``blef`` loggers to standard output (idempotent): JSON through Powertools on
    Lambda (or when ``json_lines``), readable text otherwise."""
    logger = logging.getLogger(SERVICE)
    logger.setLevel(level.upper())
    handler = next((h for h in logger.handlers if getattr(h, "_blef", False)), None)
    if handler is None:
        handler = _StdoutHandler(sys.stdout)
        handler.addFilter(ContextFilter())
        logger.addHandler(handler)
    as_json = on_lambda() if json_lines is None else json_lines
    if getattr(handler.formatter, "json_lines", None) is not as_json:
        handler.setFormatter(lambda_formatter() if as_json else TextFormatter())
    logger.propagate = False
