package play

import (
	"testing"
	"time"

	"tengen/clock"
)

// TestNoShowWindow checks the division into blitz and live games at
// 10 minutes for 40 moves, and that games without a clock and
// correspondence games have no no-show time.
func TestNoShowWindow(t *testing.T) {
	tests := []struct {
		name string
		tc   clock.TimeControl
		want time.Duration // 0: none
	}{
		{"no clock", clock.NoTimeLimit(), 0},
		{"correspondence", clock.CorrespondenceDays(3, 10), 0},
		{"absolute 5 min", clock.AbsoluteTime(5 * time.Minute), NoShowBlitz},
		{"absolute 10 min", clock.AbsoluteTime(10 * time.Minute), NoShowLive},
		{"byo-yomi 0 + 14 s", clock.ByoYomiTime(0, 5, 14*time.Second), NoShowBlitz},
		{"byo-yomi 0 + 15 s", clock.ByoYomiTime(0, 5, 15*time.Second), NoShowLive},
		{"canadian 5 min + 10 in 1 min", clock.CanadianTime(5*time.Minute, 10, time.Minute), NoShowBlitz},
		{"canadian 5 min + 10 in 3 min", clock.CanadianTime(5*time.Minute, 10, 3*time.Minute), NoShowLive},
		{"fischer 3 + 2", clock.FischerTime(3*time.Minute, 2*time.Second, 0), NoShowBlitz},
		{"fischer 10 + 5", clock.FischerTime(10*time.Minute, 5*time.Second, 0), NoShowLive},
	}
	for _, tt := range tests {
		got, ok := noShowWindow(tt.tc)
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, ok, tt.want)
		}
	}
}
