package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
	"tengen/gtpengine"
)

func init() {
	commands["gtp"] = command{
		summary: "run the engine on standard input and output with the Go Text Protocol",
		run:     runGTP,
	}
}

func levelNames() string {
	var names []string
	for _, l := range engine.Levels() {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}

func runGTP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("gtp", "", stderr)
	rules := fs.String("rules", "chinese", "ruleset: "+strings.Join(goban.RulesetNames(), ", "))
	player := fs.String("player", "mcts", "move policy: mcts (the search engine) or random (a random legal move that does not fill its own eyes)")
	level := fs.String("level", "full", "playing strength of mcts: "+levelNames())
	threads := fs.Int("threads", 0, "search goroutines (0: one per CPU)")
	playouts := fs.Int("playouts", 0, "fixed number of playouts per move instead of time management (0: use the clock)")
	moveTime := fs.Duration("move-time", 0, "thinking time per move in games without a clock (0: "+engine.DefaultMoveTime.String()+")")
	seed := fs.Uint64("seed", 0, "random seed (0: from the clock)")
	resign := fs.Float64("resign", engine.DefaultResignThreshold, "win rate below which mcts resigns (0: never resign)")
	noFiles := fs.Bool("no-files", false, "refuse loadsgf and other commands that read files")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	if *resign < 0 || *resign >= 1 {
		return fmt.Errorf("gtp: -resign %g: want a win rate from 0 (never resign) to below 1", *resign)
	}
	resignAt := *resign
	if resignAt == 0 {
		resignAt = -1 // engine.Options: a negative threshold never resigns
	}
	opts := gtp.Options{Rules: *rules, Seed: *seed, Version: version, ErrorLog: stderr, NoFiles: *noFiles}
	var e *gtp.Engine
	var err error
	switch *player {
	case "random":
		e, err = gtp.NewEngine(opts)
	case "mcts":
		lv, lerr := engine.ParseLevel(*level)
		if lerr != nil {
			return fmt.Errorf("gtp: %w", lerr)
		}
		e, err = gtpengine.NewEngine(engine.New(engine.Options{
			Threads: *threads, Playouts: *playouts, MoveTime: *moveTime, Seed: *seed, Level: lv,
			ResignThreshold: resignAt,
		}), opts)
	default:
		return fmt.Errorf("gtp: unknown player %q (mcts or random)", *player)
	}
	if err != nil {
		return fmt.Errorf("gtp: %w", err)
	}
	return e.Serve(ctx, stdin, stdout)
}
