package main

import "testing"

func TestServeGC(t *testing.T) {
	const gib = 1 << 30
	tests := []struct {
		name string
		env  map[string]string
		mem  uint64
		want gcSettings
	}{
		{"defaults", nil, 8 * gib, gcSettings{serveGCPercent, 4 * gib}},
		{"memory unknown", nil, 0, gcSettings{serveGCPercent, -1}},
		{"operator's GOGC", map[string]string{"GOGC": "100"}, 8 * gib, gcSettings{-1, 4 * gib}},
		{"GOGC=off", map[string]string{"GOGC": "off"}, 8 * gib, gcSettings{-1, 4 * gib}},
		{"operator's GOMEMLIMIT", map[string]string{"GOMEMLIMIT": "1GiB"}, 8 * gib, gcSettings{serveGCPercent, -1}},
		{"both", map[string]string{"GOGC": "200", "GOMEMLIMIT": "1GiB"}, 8 * gib, gcSettings{-1, -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := serveGC(func(k string) string { return tt.env[k] }, tt.mem); got != tt.want {
				t.Errorf("serveGC = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseMemory(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint64
	}{
		{"max\n", 0},
		{"2147483648\n", 2 << 30},
		{"9223372036854771712\n", 0}, // cgroup v1's "no limit"
		{"", 0},
		{"garbage", 0},
	} {
		if got := parseMemoryMax(tt.in); got != tt.want {
			t.Errorf("parseMemoryMax(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in   string
		want uint64
	}{
		{"MemTotal:       24684080 kB\nMemFree:        21876000 kB\n", 24684080 << 10},
		{"MemFree:        21876000 kB\nMemTotal:  1024 kB", 1 << 20},
		{"MemFree: 5 kB\n", 0},
		{"MemTotal: x kB\n", 0},
		{"MemTotal: 5 MB\n", 0},
	} {
		if got := parseMemTotal(tt.in); got != tt.want {
			t.Errorf("parseMemTotal(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
