package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
	"tengen/sgf"
)

func init() {
	commands["score"] = command{
		summary: "score the final position of game records and show the count, or compare the dead stones with another engine's",
		run:     runScore,
	}
}

// scoreFlags are the flags of tengen score that shape how a record is read
// and its dead stones estimated.
type scoreFlags struct {
	rules    string
	komi     *float64
	playouts int
}

func runScore(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", "FILE...", stderr)
	rules := fs.String("rules", "", "ruleset (default: the record's RU, else japanese): "+strings.Join(goban.RulesetNames(), ", "))
	komiFlag := fs.String("komi", "", "komi (default: the record's KM, else the ruleset's)")
	playouts := fs.Int("playouts", 1000, "playouts of the engine's dead-stone estimate")
	deadFlag := fs.String("dead", "", "dead stones instead of the estimate: GTP vertices separated by commas or spaces (one stone per chain is enough; one FILE only)")
	compare := fs.String("compare", "", "compare the estimate with this GTP engine's final_status_list dead on every FILE (e.g. \"gnugo --mode gtp\") and print the agreement instead of the scores")
	record := fs.Bool("record", false, "compare the score of every FILE with its recorded result by points (RE, records decided otherwise are left out): the server's dead-stone proposal and Tengen's GTP final_score; rules default to japanese")
	oracle := fs.String("oracle", "", "with --record, also score every FILE with this GTP engine's loadsgf and final_score (e.g. \"gnugo --mode gtp\")")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() == 0 || (*deadFlag != "" && (fs.NArg() > 1 || *compare != "" || *record)) || (*record && *compare != "") || (*oracle != "" && !*record) {
		fs.Usage()
		return errUsage
	}
	sf := scoreFlags{rules: *rules, playouts: *playouts}
	if *komiFlag != "" {
		k, err := strconv.ParseFloat(*komiFlag, 64)
		if err != nil {
			return fmt.Errorf("score: komi %q: %w", *komiFlag, err)
		}
		sf.komi = &k
	}
	// One engine for every record: DeadStones keeps no state between calls
	// and seeds its playouts the same way each time.
	est := engine.New(engine.Options{Threads: 1, ScoringPlayouts: *playouts, Seed: 1})
	if *record {
		return scoreAgainstRecords(ctx, fs.Args(), sf, est, *oracle, stdin, stdout, stderr)
	}
	if *compare != "" {
		return compareDead(ctx, *compare, fs.Args(), sf, est, stdin, stdout, stderr)
	}
	for i, name := range fs.Args() {
		g, err := loadFinal(name, sf, stdin, stderr)
		if err != nil {
			return err
		}
		b := g.Board()
		var dead []goban.Point
		source := fmt.Sprintf("estimated by the engine from %d playouts, Benson's algorithm and seki detection", *playouts)
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
			dead = est.DeadStones(g)
		}
		s, err := g.Score(dead)
		if err != nil {
			return fmt.Errorf("score: %s: %w", name, err)
		}
		if fs.NArg() > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "== %s\n", name)
		}
		printScore(stdout, g, s, source)
	}
	return nil
}

