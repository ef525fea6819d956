"""Service settings, read from the environment (prefix ``BLEF_``) once, when first asked for.

Nothing is read at import time: :func:`get_settings` builds the settings on first call and
caches them; tests build their own :class:`Settings` and pass them in.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="BLEF_", extra="ignore")

    store: Literal["sqlite", "dynamodb"] = "sqlite"
    """Which database holds the games: the embedded SQLite file, or DynamoDB."""
    db_path: Path = Path("blef.db")
    """The SQLite file (``store=sqlite``)."""
    table_name: str = "blef-games"
    """The DynamoDB table (``store=dynamodb``)."""
    ladder_table_name: str = "blef-ladder"
    """The ladder's DynamoDB table (``store=dynamodb``; app/ladder/dynamo/)."""
    dynamodb_endpoint: str | None = None
    """A DynamoDB endpoint URL to use instead of AWS's (e.g. a local emulator)."""
    aws_region: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO", validation_alias=AliasChoices("BLEF_LOG_LEVEL", "LOG_LEVEL")
    )
    """Level of the JSON logs (``LOG_LEVEL`` is what the Lambda function sets)."""
    create_table: bool = False
    """Create the DynamoDB table on first use if it is missing (for a local endpoint; on AWS
    the CDK stack owns the table)."""

    game_ttl_seconds: int = Field(default=7 * 24 * 3600, ge=60)
    """A game expires this long after its last change (the DynamoDB TTL attribute)."""
    public_list_window_seconds: int = Field(default=30 * 60, ge=1)
    """The public list shows games changed within this window."""
    max_listed_games: int = Field(default=100, ge=1, le=1000)
    """The most games the public list returns at once."""
    max_body_bytes: int = Field(default=16 * 1024, ge=256)
    """Request bodies above this size are refused with 413."""
    request_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    """A request body must arrive within this time (else 408); under ``blef serve``, so must
    every request head (else the connection is closed, with a 408 if part of it came)."""
    ai_think_seconds: float = Field(default=1.0, ge=0, le=60)
    """How long an AI player waits before it moves (its move is its own change, made by the
    clock): about a second lets people follow the table; 0 for tests and bot tables."""
    run_clock: bool = True
    """Whether the app runs the game clock in its own process (``blef serve``). Off on AWS
    Lambda, where the table's stream and a delay queue drive it (app/clock/aws.py)."""
    clock_queue_url: str | None = None
    """The SQS delay queue of the AWS game clock (app/clock/aws.py; set by the stack)."""
    purge_interval_seconds: float = Field(default=600, gt=0)
    """How often ``blef serve``'s clock deletes expired games from the SQLite file."""

    max_websockets: int = Field(default=500, ge=1)
    """Websocket watchers one ``blef serve`` process keeps open at once; past that a new one
    is closed with code 1013 (try again later)."""
    websocket_endpoint: str | None = None
    """The WebSocket API's management endpoint the AWS pusher posts to
    (``https://<api id>.execute-api.<region>.amazonaws.com/<stage>``; set by the stack)."""

    # --- fairness and hardening
    # Every limit below is per client address, so one client past its limits never takes
    # what another is owed; 0 turns a limit off. See api_docs/guide.md, "Limits per client".
    rate_limit_burst: int = Field(default=120, ge=0)
    """Create, join and make-public requests one address may make in a burst (each route its
    own token bucket); past it, 429 ``rate_limited`` with ``Retry-After``."""
    rate_limit_per_second: float = Field(default=2.0, gt=0)
    """How fast each of those buckets refills (tokens per second)."""
    max_in_flight_per_address: int = Field(default=32, ge=0)
    """Requests from one address being handled at once; past it, 429 ``too_many_in_flight``."""
    max_connections_per_address: int = Field(default=64, ge=0)
    """Open connections from one address under ``blef serve`` (the server as a whole takes
    1,000); a connection past it is answered 503 and closed at once."""
    max_websockets_per_address: int = Field(default=20, ge=0)
    """Websocket watchers from one address at once (of ``max_websockets`` in all); past it a
    new one is closed with code 1013."""
    websocket_opens_burst: int = Field(default=20, ge=0)
    websocket_opens_per_second: float = Field(default=1.0, gt=0)
    """Websockets one address may open: a token bucket of ``websocket_opens_burst`` opens,
    refilled at ``websocket_opens_per_second`` (every open counts, however soon it is
    closed). Past it a new one is closed with code 1013 (on AWS ``$connect`` answers 429
    ``too_many_websocket_opens``). The browser client reconnects at least 2 s after a close
    (twice as long after each try that failed, up to 30 s, plus up to half again at random),
    so even every socket of a full address (20) reconnecting at once passes."""

    trusted_proxies: str = ""
    """Proxies in front of ``blef serve`` whose ``X-Forwarded-For`` names the client: a comma
    list of addresses or networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``). Empty (the
    default): the header is believed from nobody, and every limit counts the TCP peer. A
    request from a listed peer is counted against the last address its header names that is
    not itself a listed proxy (uvicorn's reading); a listed peer's own connections are not
    capped by ``max_connections_per_address``, since they carry many clients. On Lambda the
    client is API Gateway's source IP whatever this says."""

    # --- the table: reactions and reports (app/service/social.py)
    order_burst: int = Field(default=30, ge=0)
    """Moves one seat of a table of another game than Blef (a Figgie market's orders) may
    send at once; past it they refill at ``order_rate`` a second, then 429
    ``too_many_orders`` with ``Retry-After``. Counted in the game itself, so the limit holds
    across processes. 0: no limit (for benchmarks of bots at full speed)."""
    order_rate: float = Field(default=15.0, gt=0)
    """Moves a second one seat may keep sending (five seats: 75 a second at a table)."""
    reaction_burst: int = Field(default=3, ge=1)
    """Reactions one player may send within ``reaction_window_seconds``; past that, 429
    ``too_many_reactions`` with ``Retry-After``. Counted in the game itself, so the limit
    holds across processes."""
    reaction_window_seconds: float = Field(default=10.0, gt=0)
    report_ttl_seconds: int = Field(default=90 * 24 * 3600, ge=60)
    """How long a nickname report is kept for the operator (``blef reports``)."""

    # --- passkeys (app/ladder/passkeys.py)
    public_origin: str | None = None
    """The origin people open the site at (``https://blef.example``): the only origin a
    passkey's answer may come from, and its host the passkeys' RP ID. Never taken from a
    request. ``blef serve`` defaults it to ``http://localhost:<port>``; unset elsewhere,
    passkeys answer 503."""

    @field_validator("trusted_proxies")
    @classmethod
    def _addresses_or_networks(cls, value: str) -> str:
        """Each item an IP address or network, written back in its canonical form."""
        named = []
        for item in (part.strip() for part in value.split(",")):
            if not item:
                continue
            try:
                named.append(str(ipaddress.ip_network(item, strict=False)))
            except ValueError:
                raise ValueError(
                    f"trusted_proxies must be a comma list of IP addresses or networks"
                    f" (such as 127.0.0.1 or 10.0.0.0/8): {item!r} is neither"
                ) from None
        return ",".join(named)

    def trusted_proxy_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        """:attr:`trusted_proxies` as networks (an address is a network of one)."""
        return tuple(ipaddress.ip_network(item) for item in self.trusted_proxies.split(",") if item)

    @field_validator("public_origin")
    @classmethod
    def _an_origin(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        parts = urlsplit(value)
        host = parts.hostname or ""
        if (
            parts.scheme not in ("https", "http")
            or not host
            or parts.path not in ("", "/")
            or parts.query
            or parts.fragment
            or parts.username is not None
            or host.replace(".", "").isdigit()
            or ":" in host
        ):
            raise ValueError(
                "public_origin must be scheme://host[:port] with a domain name as its host"
            )
        if parts.scheme == "http" and host != "localhost" and not host.endswith(".localhost"):
            raise ValueError("public_origin must be https (http only for localhost)")
        return f"{parts.scheme}://{parts.netloc.lower()}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
