"""The HTTP API: FastAPI routers over the service, one per resource."""
