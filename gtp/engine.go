package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// Options configure an [Engine].
type Options struct {
	// Name is reported by the name command, followed by the player's name
	// in parentheses; empty means "Tengen".
	Name string
	// Version is reported by the version command; empty means "dev".
	Version string
	// Rules names the ruleset (see goban.RulesetByName; KGS names such as
	// new_zealand are accepted); empty means "chinese", as most engines
	// assume when a controller never says.
	Rules string
	// Player chooses moves; nil means a [RandomPlayer] seeded with Seed.
	Player Player
	// Seed seeds the default random player; 0 takes one from the clock.
	Seed uint64
	// ScoringPlayouts is the number of random playouts goban's dead-stone
	// estimate uses for final_score and final_status_list; 0 means 200.
	ScoringPlayouts int
	// ErrorLog receives handler panics with their stacks; nil discards
	// them.
	ErrorLog io.Writer
	// NoFiles removes loadsgf and the file form of printsgf, for engines
	// whose controller must not reach the file system.
	NoFiles bool
}

// Engine is a GTP engine that plays Go on a goban.Game: the full command set
// of the GTP draft plus the KGS, GoGui and KataGo extensions controllers
// commonly send. Commands run one at a time on the goroutine that called
// Serve, so the game state needs no lock; an Engine serves one connection at
// a time.
//
// The fields below srv are the game state; only command handlers touch them,
// and Serve runs those one at a time, so no lock guards them.
type Engine struct {
	srv       *Server
	player    Player
	playouts  int
	rules     goban.Ruleset
	width     int
	height    int
	komi      float64
	komiSet   bool // komi was given by the controller and survives boardsize
	game      *goban.Game
	timeCtl   clock.TimeControl
	clocks    [3]clock.State // each colour's clock, indexed by goban.Color
	timeKnown [3]bool        // a time_left arrived for the colour
	handicaps int
	noFiles   bool
}

// NewEngine returns an engine on an empty 19×19 board.
func NewEngine(opts Options) (*Engine, error) {
	rulesName := opts.Rules
	if rulesName == "" {
		rulesName = "chinese"
	}
	rules, err := goban.RulesetByName(rulesName)
	if err != nil {
		return nil, err
	}
	name, version := opts.Name, opts.Version
	if name == "" {
		name = "Tengen"
	}
	if version == "" {
		version = "dev"
	}
	player := opts.Player
	if player == nil {
		player = NewRandomPlayer(opts.Seed)
	}
	e := &Engine{
		srv:      NewServer(name+" ("+player.Name()+")", version),
		player:   player,
		playouts: opts.ScoringPlayouts,
		rules:    rules,
		width:    19,
		height:   19,
		noFiles:  opts.NoFiles,
	}
	if e.playouts <= 0 {
		e.playouts = 200
	}
	e.srv.ErrorLog = opts.ErrorLog
	if err := e.newGame(); err != nil {
		return nil, err
	}
	e.register()
	return e, nil
}

// Server returns the protocol layer, so that callers can register further
// commands (analysis, for instance) before serving.
func (e *Engine) Server() *Server { return e.srv }

// Game returns the current game. Commands replace it (boardsize,
// clear_board, undo, loadsgf) and change it, so call Game only while no
// command runs: before or after Serve, or between a response and the next
// command, and do not keep the result across commands.
func (e *Engine) Game() *goban.Game { return e.game }

// Serve runs the engine on one connection; see [Server.Serve].
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	return e.srv.Serve(ctx, r, w)
}

func (e *Engine) newGame() error {
	g, err := goban.NewGame(e.width, e.height, e.rules)
	if err != nil {
		return err
	}
	g.SetFreeOrder(true) // GTP's play may give either colour at any time.
	if e.komiSet {
		g.SetKomi(e.komi)
	}
	e.game = g
	e.handicaps = 0
	e.resetClocks()
	return nil
}

// resetClocks starts both colours' clocks afresh under the time settings,
// for new settings or a new game, and forgets what time_left said.
func (e *Engine) resetClocks() {
	for _, c := range []goban.Color{goban.Black, goban.White} {
		e.clocks[c] = e.timeCtl.NewState()
	}
	e.timeKnown = [3]bool{}
}

