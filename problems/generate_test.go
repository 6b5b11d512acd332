package problems

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tengen"
	"tengen/goban"
	"tengen/sgf"
	"tengen/tsumego"
)

var update = flag.Bool("update", false, "write data/*.sgf from the specs")

// TestGenerate builds every problem file from its spec (specs_test.go): the
// solver finds the right and wrong moves, the defences and refutations, and
// the texts come from the goal. The files are golden files: without
// -update the test checks that they are what the specs give.
func TestGenerate(t *testing.T) {
	want := map[string][]byte{}
	for _, sp := range specs {
		data, err := generate(sp)
		if err != nil {
			t.Errorf("%s: %v", sp.id, err)
			continue
		}
		if _, dup := want[sp.id]; dup {
			t.Errorf("%s: two specs", sp.id)
		}
		want[sp.id] = data
	}
	if t.Failed() {
		return
	}
	if *update {
		old, _ := filepath.Glob("data/*.sgf")
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		for id, data := range want {
			if err := os.WriteFile(filepath.Join("data", id+".sgf"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	have, _ := filepath.Glob("data/*.sgf")
	if len(have) != len(want) {
		t.Errorf("%d files in data/, %d specs (run with -update)", len(have), len(want))
	}
	for id, data := range want {
		got, err := os.ReadFile(filepath.Join("data", id+".sgf"))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("data/%s.sgf differs from its spec (run with -update)", id)
		}
	}
}

// spec is a problem as written by hand: the diagram and the goal. In the
// diagram X and O are stones, x or o the target stone, '.' an empty point
// of the region and ',' an empty point outside it; the diagram's top left is
// the board's top left corner.
type spec struct {
	id, level, goal string
	ko              bool
	diagram         string
	// size is the board size (default 9).
	size int
	// hint, en and de, is added to the statement.
	hintEN, hintDE string
	// from names another spec whose diagram this one uses: with another
	// goal (the other side's problem in the same position), or mirrored
	// left to right, flipped top to bottom, or with the colours swapped.
	from               string
	mirror, flip, swap bool
}

// resolve returns sp with the diagram (and, unless sp sets its own goal,
// the goal and level) of its from spec, transformed.
func resolve(sp spec) (spec, error) { return resolveDepth(sp, 0) }

func resolveDepth(sp spec, depth int) (spec, error) {
	if sp.from == "" {
		return sp, nil
	}
	var src *spec
	for i := range specs {
		if specs[i].id == sp.from {
			src = &specs[i]
		}
	}
	if src == nil || depth > 3 {
		return sp, fmt.Errorf("from %q: no such spec, or a chain too long", sp.from)
	}
	base, err := resolveDepth(*src, depth+1)
	if err != nil {
		return sp, err
	}
	src = &base
	out := base
	out.id, out.from = sp.id, ""
	if sp.goal != "" {
		out.goal, out.level, out.ko = sp.goal, sp.level, sp.ko
	}
	size := src.size
	if size == 0 {
		size = 9
	}
	var rows [][]rune
	for _, line := range strings.Split(src.diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line == "" {
			continue
		}
		row := []rune(line)
		for len(row) < size {
			row = append(row, ',')
		}
		if sp.mirror {
			slices.Reverse(row)
		}
		if sp.swap {
			for i, r := range row {
				row[i] = map[rune]rune{'X': 'O', 'O': 'X', 'x': 'o', 'o': 'x'}[r]
				if row[i] == 0 {
					row[i] = r
				}
			}
		}
		rows = append(rows, row)
	}
	if sp.flip {
		for len(rows) < size {
			rows = append(rows, []rune(strings.Repeat(",", size)))
		}
		slices.Reverse(rows)
	}
	var b strings.Builder
	for _, row := range rows {
		b.WriteString(string(row))
		b.WriteByte('\n')
	}
	out.diagram = b.String()
	return out, nil
}

type lang struct{ en, de string }

func colorName(c goban.Color) lang {
	if c == goban.Black {
		return lang{"Black", "Schwarz"}
	}
	return lang{"White", "Weiß"}
}

func colorAdj(c goban.Color) lang {
	if c == goban.Black {
		return lang{"black", "schwarze"}
	}
	return lang{"white", "weiße"}
}

// texts are the comments of a problem, in both languages.
func statement(goal string, user goban.Color, ko bool) lang {
	u, o := colorName(user), colorAdj(user.Opponent())
	var l lang
	switch goal {
	case "kill":
		l = lang{u.en + " to play: kill the " + o.en + " group.", u.de + " am Zug: Töte die " + o.de + " Gruppe."}
	case "live":
		l = lang{u.en + " to play and live.", u.de + " am Zug: Lebe."}
	case "capture":
		l = lang{u.en + " to play: capture the marked stones.", u.de + " am Zug: Fange die markierten Steine."}
	case "save":
		l = lang{u.en + " to play: save the marked stones.", u.de + " am Zug: Rette die markierten Steine."}
	}
	if ko {
		l.en += " The best result is a ko."
		l.de += " Mehr als ein Ko ist nicht zu holen."
	}
	return l
}

func solved(goal string, user goban.Color, ko bool) lang {
	if ko {
		return lang{"Correct: this is a ko, the best there is.", "Richtig: das ist ein Ko, mehr geht nicht."}
	}
	o := colorAdj(user.Opponent())
	switch goal {
	case "kill":
		return lang{"Correct: the " + o.en + " group is dead.", "Richtig: Die " + o.de + " Gruppe ist tot."}
	case "live":
		return lang{"Correct: " + colorName(user).en + " lives.", "Richtig: " + colorName(user).de + " lebt."}
	case "capture":
		return lang{"Correct: the marked stones cannot escape.", "Richtig: Die markierten Steine entkommen nicht."}
	}
	return lang{"Correct: the marked stones are safe.", "Richtig: Die markierten Steine sind gerettet."}
}

func refuted(goal string, user goban.Color, r tsumego.Result) lang {
	opp := colorName(user.Opponent())
	if r == tsumego.Ko {
		return lang{"Wrong: after " + opp.en + "'s answer it is only a ko.", "Falsch: Nach dieser Antwort von " + opp.de + " ist es nur ein Ko."}
	}
	switch goal {
	case "kill":
		return lang{"Wrong: after " + opp.en + "'s answer the group lives.", "Falsch: Nach dieser Antwort von " + opp.de + " lebt die Gruppe."}
	case "live":
		return lang{"Wrong: after " + opp.en + "'s answer the group dies.", "Falsch: Nach dieser Antwort von " + opp.de + " stirbt die Gruppe."}
	case "capture":
		return lang{"Wrong: after " + opp.en + "'s answer the marked stones escape.", "Falsch: Nach dieser Antwort von " + opp.de + " entkommen die markierten Steine."}
	}
	return lang{"Wrong: after " + opp.en + "'s answer the marked stones are lost.", "Falsch: Nach dieser Antwort von " + opp.de + " sind die markierten Steine verloren."}
}

func setText(n *sgf.Node, l lang) {
	n.SetText("C", l.en)
	n.SetText("CD", l.de)
}

func sgfPoint(p goban.Point) string { return sgf.FormatPoint(sgf.Point{X: p.X, Y: p.Y}) }

func moveNode(c goban.Color, m tsumego.Move) *sgf.Node {
	n := sgf.NewNode()
	v := ""
	if !m.Pass {
		v = sgfPoint(m.Point)
	}
	n.Set(c.Letter(), v)
	return n
}

// maxTurns bounds how many moves of the user a right line shows.
const maxTurns = 5

func generate(sp spec) ([]byte, error) {
	sp, err := resolve(sp)
	if err != nil {
		return nil, err
	}
	size := sp.size
	if size == 0 {
		size = 9
	}
	root := sgf.NewNode()
	root.Set("FF", "4")
	root.Set("GM", "1")
	root.Set("SZ", fmt.Sprint(size))
	var ab, aw, rg []string
	var target []goban.Point
	y := 0
	for _, line := range strings.Split(sp.diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line == "" {
			continue
		}
		for x, r := range line {
			pt := sgfPoint(goban.Point{X: x, Y: y})
			switch r {
			case 'X', 'x':
				ab = append(ab, pt)
			case 'O', 'o':
				aw = append(aw, pt)
			case '.':
				rg = append(rg, pt)
			case ',':
			default:
				return nil, fmt.Errorf("diagram: unexpected %q", r)
			}
			if r == 'x' || r == 'o' {
				target = append(target, goban.Point{X: x, Y: y})
			}
		}
		y++
	}
	if len(target) != 1 {
		return nil, fmt.Errorf("want one target stone, have %d", len(target))
	}
	tc := goban.Black
	if slices.Contains(aw, sgfPoint(target[0])) {
		tc = goban.White
	}
	user := tc
	if sp.goal == "kill" || sp.goal == "capture" {
		user = tc.Opponent()
	}
	root.Set("AB", ab...)
	root.Set("AW", aw...)
	root.Set("PL", user.Letter())
	root.Set("MA", sgfPoint(target[0]))
	root.Set("RG", rg...)
	root.Set("TG", sp.goal)
	root.Set("LV", sp.level)
	if sp.ko {
		root.Set("KR", "ko")
	}
	st := statement(sp.goal, user, sp.ko)
	if sp.hintEN != "" {
		st.en += " " + sp.hintEN
		st.de += " " + sp.hintDE
	}
	setText(root, st)

	// The position, read from the spec rather than back from the file:
	// Parse refuses a root without its tree.
	p := &tengen.Problem{ID: sp.id, Size: size, ToPlay: user, Target: target[0], Goal: sp.goal, Ko: sp.ko,
		Region: sgfPoints(rg), Black: sgfPoints(ab), White: sgfPoints(aw)}
	pos, err := position(p)
	if err != nil {
		return nil, err
	}
	s, err := tsumego.New(pos, tsumego.Limits{})
	if err != nil {
		return nil, err
	}
	want := wanted(p)
	if got := s.Evaluate(user); got != want {
		return nil, fmt.Errorf("the position is worth %v for %v, the spec says %v", got, user, want)
	}
	g := &gen{s: s, user: user, want: want, goal: sp.goal, ko: sp.ko}
	kids, err := g.turn(0)
	if err != nil {
		return nil, err
	}
	right := 0
	for _, k := range kids {
		root.AddChild(k)
		if k.Has("TE") {
			right++
		}
	}
	// A problem is a question with few answers: three at most.
	if right > 3 {
		var rs []string
		for _, k := range kids {
			if k.Has("TE") {
				v, _ := k.Value(user.Letter())
				rs = append(rs, v)
			}
		}
		return nil, fmt.Errorf("%d right first moves %v", right, rs)
	}
	return sgf.Format(root)
}

// sgfPoints reads points the generator wrote itself.
func sgfPoints(vs []string) []goban.Point {
	out := make([]goban.Point, len(vs))
	for i, v := range vs {
		q, _ := sgf.ParsePoint(v)
		out[i] = goban.Point{X: q.X, Y: q.Y}
	}
	return out
}

type gen struct {
	s    *tsumego.Solver
	user goban.Color
	want tsumego.Result
	goal string
	ko   bool
}

// turn returns the nodes of every user's move at this turn.
func (g *gen) turn(depth int) ([]*sgf.Node, error) {
	s := g.s
	var out []*sgf.Node
	for _, m := range s.Moves() {
		if err := s.PlayMove(m); err != nil {
			return nil, err
		}
		n, err := g.userMove(m, depth)
		s.Undo()
		if err != nil {
			return nil, fmt.Errorf("%v: %w", m, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// userMove returns the node of the user's move m, already played.
func (g *gen) userMove(m tsumego.Move, depth int) (*sgf.Node, error) {
	s := g.s
	n := moveNode(g.user, m)
	r := s.Evaluate(g.user)
	if r == tsumego.Unknown {
		return nil, fmt.Errorf("the solver cannot tell")
	}
	opp := g.user.Opponent()
	if r < g.want {
		n.Set("BM", "1")
		for _, a := range s.Moves() {
			if err := s.PlayMove(a); err != nil {
				return nil, err
			}
			ra := s.Evaluate(g.user)
			s.Undo()
			if ra != tsumego.Unknown && ra < g.want {
				an := moveNode(opp, a)
				setText(an, refuted(g.goal, g.user, ra))
				n.AddChild(an)
				return n, nil
			}
		}
		return nil, fmt.Errorf("no refutation found")
	}
	n.Set("TE", "1")
	var defence *tsumego.Move
	if depth+1 < maxTurns && !s.Settled() {
		// The defence shown is the first move, in the solver's order,
		// that the user must answer: one after which the user's pass
		// would no longer do.
		for _, a := range s.Moves() {
			if a.Pass {
				continue
			}
			if err := s.PlayMove(a); err != nil {
				return nil, err
			}
			if err := s.PlayMove(tsumego.Move{Pass: true}); err != nil {
				return nil, err
			}
			rp := s.Evaluate(g.user)
			s.Undo()
			s.Undo()
			if rp < g.want {
				defence = &a
				break
			}
		}
	}
	if defence == nil {
		setText(n, solved(g.goal, g.user, g.ko))
		return n, nil
	}
	setText(n, lang{"Right.", "Richtig."})
	an := moveNode(opp, *defence)
	if err := s.PlayMove(*defence); err != nil {
		return nil, err
	}
	kids, err := g.turn(depth + 1)
	s.Undo()
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		an.AddChild(k)
	}
	n.AddChild(an)
	return n, nil
}
