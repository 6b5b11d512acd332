package http

import (
	"testing"

	"tengen"
)

// TestAnalysisStreamsPerUser checks the bound on one user's whole-game
// analyses at once.
func TestAnalysisStreamsPerUser(t *testing.T) {
	var a analysisStreams
	for range maxAnalysisStreams {
		if err := a.enter(1); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.enter(1); tengen.ErrorCode(err) != tengen.ERATELIMIT {
		t.Fatalf("one stream too many: %v, want ERATELIMIT", err)
	}
	if err := a.enter(2); err != nil {
		t.Fatalf("another user: %v", err)
	}
	a.leave(1)
	if err := a.enter(1); err != nil {
		t.Fatalf("after one stream ended: %v", err)
	}
	for range maxAnalysisStreams {
		a.leave(1)
	}
	a.leave(2)
	if len(a.n) != 0 {
		t.Errorf("counts left: %v", a.n)
	}
}
