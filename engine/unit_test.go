package engine

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
)

func TestLadderReader(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		escape  string
		want    bool
	}{
		{"working ladder", `
			. . . . . . . . .
			. . . . . . . . .
			. . . O O . . . .
			. . O X . . . . .
			. . . O . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .
			. . . . . . . . .`, "E6", true},
		{"ladder breaker", `
			. . . . . . . . .
			. . . . . . . . .
			. . . O O . . . .
			. . O X . . . . .
			. . . O . . . . .
			. . . . . . . . .
			. . . . . . . X .
			. . . . . . . . .
			. . . . . . . . .`, "E6", false},
		{"escape to open space", `
			. . . . . . .
			. . O O . . .
			. O X X O . .
			. . O X O . .
			. . . . . . .
			. . . . . . .
			. . . . . . .`, "D3", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := gameFrom(t, tc.diagram, "chinese", goban.Black, 0.5)
			b := g.Board()
			in := newPriorInput(b, newGeometry(b), goban.Black, goban.PassLoc)
			l := b.Loc(vertex(t, g, tc.escape).Point)
			if !in.escape[l] {
				t.Fatalf("%s is not an escape from atari", tc.escape)
			}
			if got := in.laddered(l); got != tc.want {
				t.Errorf("laddered(%s) = %v, want %v", tc.escape, got, tc.want)
			}
		})
	}
}

// TestLadderAttackPrior: the atari that starts a working ladder gets a
// better prior than the atari that lets the stone out.
func TestLadderAttackPrior(t *testing.T) {
	g := gameFrom(t, `
		. . . . . . . . .
		. . . . . . . . .
		. . . O O . . . .
		. . O X . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`, "chinese", goban.White, 0.5)
	b := g.Board()
	in := newPriorInput(b, newGeometry(b), goban.White, goban.PassLoc)
	ladder, out := b.Loc(vertex(t, g, "D5").Point), b.Loc(vertex(t, g, "E6").Point)
	if !in.laddersChain(ladder) || in.laddersChain(out) {
		t.Fatalf("laddersChain D5 %v, E6 %v; want true, false", in.laddersChain(ladder), in.laddersChain(out))
	}
	pn1, pw1 := in.prior(ladder)
	pn2, pw2 := in.prior(out)
	if pw1/pn1 <= pw2/pn2 {
		t.Errorf("prior of the ladder D5 %.2f not above E6 %.2f", pw1/pn1, pw2/pn2)
	}
}

// TestNetPrior: the net reader finds exactly the net of diaNet among the
// points around the cutting stone E5, for both colours.
func TestNetPrior(t *testing.T) {
	for _, tc := range []struct {
		diagram string
		c       goban.Color
	}{{diaNet, goban.Black}, {swapColors(diaNet), goban.White}} {
		g := gameFrom(t, tc.diagram, "chinese", tc.c, 0.5)
		b := g.Board()
		in := newPriorInput(b, newGeometry(b), tc.c, goban.PassLoc)
		for _, v := range []string{"F6", "F5", "E6", "E7", "F7", "G5"} {
			want := v == "F6"
			if got := in.net[b.Loc(vertex(t, g, v).Point)]; got != want {
				t.Errorf("%v: net at %s is %v, want %v", tc.c, v, got, want)
			}
		}
	}
}

func TestPriors(t *testing.T) {
	// Black to move: C5 captures the white stone in atari, E2 would put
	// Black's four stones in atari, A1 is on the first line in an empty
	// area, C3 is a third-line point in the open.
	g := gameFrom(t, `
		. . . . . . .
		. X X O X . .
		. . O X . . .
		. . X . . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`, "chinese", goban.Black, 0.5)
	b := g.Board()
	geo := newGeometry(b)
	in := newPriorInput(b, geo, goban.Black, goban.PassLoc)
	value := func(v string) float64 {
		pn, pw := in.prior(b.Loc(vertex(t, g, v).Point))
		return float64(pw / pn)
	}
	capture, firstLine, open := value("D7"), value("A1"), value("E3")
	if capture <= open {
		t.Errorf("capture D7 %.2f is not above the open point E3 %.2f", capture, open)
	}
	if firstLine >= open {
		t.Errorf("first-line A1 %.2f is not below the open point E3 %.2f", firstLine, open)
	}
	if open <= 0.5 {
		t.Errorf("third-line open point E3 %.2f is not above even", open)
	}
	// Self-atari of a chain: White's E6 would leave the white D6 stone
	// with one liberty.
	w := newPriorInput(b, geo, goban.White, goban.PassLoc)
	pn, pw := w.prior(b.Loc(goban.Point{X: 3, Y: 0}))
	if float64(pw/pn) >= 0.5 {
		t.Errorf("White's self-atari D7 has value %.2f, want below even", pw/pn)
	}
	// The policy is a probability distribution.
	n := &node{}
	expand(n, g, geo, true, &defaultParams, nil)
	var sum float64
	for _, e := range n.edges {
		sum += float64(e.prior)
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("priors sum to %v", sum)
	}
}

