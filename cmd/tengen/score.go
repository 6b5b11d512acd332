package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"tengen/goban"
	"tengen/sgf"
)

func init() {
	commands["score"] = command{
		summary: "score the final position of a game record and show the count",
		run:     runScore,
	}
}

func runScore(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", "FILE", stderr)
	rules := fs.String("rules", "", "ruleset (default: the record's RU, else japanese): "+strings.Join(goban.RulesetNames(), ", "))
	komiFlag := fs.String("komi", "", "komi (default: the record's KM, else the ruleset's)")
	playouts := fs.Int("playouts", 1000, "random playouts of the dead-stone estimate")
	deadFlag := fs.String("dead", "", "dead stones instead of the estimate: GTP vertices separated by commas or spaces (one stone per chain is enough)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	data, err := readInput(fs.Arg(0), os.Stdin)
	if err != nil {
		return err
	}
	c, err := sgf.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	if len(c.Games) == 0 {
		return fmt.Errorf("%s: no game", fs.Arg(0))
	}
	opt := sgf.ReplayOptions{Rules: *rules, Force: true}
	if *komiFlag != "" {
		k, err := strconv.ParseFloat(*komiFlag, 64)
		if err != nil {
			return fmt.Errorf("score: komi %q: %w", *komiFlag, err)
		}
		opt.Komi = &k
	}
	r, err := sgf.Replay(c.Games[0], opt)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	for _, m := range r.Illegal {
		fmt.Fprintf(stderr, "%s: warning: %v (played anyway)\n", fs.Arg(0), m)
	}
	g := r.Game
	b := g.Board()
	var dead []goban.Point
	source := fmt.Sprintf("estimated from %d random playouts, Benson's algorithm and seki detection", *playouts)
	if *deadFlag != "" {
		source = "given with --dead"
		for _, v := range strings.FieldsFunc(*deadFlag, func(r rune) bool { return r == ',' || r == ' ' }) {
			p, pass, err := goban.ParseVertex(v, b.Width(), b.Height())
			if err != nil || pass {
				return fmt.Errorf("score: dead stone %q: not a point", v)
			}
			dead = append(dead, p)
		}
	} else {
		dead = b.EstimateDead(*playouts)
	}
	s, err := g.Score(dead)
	if err != nil {
		return fmt.Errorf("score: %w", err)
	}
	printScore(stdout, g, s, source)
	return nil
}

// printScore writes the result as SGF writes it, the breakdown and an ASCII
// board of territory.
func printScore(w io.Writer, g *goban.Game, s *goban.Score, source string) {
	b := g.Board()
	fmt.Fprintf(w, "Result: %s\n", s.Result)
	fmt.Fprintf(w, "Rules: %v, komi %v\n", g.Rules(), g.Komi())
	fmt.Fprintf(w, "Dead stones: %d (%s)\n\n", len(s.Dead), source)
	fmt.Fprintf(w, "%-16s %8s %8s\n", "", "Black", "White")
	row := func(name string, bv, wv any) { fmt.Fprintf(w, "%-16s %8v %8v\n", name, bv, wv) }
	row("territory", s.Black.Territory, s.White.Territory)
	switch s.Scoring {
	case goban.AreaScoring:
		row("stones", s.Black.Stones, s.White.Stones)
		row("handicap bonus", s.Black.HandicapBonus, s.White.HandicapBonus)
	case goban.TerritoryScoring:
		row("captures", s.Black.Captures, s.White.Captures)
		row("dead taken", s.Black.Dead, s.White.Dead)
	case goban.LossScoring:
		row("stones lost", -s.Black.Lost, -s.White.Lost)
		row("own dead", -s.Black.OwnDead, -s.White.OwnDead)
	}
	row("komi", s.Black.Komi, s.White.Komi)
	row("total", s.Black.Total, s.White.Total)
	fmt.Fprintln(w)

	dead := map[goban.Point]bool{}
	for _, p := range s.Dead {
		dead[p] = true
	}
	seki := map[goban.Point]bool{}
	for _, p := range s.Seki {
		seki[p] = true
	}
	letters := "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	fmt.Fprint(w, "   ")
	for x := 0; x < b.Width(); x++ {
		fmt.Fprintf(w, " %c", letters[x])
	}
	fmt.Fprintln(w)
	for y := 0; y < b.Height(); y++ {
		fmt.Fprintf(w, "%3d", b.Height()-y)
		for x := 0; x < b.Width(); x++ {
			p := goban.Point{X: x, Y: y}
			ch := "."
			switch c := b.At(p); {
			case c == goban.Black && dead[p]:
				ch = "x"
			case c == goban.White && dead[p]:
				ch = "o"
			case c == goban.Black && seki[p]:
				ch = "#"
			case c == goban.White && seki[p]:
				ch = "@"
			case c == goban.Black:
				ch = "X"
			case c == goban.White:
				ch = "O"
			default:
				switch s.Owner[y*b.Width()+x] {
				case goban.Black:
					ch = "b"
				case goban.White:
					ch = "w"
				}
			}
			fmt.Fprint(w, " ", ch)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\nX O stones, x o dead stones, # @ stones in seki, b w territory, . neutral")
}
