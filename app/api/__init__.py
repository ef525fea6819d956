"""The HTTP API: FastAPI routers over the service, one per resource."""

from app.api import compat

compat.install()  # before any route is declared (app/api/compat.py)
