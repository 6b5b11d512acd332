package play_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/membus"
	"tengen/play"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// dyingCluster is a ClusterService whose instance can die: from then on its
// heartbeats fail and it releases nothing, as when its process is killed.
type dyingCluster struct {
	tengen.ClusterService
	dead atomic.Bool
}

func (d *dyingCluster) Heartbeat(ctx context.Context) ([]int64, error) {
	if d.dead.Load() {
		return nil, errors.New("cut off")
	}
	return d.ClusterService.Heartbeat(ctx)
}

func (d *dyingCluster) Release(ctx context.Context) error {
	if d.dead.Load() {
		return nil
	}
	return d.ClusterService.Release(ctx)
}

// peers is the tengen.Peer of services in one process: it calls the owner's
// PeerHandler directly, and fails for a dead one as a network would.
type peers struct {
	mu   sync.Mutex
	by   map[string]*play.Service
	dead map[string]bool
}

func (p *peers) get(o tengen.Instance) (*play.Service, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.dead[o.Advertise] || p.by[o.Advertise] == nil {
		return nil, fmt.Errorf("peer %s: %w", o.Advertise, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")})
	}
	return p.by[o.Advertise], nil
}

func (p *peers) Do(ctx context.Context, o tengen.Instance, gameID, userID int64, cmd tengen.Command) (*tengen.PeerSnapshot, error) {
	s, err := p.get(o)
	if err != nil {
		return nil, err
	}
	return s.PeerDo(ctx, gameID, userID, cmd)
}

func (p *peers) Snapshot(ctx context.Context, o tengen.Instance, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	s, err := p.get(o)
	if err != nil {
		return nil, err
	}
	return s.PeerSnapshot(ctx, gameID, userID)
}

func (p *peers) SGF(ctx context.Context, o tengen.Instance, gameID int64) ([]byte, error) {
	s, err := p.get(o)
	if err != nil {
		return nil, err
	}
	return s.PeerSGF(ctx, gameID)
}

// wrapGames, when set by a test, wraps the storage of instance i of the
// clusters it opens (the cluster tests do not run in parallel).
var wrapGames func(i int, g tengen.GameService) tengen.GameService

// slowGames holds every AppendMove until release is closed.
type slowGames struct {
	tengen.GameService
	release chan struct{}
}

func (g slowGames) AppendMove(ctx context.Context, by int64, m *tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, error) {
	<-g.release
	return g.GameService.AppendMove(ctx, by, m, upd)
}

// node is one instance of a cluster test.
type node struct {
	db      *postgres.DB
	svc     *play.Service
	cluster *dyingCluster
	url     string
}

// clusterNet is two or more services on one PostgreSQL database and one
// bus, with a game between black and white created on the first.
type clusterNet struct {
	t            *testing.T
	nodes        []*node
	peers        *peers
	black, white *tengen.User
	chal         tengen.ChallengeService
	bus          *membus.Bus
}

// openCluster opens n instances on the database at dbURL. It must run in
// the synctest bubble, since the services' timers and sweeps do. The
// instance timeout is 5 s; playTimeouts, when given, are the play services'
// own (how long they keep their games while their heartbeats fail).
func openCluster(t *testing.T, dbURL string, n int, playTimeouts ...time.Duration) *clusterNet {
	t.Helper()
	ctx := context.Background()
	bus := membus.New()
	cn := &clusterNet{t: t, peers: &peers{by: map[string]*play.Service{}, dead: map[string]bool{}}, bus: bus}
	for i := range n {
		db := postgres.NewDB(dbURL)
		db.MaxConns = 4
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		nd := &node{db: db, url: fmt.Sprintf("http://10.0.0.%d:8080", i+1)}
		nd.cluster = &dyingCluster{ClusterService: postgres.NewClusterService(db, 5*time.Second)}
		if _, err := nd.cluster.Register(ctx, nd.url); err != nil {
			t.Fatal(err)
		}
		users := postgres.NewUserService(db)
		if i == 0 {
			cn.black = &tengen.User{Name: "black", PasswordHash: "x"}
			cn.white = &tengen.User{Name: "white", PasswordHash: "x"}
			for _, u := range []*tengen.User{cn.black, cn.white} {
				if err := users.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			cn.chal = postgres.NewChallengeService(db)
		}
		timeout := 5 * time.Second
		if i < len(playTimeouts) {
			timeout = playTimeouts[i]
		}
		var games tengen.GameService = postgres.NewGameService(db)
		if wrapGames != nil {
			games = wrapGames(i, games)
		}
		nd.svc = play.New(play.Config{Games: games, Users: users, Challenges: postgres.NewChallengeService(db),
			CheckpointEvery: -1, ChallengeTTL: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Cluster: nd.cluster, Peer: cn.peers, Bus: bus, InstanceTimeout: timeout, SweepEvery: time.Second})
		if err := nd.svc.Open(ctx); err != nil {
			t.Fatal(err)
		}
		cn.peers.by[nd.url] = nd.svc
		cn.nodes = append(cn.nodes, nd)
	}
	return cn
}

// close closes every service and database.
func (cn *clusterNet) close() {
	for _, nd := range cn.nodes {
		nd.svc.Close()
		nd.db.Close()
	}
}

// newGame creates a game on node i with black as Black.
func (cn *clusterNet) newGame(i int, tc clock.TimeControl) *tengen.Game {
	cn.t.Helper()
	c := &tengen.Challenge{ChallengerID: cn.black.ID, Settings: settings(9, "japanese", tc)}
	if err := cn.chal.CreateChallenge(context.Background(), c); err != nil {
		cn.t.Fatal(err)
	}
	g, err := cn.nodes[i].svc.CreateGame(context.Background(), c.ID, cn.white.ID)
	if err != nil {
		cn.t.Fatal(err)
	}
	return g
}

// move plays move seq (Black on odd numbers) at a point of its own through
// node i.
func (cn *clusterNet) move(i int, g *tengen.Game, seq int) error {
	return cn.moveAt(i, g, seq, 0)
}

// moveAt plays move seq through node i on the rows from row on.
func (cn *clusterNet) moveAt(i int, g *tengen.Game, seq, row int) error {
	uid := cn.black.ID
	if seq%2 == 0 {
		uid = cn.white.ID
	}
	_, err := cn.nodes[i].svc.Do(context.Background(), g.ID, uid, tengen.Command{Kind: tengen.CommandMove,
		Move: tengen.MoveCommand{Seq: seq, Kind: tengen.MovePlay, X: seq % 9, Y: row + seq/9%9}, Quiet: true})
	return err
}

// recorder collects a watcher's events.
type recorder struct {
	mu  sync.Mutex
	evs []*tengen.GameEvent
}

// sink records ev decoded: events of a game owned by another instance
// come with only their JSON and type (PlayService.Watch).
func (r *recorder) sink(ev *tengen.GameEvent) {
	if ev.Type != tengen.EventGame {
		full, err := tengen.GameEventFromJSON(ev.JSON())
		if err != nil {
			panic(err)
		}
		ev = full
	}
	r.mu.Lock()
	r.evs = append(r.evs, ev)
	r.mu.Unlock()
}

// take returns the events so far in a short form (a move as move:SEQ) and
// forgets them.
func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.evs {
		s := ev.Type
		if ev.Move != nil {
			s += fmt.Sprint(":", ev.Move.Seq)
		}
		out = append(out, s)
	}
	r.evs = nil
	return strings.Join(out, " ")
}

// last returns the last event, nil when there is none.
func (r *recorder) last() *tengen.GameEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.evs) == 0 {
		return nil
	}
	return r.evs[len(r.evs)-1]
}

