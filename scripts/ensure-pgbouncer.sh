#!/usr/bin/env bash
# Installs Debian's PgBouncer for the PostgreSQL test run when it is missing.
set -euo pipefail
if [[ -x /usr/sbin/pgbouncer ]]; then exit 0; fi
if [[ "$(id -u)" != "0" ]]; then
  echo "ensure-pgbouncer: /usr/sbin/pgbouncer is missing; install Debian's pgbouncer package (apt-get install pgbouncer)." >&2
  exit 1
fi
echo "ensure-pgbouncer: installing Debian's pgbouncer…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null
