package goban_test

import (
	"encoding"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"tengen/goban"
)

// jsonCase is a value and its JSON form, "" if marshalling must fail.
type jsonCase[T comparable] struct {
	v    T
	json string
}

// checkJSON marshals each case's value and reads the result back.
func checkJSON[T comparable](t *testing.T, cases []jsonCase[T]) {
	t.Helper()
	for _, tc := range cases {
		got, err := json.Marshal(tc.v)
		if tc.json == "" {
			if err == nil {
				t.Errorf("Marshal(%v) = %s, want an error", tc.v, got)
			}
			continue
		}
		if err != nil || string(got) != tc.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.v, got, err, tc.json)
			continue
		}
		var back T
		if err := json.Unmarshal(got, &back); err != nil || back != tc.v {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", got, back, err, tc.v)
		}
	}
}

func TestColorText(t *testing.T) {
	checkJSON(t, []jsonCase[goban.Color]{
		{goban.Black, `"black"`},
		{goban.White, `"white"`},
		{goban.Empty, `""`},
		{goban.Wall, ""},
		{goban.Color(9), ""},
	})
	// Printing with %v keeps String's words; only JSON and text change.
	if s := fmt.Sprintf("%v %v %v", goban.Black, goban.White, goban.Empty); s != "black white empty" {
		t.Errorf("%%v prints %q", s)
	}
	for _, bad := range []string{`"Black"`, `"b"`, `"W"`, `"empty"`, `"wall"`, `1`, `null`, `" black"`} {
		c := goban.White
		err := json.Unmarshal([]byte(bad), &c)
		// encoding/json treats null as "no value" and never calls
		// UnmarshalText, so it leaves the colour alone.
		if bad == "null" {
			if err != nil || c != goban.White {
				t.Errorf("Unmarshal(null) changed the colour to %v (%v)", c, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", bad, c)
		}
	}
	// As a map key.
	got, err := json.Marshal(map[goban.Color]int{goban.Black: 1, goban.White: 2})
	if err != nil || string(got) != `{"black":1,"white":2}` {
		t.Errorf("map key: %s, %v", got, err)
	}
}

func TestPointJSON(t *testing.T) {
	checkJSON(t, []jsonCase[goban.Point]{
		{goban.Point{}, `[0,0]`},
		{goban.Point{X: 3, Y: 15}, `[3,15]`},
		{goban.Point{X: 24, Y: 0}, `[24,0]`},
		{goban.Point{X: -1, Y: -2}, `[-1,-2]`},
	})
	for _, tc := range []struct {
		in   string
		want goban.Point
	}{
		{` [ 1 , 2 ] `, goban.Point{X: 1, Y: 2}},
		{`[-0,7]`, goban.Point{X: 0, Y: 7}},
	} {
		var p goban.Point
		if err := json.Unmarshal([]byte(tc.in), &p); err != nil || p != tc.want {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", tc.in, p, err, tc.want)
		}
	}
	for _, bad := range []string{
		`null`, `[]`, `[1]`, `[1,2,3]`, `{"X":1,"Y":2}`, `"1,2"`, `[1.5,2]`, `[1e2,2]`, `["1",2]`,
		`[null,2]`, `[1,null]`, `[true,2]`, `[[1],2]`, `[99999999999999999999,1]`, `12`, `[1,2`,
	} {
		p := goban.Point{X: 5, Y: 6}
		err := (&p).UnmarshalJSON([]byte(bad))
		if err == nil {
			t.Errorf("UnmarshalJSON(%s) = %v, want an error", bad, p)
		}
		if p != (goban.Point{X: 5, Y: 6}) {
			t.Errorf("UnmarshalJSON(%s) changed the point to %v", bad, p)
		}
	}
	// Inside a struct, the way the API sends points.
	var v struct {
		Point  goban.Point   `json:"point"`
		Points []goban.Point `json:"points"`
	}
	if err := json.Unmarshal([]byte(`{"point":[2,3],"points":[[0,1],[4,4]]}`), &v); err != nil ||
		v.Point != (goban.Point{X: 2, Y: 3}) || len(v.Points) != 2 || v.Points[1] != (goban.Point{X: 4, Y: 4}) {
		t.Errorf("struct: %+v, %v", v, err)
	}
	if err := json.Unmarshal([]byte(`{"point":[2]}`), &v); err == nil {
		t.Error("struct with a one-element point: no error")
	}
}

func TestMoveKindText(t *testing.T) {
	checkJSON(t, []jsonCase[goban.MoveKind]{
		{goban.Play, `"play"`},
		{goban.Pass, `"pass"`},
		{goban.Resign, `"resign"`},
		{goban.MoveKind(7), ""},
	})
	for _, bad := range []string{`""`, `"Play"`, `"PASS"`, `"resigned"`, `0`, `"move"`} {
		var k goban.MoveKind
		if err := json.Unmarshal([]byte(bad), &k); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", bad, k)
		}
	}
}

// FuzzColorText checks that UnmarshalText accepts exactly the three forms
// MarshalText writes, and that they round-trip.
func FuzzColorText(f *testing.F) {
	for _, s := range []string{"black", "white", "", "Black", "b", "empty", "wall"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTextForms[goban.Color](t, s, "black", "white", "")
	})
}

