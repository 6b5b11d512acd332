package gtp

import "testing"

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
