package play_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/play"
	"tengen/sgf"
	"tengen/sqlite"
)

// fakeClock is a manual clock with timers that fire when Advance passes
// their time.
type fakeClock struct {
	mu     sync.Mutex // guards now and timers
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Advance moves the time on and runs the timers that are due, in order.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !t.at.After(c.now):
			t.stopped = true
			due = append(due, t)
		default:
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	slices.SortFunc(due, func(a, b *fakeTimer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}

type env struct {
	t      *testing.T
	path   string
	db     *sqlite.DB
	games  *sqlite.GameService
	svc    *play.Service
	clock  *fakeClock
	black  *tengen.User
	white  *tengen.User
	carol  *tengen.User
	events []*tengen.GameEvent
	// changed, if set, becomes the service's Config.Changed at start.
	changed func(before, after *tengen.Game, events []*tengen.GameEvent)
	// configure changes the service's Config at start, after the env's
	// settings.
	configure []func(*play.Config)
}

func openDB(t *testing.T, path string) (*sqlite.DB, *sqlite.GameService) {
	t.Helper()
	db := sqlite.NewDB(path)
	db.Synchronous = "NORMAL"
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	return db, sqlite.NewGameService(db)
}

// newEnv returns an env on a fake clock with its service started; each of
// configure changes the service's Config first.
func newEnv(t *testing.T, configure ...func(*play.Config)) *env {
	t.Helper()
	return startEnv(newEnvDB(t, newFakeClock()), configure)
}

// newRealTimeEnv is newEnv on the real clock, for tests inside a synctest
// bubble, where time moves only when every goroutine waits.
func newRealTimeEnv(t *testing.T, configure ...func(*play.Config)) *env {
	t.Helper()
	return startEnv(newEnvDB(t, nil), configure)
}

// startEnv starts e's service with configure and closes it and the
// database when the test ends.
func startEnv(e *env, configure []func(*play.Config)) *env {
	e.configure = configure
	e.start()
	e.t.Cleanup(func() {
		e.svc.Close()
		e.db.Close()
	})
	return e
}

// newEnvDB opens the database of a new env with its three users; clk is the
// fake clock or nil for the real one.
func newEnvDB(t *testing.T, clk *fakeClock) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "tengen.db"), clock: clk}
	e.db, e.games = openDB(t, e.path)
	users := sqlite.NewUserService(e.db)
	e.black = &tengen.User{Name: "black", PasswordHash: "x"}
	e.white = &tengen.User{Name: "white", PasswordHash: "x"}
	e.carol = &tengen.User{Name: "carol", PasswordHash: "x"}
	for _, u := range []*tengen.User{e.black, e.white, e.carol} {
		if err := users.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *env) start() {
	cfg := play.Config{Games: e.games, Users: sqlite.NewUserService(e.db), Challenges: sqlite.NewChallengeService(e.db), CheckpointEvery: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Changed: e.changed}
	if e.clock != nil {
		cfg.Now, cfg.AfterFunc = e.clock.Now, e.clock.AfterFunc
	}
	for _, f := range e.configure {
		f(&cfg)
	}
	e.svc = play.New(cfg)
	if err := e.svc.Open(context.Background()); err != nil {
		e.t.Fatal(err)
	}
}

// restart closes the service and the database and opens both again, as a
// server restart does.
func (e *env) restart(down time.Duration) {
	e.t.Helper()
	if err := e.svc.Close(); err != nil {
		e.t.Fatal(err)
	}
	if err := e.db.Close(); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Advance(down)
	e.db, e.games = openDB(e.t, e.path)
	e.start()
}

