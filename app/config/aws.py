"""boto3 clients, built the one way this service wants them: a session of their own,
standard retries, short timeouts (a Lambda request must not hang on AWS), and a connection
pool sized for the threads that share the client. boto3 is imported when a client is made."""

from __future__ import annotations

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
        ),
    )
