package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	nethttp "net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// ruleset is the games' ruleset, by the name the server and goban share;
// the client's board follows the same rules as the server's.
const ruleset = "chinese"

// ioTimeout bounds one request or one wait for a reply.
const ioTimeout = 30 * time.Second

// setupWorkers is how many registrations and game starts run at once.
const setupWorkers = 16

// runner is one run: the players, the tables and the counters.
type runner struct {
	cfg    Config
	res    *Result
	hc     *nethttp.Client
	wsURLs []string // the instances' WebSocket base URLs, by index as cfg.URLs
	run    string   // a random tag in the players' names, so that runs never collide

	cookies []string // players' session cookies, by index

	tables []*table

	mu       sync.Mutex // guards errors, first and played
	errors   int
	first    error
	finished []*gameRun // games played to their end, for verify
}

// table is one seat pair playing one game after another.
type table struct {
	n     int // its index: players 2n and 2n+1 (mod Players) play here
	nspec int // spectators watching its games
	black int // the players' indices
	white int
	// inst are the instances (indices of Config.URLs) of Black's and
	// White's connections; spectator j connects to instance
	// (n+1+j) mod len(URLs).
	inst     [2]int
	rnd      *goban.Rand
	cur      *gameRun
	ack      [][]time.Duration // move → ok latencies by the mover's instance; only its goroutine touches them
	late     int
	specMu   sync.Mutex        // guards spec
	spec     [][]time.Duration // move → spectator latencies by the spectator's instance
	specWG   sync.WaitGroup    // the spectators' readers
	specConn []*websocket.Conn
}

// gameRun is one game of a table.
type gameRun struct {
	id    int64
	game  *goban.Game
	conns [2]*websocket.Conn // Black's, White's
	// sent[seq] is when the move seq was sent, in Unix nanoseconds (0:
	// not timed); the spectators read it.
	sent []atomic.Int64
	// seen[j] is the last move spectator j has seen, by a move event or
	// in a snapshot.
	seen  []atomic.Int64
	moves []tengen.GameMove // acknowledged, in order (X, Y, Kind only)
	ended bool              // resigned and acknowledged
}

func newRunner(cfg Config, res *Result) *runner {
	tr := &nethttp.Transport{MaxIdleConnsPerHost: setupWorkers * 2}
	r := &runner{cfg: cfg, res: res, hc: &nethttp.Client{Transport: tr, Timeout: ioTimeout},
		run: fmt.Sprintf("%04x", rand.Uint32()&0xffff)}
	for _, u := range cfg.URLs {
		r.wsURLs = append(r.wsURLs, "ws"+strings.TrimPrefix(u, "http"))
	}
	k := len(cfg.URLs)
	r.tables = make([]*table, cfg.Games)
	for i := range r.tables {
		t := &table{n: i, black: 2 * i % cfg.Players, white: (2*i + 1) % cfg.Players,
			rnd: goban.NewRand(cfg.Seed + uint64(i)*7919), ack: make([][]time.Duration, k), spec: make([][]time.Duration, k)}
		t.inst = [2]int{i % k, i % k}
		if cfg.SplitPlayers {
			t.inst[1] = (i + 1) % k
		}
		r.tables[i] = t
	}
	for s := range cfg.Spectators {
		r.tables[s%cfg.Games].nspec++
	}
	return r
}

// fail counts err; the first error is kept for the report.
func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors++
	r.res.Errors = r.errors
	if r.first == nil {
		r.first = err
		r.res.FirstError = err.Error()
		r.cfg.Log.Warn("load: error", "err", err)
	}
}

