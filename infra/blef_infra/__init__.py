"""The AWS infrastructure of the Blef service, as CDK constructs.

Kept outside the ``engine`` and ``app`` packages: nothing here is imported at runtime, and
nothing in the service imports it. ``infra/app.py`` creates one :class:`BlefStack` per
environment; the stack composes :class:`Database`, :class:`Api`, :class:`Watch` (the
websocket) and :class:`Monitoring`.
"""

from .api import Api
from .config import DEFAULT_ENVIRONMENT, ENVIRONMENTS, EnvironmentSettings, settings_for
from .database import Database
from .monitoring import Monitoring
from .stack import BlefStack
from .watch import Watch

__all__ = [
    "DEFAULT_ENVIRONMENT",
    "ENVIRONMENTS",
    "Api",
    "BlefStack",
    "Database",
    "EnvironmentSettings",
    "Monitoring",
    "Watch",
    "settings_for",
]
