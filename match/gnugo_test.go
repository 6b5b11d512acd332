package match

import (
	"context"
	"strings"
	"tengen/internal/oracle"
	"testing"
	"time"
)

func gnugoPath(t *testing.T) string {
	t.Helper()
	return oracle.GNUGo(t, "the match against GNU Go")
}

// TestMatchAgainstGNUGo is the smoke test of the issue: two short games
// against GNU Go at level 1 (9×9, or 5×5 with -short), scored by GNU Go as referee. Nothing may crash,
// time out or play an illegal move, and the records must replay.
func TestMatchAgainstGNUGo(t *testing.T) {
	gnugo := gnugoPath(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	komi := 7.5
	size := 9
	if testing.Short() {
		size = 5 // a few moves each
	}
	s, err := Run(ctx, Config{
		Engines: [2]EngineSpec{
			helper(t, "tengen", "Tengen", "11"),
			{Command: []string{gnugo, "--mode", "gtp", "--level", "1", "--chinese-rules", "--seed", "1"}},
		},
		Referee:     EngineSpec{Command: []string{gnugo, "--mode", "gtp", "--chinese-rules"}},
		Games:       2,
		Size:        size,
		Rules:       "chinese",
		Komi:        &komi,
		Parallel:    2,
		MoveTimeout: 30 * time.Second,
		OutDir:      dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Played != 2 {
		t.Fatalf("played %d games", s.Played)
	}
	if name := s.Engines[1].Name; !strings.HasPrefix(name, "GNU Go") {
		t.Errorf("GNU Go calls itself %q", name)
	}
	for _, r := range s.Results {
		t.Logf("game %d: %s (%s) in %d moves: %s", r.Game, r.Result, r.End, r.Moves, r.Detail)
		switch r.End {
		case EndScore:
			if r.ScoredBy != ScoredByReferee || !strings.HasPrefix(r.Referee, "GNU Go") {
				t.Errorf("game %d: scored by %s %q: %s", r.Game, r.ScoredBy, r.Referee, r.Detail)
			}
		case EndResign:
		default:
			t.Errorf("game %d ended by %s: %s", r.Game, r.End, r.Detail)
		}
		for _, w := range r.Warnings {
			t.Logf("game %d: warning: %s", r.Game, w)
		}
		_, rep := readGame(t, dir, r.SGF)
		if rep.Moves != r.Moves {
			t.Errorf("game %d: record has %d moves, result %d", r.Game, rep.Moves, r.Moves)
		}
	}
}
