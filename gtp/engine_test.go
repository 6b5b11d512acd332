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
		e, err := NewEngine(Options{Seed: 1, ScoringPlayouts: 10})
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
