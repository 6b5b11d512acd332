// Package sqlrow holds the scan destinations and stored forms of values
// that packages sqlite and postgres share: the column types agree between
// the two schemas, so the Go side of reading them lives here once, while
// each backend keeps its own SQL.
package sqlrow

import (
	"encoding"
	"fmt"
	"time"

	"tengen"
	"tengen/goban"
	"tengen/internal/rating"
)

// Text scans a text column into a value that reads its text form, such as
// goban.Color and clock.Kind.
type Text struct{ V encoding.TextUnmarshaler }

// Scan implements sql.Scanner.
func (t Text) Scan(src any) error {
	switch v := src.(type) {
	case string:
		return t.V.UnmarshalText([]byte(v))
	case []byte:
		return t.V.UnmarshalText(v)
	}
	return fmt.Errorf("text column holds %T", src)
}

// ColorText is the stored form of a colour: "black", "white" or "".
func ColorText(c goban.Color) string {
	b, err := c.MarshalText()
	if err != nil {
		return c.String() // refused by the columns' CHECK constraints
	}
	return string(b)
}

// Millis scans a duration stored in milliseconds.
type Millis struct{ D *time.Duration }

// Scan implements sql.Scanner.
func (m Millis) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("duration column holds %T", src)
	}
	*m.D = time.Duration(v) * time.Millisecond
	return nil
}

// Rank scans the users.rating_fixed column into the user's Rank. It must
// come after the rating and deviation columns in the scan destinations:
// it reads them from U, which the scan fills in order. SQLite stores the
// flag as an integer, PostgreSQL as a boolean.
type Rank struct{ U *tengen.User }

// Scan implements sql.Scanner.
func (r Rank) Scan(src any) error {
	var fixed bool
	switch v := src.(type) {
	case int64:
		fixed = v != 0
	case bool:
		fixed = v
	default:
		return fmt.Errorf("rating_fixed column holds %T", src)
	}
	r.U.Rank = rating.Label(r.U.Bot, fixed, r.U.Rating, r.U.Deviation)
	return nil
}
