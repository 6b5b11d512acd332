package gtp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// TimeSystem names a kind of game clock.
type TimeSystem uint8

// The time systems GTP and KGS can describe.
const (
	// NoTimeLimit: the game is untimed (the default).
	NoTimeLimit TimeSystem = iota
	// Absolute: main time only.
	Absolute
	// ByoYomi: main time, then Periods periods of Period each (Japanese).
	ByoYomi
	// Canadian: main time, then Stones moves in each Period (GTP's
	// standard time_settings).
	Canadian
)

// String returns the KGS name of the system.
func (s TimeSystem) String() string {
	switch s {
	case Absolute:
		return "absolute"
	case ByoYomi:
		return "byoyomi"
	case Canadian:
		return "canadian"
	}
	return "none"
}

// TimeSettings are the clock settings of a game.
type TimeSettings struct {
	System TimeSystem
	// Main is the main time.
	Main time.Duration
	// Period is the byo-yomi period (ByoYomi) or the overtime block
	// (Canadian).
	Period time.Duration
	// Periods is the number of byo-yomi periods (ByoYomi only).
	Periods int
	// Stones is the number of moves to make in each overtime block
	// (Canadian only).
	Stones int
}

// TimeLeft is what a time_left command reported for one colour.
type TimeLeft struct {
	// Known is false until a time_left for the colour has arrived.
	Known bool
	// Time is the time left in the current period (main time or overtime).
	Time time.Duration
	// Stones is the number of moves left in the current overtime period, or
	// 0 while in main time (GTP's convention).
	Stones int
}

// parseSeconds reads a non-negative number of seconds; GTP says integers,
// but fractional values from some controllers are accepted.
func parseSeconds(s string) (time.Duration, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || v > 1e9 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(v * float64(time.Second)), nil
}

func parseCount(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	return n, nil
}

// ParseTimeSettings reads the arguments of GTP's time_settings: main time,
// byo-yomi time and byo-yomi stones (Canadian overtime). As the GTP draft
// specifies, a byo-yomi time of zero means absolute time, and a positive
// byo-yomi time with zero stones means no time limit.
func ParseTimeSettings(args []string) (TimeSettings, error) {
	if len(args) != 3 {
		return TimeSettings{}, errors.New("time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES")
	}
	main, err := parseSeconds(args[0])
	if err != nil {
		return TimeSettings{}, err
	}
	period, err := parseSeconds(args[1])
	if err != nil {
		return TimeSettings{}, err
	}
	stones, err := parseCount(args[2])
	if err != nil {
		return TimeSettings{}, err
	}
	switch {
	case period == 0 && main == 0:
		return TimeSettings{System: NoTimeLimit}, nil
	case period == 0:
		return TimeSettings{System: Absolute, Main: main}, nil
	case stones == 0:
		return TimeSettings{System: NoTimeLimit}, nil
	}
	return TimeSettings{System: Canadian, Main: main, Period: period, Stones: stones}, nil
}

// ParseKGSTimeSettings reads the arguments of kgs-time_settings: "none",
// "absolute MAIN", "byoyomi MAIN PERIOD PERIODS" or "canadian MAIN PERIOD
// STONES".
func ParseKGSTimeSettings(args []string) (TimeSettings, error) {
	if len(args) == 0 {
		return TimeSettings{}, errors.New("kgs-time_settings none|absolute|byoyomi|canadian ...")
	}
	want := map[string]int{"none": 1, "absolute": 2, "byoyomi": 4, "canadian": 4}
	n, ok := want[args[0]]
	if !ok {
		return TimeSettings{}, fmt.Errorf("unknown time system %q", args[0])
	}
	if len(args) != n {
		return TimeSettings{}, fmt.Errorf("time system %s takes %d arguments", args[0], n-1)
	}
	var ts TimeSettings
	var err error
	if n > 1 {
		if ts.Main, err = parseSeconds(args[1]); err != nil {
			return TimeSettings{}, err
		}
	}
	if n > 2 {
		if ts.Period, err = parseSeconds(args[2]); err != nil {
			return TimeSettings{}, err
		}
		k, err := parseCount(args[3])
		if err != nil {
			return TimeSettings{}, err
		}
		if args[0] == "byoyomi" {
			ts.Periods = k
		} else {
			ts.Stones = k
		}
	}
	switch args[0] {
	case "absolute":
		ts.System = Absolute
	case "byoyomi":
		ts.System = ByoYomi
	case "canadian":
		ts.System = Canadian
	}
	return ts, nil
}

// ParseTimeLeft reads the time and stones arguments of time_left.
func ParseTimeLeft(timeArg, stonesArg string) (TimeLeft, error) {
	t, err := parseSeconds(timeArg)
	if err != nil {
		return TimeLeft{}, err
	}
	n, err := parseCount(stonesArg)
	if err != nil {
		return TimeLeft{}, err
	}
	return TimeLeft{Known: true, Time: t, Stones: n}, nil
}
