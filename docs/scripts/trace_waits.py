#!/usr/bin/env python3
# trace_waits.py: how long goroutines waited runnable, per 50 ms of a runtime trace, and the
# collector's mark phase and assists in it (docs/PERFORMANCE.md, "The tail is the garbage collector").
# Usage: go tool trace -d=parsed trace.out > trace.txt; python3 trace_waits.py trace.txt
import re,sys,collections
st=re.compile(r'StateTransition Time=(\d+) GoID=(\d+) (\w+)->(\w+)')
rg=re.compile(r'(RangeBegin|RangeEnd) Time=(\d+) Name="([^"]*)"')
runnable={}
waits=collections.defaultdict(list)
t0=None
marks=[];assists=collections.defaultdict(float); abeg={}
cur=None
for line in open(sys.argv[1]):
    if 'StateTransition' in line and 'GoID' in line:
        m=st.search(line)
        if not m: continue
        t=int(m.group(1)); g=m.group(2); a=m.group(3); b=m.group(4)
        if t0 is None: t0=t
        if b=='Runnable': runnable[g]=t
        elif a=='Runnable' and b=='Running' and g in runnable:
            w=t-runnable.pop(g); waits[(t-t0)//50_000_000].append(w)
    elif 'Range' in line:
        m=rg.search(line)
        if not m: continue
        t=int(m.group(2)); 
        if t0 is None: t0=t
        name=m.group(3)
        if name=='GC concurrent mark phase':
            marks.append((m.group(1),(t-t0)/1e6))
        if name=='GC mark assist':
            gm=re.search(r' G=(\d+)',line).group(1)
            if m.group(1)=='RangeBegin': abeg[gm]=t
            elif gm in abeg: assists[(t-t0)//50_000_000]+= (t-abeg.pop(gm))/1e6
print("mark phase:",marks)
for k in sorted(waits):
    w=sorted(waits[k]); n=len(w)
    print("%5d ms: n=%6d p50=%6.2f p99=%7.2f max=%7.2f ms assist=%6.1f ms"%(k*50,n,w[n//2]/1e6,w[int(n*.99)]/1e6,w[-1]/1e6,assists.get(k,0)))
