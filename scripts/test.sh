#!/usr/bin/env bash
# Every test on SQLite, then again on a throwaway PostgreSQL 15 all but the tests that do not depend on the
# database: the pure library (tests/algorithms), the contract and end-to-end tours through the spec, the
# README and the clients (tests/contract, tests/e2e: what they reach is tested on both databases in tests/api),
# the browser (tests/ui) and the installed package and compose stack (tests/deploy).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin

echo "== lint"
"$bin/ruff" check .
"$bin/python" -m mypy --strict service/algorithms
"$bin/python" -m mypy

echo "== tests on SQLite"
"$bin/python" -m pytest -q -p no:cacheprovider --durations=15

echo "== tests on PostgreSQL"
pgdir=$(mktemp -d /tmp/fairacq-pg.XXXXXX)
trap 'scripts/pg_tmp.sh stop "$pgdir"' EXIT
url=$(scripts/pg_tmp.sh start "$pgdir")
FAIRACQ_TEST_DATABASE_URL="$url" FAIRACQ_TEST_PG_DIR="$pgdir" \
  "$bin/python" -m pytest -q -p no:cacheprovider --durations=15 --ignore=tests/algorithms --ignore=tests/deploy \
  --ignore=tests/contract --ignore=tests/e2e --ignore=tests/ui