func TestEmptyCornerPrior(t *testing.T) {
	g := goban.MustNewGame(19, 19, goban.MustRuleset("japanese"))
	if err := g.Play(vertex(t, g, "Q16")); err != nil {
		t.Fatal(err)
	}
	b := g.Board()
	in := newPriorInput(b, newGeometry(b), goban.White, b.Loc(vertex(t, g, "Q16").Point))
	value := func(v string) float64 {
		pn, pw := in.prior(b.Loc(vertex(t, g, v).Point))
		return float64(pw / pn)
	}
	if empty, taken := value("D4"), value("R14"); empty <= taken {
		t.Errorf("empty corner D4 %.2f not above R14 in the taken corner %.2f", empty, taken)
	}
	if corner, side := value("D4"), value("K4"); corner <= side {
		t.Errorf("empty corner D4 %.2f not above the side K4 %.2f", corner, side)
	}
}

func TestSelfAtari(t *testing.T) {
	g := gameFrom(t, `
		. O . . .
		O . O . .
		. O . . .
		. . . . .
		X X . . .`, "chinese", goban.Black, 0.5)
	b := g.Board()
	tests := []struct {
		v    string
		c    goban.Color
		sa   bool
		size int
	}{
		{"C5", goban.Black, true, 1},  // one liberty, at D5
		{"A2", goban.Black, false, 0}, // joins A1–B1, four liberties
		{"B4", goban.White, false, 0}, // connects the four white stones
		{"C1", goban.Black, false, 0},
	}
	for _, tc := range tests {
		l := b.Loc(vertex(t, g, tc.v).Point)
		sa, size := selfAtari(b, l, tc.c)
		if sa != tc.sa || (sa && size != tc.size) {
			t.Errorf("selfAtari(%s, %v) = %v, %d; want %v, %d", tc.v, tc.c, sa, size, tc.sa, tc.size)
		}
	}
	// A two-stone self-atari: Black's B1–A1 pair after White surrounds it.
	g2 := gameFrom(t, `
		. . . . .
		. . . . .
		. . . . .
		O O . . .
		. X O . .`, "chinese", goban.Black, 0.5)
	b2 := g2.Board()
	if sa, size := selfAtari(b2, b2.Loc(vertex(t, g2, "A1").Point), goban.Black); !sa || size != 2 {
		t.Errorf("selfAtari(A1) = %v, %d; want true, 2", sa, size)
	}
}

// TestDeterministic: one thread, fixed playouts and seed give the same
// move and the same visit counts twice.
func TestDeterministic(t *testing.T) {
	run := func() (goban.Move, []MoveInfo) {
		g := goban.MustNewGame(7, 7, goban.MustRuleset("chinese"))
		e := New(Options{Threads: 1, Playouts: 800, Seed: 42})
		var last Info
		m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black, Analyze: func(in Info) { last = in }})
		if err != nil {
			t.Fatal(err)
		}
		return m, last.Moves
	}
	m1, i1 := run()
	m2, i2 := run()
	if m1 != m2 || len(i1) != len(i2) {
		t.Fatalf("moves differ: %v %v", m1, m2)
	}
	for i := range i1 {
		if i1[i].Visits != i2[i].Visits || i1[i].Move != i2[i].Move {
			t.Fatalf("candidate %d differs: %+v vs %+v", i, i1[i], i2[i])
		}
	}
}

