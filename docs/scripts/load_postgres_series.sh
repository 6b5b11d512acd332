#!/bin/bash
# docs/scripts/load_postgres_series.sh DUR BIN:N:RATE...: docs/scripts/load_postgres.sh for each spec in turn
# (BIN the tengen binary, N instances, RATE moves/s offered, DUR each), 5 s apart, printing the time, the
# load average and the report's main lines of each run. Run from the repository.
dur=$1; shift
for spec in "$@"; do
  IFS=: read -r bin n rate <<< "$spec"
  sleep 5
  echo "=== $bin n=$n rate=$rate start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  bash docs/scripts/load_postgres.sh "$bin" "$n" "$rate" "$dur" 2>&1 |
    grep -E 'durable|move → ok|servers together|server: CPU|machine|moves acknowledged|postgres:' | head -12
done
