package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"tengen/goban"
	"tengen/gtp"
)

func init() {
	commands["gtp"] = command{
		summary: "run the engine on standard input and output with the Go Text Protocol",
		run:     runGTP,
	}
}

func runGTP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("gtp", "", stderr)
	rules := fs.String("rules", "chinese", "ruleset: "+strings.Join(goban.RulesetNames(), ", "))
	seed := fs.Uint64("seed", 0, "random seed of the move policy (0: from the clock)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	e, err := gtp.NewEngine(gtp.Options{Rules: *rules, Seed: *seed, Version: version, ErrorLog: stderr})
	if err != nil {
		return fmt.Errorf("gtp: %w", err)
	}
	return e.Serve(ctx, stdin, stdout)
}
