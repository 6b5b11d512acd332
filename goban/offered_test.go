package goban

import (
	"slices"
	"testing"
)

// TestOfferedRulesetNames checks that the lobby's order names every ruleset
// once and nothing else.
func TestOfferedRulesetNames(t *testing.T) {
	got := slices.Sorted(slices.Values(OfferedRulesetNames()))
	if want := RulesetNames(); !slices.Equal(got, want) {
		t.Errorf("OfferedRulesetNames sorted = %v, RulesetNames = %v", got, want)
	}
}

// TestJSONForms checks the wire forms of colours and points that the
// server's API uses.
func TestJSONForms(t *testing.T) {
	for _, tc := range []struct {
		c    Color
		text string
	}{{Black, "black"}, {White, "white"}, {Empty, ""}} {
		b, err := tc.c.MarshalText()
		if err != nil || string(b) != tc.text {
			t.Errorf("%v.MarshalText = %q, %v; want %q", tc.c, b, err, tc.text)
		}
		var c Color = Wall
		if err := c.UnmarshalText([]byte(tc.text)); err != nil || c != tc.c {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tc.text, c, err, tc.c)
		}
	}
	var c Color
	if err := c.UnmarshalText([]byte("B")); err == nil {
		t.Errorf("UnmarshalText(B) accepted")
	}
	if _, err := Wall.MarshalText(); err == nil {
		t.Errorf("Wall.MarshalText accepted")
	}
	p := Point{3, 15}
	b, err := p.MarshalJSON()
	if err != nil || string(b) != "[3,15]" {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
	for _, in := range []string{"[1]", "[1,2,3]", `{"x":1}`, `"a"`} {
		var q Point
		if err := q.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("UnmarshalJSON(%s) accepted", in)
		}
	}
	var q Point
	if err := q.UnmarshalJSON([]byte("[4, 2]")); err != nil || q != (Point{4, 2}) {
		t.Errorf("UnmarshalJSON([4, 2]) = %v, %v", q, err)
	}
}
