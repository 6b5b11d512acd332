package clock

import (
	"encoding/json"
	"testing"
	"time"
)

// BenchmarkSwitch measures the clock work of one move on the server.
func BenchmarkSwitch(b *testing.B) {
	g, _ := NewGameClock(ByoYomiTime(time.Hour, 5, 30*sec))
	now := t0
	g.Start(Black, now)
	for b.Loop() {
		now = now.Add(time.Second)
		if flagged, err := g.Switch(now); flagged || err != nil {
			b.Fatal(flagged, err)
		}
	}
}

// BenchmarkMarshalGameClock measures storing the clock with every move.
func BenchmarkMarshalGameClock(b *testing.B) {
	g, _ := NewGameClock(FischerTime(5*minute, 10*sec, 10*minute))
	g.Start(Black, t0)
	for b.Loop() {
		if _, err := json.Marshal(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBudget(b *testing.B) {
	tc := CanadianTime(10*minute, 25, 10*minute)
	s := State{Overtime: true, PeriodLeft: 5 * minute, Stones: 12}
	for b.Loop() {
		Budget(tc, s, BudgetOptions{EmptyPoints: 200})
	}
}
