package clock

import (
	"math/rand/v2"
	"testing"
	"time"
)

const (
	ms     = time.Millisecond
	sec    = time.Second
	minute = time.Minute
	day    = 24 * time.Hour
)

// step is one action on a player's clock: elapsed thinking time, then a
// move (Play) or an interruption without a move (Spend).
type step struct {
	elapsed time.Duration
	move    bool
}

func play(d time.Duration) step  { return step{d, true} }
func spend(d time.Duration) step { return step{d, false} }

func TestPlayAndSpend(t *testing.T) {
	byo := ByoYomiTime(1*minute, 3, 30*sec)
	can := CanadianTime(1*minute, 3, 30*sec)
	fis := FischerTime(1*minute, 10*sec, 90*sec)
	cor := CorrespondenceDays(3, 10)
	tests := []struct {
		name  string
		tc    TimeControl
		steps []step
		want  State
	}{
		{"none never runs out", NoTimeLimit(), []step{play(1000 * time.Hour), spend(day)}, State{}},
		{"absolute charges", AbsoluteTime(10 * minute), []step{play(3 * minute)}, State{MainTime: 7 * minute}},
		{"absolute just in time", AbsoluteTime(10 * minute), []step{play(3 * minute), play(7*minute - ms)}, State{MainTime: ms}},
		{"absolute flag exactly at the deadline", AbsoluteTime(10 * minute), []step{play(3 * minute), play(7 * minute)},
			State{TimedOut: true}},
		{"absolute timed out stays timed out", AbsoluteTime(10 * minute), []step{play(11 * minute), play(0)},
			State{TimedOut: true}},
		{"negative elapsed counts as zero", AbsoluteTime(10 * minute), []step{play(-5 * minute)}, State{MainTime: 10 * minute}},

		{"byo-yomi in main time", byo, []step{play(50 * sec)},
			State{MainTime: 10 * sec, Periods: 3, PeriodLeft: 30 * sec}},
		{"byo-yomi main time runs out, period kept", byo, []step{play(50 * sec), play(25 * sec)},
			State{Overtime: true, Periods: 3, PeriodLeft: 30 * sec}},
		{"byo-yomi move exactly at end of main time", byo, []step{play(60 * sec)},
			State{Overtime: true, Periods: 3, PeriodLeft: 30 * sec}},
		{"byo-yomi period kept just in time", byo, []step{play(60 * sec), play(30*sec - ms)},
			State{Overtime: true, Periods: 3, PeriodLeft: 30 * sec}},
		{"byo-yomi period consumed at exactly its length", byo, []step{play(60 * sec), play(30 * sec)},
			State{Overtime: true, Periods: 2, PeriodLeft: 30 * sec}},
		{"byo-yomi two periods consumed in one move", byo, []step{play(60 * sec), play(65 * sec)},
			State{Overtime: true, Periods: 1, PeriodLeft: 30 * sec}},
		{"byo-yomi crossing main time consumes periods", byo, []step{play(60*sec + 31*sec)},
			State{Overtime: true, Periods: 2, PeriodLeft: 30 * sec}},
		{"byo-yomi last period runs out", byo, []step{play(60 * sec), play(60 * sec), play(30 * sec)},
			State{Overtime: true, TimedOut: true}},
		{"byo-yomi all at once", byo, []step{play(60*sec + 90*sec)}, State{Overtime: true, TimedOut: true}},
		{"byo-yomi all but a millisecond", byo, []step{play(60*sec + 90*sec - ms)},
			State{Overtime: true, Periods: 1, PeriodLeft: 30 * sec}},
		{"byo-yomi interrupted turn keeps the rest of the period", byo, []step{play(60 * sec), spend(20 * sec)},
			State{Overtime: true, Periods: 3, PeriodLeft: 10 * sec}},
		{"byo-yomi interrupted turn, move within the period", byo,
			[]step{play(60 * sec), spend(20 * sec), play(10*sec - ms)},
			State{Overtime: true, Periods: 3, PeriodLeft: 30 * sec}},
		{"byo-yomi interrupted turn, period runs out after resuming", byo,
			[]step{play(60 * sec), spend(20 * sec), play(10 * sec)},
			State{Overtime: true, Periods: 2, PeriodLeft: 30 * sec}},
		{"byo-yomi interruption across periods", byo, []step{play(60 * sec), spend(45 * sec)},
			State{Overtime: true, Periods: 2, PeriodLeft: 15 * sec}},
		{"pure byo-yomi starts in overtime", ByoYomiTime(0, 2, 10*sec), []step{play(9 * sec), play(15 * sec)},
			State{Overtime: true, Periods: 1, PeriodLeft: 10 * sec}},

		{"Canadian main time", can, []step{play(20 * sec)},
			State{MainTime: 40 * sec, PeriodLeft: 30 * sec, Stones: 3}},
		{"Canadian entering overtime counts the stone", can, []step{play(70 * sec)},
			State{Overtime: true, PeriodLeft: 20 * sec, Stones: 2}},
		{"Canadian stones count down", can, []step{play(70 * sec), play(5 * sec)},
			State{Overtime: true, PeriodLeft: 15 * sec, Stones: 1}},
		{"Canadian reset after N stones", can, []step{play(70 * sec), play(5 * sec), play(14 * sec)},
			State{Overtime: true, PeriodLeft: 30 * sec, Stones: 3}},
		{"Canadian flag falls at period end", can, []step{play(70 * sec), play(5 * sec), play(15 * sec)},
			State{Overtime: true, TimedOut: true, Stones: 1}},
		{"Canadian new period after reset", can,
			[]step{play(60 * sec), play(1 * sec), play(1 * sec), play(29 * sec)},
			State{Overtime: true, PeriodLeft: 1 * sec, Stones: 2}},
		{"Canadian pause keeps stones", can, []step{play(70 * sec), spend(10 * sec)},
			State{Overtime: true, PeriodLeft: 10 * sec, Stones: 2}},

		{"Fischer increment", fis, []step{play(5 * sec)}, State{MainTime: 65 * sec}},
		{"Fischer cap", fis, []step{play(0), play(0), play(0), play(0)}, State{MainTime: 90 * sec}},
		{"Fischer just in time", fis, []step{play(60*sec - ms)}, State{MainTime: 10*sec + ms}},
		{"Fischer flag at bank", fis, []step{play(60 * sec)}, State{TimedOut: true}},
		{"Fischer pause adds no increment", fis, []step{spend(5 * sec)}, State{MainTime: 55 * sec}},
		{"Fischer without cap", FischerTime(1*minute, 10*sec, 0), []step{play(0), play(0), play(0), play(0)},
			State{MainTime: 100 * sec}},

		{"correspondence adds a move's allowance", cor, []step{play(1 * day)}, State{MainTime: 5 * day}},
		{"correspondence bank cap", cor, []step{play(1 * day), play(0), play(0)}, State{MainTime: 10 * day}},
		{"correspondence flag", cor, []step{play(1 * day), play(5 * day)}, State{TimedOut: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.tc.Validate(); err != nil {
				t.Fatal(err)
			}
			s := tt.tc.NewState()
			for _, st := range tt.steps {
				if st.move {
					s = tt.tc.Play(s, st.elapsed)
				} else {
					s = tt.tc.Spend(s, st.elapsed)
				}
			}
			if s != tt.want {
				t.Errorf("got %+v, want %+v", s, tt.want)
			}
		})
	}
}

