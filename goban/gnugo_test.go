package goban

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"tengen/internal/oracle"
	"testing"
)

func gnugoPath(t *testing.T) string {
	t.Helper()
	return oracle.GNUGo(t, "the differential test against GNU Go")
}

// gtpPipe is a minimal GTP controller for the oracle; the gtp package has
// the full one, but goban cannot import it.
type gtpPipe struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startGnugo(t *testing.T, args ...string) *gtpPipe {
	path := gnugoPath(t)
	cmd := exec.Command(path, append([]string{"--mode", "gtp", "--level", "0"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &gtpPipe{cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		p.send("quit")
		in.Close()
		cmd.Wait()
	})
	return p
}

func (p *gtpPipe) send(command string) (string, error) {
	if _, err := fmt.Fprintln(p.in, command); err != nil {
		return "", err
	}
	var lines []string
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" && len(lines) > 0 {
			break
		}
		if line == "" {
			continue
		}
		lines = append(lines, line)
	}
	resp := strings.Join(lines, "\n")
	if strings.HasPrefix(resp, "?") {
		return "", fmt.Errorf("gnugo: %s: %s", command, strings.TrimSpace(resp[1:]))
	}
	return strings.TrimSpace(strings.TrimPrefix(resp, "=")), nil
}

func (p *gtpPipe) must(t *testing.T, command string) string {
	t.Helper()
	r, err := p.send(command)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// diagramMoves returns plays that build diagram on an empty board: the
// black stones first, then the white ones, so that no play captures or is
// suicide as long as every chain of the diagram has a liberty.
func diagramMoves(t *testing.T, diagram string) []string {
	t.Helper()
	b, err := ParseBoard(diagram)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, c := range []Color{Black, White} {
		for y := 0; y < b.Height(); y++ {
			for x := 0; x < b.Width(); x++ {
				if p := (Point{x, y}); b.At(p) == c {
					moves = append(moves, c.Letter()+" "+FormatVertex(p, b.Height()))
				}
			}
		}
	}
	return moves
}

// TestLegalMovesAgainstGNUGo plays long random games on small boards under
// each combination of ko and suicide rule that GNU Go knows, and compares the
// set of legal moves with GNU Go's all_legal before every move. One game per
// rule starts from the triple ko, built move by move, and plays its cycle
// before it goes on at random, so that every rule meets ko, superko and
// suicide positions whatever the random games reach.
func TestLegalMovesAgainstGNUGo(t *testing.T) {
	gnugoPath(t)
	configs := []struct {
		name  string
		flags []string
		rules Ruleset
	}{
		{"simple ko, no suicide", []string{"--simple-ko", "--forbid-suicide"}, Ruleset{Ko: SimpleKo}},
		{"simple ko, suicide", []string{"--simple-ko", "--allow-suicide"}, Ruleset{Ko: SimpleKo, MultiStoneSuicide: true}},
		{"positional superko, no suicide", []string{"--positional-superko", "--forbid-suicide"}, Ruleset{Ko: PositionalSuperko}},
		{"positional superko, suicide", []string{"--positional-superko", "--allow-suicide"}, Ruleset{Ko: PositionalSuperko, MultiStoneSuicide: true}},
		{"situational superko, no suicide", []string{"--situational-superko", "--forbid-suicide"}, Ruleset{Ko: SituationalSuperko}},
		{"situational superko, suicide", []string{"--situational-superko", "--allow-suicide"}, Ruleset{Ko: SituationalSuperko, MultiStoneSuicide: true}},
	}
	sizes := []int{4, 5, 6, 7, 9}
	// GNU Go keeps the positions of its last 500 moves only (its move
	// history is a fixed array), so its superko forgets older positions:
	// games stay below that.
	movesPerGame := 480
	if testing.Short() {
		sizes, movesPerGame = []int{5}, 150
	}
	for ci, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			gg := startGnugo(t, cfg.flags...)
			// The comparison means something only if the games reach the
			// cases that tell the rules apart, which random games on small
			// boards do too rarely; the triple ko game reaches them all.
			var st diffStats
			script := append(diagramMoves(t, TripleKo), TripleKoCycle...)
			compareGame(t, gg, cfg.rules, 9, movesPerGame, uint64(ci*1000+999), script, &st)
			if !st.covers(cfg.rules) {
				t.Errorf("the triple ko game did not reach ko, superko and suicide positions: %+v", st)
			}
			for _, size := range sizes {
				for game := 0; game < 5; game++ {
					compareGame(t, gg, cfg.rules, size, movesPerGame, uint64(ci*1000+size*10+game), nil, &st)
				}
			}
			t.Logf("%d positions compared; moves refused for ko %d, superko %d, suicide %d times",
				st.positions, st.ko, st.superko, st.suicide)
		})
	}
}

