#!/bin/bash
# docs/scripts/load_postgres.sh BIN N RATE DUR [load flags...]: N tengen serve instances (1 or 2) on a fresh
# throwaway PostgreSQL cluster (.ci/postgres), 200 players, 1,000 games, RATE moves/s offered for DUR; the
# load flags are passed on (--split-players, --local-spectators). Run from the repository.
bin=$1; n=$2; rate=$3; dur=$4; shift 4
cd "$(git rev-parse --show-toplevel)" || exit 1
pgdir=$(mktemp -d)
eval "$(.ci/postgres start $pgdir)" >/dev/null
psql "$TENGEN_TEST_POSTGRES" -qc "CREATE DATABASE tengen_load" >/dev/null
db="${TENGEN_TEST_POSTGRES%/postgres*}/tengen_load?sslmode=disable"
pids=""; urls=""
for i in $(seq 1 $n); do
  p=$((18600+i))
  $bin serve --addr 127.0.0.1:$p --db "$db" --analysis=false --log-level warn --data-dir $pgdir/d$i \
    --login-burst 100000 --challenge-burst 100000 --max-sockets-per-address 100000 > $pgdir/serve$i.log 2>&1 &
  pids="$pids${pids:+,}$!"; urls="$urls${urls:+,}http://127.0.0.1:$p"
done
sleep 3
$bin load --url $urls --server-pid "$pids" --players 200 --games 1000 --rate $rate --duration $dur "$@" 2>&1 | grep -vE "^\s*$" | tail -14
kill ${pids//,/ }; sleep 1
.ci/postgres stop $pgdir >/dev/null 2>&1
rm -rf $pgdir
