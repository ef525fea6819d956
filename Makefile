# Two commands matter: `make run` and `make test`. Everything else is a helper they call.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test install lint typecheck pytest bench synth openapi build-lambda smoke cold-start clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev,infra]"
	# The browser tests drive Debian's chromium (never a downloaded one).
	test -x /usr/bin/chromium || (apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver)
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/blef serve --host $(HOST) --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n 2

test: lint typecheck pytest

openapi: $(STAMP)
	$(BIN)/python -m app.cli.openapi api_docs/openapi.json

synth: $(STAMP)
	cd infra && ../$(BIN)/python app.py

build-lambda: $(STAMP)
	$(BIN)/python deployment/build_lambda_asset.py

smoke: $(STAMP)
	$(BIN)/python deployment/smoke_test.py --url $(URL)

cold-start: $(STAMP)
	$(BIN)/python benchmarks/cold_start.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache infra/cdk.out
