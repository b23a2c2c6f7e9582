#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL 15 cluster, then removes it.
#   scripts/with-postgres.sh npx vitest run src/server
# Exits 3 with a notice (and runs nothing) when the PostgreSQL binaries are not installed.
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
if [[ ! -x "$PG_BIN/initdb" ]]; then
  echo "with-postgres: no PostgreSQL binaries in $PG_BIN; skipping the PostgreSQL run." >&2
  exit 3
fi

workdir="$(mktemp -d /tmp/dash-pg.XXXXXX)"
port="${PG_PORT:-$(( 20000 + RANDOM % 20000 ))}"

# PostgreSQL refuses to run as root: as root, run it as the postgres user.
as_owner() {
  if [[ "$(id -u)" == "0" ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [[ "$(id -u)" == "0" ]]; then chown postgres "$workdir"; fi

cleanup() {
  as_owner "$PG_BIN/pg_ctl" -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap cleanup EXIT

as_owner "$PG_BIN/initdb" -A trust -U postgres -D "$workdir/data" >/dev/null
as_owner "$PG_BIN/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w \
  -o "-p $port -k $workdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $port" >&2
"$@"
