package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tengen"
)

// BenchmarkFindSession measures the session lookup that every request of a
// logged-in user makes, and each WebSocket every few seconds.
func BenchmarkFindSession(b *testing.B) {
	db, s := openBench(b, filepath.Join(b.TempDir(), "bench.db"), "FULL")
	defer db.Close()
	ctx := context.Background()
	u := &tengen.User{Name: "sessions", PasswordHash: "x"}
	if err := s.Users.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	sess, err := s.Sessions.CreateSession(ctx, u.ID, time.Now().Add(time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if got, err := s.Sessions.FindSession(ctx, sess.Token); err != nil || got.UserID != u.ID {
				b.Fatalf("FindSession = %v, %v", got, err)
			}
		}
	})
}
