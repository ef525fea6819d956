"""AWS Lambda entry points of the WebSocket API through which clients watch a game.

- :func:`route` serves the API's three routes (one function, so that a ``$connect`` warms it
  for the ``$disconnect`` that follows), each also callable on its own:

  - :func:`connect` (``$connect``) checks the ``game_uuid`` and ``player_uuid`` request
    headers (or query parameters) as ``GET /games/{game_uuid}`` does, then records the
    connection (app/watch/connections.py: the viewer's seat key, never their UUID nor their
    nickname, which a newcomer may take once they leave); it answers 400 with ``{"error",
    "code"}`` otherwise, and API Gateway refuses the handshake. A connection with no
    ``game_uuid`` at all (what the iOS start and join screens open) is recorded as a
    public-games watcher, as the local websocket route treats it.
  - :func:`disconnect` (``$disconnect``) deletes the connection's items.
  - :func:`default` (``$default``) accepts and ignores whatever a client sends. API Gateway
    answers websocket pings itself.

- :func:`push` is fed by the games table's stream and posts each change to the game's
  watchers (app/watch/pusher.py).

Neither FastAPI nor Mangum is imported, and nothing at all happens at import: the settings,
the boto3 clients and the service are built by the first invocation (boto3 only then) and
kept for the life of the execution environment.
"""

from __future__ import annotations

import json
import logging
import math
from typing import TYPE_CHECKING, Any

from app.cloud import clients as aws
from app.entrypoints.metrics import invocation
from app.entrypoints.runtime import Lazy, environment_settings, lambda_service
from app.watch.messages import credentials
from engine.errors import BlefError

if TYPE_CHECKING:
    from app.config.settings import Settings
    from app.service import GameService
    from app.watch.connections import Connections
    from app.watch.pusher import ManagementApi, Pusher

log = logging.getLogger("blef.watch")

Event = dict[str, Any]
Response = dict[str, Any]


class Runtime:
    """What the handlers use, built once per execution environment (tests build their own
    and pass it to :func:`use`). ``management`` is the API Gateway management API client the
    pusher posts with; without one, it is built on first use for the settings'
    ``websocket_endpoint``."""

    def __init__(
        self,
        service: GameService,
        connections: Connections,
        management: ManagementApi | None = None,
    ) -> None:
        self.service = service
        self.connections = connections
        self._management = management
        self._pusher: Pusher | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Runtime:
        from app.store.dynamo.store import DynamoStore  # noqa: PLC0415 (boto3 only when invoked)
        from app.watch.connections import Connections  # noqa: PLC0415

        service = lambda_service(settings)
        store = service.store
        assert isinstance(store, DynamoStore)  # the watchers' items live in its table
        return cls(service, Connections(store.client, store.table_name))

    @property
    def pusher(self) -> Pusher:
        if self._pusher is None:
            from app.service.watched import WatchedViews  # noqa: PLC0415
            from app.watch.pusher import Pusher  # noqa: PLC0415

            management = self._management or _management_client(self.service.settings)
            self._pusher = Pusher(self.connections, self.service.store, management, WatchedViews())
        return self._pusher


def _management_client(settings: Settings) -> ManagementApi:
    if not settings.websocket_endpoint:
        raise RuntimeError("BLEF_WEBSOCKET_ENDPOINT is not set: the pusher has nowhere to post")
    management: ManagementApi = aws.client(
        "apigatewaymanagementapi",
        endpoint_url=settings.websocket_endpoint,
        region_name=settings.aws_region,
        max_pool_connections=16,
    )
    return management


_runtime: Lazy[Runtime] = Lazy(lambda: Runtime.from_settings(environment_settings()))
runtime = _runtime.get
"""The execution environment's runtime, built from the environment on first use."""
use = _runtime.use
"""Make the handlers use a replacement (tests; None: build one from the environment again)."""


# ---------------------------------------------------------------------- the routes


