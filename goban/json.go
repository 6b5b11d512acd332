package goban

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalText writes "black" or "white", and "" for Empty, as the server's
// API does. Other colours (Wall) are no player's colour and are refused.
func (c Color) MarshalText() ([]byte, error) {
	switch c {
	case Black:
		return []byte("black"), nil
	case White:
		return []byte("white"), nil
	case Empty:
		return []byte{}, nil
	}
	return nil, fmt.Errorf("goban: %v has no text form", c)
}

// UnmarshalText reads "black", "white" or "" (Empty), exactly; any other
// text, such as GTP's "b" or a capitalised name, is an error (ParseColor
// reads those).
func (c *Color) UnmarshalText(text []byte) error {
	switch string(text) {
	case "black":
		*c = Black
	case "white":
		*c = White
	case "":
		*c = Empty
	default:
		return fmt.Errorf("goban: colour %q is not black, white or empty", text)
	}
	return nil
}

// MarshalJSON writes p as the two-element array [x, y].
func (p Point) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "[%d,%d]", p.X, p.Y), nil
}

// UnmarshalJSON reads the two-element array [x, y] of integers. Anything
// else is an error, null included: a point that is missing must not read
// as the corner (0, 0).
func (p *Point) UnmarshalJSON(data []byte) error {
	var v []json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil || v == nil {
		return fmt.Errorf("goban: point %s is not an array [x, y]", clipJSON(data))
	}
	if len(v) != 2 {
		return fmt.Errorf("goban: point %s has %d elements, not 2", clipJSON(data), len(v))
	}
	var q Point
	for i, dst := range []*int{&q.X, &q.Y} {
		if err := json.Unmarshal(v[i], dst); err != nil || bytes.Equal(bytes.TrimSpace(v[i]), []byte("null")) {
			return fmt.Errorf("goban: point %s: element %d is not an integer", clipJSON(data), i)
		}
	}
	*p = q
	return nil
}

// clipJSON shortens data for an error message.
func clipJSON(data []byte) string {
	const max = 40
	if len(data) > max {
		return string(data[:max]) + "…"
	}
	return string(data)
}

// MarshalText writes "play", "pass" or "resign".
func (k MoveKind) MarshalText() ([]byte, error) {
	switch k {
	case Play, Pass, Resign:
		return []byte(k.String()), nil
	}
	return nil, fmt.Errorf("goban: %v has no text form", k)
}

// UnmarshalText reads "play", "pass" or "resign", exactly.
func (k *MoveKind) UnmarshalText(text []byte) error {
	switch string(text) {
	case "play":
		*k = Play
	case "pass":
		*k = Pass
	case "resign":
		*k = Resign
	default:
		return fmt.Errorf("goban: move kind %q is not play, pass or resign", text)
	}
	return nil
}