// continuesTo reports whether the events since the last snapshot are the
// moves after it up to move n, in order, and the snapshot is not the
// first event (the watcher started again).
func (r *recorder) continuesTo(n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	last := -1
	for i, ev := range r.evs {
		if ev.Type == tengen.EventGame {
			last = i
		}
	}
	if last < 1 {
		return false
	}
	k := len(r.evs[last].State.Moves)
	for _, ev := range r.evs[last+1:] {
		if ev.Type != tengen.EventMove || ev.Move.Seq != k+1 {
			return false
		}
		k++
	}
	return k == n
}

func (cn *clusterNet) watch(i int, g *tengen.Game) *recorder {
	cn.t.Helper()
	r := &recorder{}
	stop, err := cn.nodes[i].svc.Watch(context.Background(), g.ID, 0, r.sink)
	if err != nil {
		cn.t.Fatal(err)
	}
	cn.t.Cleanup(stop)
	return r
}

// TestClusterPlay plays one game through two instances: of two concurrent
// moves with the same number exactly one wins, whichever instance gets it;
// a watcher on the instance that does not own the game sees every event in
// the owner's order; snapshots and records come from the owner.
func TestClusterPlay(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		local, remote := cn.watch(0, g), cn.watch(1, g)
		// A second watcher on the same instance shares its subscription;
		// it stops half way, and the first goes on.
		second := &recorder{}
		stopSecond, err := cn.nodes[1].svc.Watch(context.Background(), g.ID, cn.white.ID, second.sink)
		if err != nil {
			t.Fatal(err)
		}
		for seq := 1; seq <= 20; seq++ {
			if seq == 11 {
				synctest.Wait()
				stopSecond()
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = cn.moveAt(i, g, seq, 4*i) // another point on each
				}()
			}
			wg.Wait()
			won := 0
			for i, err := range errs {
				switch {
				case err == nil:
					won++
				case tengen.ErrorCode(err) != tengen.ECONFLICT:
					t.Fatalf("move %d through instance %d: %v, want success or %s", seq, i, err, tengen.ECONFLICT)
				}
			}
			if won != 1 {
				t.Fatalf("move %d: %d of two stored (%v), want exactly one", seq, won, errs)
			}
		}
		synctest.Wait()
		if got := second.take(); !strings.HasSuffix(got, "move:10") || strings.Count(got, "move:") != 10 {
			t.Errorf("second watcher on the other instance saw %s; want moves 1 to 10", got)
		}
		want := local.take()
		if got := remote.take(); got != want || !strings.HasSuffix(want, "move:20") {
			t.Errorf("watcher on the other instance saw\n%s\nthe owner's saw\n%s", got, want)
		}
		for i := range 2 {
			snap, err := cn.nodes[i].svc.Snapshot(context.Background(), g.ID, cn.black.ID)
			if err != nil || len(snap.Moves) != 20 || snap.You != goban.Black {
				t.Fatalf("snapshot on instance %d: %v; want 20 moves as Black", i, err)
			}
			rec, err := cn.nodes[i].svc.SGF(context.Background(), g.ID)
			if err != nil || strings.Count(string(rec), ";B[")+strings.Count(string(rec), ";W[") != 20 {
				t.Errorf("record on instance %d: %v\n%s", i, err, rec)
			}
		}
		if n := cn.nodes[1].svc.LiveGames(); n != 0 {
			t.Errorf("the instance that does not own the game holds %d games", n)
		}
	})
}