// parallel runs f(i) for i < n on setupWorkers goroutines and returns the
// first error.
func parallel(ctx context.Context, n int, f func(i int) error) error {
	var next atomic.Int64
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range min(n, setupWorkers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := f(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n)) // the others stop
					return
				}
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// setup registers the players and starts every table's first game.
func (r *runner) setup(ctx context.Context) error {
	t0 := time.Now()
	r.cookies = make([]string, r.cfg.Players)
	err := parallel(ctx, r.cfg.Players, func(i int) error {
		c, err := r.register(ctx, i%len(r.cfg.URLs), fmt.Sprintf("L%s-%d", r.run, i))
		r.cookies[i] = c
		return err
	})
	if err != nil {
		return err
	}
	r.cfg.Log.Info("load: players registered", "players", r.cfg.Players, "took", time.Since(t0).Round(time.Millisecond))
	t0 = time.Now()
	if err := parallel(ctx, len(r.tables), func(i int) error { return r.tables[i].start(ctx, r) }); err != nil {
		return err
	}
	r.cfg.Log.Info("load: games started", "games", len(r.tables), "spectators", r.cfg.Spectators, "took", time.Since(t0).Round(time.Millisecond))
	return nil
}

// register signs up a player on instance inst and returns its session
// cookie, which every instance knows.
func (r *runner) register(ctx context.Context, inst int, name string) (string, error) {
	body := fmt.Sprintf(`{"name":%q,"password":"load-password-%s"}`, name, name)
	resp, err := r.do(ctx, inst, "POST", "/api/v1/register", "", body, nethttp.StatusCreated, nil)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, c := range resp.Cookies() {
		parts = append(parts, c.Name+"="+c.Value)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("register %s: no session cookie", name)
	}
	return strings.Join(parts, "; "), nil
}

// do sends a request to instance inst as the session of cookie, wants
// status want and decodes the JSON answer into out unless out is nil.
func (r *runner) do(ctx context.Context, inst int, method, path, cookie, body string, want int, out any) (*nethttp.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, ioTimeout)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, method, r.cfg.URLs[inst]+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(data))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp, nil
}

// dial opens a game WebSocket on instance inst, as the session of cookie
// ("" for an anonymous spectator).
func (r *runner) dial(ctx context.Context, inst int, id int64, cookie string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, ioTimeout)
	defer cancel()
	h := nethttp.Header{}
	if cookie != "" {
		h.Set("Cookie", cookie)
	}
	conn, _, err := websocket.Dial(ctx, fmt.Sprintf("%s/api/v1/games/%d/ws", r.wsURLs[inst], id), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, fmt.Errorf("game %d websocket: %w", id, err)
	}
	conn.SetReadLimit(1 << 20) // snapshots of long games are large
	return conn, nil
}

// start begins a new game at the table: a challenge by Black, accepted by
// White, both players' sockets and the spectators'.
func (t *table) start(ctx context.Context, r *runner) error {
	set := tengen.GameSettings{BoardSize: r.cfg.BoardSize, Ruleset: ruleset, Color: tengen.ChooseBlack,
		TimeControl: clock.FischerTime(time.Hour, 10*time.Second, 2*time.Hour)}
	body, _ := json.Marshal(map[string]any{"settings": set})
	var ch struct{ Challenge tengen.Challenge }
	if _, err := r.do(ctx, t.inst[0], "POST", "/api/v1/challenges", r.cookies[t.black], string(body), nethttp.StatusCreated, &ch); err != nil {
		return err
	}
	var g struct{ Game tengen.Game }
	if _, err := r.do(ctx, t.inst[1], "POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), r.cookies[t.white], "", nethttp.StatusCreated, &g); err != nil {
		return err
	}
	rules, err := goban.RulesetByName(ruleset)
	if err != nil {
		return err
	}
	gb, err := goban.NewGame(r.cfg.BoardSize, r.cfg.BoardSize, rules)
	if err != nil {
		return err
	}
	gr := &gameRun{id: g.Game.ID, game: gb, sent: make([]atomic.Int64, r.cfg.MaxMoves+2), seen: make([]atomic.Int64, t.nspec)}
	for c, p := range []int{t.black, t.white} {
		if gr.conns[c], err = r.dial(ctx, t.inst[c], gr.id, r.cookies[p]); err != nil {
			gr.close()
			return err
		}
	}
	t.stopSpectators()
	for j := range t.nspec {
		inst := r.spectatorInstance(t, j)
		conn, err := r.dial(ctx, inst, gr.id, "")
		if err != nil {
			gr.close()
			return err
		}
		t.specConn = append(t.specConn, conn)
		t.specWG.Add(1)
		go t.spectate(conn, gr, inst, j)
	}
	t.cur = gr
	return nil
}

