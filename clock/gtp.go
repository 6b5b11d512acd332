package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseError is the error of every Parse function. Column is the 1-based
// byte column in Input (for GTP, the arguments joined by single spaces)
// where the problem was found.
type ParseError struct {
	Form   string // what was parsed, such as "time_settings" or "SGF OT"
	Input  string
	Column int
	Msg    string
}

// Error formats the error as `clock: <form> "<input>": column N: <msg>`.
func (e *ParseError) Error() string {
	return fmt.Sprintf("clock: %s %q: column %d: %s", e.Form, e.Input, e.Column, e.Msg)
}

// args walks GTP arguments and reports errors at their column in the
// arguments joined by spaces.
type args struct {
	form string
	list []string
}

func (a args) input() string { return strings.Join(a.list, " ") }

func (a args) col(i int) int {
	c := 1
	for j := 0; j < i && j < len(a.list); j++ {
		c += len(a.list[j]) + 1
	}
	return c
}

func (a args) errAt(i, off int, format string, v ...any) error {
	return &ParseError{Form: a.form, Input: a.input(), Column: a.col(i) + off, Msg: fmt.Sprintf(format, v...)}
}

func (a args) count(n int) error {
	if len(a.list) != n {
		return a.errAt(min(len(a.list), n), 0, "want %d arguments, have %d", n, len(a.list))
	}
	return nil
}

func (a args) seconds(i int) (time.Duration, error) {
	d, off, err := parseSeconds(a.list[i])
	if err != nil {
		return 0, a.errAt(i, off, "%v", err)
	}
	return d, nil
}

func (a args) number(i, limit int) (int, error) {
	n, off, err := parseCount(a.list[i], limit)
	if err != nil {
		return 0, a.errAt(i, off, "%v", err)
	}
	return n, nil
}

// ParseTimeSettings reads the arguments of GTP `time_settings main_time
// byo_yomi_time byo_yomi_stones` (seconds, seconds, count). As the GTP
// specification says, byo_yomi_time > 0 with zero stones means no time
// limit and byo_yomi_time = 0 means absolute time; otherwise it is Canadian
// byo-yomi. Zero main time with zero byo-yomi time is read as no time limit,
// since sudden death in zero seconds is never what a controller means.
// Fractional seconds are accepted.
func ParseTimeSettings(arguments []string) (TimeControl, error) {
	a := args{"time_settings", arguments}
	if err := a.count(3); err != nil {
		return TimeControl{}, err
	}
	main, err := a.seconds(0)
	if err != nil {
		return TimeControl{}, err
	}
	period, err := a.seconds(1)
	if err != nil {
		return TimeControl{}, err
	}
	stones, err := a.number(2, MaxStones)
	if err != nil {
		return TimeControl{}, err
	}
	switch {
	case period > 0 && stones == 0, period == 0 && main == 0:
		return NoTimeLimit(), nil
	case period == 0:
		return AbsoluteTime(main), nil
	}
	return CanadianTime(main, stones, period), nil
}

// ParseKGSTimeSettings reads the arguments of `kgs-time_settings`: "none",
// "absolute main", "byoyomi main period periods" or "canadian main period
// stones" (times in seconds). Byo-yomi or Canadian overtime with a zero
// period time or count is read as absolute time.
func ParseKGSTimeSettings(arguments []string) (TimeControl, error) {
	return parseKindArgs(args{"kgs-time_settings", arguments}, false)
}

// ParseKataTimeSettings reads the arguments of KataGo's
// `kata-time_settings`: the kgs-time_settings forms plus "fischer main
// increment" and "fischer-capped main increment main_limit max_per_move",
// where a negative main_limit means no cap and max_per_move (a limit on a
// single move) is checked but not kept.
func ParseKataTimeSettings(arguments []string) (TimeControl, error) {
	return parseKindArgs(args{"kata-time_settings", arguments}, true)
}

