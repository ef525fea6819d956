"""The tables' routes found first: a request under a hosted game's prefix (``/figgie/...``)
goes straight to the tables' router instead of being tried against every route before it.

FastAPI matches a request against the app's routes in order: the established Blef routes,
the ladder's, then the tables' (app/api/main.py registers them after every fixed path, and
the OpenAPI document lists them in that order). A Figgie order was tried against some 87
routes before its own, about a fifth of the CPU of a table's move
(benchmarks/tables_profile.py). :class:`PrefixDispatch`, put at the head of the app's
routes, answers a full match only: a path under a hosted game's prefix that the tables'
router matches in full, which no route before it can match (none begins with a game's
name), so the route chosen is the one the full list would choose. Anything else (another
path, a wrong method, a path no route takes) goes on through the routes in order as before.
It adds no route and no OpenAPI entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import Receive, Scope, Send


class PrefixDispatch(BaseRoute):
    """Hands a request whose path starts with one of ``prefixes`` to ``target`` (the tables'
    router as included in the app) when ``target`` matches it in full."""

    def __init__(self, prefixes: Iterable[str], target: BaseRoute) -> None:
        self.prefixes = tuple(prefixes)
        self.target = target
        self.include_in_schema = False

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] != "http" or not get_route_path(scope).startswith(self.prefixes):
            return Match.NONE, {}
        match, child_scope = self.target.matches(scope)
        if match is not Match.FULL:
            return Match.NONE, {}
        return match, child_scope

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.target.handle(scope, receive, send)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)


def dispatch_first(routes: list[BaseRoute], router: Any, prefixes: Iterable[str]) -> None:
    """Put a :class:`PrefixDispatch` to ``router`` (as the app included it: the route of
    ``routes`` whose ``original_router`` it is) at the head of ``routes``."""
    (included,) = [r for r in routes if getattr(r, "original_router", None) is router]
    routes.insert(0, PrefixDispatch(prefixes, included))