// charge charges c's clock with a move that took elapsed. Many controllers
// never send time_left, so the engine keeps each colour's clock itself:
// without it every move would start from a fresh clock, or, charged over
// both colours as one turn, byo-yomi would run down to nothing within a few
// moves. A time_left overrides the count.
// A move that came too late by the engine's own count does not stop its
// clock: the controller, which keeps the real clock, let the game go on,
// so the clock stays as it was before the move rather than leaving no time
// for the rest of the game.
func (e *Engine) charge(c goban.Color, elapsed time.Duration) {
	if next := e.timeCtl.Play(e.clocks[c], elapsed); !next.TimedOut {
		e.clocks[c] = next
	}
}

func (e *Engine) register() {
	h := e.srv.Handle
	h("boardsize", e.boardsize)
	h("clear_board", e.clearBoard)
	h("komi", e.setKomi)
	h("get_komi", e.getKomi)
	h("play", e.play)
	h("genmove", e.genmove)
	h("reg_genmove", e.genmove)
	h("kgs-genmove_cleanup", e.genmove)
	h("undo", e.undo)
	h("gg-undo", e.undo)
	h("fixed_handicap", e.fixedHandicap)
	h("place_free_handicap", e.placeFreeHandicap)
	h("set_free_handicap", e.setFreeHandicap)
	h("time_settings", e.timeSettings)
	h("kgs-time_settings", e.timeSettings)
	h("kata-time_settings", e.timeSettings)
	h("time_left", e.setTimeLeft)
	h("final_score", e.finalScore)
	h("final_status_list", e.finalStatusList)
	h("captures", e.captures)
	h("list_stones", e.listStones)
	h("all_legal", e.allLegal)
	h("is_legal", e.isLegal)
	h("showboard", e.showboard)
	h("printsgf", e.printSGF)
	if !e.noFiles {
		h("loadsgf", e.loadSGF)
	}
	h("gogui-analyze_commands", e.analyzeCommands)
	h("kgs-rules", e.setRules)
	h("kata-set-rules", e.setRules)
}

// syntaxError is the GTP draft's message for malformed arguments.
func syntaxError(usage string) error { return errors.New("syntax error: " + usage) }

func (e *Engine) boardsize(_ context.Context, cmd Command) (string, error) {
	var w, h int
	var err1, err2 error
	switch len(cmd.Args) {
	case 1:
		w, err1 = strconv.Atoi(cmd.Args[0])
		h = w
	case 2:
		w, err1 = strconv.Atoi(cmd.Args[0])
		h, err2 = strconv.Atoi(cmd.Args[1])
	default:
		return "", syntaxError("boardsize SIZE or boardsize WIDTH HEIGHT")
	}
	if err1 != nil || err2 != nil {
		return "", syntaxError("boardsize SIZE or boardsize WIDTH HEIGHT")
	}
	if w < goban.MinSize || w > goban.MaxSize || h < goban.MinSize || h > goban.MaxSize {
		return "", errors.New("unacceptable size")
	}
	e.width, e.height = w, h
	return "", e.newGame()
}

func (e *Engine) clearBoard(context.Context, Command) (string, error) {
	return "", e.newGame()
}

func (e *Engine) setKomi(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError("komi NUMBER")
	}
	k, err := strconv.ParseFloat(cmd.Args[0], 64)
	if err != nil || math.IsInf(k, 0) || math.IsNaN(k) || math.Abs(k) > 1000 {
		return "", syntaxError("komi NUMBER")
	}
	e.komi, e.komiSet = k, true
	e.game.SetKomi(k)
	return "", nil
}