// close closes the players' sockets of the game.
func (g *gameRun) close() {
	for _, c := range g.conns {
		if c != nil {
			c.CloseNow()
		}
	}
}

// stopSpectators closes the spectators' sockets and waits for their
// readers.
func (t *table) stopSpectators() {
	for _, c := range t.specConn {
		c.CloseNow()
	}
	t.specConn = nil
	t.specWG.Wait()
}

// event is what the generator reads of a game event.
type event struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Move *struct {
		Seq int `json:"seq"`
	} `json:"move"`
	Message string `json:"message"`
}

// spectate reads the socket of spectator j, on instance inst, until it
// closes and records, for each move event, the time since the move was
// sent.
func (t *table) spectate(conn *websocket.Conn, g *gameRun, inst, j int) {
	defer t.specWG.Done()
	for {
		_, data, err := conn.Read(context.Background())
		if err != nil {
			return
		}
		now := time.Now().UnixNano()
		if bytes.HasPrefix(data, []byte(`{"type":"game"`)) {
			// A snapshot: the first one, or a server's re-sync.
			if n := snapshotMoves(data); n > g.seen[j].Load() {
				g.seen[j].Store(n)
			}
			continue
		}
		if !bytes.HasPrefix(data, []byte(`{"type":"move"`)) {
			continue
		}
		seq := moveSeq(data)
		if seq <= 0 || seq >= len(g.sent) {
			continue
		}
		if int64(seq) > g.seen[j].Load() {
			g.seen[j].Store(int64(seq))
		}
		if sent := g.sent[seq].Load(); sent != 0 {
			t.specMu.Lock()
			t.spec[inst] = append(t.spec[inst], time.Duration(now-sent))
			t.specMu.Unlock()
		}
	}
}

// snapshotMoves returns the move count of the game in a snapshot message
// (the first "moveCount" is the game's), 0 when there is none.
func snapshotMoves(data []byte) int64 {
	_, rest, ok := bytes.Cut(data, []byte(`"moveCount":`))
	if !ok {
		return 0
	}
	var n int64
	for i := 0; i < len(rest) && i < 9 && rest[i] >= '0' && rest[i] <= '9'; i++ {
		n = n*10 + int64(rest[i]-'0')
	}
	return n
}

// spectatorWait bounds the wait for the spectators to see a game's last
// move before their sockets close.
const spectatorWait = 10 * time.Second

// awaitSpectators waits until every spectator of g has seen its last
// acknowledged move, and counts an error for each one that has not within
// spectatorWait: an event that never reached a watcher (on another
// instance, say) is a fault, not a slow run.
func (t *table) awaitSpectators(r *runner, g *gameRun) {
	want := int64(len(g.moves))
	deadline := time.Now().Add(spectatorWait)
	for j := range g.seen {
		for g.seen[j].Load() < want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := g.seen[j].Load(); n < want {
			r.fail(fmt.Errorf("game %d: spectator %d on %s saw move %d of %d within %v", g.id, j, r.cfg.URLs[(t.n+1+j)%len(r.cfg.URLs)], n, want, spectatorWait))
		}
	}
}