// TestTreeReuse: after the engine's move and the opponent's reply, the
// next search starts from the subtree of those two moves, with its visits.
func TestTreeReuse(t *testing.T) {
	g := goban.MustNewGame(7, 7, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 1, Playouts: 2000, Seed: 3})
	m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(m); err != nil {
		t.Fatal(err)
	}
	// Answer with White's most visited reply in the kept tree.
	root := e.tree
	var reply goban.Loc
	var want float64
	var sub *node
	for _, ed := range root.edges {
		if ed.move == g.Board().Loc(m.Point) && ed.child != nil {
			for _, r := range ed.child.edges {
				if r.n > want {
					reply, want, sub = r.move, r.n, r.child
				}
			}
		}
	}
	if sub == nil {
		t.Fatal("no subtree for the reply")
	}
	if err := g.Play(goban.PlayAt(goban.White, g.Board().Point(reply))); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	got := e.reuse(g, 0)
	e.mu.Unlock()
	if got != sub {
		t.Fatalf("reuse returned %p, want the subtree %p", got, sub)
	}
	if got.n == 0 {
		t.Fatal("reused subtree has no visits")
	}
	// Not reused: a different position with the same moves (other komi).
	e.mu.Lock()
	e.tree, e.treeMoves = root, nil
	e.treeKey.komi++
	if e.reuse(g, 0) != nil {
		t.Error("tree reused across a komi change")
	}
	e.mu.Unlock()
}

// TestTreeReuseSearch: a search on a reused subtree adds its simulations
// to the visits the subtree already had.
func TestTreeReuseSearch(t *testing.T) {
	g := goban.MustNewGame(7, 7, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 1, Playouts: 1000, Seed: 3})
	m, _ := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
	g.Play(m)
	m, _ = e.Move(context.Background(), Request{Game: g, Color: goban.White})
	// Pick Black's reply from the kept tree so that it has a subtree.
	var next *node
	var reply goban.Loc
	for _, ed := range e.tree.edges {
		if ed.move == g.Board().Loc(m.Point) && ed.child != nil {
			for _, r := range ed.child.edges {
				if r.child != nil && (next == nil || r.n > next.n) {
					next, reply = r.child, r.move
				}
			}
		}
	}
	g.Play(m)
	if next == nil {
		t.Fatal("no subtree")
	}
	g.Play(goban.PlayAt(goban.Black, g.Board().Point(reply)))
	before := next.n
	if _, err := e.Move(context.Background(), Request{Game: g, Color: goban.White}); err != nil {
		t.Fatal(err)
	}
	if e.tree != next || next.n != before+1000 {
		t.Errorf("root visits %v after reusing %v visits and 1000 playouts", next.n, before)
	}
}

// TestVirtualLoss: a simulation in flight makes the tree policy choose
// another edge, and the loss is taken back when it finishes.
func TestVirtualLoss(t *testing.T) {
	n := &node{color: goban.Black, expanded: true, n: 20, edges: []edge{
		{move: 10, pn: 10, pw: 5, n: 10, w: 6, rn: 10, rw: 6},
		{move: 11, pn: 10, pw: 5, n: 10, w: 5.5, rn: 10, rw: 5.5},
	}}
	p := defaultParams
	if got := n.selectEdge(&p, false); got != 0 {
		t.Fatalf("without virtual loss edge %d chosen, want 0", got)
	}
	n.edges[0].vl = 2
	if got := n.selectEdge(&p, false); got != 1 {
		t.Fatalf("with virtual loss on edge 0, edge %d chosen, want 1", got)
	}
}

// TestParallelSearch runs a multi-threaded search (meant for -race) and
// checks that all virtual losses are gone and the visits add up.
func TestParallelSearch(t *testing.T) {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 4, Playouts: 3000, Seed: 5})
	var mu sync.Mutex
	reports := 0
	_, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black, Interval: time.Millisecond, Analyze: func(in Info) {
		mu.Lock()
		reports++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	var check func(n *node, depth int)
	check = func(n *node, depth int) {
		if n == nil || depth > 50 {
			return
		}
		var sum float64
		for _, ed := range n.edges {
			if ed.vl != 0 {
				t.Fatalf("virtual loss %d left on an edge", ed.vl)
			}
			sum += ed.n
			check(ed.child, depth+1)
		}
		if sum != n.n {
			t.Fatalf("edge visits %v, node visits %v", sum, n.n)
		}
	}
	check(e.tree, 0)
	if e.tree.n < 3000 {
		t.Errorf("root has %v visits, want at least 3000", e.tree.n)
	}
	if reports == 0 {
		t.Error("no analysis report")
	}
}

// timeLeft is the clock that a controller's time_left describes.
func timeLeft(tc clock.TimeControl, left time.Duration, stones int) (clock.TimeControl, *clock.State) {
	st := tc.StateFromTimeLeft(left, stones)
	return tc, &st
}

