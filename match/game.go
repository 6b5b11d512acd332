package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/goban"
	"tengen/gtp"
	"tengen/sgf"
)

// How a game ended, as GameResult.End names it.
const (
	EndResign     = "resignation"
	EndScore      = "score"
	EndMoveLimit  = "move limit"
	EndForfeit    = "forfeit"
	EndTime       = "time"
	EndCapture    = "first capture"
	EndRepetition = "repetition"
	EndTie        = "repetition tie"
)

// Who scored a game, as GameResult.ScoredBy names it.
const (
	ScoredByReferee = "referee"
	ScoredByGoban   = "goban"
)

// ThinkTime sums up the time one engine took for its moves (genmove
// commands) in a game or a match.
type ThinkTime struct {
	// Moves is the number of genmove commands answered or abandoned.
	Moves int `json:"moves"`
	// Seconds is the time they took together.
	Seconds float64 `json:"seconds"`
	// MaxSeconds is the longest of them.
	MaxSeconds float64 `json:"max_seconds"`
}

func (t *ThinkTime) add(d time.Duration) {
	s := d.Seconds()
	t.Moves++
	t.Seconds += s
	t.MaxSeconds = max(t.MaxSeconds, s)
}

func (t *ThinkTime) merge(o ThinkTime) {
	t.Moves += o.Moves
	t.Seconds += o.Seconds
	t.MaxSeconds = max(t.MaxSeconds, o.MaxSeconds)
}

// Mean returns the mean time per move in seconds, or 0 without moves.
func (t ThinkTime) Mean() float64 {
	if t.Moves == 0 {
		return 0
	}
	return t.Seconds / float64(t.Moves)
}

// GameResult is the outcome of one game of a match. Engines are numbered 1
// and 2 as in Config.Engines (1 is Engines[0]).
type GameResult struct {
	// Game is the game's number, from 1.
	Game int `json:"game"`
	// Black and White are the numbers of the engines that played them.
	Black int `json:"black"`
	White int `json:"white"`
	// BlackName and WhiteName are the engines' names and versions.
	BlackName string `json:"black_name"`
	WhiteName string `json:"white_name"`
	// Result is the result as SGF's RE writes it: "B+3.5", "W+R", "B+F",
	// "W+T", "0" (jigo), "Void".
	Result string `json:"result"`
	// Winner is the number of the engine that won, 0 for a draw or no
	// result.
	Winner int `json:"winner"`
	// End says how the game ended: one of the End constants.
	End string `json:"end"`
	// Detail explains the end in a sentence or two: who forfeited and why,
	// who scored the game.
	Detail string `json:"detail"`
	// ScoredBy is ScoredByReferee or ScoredByGoban for games that were
	// counted, empty otherwise.
	ScoredBy string `json:"scored_by,omitempty"`
	// Referee is the referee's name when it scored the game.
	Referee string `json:"referee,omitempty"`
	// GobanResult is goban's own estimate when the referee scored the
	// game, so that the two can be compared.
	GobanResult string `json:"goban_result,omitempty"`
	// Moves is the number of moves played, passes included.
	Moves int `json:"moves"`
	// Seconds is the game's duration, setup and scoring included.
	Seconds float64 `json:"seconds"`
	// Think holds the engines' thinking times, Think[0] for engine 1.
	Think [2]ThinkTime `json:"think"`
	// SGF is the name of the game's record in the output directory.
	SGF string `json:"sgf,omitempty"`
	// Warnings lists what went wrong without deciding the game, such as an
	// engine that does not understand the ruleset command.
	Warnings []string `json:"warnings,omitempty"`
}

// game is one game being played.
type game struct {
	cfg   *Config
	rules goban.Ruleset
	num   int
	// engine maps a colour to the index in cfg.Engines of its engine.
	engine  [3]int
	players [3]*player
	g       *goban.Game
	states  [3]clock.State
	res     GameResult
	logs    []io.Closer
}