func parseKindArgs(a args, kata bool) (TimeControl, error) {
	if len(a.list) == 0 {
		return TimeControl{}, a.errAt(0, 0, "missing time system")
	}
	var tc TimeControl
	var err error
	switch kind := strings.ToLower(a.list[0]); kind {
	case "none":
		if err := a.count(1); err != nil {
			return tc, err
		}
		return NoTimeLimit(), nil
	case "absolute":
		if err := a.count(2); err != nil {
			return tc, err
		}
		if tc.MainTime, err = a.seconds(1); err != nil {
			return tc, err
		}
		if tc.MainTime == 0 {
			return tc, a.errAt(1, 0, "absolute time needs main time")
		}
		tc.Kind = Absolute
		return tc, nil
	case "byoyomi", "canadian":
		if err := a.count(4); err != nil {
			return tc, err
		}
		if tc.MainTime, err = a.seconds(1); err != nil {
			return tc, err
		}
		if tc.PeriodTime, err = a.seconds(2); err != nil {
			return tc, err
		}
		limit := MaxPeriods
		if kind == "canadian" {
			limit = MaxStones
		}
		n, err := a.number(3, limit)
		if err != nil {
			return tc, err
		}
		if n == 0 || tc.PeriodTime == 0 {
			if tc.MainTime == 0 {
				return NoTimeLimit(), a.errAt(1, 0, "no main time and no overtime")
			}
			return AbsoluteTime(tc.MainTime), nil
		}
		if kind == "canadian" {
			return CanadianTime(tc.MainTime, n, tc.PeriodTime), nil
		}
		return ByoYomiTime(tc.MainTime, n, tc.PeriodTime), nil
	case "fischer", "fischer-capped":
		if !kata {
			break
		}
		want := 3
		if kind == "fischer-capped" {
			want = 5
		}
		if err := a.count(want); err != nil {
			return tc, err
		}
		main, err := a.seconds(1)
		if err != nil {
			return tc, err
		}
		inc, err := a.seconds(2)
		if err != nil {
			return tc, err
		}
		var capTime time.Duration
		if kind == "fischer-capped" {
			for i := 3; i <= 4; i++ {
				if strings.HasPrefix(a.list[i], "-") {
					continue // negative: no limit
				}
				d, err := a.seconds(i)
				if err != nil {
					return tc, err
				}
				if i == 3 {
					capTime = d
				}
			}
		}
		if main == 0 {
			return tc, a.errAt(1, 0, "Fischer time needs initial time")
		}
		if capTime != 0 && capTime < max(main, inc) {
			return tc, a.errAt(3, 0, "main time limit is less than the initial time or the increment")
		}
		return FischerTime(main, inc, capTime), nil
	}
	return tc, a.errAt(0, 0, "unknown time system %q", a.list[0])
}

// wholeSeconds rounds d down to whole seconds for GTP, which speaks
// integers, and reports whether that was exact. Rounding down errs on the
// safe side: an engine told it has less time does not lose on time.
func wholeSeconds(d time.Duration) (string, bool) {
	return strconv.FormatInt(int64(d/time.Second), 10), d%time.Second == 0
}

// settingSeconds is wholeSeconds for time settings, except that a time
// under a second is written exactly as a decimal ("0.5"): zero would change
// the meaning (a zero period means no overtime, zero main time no limit).
func settingSeconds(d time.Duration) (string, bool) {
	if d > 0 && d < time.Second {
		return formatSeconds(d), true
	}
	return wholeSeconds(d)
}

// TimeSettingsCommand returns the GTP `time_settings` command that tells an
// engine about tc, and whether it says exactly the same. Only none,
// absolute and Canadian fit GTP's Canadian-only model; for the others it
// returns the closest setting under which an engine never loses on time:
// byo-yomi becomes Canadian with one stone per period (one period, the others
// being a reserve), Fischer and correspondence become absolute time with the
// initial time (time_left then keeps the engine up to date with the bank).
// Times are rounded down to whole seconds, except that times under a second
// are written as decimals (see settingSeconds).
func TimeSettingsCommand(tc TimeControl) (cmd string, exact bool) {
	main, e1 := settingSeconds(tc.MainTime)
	period, e2 := settingSeconds(tc.PeriodTime)
	exact = e1 && e2
	switch tc.Kind {
	case None:
		return "time_settings 0 1 0", true
	case Absolute:
		return "time_settings " + main + " 0 0", e1
	case Canadian:
		return fmt.Sprintf("time_settings %s %s %d", main, period, tc.Stones), exact
	case ByoYomi:
		return fmt.Sprintf("time_settings %s %s 1", main, period), exact && tc.Periods == 1
	}
	return "time_settings " + main + " 0 0", false
}

// KGSTimeSettingsCommand returns the `kgs-time_settings` command for tc and
// whether it is exact. Fischer and correspondence, which KGS does not know,
// become absolute time with the initial time, as in TimeSettingsCommand.
func KGSTimeSettingsCommand(tc TimeControl) (cmd string, exact bool) {
	main, e1 := settingSeconds(tc.MainTime)
	period, e2 := settingSeconds(tc.PeriodTime)
	switch tc.Kind {
	case None:
		return "kgs-time_settings none", true
	case Absolute:
		return "kgs-time_settings absolute " + main, e1
	case ByoYomi:
		return fmt.Sprintf("kgs-time_settings byoyomi %s %s %d", main, period, tc.Periods), e1 && e2
	case Canadian:
		return fmt.Sprintf("kgs-time_settings canadian %s %s %d", main, period, tc.Stones), e1 && e2
	}
	return "kgs-time_settings absolute " + main, false
}