// newGame creates a game with black as Black.
func (e *env) newGame(set tengen.GameSettings) int64 {
	e.t.Helper()
	set.Color = tengen.ChooseBlack
	c := &tengen.Challenge{ChallengerID: e.black.ID, Settings: set}
	if err := sqlite.NewChallengeService(e.db).CreateChallenge(context.Background(), c); err != nil {
		e.t.Fatal(err)
	}
	g, err := e.svc.CreateGame(context.Background(), c.ID, e.white.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return g.ID
}

func (e *env) watch(id int64) {
	e.t.Helper()
	stop, err := e.svc.Watch(context.Background(), id, 0, func(ev *tengen.GameEvent) { e.events = append(e.events, ev) })
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(stop)
	if got := e.eventTypes(); got != "game" {
		e.t.Fatalf("first events %q, want game", got)
	}
}

func (e *env) eventTypes() string {
	var ts []string
	for _, ev := range e.events {
		ts = append(ts, ev.Type)
	}
	e.events = nil
	return strings.Join(ts, " ")
}

func settings(size int, ruleset string, tc clock.TimeControl) tengen.GameSettings {
	return tengen.GameSettings{BoardSize: size, Ruleset: ruleset, Color: tengen.ChooseBlack, TimeControl: tc}
}

var noTime = clock.TimeControl{Kind: clock.None}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := tengen.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v (code %q), want %q", what, err, got, code)
	}
}

// step is one command in a scripted game.
type step struct {
	user string // black, white, carol
	cmd  string // "play x y", "pass", "resign", "toggle x y", "accept seq", "resume"
	seq  int
	code string // expected error code, "" for success
	msg  string // expected error message, if any
}

func (e *env) user(name string) int64 {
	switch name {
	case "black":
		return e.black.ID
	case "white":
		return e.white.ID
	case "carol":
		return e.carol.ID
	}
	return 0
}

func (e *env) do(id int64, st step) (*tengen.GameSnapshot, error) {
	ctx := context.Background()
	uid := e.user(st.user)
	var x, y int
	f := strings.Fields(st.cmd)
	if len(f) == 3 {
		x, y = atoi(f[1]), atoi(f[2])
	}
	switch f[0] {
	case "play":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: st.seq, Kind: tengen.MovePlay, X: x, Y: y}})
	case "pass":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: st.seq, Kind: tengen.MovePass}})
	case "resign":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: st.seq, Kind: tengen.MoveResign}})
	case "toggle":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandToggle, Point: goban.Point{X: x, Y: y}})
	case "accept":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandAccept, Seq: st.seq})
	case "resume":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandResume})
	case "agree-void":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandAgreeVoid, Seq: st.seq})
	case "decline-void":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandDeclineVoid, Seq: st.seq})
	case "undo":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandUndo})
	case "undo-accept":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandUndoAccept})
	case "undo-decline":
		return e.svc.Do(ctx, id, uid, tengen.Command{Kind: tengen.CommandUndoDecline})
	}
	e.t.Fatalf("unknown command %q", st.cmd)
	return nil, nil
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

func (e *env) run(id int64, steps []step) *tengen.GameSnapshot {
	e.t.Helper()
	var last *tengen.GameSnapshot
	for i, st := range steps {
		snap, err := e.do(id, st)
		wantCode(e.t, st.user+" "+st.cmd, err, st.code)
		if st.msg != "" && tengen.ErrorMessage(err) != st.msg {
			e.t.Fatalf("step %d %s: message %q, want %q", i, st.cmd, tengen.ErrorMessage(err), st.msg)
		}
		if err == nil {
			last = snap
		}
	}
	return last
}

func TestMoveRefusals(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", noTime))
	// A ko: Black captures at 4,4... set up with a classic shape.
	//   . B W .
	//   B . . W    Black plays 1,1? Build it move by move below.
	//   . B W .
	steps := []step{
		{user: "white", cmd: "play 0 0", seq: 1, code: tengen.EFORBIDDEN, msg: "It is not your turn."},
		{user: "carol", cmd: "play 0 0", seq: 1, code: tengen.EFORBIDDEN, msg: "You are not playing in this game."},
		{user: "", cmd: "play 0 0", seq: 1, code: tengen.EUNAUTHORIZED},
		{user: "black", cmd: "play 9 0", seq: 1, code: tengen.EINVALID},
		{user: "black", cmd: "play 1 0", seq: 2, code: tengen.ECONFLICT},
		{user: "black", cmd: "play 1 0", seq: 1},
		{user: "black", cmd: "play 1 0", seq: 1}, // duplicate: applies once
		{user: "white", cmd: "play 1 0", seq: 2, code: tengen.EINVALID, msg: "Illegal move: the point is occupied."},
		{user: "white", cmd: "play 2 0", seq: 2},
		{user: "black", cmd: "play 0 1", seq: 3},
		{user: "white", cmd: "play 3 1", seq: 4},
		{user: "black", cmd: "play 1 2", seq: 5},
		{user: "white", cmd: "play 2 2", seq: 6},
		{user: "black", cmd: "play 2 1", seq: 7},
		{user: "white", cmd: "play 1 1", seq: 8}, // takes the ko: captures 2,1
		{user: "black", cmd: "play 2 1", seq: 9, code: tengen.EINVALID, msg: "Illegal move: ko."},
		{user: "black", cmd: "play 1 0", seq: 1}, // a late duplicate still applies once
		{user: "white", cmd: "play 5 5", seq: 9, code: tengen.EFORBIDDEN},
	}
	snap := e.run(id, steps)
	if snap.Game.MoveCount != 8 || len(snap.Moves) != 8 {
		t.Fatalf("move count %d, %d moves, want 8", snap.Game.MoveCount, len(snap.Moves))
	}
	if snap.Board[1][2] != '.' || snap.Board[1][1] != 'W' || snap.Captures.White != 1 {
		t.Errorf("after the ko capture: board %q captures %+v", snap.Board[:3], snap.Captures)
	}
	stored, err := e.games.FindMoves(context.Background(), id, 0)
	if err != nil || len(stored) != 8 {
		t.Fatalf("stored %d moves, %v", len(stored), err)
	}
}