// playGame plays game num (from 1). Forfeits, crashes and timeouts of the
// engines decide the game; an error means the game could not be played
// at all (an engine that does not start or rejects the board size) or the
// match was cancelled.
func playGame(ctx context.Context, cfg *Config, rules goban.Ruleset, num int) (*GameResult, *sgf.Node, error) {
	begin := time.Now()
	gm := &game{cfg: cfg, rules: rules, num: num}
	black := 0
	if !cfg.SameColors && num%2 == 0 {
		black = 1
	}
	gm.engine[goban.Black], gm.engine[goban.White] = black, 1-black
	gm.res = GameResult{Game: num, Black: black + 1, White: 2 - black}
	defer gm.closeAll()
	for _, c := range []goban.Color{goban.Black, goban.White} {
		i := gm.engine[c]
		stderr, err := gm.log(c.String())
		if err != nil {
			return nil, nil, err
		}
		p, err := startPlayer(ctx, cfg.Engines[i], stderr, cfg.CommandTimeout)
		if err != nil {
			return nil, nil, fmt.Errorf("match: game %d: engine %d: %w", num, i+1, err)
		}
		gm.players[c] = p
	}
	gm.res.BlackName, gm.res.WhiteName = gm.players[goban.Black].name, gm.players[goban.White].name
	if err := gm.setup(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("match: game %d: %w", num, err)
	}
	if cfg.Time.Kind != clock.None {
		gm.states[goban.Black] = cfg.Time.NewState()
		gm.states[goban.White] = cfg.Time.NewState()
	}
	atLimit := false
	for !gm.g.Ended() {
		if gm.g.MoveNumber() >= cfg.MoveLimit {
			atLimit = true
			break
		}
		if err := gm.move(ctx, gm.g.ToMove()); err != nil {
			return nil, nil, err
		}
	}
	if err := gm.finish(ctx, atLimit); err != nil {
		return nil, nil, err
	}
	gm.res.Moves = len(nonResign(gm.g.Moves()))
	gm.res.Seconds = time.Since(begin).Seconds()
	return &gm.res, gm.record(), nil
}

// log returns the writer for an engine's standard error: a file in the
// output directory when EngineLogs is set, nil otherwise.
func (gm *game) log(kind string) (io.Writer, error) {
	if !gm.cfg.EngineLogs || gm.cfg.OutDir == "" {
		return nil, nil
	}
	f, err := os.Create(filepath.Join(gm.cfg.OutDir, gameFile(gm.num, gm.cfg.Games, "-"+kind+".log")))
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	gm.logs = append(gm.logs, f)
	return f, nil
}

func (gm *game) closeAll() {
	for _, p := range gm.players {
		p.close()
	}
	for _, l := range gm.logs {
		l.Close()
	}
}

func (gm *game) warn(format string, args ...any) {
	gm.res.Warnings = append(gm.res.Warnings, fmt.Sprintf(format, args...))
}

// who names the engine playing c, e.g. "Black (GNU Go 3.8)".
func (gm *game) who(c goban.Color) string {
	return fmt.Sprintf("%s (%s)", colorName(c), gm.players[c].name)
}

// colorName is "Black" or "White", to begin a sentence with.
func colorName(c goban.Color) string {
	if c == goban.White {
		return "White"
	}
	return "Black"
}

func formatKomi(k float64) string { return strconv.FormatFloat(k, 'f', -1, 64) }

// setup tells both engines the board size, rules, handicap, komi and time
// settings, and builds the goban game.
func (gm *game) setup(ctx context.Context) error {
	cfg := gm.cfg
	g, err := goban.NewGame(cfg.Size, cfg.Size, gm.rules)
	if err != nil {
		return err
	}
	gm.g = g
	for _, c := range []goban.Color{goban.Black, goban.White} {
		p := gm.players[c]
		if err := p.NewGame(ctx, cfg.Size); err != nil {
			return fmt.Errorf("%s: %s", gm.who(c), p.explain(err))
		}
		if w := rulesWarning(ctx, p, gm.rules); w != "" {
			gm.warn("%s: %s", p.name, w)
		}
	}
	if cfg.Handicap > 0 {
		if err := gm.handicap(ctx); err != nil {
			return err
		}
	}
	komi := gm.rules.DefaultKomi(cfg.Size, cfg.Size, cfg.Handicap)
	if cfg.Komi != nil {
		komi = *cfg.Komi
	}
	g.SetKomi(komi)
	for _, c := range []goban.Color{goban.Black, goban.White} {
		p := gm.players[c]
		if err := p.SetKomi(ctx, komi); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			gm.warn("%s: %s", p.name, p.explain(err))
		}
		if gm.timeControl(c).Kind != clock.None {
			if err := p.SetTime(ctx, cfg.Time); errors.Is(err, gtp.ErrUnsupported) {
				gm.warn("%s: knows no time_settings command; it does not know its time", p.name)
			} else if err != nil {
				gm.warn("%s: %s", p.name, p.explain(err))
			}
		}
	}
	return nil
}