func (e *Engine) getKomi(context.Context, Command) (string, error) {
	return formatFloat(e.game.Komi()), nil
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func parseColor(s string) (goban.Color, error) {
	c, err := goban.ParseColor(s)
	if err != nil || (c != goban.Black && c != goban.White) {
		return 0, fmt.Errorf("syntax error: invalid color %q", s)
	}
	return c, nil
}

// errOffBoard marks a vertex that is well formed but outside the board.
var errOffBoard = errors.New("off board")

// parseVertex reads a GTP vertex. A vertex that is well formed but outside
// the board yields errOffBoard, so that play can answer "illegal move: off
// board" rather than a syntax error.
func (e *Engine) parseVertex(s string) (p goban.Point, pass bool, err error) {
	return parseVertexOn(s, e.width, e.height)
}

func (e *Engine) vertex(p goban.Point) string { return goban.FormatVertex(p, e.height) }

func (e *Engine) moveVertex(m goban.Move) string { return goban.FormatMoveVertex(m, e.height) }

// resumeIfPassed lets play continue after two passes, as GTP controllers
// expect (GoGui, for one, lets the user go on playing); the next move is
// the given colour's.
func (e *Engine) resumeIfPassed(g *goban.Game, next goban.Color) {
	if r := g.Result(); r.Reason == goban.EndPasses && r.Winner == goban.Empty {
		g.Resume(next.Opponent())
	}
}

// illegal turns a goban error into the GTP answer "illegal move: REASON".
func illegal(err error) error {
	var ime *goban.IllegalMoveError
	if errors.As(err, &ime) {
		return fmt.Errorf("illegal move: %v", ime.Reason)
	}
	return fmt.Errorf("illegal move: %v", err)
}

func (e *Engine) play(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 2 {
		return "", syntaxError("play COLOR VERTEX")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	p, pass, err := e.parseVertex(cmd.Args[1])
	if errors.Is(err, errOffBoard) {
		return "", illegal(goban.ErrOffBoard)
	}
	if err != nil {
		return "", err
	}
	m := goban.PassMove(c)
	if !pass {
		m = goban.PlayAt(c, p)
	}
	// Check on a copy first, so that a refused move does not resume a game
	// that two passes had ended.
	if g := e.playable(c); g.Legal(m) != nil {
		return "", illegal(g.Legal(m))
	}
	e.resumeIfPassed(e.game, c)
	if err := e.game.Play(m); err != nil {
		return "", illegal(err)
	}
	return "", nil
}

// playable returns the game as it is, or a copy resumed after two passes, for
// questions about c's legal moves.
func (e *Engine) playable(c goban.Color) *goban.Game {
	if r := e.game.Result(); r.Reason == goban.EndPasses && r.Winner == goban.Empty {
		g := e.game.Clone()
		e.resumeIfPassed(g, c)
		return g
	}
	return e.game
}

func (e *Engine) genmove(ctx context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError(cmd.Name + " COLOR")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	if e.game.Ended() && e.game.Result().Reason != goban.EndPasses {
		return "", fmt.Errorf("game over: %v", e.game.Result())
	}
	g := e.game.Clone()
	e.resumeIfPassed(g, c)
	g.SetToMove(c)
	req := MoveRequest{
		Game:    g,
		Color:   c,
		Cleanup: cmd.Name == "kgs-genmove_cleanup",
		Time:    e.timeState(c),
	}
	start := time.Now()
	m, err := e.player.GenMove(ctx, req)
	if err != nil {
		return "", err
	}
	if m.Color != c {
		return "", fmt.Errorf("internal error: player %s answered for %v", e.player.Name(), m.Color)
	}
	if cmd.Name == "reg_genmove" {
		// reg_genmove makes no move, so no clock runs.
		return e.moveVertex(m), nil
	}
	e.charge(c, time.Since(start))
	// A resignation is recorded too: it ends the game (printsgf writes
	// RE), and undo takes it back.
	e.resumeIfPassed(e.game, c)
	if err := e.game.Play(m); err != nil {
		return "", fmt.Errorf("internal error: player %s chose %s: %v", e.player.Name(), e.moveVertex(m), err)
	}
	return e.moveVertex(m), nil
}

func (e *Engine) undo(_ context.Context, cmd Command) (string, error) {
	n := 1
	if cmd.Name == "gg-undo" && len(cmd.Args) == 1 {
		k, err := strconv.Atoi(cmd.Args[0])
		if err != nil || k < 0 {
			return "", syntaxError("gg-undo [N]")
		}
		n = k
	} else if len(cmd.Args) != 0 {
		return "", syntaxError(cmd.Name)
	}
	// Undo on a copy so that a partial failure leaves the game untouched.
	g := e.game.Clone()
	for range n {
		if err := g.Undo(); err != nil {
			return "", errors.New("cannot undo")
		}
	}
	e.game = g
	return "", nil
}

func (e *Engine) boardEmpty() bool {
	b := e.game.Board()
	return b.Stones(goban.Black)+b.Stones(goban.White) == 0 && e.game.MoveNumber() == 0
}

func (e *Engine) parseHandicapCount(cmd Command) (int, error) {
	if len(cmd.Args) != 1 {
		return 0, syntaxError(cmd.Name + " NUMBER")
	}
	n, err := strconv.Atoi(cmd.Args[0])
	if err != nil {
		return 0, syntaxError(cmd.Name + " NUMBER")
	}
	if !e.boardEmpty() {
		return 0, errors.New("board not empty")
	}
	if n < 2 || n > goban.MaxHandicap || n >= e.width*e.height {
		return 0, errors.New("invalid number of stones")
	}
	return n, nil
}

// placeHandicap puts the stones on the board, keeping a komi the controller
// has set (goban would otherwise switch to the ruleset's handicap komi).
func (e *Engine) placeHandicap(pts []goban.Point) (string, error) {
	if err := e.game.PlaceHandicap(pts); err != nil {
		return "", err
	}
	if e.komiSet {
		e.game.SetKomi(e.komi)
	}
	e.handicaps = len(pts)
	vs := make([]string, len(pts))
	for i, p := range pts {
		vs[i] = e.vertex(p)
	}
	return strings.Join(vs, " "), nil
}

// gtpFixedHandicap returns the points of GTP's fixed_handicap. They are
// goban's fixed points except for three stones, where the GTP draft and GNU
// Go, its reference implementation, leave the lower right corner empty
// (D4 Q16 D16) while goban follows seed 004 and leaves the upper left empty.
// Boards of 7 lines take 4 stones at most, as in GNU Go, because their side
// and centre points touch the corner points' neighbours. Under a ruleset
// with HistoricHandicap (pfaundler), 10 to 13 stones on 19×19 add the 3-3
// points to the nine star points (Pfaundler §9), which GTP does not define.
func gtpFixedHandicap(rules goban.Ruleset, width, height, n int) ([]goban.Point, error) {
	if n > 9 && rules.HistoricHandicap {
		pts, err := rules.FixedHandicap(width, height, n)
		if err != nil {
			return nil, errors.New("invalid number of stones")
		}
		return pts, nil
	}
	if n > 9 || (n > 4 && (width == 7 || height == 7)) {
		return nil, errors.New("invalid number of stones")
	}
	if n != 3 {
		pts, err := goban.FixedHandicap(width, height, n, false)
		if err != nil {
			return nil, errors.New("invalid number of stones")
		}
		return pts, nil
	}
	four, err := goban.FixedHandicap(width, height, 4, false)
	if err != nil {
		return nil, errors.New("invalid number of stones")
	}
	// four lists upper left, upper right, lower left, lower right.
	return four[:3], nil
}

func (e *Engine) fixedHandicap(_ context.Context, cmd Command) (string, error) {
	n, err := e.parseHandicapCount(cmd)
	if err != nil {
		return "", err
	}
	pts, err := gtpFixedHandicap(e.rules, e.width, e.height, n)
	if err != nil {
		return "", err
	}
	return e.placeHandicap(pts)
}

// placeFreeHandicap chooses the stones itself: GTP's fixed points as far as
// the board has them, then, one at a time, the point farthest from the
// stones already placed, keeping off the first lines where the board allows
// it. The choice is the same every time.
func (e *Engine) placeFreeHandicap(_ context.Context, cmd Command) (string, error) {
	n, err := e.parseHandicapCount(cmd)
	if err != nil {
		return "", err
	}
	var pts []goban.Point
	for k := min(n, goban.MaxHandicap); k >= 2 && pts == nil; k-- {
		pts, _ = gtpFixedHandicap(e.rules, e.width, e.height, k)
	}
	taken := map[goban.Point]bool{}
	for _, p := range pts {
		taken[p] = true
	}
	// Keep off the first two lines on boards of 7 lines or more and off
	// the edge on smaller ones, unless that leaves too few points.
	minLine := 2
	if min(e.width, e.height) < 7 {
		minLine = 1
	}
	line := func(p goban.Point) int {
		return min(p.X, e.width-1-p.X, p.Y, e.height-1-p.Y)
	}
	for ; minLine > 0; minLine-- {
		free := 0
		for y := range e.height {
			for x := range e.width {
				if p := (goban.Point{X: x, Y: y}); !taken[p] && line(p) >= minLine {
					free++
				}
			}
		}
		if len(pts)+free >= n {
			break
		}
	}
	cx, cy := (e.width-1)/2, (e.height-1)/2
	for len(pts) < n {
		best, bestDist := goban.Point{}, -1
		for y := range e.height {
			for x := range e.width {
				p := goban.Point{X: x, Y: y}
				if taken[p] || line(p) < minLine {
					continue
				}
				// Distance to the nearest stone; on an empty board,
				// closeness to the centre decides.
				d := 4 * (e.width + e.height)
				for _, q := range pts {
					d = min(d, abs(p.X-q.X)+abs(p.Y-q.Y))
				}
				if len(pts) == 0 {
					d -= abs(p.X-cx) + abs(p.Y-cy)
				}
				if d > bestDist {
					best, bestDist = p, d
				}
			}
		}
		taken[best] = true
		pts = append(pts, best)
	}
	return e.placeHandicap(pts)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (e *Engine) setFreeHandicap(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) < 2 {
		return "", errors.New("bad vertex list")
	}
	if !e.boardEmpty() {
		return "", errors.New("board not empty")
	}
	if len(cmd.Args) > goban.MaxHandicap || len(cmd.Args) >= e.width*e.height {
		return "", errors.New("bad vertex list")
	}
	seen := map[goban.Point]bool{}
	var pts []goban.Point
	for _, a := range cmd.Args {
		p, pass, err := e.parseVertex(a)
		if err != nil || pass || seen[p] {
			return "", errors.New("bad vertex list")
		}
		seen[p] = true
		pts = append(pts, p)
	}
	_, err := e.placeHandicap(pts)
	return "", err
}

// clockError turns a clock parse error into GTP's syntax error message.
func clockError(err error) error {
	return syntaxError(strings.TrimPrefix(err.Error(), "clock: "))
}

func (e *Engine) timeSettings(_ context.Context, cmd Command) (string, error) {
	parse := clock.ParseTimeSettings
	switch cmd.Name {
	case "kgs-time_settings":
		parse = clock.ParseKGSTimeSettings
	case "kata-time_settings":
		parse = clock.ParseKataTimeSettings
	}
	tc, err := parse(cmd.Args)
	if err != nil {
		return "", clockError(err)
	}
	e.timeCtl = tc
	e.resetClocks()
	return "", nil
}

func (e *Engine) setTimeLeft(_ context.Context, cmd Command) (string, error) {
	cc, left, stones, err := clock.ParseTimeLeft(cmd.Args)
	if err != nil {
		return "", clockError(err)
	}
	c := goban.Black
	if cc == clock.White {
		c = goban.White
	}
	e.clocks[c] = e.timeCtl.StateFromTimeLeft(left, stones)
	e.timeKnown[c] = true
	return "", nil
}

// timeState is what the player is told about c's clock.
func (e *Engine) timeState(c goban.Color) TimeState {
	return TimeState{Control: e.timeCtl, Left: e.clocks[c], LeftReported: e.timeKnown[c]}
}

func (e *Engine) finalScore(context.Context, Command) (string, error) {
	if r := e.game.Result(); r.Reason != goban.NotEnded && r.Reason != goban.EndPasses {
		return r.String(), nil
	}
	s, err := e.game.Score(e.deadStones())
	if err != nil {
		return "", fmt.Errorf("cannot score: %v", err)
	}
	return s.Result.String(), nil
}

func (e *Engine) finalStatusList(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError("final_status_list alive|dead|seki")
	}
	var want goban.Status
	switch cmd.Args[0] {
	case "alive":
		want = goban.Alive
	case "dead":
		want = goban.Dead
	case "seki":
		want = goban.Seki
	default:
		return "", syntaxError("final_status_list alive|dead|seki")
	}
	b := e.game.Board()
	status, err := b.Statuses(e.deadStones())
	if err != nil {
		return "", fmt.Errorf("cannot estimate status: %v", err)
	}
	// One chain per line, as GNU Go answers; chains in board order.
	var lines []string
	done := map[goban.Point]bool{}
	for y := range e.height {
		for x := range e.width {
			p := goban.Point{X: x, Y: y}
			st, ok := status[p]
			if !ok || st != want || done[p] {
				continue
			}
			var vs []string
			for _, q := range b.Chain(p) {
				done[q] = true
				vs = append(vs, e.vertex(q))
			}
			lines = append(lines, strings.Join(vs, " "))
		}
	}
	return strings.Join(lines, "\n"), nil
}

func (e *Engine) captures(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError("captures COLOR")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	return strconv.Itoa(e.game.Captures(c)), nil
}

func (e *Engine) listStones(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError("list_stones COLOR")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	b := e.game.Board()
	var vs []string
	for y := range e.height {
		for x := range e.width {
			if p := (goban.Point{X: x, Y: y}); b.At(p) == c {
				vs = append(vs, e.vertex(p))
			}
		}
	}
	return strings.Join(vs, " "), nil
}

func (e *Engine) allLegal(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError("all_legal COLOR")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	var vs []string
	for _, p := range e.playable(c).LegalMoves(c) {
		vs = append(vs, e.vertex(p))
	}
	return strings.Join(vs, " "), nil
}

func (e *Engine) isLegal(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 2 {
		return "", syntaxError("is_legal COLOR VERTEX")
	}
	c, err := parseColor(cmd.Args[0])
	if err != nil {
		return "", err
	}
	p, pass, err := e.parseVertex(cmd.Args[1])
	if errors.Is(err, errOffBoard) {
		return "0", nil
	}
	if err != nil {
		return "", err
	}
	m := goban.PassMove(c)
	if !pass {
		m = goban.PlayAt(c, p)
	}
	if e.playable(c).Legal(m) != nil {
		return "0", nil
	}
	return "1", nil
}

// showboard draws the board with coordinates on all sides, the last move in
// parentheses, and the state of the game beside it.
func (e *Engine) showboard(context.Context, Command) (string, error) {
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	g, b := e.game, e.game.Board()
	last, hasLast := g.LastMove()
	if hasLast && last.Kind != goban.Play {
		hasLast = false
	}
	header := "  "
	for x := range e.width {
		header += " " + letters[x:x+1]
	}
	info := []string{
		fmt.Sprintf("rules %s, komi %s", e.rules.Name, formatFloat(g.Komi())),
		fmt.Sprintf("black (X) has captured %d", g.Captures(goban.Black)),
		fmt.Sprintf("white (O) has captured %d", g.Captures(goban.White)),
		fmt.Sprintf("%v to move, %d moves played", g.ToMove(), g.MoveNumber()),
	}
	if m, ok := g.LastMove(); ok {
		info = append(info, fmt.Sprintf("last move: %v %s", m.Color, e.moveVertex(m)))
	}
	if r := g.Result(); r.Reason == goban.EndPasses && r.Winner == goban.Empty && r.Margin == 0 {
		info = append(info, "two passes: final_score counts")
	} else if g.Ended() {
		info = append(info, fmt.Sprintf("game over (%v): %v", r.Reason, r))
	}
	var sb strings.Builder
	sb.WriteString("\n" + header + "\n")
	for y := range e.height {
		row := e.height - y
		fmt.Fprintf(&sb, "%2d", row)
		for x := range e.width {
			p := goban.Point{X: x, Y: y}
			sep := " "
			switch {
			case hasLast && last.Point == p:
				sep = "("
			case hasLast && last.Point == goban.Point{X: x - 1, Y: y}:
				sep = ")"
			}
			mark := "."
			switch b.At(p) {
			case goban.Black:
				mark = "X"
			case goban.White:
				mark = "O"
			}
			sb.WriteString(sep + mark)
		}
		end := " "
		if hasLast && last.Point == (goban.Point{X: e.width - 1, Y: y}) {
			end = ")"
		}
		fmt.Fprintf(&sb, "%s%d", end, row)
		if y < len(info) {
			if row < 10 {
				sb.WriteByte(' ')
			}
			sb.WriteString("   " + info[y])
		}
		sb.WriteString("\n")
	}
	sb.WriteString(header)
	// Boards with fewer rows than info lines still show all of it.
	for _, l := range info[min(len(info), e.height):] {
		sb.WriteString("\n" + l)
	}
	return sb.String(), nil
}

// analyzeCommands lists, for GoGui's Analyze menu, the commands whose
// answers it can show on the board ("type/label/command").
func (e *Engine) analyzeCommands(context.Context, Command) (string, error) {
	return strings.Join([]string{
		"string/Final Score/final_score",
		"plist/Dead Stones/final_status_list dead",
		"plist/Seki Stones/final_status_list seki",
		"plist/Legal Moves Black/all_legal b",
		"plist/Legal Moves White/all_legal w",
		"string/Captures Black/captures b",
		"string/Captures White/captures w",
	}, "\n"), nil
}

func (e *Engine) setRules(_ context.Context, cmd Command) (string, error) {
	if len(cmd.Args) != 1 {
		return "", syntaxError(cmd.Name + " RULESET")
	}
	r, err := goban.RulesetByName(cmd.Args[0])
	if err != nil {
		return "", fmt.Errorf("unknown ruleset %q", cmd.Args[0])
	}
	e.rules = r
	e.game.SetRules(r)
	if !e.komiSet {
		e.game.SetKomi(r.DefaultKomi(e.width, e.height, e.handicaps))
	}
	return "", nil
}