// diffStats counts what the differential games covered.
type diffStats struct {
	positions, ko, superko, suicide int
}

// covers reports whether the games refused moves for every reason that
// rules has.
func (st diffStats) covers(rules Ruleset) bool {
	return st.ko > 0 && (rules.Ko == SimpleKo || st.superko > 0) && (rules.MultiStoneSuicide || st.suicide > 0)
}

// compareGame plays a game of at most moves moves on a size×size board and
// compares the legal moves before each. It plays the moves of script ("B C8")
// first, in any colour order, up to the first that is illegal under rules,
// then random moves chosen with seed.
func compareGame(t *testing.T, gg *gtpPipe, rules Ruleset, size, moves int, seed uint64, script []string, st *diffStats) {
	t.Helper()
	gg.must(t, fmt.Sprintf("boardsize %d", size))
	gg.must(t, "clear_board")
	g := MustNewGame(size, size, rules)
	g.SetFreeOrder(true)
	r := NewRand(seed)
	c := Black
	var record []string
	for i := 0; i < moves && !g.Ended(); i++ {
		var scripted string
		if len(script) > 0 {
			col, v, _ := strings.Cut(script[0], " ")
			var err error
			if c, err = ParseColor(col); err != nil {
				t.Fatal(err)
			}
			scripted, script = v, script[1:]
		}
		want := strings.Fields(gg.must(t, "all_legal "+c.String()))
		var got []string
		for _, p := range g.LegalMoves(c) {
			got = append(got, FormatVertex(p, size))
		}
		want = dropSuicideSuperko(g, c, want)
		st.positions++
		for _, l := range g.Board().Empties() {
			err := g.Legal(PlayAt(c, g.Board().Point(l)))
			switch {
			case errors.Is(err, ErrKo):
				st.ko++
			case errors.Is(err, ErrSuperko):
				st.superko++
			case errors.Is(err, ErrSuicide):
				st.suicide++
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%d×%d, move %d, %v to play after %s:\n%s\ntengen: %v\ngnugo:  %v",
				size, size, i+1, c, strings.Join(record, " "), g.Board(), got, want)
		}
		vertex := "pass"
		last, hasLast := g.LastMove()
		if scripted != "" && !slices.Contains(got, scripted) {
			scripted, script = "", nil // the rules refuse the rest of the script
		}
		switch {
		case scripted != "":
			vertex = scripted
		case len(got) > 0 && (r.Intn(30) != 0 || (hasLast && last.Kind == Pass)):
			vertex = got[r.Intn(len(got))]
		}
		if vertex == "pass" && hasLast && last.Kind == Pass {
			return // two passes would end the game
		}
		p, pass, err := ParseVertex(vertex, size, size)
		if err != nil {
			t.Fatal(err)
		}
		m := PassMove(c)
		if !pass {
			m = PlayAt(c, p)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("tengen refused its own legal move %s: %v", vertex, err)
		}
		gg.must(t, fmt.Sprintf("play %s %s", c, vertex))
		record = append(record, c.Letter()+" "+vertex)
		c = c.Opponent()
	}
}

// dropSuicideSuperko removes from GNU Go's legal moves the multi-stone
// suicides that recreate an earlier position. GNU Go's superko check hashes
// the position with the opponent's captures taken off but not the player's
// own chain, so it lets these moves through; the rules (and Tengen) forbid
// them, since the board after the move did occur before.
func dropSuicideSuperko(g *Game, c Color, vertices []string) []string {
	var out []string
	for _, v := range vertices {
		p, _, err := ParseVertex(v, g.Width(), g.Height())
		if err == nil && g.Rules().Ko != SimpleKo {
			b := g.Board()
			if b.isSuicide(b.Loc(p), c) && errors.Is(g.Legal(PlayAt(c, p)), ErrSuperko) {
				continue
			}
		}
		out = append(out, v)
	}
	return out
}
