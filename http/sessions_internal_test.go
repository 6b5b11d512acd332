package http

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tengen"
)

// countingSessions is a SessionService whose FindSession counts its calls
// and finds the one session until it is ended.
type countingSessions struct {
	tengen.SessionService
	sess    tengen.Session
	ended   bool
	lookups int
}

func (s *countingSessions) FindSession(ctx context.Context, token string) (*tengen.Session, error) {
	s.lookups++
	if s.ended || token != s.sess.Token {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Session not found.")
	}
	sess := s.sess
	return &sess, nil
}

// TestWSSessionRecheck checks the bounded staleness of a socket's session
// (wsSessionLive): the first command looks the session up, later ones
// trust that lookup for less than wsSessionRecheck, and an ended session
// stops the socket at the first command after that; a session past its
// expiry is looked up again at once.
func TestWSSessionRecheck(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	type step struct {
		at          time.Duration // after t0
		end         bool          // end the session in storage before the command
		live        bool
		wantLookups int
	}
	tests := []struct {
		name    string
		expires time.Duration // after t0
		steps   []step
	}{
		{"ended elsewhere", time.Hour, []step{
			{at: 0, live: true, wantLookups: 1},
			{at: 500 * time.Millisecond, live: true, wantLookups: 1},
			{at: 900 * time.Millisecond, end: true, live: true, wantLookups: 1}, // the documented staleness
			{at: wsSessionRecheck, live: false, wantLookups: 2},
		}},
		{"still there", time.Hour, []step{
			{at: 0, live: true, wantLookups: 1},
			{at: wsSessionRecheck - time.Millisecond, live: true, wantLookups: 1},
			{at: wsSessionRecheck, live: true, wantLookups: 2},
			{at: 2*wsSessionRecheck - time.Millisecond, live: true, wantLookups: 2},
		}},
		{"expired", 300 * time.Millisecond, []step{
			{at: 0, live: true, wantLookups: 1},
			{at: 200 * time.Millisecond, live: true, wantLookups: 1},
			{at: 300 * time.Millisecond, end: true, live: false, wantLookups: 2},
		}},
	}
	a, err := loadAssets()
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadPages(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0
			sessions := &countingSessions{sess: tengen.Session{Token: "tok", UserID: 7, ExpiresAt: t0.Add(tt.expires)}}
			s := &Server{cfg: Config{Now: func() time.Time { return now }}, svc: Services{Sessions: sessions},
				log: slog.New(slog.NewTextHandler(io.Discard, nil)), pages: p}
			c := &wsClient{session: "tok", userID: 7, send: newSendQueue(), ended: make(chan struct{})}
			for i, st := range tt.steps {
				now = t0.Add(st.at)
				if st.end {
					sessions.ended = true
				}
				if got := s.wsSessionLive(context.Background(), c, "m"); got != st.live {
					t.Errorf("step %d (%v): live = %v, want %v", i, st.at, got, st.live)
				}
				if sessions.lookups != st.wantLookups {
					t.Errorf("step %d (%v): %d lookups, want %d", i, st.at, sessions.lookups, st.wantLookups)
				}
			}
			last := tt.steps[len(tt.steps)-1]
			select {
			case <-c.ended:
				if last.live {
					t.Error("a live socket was ended")
				} else if c.status != websocket.StatusPolicyViolation {
					t.Errorf("ended with %v, want a policy violation", c.status)
				}
			default:
				if !last.live {
					t.Error("the socket of an ended session was not ended")
				}
			}
		})
	}
}
