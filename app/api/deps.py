"""Dependencies of the routes, as named ``Annotated`` aliases (swapped in tests with
``app.dependency_overrides``)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Header, Request
from starlette.concurrency import run_in_threadpool

from app.config.settings import Settings
from app.service import GameService
from app.service.errors import CredentialsMissing, InvalidParameter
from app.store.factory import build_store

if TYPE_CHECKING:
    from app.ladder.passkeys import Passkeys
    from app.ladder.service import Ladder


class ServiceProvider:
    """Builds the store and the service on first use (never at import or app creation)."""

    def __init__(self, settings: Settings, service: GameService | None = None) -> None:
        self.settings = settings
        self._service = service
        self._lock = threading.Lock()

    def get(self) -> GameService:
        if self._service is None:
            with self._lock:
                if self._service is None:
                    self._service = GameService(build_store(self.settings), self.settings)
        return self._service

    @property
    def built(self) -> GameService | None:
        """The service if it is built already (None: :meth:`get` builds it)."""
        return self._service

    def close(self) -> None:
        if self._service is not None:
            self._service.store.close()


class LadderProvider:
    """Builds the ladder (its store beside the games', and the game service it seats tables
    through) on first use; its modules load then, not at import."""

    def __init__(self, services: ServiceProvider) -> None:
        self.services = services
        self._ladder: Ladder | None = None
        self._passkeys: Passkeys | None = None
        self._lock = threading.Lock()

    def get(self) -> Ladder:
        if self._ladder is None:
            with self._lock:
                if self._ladder is None:
                    self._ladder = self._build()
        return self._ladder

    def _build(self) -> Ladder:
        """SQLite beside the games' file; on DynamoDB its own table, and with the clock's
        queue (AWS), a join matches at once and asks the clock to look again later
        (app/clock/ladder.py). 503 ``ladder_unavailable`` only for a deployment that has
        no ladder table."""
        from app.ladder.errors import LadderUnavailable  # noqa: PLC0415
        from app.ladder.factory import ladder_store  # noqa: PLC0415
        from app.ladder.service import Ladder  # noqa: PLC0415

        settings = self.services.settings
        games = self.services.get()
        store = ladder_store(settings)
        if store is None:
            raise LadderUnavailable
        ladder = Ladder(store, games, clock=lambda: games.now)
        if settings.store == "dynamodb" and settings.clock_queue_url:
            from app.clock.ladder import LadderClock  # noqa: PLC0415
            from app.cloud import clients as aws  # noqa: PLC0415

            sqs = aws.client("sqs", region_name=settings.aws_region, max_pool_connections=4)
            ladder.on_join = LadderClock(ladder, sqs, settings.clock_queue_url).joined
        games.subscribe(ladder.notice)
        return ladder

    def passkeys(self) -> Passkeys:
        """The ladder's passkey use cases, for the configured public origin (its module, and
        py_webauthn, load on the first passkey request)."""
        if self._passkeys is None:
            ladder = self.get()
            with self._lock:
                if self._passkeys is None:
                    from app.ladder.passkeys import Passkeys  # noqa: PLC0415

                    self._passkeys = Passkeys(ladder, self.services.settings.public_origin)
        return self._passkeys

    def close(self) -> None:
        if self._ladder is not None:
            self._ladder.store.close()


async def get_service(request: Request) -> GameService:
    """The app's service. Once it is built this is read on the event loop (no worker
    thread per dependency: a request's own CPU); the first request builds it in a worker
    thread, as a blocking call should be."""
    provider: ServiceProvider = request.app.state.services
    service = provider.built
    if service is None:
        service = await run_in_threadpool(provider.get)
    return service


# The dependencies below only read headers: ``async def`` runs them on the event loop
# instead of handing each to a worker thread and back (CPU paid on every request).


async def bearer_credential(
    authorization: Annotated[
        str | None,
        Header(description="`Bearer <player UUID>`: the player's (or admin's) secret"),
    ] = None,
) -> str | None:
    if authorization is None or authorization == "":
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidParameter(
            "Authorization", scheme, "Expected 'Bearer <player UUID>' in the Authorization header"
        )
    return token.strip()


async def idempotency_key(
    key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="Makes a POST safe to retry: a repeat gets the first answer",
        ),
    ] = None,
) -> str | None:
    if key is None:
        return None
    if not 1 <= len(key) <= 128 or not key.isascii() or not key.isprintable():
        raise InvalidParameter(
            "Idempotency-Key", key, "Must be 1 to 128 printable ASCII characters"
        )
    return key


async def required_bearer(
    token: Annotated[str | None, Depends(bearer_credential)],
) -> str:
    """The Bearer credential of a route that takes it from the header only: its absence
    is a 401, answered before anything else of the request is looked at."""
    if token is None:
        raise CredentialsMissing("player_uuid", None, "Send your player UUID as a Bearer token")
    return token


ServiceDep = Annotated[GameService, Depends(get_service)]
BearerDep = Annotated[str | None, Depends(bearer_credential)]
RequiredBearerDep = Annotated[str, Depends(required_bearer)]
IdempotencyKeyDep = Annotated[str | None, Depends(idempotency_key)]
