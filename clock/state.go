package clock

import (
	"time"
)

// State is what one player has left on the clock between two charges. It is
// a value: the TimeControl methods Spend and Play return a new State. The
// zero State is only meaningful for None; use TimeControl.NewState.
type State struct {
	// MainTime is the main time left (absolute, byo-yomi, Canadian) or the
	// bank (Fischer, correspondence).
	MainTime time.Duration
	// Overtime is true once the main time of a byo-yomi or Canadian clock
	// is used up.
	Overtime bool
	// Periods is the number of byo-yomi periods left, counting the current
	// one.
	Periods int
	// PeriodLeft is the time left in the current byo-yomi or Canadian
	// period. It is the full period time at the start of a turn in byo-yomi
	// and less only when a turn was interrupted (Spend without Play).
	PeriodLeft time.Duration
	// Stones is the number of moves still to be made in the current Canadian
	// period.
	Stones int
	// TimedOut is true once the player's flag has fallen; a timed-out State
	// never changes again.
	TimedOut bool
}

// NewState returns the State a player starts the game with.
func (tc TimeControl) NewState() State {
	s := State{MainTime: tc.MainTime}
	switch tc.Kind {
	case None:
		s.MainTime = 0
	case ByoYomi:
		s.Periods = tc.Periods
		s.PeriodLeft = tc.PeriodTime
		s.Overtime = tc.MainTime == 0
	case Canadian:
		s.Stones = tc.Stones
		s.PeriodLeft = tc.PeriodTime
		s.Overtime = tc.MainTime == 0
	}
	return s
}

// Spend charges elapsed thinking time to s without a move being made, as
// when a turn is paused or checkpointed, and returns the new State. It sets
// TimedOut when elapsed reaches the time left (see Remaining). A negative
// elapsed time counts as zero: a clock never runs backwards.
func (tc TimeControl) Spend(s State, elapsed time.Duration) State {
	if s.TimedOut || tc.Kind == None {
		return s
	}
	timeout := func() State {
		s.TimedOut = true
		s.MainTime = 0
		s.PeriodLeft = 0
		if tc.Kind == ByoYomi {
			s.Periods = 0
		}
		return s
	}
	if elapsed <= 0 {
		// No time passed; only a State with nothing left (which Spend
		// itself never leaves behind) is already too late.
		if rem, _ := tc.Remaining(s); rem > 0 {
			return s
		}
		return timeout()
	}
	switch tc.Kind {
	case Absolute, Fischer, Correspondence:
		if elapsed >= s.MainTime {
			return timeout()
		}
		s.MainTime -= elapsed
		return s
	case ByoYomi, Canadian:
		if !s.Overtime {
			if elapsed < s.MainTime {
				s.MainTime -= elapsed
				return s
			}
			elapsed -= s.MainTime
			s.MainTime = 0
			s.Overtime = true
			s.PeriodLeft = tc.PeriodTime
			if tc.Kind == Canadian {
				s.Stones = tc.Stones
			}
		}
		if tc.Kind == Canadian {
			if elapsed >= s.PeriodLeft {
				return timeout()
			}
			s.PeriodLeft -= elapsed
			return s
		}
		if s.PeriodLeft <= 0 {
			// An empty current period (only in a State from outside) is a
			// used one.
			s.Periods--
			s.PeriodLeft = tc.PeriodTime
		}
		if s.Periods <= 0 || tc.PeriodTime <= 0 {
			return timeout()
		}
		if elapsed < s.PeriodLeft {
			s.PeriodLeft -= elapsed
			return s
		}
		// The current period is used up; whole further periods go too.
		elapsed -= s.PeriodLeft
		s.Periods--
		used := elapsed / tc.PeriodTime
		if int64(s.Periods) <= int64(used) {
			return timeout()
		}
		s.Periods -= int(used)
		s.PeriodLeft = tc.PeriodTime - (elapsed - used*tc.PeriodTime)
		return s
	}
	return s
}

// Play charges a move that took elapsed time and applies the rules that a
// move triggers: a byo-yomi period in which the move was made is kept (the
// next turn starts with the full period), a Canadian period starts afresh
// after its last stone, and Fischer and correspondence clocks add the
// increment up to the cap. If the flag fell before the move, the result is
// timed out and no rule is applied.
func (tc TimeControl) Play(s State, elapsed time.Duration) State {
	s = tc.Spend(s, elapsed)
	if s.TimedOut {
		return s
	}
	switch tc.Kind {
	case ByoYomi:
		if s.Overtime {
			s.PeriodLeft = tc.PeriodTime
		}
	case Canadian:
		if s.Overtime {
			s.Stones--
			if s.Stones <= 0 {
				s.Stones = tc.Stones
				s.PeriodLeft = tc.PeriodTime
			}
		}
	case Fischer, Correspondence:
		s.MainTime += tc.Increment
		if tc.MaxTime > 0 && s.MainTime > tc.MaxTime {
			s.MainTime = tc.MaxTime
		}
	}
	return s
}

// Remaining returns how long the player of s may still think on the current
// turn: a move must be made before this much time has elapsed (a move after
// exactly this much is too late). ok is false for None, which never runs
// out. A timed-out State has zero remaining.
func (tc TimeControl) Remaining(s State) (d time.Duration, ok bool) {
	if tc.Kind == None {
		return 0, false
	}
	if s.TimedOut {
		return 0, true
	}
	switch tc.Kind {
	case ByoYomi:
		if !s.Overtime {
			return sat(s.MainTime, mulSat(tc.PeriodTime, s.Periods)), true
		}
		if s.Periods <= 0 {
			return 0, true
		}
		return sat(s.PeriodLeft, mulSat(tc.PeriodTime, s.Periods-1)), true
	case Canadian:
		if !s.Overtime {
			return sat(s.MainTime, tc.PeriodTime), true
		}
		return max(s.PeriodLeft, 0), true
	}
	return max(s.MainTime, 0), true
}

// sat adds two non-negative durations, saturating instead of overflowing,
// because States decoded from storage are not trusted to be in range.
func sat(a, b time.Duration) time.Duration {
	a, b = max(a, 0), max(b, 0)
	if a > maxDur-b {
		return maxDur
	}
	return a + b
}

func mulSat(d time.Duration, n int) time.Duration {
	if d <= 0 || n <= 0 {
		return 0
	}
	if int64(d) > int64(maxDur)/int64(n) {
		return maxDur
	}
	return d * time.Duration(n)
}

const maxDur = time.Duration(1<<63 - 1)
