package clock

import (
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	byo := ByoYomiTime(10*minute, 5, 30*sec)
	can := CanadianTime(10*minute, 10, 100*sec)
	fis := FischerTime(5*minute, 10*sec, 10*minute)
	tests := []struct {
		name string
		tc   TimeControl
		s    State
		o    BudgetOptions
		want Allocation
	}{
		{"none", NoTimeLimit(), State{}, BudgetOptions{}, Allocation{Unlimited: true}},
		{"none with cap", NoTimeLimit(), State{}, BudgetOptions{Cap: 5 * sec}, Allocation{5 * sec, 5 * sec, true}},
		{"absolute", AbsoluteTime(10 * minute), State{MainTime: 10 * minute}, BudgetOptions{MovesLeft: 100},
			Allocation{Target: 5749 * ms, Max: 17247 * ms}},
		{"absolute with cap", AbsoluteTime(10 * minute), State{MainTime: 10 * minute},
			BudgetOptions{MovesLeft: 100, Cap: 10 * sec}, Allocation{Target: 5749 * ms, Max: 10 * sec}},
		{"absolute, own overhead", AbsoluteTime(10 * minute), State{MainTime: 10 * minute},
			BudgetOptions{MovesLeft: 100, Overhead: time.Second}, Allocation{Target: 4999 * ms, Max: 14997 * ms}},
		{"absolute from empty points", AbsoluteTime(10 * minute), State{MainTime: 10 * minute},
			BudgetOptions{EmptyPoints: 250}, Allocation{Target: 5749 * ms, Max: 17247 * ms}},
		{"absolute, less than the overhead left", AbsoluteTime(10 * minute), State{MainTime: 100 * ms},
			BudgetOptions{MovesLeft: 1}, Allocation{}},
		{"timed out", AbsoluteTime(10 * minute), State{TimedOut: true}, BudgetOptions{MovesLeft: 10}, Allocation{}},
		{"byo-yomi in main time", byo, byo.NewState(), BudgetOptions{MovesLeft: 100},
			Allocation{Target: 35749 * ms, Max: 107247 * ms}},
		{"byo-yomi in overtime keeps the periods", byo, State{Overtime: true, Periods: 5, PeriodLeft: 30 * sec},
			BudgetOptions{MovesLeft: 100}, Allocation{Target: 29749 * ms, Max: 29749 * ms}},
		{"byo-yomi spends spare periods at the end", byo, State{Overtime: true, Periods: 5, PeriodLeft: 30 * sec},
			BudgetOptions{MovesLeft: 2}, Allocation{Target: 89749 * ms, Max: 89749 * ms}},
		{"byo-yomi interrupted period", byo, State{Overtime: true, Periods: 1, PeriodLeft: 10 * sec},
			BudgetOptions{MovesLeft: 2}, Allocation{Target: 9749 * ms, Max: 9749 * ms}},
		{"Canadian in main time", can, can.NewState(), BudgetOptions{MovesLeft: 100},
			Allocation{Target: 15749 * ms, Max: 47247 * ms}},
		{"Canadian overtime", can, State{Overtime: true, PeriodLeft: 100 * sec, Stones: 10},
			BudgetOptions{MovesLeft: 100}, Allocation{Target: 9749 * ms, Max: 29247 * ms}},
		{"Canadian last stone", can, State{Overtime: true, PeriodLeft: 20 * sec, Stones: 1},
			BudgetOptions{MovesLeft: 100}, Allocation{Target: 19749 * ms, Max: 19749 * ms}},
		{"Fischer", fis, State{MainTime: 5 * minute}, BudgetOptions{MovesLeft: 50},
			Allocation{Target: 15749 * ms, Max: 47247 * ms}},
		{"Fischer never spends the increment it has not got", fis, State{MainTime: 5 * sec},
			BudgetOptions{MovesLeft: 1}, Allocation{Target: 4749 * ms, Max: 4749 * ms}},
		{"correspondence", CorrespondenceDays(3, 10), State{MainTime: 3 * day},
			BudgetOptions{MovesLeft: 100, Cap: time.Minute}, Allocation{Target: time.Minute, Max: time.Minute}},
	}
	for _, tt := range tests {
		if got := Budget(tt.tc, tt.s, tt.o); got != tt.want {
			t.Errorf("%s: Budget = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestBudgetNeverFlags plays whole games in which the engine always spends
// its Max allocation (or its Target) plus the full overhead, and checks
// that it never runs out of time while it has more than the overhead left,
// whatever the time control, and never loses a byo-yomi period early.
func TestBudgetNeverFlags(t *testing.T) {
	controls := append(sampleControls(),
		ByoYomiTime(10*sec, 3, 1*sec), CanadianTime(5*sec, 25, 10*sec), FischerTime(sec, 0, 0))
	for _, tc := range controls {
		if tc.Kind == None {
			continue
		}
		for _, useMax := range []bool{false, true} {
			s := tc.NewState()
			const oh = 100 * ms
			for move := range 400 {
				a := Budget(tc, s, BudgetOptions{EmptyPoints: max(0, 361-2*move), Overhead: oh})
				if a.Target > a.Max || a.Target < 0 {
					t.Fatalf("%v move %d: allocation %+v", tc, move, a)
				}
				spent := a.Target
				if useMax {
					spent = a.Max
				}
				next := tc.Play(s, spent+oh)
				// Sudden death cannot outlast an overhead larger than
				// what is left; nothing can, so that is no failure.
				suddenDeath := tc.Kind == Absolute || tc.Kind == Fischer && tc.Increment <= oh
				if next.TimedOut && suddenDeath && s.MainTime <= oh {
					break
				}
				if next.TimedOut {
					t.Fatalf("%v (max %v) move %d: spending %v from %+v flagged", tc, useMax, move, spent, s)
				}
				if tc.Kind == ByoYomi && next.Periods < s.Periods && s.Periods <= 10 {
					t.Fatalf("%v move %d: a period was spent from %+v", tc, move, s)
				}
				s = next
			}
		}
	}
}

func TestMovesLeft(t *testing.T) {
	for _, tt := range []struct{ empty, want int }{{361, 145}, {81, 33}, {20, 10}, {0, 10}, {-5, 10}} {
		if got := MovesLeft(tt.empty); got != tt.want {
			t.Errorf("MovesLeft(%d) = %d, want %d", tt.empty, got, tt.want)
		}
	}
}
