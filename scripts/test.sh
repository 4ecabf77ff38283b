#!/usr/bin/env bash
# Every test on SQLite, then the database tiers again on a throwaway PostgreSQL 15.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin

echo "== lint"
"$bin/ruff" check .
"$bin/python" -m mypy --strict service/algorithms
"$bin/python" -m mypy

echo "== tests on SQLite"
"$bin/python" -m pytest -q -p no:cacheprovider

echo "== tests on PostgreSQL"
pgdir=$(mktemp -d /tmp/fairacq-pg.XXXXXX)
trap 'scripts/pg_tmp.sh stop "$pgdir"' EXIT
url=$(scripts/pg_tmp.sh start "$pgdir")
FAIRACQ_TEST_DATABASE_URL="$url" FAIRACQ_TEST_PG_DIR="$pgdir" \
  "$bin/python" -m pytest -q -p no:cacheprovider --ignore=tests/algorithms --ignore=tests/deploy