// TestClusterPublishesFollowedGames: the owner publishes a game's events on
// the bus only once another instance follows the game; the watcher there
// then sees every move after its snapshot.
func TestClusterPublishesFollowedGames(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		var mu sync.Mutex
		published := 0
		stop := cn.bus.Subscribe(tengen.GameTopic(g.ID), func([]byte) {
			mu.Lock()
			published++
			mu.Unlock()
		})
		defer stop()
		count := func() int {
			synctest.Wait()
			mu.Lock()
			defer mu.Unlock()
			n := published
			published = 0
			return n
		}
		// moves plays moves from and from+1 on the owner and returns the
		// events published meanwhile.
		moves := func(from int) int {
			for seq := from; seq <= from+1; seq++ {
				if err := cn.move(0, g, seq); err != nil {
					t.Fatal(err)
				}
			}
			return count()
		}
		local := cn.watch(0, g)
		if n := moves(1); n != 0 {
			t.Errorf("%d events on the bus with no watcher elsewhere, want 0", n)
		}
		remote := cn.watch(1, g)
		if n := moves(3); n != 2 {
			t.Errorf("%d events on the bus with a watcher elsewhere, want 2", n)
		}
		if got, want := remote.take(), "game move:3 move:4"; got != want {
			t.Errorf("watcher elsewhere: %q, want %q", got, want)
		}
		if got, want := local.take(), "game move:1 move:2 move:3 move:4"; got != want {
			t.Errorf("watcher on the owner: %q, want %q", got, want)
		}
	})
}