// moveSeq returns the sequence number of the move in a move event, 0 if
// there is none. It looks for the number where the server's encoding puts
// it before decoding the whole event: a spectator reads every move of its
// game, and decoding each took a quarter of the generator's CPU.
func moveSeq(data []byte) int {
	if _, rest, ok := bytes.Cut(data, []byte(`"move":{`)); ok {
		if _, rest, ok = bytes.Cut(rest, []byte(`"seq":`)); ok {
			n, digits := 0, 0
			for ; digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' && digits < 9; digits++ {
				n = n*10 + int(rest[digits]-'0')
			}
			if digits > 0 {
				return n
			}
		}
	}
	var ev event
	if json.Unmarshal(data, &ev) != nil || ev.Move == nil {
		return 0
	}
	return ev.Move.Seq
}

// send sends a command on the mover's socket and waits for its "ok",
// skipping the game events that come before it.
func (g *gameRun) send(c goban.Color, msg []byte, id string) error {
	conn := g.conns[0]
	if c == goban.White {
		conn = g.conns[1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("game %d: %w", g.id, err)
	}
	ok := fmt.Appendf(nil, `{"type":"ok","id":%q`, id)
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return fmt.Errorf("game %d: waiting for the answer to %s: %w", g.id, msg, err)
		}
		switch {
		case bytes.HasPrefix(data, ok):
			return nil
		case bytes.HasPrefix(data, []byte(`{"type":"ok"`)):
			return fmt.Errorf("game %d: %s: an answer to another command: %s", g.id, msg, data)
		case bytes.HasPrefix(data, []byte(`{"type":"error"`)):
			return fmt.Errorf("game %d: %s refused: %s", g.id, msg, data)
		}
	}
}

// choose picks a legal move for the player to move that does not fill
// one of its own eyes, or reports that there is none left.
func (t *table) choose(g *goban.Game) (goban.Point, bool) {
	b := g.Board()
	c := g.ToMove()
	for range 8 {
		l := b.RandomMove(c, t.rnd)
		if l == goban.PassLoc {
			return goban.Point{}, false
		}
		// RandomMove knows simple ko only; the game checks superko.
		if p := b.Point(l); g.Legal(goban.PlayAt(c, p)) == nil {
			return p, true
		}
	}
	return goban.Point{}, false
}

// play plays the table's games until ctx ends: one move every interval
// (from first on), or as soon as the previous move is acknowledged when
// the server is slower than that. A game that reaches MaxMoves, or has no
// sensible move left, is resigned and a new one started.
func (t *table) play(ctx context.Context, r *runner, first time.Time, interval time.Duration) {
	next := first
	timer := time.NewTimer(time.Until(next))
	defer timer.Stop()
	for {
		if d := time.Until(next); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return
		}
		g := t.cur
		seq := len(g.moves) + 1
		c := g.game.ToMove()
		p, ok := goban.Point{}, false
		if seq < r.cfg.MaxMoves {
			p, ok = t.choose(g.game)
		}
		id := fmt.Sprintf("%d", seq)
		var msg []byte
		if ok {
			msg = fmt.Appendf(nil, `{"type":"move","id":"%s","seq":%d,"x":%d,"y":%d}`, id, seq, p.X, p.Y)
		} else {
			msg = fmt.Appendf(nil, `{"type":"resign","id":"%s","seq":%d}`, id, seq)
		}
		sent := time.Now()
		g.sent[seq].Store(sent.UnixNano())
		if err := g.send(c, msg, id); err != nil {
			r.fail(err)
			return // this table stops; its game is checked as it stands
		}
		mi := t.inst[0]
		if c == goban.White {
			mi = t.inst[1]
		}
		t.ack[mi] = append(t.ack[mi], time.Since(sent))
		if ok {
			g.game.Play(goban.PlayAt(c, p))
			g.moves = append(g.moves, tengen.GameMove{Kind: tengen.MovePlay, X: p.X, Y: p.Y})
		} else {
			g.moves = append(g.moves, tengen.GameMove{Kind: tengen.MoveResign})
			g.ended = true
			r.done(g)
			t.awaitSpectators(r, g)
			t.cur = nil
			if ctx.Err() != nil {
				return
			}
			// Not ctx: a start cut short would leave a challenge or a game
			// without players behind.
			if err := t.start(context.Background(), r); err != nil {
				r.fail(err)
				return
			}
		}
		next = next.Add(interval)
		if now := time.Now(); next.Before(now) {
			t.late++
			next = now // behind: no burst to catch up
		}
	}
}