// rulesWarning tells p the ruleset and returns a warning when the engine
// could not be told.
func rulesWarning(ctx context.Context, p *player, r goban.Ruleset) string {
	err := p.SetRules(ctx, r.Name)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, gtp.ErrUnsupported):
		return fmt.Sprintf("knows neither kata-set-rules nor kgs-rules; make sure its command line selects %s rules", r.Name)
	}
	return p.explain(err) + "; the engine may play other rules"
}

// handicap places the handicap stones in the goban game and tells both
// engines.
func (gm *game) handicap(ctx context.Context) error {
	n, size := gm.cfg.Handicap, gm.cfg.Size
	black, white := gm.players[goban.Black], gm.players[goban.White]
	if gm.cfg.FreeHandicap {
		pts, err := black.PlaceFreeHandicap(ctx, n)
		if err != nil {
			return fmt.Errorf("%s: %s", gm.who(goban.Black), black.explain(err))
		}
		if err := gm.g.PlaceHandicap(pts); err != nil {
			return fmt.Errorf("%s: place_free_handicap %d: %v", gm.who(goban.Black), n, err)
		}
		if err := white.SetHandicap(ctx, pts, false); err != nil {
			return fmt.Errorf("%s: %s", gm.who(goban.White), white.explain(err))
		}
		return nil
	}
	pts, err := fixedHandicap(size, n)
	if err != nil {
		return err
	}
	if err := gm.g.PlaceHandicap(pts); err != nil {
		return err
	}
	for _, c := range []goban.Color{goban.Black, goban.White} {
		if err := gm.players[c].SetHandicap(ctx, pts, true); err != nil {
			return fmt.Errorf("%s: %s", gm.who(c), gm.players[c].explain(err))
		}
	}
	return nil
}

// timeControl is the clock that the engine of colour c plays with: none
// for the untimed engine, the match's otherwise.
func (gm *game) timeControl(c goban.Color) clock.TimeControl {
	if gm.cfg.Untimed == gm.engine[c]+1 {
		return clock.NoTimeLimit()
	}
	return gm.cfg.Time
}

// lose ends the game with c's loss for reason (EndForfeit or EndTime).
func (gm *game) lose(c goban.Color, reason goban.EndReason, detail string) {
	gm.g.End(c.Opponent(), reason)
	gm.res.Detail = detail
}

