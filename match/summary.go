package match

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"tengen/clock"
)

// Z95 is the standard normal quantile for a two-sided 95% confidence
// interval.
const Z95 = 1.959963984540054

// Interval is a confidence interval for a proportion.
type Interval struct {
	// Low and High are the bounds, between 0 and 1.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Wilson returns the Wilson score interval for a proportion of successes
// out of n trials at the normal quantile z (Z95 for 95%). Unlike the
// textbook interval p ± z·√(p(1−p)/n), it stays inside [0, 1] and does not
// shrink to a point when every game was won or lost, which matters for the
// short matches engines are tested with. Draws may be counted as half
// successes. Without trials the interval is [0, 1].
func Wilson(successes float64, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := successes / nf
	z2 := z * z
	denom := 1 + z2/nf
	centre := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	iv := Interval{Low: max(0, centre-half), High: min(1, centre+half)}
	// The bounds are exactly 0 and 1 for no and all successes; rounding
	// would leave them a hair off.
	if successes <= 0 {
		iv.Low = 0
	}
	if successes >= nf {
		iv.High = 1
	}
	return iv
}

// Record counts wins, losses, draws and games without result.
type Record struct {
	// Games is the number of games; it is the sum of the other four.
	Games int `json:"games"`
	// Wins, Losses and Draws count the games with a result; a draw is a
	// jigo or a tie by repetition.
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
	// NoResult counts void games (a repetition under the Japanese rules).
	NoResult int `json:"no_result"`
}

// Score returns the wins plus half the draws.
func (r Record) Score() float64 { return float64(r.Wins) + float64(r.Draws)/2 }

// Decided returns the games with a result: wins, losses and draws.
func (r Record) Decided() int { return r.Wins + r.Losses + r.Draws }

func (r *Record) add(outcome int) {
	r.Games++
	switch outcome {
	case 1:
		r.Wins++
	case -1:
		r.Losses++
	case 0:
		r.Draws++
	default:
		r.NoResult++
	}
}

// EngineStats is one engine's part of a match summary.
type EngineStats struct {
	// Number is 1 or 2, as in GameResult.
	Number int `json:"number"`
	// Name is the engine's name and version as it reported them.
	Name string `json:"name"`
	// Command is the engine's command line.
	Command string `json:"command"`
	// Record counts all games; AsBlack and AsWhite count them by colour.
	Record
	AsBlack Record `json:"as_black"`
	AsWhite Record `json:"as_white"`
	// WinRate is Score()/Decided(), with draws as half wins; CI95 is its
	// Wilson score interval.
	WinRate float64  `json:"win_rate"`
	CI95    Interval `json:"ci95"`
	// Forfeits and TimeLosses count the games lost by forfeit (crash,
	// timeout, illegal move) and on time.
	Forfeits   int `json:"forfeits"`
	TimeLosses int `json:"time_losses"`
	// Think sums up the engine's time per move over all games.
	Think ThinkTime `json:"think"`
	// MeanMoveSeconds is Think.Mean(), for readers of the JSON.
	MeanMoveSeconds float64 `json:"mean_move_seconds"`
}

// Summary is the outcome of a match.
type Summary struct {
	// Games is the number of games the match was to play; Played counts
	// those that were finished.
	Games  int `json:"games"`
	Played int `json:"played"`
	// Size, Rules, Komi, Handicap, Time, MoveTimeout, MoveLimit and Referee
	// repeat the configuration. Komi is nil when each game used the
	// ruleset's default.
	Size        int      `json:"size"`
	Rules       string   `json:"rules"`
	Komi        *float64 `json:"komi,omitempty"`
	Handicap    int      `json:"handicap"`
	Time        string   `json:"time"`
	MoveTimeout float64  `json:"move_timeout_seconds"`
	MoveLimit   int      `json:"move_limit"`
	Referee     string   `json:"referee,omitempty"`
	// Engines holds both engines' statistics; Engines[0] is engine 1.
	Engines [2]EngineStats `json:"engines"`
	// Black and White count the games from the colours' point of view;
	// their CI95 is the interval of Black's win rate.
	Black        Record   `json:"black"`
	White        Record   `json:"white"`
	BlackWinRate float64  `json:"black_win_rate"`
	BlackCI95    Interval `json:"black_ci95"`
	// MeanMoves is the average game length in moves, passes included.
	MeanMoves float64 `json:"mean_moves"`
	// Ends counts the games by how they ended (the End constants);
	// ScoredBy counts the scored games by who scored them.
	Ends     map[string]int `json:"ends"`
	ScoredBy map[string]int `json:"scored_by"`
	// Results lists every finished game in game order.
	Results []GameResult `json:"results"`
	// Seconds is the match's duration.
	Seconds float64 `json:"seconds"`
}

// summarize sums up the finished games; results may have holes (nil) where
// games were not finished.
func summarize(cfg *Config, results []*GameResult, names [2]string, elapsed time.Duration) *Summary {
	s := &Summary{
		Games:       cfg.Games,
		Size:        cfg.Size,
		Rules:       cfg.Rules,
		Komi:        cfg.Komi,
		Handicap:    cfg.Handicap,
		Time:        cfg.Time.String(),
		MoveTimeout: cfg.MoveTimeout.Seconds(),
		MoveLimit:   cfg.MoveLimit,
		Ends:        map[string]int{},
		ScoredBy:    map[string]int{},
		Results:     []GameResult{},
		Seconds:     elapsed.Seconds(),
	}
	if cfg.Time.Kind == clock.None {
		s.Time = "none"
	}
	if len(cfg.Referee.Command) > 0 {
		s.Referee = cfg.Referee.String()
	}
	for i := range s.Engines {
		s.Engines[i].Number = i + 1
		s.Engines[i].Name = names[i]
		s.Engines[i].Command = cfg.Engines[i].String()
	}
	moves := 0
	for _, r := range results {
		if r == nil {
			continue
		}
		s.Played++
		s.Results = append(s.Results, *r)
		moves += r.Moves
		s.Ends[r.End]++
		if r.ScoredBy != "" {
			s.ScoredBy[r.ScoredBy]++
		}
		// outcome of Black: 1 win, -1 loss, 0 draw, 2 no result.
		black := 2
		switch {
		case r.Winner == r.Black:
			black = 1
		case r.Winner == r.White:
			black = -1
		case r.Result == "0":
			black = 0
		}
		white := black
		if black == 1 || black == -1 {
			white = -black
		}
		s.Black.add(black)
		s.White.add(white)
		for i := range s.Engines {
			e := &s.Engines[i]
			e.Think.merge(r.Think[i])
			out, rec := white, &e.AsWhite
			if r.Black == i+1 {
				out, rec = black, &e.AsBlack
			}
			e.Record.add(out)
			rec.add(out)
			if out == -1 && r.End == EndForfeit {
				e.Forfeits++
			}
			if out == -1 && r.End == EndTime {
				e.TimeLosses++
			}
		}
	}
	for i := range s.Engines {
		e := &s.Engines[i]
		if d := e.Decided(); d > 0 {
			e.WinRate = e.Score() / float64(d)
		}
		e.CI95 = Wilson(e.Score(), e.Decided(), Z95)
		e.MeanMoveSeconds = e.Think.Mean()
	}
	if d := s.Black.Decided(); d > 0 {
		s.BlackWinRate = s.Black.Score() / float64(d)
	}
	s.BlackCI95 = Wilson(s.Black.Score(), s.Black.Decided(), Z95)
	if s.Played > 0 {
		s.MeanMoves = float64(moves) / float64(s.Played)
	}
	return s
}

// labels returns names to tell the engines apart in tables: their names,
// with their numbers added when the names are the same.
func (s *Summary) labels() [2]string {
	l := [2]string{s.Engines[0].Name, s.Engines[1].Name}
	if l[0] == l[1] {
		l[0] += " [1]"
		l[1] += " [2]"
	}
	return l
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// WriteText writes the summary as a table for people.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	komi := "default komi"
	if s.Komi != nil {
		komi = "komi " + formatKomi(*s.Komi)
	}
	hc := "no handicap"
	if s.Handicap > 0 {
		hc = fmt.Sprintf("handicap %d", s.Handicap)
	}
	fmt.Fprintf(&b, "Match: %d of %d games played, %d×%d, %s rules, %s, %s, time %s.\n",
		s.Played, s.Games, s.Size, s.Size, s.Rules, komi, hc, s.Time)
	labels := s.labels()
	for i, e := range s.Engines {
		fmt.Fprintf(&b, "Engine %d: %s (%s)\n", i+1, labels[i], e.Command)
	}
	b.WriteString("\n")
	// Names go left, numbers right; tabwriter aligns every column the same
	// way, so the names are padded here.
	nameWidth := len("engine")
	for _, l := range labels {
		nameWidth = max(nameWidth, utf8.RuneCountInString(l))
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\tgames\twins\tlosses\tdraws\twin rate\t95%% CI\tas Black\tas White\tforfeits\tlost on time\tms/move\tmax ms/move\t\n", nameWidth, "engine")
	for i, e := range s.Engines {
		fmt.Fprintf(tw, "%-*s\t%d\t%d\t%d\t%d\t%s\t[%s, %s]\t%d/%d\t%d/%d\t%d\t%d\t%.1f\t%.1f\t\n",
			nameWidth, labels[i], e.Games, e.Wins, e.Losses, e.Draws, pct(e.WinRate), pct(e.CI95.Low), pct(e.CI95.High),
			e.AsBlack.Wins, e.AsBlack.Games, e.AsWhite.Wins, e.AsWhite.Games, e.Forfeits, e.TimeLosses,
			1000*e.Think.Mean(), 1000*e.Think.MaxSeconds)
	}
	tw.Flush()
	fmt.Fprintf(&b, "\nBlack won %d, White won %d, %d drawn, %d without result; Black's win rate %s [%s, %s].\n",
		s.Black.Wins, s.White.Wins, s.Black.Draws, s.Black.NoResult, pct(s.BlackWinRate), pct(s.BlackCI95.Low), pct(s.BlackCI95.High))
	fmt.Fprintf(&b, "Average game length: %.1f moves. Match time: %s.\n", s.MeanMoves, time.Duration(s.Seconds*float64(time.Second)).Round(time.Second))
	var ends []string
	for _, e := range []string{EndResign, EndScore, EndMoveLimit, EndForfeit, EndTime, EndCapture, EndRepetition, EndTie} {
		if n := s.Ends[e]; n > 0 {
			ends = append(ends, fmt.Sprintf("%d by %s", n, e))
		}
	}
	if len(ends) > 0 {
		fmt.Fprintf(&b, "Games ended: %s.\n", strings.Join(ends, ", "))
	}
	if n := s.ScoredBy[ScoredByReferee] + s.ScoredBy[ScoredByGoban]; n > 0 {
		fmt.Fprintf(&b, "Scored: %d by the referee, %d by goban's dead-stone estimate.\n", s.ScoredBy[ScoredByReferee], s.ScoredBy[ScoredByGoban])
	}
	_, err := io.WriteString(w, b.String())
	return err
}
