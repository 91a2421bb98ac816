#!/usr/bin/env bash
# Throw-away Postgres, Redis and ClickHouse servers on free loopback ports, from Debian's packages,
# for the backend test suites and for trying the scale-out backends by hand.
#
#   eval "$(scripts/services.sh start postgres redis clickhouse)"   # exports DATABASE_URI, REDIS_URI, CLICKHOUSE_URL
#   scripts/services.sh env                                          # the same lines again
#   scripts/services.sh stop                                         # stops them and removes their data
#   scripts/services.sh dir                                          # where they keep it
#
# Servers missing from the machine are installed with apt-get (root only). Everything lives in
# SERVICES_DIR: data, logs, and env.sh with the lines above. By default it is one directory per
# checkout (/tmp/usage-console-services-<checkout>-<hash of its path>), so two checkouts on one
# machine never stop or reuse each other's servers. Ports are free ones picked at start, unless
# POSTGRES_PORT, REDIS_PORT or CLICKHOUSE_PORT (HTTP; CLICKHOUSE_TCP_PORT for its native port)
# name fixed ones; a fixed port already in use stops the start with its name.
# Only the `export ...` lines go to stdout; progress goes to stderr.
set -euo pipefail

CHECKOUT="$(cd "$(dirname "$0")/.." && pwd -P)"
SERVICES_DIR="${SERVICES_DIR:-/tmp/usage-console-services-$(basename "$CHECKOUT")-$(printf '%s' "$CHECKOUT" | cksum | cut -d' ' -f1)}"
PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"

usage() {
  cat >&2 <<'EOF'
usage: scripts/services.sh start [postgres] [redis] [clickhouse]   (none named: all three)
       scripts/services.sh env | stop | status | dir
Fixed ports: POSTGRES_PORT, REDIS_PORT, CLICKHOUSE_PORT (HTTP), CLICKHOUSE_TCP_PORT.
Data: SERVICES_DIR (default: one directory per checkout under /tmp).
EOF
}

say() { echo "services: $*" >&2; }
fail() {
  echo "services: $*" >&2
  exit 1
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# The port a service listens on: the fixed one named by the variable $1, or a free one.
pick_port() {
  local variable="$1" port="${!1:-}"
  [ -z "$port" ] && { free_port; return; }
  [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65535 ] ||
    fail "$variable=$port is not a port number"
  node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$port" ||
    fail "$variable=$port is in use"
  echo "$port"
}

wait_for() {
  local what="$1" tries=0
  shift
  until "$@" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -gt 150 ] && fail "$what did not answer within 15 s (log in $SERVICES_DIR)"
    sleep 0.1
  done
}

apt_install() {
  [ "$(id -u)" = 0 ] || fail "$* is not installed and this is not root: apt-get install -y $*"
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 ||
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; } ||
    fail "apt-get install $* failed"
}

# Runs a command as the service's own user when we are root (initdb and clickhouse refuse root).
as_user() {
  local user="$1"
  shift
  if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

start_postgres() {
  [ -x "$PG_BIN/initdb" ] || { apt_install postgresql; PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"; }
  local dir="$SERVICES_DIR/postgres" port
  port="$(pick_port POSTGRES_PORT)"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_user postgres "$PG_BIN/initdb" -D "$dir/data" --auth=trust --no-sync -U postgres -E UTF8 >"$SERVICES_DIR/postgres-initdb.log" 2>&1 ||
    fail "initdb failed: $SERVICES_DIR/postgres-initdb.log"
  as_user postgres "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null ||
    fail "postgres did not start: $dir/postgres.log"
  echo "export DATABASE_URI=postgres://postgres@127.0.0.1:$port/postgres" >>"$SERVICES_DIR/env.sh"
  say "postgres $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

start_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  local dir="$SERVICES_DIR/redis" port
  port="$(pick_port REDIS_PORT)"
  mkdir -p "$dir"
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null
  wait_for redis redis-cli -p "$port" ping
  echo "export REDIS_URI=redis://127.0.0.1:$port" >>"$SERVICES_DIR/env.sh"
  say "redis $(redis-server --version | awk '{print $3}') on 127.0.0.1:$port"
}

start_clickhouse() {
  command -v clickhouse-server >/dev/null || apt_install clickhouse-server
  local dir="$SERVICES_DIR/clickhouse" http tcp
  http="$(pick_port CLICKHOUSE_PORT)"
  tcp="$(pick_port CLICKHOUSE_TCP_PORT)"
  mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas"
  cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/clickhouse.log</log><errorlog>$dir/clickhouse.err.log</errorlog><size>100M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>200</max_concurrent_queries>
</yandex>
EOF
  cat >"$dir/users.xml" <<'EOF'
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
EOF
  [ "$(id -u)" = 0 ] && id clickhouse >/dev/null 2>&1 && chown -R clickhouse "$dir"
  local user=clickhouse
  id clickhouse >/dev/null 2>&1 || user="$(id -un)"
  (cd "$dir" && as_user "$user" clickhouse-server --config-file="$dir/config.xml" --pid-file="$dir/clickhouse.pid" --daemon) ||
    fail "clickhouse did not start: $dir/clickhouse.err.log"
  wait_for clickhouse curl -sf "http://127.0.0.1:$http/ping"
  echo "export CLICKHOUSE_URL=http://127.0.0.1:$http" >>"$SERVICES_DIR/env.sh"
  say "clickhouse $(curl -s "http://127.0.0.1:$http/?query=SELECT%20version()") on 127.0.0.1:$http"
}

stop_all() {
  [ -d "$SERVICES_DIR" ] || return 0
  if [ -f "$SERVICES_DIR/postgres/data/postmaster.pid" ]; then
    as_user postgres "$PG_BIN/pg_ctl" -D "$SERVICES_DIR/postgres/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  for pidfile in "$SERVICES_DIR/redis/redis.pid" "$SERVICES_DIR/clickhouse/clickhouse.pid"; do
    if [ -f "$pidfile" ]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  sleep 0.3
  for pidfile in "$SERVICES_DIR/redis/redis.pid" "$SERVICES_DIR/clickhouse/clickhouse.pid"; do
    if [ -f "$pidfile" ]; then
      kill -9 "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  rm -rf "$SERVICES_DIR"
  say "stopped"
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
  start)
    [ -f "$SERVICES_DIR/env.sh" ] && fail "already started in $SERVICES_DIR (scripts/services.sh stop first, or set SERVICES_DIR)"
    mkdir -p "$SERVICES_DIR"
    chmod 755 "$SERVICES_DIR"
    : >"$SERVICES_DIR/env.sh"
    wanted=("$@")
    [ ${#wanted[@]} -eq 0 ] && wanted=(postgres redis clickhouse)
    for service in "${wanted[@]}"; do
      case "$service" in
        postgres) start_postgres ;;
        redis) start_redis ;;
        clickhouse) start_clickhouse ;;
        *)
          usage
          exit 2
          ;;
      esac
    done
    cat "$SERVICES_DIR/env.sh"
    ;;
  env)
    [ -f "$SERVICES_DIR/env.sh" ] || fail "nothing started in $SERVICES_DIR"
    cat "$SERVICES_DIR/env.sh"
    ;;
  status) [ -f "$SERVICES_DIR/env.sh" ] && cat "$SERVICES_DIR/env.sh" >&2 || say "nothing started" ;;
  dir) echo "$SERVICES_DIR" ;;
  stop) stop_all ;;
  -h | --help | help) usage ;;
  *)
    usage
    exit 2
    ;;
esac