func TestTimeAllocation(t *testing.T) {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 1, MoveTime: 700 * time.Millisecond})
	spec := LevelFull.Spec()
	// Untimed: all of the move time, with no early stop, because nothing
	// is saved for later.
	lim := e.limitsFor(g, Request{Color: goban.Black}, spec)
	if lim.target != 700*time.Millisecond || lim.max != lim.target || lim.playouts != 0 || !lim.deadlineOnly {
		t.Errorf("untimed: %+v", lim)
	}
	// Absolute 60 s, from time_left: a share of the time, never all, and
	// an early stop saves time for later moves.
	tc, st := timeLeft(clock.AbsoluteTime(time.Minute), time.Minute, 0)
	lim = e.limitsFor(g, Request{Color: goban.Black, Time: tc, State: st}, spec)
	if lim.target <= 0 || lim.target > 10*time.Second || lim.max < lim.target || lim.max >= time.Minute || lim.deadlineOnly {
		t.Errorf("absolute 60 s: %+v", lim)
	}
	// Byo-yomi, in the last period of 5 s: less than the period.
	tc, st = timeLeft(clock.ByoYomiTime(time.Minute, 3, 5*time.Second), 5*time.Second, 1)
	lim = e.limitsFor(g, Request{Color: goban.Black, Time: tc, State: st}, spec)
	if lim.max <= 0 || lim.max >= 5*time.Second {
		t.Errorf("last byo-yomi period: %+v", lim)
	}
	// Almost no time: a single simulation.
	tc, st = timeLeft(clock.AbsoluteTime(time.Minute), 100*time.Millisecond, 0)
	lim = e.limitsFor(g, Request{Color: goban.Black, Time: tc, State: st}, spec)
	if lim.playouts != 1 || lim.target != 0 {
		t.Errorf("no time left: %+v", lim)
	}
	// Unknown time left: the engine charges its own thinking time to the
	// mover's clock, move by move, by the control's rules.
	tc = clock.AbsoluteTime(10 * time.Second)
	e.ownTC, e.own = tc, [3]*clock.State{}
	*e.ownState(goban.Black) = tc.Play(tc.NewState(), 9*time.Second)
	lim = e.limitsFor(g, Request{Color: goban.Black, Time: tc}, spec)
	if lim.max >= time.Second {
		t.Errorf("1 s left by own count: %+v", lim)
	}
	if white := e.limitsFor(g, Request{Color: goban.White, Time: tc}, spec); white.max <= lim.max {
		t.Errorf("White's untouched 10 s give %+v, no more than Black's 1 s (%+v)", white, lim)
	}
	// Byo-yomi of one 1 s period without time_left: twenty moves of 0.8 s
	// each keep the period, so the twentieth move still has most of it
	// (the old count charged all the time spent as one move and gave 0).
	tc = clock.ByoYomiTime(0, 1, time.Second)
	e.ownTC, e.own = tc, [3]*clock.State{}
	for range 20 {
		st := e.ownState(goban.Black)
		*st = tc.Play(*st, 800*time.Millisecond)
	}
	if lim = e.limitsFor(g, Request{Color: goban.Black, Time: tc}, spec); lim.max < 300*time.Millisecond {
		t.Errorf("byo-yomi 1 s after twenty moves by own count: %+v", lim)
	}
	// Fixed playouts.
	e2 := New(Options{Playouts: 123})
	if lim := e2.limitsFor(g, Request{Color: goban.Black}, spec); lim.playouts != 123 || lim.target != 0 {
		t.Errorf("fixed playouts: %+v", lim)
	}
	// MaxTime is a deadline for the fixed playouts of a level.
	e3 := New(Options{Level: LevelStrong, MaxTime: 50 * time.Millisecond})
	lim = e3.limitsFor(g, Request{Color: goban.Black}, LevelStrong.Spec())
	if lim.playouts != int64(LevelStrong.Spec().PlayoutsFor(g.Width()*g.Height())) || lim.max != 50*time.Millisecond || !lim.deadlineOnly {
		t.Errorf("level with MaxTime: %+v", lim)
	}
}

