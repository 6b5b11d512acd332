package storagetest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"tengen"
	"tengen/clock"
)

// BenchAppendMove measures durable move commits on s, for every backend's
// BenchmarkAppendMove: every iteration is one committed move, spread over
// 64 concurrent games. Each of start, if any, runs when the timed moves
// begin (after the games are set up), so that a backend can count what the
// moves alone cost: statements, round trips.
func BenchAppendMove(b *testing.B, s Services, start ...func()) {
	ctx := context.Background()
	const games = 64
	type player struct {
		g     *tengen.Game
		users [2]*tengen.User
		seq   int
	}
	ps := make(chan *player, games)
	for i := range games {
		g, users := BenchGame(b, s, i)
		ps <- &player{g: g, users: users}
	}
	var failed atomic.Int64
	for _, f := range start {
		f()
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := <-ps
			p.seq++
			u := p.users[(p.seq-1)%2]
			m := &tengen.GameMove{GameID: p.g.ID, Seq: p.seq, Kind: tengen.MovePlay, X: p.seq % 25, Y: (p.seq / 25) % 25}
			m.Color = p.g.ColorOf(u.ID)
			if _, err := s.Games.AppendMove(ctx, u.ID, m, tengen.NextState(*m, false)); err != nil {
				failed.Add(1)
			}
			ps <- p
		}
	})
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d moves failed", n)
	}
}

// BenchGame creates the users black<i> and white<i> and a 25×25 game
// between them without a clock.
func BenchGame(b *testing.B, s Services, i int) (*tengen.Game, [2]*tengen.User) {
	b.Helper()
	ctx := context.Background()
	black := &tengen.User{Name: fmt.Sprintf("black%d", i), PasswordHash: "x"}
	white := &tengen.User{Name: fmt.Sprintf("white%d", i), PasswordHash: "x"}
	for _, u := range []*tengen.User{black, white} {
		if err := s.Users.CreateUser(ctx, u); err != nil {
			b.Fatal(err)
		}
	}
	c := &tengen.Challenge{ChallengerID: black.ID, Settings: tengen.GameSettings{BoardSize: 25, Ruleset: "chinese",
		Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
	if err := s.Challenges.CreateChallenge(ctx, c); err != nil {
		b.Fatal(err)
	}
	g, err := s.Games.CreateGameFromChallenge(ctx, c.ID, white.ID, nil)
	if err != nil {
		b.Fatal(err)
	}
	return g, [2]*tengen.User{black, white}
}
