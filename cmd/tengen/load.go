package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"tengen/internal/load"
)

func init() {
	commands["load"] = command{
		summary: "load test: many live games over WebSockets against a server on this machine, then a report",
		run:     runLoad,
	}
}

func runLoad(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("load", "", stderr)
	var urls stringList
	fs.Var(&urls, "url", "base URL of a running server on a loopback address, e.g. http://127.0.0.1:8080 (its rate limits must be raised, see docs/OPERATIONS.md); repeat it, or separate URLs by commas, for several instances on one database; default: start a server in this process")
	split := fs.Bool("split-players", false, "with several --url: put a game's two players on different instances (default: both on one, its spectators on another)")
	localSpec := fs.Bool("local-spectators", false, "with several --url: put a game's spectators on its Black player's instance, the game's owner (default: on the other instances), to measure the cost of events between instances")
	db := fs.String("db", "", "database of the in-process server: an SQLite file or a postgres:// URL (default: SQLite in a temporary directory, removed afterwards)")
	syncMode := fs.String("synchronous", "", "SQLite synchronous setting of the in-process server: FULL (default) or NORMAL")
	games := fs.Int("games", 1000, "live games played at once")
	spectators := fs.Int("spectators", -1, "anonymous spectator WebSockets, spread over the games (default: one per game)")
	players := fs.Int("players", 0, "accounts registered, at least 4; game i is played by players 2i and 2i+1 modulo this (default 2×games)")
	rate := fs.Float64("rate", 2000, "moves per second offered in total, spread over the games")
	duration := fs.Duration("duration", time.Minute, "how long moves are played; setup and cleanup come on top")
	boardSize := fs.Int("board-size", 19, "board size of the games")
	maxMoves := fs.Int("max-moves", 300, "moves after which a game is resigned and its players start a new one")
	seed := fs.Uint64("seed", 0, "seed of the moves (default: the clock)")
	var pids intList
	fs.Var(&pids, "server-pid", "process id of the server given by --url, to report its memory and CPU (Linux); repeat it (or separate by commas) in the order of the URLs")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process over the measured time to this file (with the in-process server: the server's profile, clients included)")
	verbose := fs.Bool("v", false, "log the steps of setup")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 || *games < 1 || *rate < 0 || *duration <= 0 || *spectators < -1 {
		fs.Usage()
		return errUsage
	}
	if len(pids) > len(urls) || *split && len(urls) < 2 {
		fs.Usage()
		return errUsage
	}
	cfg := load.Config{URLs: urls, SplitPlayers: *split, LocalSpectators: *localSpec, ServerPIDs: pids, DB: *db, Synchronous: *syncMode, Games: *games, Spectators: *spectators, Players: *players,
		Rate: *rate, Duration: *duration, BoardSize: *boardSize, MaxMoves: *maxMoves, Seed: *seed}
	if *spectators == -1 {
		cfg.Spectators = *games
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	cfg.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// The generator's own collector delays the answers it times, on the
	// same cores as the server: it runs with serve's settings (and the
	// in-process server, without --url, needs them anyway).
	applyGC(cfg.Log)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		defer f.Close()
		cfg.CPUProfile = f
	}
	res, err := load.Run(ctx, cfg)
	if err != nil {
		return err
	}
	res.Report(stdout)
	if res.Errors > 0 {
		return fmt.Errorf("load: %d errors", res.Errors)
	}
	return nil
}

// stringList is a flag that may be repeated and takes comma-separated
// values.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// intList is a repeatable flag of comma-separated numbers.
type intList []int

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, n := range *l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		*l = append(*l, n)
	}
	return nil
}
