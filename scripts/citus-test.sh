#!/usr/bin/env bash
# Runs the whole test suite (`npm test`) against a Citus cluster: one coordinator and two workers
# started here on free local ports, in a temporary directory, torn down at the end.
#
# Needs the `citus` extension installed in the machine's PostgreSQL (pg_config's pkglibdir has
# citus.so). It is not in the npm registry or Debian's archive, and this project ships no recipe to
# build it: when it is absent the script prints "Citus not installed: skipped" and exits 0.
#
#   scripts/citus-test.sh            # the whole suite
#   scripts/citus-test.sh src/modules/catalog   # arguments go to vitest (`npm run test:only`)
#   CITUS_KEEP=1 scripts/citus-test.sh --keep   # leave the cluster running, print its URL
#
# Each test file copies a migrated, distributed template database on every node (see
# test/helpers/db.ts), so the files stay independent as they are on PostgreSQL.
set -uo pipefail
cd "$(dirname "$0")/.."

pgbin="$(pg_config --bindir 2>/dev/null || true)"
[ -n "$pgbin" ] && [ -x "$pgbin/initdb" ] || pgbin="/usr/lib/postgresql/$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -n 1)/bin"
libdir="$(pg_config --pkglibdir 2>/dev/null || echo "$pgbin/../lib")"
if [ ! -x "$pgbin/initdb" ] || [ ! -f "$libdir/citus.so" ]; then
  echo "Citus not installed: skipped"
  exit 0
fi

# PostgreSQL refuses to run as root: the cluster runs as the postgres user when we are root.
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

base="$(mktemp -d /tmp/citus-cluster.XXXXXX)"
chmod 755 "$base"
[ "$(id -u)" = 0 ] && chown postgres "$base"
ports=()
names=(coordinator worker1 worker2)
stop_all() {
  for n in "${names[@]}"; do
    [ -f "$base/$n/postmaster.pid" ] && run_pg "$pgbin/pg_ctl" -D "$base/$n" -m immediate stop >/dev/null 2>&1
  done
  rm -rf "$base"
}
[ "${CITUS_KEEP:-0}" = 1 ] || trap stop_all EXIT

for n in "${names[@]}"; do
  port="$(free_port)"
  ports+=("$port")
  run_pg "$pgbin/initdb" -D "$base/$n" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$base/$n.initdb.log" 2>&1 || {
    cat "$base/$n.initdb.log"
    exit 1
  }
  cat >>"$base/$n/postgresql.conf" <<EOF
shared_preload_libraries = 'citus'
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$base'
max_connections = 400
fsync = off
synchronous_commit = off
full_page_writes = off
max_wal_size = 2GB
citus.shard_count = ${CITUS_SHARD_COUNT:-8}
citus.max_shared_pool_size = 300
citus.enable_unsafe_triggers = on
EOF
  run_pg "$pgbin/pg_ctl" -D "$base/$n" -l "$base/$n.log" -w start >/dev/null || {
    cat "$base/$n.log"
    exit 1
  }
done

coord="${ports[0]}"
db="commerce_citus"
psql_at() { psql -h 127.0.0.1 -p "$1" -U postgres -v ON_ERROR_STOP=1 -qAt "${@:2}"; }
for p in "${ports[@]}"; do
  psql_at "$p" -d postgres -c "CREATE DATABASE $db" &&
    psql_at "$p" -d "$db" -c "CREATE EXTENSION citus" || exit 1
done
psql_at "$coord" -d "$db" -c "SELECT citus_set_coordinator_host('127.0.0.1', $coord)" >/dev/null || exit 1
for p in "${ports[@]:1}"; do
  psql_at "$coord" -d "$db" -c "SELECT citus_add_node('127.0.0.1', $p)" >/dev/null || exit 1
done
echo "== Citus $(psql_at "$coord" -d "$db" -c "SELECT extversion FROM pg_extension WHERE extname='citus'") on PostgreSQL $(psql_at "$coord" -d "$db" -c 'SHOW server_version'): coordinator :$coord, workers :${ports[1]} :${ports[2]}"

url="postgres://postgres@127.0.0.1:$coord/$db"
if [ "${CITUS_KEEP:-0}" = 1 ]; then
  echo "cluster left running in $base: $url"
  exit 0
fi
export TEST_DATABASE_KIND=citus # the summary line says "citus: N passed, …"
if [ "$#" -gt 0 ]; then
  TEST_DATABASE_URL="$url" npm run test:only -- "$@"
else
  TEST_DATABASE_URL="$url" npm test
fi