// move asks the engine of colour c for a move, plays it in the goban game
// and on the opponent's board. A misbehaving engine loses the game; the
// returned error is the match's cancellation.
func (gm *game) move(ctx context.Context, c goban.Color) error {
	cfg, g := gm.cfg, gm.g
	p, opp := gm.players[c], gm.players[c.Opponent()]
	tc := gm.timeControl(c)
	var clockLimit time.Duration
	hasClock := false
	if tc.Kind != clock.None {
		// An engine that does not know time_left is not told, and with
		// NoTimeLeft no engine is.
		if !cfg.NoTimeLeft {
			if err := p.TimeLeft(ctx, c, tc, gm.states[c]); err != nil && !errors.Is(err, gtp.ErrUnsupported) {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				gm.lose(c, goban.EndForfeit, fmt.Sprintf("%s %s.", gm.who(c), onCommand(p, err)))
				return nil
			}
		}
		clockLimit, hasClock = tc.Remaining(gm.states[c])
		clockLimit += cfg.TimeGrace
	}
	limit, byClock := cfg.MoveTimeout, false
	if hasClock && (limit <= 0 || clockLimit < limit) {
		limit, byClock = clockLimit, true
	}
	mctx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		mctx, cancel = context.WithTimeout(ctx, limit)
	}
	start := time.Now()
	m, err := p.GenMove(mctx, c)
	elapsed := time.Since(start)
	cancel()
	gm.res.Think[gm.engine[c]].add(elapsed)
	var bad *gtp.AnswerError
	if err != nil && !errors.As(err, &bad) {
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded) && byClock:
			gm.lose(c, goban.EndTime, fmt.Sprintf("%s ran out of time: no move within %v.", gm.who(c), limit.Round(time.Millisecond)))
		case errors.Is(err, context.DeadlineExceeded):
			gm.lose(c, goban.EndForfeit, fmt.Sprintf("%s gave no move within the move timeout of %v.", gm.who(c), limit))
		default:
			gm.lose(c, goban.EndForfeit, fmt.Sprintf("%s %s on genmove.", gm.who(c), p.failure(err)))
		}
		return nil
	}
	if hasClock {
		gm.states[c] = tc.Play(gm.states[c], max(0, elapsed-cfg.TimeGrace))
		if gm.states[c].TimedOut {
			gm.lose(c, goban.EndTime, fmt.Sprintf("%s ran out of time: its move took %v.", gm.who(c), elapsed.Round(time.Millisecond)))
			return nil
		}
	}
	if bad != nil {
		gm.lose(c, goban.EndForfeit, fmt.Sprintf("%s answered genmove with %q, which is not a move on this board.", gm.who(c), bad.Answer))
		return nil
	}
	v := goban.FormatMoveVertex(m, cfg.Size)
	if err := g.Play(m); err != nil {
		why := err
		var ime *goban.IllegalMoveError
		if errors.As(err, &ime) {
			why = ime.Reason
		}
		gm.lose(c, goban.EndForfeit, fmt.Sprintf("%s played the illegal move %s (%v) as move %d.", gm.who(c), v, why, g.MoveNumber()+1))
		return nil
	}
	if g.RepetitionOffered() {
		// GTP has no way to ask an engine whether it agrees to a void
		// game (1989 Japanese rules, Art. 12); two engines that repeat a
		// cycle a third time would repeat it to the move limit, so the
		// referee takes the repetition as agreed.
		if err := g.AgreeVoid(); err != nil {
			return err
		}
	}
	if g.Ended() {
		return nil // the opponent need not know the last move
	}
	if err := opp.Play(ctx, m); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		gm.lose(c.Opponent(), goban.EndForfeit, fmt.Sprintf("%s %s, a legal move.", gm.who(c.Opponent()), onCommand(opp, err)))
	}
	return nil
}

func nonResign(ms []goban.Move) []goban.Move {
	out := ms[:0:0]
	for _, m := range ms {
		if m.Kind != goban.Resign {
			out = append(out, m)
		}
	}
	return out
}

// finish scores a game that ended by two passes or at the move limit and
// fills in the result.
func (gm *game) finish(ctx context.Context, atLimit bool) error {
	g := gm.g
	r := g.Result()
	switch {
	case atLimit || r.Reason == goban.EndPasses:
		if err := gm.score(ctx); err != nil {
			return err
		}
		gm.res.End = EndScore
		lead := "The game ended by two passes."
		if atLimit {
			gm.res.End = EndMoveLimit
			lead = fmt.Sprintf("The game reached the move limit of %d moves and was scored as it stood.", gm.cfg.MoveLimit)
		}
		gm.res.Detail = lead + " " + gm.res.Detail
	case r.Reason == goban.EndResign:
		gm.res.End = EndResign
		gm.res.Detail = fmt.Sprintf("%s resigned.", gm.who(r.Winner.Opponent()))
	case r.Reason == goban.EndForfeit:
		gm.res.End = EndForfeit
	case r.Reason == goban.EndTime:
		gm.res.End = EndTime
	case r.Reason == goban.EndCapture:
		gm.res.End = EndCapture
		gm.res.Detail = fmt.Sprintf("%s made the first capture.", gm.who(r.Winner))
	case r.Reason == goban.EndRepetition:
		gm.res.End = EndRepetition
		gm.res.Detail = "A position occurred for the third time without a pass in between: the game has no result."
	case r.Reason == goban.EndRepetitionTie:
		gm.res.End = EndTie
		gm.res.Detail = "A play repeated an earlier position with equal losses on both sides: the game is a tie."
	}
	r = g.Result()
	gm.res.Result = r.String()
	if r.Winner == goban.Black || r.Winner == goban.White {
		gm.res.Winner = gm.engine[r.Winner] + 1
	}
	return nil
}

