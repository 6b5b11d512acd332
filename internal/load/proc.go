package load

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's CPU times:
// 100 on every architecture Go supports.
const clockTicks = 100

// procSampler samples a process's resident memory every second (for its
// peak) and its CPU time at the start and the end, from /proc (Linux; on
// other systems it measures nothing).
type procSampler struct {
	pid  int
	cpu0 time.Duration
	done chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex // guards peak
	peak int64
}

type procSample struct {
	cpu          time.Duration
	rss, peakRSS int64
}

func startSampler(pid int) *procSampler {
	s := &procSampler{pid: pid, cpu0: procCPU(pid), done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			s.mu.Lock()
			s.peak = max(s.peak, procRSS(pid))
			s.mu.Unlock()
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// stop ends the sampling and returns the CPU time since the start and the
// memory.
func (s *procSampler) stop() procSample {
	close(s.done)
	s.wg.Wait()
	rss := procRSS(s.pid)
	return procSample{cpu: procCPU(s.pid) - s.cpu0, rss: rss, peakRSS: max(s.peak, rss)}
}

// procCPU returns the user and system CPU time of pid, 0 when unknown.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces; the fields after
	// it are numbered from 3 (state); utime and stime are 14 and 15.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(ut+st) * time.Second / clockTicks
}

// procRSS returns the resident memory of pid in bytes, 0 when unknown.
func procRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// loadAvg returns the machine's load averages over 1, 5 and 15 minutes,
// "" when unknown.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// machineCPU returns the CPU time the whole machine has spent busy (every
// state of /proc/stat's first line but idle and iowait), summed over its
// CPUs; 0 when unknown.
func machineCPU() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0
	}
	var busy int64
	for i, v := range f[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0
		}
		busy += n
	}
	return time.Duration(busy) * time.Second / clockTicks
}
