#!/bin/bash
# docs/scripts/load_postgres.sh BIN N RATE DUR [load flags...]: N tengen serve instances (1 or 2) on a fresh
# throwaway PostgreSQL cluster (.ci/postgres), 200 players, 1,000 games, RATE moves/s offered for DUR; the
# load flags are passed on (--split-players, --local-spectators). Run from the repository. It also prints
# PostgreSQL's CPU over the load run (setup included: the postmaster's and its children's user and system
# time). With PROFILE_DIR set, every instance serves its profiles (--pprof-addr 127.0.0.1:606N) and a 20 s
# CPU profile of each is written to PROFILE_DIR/cpuN.prof, taken 35 s after the load starts. It prints the
# transactions the database committed or rolled back in that time too (pg_stat_database). With
# STATEMENT_LOG=FILE set, PostgreSQL logs every statement for 5 s, 30 s after the load starts, and FILE gets
# how often each kind of statement ran in those 5 s (its first 50 characters, numbers as N).
bin=$1; n=$2; rate=$3; dur=$4; shift 4
cd "$(git rev-parse --show-toplevel)" || exit 1
pgdir=$(mktemp -d)
eval "$(.ci/postgres start $pgdir)" >/dev/null
pm=$(head -1 $pgdir/data/postmaster.pid)
psql "$TENGEN_TEST_POSTGRES" -qc "CREATE DATABASE tengen_load" >/dev/null
db="${TENGEN_TEST_POSTGRES%/postgres*}/tengen_load?sslmode=disable"
pids=""; urls=""
for i in $(seq 1 $n); do
  p=$((18600+i))
  prof=""; [ -n "$PROFILE_DIR" ] && prof="--pprof-addr 127.0.0.1:$((6060+i))"
  $bin serve --addr 127.0.0.1:$p --db "$db" --analysis=false --log-level warn --data-dir $pgdir/d$i $prof \
    --login-burst 100000 --challenge-burst 100000 --max-sockets-per-address 100000 > $pgdir/serve$i.log 2>&1 &
  pids="$pids${pids:+,}$!"; urls="$urls${urls:+,}http://127.0.0.1:$p"
done
sleep 3
pgcpu() { # clock ticks of the cluster: the postmaster with its reaped children, and the children alive
  local t; t=$(awk '{print $14+$15+$16+$17}' /proc/$pm/stat)
  for c in $(pgrep -P $pm); do t=$((t+$(awk '{print $14+$15}' /proc/$c/stat 2>/dev/null || echo 0))); done
  echo $t
}
profpid=""
if [ -n "$PROFILE_DIR" ]; then
  mkdir -p "$PROFILE_DIR"
  ( sleep 35; for i in $(seq 1 $n); do
      curl -s -o "$PROFILE_DIR/cpu$i.prof" "http://127.0.0.1:$((6060+i))/debug/pprof/profile?seconds=20" &
    done; wait ) &
  profpid=$!
fi
xacts() { psql "$db" -Atc "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"; }
stmtpid=""
if [ -n "$STATEMENT_LOG" ]; then
  ( sleep 30
    psql "$TENGEN_TEST_POSTGRES" -qc "ALTER SYSTEM SET log_min_duration_statement = 0" -c "SELECT pg_reload_conf()" >/dev/null
    sleep 5
    psql "$TENGEN_TEST_POSTGRES" -qc "ALTER SYSTEM RESET log_min_duration_statement" -c "SELECT pg_reload_conf()" >/dev/null
  ) &
  stmtpid=$!
fi
x0=$(xacts); t0=$(pgcpu); s0=$(date +%s)
$bin load --url $urls --server-pid "$pids" --players 200 --games 1000 --rate $rate --duration $dur "$@" 2>&1 | grep -vE "^\s*$" | tail -14
t1=$(pgcpu); s1=$(date +%s); sleep 1; x1=$(xacts) # the statistics reach pg_stat_database within a second
echo "postgres: CPU $(( (t1-t0)/$(getconf CLK_TCK) )) s over the $((s1-s0)) s of the load run; $((x1-x0)) transactions"
[ -n "$profpid" ] && wait $profpid
if [ -n "$stmtpid" ]; then
  wait $stmtpid
  grep -oE "(statement|execute [^:]*): .{0,50}" $pgdir/server.log | sed -E 's/execute [^:]*:/execute:/; s/\$[0-9]+/$/g; s/[0-9]+/N/g' |
    sort | uniq -c | sort -rn > "$STATEMENT_LOG"
fi
kill ${pids//,/ }
for p in ${pids//,/ }; do while kill -0 $p 2>/dev/null; do sleep 0.2; done; done
.ci/postgres stop $pgdir >/dev/null 2>&1
rm -rf $pgdir
