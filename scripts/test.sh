#!/usr/bin/env bash
# `npm test`: typecheck, lint, unit and API tests on PGlite, the API tests again on a throwaway
# PostgreSQL 15 reached through PgBouncer in transaction mode, with a streaming replica for the
# reads that may lag, and the Playwright journeys in Debian's chromium. Runs every suite even when
# one fails, and ends with one line: `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
results=.tmp/test-results
rm -rf "$results" && mkdir -p "$results"
status=0

step() { printf '\n==> %s\n' "$*"; }
check() { # check NAME COMMAND…: a check that passes or fails as a whole
  local name=$1; shift
  if "$@"; then echo passed > "$results/$name.ok"; else echo failed > "$results/$name.ok"; status=1; fi
}

step "typecheck"
check typecheck npx tsc --noEmit
step "lint"
check lint npx biome check .
step "build the web app"
check build npx vite build --logLevel warn

step "unit and API tests on PGlite"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest-pglite.json" || status=1

# Once, through PgBouncer: what passes behind a transaction pooler passes on a direct connection,
# and not the other way round (session state, session locks, LISTEN). Where PgBouncer cannot be
# installed, the suite runs on the server directly.
step "API tests on PostgreSQL through PgBouncer, with a streaming replica"
pgbouncer=--pgbouncer
if ! bash scripts/ensure-pgbouncer.sh; then
  echo "No PgBouncer here: the PostgreSQL run connects to the server directly."
  pgbouncer=
fi
scripts/with-postgres.sh $pgbouncer --replica npx vitest run src/server --reporter=default --reporter=json \
  --outputFile.json="$results/vitest-postgres.json"
code=$?
if [[ $code == 3 ]]; then
  echo "No PostgreSQL binaries here: the PostgreSQL run was skipped."
  echo skipped > "$results/vitest-postgres.skipped"
elif [[ $code != 0 ]]; then
  status=1
fi

step "end-to-end journeys in chromium"
if bash scripts/ensure-chromium.sh; then
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results/e2e.json" npx playwright test || status=1
else
  status=1
fi

step "summary"
postgres_result=vitest-postgres.json
[[ -f "$results/vitest-postgres.skipped" ]] && postgres_result=vitest-postgres.skipped
node scripts/test-summary.mjs "$results" typecheck.ok lint.ok build.ok vitest-pglite.json "$postgres_result" e2e.json \
  | tee "$results/summary.txt"
exit $status