def connect(event: Event, context: Any = None) -> Response:
    """``$connect``: refuse an address past its rate of opening websockets or its cap of open
    ones (429), and credentials the state route would refuse (400; 403 for a UUID retired
    when its seat moved to another device); record the others."""
    connection_id = _connection_id(event)
    viewer = credentials(event.get("headers"), event.get("queryStringParameters"))
    handlers = runtime()
    address = _source_ip(event)
    settings = handlers.service.settings
    if settings.websocket_opens_burst:
        wait = handlers.connections.throttle(
            address, settings.websocket_opens_burst, settings.websocket_opens_per_second
        )
        if wait:
            log.info("websocket_refused", extra={"code": "too_many_websocket_opens"})
            return _refusal(
                429,
                f"Too many websockets opened from your address (at most"
                f" {settings.websocket_opens_burst} at once, then"
                f" {settings.websocket_opens_per_second:g} a second); try again in"
                f" {math.ceil(wait)} s",
                "too_many_websocket_opens",
                retry_after=wait,
            )
    cap = settings.max_websockets_per_address
    if cap and not handlers.connections.reserve(address, cap):
        log.info("websocket_refused", extra={"code": "too_many_websockets"})
        return _refusal(
            429,
            f"Too many websockets open from your address (at most {cap}); try again later",
            "too_many_websockets",
        )
    if not viewer.game_uuid:  # a public-games watcher: it is only ever told of public games
        handlers.connections.add(connection_id, None, None)
        log.info("websocket_connected", extra={"public_games": True})
        return {"statusCode": 200}
    from app.service.seats import seat_key  # noqa: PLC0415 (kept off cold starts)

    try:
        doc, nickname = handlers.service.viewer(viewer.game_uuid, viewer.player_uuid, None)
        seat = None if nickname is None else seat_key(doc.player_uuids[nickname])
        handlers.connections.add(connection_id, doc.game_uuid, seat)
    except BlefError as error:
        if cap:
            handlers.connections.release(address)
        log.info("websocket_refused", extra={"code": error.code})
        moved = error.code == "seat_moved"  # a UUID retired by a move to another device
        return _refusal(403 if moved else 400, error.message, error.code)
    except Exception:
        if cap:
            handlers.connections.release(address)
        raise
    log.info("websocket_connected", extra={"observer": nickname is None})
    return {"statusCode": 200}


def disconnect(event: Event, context: Any = None) -> Response:
    """``$disconnect``: forget the connection, and free its place in its address's count
    (only if it was still recorded, so a repeated ``$disconnect`` frees nothing twice)."""
    handlers = runtime()
    gone = handlers.connections.remove(_connection_id(event))
    if gone and handlers.service.settings.max_websockets_per_address:
        handlers.connections.release(_source_ip(event))
    return {"statusCode": 200}


def _refusal(status: int, message: str, code: str, retry_after: float = 0.0) -> Response:
    headers = {"Content-Type": "application/json"}
    if retry_after:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return {
        "statusCode": status,
        "headers": headers,
        "body": json.dumps({"error": message, "code": code}),
    }


def _source_ip(event: Event) -> str:
    identity = (event.get("requestContext") or {}).get("identity") or {}
    address = identity.get("sourceIp")
    return address if isinstance(address, str) and address else "unknown"


def default(event: Event, context: Any = None) -> Response:
    """``$default``: messages from clients are accepted and ignored."""
    return {"statusCode": 200}


_ROUTES = {"$connect": connect, "$disconnect": disconnect}


def route(event: Event, context: Any = None) -> Response:
    """The one handler of the WebSocket API's routes, by ``requestContext.routeKey``."""
    key = (event.get("requestContext") or {}).get("routeKey")
    with invocation("route"):
        return _ROUTES.get(str(key), default)(event, context)


# ---------------------------------------------------------------------- the stream


def push(event: Event, context: Any = None) -> dict[str, int]:
    """The table's stream: post each changed game's state to its watchers, and a new
    watcher's first state to it."""
    with invocation("push"):
        report = runtime().pusher.handle(event)
    return {
        "games": report.games,
        "sent": report.sent,
        "gone": report.gone,
        "failed": report.failed,
    }


def _connection_id(event: Event) -> str:
    connection_id = (event.get("requestContext") or {}).get("connectionId")
    if not isinstance(connection_id, str) or not connection_id:
        raise ValueError("a WebSocket API event without requestContext.connectionId")
    return connection_id