func TestScoringPhase(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour}))
	e.watch(id)
	// Black walls off the left side on column 2, White the right on column
	// 4; a white stone dies inside Black's area.
	var steps []step
	seq := 0
	for y := 0; y < 9; y++ {
		seq++
		steps = append(steps, step{user: "black", cmd: "play 2 " + itoa(y), seq: seq})
		seq++
		steps = append(steps, step{user: "white", cmd: "play 4 " + itoa(y), seq: seq})
	}
	seq++
	steps = append(steps, step{user: "black", cmd: "pass", seq: seq})
	seq++
	steps = append(steps, step{user: "white", cmd: "play 0 4", seq: seq}) // dead invader
	seq++
	steps = append(steps, step{user: "black", cmd: "pass", seq: seq})
	seq++
	steps = append(steps, step{user: "white", cmd: "pass", seq: seq})
	snap := e.run(id, steps)
	if snap.Game.Status != tengen.GameScoring || snap.Proposal == nil || snap.Score == nil {
		t.Fatalf("after two passes: status %s proposal %v", snap.Game.Status, snap.Proposal)
	}
	if snap.Clock == nil || snap.Clock.Running != goban.Empty {
		t.Errorf("clock runs in the scoring phase: %+v", snap.Clock)
	}
	if got := e.eventTypes(); !strings.HasSuffix(got, "move move phase") {
		t.Errorf("events end with %q, want move move phase", got)
	}
	first := snap.Proposal.Seq
	if !slices.Contains(snap.Proposal.Dead, goban.Point{X: 0, Y: 4}) {
		t.Errorf("server proposal %v misses the invader at 0,4", snap.Proposal.Dead)
	}
	// Territory: Black 2 columns × 9 = 18 points (17 empty + the dead
	// stone's point) and 1 prisoner; White 4 columns × 9 = 36, komi 6.5.
	if snap.Score.Black.Territory != 18 || snap.Score.Black.Dead != 1 || snap.Score.Result != "W+23.5" {
		t.Errorf("score %+v result %s, want black territory 18, dead 1, W+23.5", snap.Score.Black, snap.Score.Result)
	}

	moves := seq
	snap = e.run(id, []step{
		{user: "white", cmd: "play 5 5", seq: moves + 1, code: tengen.ECONFLICT},
		{user: "carol", cmd: "toggle 0 4", code: tengen.EFORBIDDEN},
		{user: "black", cmd: "toggle 1 1", code: tengen.EINVALID, msg: "There is no stone at that point."},
		{user: "white", cmd: "toggle 0 4"}, // White says the invader lives
		{user: "black", cmd: "accept", seq: first, code: tengen.ECONFLICT, msg: "The proposal changed; proposal 2 is current."},
		{user: "black", cmd: "toggle 0 4"},
		{user: "black", cmd: "accept", seq: first + 2},
		{user: "black", cmd: "accept", seq: first + 2}, // again: no change
	})
	if snap.Proposal.Seq != first+2 || !slices.Equal(snap.Proposal.AcceptedBy, []goban.Color{goban.Black}) {
		t.Errorf("proposal %+v", snap.Proposal)
	}
	if got := e.eventTypes(); got != "proposal proposal accepted" {
		t.Errorf("events %q", got)
	}
	snap = e.run(id, []step{{user: "white", cmd: "accept", seq: first + 2}})
	if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "W+23.5" {
		t.Errorf("after both accepted: %s %q", snap.Game.Status, snap.Game.Result)
	}
	if got := e.eventTypes(); got != "accepted phase" {
		t.Errorf("events %q", got)
	}
	g, err := e.games.FindGameByID(context.Background(), id)
	if err != nil || g.Result != "W+23.5" {
		t.Errorf("stored result %q, %v", g.Result, err)
	}
	e.run(id, []step{{user: "white", cmd: "resume", code: tengen.ECONFLICT}})

	// The record has the result, the time settings and times left.
	data, err := e.svc.SGF(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	col, err := sgf.Parse(data)
	if err != nil {
		t.Fatalf("SGF does not parse: %v\n%s", err, data)
	}
	root := col.Games[0]
	for prop, want := range map[string]string{"RE": "W+23.5", "PB": "black", "PW": "white", "SZ": "9", "KM": "6.5", "TM": "3600"} {
		if got, _ := root.Value(prop); got != want {
			t.Errorf("SGF %s = %q, want %q", prop, got, want)
		}
	}
	if !strings.Contains(string(data), "BL[") || !strings.Contains(string(data), "WL[") {
		t.Errorf("SGF without times left:\n%s", data)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestResume(t *testing.T) {
	tests := []struct {
		ruleset   string
		requester string
		next      goban.Color
	}{
		// 1989 Japanese rules Art. 9.3: the requester's opponent moves.
		{"japanese", "black", goban.White},
		{"japanese", "white", goban.Black},
		// Elsewhere the player who passed first (White) moves.
		{"chinese", "white", goban.White},
		{"chinese", "black", goban.White},
	}
	for _, tt := range tests {
		t.Run(tt.ruleset+"/"+tt.requester, func(t *testing.T) {
			e := newEnv(t)
			id := e.newGame(settings(9, tt.ruleset, clock.TimeControl{Kind: clock.Fischer, MainTime: time.Minute, Increment: 10 * time.Second, MaxTime: time.Hour}))
			snap := e.run(id, []step{
				{user: "black", cmd: "play 4 4", seq: 1},
				{user: "white", cmd: "pass", seq: 2},
				{user: "black", cmd: "pass", seq: 3},
				{user: "carol", cmd: "resume", code: tengen.EFORBIDDEN},
				{user: tt.requester, cmd: "resume"},
			})
			if snap.Game.Status != tengen.GamePlaying || snap.Game.ToMove != tt.next {
				t.Fatalf("after resume: %s, %s to move; want playing, %s", snap.Game.Status, snap.Game.ToMove, tt.next)
			}
			if snap.Clock.Running != tt.next || snap.Proposal != nil {
				t.Errorf("clock runs for %q, proposal %v", snap.Clock.Running, snap.Proposal)
			}
			other := "black"
			if tt.next == goban.White {
				other = "white"
			}
			e.run(id, []step{{user: other, cmd: "play 0 0", seq: 4}})
			// The resumption survives a restart: the position and the turn
			// are rebuilt from storage.
			e.restart(time.Hour)
			snap, err := e.svc.Snapshot(context.Background(), id, e.black.ID)
			if err != nil {
				t.Fatal(err)
			}
			if snap.Game.ToMove != tt.next.Opponent() || snap.Board[0][0] == '.' {
				t.Errorf("after restart: %s to move, board %q", snap.Game.ToMove, snap.Board[0])
			}
			// Two more passes: a new proposal with a higher number.
			s2 := e.run(id, []step{
				{user: tt.next.Opponent().String(), cmd: "pass", seq: 5},
				{user: tt.next.String(), cmd: "pass", seq: 6},
			})
			if s2.Game.Status != tengen.GameScoring || s2.Proposal.Seq != 2 {
				t.Errorf("second scoring phase: %s, proposal %+v", s2.Game.Status, s2.Proposal)
			}
		})
	}
}

func TestResign(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", noTime))
	snap := e.run(id, []step{
		{user: "black", cmd: "play 4 4", seq: 1},
		{user: "black", cmd: "resign"}, // allowed on the opponent's turn
		{user: "black", cmd: "resign", seq: 2},
		{user: "white", cmd: "play 3 3", seq: 3, code: tengen.ECONFLICT},
	})
	if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "W+R" {
		t.Errorf("after resignation: %s %q", snap.Game.Status, snap.Game.Result)
	}
	// Nobody watches the finished game, so it left memory; it loads again
	// from storage as it was.
	again, err := e.svc.Snapshot(context.Background(), id, e.white.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.Game.Result != "W+R" || len(again.Moves) != 2 || again.Board[4][4] != 'B' || again.You != goban.White {
		t.Errorf("reloaded finished game: %q, %d moves, board %q", again.Game.Result, len(again.Moves), again.Board[4])
	}
}

func TestAtariGo(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(7, "atari", noTime))
	snap := e.run(id, []step{
		{user: "black", cmd: "pass", seq: 1, code: tengen.EINVALID, msg: "Pass is not allowed while a stone can be played."},
		{user: "black", cmd: "play 1 0", seq: 1},
		{user: "white", cmd: "play 0 0", seq: 2},
		{user: "black", cmd: "play 0 1", seq: 3}, // captures 0,0
		{user: "white", cmd: "play 3 3", seq: 4, code: tengen.ECONFLICT},
	})
	if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "B+" {
		t.Errorf("after the first capture: %s %q, want finished B+", snap.Game.Status, snap.Game.Result)
	}
}

func TestTimeout(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.TimeControl{Kind: clock.ByoYomi, MainTime: time.Minute, Periods: 1, PeriodTime: 10 * time.Second}))
	e.watch(id)
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1}})
	e.clock.Advance(30 * time.Second)
	e.run(id, []step{{user: "white", cmd: "play 3 3", seq: 2}})
	e.clock.Advance(69 * time.Second) // Black: 60 s main + 10 s period - 1 s
	snap, err := e.svc.Snapshot(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("flag fell early: %s %q", snap.Game.Status, snap.Game.Result)
	}
	e.events = nil
	e.clock.Advance(time.Second)
	snap, err = e.svc.Snapshot(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "W+T" || !snap.Clock.Black.TimedOut {
		t.Fatalf("after Black's time: %s %q clock %+v", snap.Game.Status, snap.Game.Result, snap.Clock)
	}
	if got := e.eventTypes(); got != "clock phase" {
		t.Errorf("events %q", got)
	}
	stored, _ := e.games.FindGameByID(context.Background(), id)
	if stored.Result != "W+T" {
		t.Errorf("stored result %q", stored.Result)
	}
	e.run(id, []step{{user: "black", cmd: "play 5 5", seq: 3, code: tengen.ECONFLICT}})
}

