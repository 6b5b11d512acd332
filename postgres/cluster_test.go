package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/postgres"
	"tengen/postgres/pgtest"
	"tengen/storagetest"
)

// fakeNow is a clock that tests move by hand, shared by the instances.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) Add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

// clusterInstance is one instance's view of the shared database.
type clusterInstance struct {
	db      *postgres.DB
	s       storagetest.Services
	cluster *postgres.ClusterService
}

// openInstances opens n DBs on one fresh database, each with its cluster
// service (timeout 5 s) on the shared fake clock; register says which of
// them register as instances.
func openInstances(t *testing.T, clk *fakeNow, register ...bool) []*clusterInstance {
	t.Helper()
	url := pgtest.URL(t)
	var out []*clusterInstance
	for i, reg := range register {
		db := postgres.NewDB(url)
		db.Now = clk.Now
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		in := &clusterInstance{db: db, cluster: postgres.NewClusterService(db, 5*time.Second),
			s: storagetest.Services{Users: postgres.NewUserService(db), Challenges: postgres.NewChallengeService(db), Games: postgres.NewGameService(db)}}
		if reg {
			if _, err := in.cluster.Register(context.Background(), fmt.Sprintf("http://127.0.0.1:%d", 8081+i)); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, in)
	}
	return out
}

// newClusterGame creates two players and a game between them on in; it
// returns the game.
func newClusterGame(t *testing.T, in *clusterInstance, name string) *tengen.Game {
	t.Helper()
	ctx := context.Background()
	var users [2]*tengen.User
	for i := range users {
		users[i] = &tengen.User{Name: fmt.Sprintf("%s%d", name, i), PasswordHash: "x"}
		if err := in.s.Users.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	c := &tengen.Challenge{ChallengerID: users[0].ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
		Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
	if err := in.s.Challenges.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	g, err := in.s.Games.CreateGameFromChallenge(ctx, c.ID, users[1].ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// move stores move seq of the player to move in g through in.
func move(in *clusterInstance, g *tengen.Game, seq int) error {
	uid := g.BlackID
	if seq%2 == 0 {
		uid = g.WhiteID
	}
	m := &tengen.GameMove{GameID: g.ID, Seq: seq, Kind: tengen.MovePlay, X: seq % 9, Y: seq / 9}
	m.Color = g.ColorOf(uid)
	_, err := in.s.Games.AppendMove(context.Background(), uid, m, tengen.NextState(*m, false))
	return err
}

// TestClusterClaimRace races two registered instances on games that nobody
// owns: exactly one claims each, and the other learns who did.
func TestClusterClaimRace(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	in := openInstances(t, clk, true, true, false)
	ctx := context.Background()
	for round := range 5 {
		g := newClusterGame(t, in[2], fmt.Sprintf("r%d_", round)) // made by no instance: no owner
		var wg sync.WaitGroup
		owners := make([]*tengen.Instance, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owners[i], errs[i] = in[i].cluster.ClaimGame(ctx, g.ID)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: claim on %d: %v", round, i, err)
			}
		}
		if (owners[0] == nil) == (owners[1] == nil) {
			t.Fatalf("round %d: claims gave owners %v and %v; want exactly one claim", round, owners[0], owners[1])
		}
		winner, loser := 0, 1
		if owners[0] != nil {
			winner, loser = 1, 0
		}
		o, err := in[loser].cluster.Owner(ctx, g.ID)
		if err != nil || o == nil || *o != *owners[loser] {
			t.Fatalf("round %d: owner %v, %v; want %v", round, o, err, owners[loser])
		}
		// Only the winner may write; the other is fenced, and claims
		// nothing more by asking again.
		if err := move(in[loser], g, 1); tengen.ErrorCode(err) != tengen.ENOTOWNER {
			t.Errorf("round %d: move on the instance that lost the claim: %v, want %s", round, err, tengen.ENOTOWNER)
		}
		if again, err := in[loser].cluster.ClaimGame(ctx, g.ID); err != nil || again == nil {
			t.Errorf("round %d: second claim of the loser: %v, %v; want the owner", round, again, err)
		}
		if err := move(in[winner], g, 1); err != nil {
			t.Errorf("round %d: move on the owner: %v", round, err)
		}
	}
	if _, err := in[2].cluster.ClaimGame(ctx, 1); tengen.ErrorCode(err) != tengen.EINTERNAL {
		t.Errorf("claim before Register: %v, want %s", err, tengen.EINTERNAL)
	}
	if _, err := in[0].cluster.ClaimGame(ctx, 1<<40); tengen.ErrorCode(err) != tengen.ENOTFOUND {
		t.Errorf("claim of an unknown game: %v, want %s", err, tengen.ENOTFOUND)
	}
}

// TestClusterTakeover checks the life of an owner: its games are its own
// while it heartbeats; when its heartbeat is older than the timeout the
// other instance claims them, and the old owner's writes (move, update,
// takeback) are refused with ENOTOWNER while a stale move of the owner is
// still ECONFLICT; a released instance's games are claimed at once.
func TestClusterTakeover(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	in := openInstances(t, clk, true, true)
	a, b := in[0], in[1]
	ctx := context.Background()
	g1 := newClusterGame(t, a, "one")
	g2 := newClusterGame(t, a, "two")
	if err := move(a, g1, 1); err != nil {
		t.Fatal(err)
	}
	owned, err := a.cluster.Heartbeat(ctx)
	if err != nil || !slices.Equal(owned, []int64{g1.ID, g2.ID}) {
		t.Fatalf("heartbeat of the creator: %v, %v; want its games %d, %d", owned, err, g1.ID, g2.ID)
	}
	// Two live instances share the group commit's batches.
	if n := postgres.Writers(a.db); n != 2 {
		t.Errorf("batches at once with two live instances: %d, want 2", n)
	}
	if o, err := b.cluster.ClaimGame(ctx, g1.ID); err != nil || o == nil || o.Advertise != "http://127.0.0.1:8081" {
		t.Fatalf("claim of a live instance's game: %v, %v; want the owner", o, err)
	}
	if ids, err := b.cluster.ClaimOrphans(ctx, 100); err != nil || len(ids) != 0 {
		t.Fatalf("orphans while the owner lives: %v, %v", ids, err)
	}
	if err := move(b, g1, 2); tengen.ErrorCode(err) != tengen.ENOTOWNER {
		t.Fatalf("move through the other instance: %v, want %s", err, tengen.ENOTOWNER)
	}

	// a stops heartbeating; b goes on.
	clk.Add(4 * time.Second)
	if _, err := b.cluster.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	if ids, err := b.cluster.ClaimOrphans(ctx, 100); err != nil || len(ids) != 0 {
		t.Fatalf("orphans before the timeout: %v, %v", ids, err)
	}
	clk.Add(2 * time.Second)
	if _, err := b.cluster.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	if n := postgres.Writers(b.db); n != 4 {
		t.Errorf("batches at once with the other instance dead: %d, want 4", n)
	}
	if o, err := b.cluster.ClaimGame(ctx, g1.ID); err != nil || o != nil {
		t.Fatalf("claim after the owner's timeout: %v, %v; want claimed", o, err)
	}
	if ids, err := b.cluster.ClaimOrphans(ctx, 100); err != nil || !slices.Equal(ids, []int64{g2.ID}) {
		t.Fatalf("orphans after the timeout: %v, %v; want [%d]", ids, err, g2.ID)
	}
	// The old owner comes back: its writes are fenced off.
	if owned, err := a.cluster.Heartbeat(ctx); err != nil || len(owned) != 0 {
		t.Fatalf("heartbeat of the old owner: %v, %v; want no games", owned, err)
	}
	if err := move(a, g1, 2); tengen.ErrorCode(err) != tengen.ENOTOWNER {
		t.Errorf("old owner's move: %v, want %s", err, tengen.ENOTOWNER)
	}
	if _, err := a.s.Games.UpdateGame(ctx, g1.ID, 1, tengen.GameUpdate{ToMove: g1.ToMove.Opponent(), Status: tengen.GamePlaying}); tengen.ErrorCode(err) != tengen.ENOTOWNER {
		t.Errorf("old owner's update: %v, want %s", err, tengen.ENOTOWNER)
	}
	if _, err := a.s.Games.TakeBack(ctx, g1.ID, 1, tengen.GameUpdate{ToMove: g1.ToMove, Status: tengen.GamePlaying}); tengen.ErrorCode(err) != tengen.ENOTOWNER {
		t.Errorf("old owner's takeback: %v, want %s", err, tengen.ENOTOWNER)
	}
	if err := move(b, g1, 3); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("new owner's stale move: %v, want %s", err, tengen.ECONFLICT)
	}
	if err := move(b, g1, 2); err != nil {
		t.Errorf("new owner's move: %v", err)
	}
	if moves, err := b.s.Games.FindMoves(ctx, g1.ID, 0); err != nil || len(moves) != 2 {
		t.Errorf("moves stored: %d, %v; want 2", len(moves), err)
	}

	// b shuts down and releases: a (alive again) claims at once.
	if _, err := a.cluster.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.cluster.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if ids, err := a.cluster.ClaimOrphans(ctx, 1); err != nil || !slices.Equal(ids, []int64{g1.ID}) {
		t.Fatalf("orphans after release, limit 1: %v, %v; want [%d]", ids, err, g1.ID)
	}
	if ids, err := a.cluster.ClaimOrphans(ctx, 100); err != nil || !slices.Equal(ids, []int64{g2.ID}) {
		t.Fatalf("orphans after release: %v, %v; want [%d]", ids, err, g2.ID)
	}
	if _, err := b.cluster.Heartbeat(ctx); tengen.ErrorCode(err) != tengen.EINTERNAL {
		t.Errorf("heartbeat after release: %v, want %s", err, tengen.EINTERNAL)
	}

	// b restarts at its URL before its heartbeat is stale: the previous
	// run's games are free at once.
	g3 := newClusterGame(t, a, "three")
	if _, err := b.cluster.Register(ctx, "http://127.0.0.1:8082"); err != nil {
		t.Fatal(err)
	}
	if o, err := b.cluster.ClaimGame(ctx, g3.ID); err != nil || o == nil {
		t.Fatalf("claim of a live instance's game: %v, %v", o, err)
	}
	a2 := postgres.NewClusterService(a.db, 5*time.Second)
	if _, err := a2.Register(ctx, "http://127.0.0.1:8081"); err != nil {
		t.Fatal(err)
	}
	if o, err := b.cluster.ClaimGame(ctx, g3.ID); err != nil || o != nil {
		t.Fatalf("claim of a game whose owner restarted at its URL: %v, %v; want claimed", o, err)
	}

	// An instance dead for over an hour is removed by another's
	// heartbeat.
	clk.Add(2 * time.Hour)
	if _, err := a2.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.cluster.Heartbeat(ctx); tengen.ErrorCode(err) != tengen.EINTERNAL {
		t.Errorf("heartbeat of an instance dead for two hours: %v, want %s", err, tengen.EINTERNAL)
	}

	// Both share one secret.
	s1, err := a.cluster.Secret(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := b.cluster.Secret(ctx)
	if err != nil || !bytes.Equal(s1, s2) || len(s1) != 32 {
		t.Errorf("secrets %x and %x (%v); want one of 32 bytes", s1, s2, err)
	}
}
