#!/usr/bin/env bash
# The compose stack tested for real (tests/deploy/test_compose.py): build the image from
# docker/Dockerfile, bring docker/docker-compose.yml up under its own project name, image tag and
# host port, run the scenarios, and always end with `docker compose down -v`.
#
# Needs a Docker engine with Compose v2. With none running, as root, it starts one with
# ../shared/tools/docker-engine (next to the repository; DOCKER_ENGINE_TOOL overrides) and stops
# it again at the end. Without root or without that tool it skips with a message and exits 0 —
# unless FAIRACQ_REQUIRE_COMPOSE=1 (CI), where skipping is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd -P)
start=$(date +%s)
export PATH=/usr/sbin:/usr/bin:$PATH   # Debian's docker client first (BuildKit built in)
export FAIRACQ_COMPOSE_PROJECT=${FAIRACQ_COMPOSE_PROJECT:-fairacq-ci}
export FAIRACQ_COMPOSE_IMAGE=${FAIRACQ_COMPOSE_IMAGE:-fairacq:ci}
engine_tool=${DOCKER_ENGINE_TOOL:-$(dirname "$repo")/shared/tools/docker-engine}
python=${PYTHON:-.venv/bin/python}

skip() {
  if [ "${FAIRACQ_REQUIRE_COMPOSE:-0}" = 1 ]; then
    echo "test-compose: FAILED: $* (FAIRACQ_REQUIRE_COMPOSE=1: this stage may not be skipped)" >&2
    exit 1
  fi
  echo "test-compose: SKIPPED: $*"
  exit 0
}

started_engine=0
if ! { command -v docker >/dev/null && docker info >/dev/null 2>&1; }; then
  [ "$(id -u)" = 0 ] || skip "no Docker engine is running, and starting one needs root"
  [ -x "$engine_tool" ] || skip "no Docker engine is running, and there is no $engine_tool to start one"
  echo "test-compose: starting a Docker engine with $engine_tool"
  started_engine=1
  "$engine_tool" up
fi
docker compose version >/dev/null 2>&1 || skip "the engine has no Docker Compose v2 (docker compose)"

cleanup() {
  local rc=$?
  docker compose -p "$FAIRACQ_COMPOSE_PROJECT" -f docker/docker-compose.yml down -v --remove-orphans \
    >/dev/null 2>&1 || true
  if [ "$started_engine" = 1 ]; then "$engine_tool" down || true; fi
  if [ "$rc" = 0 ]; then
    echo "test-compose: passed in $(( $(date +%s) - start )) s"
  else
    echo "test-compose: FAILED (exit $rc) after $(( $(date +%s) - start )) s" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT

echo "test-compose: $(docker compose version), engine $(docker info --format '{{.ServerVersion}}'), project $FAIRACQ_COMPOSE_PROJECT"
# --confcutdir: tests/conftest.py (the in-process fixtures) is not needed, nor the service importable here.
FAIRACQ_COMPOSE_TEST=1 "$python" -m pytest -p no:cacheprovider --confcutdir=tests/deploy -s -v tests/deploy/test_compose.py
