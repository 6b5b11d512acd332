package http_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	nethttp "net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	tengenhttp "tengen/http"
	"tengen/sqlite"
)

// fakePeerHandler answers peer calls from fixed data and records them.
type fakePeerHandler struct {
	mu    sync.Mutex
	calls []string
}

func (f *fakePeerHandler) note(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *fakePeerHandler) PeerDo(ctx context.Context, gameID, userID int64, cmd tengen.Command) (*tengen.PeerSnapshot, error) {
	f.note("do")
	if cmd.Move.Seq != 3 {
		return nil, tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", cmd.Move.Seq, 2)
	}
	return &tengen.PeerSnapshot{State: &tengen.GameSnapshot{Game: &tengen.Game{ID: gameID, MoveCount: 3, BlackID: userID}, Moves: []*tengen.GameMove{{Seq: 3, X: cmd.Move.X}}}, Epoch: 77, N: 6}, nil
}

func (f *fakePeerHandler) PeerSnapshot(ctx context.Context, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	f.note("snapshot")
	return &tengen.PeerSnapshot{State: &tengen.GameSnapshot{Game: &tengen.Game{ID: gameID}}, Epoch: 77, N: 5}, nil
}

func (f *fakePeerHandler) PeerSGF(ctx context.Context, gameID int64) ([]byte, error) {
	f.note("sgf")
	if gameID != 1 {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	}
	return []byte("(;GM[1]SZ[9];B[cc])"), nil
}

// TestPeerCalls runs the peer client against the peer endpoints: signed
// calls reach the handler and its errors come back as the same errors;
// unsigned, wrongly signed and foreign-secret calls are refused without
// reaching it, and the secret appears in no log.
func TestPeerCalls(t *testing.T) {
	db := sqlite.NewDB(filepath.Join(t.TempDir(), "tengen.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	secret := []byte("0123456789abcdef0123456789abcdef")
	var logs bytes.Buffer
	var logMu sync.Mutex
	h := &fakePeerHandler{}
	s, err := tengenhttp.NewServer(tengenhttp.Config{Addr: "127.0.0.1:0", BaseURL: "http://127.0.0.1", BcryptCost: bcrypt.MinCost,
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug})), PeerSecret: secret},
		tengenhttp.Services{Users: sqlite.NewUserService(db), Sessions: sqlite.NewSessionService(db), Challenges: sqlite.NewChallengeService(db),
			Games: sqlite.NewGameService(db), Play: openPlay(t, db), Peer: h})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	owner := tengen.Instance{ID: 1, Advertise: srv.URL}
	ctx := context.Background()
	c := tengenhttp.NewPeerClient(secret)

	ps, err := c.Do(ctx, owner, 1, 42, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 3, Kind: tengen.MovePlay, X: 4}})
	if err != nil || ps.Epoch != 77 || ps.N != 6 {
		t.Fatalf("do: %+v, %v", ps, err)
	}
	if snap := ps.State; snap.Game.MoveCount != 3 || snap.Game.BlackID != 42 || snap.Moves[0].X != 4 {
		t.Fatalf("do: %+v", snap)
	}
	_, err = c.Do(ctx, owner, 1, 42, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 5}})
	var te *tengen.Error
	if !errors.As(err, &te) || te.Code != tengen.ECONFLICT || te.Message != "Move 5 is not the next move; the game is at move 2." ||
		te.Format != "Move %d is not the next move; the game is at move %d." || len(te.Args) != 2 || te.Args[0] != int64(5) {
		t.Errorf("refused do: %#v", err)
	}
	ps, err = c.Snapshot(ctx, owner, 9, 0)
	if err != nil || ps.Epoch != 77 || ps.N != 5 || ps.State.Game.ID != 9 {
		t.Errorf("snapshot: %+v, %v", ps, err)
	}
	rec, err := c.SGF(ctx, owner, 1)
	if err != nil || string(rec) != "(;GM[1]SZ[9];B[cc])" {
		t.Errorf("sgf: %q, %v", rec, err)
	}
	if _, err := c.SGF(ctx, owner, 2); tengen.ErrorCode(err) != tengen.ENOTFOUND {
		t.Errorf("sgf of an unknown game: %v", err)
	}
	calls := len(h.calls)

	// Refused calls.
	if _, err := tengenhttp.NewPeerClient([]byte("another secret")).Snapshot(ctx, owner, 1, 0); err == nil || tengen.ErrorCode(err) != tengen.EINTERNAL {
		t.Errorf("call with a foreign secret: %v, want a failure", err)
	}
	for _, tc := range []struct {
		header string
		want   int
	}{
		{"", nethttp.StatusUnauthorized},
		{"garbage", nethttp.StatusForbidden},
		{"1700000000.00", nethttp.StatusForbidden},
	} {
		req, _ := nethttp.NewRequest("POST", srv.URL+"/internal/v1/games/1/do", strings.NewReader(`{"userId":1,"command":{"Kind":"resign"}}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.header != "" {
			req.Header.Set("X-Tengen-Peer", tc.header)
		}
		resp, err := nethttp.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("peer call with header %q: %s, want %d", tc.header, resp.Status, tc.want)
		}
	}
	if len(h.calls) != calls {
		t.Errorf("refused calls reached the handler: %v", h.calls[calls:])
	}
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(logs.String(), string(secret)) || !strings.Contains(logs.String(), "peer call refused") {
		t.Errorf("logs:\n%s", logs.String())
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
