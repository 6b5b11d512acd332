package load_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/internal/app"
	"tengen/internal/load"
)

// TestRunAgainstServer runs the generator for a second against a whole
// server (internal/app) and checks in the server's storage that every
// acknowledged move, and nothing else, was stored: the games that reached
// MaxMoves were resigned and replaced, and the cleanup resigned the rest.
func TestRunAgainstServer(t *testing.T) {
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{DBPath: filepath.Join(t.TempDir(), "tengen.db"), Synchronous: "NORMAL",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost,
		LoginBurst: 1000, ChallengeBurst: 1000, MaxSocketsPerAddress: 100})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	defer func() {
		srv.Close()
		a.Close(ctx)
	}()

	const games = 3
	res, err := load.Run(ctx, load.Config{URL: srv.URL, Games: games, Spectators: 4, Rate: 150, Duration: time.Second,
		BoardSize: 9, MaxMoves: 12, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	res.Report(&report)
	t.Log("\n" + report.String())
	if res.Errors != 0 {
		t.Fatalf("%d errors, first: %s", res.Errors, res.FirstError)
	}
	// 150 moves/s for a second, each game at most 12 moves long: some
	// games must have been replaced.
	if res.Moves < 30 || res.GamesPlayed <= games || res.Verified != res.GamesPlayed {
		t.Errorf("moves %d, games played %d, verified %d", res.Moves, res.GamesPlayed, res.Verified)
	}
	if res.Ack.N != res.Moves || res.Spectator.N == 0 || res.Ack.P50 <= 0 || res.Ack.P99 < res.Ack.P50 {
		t.Errorf("latencies: ack %+v, spectator %+v", res.Ack, res.Spectator)
	}
	if res.InProcess || res.CPU != 0 {
		t.Errorf("a server given by URL without a pid: in process %v, CPU %v", res.InProcess, res.CPU)
	}

	// The storage holds every acknowledged move: those measured and one
	// resignation per table at the cleanup; every game is finished.
	stored, n, err := a.Games.FindGames(ctx, tengen.GameFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if n != res.GamesPlayed {
		t.Errorf("%d games stored, %d played", n, res.GamesPlayed)
	}
	total := 0
	for _, g := range stored {
		moves, err := a.Games.FindMoves(ctx, g.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != tengen.GameFinished || len(moves) != g.MoveCount || len(moves) == 0 ||
			moves[len(moves)-1].Kind != tengen.MoveResign {
			t.Errorf("game %d: %s, move count %d, %d moves stored", g.ID, g.Status, g.MoveCount, len(moves))
		}
		total += len(moves)
	}
	if total != res.Moves+res.EndResigned || res.EndResigned == 0 || res.EndResigned > games {
		t.Errorf("%d moves stored, want %d acknowledged + %d resignations at the end", total, res.Moves, res.EndResigned)
	}
}

// TestRunInProcess runs the generator with its own server, as `tengen
// load` does without --url, and reports the process's resources.
func TestRunInProcess(t *testing.T) {
	res, err := load.Run(context.Background(), load.Config{Games: 2, Spectators: 2, Rate: 60, Duration: time.Second, Synchronous: "NORMAL", Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 0 || !res.InProcess || res.Moves == 0 || res.Verified != res.GamesPlayed || res.GamesPlayed != 2 {
		t.Errorf("errors %d (%s), in process %v, moves %d, games %d, verified %d", res.Errors, res.FirstError, res.InProcess, res.Moves, res.GamesPlayed, res.Verified)
	}
	if res.RSS <= 0 || res.PeakRSS < res.RSS {
		t.Errorf("memory: RSS %d, peak %d", res.RSS, res.PeakRSS)
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080", true},
		{"http://localhost:8080", true},
		{"http://[::1]:8080", true},
		{"http://127.0.0.2", true},
		{"http://192.168.1.10:8080", false},
		{"http://example.org", false},
		{"https://127.0.0.1:8443", false},
		{"http://0.0.0.0:8080", false},
		{"127.0.0.1:8080", false},
	} {
		err := load.CheckLoopback(tc.url)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.url, err)
		}
	}
	if _, err := load.Run(context.Background(), load.Config{URL: "http://192.0.2.1:8080", Games: 1}); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("non-loopback server: %v", err)
	}
}
