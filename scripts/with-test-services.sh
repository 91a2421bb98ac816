#!/usr/bin/env bash
# Runs a command with throw-away Postgres, Redis and ClickHouse servers for the backend suites
# (the usage service on ClickHouse + Postgres, the deployment API on Postgres + Redis), then stops
# them. The suites read TEST_DATABASE_URI, TEST_REDIS_URI and TEST_CLICKHOUSE_URL — never the app's
# own DATABASE_URI / REDIS_URI / CLICKHOUSE_URL, so every other test keeps the embedded defaults.
#
#   scripts/with-test-services.sh npx vitest run
#
# Variables already set are kept (point them at servers of your own). A server that cannot be
# started here (not installed and not root) is named on stderr and its suites are skipped, visibly.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ -n "${TEST_DATABASE_URI:-}" ] && [ -n "${TEST_REDIS_URI:-}" ] && [ -n "${TEST_CLICKHOUSE_URL:-}" ]; then
  exec "$@"
fi

SERVICES_DIR="$(mktemp -d /tmp/usage-console-test-services.XXXXXX)"
export SERVICES_DIR
# The test servers take free ports, whatever fixed ones the developer's own servers use.
unset POSTGRES_PORT REDIS_PORT CLICKHOUSE_PORT CLICKHOUSE_TCP_PORT
trap 'scripts/services.sh stop >/dev/null 2>&1' EXIT

start_one() {
  local name="$1" var="$2" from="$3" line
  [ -n "${!var:-}" ] && return 0
  if line="$(scripts/services.sh start "$name" 2>"$SERVICES_DIR/$name.err")"; then
    export "$var=$(echo "$line" | sed -n "s/^export $from=//p")"
    rm -f "$SERVICES_DIR/env.sh"
  else
    echo "with-test-services: $name not started ($(tail -1 "$SERVICES_DIR/$name.err")): its suites are skipped" >&2
    rm -f "$SERVICES_DIR/env.sh"
  fi
}

start_one postgres TEST_DATABASE_URI DATABASE_URI
start_one redis TEST_REDIS_URI REDIS_URI
start_one clickhouse TEST_CLICKHOUSE_URL CLICKHOUSE_URL
echo "with-test-services: TEST_DATABASE_URI=${TEST_DATABASE_URI:-} TEST_REDIS_URI=${TEST_REDIS_URI:-} TEST_CLICKHOUSE_URL=${TEST_CLICKHOUSE_URL:-}" >&2

"$@"
