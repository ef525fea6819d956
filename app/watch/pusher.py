"""The AWS pusher: from the games table's stream to every watcher's websocket.

The table's stream (``NEW_IMAGE``) reaches the pusher through an event source mapping whose
filter lets two kinds of record through (infra/blef_infra/watch.py), and this module checks
them again:

- **A game changed**: its live item (``sk = STATE``) inserted or modified. The new image holds
  the whole game document, so nothing is read back: every watcher of the game is sent the
  state object for its viewer, built exactly as ``GET /games/{game_uuid}`` builds it
  (:func:`app.service.responses.current_state`), once per distinct viewer. A batch holding
  several changes of one game sends only the newest.
- **A watcher connected**: a watcher item (``sk = CONN#<connection id>``) inserted by
  ``$connect``. API Gateway lets no message through before ``$connect`` has answered, so
  this is how a new connection gets its first message, the game's current state (read from
  the table), as the local websocket sends on connecting.

Messages are posted through the API Gateway management API, a few at a time in threads. A
connection API Gateway reports gone (``GoneException``, 410) has its items deleted; a new
connection is given a moment first, in case its handshake has not quite finished. Any other
failure to post is logged and skipped: the next change sends the whole state again.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from app.service.responses import current_state
from app.store.base import GameDoc
from app.store.dynamo import STATE_SK
from app.watch.connections import Connections, Watcher
from app.watch.messages import state_message
from engine.errors import UnknownPlayer

log = logging.getLogger("blef.watch")

POST_THREADS: Final = 8
"""Posts in flight at once: a game has at most 8 players, plus any observers."""
WELCOME_RETRY_SECONDS: Final = (0.25, 0.75)
"""Pauses before posting a new connection's first message again after a 410."""

Outcome = Literal["sent", "gone", "failed"]


class ManagementApi(Protocol):
    """The one call of boto3's ``apigatewaymanagementapi`` client the pusher makes."""

    def post_to_connection(self, *, Data: bytes, ConnectionId: str) -> Any: ...  # noqa: N803 (boto3 names)


class GameReader(Protocol):
    """Where a new watcher's game is read from (a GameStore)."""

    def load(self, game_uuid: str) -> GameDoc | None: ...


@dataclass(frozen=True, slots=True)
class PushReport:
    """What one batch of stream records led to."""

    games: int = 0
    """Games whose change was pushed."""
    sent: int = 0
    gone: int = 0
    """Connections found gone, whose items were deleted."""
    failed: int = 0


@dataclass(frozen=True, slots=True)
class _Delivery:
    watcher: Watcher
    data: bytes
    welcome: bool


class _Messages:
    """The messages for one game document, each viewer's built once."""

    def __init__(self, doc: GameDoc) -> None:
        self.doc = doc
        self._by_viewer: dict[str | None, bytes | None] = {}

    def for_viewer(self, nickname: str | None) -> bytes | None:
        if nickname not in self._by_viewer:
            try:
                data: bytes | None = state_message(current_state(self.doc, nickname)).encode()
            except UnknownPlayer:  # a watcher whose nickname left the game: send nothing
                data = None
            self._by_viewer[nickname] = data
        return self._by_viewer[nickname]


def read_records(records: Iterable[Mapping[str, Any]]) -> tuple[list[GameDoc], list[Watcher]]:
    """The newest document of each changed game, and the watchers that connected, in a
    batch of DynamoDB stream records (anything else is ignored)."""
    changed: dict[str, GameDoc] = {}
    joined: list[Watcher] = []
    for record in records:
        image = (record.get("dynamodb") or {}).get("NewImage")
        event_name = record.get("eventName")
        if not image or event_name not in ("INSERT", "MODIFY"):
            continue
        if image.get("sk", {}).get("S") == STATE_SK and "doc" in image:
            doc = GameDoc.from_dict(json.loads(image["doc"]["S"]))
            known = changed.get(doc.game_uuid)
            if known is None or doc.version > known.version:
                changed[doc.game_uuid] = doc
        elif event_name == "INSERT":
            watcher = Watcher.from_item(dict(image))
            if watcher is not None:
                joined.append(watcher)
    return list(changed.values()), joined


def _gone(error: ClientError) -> bool:
    code = error.response.get("Error", {}).get("Code")
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return code == "GoneException" or status == 410


class Pusher:
    """Sends each stream batch's changes to the watchers (see the module docstring)."""

    def __init__(
        self,
        connections: Connections,
        games: GameReader,
        management: ManagementApi,
        *,
        threads: int = POST_THREADS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.connections = connections
        self.games = games
        self.management = management
        self.threads = threads
        self._sleep = sleep

    def handle(self, event: Mapping[str, Any]) -> PushReport:
        changed, joined = read_records(event.get("Records") or [])
        deliveries: list[_Delivery] = []
        messages: dict[str, _Messages] = {}
        for doc in changed:
            messages[doc.game_uuid] = _Messages(doc)
            for watcher in self.connections.watchers(doc.game_uuid):
                deliveries += self._delivery(messages[doc.game_uuid], watcher, welcome=False)
        served = {d.watcher.connection_id for d in deliveries}
        for watcher in joined:
            if watcher.connection_id in served:  # it has this batch's newest state already
                continue
            if watcher.game_uuid not in messages:
                game = self.games.load(watcher.game_uuid)
                if game is None:  # gone since (expired)
                    continue
                messages[watcher.game_uuid] = _Messages(game)
            deliveries += self._delivery(messages[watcher.game_uuid], watcher, welcome=True)

        outcomes = self._post_all(deliveries)
        report = PushReport(
            games=len(changed),
            sent=outcomes.count("sent"),
            gone=outcomes.count("gone"),
            failed=outcomes.count("failed"),
        )
        log.info(
            "pushed",
            extra={
                "games": report.games,
                "welcomed": len(joined),
                "sent": report.sent,
                "gone": report.gone,
                "failed": report.failed,
            },
        )
        return report

    @staticmethod
    def _delivery(messages: _Messages, watcher: Watcher, *, welcome: bool) -> list[_Delivery]:
        data = messages.for_viewer(watcher.nickname)
        return [] if data is None else [_Delivery(watcher, data, welcome)]

    def _post_all(self, deliveries: list[_Delivery]) -> list[Outcome]:
        if len(deliveries) <= 1:
            return [self._post(d) for d in deliveries]
        with ThreadPoolExecutor(max_workers=min(self.threads, len(deliveries))) as pool:
            return list(pool.map(self._post, deliveries))

    def _post(self, delivery: _Delivery) -> Outcome:
        pauses = WELCOME_RETRY_SECONDS if delivery.welcome else ()
        for attempt in range(len(pauses) + 1):
            if attempt:
                self._sleep(pauses[attempt - 1])
            try:
                self.management.post_to_connection(
                    ConnectionId=delivery.watcher.connection_id, Data=delivery.data
                )
            except ClientError as error:
                if _gone(error):
                    continue
                code = error.response.get("Error", {}).get("Code")
                log.warning("push_failed", extra={"error_code": code})
                return "failed"
            except BotoCoreError as error:
                log.warning("push_failed", extra={"error_type": type(error).__name__})
                return "failed"
            return "sent"
        self.connections.forget(delivery.watcher)
        return "gone"