// TestClockRestart checks that the time the server is down is not charged
// and a correspondence game's deadline survives restarts.
func TestClockRestart(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.CorrespondenceDays(1, 3)))
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1}})
	e.clock.Advance(20 * time.Hour) // White thinks for 20 hours
	e.restart(3 * 24 * time.Hour)   // then the server is down for 3 days
	snap, err := e.svc.Snapshot(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("game ended while the server was down: %q", snap.Game.Result)
	}
	// Close checkpointed the 20 hours: White has 4 hours left after the
	// restart. Without checkpoints the restart would have forgiven them.
	left := time.Duration(snap.Clock.White.MainMs) * time.Millisecond
	if left != 4*time.Hour {
		t.Errorf("White's bank after restart = %v, want 4h", left)
	}
	e.clock.Advance(4*time.Hour - time.Second)
	if snap, _ := e.svc.Snapshot(context.Background(), id, 0); snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("flag fell early")
	}
	e.clock.Advance(time.Second)
	if snap, _ := e.svc.Snapshot(context.Background(), id, 0); snap.Game.Result != "B+T" {
		t.Errorf("result %q, want B+T", snap.Game.Result)
	}
}

func TestHandicapAndKomi(t *testing.T) {
	tests := []struct {
		name    string
		set     tengen.GameSettings
		first   goban.Color
		komi    float64
		stones  int
		placing bool
	}{
		{"japanese default komi", settings(19, "japanese", noTime), goban.Black, 6.5, 0, false},
		{"chinese default komi", settings(19, "chinese", noTime), goban.Black, 7.5, 0, false},
		{"fixed handicap: White first", func() tengen.GameSettings {
			s := settings(19, "japanese", noTime)
			s.Handicap = 4
			return s
		}(), goban.White, 0.5, 4, false},
		{"pfaundler: Black first after handicap", func() tengen.GameSettings {
			s := settings(19, "pfaundler", noTime)
			s.Handicap = 4
			return s
		}(), goban.Black, 0, 4, false},
		{"pfaundler: thirteen stones (P §9)", func() tengen.GameSettings {
			s := settings(19, "pfaundler", noTime)
			s.Handicap = 13
			return s
		}(), goban.Black, 0, 13, false},
		{"custom komi", func() tengen.GameSettings {
			s := settings(9, "japanese", noTime)
			k := 5.5
			s.Komi = &k
			return s
		}(), goban.Black, 5.5, 0, false},
		{"free handicap", func() tengen.GameSettings {
			s := settings(9, "chinese", noTime)
			s.Handicap, s.FreeHandicap = 2, true
			return s
		}(), goban.Black, 0.5, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			id := e.newGame(tt.set)
			snap, err := e.svc.Snapshot(context.Background(), id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if snap.Game.ToMove != tt.first || snap.Komi != tt.komi || len(snap.Handicap.Points) != tt.stones {
				t.Errorf("to move %s komi %v handicap %v; want %s %v %d stones", snap.Game.ToMove, snap.Komi, snap.Handicap.Points, tt.first, tt.komi, tt.stones)
			}
			stored, _ := e.games.FindGameByID(context.Background(), id)
			if stored.ToMove != tt.first {
				t.Errorf("stored turn %s, want %s", stored.ToMove, tt.first)
			}
			if tt.placing {
				snap = e.run(id, []step{
					{user: "black", cmd: "pass", seq: 1, code: tengen.EINVALID},
					{user: "black", cmd: "play 2 2", seq: 1},
					{user: "black", cmd: "play 2 2", seq: 2, code: tengen.EINVALID},
					{user: "black", cmd: "play 6 6", seq: 2},
					{user: "black", cmd: "play 4 4", seq: 3, code: tengen.EFORBIDDEN},
					{user: "white", cmd: "play 4 4", seq: 3},
				})
				if len(snap.Handicap.Points) != 2 || snap.Board[2][2] != 'B' || snap.Board[6][6] != 'B' || snap.Board[4][4] != 'W' {
					t.Errorf("after free placement: handicap %v board %q", snap.Handicap.Points, snap.Board)
				}
				data, err := e.svc.SGF(context.Background(), id)
				if err != nil || !strings.Contains(string(data), "AB[cc][gg]") && !strings.Contains(string(data), "AB[gg][cc]") {
					t.Errorf("SGF without the placed stones: %s %v", data, err)
				}
			}
		})
	}
}