// done records a game played to its end.
func (r *runner) done(g *gameRun) {
	g.close()
	r.mu.Lock()
	r.finished = append(r.finished, g)
	r.mu.Unlock()
}

// cleanup resigns every table's game, so that a server given by URL is
// left with no live game of the run, and closes every socket.
func (r *runner) cleanup() {
	ctx := context.Background()
	var resigned atomic.Int64
	defer func() { r.res.EndResigned = int(resigned.Load()) }()
	parallel(ctx, len(r.tables), func(i int) error {
		t := r.tables[i]
		if g := t.cur; g != nil {
			id := fmt.Sprintf("%d", len(g.moves)+1)
			msg := fmt.Appendf(nil, `{"type":"resign","id":"%s"}`, id)
			if err := g.send(g.game.ToMove(), msg, id); err != nil {
				r.fail(fmt.Errorf("cleanup: %w", err))
			} else {
				g.moves = append(g.moves, tengen.GameMove{Kind: tengen.MoveResign})
				g.ended = true
				resigned.Add(1)
				t.awaitSpectators(r, g)
			}
			r.done(g)
			t.cur = nil
		}
		t.stopSpectators()
		return nil
	})
}

// verify reads every game of the run back through the API and checks that
// the server stored exactly the moves it acknowledged.
func (r *runner) verify(ctx context.Context) {
	r.res.GamesPlayed = len(r.finished)
	var verified atomic.Int64
	parallel(ctx, len(r.finished), func(i int) error {
		g := r.finished[i]
		var got struct {
			Game  tengen.Game
			Moves []tengen.GameMove
		}
		// Each instance reads a share of the games: all of them serve
		// every game.
		if _, err := r.do(ctx, i%len(r.cfg.URLs), "GET", fmt.Sprintf("/api/v1/games/%d", g.id), "", "", nethttp.StatusOK, &got); err != nil {
			r.fail(fmt.Errorf("verify: %w", err))
			return nil
		}
		if err := sameMoves(got.Moves, g.moves); err != nil {
			r.fail(fmt.Errorf("verify game %d: %w", g.id, err))
			return nil
		}
		if g.ended && got.Game.Status != tengen.GameFinished {
			r.fail(fmt.Errorf("verify game %d: resigned but %s", g.id, got.Game.Status))
			return nil
		}
		verified.Add(1)
		return nil
	})
	r.res.Verified = int(verified.Load())
}

// sameMoves compares the stored moves with the acknowledged ones.
func sameMoves(stored, acked []tengen.GameMove) error {
	if len(stored) != len(acked) {
		return fmt.Errorf("%d moves stored, %d acknowledged", len(stored), len(acked))
	}
	for i, m := range acked {
		s := stored[i]
		if s.Seq != i+1 || s.Kind != m.Kind || m.Kind == tengen.MovePlay && (s.X != m.X || s.Y != m.Y) {
			return fmt.Errorf("move %d: stored %d %s (%d,%d), acknowledged %s (%d,%d)", i+1, s.Seq, s.Kind, s.X, s.Y, m.Kind, m.X, m.Y)
		}
	}
	return nil
}

// spectatorInstance is the instance of table t's spectator j: the ones
// after the table's own, or with LocalSpectators Black's.
func (r *runner) spectatorInstance(t *table, j int) int {
	if r.cfg.LocalSpectators {
		return t.inst[0]
	}
	return (t.n + 1 + j) % len(r.cfg.URLs)
}
