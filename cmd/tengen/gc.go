package main

import (
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
)

// serveGCPercent is the garbage collector's percentage that serve sets
// unless GOGC is set: the heap may grow to five times what is live between
// two collections instead of twice. On a busy server most of a move's
// latency tail came from the collector's mark phase (docs/PERFORMANCE.md,
// "The tail is the garbage collector"); with 400 it runs about a fifth as
// often, for about twice the memory.
const serveGCPercent = 400

// gcSettings are the collector's settings serve applies; a negative field
// is left as the environment set it.
type gcSettings struct {
	Percent int
	Limit   int64 // bytes
}

// serveGC decides the collector's settings for serve from the environment
// (getenv) and the memory the process may use (mem bytes, 0 if unknown).
// An operator's GOGC or GOMEMLIMIT wins. Otherwise the percentage is
// serveGCPercent and a soft limit of half the memory keeps the larger heap
// goal from taking what the machine does not have: near the limit the
// collector runs as often as it must, as with Go's defaults.
func serveGC(getenv func(string) string, mem uint64) gcSettings {
	s := gcSettings{Percent: -1, Limit: -1}
	if getenv("GOGC") == "" {
		s.Percent = serveGCPercent
	}
	if getenv("GOMEMLIMIT") == "" && mem > 0 {
		s.Limit = int64(min(mem/2, 1<<62))
	}
	return s
}

// applyGC applies serveGC's settings to the running process and logs what
// the collector runs with.
func applyGC(log *slog.Logger) {
	s := serveGC(os.Getenv, processMemory())
	if s.Percent >= 0 {
		debug.SetGCPercent(s.Percent)
	}
	if s.Limit >= 0 {
		debug.SetMemoryLimit(s.Limit)
	}
	// What the collector runs with, the environment's settings included,
	// read without changing it.
	m := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(m)
	gogc := "off" // GOGC=off reads as the largest number
	if v := m[0].Value.Uint64(); v <= math.MaxInt32 {
		gogc = strconv.FormatUint(v, 10)
	}
	log.Info("garbage collector", "gogc", gogc, "memory_limit_mib", m[1].Value.Uint64()>>20)
}

// parseMemoryMax reads a cgroup's memory limit: the contents of cgroup
// v2's memory.max ("max" for none) or v1's memory.limit_in_bytes (a huge
// number for none). It returns 0 for no limit or what it cannot read.
func parseMemoryMax(s string) uint64 {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= 1<<62 {
		return 0
	}
	return n
}

// parseMemTotal reads MemTotal from /proc/meminfo's contents, in bytes; 0
// when it is missing.
func parseMemTotal(s string) uint64 {
	for line := range strings.Lines(s) {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// processMemory returns the memory this process may use: the smallest of
// the machine's RAM and its cgroup's limit (v2 or v1), 0 if none can be
// read (outside Linux, say).
func processMemory() uint64 {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return string(b)
	}
	mem := parseMemTotal(read("/proc/meminfo"))
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if l := parseMemoryMax(read(path)); l > 0 && (mem == 0 || l < mem) {
			mem = l
		}
	}
	return mem
}
