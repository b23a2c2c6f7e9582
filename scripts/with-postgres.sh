#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL 15 cluster, then removes it.
#   scripts/with-postgres.sh [--pgbouncer] [--replica] npx vitest run src/server
# --pgbouncer  puts Debian's PgBouncer in transaction-pooling mode in front of the server:
#              DATABASE_URL names PgBouncer, DATABASE_DIRECT_URL the server itself.
# --replica    starts a streaming replica of the server (pg_basebackup -R) on another port and
#              names it in DATABASE_READ_URL.
# Exits 3 with a notice (and runs nothing) when the PostgreSQL binaries, or PgBouncer when asked
# for, are not installed.
set -euo pipefail

with_pgbouncer=false
with_replica=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --pgbouncer) with_pgbouncer=true; shift ;;
    --replica) with_replica=true; shift ;;
    *) break ;;
  esac
done

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PGBOUNCER="${PGBOUNCER:-/usr/sbin/pgbouncer}"
if [[ ! -x "$PG_BIN/initdb" ]]; then
  echo "with-postgres: no PostgreSQL binaries in $PG_BIN; skipping the PostgreSQL run." >&2
  exit 3
fi
if [[ $with_pgbouncer == true && ! -x "$PGBOUNCER" ]]; then
  echo "with-postgres: no PgBouncer at $PGBOUNCER; skipping the PostgreSQL run." >&2
  exit 3
fi

workdir="$(mktemp -d /tmp/dash-pg.XXXXXX)"
port="${PG_PORT:-$(( 20000 + RANDOM % 20000 ))}"
replica_port=$(( port + 1 ))
pgbouncer_port=$(( port + 2 ))

# PostgreSQL and PgBouncer refuse to run as root: as root, run them as the postgres user.
as_owner() {
  if [[ "$(id -u)" == "0" ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [[ "$(id -u)" == "0" ]]; then chown postgres "$workdir"; fi

cleanup() {
  if [[ -f "$workdir/pgbouncer.pid" ]]; then kill "$(cat "$workdir/pgbouncer.pid")" 2>/dev/null || true; fi
  as_owner "$PG_BIN/pg_ctl" -D "$workdir/replica" -m immediate stop >/dev/null 2>&1 || true
  as_owner "$PG_BIN/pg_ctl" -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap cleanup EXIT

server_options="-k $workdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200"
as_owner "$PG_BIN/initdb" -A trust -U postgres -D "$workdir/data" >/dev/null
# A base backup needs full-page writes; without a replica they are only a cost.
primary_options="$server_options"
[[ $with_replica == true ]] || primary_options="$primary_options -c full_page_writes=off"
as_owner "$PG_BIN/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w -o "-p $port $primary_options" \
  start >/dev/null
direct_url="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $port" >&2

if [[ $with_replica == true ]]; then
  # -R writes standby.signal and primary_conninfo: the copy starts as a hot standby that follows.
  as_owner "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$workdir/replica" -R -X stream
  as_owner "$PG_BIN/pg_ctl" -D "$workdir/replica" -l "$workdir/replica.log" -w \
    -o "-p $replica_port $server_options -c hot_standby=on" start >/dev/null
  export DATABASE_READ_URL="postgres://postgres@127.0.0.1:$replica_port/postgres"
  echo "with-postgres: streaming replica on port $replica_port (DATABASE_READ_URL)" >&2
fi

if [[ $with_pgbouncer == true ]]; then
  # Every database name goes to the server; transaction pooling, as a deployment behind
  # PgBouncer would run it. The pool is large enough for two test workers' files at once.
  printf '"postgres" ""\n' >"$workdir/userlist.txt"
  cat >"$workdir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $pgbouncer_port
unix_socket_dir =
auth_type = trust
auth_file = $workdir/userlist.txt
pool_mode = transaction
max_client_conn = 400
default_pool_size = 20
max_db_connections = 150
logfile = $workdir/pgbouncer.log
pidfile = $workdir/pgbouncer.pid
EOF
  if [[ "$(id -u)" == "0" ]]; then chown postgres "$workdir/pgbouncer.ini" "$workdir/userlist.txt"; fi
  as_owner "$PGBOUNCER" -d -q "$workdir/pgbouncer.ini"
  for _ in $(seq 50); do
    [[ -f "$workdir/pgbouncer.pid" ]] && "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$pgbouncer_port" && break
    sleep 0.1
  done
  export DATABASE_DIRECT_URL="$direct_url"
  export DATABASE_URL="postgres://postgres@127.0.0.1:$pgbouncer_port/postgres"
  echo "with-postgres: PgBouncer $("$PGBOUNCER" --version | awk 'NR==1 {print $2}') in transaction mode on port $pgbouncer_port (DATABASE_URL)" >&2
else
  export DATABASE_URL="$direct_url"
fi
"$@"