// TestTimedMove: a move under a clock returns within the allotted time.
func TestTimedMove(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 2})
	tc := clock.AbsoluteTime(30 * time.Second)
	st := tc.NewState()
	start := time.Now()
	if _, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black, Time: tc, State: &st}); err != nil {
		t.Fatal(err)
	}
	a := clock.Budget(tc, st, clock.BudgetOptions{EmptyPoints: 81})
	if a.Target <= 0 {
		t.Fatalf("no time allotted: %+v", a)
	}
	// The margin allows for a loaded machine; the budget itself keeps
	// clock.DefaultOverhead in reserve.
	if el := time.Since(start); el > a.Max+200*time.Millisecond {
		t.Errorf("took %v, allotted at most %v", el, a.Max)
	}
}

func TestAtariGo(t *testing.T) {
	// White's D4 stone can be captured in a ladder-free net; any capture
	// wins at once, so Black must take the stone in atari at C3 rather
	// than make territory.
	g := gameFrom(t, `
		. . . . . .
		. . . . . .
		. . X O . .
		. X O X . .
		. . . . . .
		. . . . . .`, "atari", goban.Black, 0)
	e := New(Options{Threads: 1, Playouts: 1000, Seed: 1})
	var last Info
	m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black, Analyze: func(in Info) { last = in }})
	if err != nil {
		t.Fatal(err)
	}
	if got := goban.FormatMoveVertex(m, 6); got != "C2" {
		t.Errorf("played %s, want the capture C2", got)
	}
	if last.Winrate < 0.95 {
		t.Errorf("win rate of the capture %.2f, want a sure win", last.Winrate)
	}
}

func TestAtariGoDefence(t *testing.T) {
	// Black's stone is in atari: anything but the extension loses.
	g := gameFrom(t, `
		. . . . . .
		. . O . . .
		. O X O . .
		. . . . . .
		. . . . . .
		. . . . . .`, "atari", goban.Black, 0)
	e := New(Options{Threads: 1, Playouts: 1000, Seed: 1})
	m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
	if err != nil {
		t.Fatal(err)
	}
	if got := goban.FormatMoveVertex(m, 6); got != "C3" {
		t.Errorf("played %s, want the escape C3", got)
	}
}

// TestPassWhenWinning: under area rules, after the opponent passes the
// engine passes if the count wins, even with dead enemy stones left.
func TestPassWhenWinning(t *testing.T) {
	diagram := `
		. X . X O . O . .
		X X X X O O . O O
		. X . X O . O O .
		X X X X O O O . O
		. X . X X O . O O
		X X X . X O O . O
		. X . X X O . O .
		X X X X O O O O O
		. X . X O . . O .`
	for _, rules := range []string{"chinese", "japanese"} {
		t.Run(rules, func(t *testing.T) {
			g := gameFrom(t, diagram, rules, goban.White, 0.5)
			if err := g.Play(goban.PassMove(goban.White)); err != nil {
				t.Fatal(err)
			}
			e := New(Options{Threads: 1, Playouts: 1000, Seed: 2})
			m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != goban.Pass {
				t.Errorf("played %v, want a pass\n%s", m, g.Board())
			}
		})
	}
}

// TestNoTerritoryFill: under territory rules the engine does not play
// inside its own settled territory when nothing is left to do.
func TestNoTerritoryFill(t *testing.T) {
	g := gameFrom(t, splitBoard(false), "japanese", goban.White, 0.5)
	if err := g.Play(goban.PassMove(goban.White)); err != nil {
		t.Fatal(err)
	}
	// Komi 20.5: Black loses the count, so only the territory rule, not
	// the count, can make it pass.
	g.SetKomi(20.5)
	// Several seeds: the search's own ownership made Black's area look
	// open in one of them (a hopeless search plays desperate lines), and
	// the territory now comes from the scoring playouts.
	for seed := uint64(1); seed <= 6; seed++ {
		e := New(Options{Threads: 1, Playouts: 1500, Seed: seed})
		m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind != goban.Pass {
			t.Errorf("seed %d: played %v in settled territory, want a pass", seed, m)
		}
	}
}

// splitBoard is a finished 7×7 position: Black's wall on column D and
// territory to its left, White's wall on column E and territory to its
// right; with deadStone a dead white stone sits in Black's area at B6.
func splitBoard(deadStone bool) string {
	rows := make([]string, 7)
	for y := range rows {
		rows[y] = ". . . X O . ."
	}
	if deadStone {
		rows[1] = ". O . X O . ."
	}
	return strings.Join(rows, "\n")
}

