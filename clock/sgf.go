package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SGFProperties returns the values of the SGF game-info properties TM (main
// time in seconds) and OT (overtime) for tc; an empty value means the
// property is left out. OT uses the forms that CGoban, KGS and OGS write,
// plus one of our own for correspondence:
//
//	byo-yomi        "5x30 byo-yomi"          (periods x seconds)
//	Canadian        "25/600 Canadian"        (stones / seconds)
//	Fischer         "10 fischer" or "10 fischer (max 600)"   (increment, cap)
//	correspondence  "86400 per move (max 864000) correspondence"
//
// Absolute time has only TM; no time limit has neither.
func SGFProperties(tc TimeControl) (tm, ot string) {
	if tc.Kind == None {
		return "", ""
	}
	tm = formatSeconds(tc.MainTime)
	maxPart := ""
	if tc.MaxTime > 0 {
		maxPart = " (max " + formatSeconds(tc.MaxTime) + ")"
	}
	switch tc.Kind {
	case ByoYomi:
		ot = fmt.Sprintf("%dx%s byo-yomi", tc.Periods, formatSeconds(tc.PeriodTime))
	case Canadian:
		ot = fmt.Sprintf("%d/%s Canadian", tc.Stones, formatSeconds(tc.PeriodTime))
	case Fischer:
		ot = formatSeconds(tc.Increment) + " fischer" + maxPart
	case Correspondence:
		ot = formatSeconds(tc.Increment) + " per move" + maxPart + " correspondence"
	}
	return tm, ot
}

// otScanner reads an OT value, remembering the position for errors.
type otScanner struct {
	form, in string
	lower    string
	pos      int
}

func (s *otScanner) errf(pos int, format string, v ...any) error {
	return &ParseError{Form: s.form, Input: s.in, Column: pos + 1, Msg: fmt.Sprintf(format, v...)}
}

func (s *otScanner) spaces() {
	for s.pos < len(s.lower) && (s.lower[s.pos] == ' ' || s.lower[s.pos] == '\t') {
		s.pos++
	}
}

func (s *otScanner) done() bool { s.spaces(); return s.pos == len(s.lower) }

// number returns the next run of digits and dots and where it starts.
func (s *otScanner) number() (string, int) {
	s.spaces()
	start := s.pos
	for s.pos < len(s.lower) && (s.lower[s.pos] >= '0' && s.lower[s.pos] <= '9' || s.lower[s.pos] == '.') {
		s.pos++
	}
	return s.lower[start:s.pos], start
}

func (s *otScanner) seconds() (time.Duration, error) {
	tok, at := s.number()
	d, off, err := parseSeconds(tok)
	if err != nil {
		return 0, s.errf(at+off, "%v", err)
	}
	return d, nil
}

// word consumes the first of words that comes next and returns it, or "".
func (s *otScanner) word(words ...string) string {
	s.spaces()
	for _, w := range words {
		if strings.HasPrefix(s.lower[s.pos:], w) {
			s.pos += len(w)
			return w
		}
	}
	return ""
}

func (s *otScanner) expect(words ...string) (string, error) {
	at := s.pos
	if w := s.word(words...); w != "" {
		return w, nil
	}
	s.spaces()
	return "", s.errf(max(at, s.pos), "expected %s", strings.Join(quoteAll(words), " or "))
}

func quoteAll(ws []string) []string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = strconv.Quote(w)
	}
	return q
}

// maxPart reads an optional "(max N)".
func (s *otScanner) maxPart() (time.Duration, error) {
	if s.word("(max") == "" {
		return 0, nil
	}
	d, err := s.seconds()
	if err != nil {
		return 0, err
	}
	if _, err := s.expect(")"); err != nil {
		return 0, err
	}
	return d, nil
}

// ParseSGFTime reads the SGF properties TM and OT (either may be empty)
// into a time control. It understands the forms that SGFProperties writes,
// "N simple" (OGS: N seconds per move, read as Canadian with one stone), and
// GoGui's "N moves / S min" and "N moves / S sec". TM alone is absolute
// time; neither, or TM[0] alone, is no time limit. Words are matched without
// regard to case. The result is validated.
func ParseSGFTime(tm, ot string) (TimeControl, error) {
	var main time.Duration
	if t := strings.TrimSpace(tm); t != "" {
		lead := len(tm) - len(strings.TrimLeft(tm, " \t\r\n"))
		t = strings.TrimPrefix(t, "+")
		if t != strings.TrimSpace(tm) {
			lead++
		}
		d, off, err := parseSeconds(t)
		if err != nil {
			return TimeControl{}, &ParseError{Form: "SGF TM", Input: tm, Column: lead + off + 1, Msg: err.Error()}
		}
		main = d
	}
	s := &otScanner{form: "SGF OT", in: ot, lower: strings.ToLower(ot)}
	if s.done() {
		if main == 0 {
			return NoTimeLimit(), nil
		}
		return AbsoluteTime(main), nil
	}
	tc, err := s.overtime(main)
	if err != nil {
		return TimeControl{}, err
	}
	if !s.done() {
		return TimeControl{}, s.errf(s.pos, "unexpected %q after the overtime", s.in[s.pos:])
	}
	if err := tc.Validate(); err != nil {
		return TimeControl{}, &ParseError{Form: "SGF OT", Input: ot, Column: 1, Msg: err.Error()}
	}
	return tc, nil
}

