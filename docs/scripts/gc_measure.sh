#!/bin/bash
# docs/scripts/gc_measure.sh BIN [DUR]: one load run (1,000 games, 2,000/s) against a fresh SQLite server with gctrace;
# prints the load summary, bytes allocated per committed move (two samples 20 s apart during the moves),
# and per GC cycle during the moves: wall ms of the concurrent mark and mark CPU ms (assist+background+idle).
bin=$1; dur=${2:-40s}
d=$(mktemp -d)
GODEBUG=gctrace=1 $bin serve --addr 127.0.0.1:18439 --data-dir $d --analysis=false --log-level warn --metrics-addr 127.0.0.1:18441 \
  --login-burst 100000 --challenge-burst 100000 --max-sockets-per-address 100000 > $d/serve.log 2>$d/gc.log &
pid=$!; sleep 2
$bin load --url http://127.0.0.1:18439 --server-pid $pid --players 2000 --games 1000 --rate 2000 --duration $dur > $d/load.log 2>&1 &
lpid=$!
m() { curl -s http://127.0.0.1:18441/metrics | awk -v k="$1" 'index($1,k)==1 && (length($1)==length(k) || substr($1,length(k)+1,1)=="{"){s+=$2} END{printf "%.0f\n", s}'; }
for i in $(seq 1 120); do c=$(m tengen_moves_committed_total); [ -n "$c" ] && [ "$c" -gt 2000 ] 2>/dev/null && break; sleep 1; done
sleep 3
a1=$(m go_memstats_alloc_bytes_total); c1=$(m tengen_moves_committed_total); g1=$(wc -l < $d/gc.log)
sleep 20
a2=$(m go_memstats_alloc_bytes_total); c2=$(m tengen_moves_committed_total); g2=$(wc -l < $d/gc.log)
wait $lpid
grep -vE "^\s*$" $d/load.log | tail -7
python3 - "$a1" "$a2" "$c1" "$c2" <<'PY'
import sys
a1,a2,c1,c2=map(float,sys.argv[1:])
print(f"alloc per committed move: {(a2-a1)/(c2-c1):.0f} B ({c2-c1:.0f} moves in the window)")
PY
sed -n "$((g1+1)),${g2}p" $d/gc.log | python3 -c '
import sys,re
rows=[]
for l in sys.stdin:
    m=re.search(r"([\d.]+)\+([\d.]+)\+([\d.]+) ms clock, ([\d.]+)\+([\d.]+)/([\d.]+)/([\d.]+)\+([\d.]+) ms cpu, (\d+)->(\d+)->(\d+) MB",l)
    if m:
        v=[float(x) for x in m.groups()]
        rows.append((v[1], v[4]+v[5]+v[6], v[4], v[10]))
print("cycles in the 20 s window:", len(rows))
for r in rows: print(f"  mark wall {r[0]:.0f} ms, mark cpu {r[1]:.0f} ms (assist {r[2]:.0f}), live {r[3]:.0f} MB")
'
kill $pid; wait $pid 2>/dev/null; rm -rf $d
