// Package problems holds Tengen's life-and-death and tesuji problems, one
// SGF file each under data/, and serves them as tengen.Problem values.
//
// A problem file is a single game tree. Its root has SZ, AB and AW (the
// position), PL (the side the user plays) and these properties of our own:
//
//	TG  the goal: kill, live, capture or save
//	LV  the level, a kyu grade such as 25k
//	RG  the region: the empty points where moves may be played (the
//	    points of stones, too, once the stones are captured)
//	KR  "ko" when a ko is the best result and counts as solved
//
// and MA marks a stone of the target group. C holds the English text and CD
// the German text, on the root (the problem statement) and on any move.
// The user's moves carry TE[1] (right) or BM[1] (wrong); after a user's move
// the opponent's answer is the first child. Every user's move in a problem
// has its answers in the tree, and the tests check every file with the
// solver of package tsumego (see problems_test.go).
package problems

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"tengen"
	"tengen/goban"
	"tengen/sgf"
)

//go:embed data/*.sgf
var files embed.FS

// Set is a loaded set of problems; it implements tengen.ProblemService.
type Set struct {
	list []*tengen.Problem
	byID map[string]*tengen.Problem
}

// Load reads the embedded problems.
func Load() (*Set, error) { return LoadFS(files, "data") }

// LoadFS reads every .sgf file in dir of fsys.
func LoadFS(fsys fs.FS, dir string) (*Set, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sgf"))
	if err != nil {
		return nil, fmt.Errorf("problems: %w", err)
	}
	s := &Set{byID: map[string]*tengen.Problem{}}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("problems: %w", err)
		}
		id := strings.TrimSuffix(path.Base(name), ".sgf")
		p, err := Parse(id, data)
		if err != nil {
			return nil, err
		}
		s.list = append(s.list, p)
		s.byID[id] = p
	}
	slices.SortStableFunc(s.list, func(a, b *tengen.Problem) int {
		if c := cmp.Compare(b.Kyu, a.Kyu); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return s, nil
}

// Problems returns every problem, easiest first.
func (s *Set) Problems() []*tengen.Problem { return s.list }

// Problem returns the problem with the given id.
func (s *Set) Problem(id string) (*tengen.Problem, error) {
	if p, ok := s.byID[id]; ok {
		return p, nil
	}
	return nil, tengen.Errorf(tengen.ENOTFOUND, "Problem not found.")
}

// Parse reads one problem file.
func Parse(id string, data []byte) (*tengen.Problem, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("problems: %s: %s", id, fmt.Sprintf(format, args...))
	}
	col, err := sgf.Parse(data)
	if err != nil {
		return nil, fail("%v", err)
	}
	if len(col.Games) != 1 {
		return nil, fail("want one game tree, have %d", len(col.Games))
	}
	root := col.Games[0]
	p := &tengen.Problem{ID: id, SGF: data, Size: 19}
	if v, ok := root.Value("SZ"); ok {
		if p.Size, err = strconv.Atoi(v); err != nil || p.Size < goban.MinSize || p.Size > goban.MaxSize {
			return nil, fail("SZ[%s]", v)
		}
	}
	n := p.Size
	pts := func(id string) ([]goban.Point, error) {
		ps, err := root.Points(id, n, n)
		out := make([]goban.Point, len(ps))
		for i, q := range ps {
			out[i] = goban.Point{X: q.X, Y: q.Y}
		}
		return out, err
	}
	if p.Black, err = pts("AB"); err != nil {
		return nil, fail("%v", err)
	}
	if p.White, err = pts("AW"); err != nil {
		return nil, fail("%v", err)
	}
	target, err := pts("MA")
	if err != nil || len(target) != 1 {
		return nil, fail("want one MA point (the target)")
	}
	p.Target = target[0]
	if p.Region, err = pts("RG"); err != nil || len(p.Region) == 0 {
		return nil, fail("want RG points (the region)")
	}
	p.Goal, _ = root.Value("TG")
	switch p.Goal {
	case "kill", "live", "capture", "save":
	default:
		return nil, fail("TG[%s]: want kill, live, capture or save", p.Goal)
	}
	p.Level, _ = root.Value("LV")
	k, ok := strings.CutSuffix(p.Level, "k")
	if p.Kyu, err = strconv.Atoi(k); !ok || err != nil || p.Kyu < 1 || p.Kyu > 30 {
		return nil, fail("LV[%s]: want a kyu grade such as 25k", p.Level)
	}
	kr, _ := root.Value("KR")
	p.Ko = kr == "ko"
	switch pl, _ := root.Value("PL"); pl {
	case "B":
		p.ToPlay = goban.Black
	case "W":
		p.ToPlay = goban.White
	default:
		return nil, fail("PL[%s]: want B or W", pl)
	}
	p.Text = texts(root)
	for _, c := range root.Children {
		t, err := node(c, n)
		if err != nil {
			return nil, fail("%v", err)
		}
		p.Tree = append(p.Tree, t)
	}
	if len(p.Tree) == 0 {
		return nil, fail("no solution tree")
	}
	return p, nil
}

func texts(n *sgf.Node) map[string]string {
	t := map[string]string{}
	if v, ok := n.Value("C"); ok {
		t["en"] = sgf.UnescapeText(v)
	}
	if v, ok := n.Value("CD"); ok {
		t["de"] = sgf.UnescapeText(v)
	}
	return t
}

func node(n *sgf.Node, size int) (*tengen.ProblemNode, error) {
	m, ok, err := n.Move(size, size)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("a node of the tree has no move")
	}
	t := &tengen.ProblemNode{Point: goban.Point{X: m.Point.X, Y: m.Point.Y}, Pass: m.Pass, Text: texts(n),
		Correct: n.Has("TE"), Wrong: n.Has("BM")}
	t.Color = goban.Black
	if m.Color == sgf.White {
		t.Color = goban.White
	}
	if t.Correct && t.Wrong {
		return nil, fmt.Errorf("move %v is both right and wrong", m)
	}
	for _, c := range n.Children {
		ct, err := node(c, size)
		if err != nil {
			return nil, err
		}
		t.Children = append(t.Children, ct)
	}
	return t, nil
}