// TestClusterTakeover kills the instance that owns a game with a clock: the
// other takes the game over within the instance timeout, no acknowledged
// move is lost, the clock does not charge the time the game had no owner,
// the watcher on the survivor follows on, and the game goes on. The dead
// instance, cut off, drops the game itself once its heartbeat has failed
// for the timeout.
func TestClusterTakeover(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		tc := clock.TimeControl{Kind: clock.Absolute, MainTime: 10 * time.Minute}
		g := cn.newGame(0, tc)
		remote := cn.watch(1, g)
		for seq := 1; seq <= 4; seq++ {
			if err := cn.move(seq%2, g, seq); err != nil {
				t.Fatalf("move %d: %v", seq, err)
			}
			time.Sleep(10 * time.Second) // each player thinks 10 s
		}
		synctest.Wait()
		if got := remote.take(); got != "game move:1 move:2 move:3 move:4" {
			t.Fatalf("watcher before the death: %s", got)
		}
		before, err := cn.nodes[1].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		// Black has thought 10 s since move 4, then the owner dies.
		dead := time.Now()
		cn.nodes[0].cluster.dead.Store(true)
		cn.peers.mu.Lock()
		cn.peers.dead[cn.nodes[0].url] = true
		cn.peers.mu.Unlock()
		if err := cn.move(1, g, 5); err == nil {
			t.Fatal("move through the survivor stored while the dead owner holds the game")
		} else if code := tengen.ErrorCode(err); code != tengen.ENOTOWNER {
			// Not an internal error: the user may try again (HTTP 503).
			t.Errorf("move while the owner does not answer: %v (code %s), want %s", err, code, tengen.ENOTOWNER)
		}
		time.Sleep(5*time.Second + 2*time.Second) // the timeout and a sweep
		synctest.Wait()
		if n := cn.nodes[0].svc.LiveGames(); n != 0 {
			t.Errorf("the cut-off instance still holds %d games", n)
		}
		if n := cn.nodes[1].svc.LiveGames(); n != 1 {
			t.Fatalf("the survivor holds %d games, want the one it took over", n)
		}
		after, err := cn.nodes[1].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Moves) != 4 {
			t.Errorf("moves after the takeover: %d, want 4", len(after.Moves))
		}
		// The clock runs from the takeover, charged as it was stored with
		// move 4: the 10 s Black thought before the death and the time
		// without owner are not charged.
		if after.Clock == nil || after.Clock.RunningSince == nil || after.Clock.RunningSince.Before(dead.Add(5*time.Second)) ||
			after.Clock.Black != before.Clock.Black || after.Clock.White != before.Clock.White {
			t.Errorf("clock after the takeover: %+v; before %+v, the death at %v", after.Clock, before.Clock, dead)
		}
		// The new owner announces itself: the watcher starts again from
		// its snapshot, with the clock as it runs now.
		if ev := remote.last(); ev == nil || ev.Type != tengen.EventGame || len(ev.State.Moves) != 4 || *ev.State.Clock.RunningSince != *after.Clock.RunningSince {
			t.Fatalf("watcher after the takeover: %+v, want a snapshot with 4 moves and the new clock", ev)
		}
		if got := remote.take(); got != "game" {
			t.Errorf("watcher after the takeover: %s, want game", got)
		}
		for seq := 5; seq <= 8; seq++ {
			if err := cn.move(seq%2, g, seq); err != nil {
				t.Fatalf("move %d after the takeover: %v", seq, err)
			}
		}
		synctest.Wait()
		if got := remote.take(); got != "move:5 move:6 move:7 move:8" {
			t.Errorf("watcher after the takeover: %s; want moves 5 to 8", got)
		}
	})
}

// TestClusterRelease closes an instance gracefully: the other takes its game
// over at its next sweep, without waiting for the timeout.
func TestClusterRelease(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		if err := cn.move(1, g, 1); err != nil {
			t.Fatal(err)
		}
		if err := cn.nodes[0].svc.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if n := cn.nodes[1].svc.LiveGames(); n != 1 {
			t.Fatalf("games on the survivor 1.5 s after the other closed: %d, want 1", n)
		}
		if err := cn.move(1, g, 2); err != nil {
			t.Fatal(err)
		}
	})
}