// TestDeadStoneInsideWall: a lone White stone inside Black's three-wide
// area is dead on every seed of the scoring playouts. The playouts alone
// put it at the threshold (about −0.3 from White's side): Black's wall, which
// has no eyes yet, dies in a quarter of them in a whole-board race, and the
// stone then lives with it. Judged by the playouts in which the wall lives,
// it is dead; the wall and White's side stay alive.
func TestDeadStoneInsideWall(t *testing.T) {
	g := gameFrom(t, splitBoard(true), "chinese", goban.White, 0.5)
	b := g.Board()
	for seed := uint64(1); seed <= 12; seed++ {
		own, finals, geo := playoutOwnership(b, g.Rules(), 1000, seed, true)
		dead := deadFromOwnership(b, geo, own, finals, goban.Empty)
		if len(dead) != 1 || dead[0] != (goban.Point{X: 1, Y: 1}) {
			t.Errorf("seed %d: dead stones %v, want [(1,1)] (stone's ownership %.3f)", seed, dead, own[geo.index[b.Loc(goban.Point{X: 1, Y: 1})]])
		}
	}
	// Without the stone nothing is dead.
	g = gameFrom(t, splitBoard(false), "chinese", goban.White, 0.5)
	own, finals, geo := playoutOwnership(g.Board(), g.Rules(), 1000, 1, true)
	if dead := deadFromOwnership(g.Board(), geo, own, finals, goban.Empty); len(dead) != 0 {
		t.Errorf("dead stones %v on a board without dead stones", dead)
	}
}

// TestCleanup: with kgs-genmove_cleanup the engine captures a dead enemy
// stone instead of passing.
func TestCleanup(t *testing.T) {
	g := gameFrom(t, splitBoard(true), "chinese", goban.White, 0.5)
	if err := g.Play(goban.PassMove(goban.White)); err != nil {
		t.Fatal(err)
	}
	e := New(Options{Threads: 1, Playouts: 1500, Seed: 4})
	dead := e.DeadStones(g)
	if len(dead) != 1 || dead[0] != (goban.Point{X: 1, Y: 1}) {
		t.Errorf("dead stones %v, want [(1,1)]", dead)
	}
	// Black plays against the dead stone while White passes, and passes
	// once it is captured.
	for i := 0; ; i++ {
		if i == 10 {
			t.Fatalf("no pass after 10 moves\n%s", g.Board())
		}
		m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black, Cleanup: true})
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == goban.Pass {
			break
		}
		if m.Kind != goban.Play {
			t.Fatalf("played %v", m)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		if err := g.Play(goban.PassMove(goban.White)); err != nil {
			t.Fatal(err)
		}
	}
	if c := g.Board().At(goban.Point{X: 1, Y: 1}); c == goban.White {
		t.Errorf("passed with the dead stone on the board\n%s", g.Board())
	}
}

func TestResign(t *testing.T) {
	// White builds a wall while Black passes: after 30 moves Black has
	// nothing on a 7×7 board and 7.5 komi to make up.
	g := goban.MustNewGame(7, 7, goban.MustRuleset("chinese"))
	for _, v := range []string{"D4", "C4", "E4", "D3", "D5", "C3", "E3", "C5", "E5", "D2", "D6", "B4", "F4", "C2", "E2"} {
		if err := g.Play(goban.PassMove(goban.Black)); err != nil {
			t.Fatal(err)
		}
		p, _, _ := goban.ParseVertex(v, 7, 7)
		if err := g.Play(goban.PlayAt(goban.White, p)); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{Threads: 1, Playouts: 2000, Seed: 9})
	m, err := e.Move(context.Background(), Request{Game: g, Color: goban.Black})
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind != goban.Resign {
		t.Errorf("played %v in a hopeless position, want resignation", m)
	}
	// Never in the opening, and never when told not to.
	e = New(Options{Threads: 1, Playouts: 2000, Seed: 9, ResignThreshold: -1})
	if m, _ := e.Move(context.Background(), Request{Game: g, Color: goban.Black}); m.Kind == goban.Resign {
		t.Error("resigned with resignation disabled")
	}
}

// TestSekiNotDead: stones in seki are not proposed dead.
func TestSekiNotDead(t *testing.T) {
	// Each chain on the top edge has one eye and they share the liberty
	// C5 (seed 001, Dia. 10).
	g := gameFrom(t, `
		. X . O .
		X X X O O
		O O O X X
		. . . . .
		. . . . .`, "japanese", goban.Black, 0.5)
	e := New(Options{ScoringPlayouts: 600})
	dead := e.DeadStones(g)
	st, err := g.Board().Statuses(nil)
	if err != nil {
		t.Fatal(err)
	}
	seki := 0
	for _, s := range st {
		if s == goban.Seki {
			seki++
		}
	}
	if seki == 0 {
		t.Fatal("the test position has no seki")
	}
	for _, p := range dead {
		if st[p] == goban.Seki {
			t.Errorf("seki stone %v proposed dead", p)
		}
	}
}

