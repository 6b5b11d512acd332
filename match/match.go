package match

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"tengen/sgf"
)

// Run plays the match. Games run cfg.Parallel at a time, each with its own
// engine processes; their records and results are numbered in game order
// whatever order they finish in. When cfg.OutDir is set, every game's SGF
// is written as soon as it is finished and summary.json and summary.txt at
// the end, also when the match stops early.
//
// Run returns the summary of the games finished and an error when the match
// could not be completed: an engine that does not start or rejects the
// setup, a file that cannot be written, or the cancellation of ctx.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	cfg, rules, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if cfg.OutDir != "" {
		if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
	}
	begin := time.Now()
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	r := &runner{cfg: &cfg, results: make([]*GameResult, cfg.Games), warned: map[string]bool{}}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.Parallel, cfg.Games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for num := range next {
				res, root, err := playGame(ctx, &cfg, rules, num)
				if err == nil {
					err = r.save(num, res, root)
				}
				if err != nil {
					r.fail(err)
					cancel()
					return
				}
			}
		}()
	}
feed:
	for num := 1; num <= cfg.Games; num++ {
		select {
		case next <- num:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()

	s := summarize(&cfg, r.results, r.names, time.Since(begin))
	err = r.err
	if err == nil {
		err = parent.Err()
	}
	if cfg.OutDir != "" {
		if werr := writeSummary(cfg.OutDir, s); werr != nil && err == nil {
			err = werr
		}
	}
	return s, err
}

// runner collects the games' results. Its fields are guarded by mu.
type runner struct {
	cfg *Config

	mu sync.Mutex
	// results[i] is game i+1's result, nil until it is finished.
	results []*GameResult
	// printed is the number of games whose progress line was written.
	printed int
	// names are the engines' names as the first game that started them
	// reported; empty until then.
	names [2]string
	// warned holds the warnings printed, so that each is printed once.
	warned map[string]bool
	err    error
}

// save writes the game's record and prints the progress lines that are due
// in game order.
func (r *runner) save(num int, res *GameResult, root *sgf.Node) error {
	cfg := r.cfg
	if cfg.OutDir != "" {
		data, err := sgf.Format(root)
		if err != nil {
			return fmt.Errorf("match: game %d: %w", num, err)
		}
		res.SGF = gameFile(num, cfg.Games, ".sgf")
		if err := os.WriteFile(filepath.Join(cfg.OutDir, res.SGF), data, 0o644); err != nil {
			return fmt.Errorf("match: %w", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results[num-1] = res
	for i, name := range []string{res.BlackName, res.WhiteName} {
		if e := []int{res.Black, res.White}[i] - 1; r.names[e] == "" {
			r.names[e] = name
		}
	}
	for r.printed < len(r.results) && r.results[r.printed] != nil {
		if cfg.Progress != nil {
			fmt.Fprint(cfg.Progress, r.progress(r.results[r.printed]))
		}
		r.printed++
	}
	return nil
}

func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// progress describes a finished game in one line, with the warnings not
// seen in earlier games on the lines after it. r.mu must be held.
func (r *runner) progress(res *GameResult) string {
	var b strings.Builder
	games := r.cfg.Games
	width := len(fmt.Sprint(games))
	fmt.Fprintf(&b, "game %*d/%d: B %s vs W %s: %s (%s", width, res.Game, games, res.BlackName, res.WhiteName, res.Result, res.End)
	if res.ScoredBy != "" {
		fmt.Fprintf(&b, ", scored by %s", res.ScoredBy)
	}
	fmt.Fprintf(&b, ") %d moves, %.1fs\n", res.Moves, res.Seconds)
	if res.End == EndForfeit || res.End == EndTime {
		fmt.Fprintf(&b, "  %s\n", res.Detail)
	}
	for _, w := range res.Warnings {
		if !r.warned[w] {
			r.warned[w] = true
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
	}
	return b.String()
}

// writeSummary writes summary.json and summary.txt.
func writeSummary(dir string, s *Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	data = append(data, '\n')
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), data, 0o644); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.txt"), text.Bytes(), 0o644); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}