// TestClusterFence lets the owner of a game fall silent without knowing it
// (its heartbeats fail, but it keeps its games for a minute): the other
// instance takes the game over after the timeout, and the old owner's next
// move is refused by storage, which makes it drop the game and forward the
// move to the new owner, where it is stored once.
func TestClusterFence(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2, time.Minute)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		watcher := cn.watch(0, g)
		if err := cn.move(0, g, 1); err != nil {
			t.Fatal(err)
		}
		cn.nodes[0].cluster.dead.Store(true)
		time.Sleep(7 * time.Second)
		synctest.Wait()
		if a, b := cn.nodes[0].svc.LiveGames(), cn.nodes[1].svc.LiveGames(); a != 1 || b != 1 {
			t.Fatalf("games held: %d and %d, want the old owner's stale copy and the new owner's", a, b)
		}
		if err := cn.move(0, g, 2); err != nil {
			t.Fatalf("move through the old owner: %v", err)
		}
		if n := cn.nodes[0].svc.LiveGames(); n != 0 {
			t.Errorf("the old owner still holds %d games after its write was refused", n)
		}
		snap, err := cn.nodes[1].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil || len(snap.Moves) != 2 {
			t.Fatalf("snapshot on the new owner: %v", err)
		}
		// The old owner's watcher moved to the new owner: a new snapshot,
		// then the events.
		synctest.Wait()
		if err := cn.move(1, g, 3); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if !watcher.continuesTo(3) {
			t.Errorf("watcher on the old owner saw %s", watcher.take())
		}
	})
}

// TestClusterHeartbeatLost cuts one instance off from heartbeating for
// longer than the timeout while nobody else could take its games: it drops
// them, and when its heartbeats come back it loads them again, so that
// their clocks and timers run.
func TestClusterHeartbeatLost(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 1)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.Absolute, MainTime: time.Minute})
		for seq := 1; seq <= 2; seq++ {
			if err := cn.move(0, g, seq); err != nil {
				t.Fatal(err)
			}
		}
		cn.nodes[0].cluster.dead.Store(true)
		time.Sleep(6 * time.Second)
		synctest.Wait()
		if n := cn.nodes[0].svc.LiveGames(); n != 0 {
			t.Fatalf("games held after the heartbeat failed for the timeout: %d", n)
		}
		cn.nodes[0].cluster.dead.Store(false)
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if n := cn.nodes[0].svc.LiveGames(); n != 1 {
			t.Fatalf("games held after the heartbeat came back: %d, want 1", n)
		}
		// Its timer runs again: Black's minute runs out.
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		snap, err := cn.nodes[0].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil || snap.Game.Status != tengen.GameFinished || snap.Game.Result != "W+T" {
			t.Fatalf("game after Black's minute: %+v, %v; want W+T", snap.Game, err)
		}
	})
}

// TestClusterVacation starts and ends a vacation on the instance that does
// not hold the player's correspondence game: the vacation reaches the game
// on its owner, whose clock then stands still on the player's turn.
func TestClusterVacation(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		ctx := context.Background()
		g := cn.newGame(0, clock.CorrespondenceDays(3, 10))
		onVacation := func() bool {
			t.Helper()
			snap, err := cn.nodes[0].svc.Snapshot(ctx, g.ID, cn.black.ID)
			if err != nil {
				t.Fatal(err)
			}
			return snap.Vacation != nil && snap.Vacation.Black != nil
		}
		if onVacation() {
			t.Fatal("black on vacation before it began")
		}
		if _, err := cn.nodes[1].svc.StartVacation(ctx, cn.black.ID, 3); err != nil {
			t.Fatalf("vacation through the instance that does not hold the game: %v", err)
		}
		if !onVacation() {
			t.Error("the owner's game does not show the vacation started on the other instance")
		}
		if _, err := cn.nodes[1].svc.EndVacation(ctx, cn.black.ID); err != nil {
			t.Fatalf("end of vacation through the other instance: %v", err)
		}
		if onVacation() {
			t.Error("the owner's game still shows the vacation ended on the other instance")
		}
		// Nobody else sends a vacation into a game: the command reads the
		// account, so a player who is not on vacation changes nothing.
		if _, err := cn.nodes[1].svc.Do(ctx, g.ID, cn.black.ID, tengen.Command{Kind: tengen.CommandVacation}); err != nil {
			t.Fatal(err)
		}
		if onVacation() {
			t.Error("a vacation command without a vacation stopped the clock")
		}
	})
}

