package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"tengen/sgf"
)

func init() {
	commands["sgf"] = command{
		summary: "check game records (sgf check FILE...) or convert them (sgf convert --to sgf|korschelt|gtp FILE)",
		run:     runSGF,
	}
}

func runSGF(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "Usage: tengen sgf check FILE...\n       tengen sgf convert [--to sgf|korschelt|gtp] FILE")
		return errUsage
	}
	switch args[0] {
	case "check":
		return sgfCheck(args[1:], stdout, stderr)
	case "convert":
		return sgfConvert(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "tengen sgf: unknown subcommand %q (check or convert)\n", args[0])
	return errUsage
}

// readInput reads a file, or standard input for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

func sgfCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sgf", "check FILE...", stderr)
	charset := fs.String("charset", "", "read files in this charset whatever their CA property says")
	quiet := fs.Bool("q", false, "print errors only, not warnings")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "Usage: tengen sgf check [-q] [-charset NAME] FILE...")
		return errUsage
	}
	bad := 0
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", name, err)
			bad++
			continue
		}
		rep := sgf.Check(data, sgf.Options{Charset: *charset})
		if !*quiet {
			for _, w := range rep.Warnings {
				fmt.Fprintf(stdout, "%s:%s: warning: %s\n", name, w.Pos(), w.Msg)
			}
		}
		for _, e := range rep.Errors {
			fmt.Fprintf(stdout, "%s:%s: error: %s\n", name, e.Pos(), e.Msg)
		}
		if len(rep.Errors) > 0 {
			bad++
		} else if !*quiet {
			games := 0
			if rep.Collection != nil {
				games = len(rep.Collection.Games)
			}
			fmt.Fprintf(stdout, "%s: ok (%d game%s, %d warning%s)\n", name, games, plural(games), len(rep.Warnings), plural(len(rep.Warnings)))
		}
	}
	if bad > 0 {
		fmt.Fprintf(stdout, "%d of %d file%s with errors\n", bad, fs.NArg(), plural(fs.NArg()))
		return exitError(1)
	}
	return nil
}

// inFile names the file in err: "FILE:LINE:COL: ..." for an error at a
// place in the record, as sgf check writes it, else "FILE: ...".
func inFile(name string, err error) error {
	var se *sgf.Error
	var me *sgf.MoveError
	if errors.As(err, &se) && se.Line > 0 || errors.As(err, &me) && me.Pos.IsValid() {
		return fmt.Errorf("%s:%w", name, err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func sgfConvert(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sgf", "convert [--to sgf|korschelt|gtp] FILE", stderr)
	to := fs.String("to", "sgf", "output: sgf (canonical FF[4] UTF-8), korschelt (Pfaundler's notation) or gtp (play commands)")
	game := fs.Int("game", 1, "which game of a collection to convert (korschelt and gtp)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "Usage: tengen sgf convert [--to sgf|korschelt|gtp] [--game N] FILE")
		return errUsage
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	c, err := sgf.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	for _, w := range c.Warnings {
		fmt.Fprintf(stderr, "%s:%s: warning: %s\n", fs.Arg(0), w.Pos(), w.Msg)
	}
	if *to == "sgf" {
		out, err := c.Format()
		if err != nil {
			return err
		}
		_, err = stdout.Write(out)
		return err
	}
	if *game < 1 || *game > len(c.Games) {
		return fmt.Errorf("%s has %d game%s, not %d", fs.Arg(0), len(c.Games), plural(len(c.Games)), *game)
	}
	root := c.Games[*game-1]
	switch *to {
	case "korschelt":
		// Not forced, as for gtp: a move the rules forbid is an error
		// at its place in the record.
		s, err := sgf.Korschelt(root, sgf.ReplayOptions{})
		if err != nil {
			return inFile(fs.Arg(0), err)
		}
		if s != "" {
			fmt.Fprint(stdout, s)
		}
	case "gtp":
		cmds, err := sgf.GTPCommands(root, sgf.ReplayOptions{})
		if err != nil {
			return inFile(fs.Arg(0), err)
		}
		for _, c := range cmds {
			fmt.Fprintln(stdout, c)
		}
	default:
		return fmt.Errorf("convert: unknown output %q (sgf, korschelt or gtp)", *to)
	}
	return nil
}
