# make serve  — install into .venv, migrate the embedded SQLite database, serve on :8000 with workers
# make test   — install the dev extras, run every test on SQLite and the database-facing ones on a throwaway PostgreSQL
# make client — regenerate openapi/openapi.json and the Python SDK's generated code from it
# make bench  — reproduce the papers' experiments (slow; never part of the tests)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: client serve test test-sqlite test-postgres test-compose test-labelstudio test-ui lint bench openapi clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml clients/python/pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev]"
	$(BIN)/pip install --quiet ./clients/python
	touch $@

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[bench]"
	touch $@

# A developer's server: keyless open mode on 127.0.0.1 unless FAIRACQ_OPEN_MODE=false is given.
serve: $(VENV)/.installed
	$(BIN)/fairacq migrate
	FAIRACQ_OPEN_MODE=$${FAIRACQ_OPEN_MODE:-true} $(BIN)/fairacq serve

test: $(VENV)/.dev-installed
	scripts/test.sh

test-sqlite: $(VENV)/.dev-installed
	$(BIN)/python -m pytest -q

# The docker-compose stack for real (tests/deploy/test_compose.py): needs root or a running Docker
# engine, else it says why and skips (CI sets FAIRACQ_REQUIRE_COMPOSE=1: no skipping there).
test-compose: $(VENV)/.dev-installed
	scripts/test_compose.sh

# The dashboard in Debian's chromium (tests/ui, Playwright driving /usr/bin/chromium; no browser is
# downloaded): without it the browser tests say why and skip (CI sets FAIRACQ_REQUIRE_BROWSER=1: no
# skipping there). Refreshes the screenshots in docs/screenshots/.
test-ui: $(VENV)/.dev-installed
	FAIRACQ_SCREENSHOTS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/ui

# A real Label Studio driven by a session (tests/labelstudio), in its own virtualenv .venv-labelstudio;
# without Label Studio it says why and skips (CI sets FAIRACQ_REQUIRE_LABELSTUDIO=1: no skipping there).
test-labelstudio:
	scripts/test_labelstudio.sh

# ruff over the repository; mypy strict on the algorithms, then all of service/ as pyproject.toml says
lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/python -m mypy --strict service/algorithms
	$(BIN)/python -m mypy

openapi: $(VENV)/.installed
	$(BIN)/python -m service export-openapi

# The spec, then the Python SDK's generated package (clients/python/fairacq_client/_generated) from it
client: $(VENV)/.dev-installed
	$(BIN)/python -m service export-openapi
	$(BIN)/python clients/python/generate.py

# every script, a miss or crash does not stop the others, one summary table (docs/benchmarks.md);
# make bench BENCH_ARGS=--quick  for a smoke run into a temporary folder
bench: $(VENV)/.bench-installed
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) data .pytest_cache
