"""Fairness per client address: token buckets on the routes that make things (create, join,
make-public) and a cap on one address's requests in flight.

One client flooding the service must run out of *its own* allowance, never everyone's: every
limit here is kept per client address (``scope["client"]``: the TCP peer under ``blef
serve``, or the client a proxy named in ``BLEF_TRUSTED_PROXIES`` forwards, see
app/cli/serve.py; the caller's source IP behind API Gateway), so a client over its limits
leaves every other address untouched. Answers past a limit are 429 ``{"error", "code"}`` with
``Retry-After`` (whole seconds), sent before the request reaches a route or the store.

Limits live in this process's memory: each ``blef serve`` process (and each Lambda instance)
keeps its own, which is why AWS has its own per-address defences (see deployment/README.md).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

Clock = Callable[[], float]

LIMITED_ROUTES: Final = (
    ("create", re.compile(r"^/games/create/?$")),
    ("join", re.compile(r"^/games/[^/]+/join/?$")),
    ("make-public", re.compile(r"^/games/[^/]+/make-public/?$")),
)
"""The routes that add rows or list entries: what a flood of them costs everyone else."""

_ACCOUNTS: Final = re.compile(r"^/ladder/accounts/?$")

STRICT_ROUTES: Final = (
    ("name-tries", "POST", _ACCOUNTS, 20, 1 / 3, False),
    ("account", "POST", _ACCOUNTS, 5, 1 / 60, True),
    ("queue-join", "POST", re.compile(r"^/ladder/queue/?$"), 20, 1 / 3, False),
    (
        "passkey",
        "POST",
        re.compile(r"^/ladder/passkeys/(login|register)(/options)?/?$"),
        20,
        1 / 3,
        False,
    ),
)
"""Routes with their own, tighter bucket per address (name, method, path, burst, tokens per
second, whether only a request that succeeds keeps its token): trying names for an account
(20 at once, then one every 3 seconds, so that a person typing and retrying never meets it),
making an account (5 at once, then one a minute: only an account made counts, a name refused
gives its token back), joining the quick-play queue and the passkey ceremonies (each 20 at
once, then one every 3 seconds: an issued challenge is a stored row until it expires)."""

_REFUSALS: Final = {
    "name-tries": "You have tried many names in a short time: try again in {wait}.",
    "account": "Enough accounts were made from your address for now: you can make another"
    " in {wait}.",
}
MAX_TRACKED: Final = 65_536
"""Addresses remembered at once; the least recently seen are forgotten first (a forgotten
address starts again with a full bucket, which only ever errs towards serving)."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class TokenBuckets:
    """A token bucket per key: ``burst`` tokens at most, refilled at ``per_second``.

    ``clock`` is any monotonic clock in seconds (a fake one in tests). Thread-safe.
    """

    def __init__(self, burst: int, per_second: float, clock: Clock = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self._clock = clock
        self._buckets: OrderedDict[tuple[str, str], _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: tuple[str, str]) -> float:
        """Take a token for ``key``: 0.0 if one was there, else the seconds until one is."""
        now = self._clock()
        with self._lock:
            bucket = self._buckets.pop(key, None) or _Bucket(float(self.burst), now)
            elapsed = max(0.0, now - bucket.updated)
            bucket.tokens = min(float(self.burst), bucket.tokens + elapsed * self.per_second)
            bucket.updated = now
            self._buckets[key] = bucket
            while len(self._buckets) > MAX_TRACKED:
                self._buckets.popitem(last=False)
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.per_second

    def give_back(self, key: tuple[str, str]) -> None:
        """Return a token taken for ``key`` (a request that, after all, did not count)."""
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is not None:
                bucket.tokens = min(float(self.burst), bucket.tokens + 1.0)


def in_words(seconds: float) -> str:
    """A wait in words, rounded up: "1 second", "40 seconds", "1 minute", "2 minutes"."""
    whole = max(1, math.ceil(seconds))
    if whole < 90:
        return f"{whole} second{'' if whole == 1 else 's'}"
    minutes = math.ceil(whole / 60)
    return f"{minutes} minutes"


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _refusal(
    message: str, code: str, retry_after: float
) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = json.dumps({"error": message, "code": code}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(max(1, math.ceil(retry_after))).encode()),
    ]
    return body, headers


class FairnessMiddleware:
    """429 past an address's token bucket for a limited route, or past its requests in
    flight. ``rate_burst`` 0 turns the buckets off; ``max_in_flight`` 0 the in-flight cap."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        rate_burst: int,
        rate_per_second: float,
        max_in_flight: int,
        clock: Clock = time.monotonic,
    ) -> None:
        self.app = app
        self.buckets = TokenBuckets(rate_burst, rate_per_second, clock) if rate_burst else None
        self.strict = {
            name: TokenBuckets(burst, per_second, clock)
            for name, _, _, burst, per_second, _ in STRICT_ROUTES
            if rate_burst
        }
        self.max_in_flight = max_in_flight
        self._in_flight: dict[str, int] = {}
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        refundable: list[tuple[str, str]] = []
        refusal = self._rate_refusal(address, scope, refundable)
        if refusal is None and not self._enter(address):
            refusal = _refusal(
                f"Too many requests in progress from your address (at most"
                f" {self.max_in_flight}); retry when one has finished",
                "too_many_in_flight",
                1.0,
            )
        if refusal is not None:
            body, headers = refusal
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        status: list[int] = []

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, sending if refundable else send)
        finally:
            self._leave(address)
            if refundable and not (status and 200 <= status[0] < 300):
                for key in refundable:  # refused (a name, a race): it made nothing
                    self.strict[key[1]].give_back(key)

    def _rate_refusal(
        self, address: str, scope: Scope, refundable: list[tuple[str, str]]
    ) -> tuple[bytes, list[tuple[bytes, bytes]]] | None:
        """A 429 past a bucket, or None; the tokens only a success keeps go in
        ``refundable``."""
        if self.buckets is None or scope.get("method") == "OPTIONS":
            return None
        path = str(scope.get("path", ""))
        for name, method, pattern, _, _, on_success in STRICT_ROUTES:
            if scope.get("method") == method and pattern.match(path):
                wait = self.strict[name].take((address, name))
                if wait > 0:
                    for key in refundable:
                        self.strict[key[1]].give_back(key)
                    refundable.clear()
                    told = _REFUSALS.get(
                        name, f"Too many '{name}' requests from your address; retry after {{wait}}"
                    )
                    return _refusal(told.format(wait=in_words(wait)), "rate_limited", wait)
                if on_success:
                    refundable.append((address, name))
        for name, pattern in LIMITED_ROUTES:
            if pattern.match(path):
                wait = self.buckets.take((address, name))
                if wait > 0:
                    return _refusal(
                        f"Too many '{name}' requests from your address; retry after"
                        f" {in_words(wait)}",
                        "rate_limited",
                        wait,
                    )
                return None
        return None

    def _enter(self, address: str) -> bool:
        if not self.max_in_flight:
            return True
        with self._lock:
            count = self._in_flight.get(address, 0)
            if count >= self.max_in_flight:
                return False
            self._in_flight[address] = count + 1
            return True

    def _leave(self, address: str) -> None:
        if not self.max_in_flight or not address:
            return
        with self._lock:
            count = self._in_flight.get(address, 0) - 1
            if count > 0:
                self._in_flight[address] = count
            else:
                self._in_flight.pop(address, None)
