// Command tengen is Tengen's one binary: a Go server, a GTP engine, and
// tools for game records, scoring, engine matches and benchmarks.
//
// Usage:
//
//	tengen <command> [flags] [arguments]
//
// Run "tengen help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// command is one subcommand of tengen.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands maps subcommand names to their implementations; each file of
// this package adds its own in an init function.
var commands = map[string]command{}

// errUsage reports a usage error that has already been explained to the
// user; main exits with status 2 for it.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errUsage) || errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	default:
		var ex exitError
		if errors.As(err, &ex) {
			os.Exit(int(ex))
		}
		fmt.Fprintln(os.Stderr, "tengen:", err)
		os.Exit(1)
	}
}

// exitError ends tengen with a status after the command has printed what it
// had to say, such as `tengen sgf check` finding errors.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "tengen", version)
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tengen: unknown command %q\n\n", args[0])
		usage(stderr)
		return errUsage
	}
	return cmd.run(ctx, args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Tengen: play Go in the browser, run a Go engine, read and score game records.")
	fmt.Fprintln(w, "\nUsage: tengen <command> [flags] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  version  print the version")
	fmt.Fprintln(w, "\nRun \"tengen <command> -h\" for a command's flags.")
}

// newFlagSet returns a flag set that prints its usage to stderr.
func newFlagSet(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("tengen "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: tengen %s [flags] %s\n\n%s.\n\nFlags:\n", name, args, commands[name].summary)
		fs.PrintDefaults()
	}
	return fs
}
