package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
	"tengen/gtpengine"
	"tengen/sgf"
)

// recordScorer is one way of scoring a final position: its name in the
// report and a function that returns the result as SGF writes it.
type recordScorer struct {
	name  string
	score func(ctx context.Context, file string, g *goban.Game) (string, error)
	// exact and winner count the records whose recorded result the scorer
	// gives exactly, and those whose winner it gives.
	exact, winner int
}

// scoreAgainstRecords scores the final position of every record whose RE is
// a result by points (B+3.5, W+0.5, 0) and compares each scorer's result
// with it: the server's dead-stone proposal (engine.DeadStones, then
// goban.Game.Score), final_score of Tengen's GTP engine (gtpengine, served
// in process and driven by a GTP client after loadsgf), and, with oracle,
// final_score of another GTP engine such as GNU Go. Records decided
// otherwise (resignation, time) and records without RE are left out and
// counted. It prints one line per record and the two figures per scorer:
// the recorded result exactly, and the right winner.
func scoreAgainstRecords(ctx context.Context, files []string, sf scoreFlags, est *engine.Engine, oracle string, stdin io.Reader, stdout, stderr io.Writer) error {
	if slices.Contains(files, "-") {
		return errors.New("score: --record reads files, not standard input: the GTP engines load them themselves")
	}
	rules := sf.rules
	if rules == "" {
		rules = "japanese"
	}
	scorers := []*recordScorer{{
		name: "proposal",
		score: func(_ context.Context, _ string, g *goban.Game) (string, error) {
			s, err := g.Score(est.DeadStones(g))
			if err != nil {
				return "", err
			}
			return s.Result.String(), nil
		},
	}}

	tengen, stop, err := serveInProcess(ctx, est, rules)
	if err != nil {
		return fmt.Errorf("score: --record: %w", err)
	}
	defer stop()
	scorers = append(scorers, &recordScorer{name: "gtp", score: gtpFinalScore(tengen, sf)})

	if oracle != "" {
		p, name, err := startOracle(ctx, oracle)
		if err != nil {
			return fmt.Errorf("score: --oracle: %w", err)
		}
		defer p.Close()
		scorers = append(scorers, &recordScorer{name: strings.ToLower(strings.ReplaceAll(name, " ", "")), score: gtpFinalScore(p.Client, sf)})
	}

	scored, skipped := 0, 0
	for _, file := range files {
		data, err := readInput(file, stdin)
		if err != nil {
			return err
		}
		want, ok, err := recordedPoints(data)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if !ok {
			skipped++
			continue
		}
		g, err := loadFinal(file, sf, stdin, stderr)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s: record %s", file, want)
		for _, s := range scorers {
			got, err := s.score(ctx, file, g)
			if err != nil {
				return fmt.Errorf("score: %s: %s: %w", file, s.name, err)
			}
			exact, winner, err := compareResults(want, got)
			if err != nil {
				return fmt.Errorf("score: %s: %s: %w", file, s.name, err)
			}
			mark := ""
			switch {
			case exact:
				s.exact++
				s.winner++
			case winner:
				s.winner++
				mark = " (winner)"
			default:
				mark = " (wrong)"
			}
			line += fmt.Sprintf(", %s %s%s", s.name, got, mark)
		}
		fmt.Fprintln(stdout, line)
		scored++
	}
	if scored == 0 {
		return fmt.Errorf("score: --record: none of the %d records has a result by points", len(files))
	}
	fmt.Fprintf(stdout, "\n%d records with a result by points (rules %s", scored, rules)
	if skipped > 0 {
		fmt.Fprintf(stdout, "; %d others left out", skipped)
	}
	fmt.Fprintln(stdout, ")")
	for _, s := range scorers {
		fmt.Fprintf(stdout, "%-9s recorded result %3d of %d (%5.1f%%), right winner %3d of %d (%5.1f%%)\n",
			s.name, s.exact, scored, 100*float64(s.exact)/float64(scored), s.winner, scored, 100*float64(s.winner)/float64(scored))
	}
	return nil
}

// recordedPoints returns the RE of the first game of an SGF collection
// when it is a result by points or a draw, and false otherwise.
func recordedPoints(data []byte) (string, bool, error) {
	c, err := sgf.Parse(data)
	if err != nil {
		return "", false, err
	}
	if len(c.Games) == 0 {
		return "", false, errors.New("no game")
	}
	// Warnings about other properties do not matter here; an unreadable
	// RE leaves HasResult false.
	info, _ := c.Games[0].GameInfo()
	if !info.HasResult {
		return "", false, nil
	}
	switch info.Result.Kind {
	case sgf.ResultScore, sgf.ResultDraw:
		r := goban.Result{Reason: goban.EndPasses, Margin: info.Result.Score}
		if info.Result.Kind == sgf.ResultScore {
			r.Winner = goban.Black
			if info.Result.Winner == sgf.White {
				r.Winner = goban.White
			}
		}
		return r.String(), true, nil
	}
	return "", false, nil
}

// compareResults reports whether got is the result want (a result by
// points or a draw as SGF writes it) and whether it names the same winner.
func compareResults(want, got string) (exact, winner bool, err error) {
	w, err := signedMargin(want)
	if err != nil {
		return false, false, err
	}
	g, err := signedMargin(strings.TrimSpace(got))
	if err != nil {
		return false, false, err
	}
	sign := func(x float64) int {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		}
		return 0
	}
	return w == g, sign(w) == sign(g), nil
}

// signedMargin is Black's lead in a result by points: +3.5 for B+3.5,
// -0.5 for W+0.5, 0 for a draw.
func signedMargin(s string) (float64, error) {
	r, err := goban.ParseResult(s)
	if err != nil {
		return 0, err
	}
	if r.Reason != goban.EndPasses {
		return 0, fmt.Errorf("%q is not a result by points", s)
	}
	switch r.Winner {
	case goban.Black:
		return r.Margin, nil
	case goban.White:
		return -r.Margin, nil
	}
	return 0, nil
}

// gtpSender is what gtpFinalScore needs of a GTP controller.
type gtpSender interface {
	Send(ctx context.Context, name string, args ...string) (string, error)
}

// gtpFinalScore scores a record with a GTP engine: loadsgf with the
// record's absolute path, a komi when --komi overrides the record's, then
// final_score.
func gtpFinalScore(c gtpSender, sf scoreFlags) func(context.Context, string, *goban.Game) (string, error) {
	return func(ctx context.Context, file string, _ *goban.Game) (string, error) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return "", err
		}
		if _, err := c.Send(ctx, "loadsgf", abs); err != nil {
			return "", fmt.Errorf("loadsgf: %w", err)
		}
		if sf.komi != nil {
			if _, err := c.Send(ctx, "komi", fmt.Sprint(*sf.komi)); err != nil {
				return "", fmt.Errorf("komi: %w", err)
			}
		}
		return c.Send(ctx, "final_score")
	}
}

// serveInProcess serves Tengen's GTP engine (gtpengine with est) on pipes
// and returns a client for it and a function that ends both.
func serveInProcess(ctx context.Context, est *engine.Engine, rules string) (*gtp.Client, func(), error) {
	ge, err := gtpengine.NewEngine(est, gtp.Options{Rules: rules, Version: version})
	if err != nil {
		return nil, nil, err
	}
	toEngine, fromClient := io.Pipe()
	fromEngine, toClient := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ge.Serve(ctx, toEngine, toClient)
		toClient.Close()
	}()
	c := gtp.NewClient(fromEngine, fromClient, nil)
	stop := func() {
		cancel()
		fromClient.Close()
		<-done
	}
	return c, stop, nil
}
