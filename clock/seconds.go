package clock

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// formatSeconds writes d as a decimal number of seconds with no more digits
// than needed ("600", "29.5", "0.000000001"). It is exact: parseSeconds reads
// it back to the same Duration.
func formatSeconds(d time.Duration) string {
	return string(appendSeconds(nil, d))
}

// appendSeconds appends formatSeconds(d) to b. The clock's JSON goes
// with every move to storage and to every watcher, so it allocates nothing
// of its own.
func appendSeconds(b []byte, d time.Duration) []byte {
	u := uint64(d)
	if d < 0 {
		b = append(b, '-')
		u = uint64(-d) // two's complement also handles math.MinInt64
	}
	b = strconv.AppendUint(b, u/1e9, 10)
	frac := u % 1e9
	if frac == 0 {
		return b
	}
	digits := 9
	for frac%10 == 0 {
		frac /= 10
		digits--
	}
	b = append(b, '.')
	for n := frac; n < pow10(digits-1); n *= 10 {
		b = append(b, '0') // the leading zeros of the fraction
	}
	return strconv.AppendUint(b, frac, 10)
}

// pow10 returns 10 to the power of n, for 0 ≤ n ≤ 8.
func pow10(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

// parseSeconds reads a non-negative number of seconds: digits with an
// optional fraction ("30", "30.", "29.5", ".5"), and, for JSON's sake, an
// exponent ("6e2"). Digits beyond nanoseconds are truncated. It returns the
// byte offset of the first offending character with its error.
func parseSeconds(s string) (time.Duration, int, error) {
	if s == "" {
		return 0, 0, fmt.Errorf("expected a number of seconds")
	}
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || f < 0 {
			return 0, 0, fmt.Errorf("invalid number of seconds %q", s)
		}
		if f > MaxDuration.Seconds() {
			return 0, 0, fmt.Errorf("%s seconds is too long", s)
		}
		return time.Duration(math.Round(f * 1e9)), 0, nil
	}
	var whole, frac int64
	digits, fracDigits := 0, 0
	seenDot := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && !seenDot:
			seenDot = true
		case c >= '0' && c <= '9':
			digits++
			if !seenDot {
				if whole > int64(MaxDuration/time.Second) {
					return 0, i, fmt.Errorf("%s seconds is too long", s)
				}
				whole = whole*10 + int64(c-'0')
			} else if fracDigits < 9 {
				frac = frac*10 + int64(c-'0')
				fracDigits++
			}
		default:
			return 0, i, fmt.Errorf("unexpected %q in a number of seconds", c)
		}
	}
	if digits == 0 {
		return 0, 0, fmt.Errorf("expected a number of seconds")
	}
	for ; fracDigits < 9; fracDigits++ {
		frac *= 10
	}
	d := time.Duration(whole)*time.Second + time.Duration(frac)
	if d > MaxDuration {
		return 0, 0, fmt.Errorf("%s seconds is too long", s)
	}
	return d, 0, nil
}

// parseCount reads a non-negative decimal integer no larger than limit.
func parseCount(s string, limit int) (int, int, error) {
	if s == "" {
		return 0, 0, fmt.Errorf("expected a number")
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, i, fmt.Errorf("unexpected %q in a number", c)
		}
		n = n*10 + int(c-'0')
		if n > limit {
			return 0, 0, fmt.Errorf("%s is more than %d", s, limit)
		}
	}
	return n, 0, nil
}