// loadFinal reads a game record ("-" is standard input) and replays its
// main line to the end, warning on stderr about moves the rules forbid.
func loadFinal(name string, sf scoreFlags, stdin io.Reader, stderr io.Writer) (*goban.Game, error) {
	data, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	c, err := sgf.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(c.Games) == 0 {
		return nil, fmt.Errorf("%s: no game", name)
	}
	r, err := sgf.Replay(c.Games[0], sgf.ReplayOptions{Rules: sf.rules, Komi: sf.komi, Force: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, m := range r.Illegal {
		fmt.Fprintf(stderr, "%s: warning: %v (played anyway)\n", name, m)
	}
	g := r.Game
	if sf.komi == nil && !r.Info.HasKomi {
		// A record without KM gets the ruleset's komi for its board and
		// handicap, as the help says, not the replay's 0.
		n, _ := g.Handicap()
		g.SetKomi(g.Rules().DefaultKomi(g.Width(), g.Height(), n))
	}
	return g, nil
}

// compareDead measures how often the engine's dead-stone estimate agrees
// with another GTP engine's final_status_list dead on the final positions
// of the records: every stone on the board counts once. A record the other
// engine cannot load is reported and left out.
func compareDead(ctx context.Context, command string, files []string, sf scoreFlags, est *engine.Engine, stdin io.Reader, stdout, stderr io.Writer) error {
	if slices.Contains(files, "-") {
		return errors.New("score: --compare reads files, not standard input: the other engine loads them itself")
	}
	oracle, name, err := startOracle(ctx, command)
	if err != nil {
		return fmt.Errorf("score: --compare: %w", err)
	}
	defer oracle.Close()
	agree, total, identical, compared, skipped := 0, 0, 0, 0, 0
	for _, file := range files {
		g, err := loadFinal(file, sf, stdin, stderr)
		if err != nil {
			return err
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return err
		}
		if _, err := oracle.Send(ctx, "loadsgf", abs); err != nil {
			fmt.Fprintf(stderr, "%s: %s cannot load it: %v (left out)\n", file, name, err)
			skipped++
			continue
		}
		resp, err := oracle.Send(ctx, "final_status_list", "dead")
		if err != nil {
			return fmt.Errorf("score: %s: final_status_list dead: %w", file, err)
		}
		b := g.Board()
		theirs := map[goban.Point]bool{}
		for _, v := range strings.Fields(resp) {
			p, pass, err := goban.ParseVertex(v, b.Width(), b.Height())
			if err != nil || pass {
				return fmt.Errorf("score: %s: %s's dead stone %q is not a point", file, name, v)
			}
			theirs[p] = true
		}
		ours := map[goban.Point]bool{}
		for _, p := range est.DeadStones(g) {
			ours[p] = true
		}
		same, stones := 0, 0
		var differ []string
		for y := 0; y < b.Height(); y++ {
			for x := 0; x < b.Width(); x++ {
				p := goban.Point{X: x, Y: y}
				if b.At(p) == goban.Empty {
					continue
				}
				stones++
				if ours[p] == theirs[p] {
					same++
				} else {
					differ = append(differ, goban.FormatVertex(p, b.Height()))
				}
			}
		}
		line := fmt.Sprintf("%s: %d stones, %d dead by Tengen, %d by %s, %d agree", file, stones, len(ours), len(theirs), name, same)
		if len(differ) > 0 {
			line += " (differ: " + strings.Join(differ, " ") + ")"
		}
		fmt.Fprintln(stdout, line)
		compared++
		if same == stones {
			identical++
		}
		agree += same
		total += stones
	}
	if compared == 0 {
		return fmt.Errorf("score: %s loaded none of the records", name)
	}
	fmt.Fprintf(stdout, "agreement with %s: %d of %d stones (%.1f%%); %d of %d records identical", name, agree, total, 100*float64(agree)/float64(max(total, 1)), identical, compared)
	if skipped > 0 {
		fmt.Fprintf(stdout, "; %d left out", skipped)
	}
	fmt.Fprintln(stdout)
	return nil
}

// printScore writes the result as SGF writes it, the breakdown and an ASCII
// board of territory.
func printScore(w io.Writer, g *goban.Game, s *goban.Score, source string) {
	b := g.Board()
	fmt.Fprintf(w, "Result: %s\n", s.Result)
	fmt.Fprintf(w, "Rules: %v, komi %v\n", g.Rules(), g.Komi())
	fmt.Fprintf(w, "Dead stones: %d (%s)\n", len(s.Dead), source)
	if len(s.Teire) > 0 {
		var vs []string
		for _, p := range s.Teire {
			vs = append(vs, goban.FormatVertex(p, b.Height()))
		}
		fmt.Fprintf(w, "Teire (own territory its owner must fill): %s\n", strings.Join(vs, " "))
	}
	fmt.Fprintln(w)
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

// startOracle starts the GTP engine of command line command, for
// --compare and --oracle, and returns it with the name it gives.
func startOracle(ctx context.Context, command string) (*gtp.Process, string, error) {
	spec, err := engineSpec(command)
	if err != nil {
		return nil, "", err
	}
	p, err := gtp.Start(ctx, spec.Command[0], spec.Command[1:], gtp.ProcessOptions{})
	if err != nil {
		return nil, "", err
	}
	name, err := p.Send(ctx, "name")
	if err != nil {
		p.Close()
		return nil, "", err
	}
	return p, name, nil
}
