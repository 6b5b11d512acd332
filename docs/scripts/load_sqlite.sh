#!/bin/bash
# docs/scripts/load_sqlite.sh BIN DUR [VAR=VALUE...]: one load run against a fresh SQLite server in its own
# process (1,000 games, 1,000 spectators, 2,000 players, 2,000 moves/s offered for DUR), with the server's
# environment extended by the VAR=VALUE given (GOGC=100, say). Prints the generator's summary and the number
# of the server's garbage collections in the whole run (gctrace, registrations included).
bin=$1; dur=$2; shift 2
d=$(mktemp -d)
env GODEBUG=gctrace=1 "$@" $bin serve --addr 127.0.0.1:18439 --data-dir $d --analysis=false --log-level warn \
  --login-burst 100000 --challenge-burst 100000 --max-sockets-per-address 100000 > $d/serve.log 2>$d/gc.log &
pid=$!; sleep 2
$bin load --url http://127.0.0.1:18439 --server-pid $pid --players 2000 --games 1000 --rate 2000 --duration $dur 2>&1 | grep -vE "^\s*$" | tail -7
echo "gc cycles in the whole run (registrations included): $(grep -c '^gc ' $d/gc.log)"
kill $pid; wait $pid 2>/dev/null; rm -rf $d
