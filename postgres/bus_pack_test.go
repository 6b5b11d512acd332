package postgres

import (
	"strings"
	"testing"
)

// TestPackEnvelopes checks how a batch's envelopes are cut into
// notifications: in order, as many to a notification as fit, never more
// than the limit, and one to a notification for the first format.
func TestPackEnvelopes(t *testing.T) {
	env := func(c byte, n int) busMsg { return busMsg{env: []byte(strings.Repeat(string(c), n))} }
	tests := []struct {
		name string
		msgs []busMsg
		max  int
		want [][]string // notifications, each its envelopes
	}{
		{"one", []busMsg{env('a', 3)}, 10, [][]string{{"aaa"}}},
		{"fill", []busMsg{env('a', 3), env('b', 3), env('c', 3)}, 7, [][]string{{"aaa", "bbb"}, {"ccc"}}},
		{"exactly the limit", []busMsg{env('a', 4), env('b', 5)}, 10, [][]string{{"aaaa", "bbbbb"}}},
		{"one over the limit", []busMsg{env('a', 5), env('b', 5)}, 10, [][]string{{"aaaaa"}, {"bbbbb"}}},
		{"a large one between small ones", []busMsg{env('a', 1), env('b', 9), env('c', 1), env('d', 1)}, 10,
			[][]string{{"a"}, {"bbbbbbbbb"}, {"c", "d"}}},
		{"first format", []busMsg{env('a', 1), env('b', 1), env('c', 1)}, 0, [][]string{{"a"}, {"b"}, {"c"}}},
		{"limit of NOTIFY", []busMsg{env('a', 4000), env('b', 3998), env('c', 3999), env('d', 3999)}, busMaxNotify,
			[][]string{{strings.Repeat("a", 4000), strings.Repeat("b", 3998)}, {strings.Repeat("c", 3999), strings.Repeat("d", 3999)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := packEnvelopes(make([]byte, 0, 8), tt.msgs, tt.max)
			var got [][]string
			for n := range strings.SplitSeq(string(text), busSep) {
				if tt.max > 0 && len(n) > tt.max {
					t.Errorf("notification of %d bytes, limit %d", len(n), tt.max)
				}
				got = append(got, strings.Split(n, busJoin))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d notifications %q, want %q", len(got), got, tt.want)
			}
			for i := range got {
				if strings.Join(got[i], "|") != strings.Join(tt.want[i], "|") {
					t.Errorf("notification %d: got %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}