func (s *otScanner) overtime(main time.Duration) (TimeControl, error) {
	tok, at := s.number()
	if tok == "" {
		return TimeControl{}, s.errf(at, "expected a number")
	}
	first := func(limit int) (int, error) {
		n, off, err := parseCount(tok, limit)
		if err != nil {
			return 0, s.errf(at+off, "%v", err)
		}
		return n, nil
	}
	firstSeconds := func() (time.Duration, error) {
		d, off, err := parseSeconds(tok)
		if err != nil {
			return 0, s.errf(at+off, "%v", err)
		}
		return d, nil
	}
	switch s.word("x", "/", "fischer", "simple", "per move", "moves") {
	case "x":
		periods, err := first(MaxPeriods)
		if err != nil {
			return TimeControl{}, err
		}
		period, err := s.seconds()
		if err != nil {
			return TimeControl{}, err
		}
		if _, err := s.expect("byo-yomi", "byoyomi", "byo yomi"); err != nil {
			return TimeControl{}, err
		}
		return ByoYomiTime(main, periods, period), nil
	case "/":
		stones, err := first(MaxStones)
		if err != nil {
			return TimeControl{}, err
		}
		period, err := s.seconds()
		if err != nil {
			return TimeControl{}, err
		}
		if _, err := s.expect("canadian"); err != nil {
			return TimeControl{}, err
		}
		return CanadianTime(main, stones, period), nil
	case "fischer":
		inc, err := firstSeconds()
		if err != nil {
			return TimeControl{}, err
		}
		capTime, err := s.maxPart()
		if err != nil {
			return TimeControl{}, err
		}
		return FischerTime(main, inc, capTime), nil
	case "simple":
		perMove, err := firstSeconds()
		if err != nil {
			return TimeControl{}, err
		}
		return CanadianTime(main, 1, perMove), nil
	case "per move":
		perMove, err := firstSeconds()
		if err != nil {
			return TimeControl{}, err
		}
		capTime, err := s.maxPart()
		if err != nil {
			return TimeControl{}, err
		}
		s.word("correspondence")
		if main == 0 {
			main = perMove
		}
		return TimeControl{Kind: Correspondence, MainTime: main, Increment: perMove, MaxTime: capTime}, nil
	case "moves":
		stones, err := first(MaxStones)
		if err != nil {
			return TimeControl{}, err
		}
		if _, err := s.expect("/"); err != nil {
			return TimeControl{}, err
		}
		period, err := s.seconds()
		if err != nil {
			return TimeControl{}, err
		}
		unit, err := s.expect("min", "sec")
		if err != nil {
			return TimeControl{}, err
		}
		if unit == "min" {
			if period > MaxDuration/time.Minute*time.Second {
				return TimeControl{}, s.errf(at, "period too long")
			}
			period = period / time.Second * time.Minute
		}
		return CanadianTime(main, stones, period), nil
	}
	s.spaces()
	return TimeControl{}, s.errf(s.pos, `expected "x", "/", "fischer", "simple", "per move" or "moves"`)
}

// SGFTimeLeft returns the values of the move properties BL or WL (time
// left, in seconds to the millisecond, rounded down) and OB or OW (stones
// or byo-yomi periods left; empty outside overtime) for state s, with the
// meaning of TimeLeft. ok is false for None.
func SGFTimeLeft(tc TimeControl, s State) (left, stones string, ok bool) {
	d, n, ok := TimeLeft(tc, s)
	if !ok {
		return "", "", false
	}
	left = formatSeconds(d / time.Millisecond * time.Millisecond)
	if n > 0 {
		stones = strconv.Itoa(n)
	}
	return left, stones, true
}

// StateFromSGF reads the BL/WL value left and the OB/OW value stones (may
// be empty) into a State, as StateFromTimeLeft does for GTP.
func (tc TimeControl) StateFromSGF(left, stones string) (State, error) {
	l := strings.TrimSpace(left)
	d, off, err := parseSeconds(strings.TrimPrefix(l, "+"))
	if err != nil {
		return State{}, &ParseError{Form: "SGF BL/WL", Input: left, Column: off + 1, Msg: err.Error()}
	}
	n := 0
	if st := strings.TrimSpace(stones); st != "" {
		n, off, err = parseCount(st, max(MaxStones, MaxPeriods))
		if err != nil {
			return State{}, &ParseError{Form: "SGF OB/OW", Input: stones, Column: off + 1, Msg: err.Error()}
		}
	}
	return tc.StateFromTimeLeft(d, n), nil
}