// TestClusterAnswerAfterEvents forwards moves from the instance that does
// not own the game, where a watcher follows it: when Do returns, that
// watcher has the move already, so that a player's socket gets the move
// event before the answer to the move, as with one instance.
func TestClusterAnswerAfterEvents(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		remote := cn.watch(1, g)
		synctest.Wait()
		remote.take()
		for seq := 1; seq <= 10; seq++ {
			if err := cn.move(1, g, seq); err != nil {
				t.Fatalf("move %d: %v", seq, err)
			}
			// No synctest.Wait: the answer itself must come after the event.
			if got := remote.take(); got != fmt.Sprint("move:", seq) {
				t.Fatalf("watcher on the forwarding instance when move %d was answered: %q", seq, got)
			}
		}
	})
}

// TestClusterStaleCopy sends the real game's next move to the old owner
// of a game while it still holds its copy (its heartbeats fail, but it
// keeps its games for a minute) and the new owner has moved on: the move is
// not refused as "not the next move" of the stale copy, but forwarded and
// stored.
func TestClusterStaleCopy(t *testing.T) {
	dbURL := pgtest.URL(t)
	synctest.Test(t, func(t *testing.T) {
		cn := openCluster(t, dbURL, 2, time.Minute)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		if err := cn.move(0, g, 1); err != nil {
			t.Fatal(err)
		}
		cn.nodes[0].cluster.dead.Store(true)
		time.Sleep(7 * time.Second)
		synctest.Wait()
		if a, b := cn.nodes[0].svc.LiveGames(), cn.nodes[1].svc.LiveGames(); a != 1 || b != 1 {
			t.Fatalf("games held: %d and %d, want the old owner's stale copy and the new owner's", a, b)
		}
		for seq := 2; seq <= 3; seq++ {
			if err := cn.move(1, g, seq); err != nil {
				t.Fatalf("move %d through the new owner: %v", seq, err)
			}
		}
		if err := cn.move(0, g, 4); err != nil {
			t.Fatalf("the real game's next move through the old owner: %v", err)
		}
		snap, err := cn.nodes[1].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil || len(snap.Moves) != 4 {
			t.Fatalf("snapshot on the new owner: %d moves, %v; want 4", len(snap.Moves), err)
		}
		// A move that is really out of date (a number taken by another
		// move) is still refused, now by the new owner.
		if err := cn.moveAt(0, g, 3, 5); tengen.ErrorCode(err) != tengen.ECONFLICT {
			t.Errorf("another move 3 through the old owner: %v, want %s", err, tengen.ECONFLICT)
		}
	})
}

// TestClusterBusyOwner holds a move of the owner's game in storage (as a
// commit under load does, with the game's lock held) for longer than the
// instance timeout: the owner's heartbeat goes on meanwhile, so the other
// instance does not take the game over, and the move is stored once it is
// let go.
func TestClusterBusyOwner(t *testing.T) {
	dbURL := pgtest.URL(t)
	defer func() { wrapGames = nil }()
	synctest.Test(t, func(t *testing.T) {
		// Made in the bubble, so that a move waiting for it is durably
		// blocked and the bubble's clock runs meanwhile.
		release := make(chan struct{})
		wrapGames = func(i int, g tengen.GameService) tengen.GameService {
			if i == 0 {
				return slowGames{GameService: g, release: release}
			}
			return g
		}
		cn := openCluster(t, dbURL, 2)
		defer cn.close()
		g := cn.newGame(0, clock.TimeControl{Kind: clock.None})
		done := make(chan error, 1)
		go func() { done <- cn.move(0, g, 1) }()
		time.Sleep(8 * time.Second)
		synctest.Wait()
		if n := cn.nodes[1].svc.LiveGames(); n != 0 {
			t.Errorf("the other instance took over %d games while the owner's move waited for storage", n)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("the move that waited: %v", err)
		}
		snap, err := cn.nodes[1].svc.Snapshot(context.Background(), g.ID, 0)
		if err != nil || len(snap.Moves) != 1 {
			t.Fatalf("snapshot through the other instance: %v", err)
		}
	})
}
