#!/usr/bin/env bash
# A throwaway PostgreSQL 15 server for tests and CI, in a temporary folder.
#   scripts/pg_tmp.sh start DIR   -> initdb + start on a free loopback port; prints the URL
#   scripts/pg_tmp.sh stop DIR    -> stop it and remove DIR
# initdb refuses to run as root, so the server runs as the `postgres` user when we are root.
set -euo pipefail
cmd=${1:?usage: pg_tmp.sh start|stop DIR}
dir=${2:?usage: pg_tmp.sh start|stop DIR}
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}

as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    as_pg "$bin/initdb -D '$dir/data' -A trust -U postgres -E UTF8 >'$dir/initdb.log' 2>&1"
    as_pg "$bin/pg_ctl -D '$dir/data' -l '$dir/server.log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200\" start >/dev/null"
    as_pg "$bin/createdb -h 127.0.0.1 -p $port -U postgres fairacq"
    echo "$port" >"$dir/port"
    echo "postgresql+psycopg://postgres@127.0.0.1:$port/fairacq"
    ;;
  stop)
    if [ -d "$dir/data" ]; then as_pg "$bin/pg_ctl -D '$dir/data' -m immediate -w stop >/dev/null 2>&1" || true; fi
    rm -rf "$dir"
    ;;
  *) echo "usage: pg_tmp.sh start|stop DIR" >&2; exit 2 ;;
esac