// KataTimeSettingsCommand returns the `kata-time_settings` command for tc
// and whether it is exact: the kgs-time_settings forms, and Fischer and
// correspondence (whose rules are Fischer's with a large increment) as
// "fischer" or "fischer-capped" (with no limit per move).
func KataTimeSettingsCommand(tc TimeControl) (cmd string, exact bool) {
	switch tc.Kind {
	case Fischer, Correspondence:
		main, e1 := settingSeconds(tc.MainTime)
		inc, e2 := settingSeconds(tc.Increment)
		exact = e1 && e2
		if tc.MaxTime == 0 {
			return fmt.Sprintf("kata-time_settings fischer %s %s", main, inc), exact
		}
		capTime, e3 := settingSeconds(tc.MaxTime)
		return fmt.Sprintf("kata-time_settings fischer-capped %s %s %s -1", main, inc, capTime), exact && e3
	}
	cmd, exact = KGSTimeSettingsCommand(tc)
	return "kata-" + strings.TrimPrefix(cmd, "kgs-"), exact
}

// TimeLeft returns the two numbers of GTP `time_left color time stones` for
// a player with state s: in main time (and always for absolute, Fischer and
// correspondence) the main time or bank and 0 stones; in Canadian overtime
// the time left in the period and the stones still to play; in byo-yomi
// the time left in the current period and the periods left (the KGS
// convention; an engine that was sent the Canadian approximation of
// TimeSettingsCommand reads this as more stones to play than there are, which
// is safe). Times are rounded down. ok is false for None.
func TimeLeft(tc TimeControl, s State) (left time.Duration, stones int, ok bool) {
	switch tc.Kind {
	case None:
		return 0, 0, false
	case ByoYomi:
		if s.Overtime {
			return s.PeriodLeft, s.Periods, true
		}
	case Canadian:
		if s.Overtime {
			return s.PeriodLeft, s.Stones, true
		}
	}
	return s.MainTime, 0, true
}

// TimeLeftCommand returns the GTP command `time_left <B|W> <seconds>
// <stones>` for player c with state s (see TimeLeft). ok is false for None,
// for which no time_left is sent.
func TimeLeftCommand(c Color, tc TimeControl, s State) (cmd string, ok bool) {
	left, stones, ok := TimeLeft(tc, s)
	if !ok || !c.valid() {
		return "", false
	}
	secs, _ := wholeSeconds(left)
	return fmt.Sprintf("time_left %s %s %d", strings.ToUpper(c.String()[:1]), secs, stones), true
}

// ParseTimeLeft reads the arguments of GTP `time_left color time stones`.
// Fractional seconds are accepted.
func ParseTimeLeft(arguments []string) (c Color, left time.Duration, stones int, err error) {
	a := args{"time_left", arguments}
	if err = a.count(3); err != nil {
		return 0, 0, 0, err
	}
	if c, err = ParseColor(a.list[0]); err != nil {
		return 0, 0, 0, a.errAt(0, 0, "invalid colour %q", a.list[0])
	}
	if left, err = a.seconds(1); err != nil {
		return 0, 0, 0, err
	}
	if stones, err = a.number(2, max(MaxStones, MaxPeriods)); err != nil {
		return 0, 0, 0, err
	}
	return c, left, stones, nil
}

// StateFromTimeLeft returns the State that a `time_left` report of left and
// stones describes under tc (see TimeLeft for the meaning): zero stones mean
// main time (or the bank); otherwise the player is in overtime with left in
// the current period and stones Canadian stones or byo-yomi periods to go.
// Under a time control without main time, zero stones are read as overtime
// with a full stone or period count.
// An engine keeps this State and passes it to Budget.
func (tc TimeControl) StateFromTimeLeft(left time.Duration, stones int) State {
	s := tc.NewState()
	switch tc.Kind {
	case None:
		return s
	case ByoYomi, Canadian:
		if stones <= 0 && tc.MainTime > 0 {
			s.MainTime = left
			s.Overtime = false
			return s
		}
		if stones <= 0 {
			// Without main time the player can only be in overtime; read
			// the report as a fresh period count, the safe guess.
			stones = tc.Periods
			if tc.Kind == Canadian {
				stones = tc.Stones
			}
		}
		s.MainTime, s.Overtime, s.PeriodLeft = 0, true, left
		if tc.Kind == ByoYomi {
			s.Periods = stones
		} else {
			s.Stones = stones
		}
		return s
	}
	s.MainTime = left
	return s
}
