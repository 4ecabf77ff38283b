#!/usr/bin/env bash
# Every test on SQLite and, at the same time, on a throwaway PostgreSQL 15 all but the tests that do not
# depend on the database: the pure library (tests/algorithms), the contract and end-to-end tours through
# the spec, the README and the clients (tests/contract, tests/e2e: what they reach is tested on both
# databases in tests/api), the browser (tests/ui), the installed package and compose stack (tests/deploy)
# and the type check. The two tiers share nothing but the machine (each test has its own database, folder
# and free ports), and most of their time is spent waiting on the servers they start, so they run side by
# side; the PostgreSQL tier's output is printed when both have finished. Tests that assert a latency bound
# (marked `latency`) run afterwards, each tier's in turn, so that the other tier's load is not in them.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.venv/bin

echo "== lint (mypy runs in the SQLite tier: tests/platform/test_typecheck.py)"
"$bin/ruff" check .

pgdir=$(mktemp -d /tmp/fairacq-pg.XXXXXX)
pglog=$(mktemp /tmp/fairacq-pg-tier.XXXXXX)
trap 'scripts/pg_tmp.sh stop "$pgdir"; rm -f "$pglog"' EXIT
url=$(scripts/pg_tmp.sh start "$pgdir")
pg_tests=(--ignore=tests/algorithms --ignore=tests/deploy --ignore=tests/contract --ignore=tests/e2e --ignore=tests/ui
          --ignore=tests/platform/test_typecheck.py)
FAIRACQ_TEST_DATABASE_URL="$url" FAIRACQ_TEST_PG_DIR="$pgdir" \
  "$bin/python" -m pytest -q -p no:cacheprovider --durations=15 "${pg_tests[@]}" -m "not latency" >"$pglog" 2>&1 &
pg_pid=$!

echo "== tests on SQLite"
sqlite_rc=0
"$bin/python" -m pytest -q -p no:cacheprovider --durations=15 -m "not latency" || sqlite_rc=$?

pg_rc=0
wait "$pg_pid" || pg_rc=$?
echo "== tests on PostgreSQL"
cat "$pglog"

echo "== latency-bound tests, alone: SQLite, then PostgreSQL"
"$bin/python" -m pytest -q -p no:cacheprovider -m latency || sqlite_rc=$?
FAIRACQ_TEST_DATABASE_URL="$url" FAIRACQ_TEST_PG_DIR="$pgdir" \
  "$bin/python" -m pytest -q -p no:cacheprovider "${pg_tests[@]}" -m latency || pg_rc=$?
echo "== SQLite tier exit $sqlite_rc, PostgreSQL tier exit $pg_rc"
[ "$sqlite_rc" = 0 ] && [ "$pg_rc" = 0 ]
