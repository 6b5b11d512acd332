package clock

import "time"

// DefaultOverhead is the per-move overhead that Budget assumes when
// BudgetOptions.Overhead is zero: the time between the engine deciding and
// the move reaching the clock (GTP round trip, network, process scheduling).
const DefaultOverhead = 250 * time.Millisecond

// BudgetOptions are the inputs of Budget besides the time control and
// state.
type BudgetOptions struct {
	// MovesLeft is the number of moves the engine still expects to make. If
	// it is zero, it is estimated from EmptyPoints with MovesLeft.
	MovesLeft int
	// EmptyPoints is the number of empty points on the board.
	EmptyPoints int
	// Overhead is subtracted from every move's time; see DefaultOverhead.
	Overhead time.Duration
	// Cap, if not zero, limits every allocation (an engine's own maximum
	// time per move, or a level's).
	Cap time.Duration
}

// Allocation is how long an engine should think on a move.
type Allocation struct {
	// Target is the normal time for this move.
	Target time.Duration
	// Max is the most the engine may spend when the search is unsettled; it
	// is at least Target and never risks losing on time.
	Max time.Duration
	// Unlimited is true when the clock imposes no limit (None); Target and
	// Max are then the Cap, zero if there is none.
	Unlimited bool
}

// MovesLeft estimates how many more moves a player makes in a game with
// empty empty points: two in five of them (each player fills about half of
// the empty points, and games end before the board is full), and never fewer
// than 10, so that the budget never plans to spend everything now.
func MovesLeft(empty int) int {
	return max(10, (2*empty+4)/5)
}

// Budget returns how long to think on the current move for a player with
// state s under tc. It spreads the main time (or bank) over the moves left,
// adds what overtime gives each move for free (a byo-yomi period, a share of
// a Canadian period, a Fischer increment), subtracts the overhead from every
// move, and never allots the last of the time: in byo-yomi it keeps at
// least one period and spends spare periods only when there are more of them
// than moves left; in Canadian overtime it shares the period over the stones
// still to play. The margin per move is Overhead plus a millisecond, so
// spending Target or Max plus at most Overhead never flags (unless the time
// left is below the margin, when the allocation is zero).
func Budget(tc TimeControl, s State, o BudgetOptions) Allocation {
	oh := o.Overhead
	if oh <= 0 {
		oh = DefaultOverhead
	}
	// A move must come strictly before the flag falls, so keep a little
	// more than the overhead back.
	oh += time.Millisecond
	m := o.MovesLeft
	if m <= 0 {
		m = MovesLeft(o.EmptyPoints)
	}
	md := time.Duration(m)
	// target is the normal share, limit the most worth spending, hard the
	// most that can be spent without flagging or giving up the reserve.
	var target, limit, hard time.Duration
	switch tc.Kind {
	case None:
		return Allocation{Target: o.Cap, Max: o.Cap, Unlimited: true}
	case Absolute, Fischer, Correspondence:
		bank := max(s.MainTime, 0)
		inc := tc.Increment
		if tc.Kind == Absolute {
			inc = 0
		}
		// A bank near the cap wastes nothing at this rate: the target
		// already spends at least the increment.
		target = bank/md + inc - oh
		limit = min(bank/2+inc, bank) - oh
		hard = bank - oh
	case ByoYomi:
		spare := time.Duration(0)
		if s.Periods > 1 {
			spare = time.Duration((s.Periods-1)/m) * tc.PeriodTime
		}
		free := s.PeriodLeft + spare - oh
		if s.Overtime {
			target, limit, hard = free, free, free
			break
		}
		target = max(s.MainTime, 0)/md + free
		limit = max(s.MainTime, 0)/2 + free
		hard = max(s.MainTime, 0) + free
	case Canadian:
		if s.Overtime {
			k := time.Duration(max(s.Stones, 1))
			target = s.PeriodLeft/k - oh
			// Leave every later stone of the period at least half a target.
			limit = s.PeriodLeft - oh - (k-1)*(oh+max(target, 0)/2)
			hard = s.PeriodLeft - k*oh
			break
		}
		per := tc.PeriodTime/time.Duration(max(tc.Stones, 1)) - oh
		target = max(s.MainTime, 0)/md + max(per, 0)
		limit = max(s.MainTime, 0)/2 + max(per, 0)
		hard = max(s.MainTime, 0) + max(per, 0)
	}
	if s.TimedOut {
		hard = 0
	}
	hard = max(hard, 0)
	target = min(max(target, 0), hard)
	limit = min(max(min(limit, 3*target), target), hard)
	if o.Cap > 0 {
		target, limit = min(target, o.Cap), min(limit, o.Cap)
	}
	return Allocation{Target: target, Max: limit}
}