// score counts the final position with the referee, if there is one, and
// with goban's dead-stone estimate, and records the result in the game.
func (gm *game) score(ctx context.Context) error {
	g := gm.g
	est, err := g.Score(g.Board().EstimateDead(gm.cfg.ScoringPlayouts))
	if err != nil {
		return fmt.Errorf("match: game %d: scoring: %w", gm.num, err)
	}
	res := est.Result
	gm.res.ScoredBy = ScoredByGoban
	gm.res.Detail = fmt.Sprintf("Scored by Tengen's goban under %s rules with its dead-stone estimate (%d playouts): %v.", gm.rules.Name, gm.cfg.ScoringPlayouts, res)
	if len(gm.cfg.Referee.Command) > 0 {
		rr, name, err := gm.refereeScore(ctx)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			gm.warn("referee: %v; goban's estimate decides", err)
			gm.res.Detail += " The referee failed: " + err.Error() + "."
		default:
			gm.res.ScoredBy, gm.res.Referee, gm.res.GobanResult = ScoredByReferee, name, res.String()
			gm.res.Detail = fmt.Sprintf("Scored by the referee %s with final_score: %v (goban's own estimate: %v).", name, rr, res)
			res = rr
		}
	}
	g.SetResult(res)
	return nil
}

// refereeScore replays the game into a fresh referee engine and asks it
// for final_score.
func (gm *game) refereeScore(ctx context.Context) (goban.Result, string, error) {
	cfg, g := gm.cfg, gm.g
	stderr, err := gm.log("referee")
	if err != nil {
		return goban.Result{}, "", err
	}
	ref, err := startPlayer(ctx, cfg.Referee, stderr, cfg.CommandTimeout)
	if err != nil {
		return goban.Result{}, "", err
	}
	defer ref.close()
	if err := ref.NewGame(ctx, cfg.Size); err != nil {
		return goban.Result{}, ref.name, fmt.Errorf("%s %s", ref.name, onCommand(ref, err))
	}
	if w := rulesWarning(ctx, ref, gm.rules); w != "" {
		gm.warn("referee %s: %s", ref.name, w)
	}
	if n, pts := g.Handicap(); n >= 2 {
		if err := ref.SetHandicap(ctx, pts, false); err != nil {
			return goban.Result{}, ref.name, fmt.Errorf("referee %s: %s", ref.name, ref.explain(err))
		}
	}
	if err := ref.SetKomi(ctx, g.Komi()); err != nil {
		return goban.Result{}, ref.name, fmt.Errorf("%s %s", ref.name, onCommand(ref, err))
	}
	if n, err := ref.Replay(ctx, g.Moves()); err != nil {
		return goban.Result{}, ref.name, fmt.Errorf("%s %s on move %d", ref.name, onCommand(ref, err), n+1)
	}
	ans, err := ref.Send(ctx, "final_score")
	if err != nil {
		return goban.Result{}, ref.name, fmt.Errorf("%s %s", ref.name, ref.failure(err))
	}
	r, err := goban.ParseResult(strings.TrimSpace(ans))
	if err != nil || r.Reason != goban.EndPasses {
		return goban.Result{}, ref.name, fmt.Errorf("%s answered final_score with %q, which is not a score", ref.name, strings.TrimSpace(ans))
	}
	return r, ref.name, nil
}

// record builds the game's SGF.
func (gm *game) record() *sgf.Node {
	cfg := gm.cfg
	info := sgf.GameInfo{
		BlackName:   gm.res.BlackName,
		WhiteName:   gm.res.WhiteName,
		Date:        cfg.Now().UTC().Format("2006-01-02"),
		Application: cfg.Application,
		Event:       cfg.Event,
		GameName:    fmt.Sprintf("Match game %d of %d", gm.num, cfg.Games),
	}
	root := sgf.FromGame(gm.g, info)
	// FromGame leaves RE out for jigo and games without a winner; a match
	// record always says how it ended.
	root.Set("RE", gm.res.Result)
	if tm, ot := clock.SGFProperties(cfg.Time); tm != "" {
		root.Set("TM", tm)
		if ot != "" {
			root.SetSimpleText("OT", ot)
		}
	}
	root.SetText("GC", fmt.Sprintf("Game %d of %d of a match run by Tengen. Black: %s. White: %s. %s",
		gm.num, cfg.Games, gm.res.BlackName, gm.res.WhiteName, gm.res.Detail))
	last := root
	for len(last.Children) > 0 {
		last = last.Children[0]
	}
	if last != root {
		last.SetText("C", gm.res.Detail)
	}
	return root
}

// gameFile names game num's file with the given suffix, with the number
// padded so that the files sort in game order.
func gameFile(num, games int, suffix string) string {
	width := max(3, len(strconv.Itoa(games)))
	return fmt.Sprintf("game-%0*d%s", width, num, suffix)
}
