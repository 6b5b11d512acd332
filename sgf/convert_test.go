package sgf

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tengen/goban"
)

func TestKorschelt(t *testing.T) {
	tests := []struct{ name, sgf, want string }{
		{"single capture", "(;SZ[19];B[dp];W[ep];B[eo];W[as];B[fp];W[ar];B[eq])",
			"S. d4, e4; e5, a1; f4, a2; e3 (e4)\n"},
		{"two stones", "(;SZ[19];B[dp];W[ep];B[do];W[eo];B[fp];W[as];B[fo];W[ar];B[en];W[aq];B[eq])",
			"S. d4, e4; d5, e5; f4, a1; f5, a2; e6, a3; e3 (2)\n"},
		{"no j column", "(;SZ[19];B[ip];W[jp];B[kp];W[])", "S. i4, k4; l4, pass\n"},
		{"colours do not alternate", "(;SZ[19];B[dp];B[pd];W[dd])", "S. d4; S. q16, d16\n"},
		{"handicap", "(;SZ[19]HA[2]AB[dp][pd];W[dd])", "S.: q16, d4.\nW. d16\n"},
		{"small board", "(;SZ[9];B[ee];W[cc])", "S. e5, c7\n"},
		{"setup without moves", "(;SZ[9]AB[cc][dd]AW[ee];AW[ff])", "S.: c7, d6.\nW.: e5, f4.\n"},
		{"nothing at all", "(;SZ[9])", ""},
	}
	for _, tt := range tests {
		got, err := Korschelt(mustParse(t, tt.sgf), ReplayOptions{})
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := Korschelt(mustParse(t, "(;SZ[26];B[aa])"), ReplayOptions{}); err == nil {
		t.Error("26 columns accepted")
	}
	// An illegal move is an error with its place in the record.
	_, err := Korschelt(mustParse(t, "(;SZ[9];B[ee]\n;W[ee])"), ReplayOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "2:1: move 2") {
		t.Errorf("illegal move: %v", err)
	}
}

func TestGTPCommands(t *testing.T) {
	tests := []struct {
		sgf, want string
		err       bool
	}{
		{"(;SZ[19]HA[2]KM[0.5]AB[dp][pd];W[dd];B[])",
			"boardsize 19|clear_board|komi 0.5|set_free_handicap D4 Q16|play W D16|play B pass", false},
		{"(;SZ[9:7]KM[7];B[aa])", "boardsize 9 7|clear_board|komi 7|play B A7", false},
		{"(;SZ[9]AB[aa]AW[bb];B[cc])", "boardsize 9|clear_board|komi 0|# setup stones as moves|play B A9|play W B8|play B C7", false},
		// GNU Go's printsgf: the handicap with the stones played since
		// as AB, and White's stones as AW, in the root.
		{"(;SZ[9]KM[0]HA[2]AW[ee]AB[cc][gg][de]PL[W])",
			"boardsize 9|clear_board|komi 0|set_free_handicap C7 G3 D5|# setup stones as moves|play W E5", false},
		{"(;SZ[9]HA[2]AB[cc][gg]AW[ee];W[dd];AB[ff])",
			"boardsize 9|clear_board|komi 0|set_free_handicap C7 G3|# setup stones as moves|play W E5|play W D6|# setup stones as moves|play B F4", false},
		{"(;SZ[9]AB[aa];AE[aa];B[cc])", "boardsize 9|clear_board|komi 0|# setup stones as moves|play B A9", true},
	}
	for _, tt := range tests {
		cmds, err := GTPCommands(mustParse(t, tt.sgf), ReplayOptions{})
		if got := strings.Join(cmds, "|"); got != tt.want || (err != nil) != tt.err {
			t.Errorf("%s:\n got %q, %v\nwant %q", tt.sgf, got, err, tt.want)
		}
	}
}

// TestKorscheltRoundTrip writes the main line of records in Korschelt's
// notation and reads it back with goban.ParseKorscheltMoves: the same moves
// and the same final position. Records with setup stones after the first
// move are left out: the notation does not show them.
func TestKorscheltRoundTrip(t *testing.T) {
	records := []string{
		"(;SZ[19];B[dp];W[ep];B[eo];W[as];B[fp];W[ar];B[eq])",
		"(;SZ[19];B[dp];W[ep];B[do];W[eo];B[fp];W[as];B[fo];W[ar];B[en];W[aq];B[eq])",
		"(;SZ[19];B[ip];W[jp];B[kp];W[])",
		"(;SZ[19];B[dp];B[pd];W[dd])",
		"(;SZ[19]HA[2]AB[dp][pd];W[dd];B[pp];W[];B[])",
		"(;SZ[9]AB[cc][dd]AW[ee])",
		"(;SZ[9]KM[0]HA[2]AW[ee]AB[cc][gg][de]PL[W];W[ed];B[fe])",
		// A ko: Black takes, White retakes after a move elsewhere.
		"(;SZ[9];B[dc];W[ec];B[cd];W[dd];B[de];W[fd];B[aa];W[ee];B[ed];W[gg];B[hh];W[dd];B[ii])",
		"(;SZ[13:9];B[aa];W[ma];B[ai];W[mi])",
	}
	inline := len(records)
	files, err := filepath.Glob("testdata/*.sgf")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, string(data))
	}
	tried := 0
	for i, rec := range records {
		c, err := Parse([]byte(rec))
		if err != nil {
			continue
		}
		for j, root := range c.Games {
			name := fmt.Sprintf("record %d game %d", i+1, j+1)
			k, err := Korschelt(root, ReplayOptions{})
			if err != nil || setupAfterMoves(root) {
				if i < inline {
					t.Errorf("%s: not written: %v", name, err)
				}
				continue
			}
			r, err := Replay(root, ReplayOptions{})
			if err != nil {
				t.Fatalf("%s: Korschelt wrote what Replay refuses: %v", name, err)
			}
			g, err := goban.NewGame(r.Game.Width(), r.Game.Height(), r.Game.Rules())
			if err != nil {
				t.Fatal(err)
			}
			moves, err := goban.ParseKorscheltMoves(g, k)
			if err != nil {
				t.Errorf("%s: %q does not read back: %v", name, k, err)
				continue
			}
			tried++
			if !slices.Equal(moves, r.Game.Moves()) {
				t.Errorf("%s: %q reads back as %v, want %v", name, k, moves, r.Game.Moves())
			}
			if got, want := g.Board().String(), r.Game.Board().String(); got != want {
				t.Errorf("%s: %q reads back as\n%s\nwant\n%s", name, k, got, want)
			}
		}
	}
	if tried < inline+10 {
		t.Errorf("only %d records went round", tried)
	}
}

// setupAfterMoves reports whether a node of the main line sets up stones
// after a move.
func setupAfterMoves(root *Node) bool {
	moved := false
	for _, n := range root.MainLine() {
		if moved && (n.Has("AB") || n.Has("AW") || n.Has("AE")) {
			return true
		}
		if _, ok, _ := n.Move(19, 19); ok {
			moved = true
		}
	}
	return false
}