// FuzzMoveKindText is FuzzColorText for MoveKind.
func FuzzMoveKindText(f *testing.F) {
	for _, s := range []string{"play", "pass", "resign", "", "Play", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTextForms[goban.MoveKind](t, s, "play", "pass", "resign")
	})
}

// textPointer is a pointer to T that reads T from text.
type textPointer[T any] interface {
	*T
	encoding.TextUnmarshaler
}

// checkTextForms checks that a T reads s if and only if s is one of forms,
// and that what it reads writes back as s.
func checkTextForms[T encoding.TextMarshaler, P textPointer[T]](t *testing.T, s string, forms ...string) {
	t.Helper()
	var v T
	if err := P(&v).UnmarshalText([]byte(s)); err != nil {
		if slices.Contains(forms, s) {
			t.Fatalf("%q refused: %v", s, err)
		}
		return
	}
	if !slices.Contains(forms, s) {
		t.Fatalf("%q accepted as %v", s, v)
	}
	if out, err := v.MarshalText(); err != nil || string(out) != s {
		t.Fatalf("%q read as %v writes %q, %v", s, v, out, err)
	}
}

// FuzzPointJSON checks that whatever UnmarshalJSON accepts is a JSON array
// of two integers that writes back in the canonical form, and that a
// refused input leaves the point unchanged.
func FuzzPointJSON(f *testing.F) {
	for _, s := range []string{`[0,0]`, `[3,15]`, ` [ -1 , 2 ] `, `[1]`, `[1,2,3]`, `null`, `{"X":1}`, `[1.5,2]`, `[null,1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := goban.Point{X: 5, Y: 6}
		if err := p.UnmarshalJSON(data); err != nil {
			if p != (goban.Point{X: 5, Y: 6}) {
				t.Fatalf("%q refused (%v) but changed the point to %v", data, err, p)
			}
			return
		}
		var v []int64
		if err := json.Unmarshal(data, &v); err != nil || len(v) != 2 || v[0] != int64(p.X) || v[1] != int64(p.Y) {
			t.Fatalf("%q accepted as %v, but encoding/json reads %v, %v", data, p, v, err)
		}
		out, err := json.Marshal(p)
		if err != nil || string(out) != fmt.Sprintf("[%d,%d]", p.X, p.Y) {
			t.Fatalf("%v writes %s, %v", p, out, err)
		}
		var q goban.Point
		if err := json.Unmarshal(out, &q); err != nil || q != p {
			t.Fatalf("%s reads back as %v, %v", out, q, err)
		}
	})
}
