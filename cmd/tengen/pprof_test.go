package main

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestServePprof checks that the profiles are served on a loopback address
// only: any other address is refused before anything listens.
func TestServePprof(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, addr := range []string{":6060", "0.0.0.0:6060", "10.0.0.5:6060", "example.org:6060", "6060"} {
		if _, stop, err := servePprof(addr, log); err == nil {
			stop()
			t.Errorf("servePprof(%q) listened, want an error", addr)
		}
	}
	at, stop, err := servePprof("127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := http.Get("http://" + at.String() + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile") {
		t.Errorf("GET /debug/pprof/goroutine: %s\n%.300s", res.Status, body)
	}
}
