package gtp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newTestEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := NewEngine(Options{Name: "Tengen", Version: "test", Seed: 42, ScoringPlayouts: 100})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEngineTranscripts(t *testing.T) {
	runTranscripts(t, "testdata/engine", func(t *testing.T) server { return newTestEngine(t) })
}

// FuzzEngine sends arbitrary command scripts to the engine: whatever the
// input, the engine must answer every command and never fail internally
// (a recovered panic would answer "internal error").
func FuzzEngine(f *testing.F) {
	files, _ := filepath.Glob("testdata/engine/*.gtp")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("boardsize 2\nplay b A1\nplay w B2\nplay b B1\nplay w A2\nfinal_score\nfinal_status_list dead\n")
	f.Fuzz(func(t *testing.T, script string) {
		if strings.Count(script, "\n") > 60 || len(script) > 4000 {
			return // keep each run short
		}
		e, err := NewEngine(Options{Seed: 1, ScoringPlayouts: 10, NoFiles: true}) // no file access from fuzzed scripts
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		done := make(chan error, 1)
		go func() { done <- e.Serve(context.Background(), strings.NewReader(script), &out) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second): // a hang detector, not a speed test
			t.Fatalf("HANG %q", script)
		}
		if strings.Contains(out.String(), "internal error") {
			t.Fatalf("internal error for script:\n%s\noutput:\n%s", script, out.String())
		}
	})
}

// TestPrintSGFLoadSGFRoundTrip writes a game with printsgf FILE and loads it
// back: the position, the captures and the player to move must survive.
func TestPrintSGFLoadSGFRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "game.sgf")
	c := newPipeClient(t, newTestEngine(t))
	ctx := context.Background()
	script := []string{"boardsize 9", "komi 3.5", "fixed_handicap 2", "play w E5", "play b E6", "play w A1",
		"play b D5", "play w A2", "play b F5", "play w pass", "play b E4", "play w A3", "play b B1"}
	for _, line := range script {
		f := strings.Fields(line)
		if _, err := c.Send(ctx, f[0], f[1:]...); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	query := func() string {
		var parts []string
		for _, q := range []string{"list_stones b", "list_stones w", "captures b", "captures w", "get_komi"} {
			f := strings.Fields(q)
			r, err := c.Send(ctx, f[0], f[1:]...)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, q+": "+r)
		}
		return strings.Join(parts, "\n")
	}
	before := query()
	if _, err := c.Send(ctx, "printsgf", file); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Send(ctx, "clear_board"); err != nil {
		t.Fatal(err)
	}
	toMove, err := c.Send(ctx, "loadsgf", file)
	if err != nil {
		t.Fatal(err)
	}
	if toMove != "white" {
		t.Errorf("after loadsgf %s is to move, want white", toMove)
	}
	if !strings.Contains(before, "captures b: 1") {
		t.Errorf("the game lacks its capture:\n%s", before)
	}
	if after := query(); after != before {
		t.Errorf("position changed by printsgf and loadsgf:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if _, err := c.Send(ctx, "undo"); err != nil {
		t.Errorf("undo after loadsgf: %v", err)
	}
}

func TestNoFiles(t *testing.T) {
	e, err := NewEngine(Options{NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := "known_command loadsgf\nprintsgf /tmp/x.sgf\nprintsgf\n"
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.HasPrefix(got, "= false\n\n? syntax error") || !strings.Contains(got, "\n\n= (;FF[4]") {
		t.Errorf("NoFiles engine answered:\n%s", got)
	}
}
