package match

import (
	"math"
	"testing"
)

// TestWilson checks the interval against values published for the Wilson
// score interval without continuity correction (Newcombe 1998, Table I:
// 81/263 gives 0.2553 to 0.3662; 15/148 gives 0.0624 to 0.1605; 0/20 gives
// 0 to 0.1611; 1/29 gives 0.0061 to 0.1718) and against its symmetry.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		s         float64
		n         int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		got := Wilson(tc.s, tc.n, Z95)
		if math.Abs(got.Low-tc.low) > 0.00005 || math.Abs(got.High-tc.high) > 0.00005 {
			t.Errorf("Wilson(%v, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.s, tc.n, got.Low, got.High, tc.low, tc.high)
		}
	}
	for n := 1; n <= 40; n++ {
		for s := 0; s <= n; s++ {
			a, b := Wilson(float64(s), n, Z95), Wilson(float64(n-s), n, Z95)
			if math.Abs(a.Low-(1-b.High)) > 1e-12 || math.Abs(a.High-(1-b.Low)) > 1e-12 {
				t.Fatalf("Wilson(%d, %d) = %+v is not the mirror of Wilson(%d, %d) = %+v", s, n, a, n-s, n, b)
			}
			if p := float64(s) / float64(n); a.Low > p || a.High < p || a.Low < 0 || a.High > 1 {
				t.Fatalf("Wilson(%d, %d) = %+v does not hold %v", s, n, a, p)
			}
		}
	}
	if got := Wilson(0, 0, Z95); got != (Interval{0, 1}) {
		t.Errorf("no games: %+v", got)
	}
	// More games, narrower interval.
	if a, b := Wilson(5, 10, Z95), Wilson(50, 100, Z95); b.High-b.Low >= a.High-a.Low {
		t.Errorf("100 games %+v not narrower than 10 %+v", b, a)
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"gnugo --mode gtp --level 10", []string{"gnugo", "--mode", "gtp", "--level", "10"}, ""},
		{"  tengen   gtp\t", []string{"tengen", "gtp"}, ""},
		{"", nil, ""},
		{`"/opt/my engine/bin" -x`, []string{"/opt/my engine/bin", "-x"}, ""},
		{`engine '--name=a b' "say \"hi\"" a\ b ''`, []string{"engine", "--name=a b", `say "hi"`, "a b", ""}, ""},
		{`a"b"'c'`, []string{"abc"}, ""},
		{`"\n\$"`, []string{`\n$`}, ""},
		{`engine 'oops`, nil, "1:8: unterminated single quote"},
		{`engine "oops`, nil, "1:8: unterminated double quote"},
		{`engine \`, nil, "1:8: backslash at the end of the line"},
	} {
		got, err := SplitCommand(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SplitCommand(%q): error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("SplitCommand(%q) = %q; want %q", tc.in, got, tc.want)
				break
			}
		}
		// String quotes what needs it, so that the line reads back.
		back, err := SplitCommand(EngineSpec{Command: got}.String())
		if err != nil || len(back) != len(got) {
			t.Errorf("round trip of %q: %q, %v", got, back, err)
		}
	}
}

// FuzzSplitCommand: the splitter never panics, reports errors with a column
// on the line, and what it splits survives a round trip through String.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"gnugo --mode gtp", `a "b c" 'd'`, `x\ y`, `"unterminated`, `'`, `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := SplitCommand(line)
		if err != nil {
			ce, ok := err.(*CommandError)
			if !ok || ce.Col < 1 || ce.Col > len(line) {
				t.Fatalf("SplitCommand(%q): error %v", line, err)
			}
			return
		}
		back, err := SplitCommand(EngineSpec{Command: words}.String())
		if err != nil || len(back) != len(words) {
			t.Fatalf("round trip of %q: %q, %v", words, back, err)
		}
		for i := range back {
			if back[i] != words[i] {
				t.Fatalf("round trip of %q: %q", words, back)
			}
		}
	})
}