// sampleControls returns one valid time control of every kind and some
// edge cases.
func sampleControls() []TimeControl {
	return []TimeControl{
		NoTimeLimit(),
		AbsoluteTime(10 * minute),
		AbsoluteTime(1500 * ms),
		ByoYomiTime(10*minute, 5, 30*sec),
		ByoYomiTime(0, 1, 10*sec),
		ByoYomiTime(1*time.Hour, 3, 1*minute),
		CanadianTime(10*minute, 25, 10*minute),
		CanadianTime(0, 1, 5*sec),
		CanadianTime(5*minute, 10, 2500*ms),
		FischerTime(5*minute, 10*sec, 10*minute),
		FischerTime(30*sec, 0, 0),
		FischerTime(90*sec, 2*sec, 0),
		CorrespondenceDays(3, 10),
		CorrespondenceDays(1, 0),
		CorrespondenceTime(12*time.Hour, 3*day),
	}
}

// TestRemainingIsTheFlag checks, for random states of every kind, that
// Remaining is exactly the boundary of flag fall: thinking one nanosecond
// less is in time, thinking exactly that long is not.
func TestRemainingIsTheFlag(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range sampleControls() {
		if tc.Kind == None {
			continue
		}
		s := tc.NewState()
		for range 200 {
			rem, ok := tc.Remaining(s)
			if !ok {
				t.Fatalf("%v: Remaining not ok", tc)
			}
			if s.TimedOut {
				s = tc.NewState()
				continue
			}
			if before := tc.Spend(s, rem-1); before.TimedOut {
				t.Fatalf("%v: %+v flagged after %v, remaining %v", tc, s, rem-1, rem)
			}
			if at := tc.Spend(s, rem); !at.TimedOut {
				t.Fatalf("%v: %+v not flagged after remaining %v", tc, s, rem)
			}
			// Advance by a random fraction of the remaining time, sometimes
			// as a move, sometimes as an interruption.
			e := time.Duration(rng.Int64N(int64(rem)/3 + 1))
			if rng.IntN(4) == 0 {
				s = tc.Spend(s, e)
			} else {
				s = tc.Play(s, e)
			}
		}
	}
}

func TestRemainingNone(t *testing.T) {
	if _, ok := NoTimeLimit().Remaining(State{}); ok {
		t.Error("None has a remaining time")
	}
}

// TestSpendSplits checks that interrupting a turn does not change the
// outcome: spending a then b then moving equals moving after a+b.
func TestSpendSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range sampleControls() {
		s := tc.NewState()
		for range 300 {
			rem, _ := tc.Remaining(s)
			if s.TimedOut {
				s = tc.NewState()
				rem, _ = tc.Remaining(s)
			}
			total := time.Duration(rng.Int64N(int64(rem)*5/4 + 2))
			a := time.Duration(rng.Int64N(int64(total) + 1))
			whole := tc.Play(s, total)
			split := tc.Play(tc.Spend(s, a), total-a)
			if whole != split {
				t.Fatalf("%v from %+v: Play(%v) = %+v, Spend(%v)+Play(%v) = %+v", tc, s, total, whole, a, total-a, split)
			}
			s = whole
		}
	}
}