func TestLevels(t *testing.T) {
	for i, sp := range Levels() {
		if int(sp.Level) != i+1 {
			t.Errorf("level %d numbered %d", i+1, sp.Level)
		}
		if !strings.Contains(sp.Rank(), "kyu") || (!sp.Measured && !strings.Contains(sp.Rank(), "not yet measured")) {
			t.Errorf("rank label %q", sp.Rank())
		}
		l, err := ParseLevel(sp.Name)
		if err != nil || l != sp.Level {
			t.Errorf("ParseLevel(%q) = %v, %v", sp.Name, l, err)
		}
	}
	if _, err := ParseLevel("grandmaster"); err == nil {
		t.Error("unknown level accepted")
	}
	// A rank that no match has measured says so; a measured one does not.
	if got := (LevelSpec{Kyu: 7}).Rank(); got != "7 kyu (estimated, not yet measured)" {
		t.Errorf("unmeasured rank label %q", got)
	}
	if got := (LevelSpec{Kyu: 7, Measured: true}).Rank(); got != "7 kyu" {
		t.Errorf("measured rank label %q", got)
	}
	// The levels keep the even prior their ranks were measured with on
	// every board; full strength uses the smaller one up to 13×13 and the
	// larger on 19×19 (docs/STRENGTH.md).
	for _, tc := range []struct {
		level Level
		size  int
		want  float32
	}{
		{LevelClub, 9, levelEvenPrior},
		{LevelClub, 19, levelEvenPrior},
		{LevelFull, 9, 5},
		{LevelFull, 13, 5},
		{LevelFull, 19, 10},
	} {
		if p := New(Options{Level: tc.level}).params.forBoard(tc.size, tc.size).evenPrior; p != tc.want {
			t.Errorf("%v on %d×%d: even prior %v, want %v", tc.level, tc.size, tc.size, p, tc.want)
		}
	}
	// The beginner plays no first-line moves and no self-atari in the
	// opening of a 9×9 game.
	for seed := uint64(1); seed <= 8; seed++ {
		g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
		e := New(Options{Threads: 1, Level: LevelBeginner, Seed: seed})
		for range 6 {
			m, err := e.Move(context.Background(), Request{Game: g, Color: g.ToMove()})
			if err != nil {
				t.Fatal(err)
			}
			if m.Kind != goban.Play {
				t.Fatalf("beginner played %v in the opening", m)
			}
			if p := m.Point; p.X == 0 || p.Y == 0 || p.X == 8 || p.Y == 8 {
				t.Errorf("seed %d: beginner played on the first line: %v\n%s", seed, p, g.Board())
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestFormatAnalyze(t *testing.T) {
	in := Info{Color: goban.White, Width: 2, Height: 2, Moves: []MoveInfo{{
		Move: goban.PlayAt(goban.White, goban.Point{X: 0, Y: 1}), Visits: 12, Winrate: 0.625, ScoreLead: 1.5,
		Prior: 0.25, LCB: 0.5, Order: 0,
		PV: []goban.Move{goban.PlayAt(goban.White, goban.Point{X: 0, Y: 1}), goban.PassMove(goban.Black)},
	}}, Ownership: []float64{1, -1, 0.5, 0}}
	kata := FormatKataAnalyze(in, true)
	want := "info move A1 visits 12 winrate 0.625000 scoreMean 1.500 scoreLead 1.500 prior 0.250000 lcb 0.500000 order 0 pv A1 pass ownership -1.0000 1.0000 -0.5000 -0.0000"
	if kata != want {
		t.Errorf("kata-analyze:\n got %s\nwant %s", kata, want)
	}
	lz := FormatLzAnalyze(in)
	if want := "info move A1 visits 12 winrate 6250 prior 2500 lcb 5000 order 0 pv A1 pass"; lz != want {
		t.Errorf("lz-analyze:\n got %s\nwant %s", lz, want)
	}
}

// TestAnalyzeStops: Analyze reports and returns when its context ends.
func TestAnalyzeStops(t *testing.T) {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	e := New(Options{Threads: 2, Seed: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var mu sync.Mutex
	var infos []Info
	e.Analyze(ctx, g, 50*time.Millisecond, func(in Info) {
		mu.Lock()
		infos = append(infos, in)
		mu.Unlock()
	})
	if len(infos) < 2 {
		t.Fatalf("%d reports", len(infos))
	}
	last := infos[len(infos)-1]
	if len(last.Moves) == 0 || len(last.Ownership) != 81 || len(last.Moves[0].PV) == 0 {
		t.Errorf("last report incomplete: %d moves, %d ownership", len(last.Moves), len(last.Ownership))
	}
}

func TestDynamicKomi(t *testing.T) {
	g := goban.MustNewGame(19, 19, goban.MustRuleset("japanese"))
	if k := DynamicKomi(g); k != 0 {
		t.Errorf("even game: %v", k)
	}
	if err := g.SetHandicap(4, false); err != nil {
		t.Fatal(err)
	}
	if k := DynamicKomi(g); k != 28 {
		t.Errorf("4 stones at the start: %v, want 28", k)
	}
	// White answers Black's stones with passes, which count as moves.
	next := 0
	playTo := func(n int) {
		for g.MoveNumber() < n {
			if g.ToMove() == goban.White {
				if err := g.Play(goban.PassMove(goban.White)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			for {
				p := goban.Point{X: next % 19, Y: 18 - next/19}
				next++
				if g.Play(goban.PlayAt(goban.Black, p)) == nil {
					break
				}
			}
		}
	}
	playTo(90)
	if k := DynamicKomi(g); k <= 0 || k >= 28 {
		t.Errorf("move 90: %v, want between 0 and 28", k)
	}
	playTo(181)
	if k := DynamicKomi(g); k != 0 {
		t.Errorf("move 181: %v, want 0", k)
	}
}

// TestIllegalTreeMove: a move that the cheap legality check let into the
// tree but the game refuses (as a superko repetition would be) is marked
// illegal when a simulation tries it, without leaving a virtual loss or a
// move on the worker's game.
func TestIllegalTreeMove(t *testing.T) {
	g := gameFrom(t, `
		. . . . .
		. X . . .
		. . . . .
		. . . . .
		. . . . .`, "tromp-taylor", goban.White, 7.5)
	s := newSearcher(g, nil, 1, 1, defaultParams, 1000)
	occupied := g.Board().Loc(goban.Point{X: 1, Y: 1})
	s.root.edges = append(s.root.edges, edge{move: occupied, pn: 1000, pw: 1000})
	w := s.workers[0]
	before := w.game.MoveNumber()
	w.simulate()
	last := s.root.edges[len(s.root.edges)-1]
	if !last.illegal || last.vl != 0 || last.n != 0 {
		t.Errorf("refused edge: illegal %v, virtual loss %d, visits %v", last.illegal, last.vl, last.n)
	}
	if w.game.MoveNumber() != before {
		t.Errorf("worker's game at move %d, want %d", w.game.MoveNumber(), before)
	}
	// The next simulation goes elsewhere and counts.
	w.simulate()
	if s.root.n != 1 {
		t.Errorf("root visits %v after one good simulation", s.root.n)
	}
}

// TestSampleBounds checks that the visit-weighted levels never choose a
// move with a small share of the best move's visits or a much lower win
// rate, however often they draw.
func TestSampleBounds(t *testing.T) {
	cands := []rootStats{
		{move: 10, n: 100, w: 60},
		{move: 11, n: 40, w: 22}, // eligible: 40 % of the visits, win rate 0.55
		{move: 12, n: 9, w: 6},   // too few visits
		{move: 13, n: 30, w: 12}, // win rate 0.4: too far below 0.6
		{move: 14, n: 1, w: 1},
	}
	e := New(Options{Seed: 3})
	spec := LevelSpec{Temperature: 1, MaxLoss: 0.15}
	seen := map[goban.Loc]int{}
	for i := 0; i < 400; i++ {
		e.calls++
		seen[e.sample(cands, spec).move]++
	}
	for _, bad := range []goban.Loc{12, 13, 14} {
		if seen[bad] > 0 {
			t.Errorf("move %d chosen %d times; counts %v", bad, seen[bad], seen)
		}
	}
	if seen[10] == 0 || seen[11] == 0 {
		t.Errorf("both eligible moves should be chosen sometimes; counts %v", seen)
	}
}
