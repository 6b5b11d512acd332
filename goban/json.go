package goban

import (
	"encoding/json"
	"fmt"
)

// MarshalText writes Black as "black" and White as "white"; Empty is "", the
// form the server's API uses for "no colour".
func (c Color) MarshalText() ([]byte, error) {
	switch c {
	case Black, White:
		return []byte(c.String()), nil
	case Empty:
		return []byte{}, nil
	}
	return nil, fmt.Errorf("goban: cannot marshal colour %v", c)
}

// UnmarshalText reads "black", "white" or "" (Empty).
func (c *Color) UnmarshalText(b []byte) error {
	switch string(b) {
	case "black":
		*c = Black
	case "white":
		*c = White
	case "":
		*c = Empty
	default:
		return fmt.Errorf("goban: %q is not a colour (black or white)", b)
	}
	return nil
}

// MarshalJSON writes p as [x, y].
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal([2]int{p.X, p.Y})
}

// UnmarshalJSON reads [x, y].
func (p *Point) UnmarshalJSON(b []byte) error {
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("goban: a point is [x, y]: %w", err)
	}
	if len(v) != 2 {
		return fmt.Errorf("goban: a point is [x, y], not %d numbers", len(v))
	}
	p.X, p.Y = v[0], v[1]
	return nil
}