// TestSummarize counts a made-up match: wins, draws and void games by
// engine and colour, forfeits and time losses, and the win rate with draws
// as half wins.
func TestSummarize(t *testing.T) {
	results := []*GameResult{
		{Game: 1, Black: 1, White: 2, Result: "B+R", Winner: 1, End: EndResign, Moves: 10,
			Think: [2]ThinkTime{{Moves: 5, Seconds: 1, MaxSeconds: 0.5}, {Moves: 5, Seconds: 2, MaxSeconds: 1}}},
		{Game: 2, Black: 2, White: 1, Result: "W+F", Winner: 1, End: EndForfeit, Moves: 20},
		{Game: 3, Black: 1, White: 2, Result: "0", End: EndScore, ScoredBy: ScoredByReferee, Moves: 30},
		nil, // game 4 was not finished
		{Game: 5, Black: 1, White: 2, Result: "Void", End: EndRepetition, Moves: 40},
		{Game: 6, Black: 2, White: 1, Result: "B+T", Winner: 2, End: EndTime, Moves: 50,
			Think: [2]ThinkTime{{Moves: 25, Seconds: 4, MaxSeconds: 2}, {Moves: 25, Seconds: 1, MaxSeconds: 0.1}}},
	}
	cfg := &Config{Games: 6, Engines: [2]EngineSpec{{Command: []string{"a"}}, {Command: []string{"b", "c d"}}}}
	s := summarize(cfg, results, [2]string{"A", "B"}, 0)
	e1, e2 := s.Engines[0], s.Engines[1]
	if s.Played != 5 || len(s.Results) != 5 {
		t.Fatalf("played %d, %d results", s.Played, len(s.Results))
	}
	if want := (Record{Games: 5, Wins: 2, Losses: 1, Draws: 1, NoResult: 1}); e1.Record != want {
		t.Errorf("engine 1: %+v, want %+v", e1.Record, want)
	}
	if want := (Record{Games: 5, Wins: 1, Losses: 2, Draws: 1, NoResult: 1}); e2.Record != want {
		t.Errorf("engine 2: %+v, want %+v", e2.Record, want)
	}
	if want := (Record{Games: 3, Wins: 1, Draws: 1, NoResult: 1}); e1.AsBlack != want {
		t.Errorf("engine 1 as Black: %+v, want %+v", e1.AsBlack, want)
	}
	if want := (Record{Games: 2, Wins: 1, Losses: 1}); e1.AsWhite != want {
		t.Errorf("engine 1 as White: %+v, want %+v", e1.AsWhite, want)
	}
	if want := (Record{Games: 5, Wins: 2, Losses: 1, Draws: 1, NoResult: 1}); s.Black != want {
		t.Errorf("Black: %+v, want %+v", s.Black, want)
	}
	if e1.WinRate != 2.5/4 || e1.CI95 != Wilson(2.5, 4, Z95) {
		t.Errorf("engine 1 win rate %v %+v", e1.WinRate, e1.CI95)
	}
	if e2.Forfeits != 1 || e1.Forfeits != 0 || e2.TimeLosses != 0 || e1.TimeLosses != 1 {
		t.Errorf("forfeits %d %d, time losses %d %d", e1.Forfeits, e2.Forfeits, e1.TimeLosses, e2.TimeLosses)
	}
	if e1.Think != (ThinkTime{Moves: 30, Seconds: 5, MaxSeconds: 2}) || e1.MeanMoveSeconds != 5.0/30 {
		t.Errorf("engine 1 think %+v, mean %v", e1.Think, e1.MeanMoveSeconds)
	}
	if s.MeanMoves != 30 || s.Ends[EndResign] != 1 || s.Ends[EndForfeit] != 1 || s.ScoredBy[ScoredByReferee] != 1 {
		t.Errorf("mean moves %v, ends %v, scored by %v", s.MeanMoves, s.Ends, s.ScoredBy)
	}
	if e2.Command != "b 'c d'" {
		t.Errorf("command %q", e2.Command)
	}
}