// TestConcurrentDuplicates submits the same move from many goroutines, as
// two tabs and a double click do: it is stored once and all succeed.
func TestConcurrentDuplicates(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", noTime))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.svc.Do(context.Background(), id, e.black.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 4, Y: 4}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("duplicate submission: %v", err)
		}
	}
	moves, _ := e.games.FindMoves(context.Background(), id, 0)
	if len(moves) != 1 {
		t.Errorf("%d moves stored, want 1", len(moves))
	}
}

func TestUnknownGame(t *testing.T) {
	e := newEnv(t)
	_, err := e.svc.Snapshot(context.Background(), 12345, 0)
	wantCode(t, "snapshot of unknown game", err, tengen.ENOTFOUND)
}

func TestSuicide(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", noTime))
	e.run(id, []step{
		{user: "black", cmd: "play 0 1", seq: 1},
		{user: "white", cmd: "play 5 5", seq: 2},
		{user: "black", cmd: "play 1 0", seq: 3},
		{user: "white", cmd: "play 0 0", seq: 4, code: tengen.EINVALID, msg: "Illegal move: suicide."},
	})
}

// TestLoadStartsStoredGameWithoutClock checks startCmd: a game stored
// without a play record (as storage alone creates one, and as games were
// stored before creation went through play) gets its clock started for the
// first mover when it is loaded, and the start is stored.
func TestLoadStartsStoredGameWithoutClock(t *testing.T) {
	e := newEnv(t)
	set := settings(9, "japanese", clock.AbsoluteTime(time.Minute))
	set.Color = tengen.ChooseBlack
	c := &tengen.Challenge{ChallengerID: e.black.ID, Settings: set}
	if err := sqlite.NewChallengeService(e.db).CreateChallenge(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	g, err := e.games.CreateGameFromChallenge(context.Background(), c.ID, e.white.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := e.svc.Snapshot(context.Background(), g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Clock == nil || snap.Clock.Running != goban.Black {
		t.Fatalf("clock after load = %+v, want Black's running", snap.Clock)
	}
	rec, err := e.games.FindPlayRecord(context.Background(), g.ID)
	if err != nil || rec.Clock == nil {
		t.Fatalf("stored record %+v, %v: want the started clock", rec, err)
	}
	// Black's clock has run since the load: after 40 s and both first
	// moves (a flag that falls before a player's first move voids the
	// game, see noshow.go), Black has 20 s left.
	e.clock.Advance(40 * time.Second)
	e.run(g.ID, []step{{user: "black", cmd: "play 4 4", seq: 1}, {user: "white", cmd: "play 3 3", seq: 2}})
	e.clock.Advance(20 * time.Second)
	if snap, _ := e.svc.Snapshot(context.Background(), g.ID, 0); snap.Game.Result != "W+T" {
		t.Errorf("result %q after Black's minute, want W+T", snap.Game.Result)
	}
}

// TestCreateGame checks that a game created through the service has its
// clock running from creation and refuses what the challenge refuses.
func TestCreateGame(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.AbsoluteTime(time.Minute)))
	rec, err := e.games.FindPlayRecord(context.Background(), id)
	if err != nil || rec.Clock == nil {
		t.Fatalf("stored record %+v, %v: want the clock stored with the new game", rec, err)
	}
	clk := rec.Clock
	if since, running := clk.Running(); !running || clk.Turn() != clock.Black || !since.Equal(e.clock.Now()) {
		t.Errorf("stored clock: running %v since %v turn %v", running, since, clk.Turn())
	}
	// The challenge is taken now: accepting it again is refused.
	g, _ := e.games.FindGameByID(context.Background(), id)
	_, err = e.svc.CreateGame(context.Background(), g.ChallengeID, e.carol.ID)
	wantCode(t, "second acceptance", err, tengen.ECONFLICT)
	_, err = e.svc.Do(context.Background(), id, e.black.ID, tengen.Command{Kind: "dance"})
	wantCode(t, "unknown command", err, tengen.EINVALID)
}

// TestConcurrentRivals checks that when both players submit a move with the
// same sequence number at once, only the player on turn gets it: the rules
// are checked once, in play, under the game's lock, and storage keeps no
// turn check of its own.
func TestConcurrentRivals(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", noTime))
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1}})
	for round := range 20 {
		seq := 2 + round
		onTurn, other := e.white.ID, e.black.ID
		if seq%2 == 1 {
			onTurn, other = other, onTurn
		}
		var wg sync.WaitGroup
		errs := map[int64]error{}
		var mu sync.Mutex
		for _, uid := range []int64{onTurn, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x, y := round%9, 1+round/9
				if uid == other {
					y += 4
				}
				_, err := e.svc.Do(context.Background(), id, uid, tengen.Command{Kind: tengen.CommandMove,
					Move: tengen.MoveCommand{Seq: seq, Kind: tengen.MovePlay, X: x, Y: y}})
				mu.Lock()
				errs[uid] = err
				mu.Unlock()
			}()
		}
		wg.Wait()
		if errs[onTurn] != nil {
			t.Fatalf("move %d: the player on turn was refused: %v", seq, errs[onTurn])
		}
		if code := tengen.ErrorCode(errs[other]); code != tengen.EFORBIDDEN && code != tengen.ECONFLICT {
			t.Fatalf("move %d: the other player got %v, want a refusal", seq, errs[other])
		}
	}
	moves, err := e.games.FindMoves(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		if want := []goban.Color{goban.Black, goban.White}[i%2]; m.Color != want {
			t.Errorf("move %d stored for %v, want %v", m.Seq, m.Color, want)
		}
	}
	if len(moves) != 21 {
		t.Errorf("%d moves stored, want 21", len(moves))
	}
}
