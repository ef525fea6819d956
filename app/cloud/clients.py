"""boto3 clients, built the one way this service wants them: a session of their own,
standard retries, short timeouts (a Lambda request must not hang on AWS), a connection
pool sized for the threads that share the client, and no client-side parameter validation:
AWS validates every request itself, mypy holds what the service builds to the SDK's types,
and botocore's walk over every parameter of every call was 5 to 15 % of a request's CPU
on Lambda (docs/performance.md). boto3 is imported when a client is made."""

from __future__ import annotations

import threading
from typing import Any


def client(
    service: str,
    *,
    endpoint_url: str | None = None,
    region_name: str | None = None,
    max_pool_connections: int = 32,
) -> Any:
    import boto3  # noqa: PLC0415 (only the AWS paths pay for importing boto3)
    from botocore.config import Config  # noqa: PLC0415

    return boto3.session.Session().client(
        service,  # type: ignore[call-overload]
        endpoint_url=endpoint_url,
        region_name=region_name,
        config=Config(
            retries={"mode": "standard"},
            max_pool_connections=max_pool_connections,
            connect_timeout=2,
            read_timeout=5,
            parameter_validation=False,
        ),
    )


class LazyClient:
    """A client made on first use (never at import or construction: cold start), once,
    whichever thread asks first; or the one given, as tests give theirs."""

    def __init__(
        self,
        service: str,
        *,
        given: Any = None,
        endpoint_url: str | None = None,
        region_name: str | None = None,
    ) -> None:
        self._service = service
        self._client = given
        self._owned = given is None
        self._endpoint_url = endpoint_url
        self._region_name = region_name
        self._lock = threading.Lock()

    @property
    def made(self) -> bool:
        """Whether a client is there now (made, or given)."""
        return self._client is not None

    def get(self) -> Any:
        made = self._client
        if made is None:
            with self._lock:
                made = self._client
                if made is None:
                    made = client(
                        self._service,
                        endpoint_url=self._endpoint_url,
                        region_name=self._region_name,
                    )
                    self._client = made
        return made

    def close(self) -> None:
        """Close the client made here (a given one is its giver's to close)."""
        if not self._owned:
            return
        with self._lock:
            made, self._client = self._client, None
        if made is not None:
            made.close()
