package goban_test

import (
	"errors"
	"slices"
	"testing"

	"tengen/goban"
)

// TestFreeHandicapOneByOne places free handicap stones one at a time and
// checks that the game then goes on exactly as after PlaceHandicap with the
// same points.
func TestFreeHandicapOneByOne(t *testing.T) {
	for _, tc := range []struct {
		name, rules string
		size, n     int
		// komi, if set, is set after StartFreeHandicap and must survive.
		komi     *float64
		stones   []string // GTP vertices, placed in order
		wantKomi float64
		toMove   goban.Color
	}{
		{name: "chinese", rules: "chinese", size: 19, n: 3, stones: []string{"D4", "Q16", "K10"}, wantKomi: 0.5, toMove: goban.White},
		{name: "online, custom komi", rules: "online", size: 13, n: 2, komi: new(3.5), stones: []string{"A1", "N13"}, wantKomi: 3.5, toMove: goban.White},
		{name: "tromp-taylor, negative komi", rules: "tromp-taylor", size: 9, n: 4, komi: new(-2.0), stones: []string{"E5", "E6", "E4", "D5"}, wantKomi: -2, toMove: goban.White},
		{name: "pfaundler: Black moves first", rules: "pfaundler", size: 19, n: 13, wantKomi: 0, toMove: goban.Black,
			stones: []string{"A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "K1", "L1", "M1", "N1"}},
		{name: "japanese: explicit free placement", rules: "japanese", size: 9, n: 2, stones: []string{"C3", "G7"}, wantKomi: 0.5, toMove: goban.White},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rules := goban.MustRuleset(tc.rules)
			g := goban.MustNewGame(tc.size, tc.size, rules)
			if err := g.StartFreeHandicap(tc.n); err != nil {
				t.Fatal(err)
			}
			if tc.komi != nil {
				g.SetKomi(*tc.komi)
			}
			var pts []goban.Point
			for i, v := range tc.stones {
				if got := g.HandicapToPlace(); got != tc.n-i {
					t.Fatalf("before stone %d: %d to place, want %d", i+1, got, tc.n-i)
				}
				if g.ToMove() != goban.Black {
					t.Fatalf("before stone %d: %v to move, want black", i+1, g.ToMove())
				}
				p := point(t, g, v)
				if err := g.PlaceHandicapStone(p); err != nil {
					t.Fatalf("stone %d at %s: %v", i+1, v, err)
				}
				pts = append(pts, p)
				if g.Board().At(p) != goban.Black || g.Board().Stones(goban.Black) != i+1 {
					t.Fatalf("after stone %d the board shows %d black stones:\n%s", i+1, g.Board().Stones(goban.Black), g.Board())
				}
				if n, at := g.Handicap(); n != tc.n || !slices.Equal(at, pts) {
					t.Fatalf("after stone %d: Handicap() = %d %v, want %d %v", i+1, n, at, tc.n, pts)
				}
			}
			if g.HandicapToPlace() != 0 {
				t.Fatalf("%d stones still to place after the last", g.HandicapToPlace())
			}

			// The same game made by PlaceHandicap with the same komi.
			want := goban.MustNewGame(tc.size, tc.size, rules)
			if err := want.PlaceHandicap(pts); err != nil {
				t.Fatal(err)
			}
			if tc.komi != nil {
				want.SetKomi(*tc.komi)
			}
			if g.Komi() != tc.wantKomi || want.Komi() != tc.wantKomi {
				t.Errorf("komi %v (PlaceHandicap: %v), want %v", g.Komi(), want.Komi(), tc.wantKomi)
			}
			if g.ToMove() != tc.toMove || want.ToMove() != tc.toMove {
				t.Errorf("%v to move (PlaceHandicap: %v), want %v", g.ToMove(), want.ToMove(), tc.toMove)
			}
			sameGame(t, g, want)
			// Both go on alike: the same moves are legal and score alike.
			for _, v := range []string{"pass", "B2", "pass"} {
				for _, gg := range []*goban.Game{g, want} {
					m := goban.PassMove(gg.ToMove())
					if v != "pass" {
						m = goban.PlayAt(gg.ToMove(), point(t, gg, v))
					}
					if err := gg.Play(m); err != nil {
						t.Fatalf("%v: %v", m, err)
					}
				}
				sameGame(t, g, want)
			}
		})
	}
}

// sameGame compares what a player sees of two games.
func sameGame(t *testing.T, g, want *goban.Game) {
	t.Helper()
	if g.Board().String() != want.Board().String() || g.ToMove() != want.ToMove() || g.Komi() != want.Komi() ||
		g.Ended() != want.Ended() || g.MoveNumber() != want.MoveNumber() {
		t.Fatalf("game differs from PlaceHandicap's: %v to move, komi %v, ended %v, %d moves\n%s\nwant %v, %v, %v, %d\n%s",
			g.ToMove(), g.Komi(), g.Ended(), g.MoveNumber(), g.Board(),
			want.ToMove(), want.Komi(), want.Ended(), want.MoveNumber(), want.Board())
	}
	n, at := g.Handicap()
	wn, wat := want.Handicap()
	if n != wn || !slices.Equal(at, wat) {
		t.Fatalf("handicap %d %v, want %d %v", n, at, wn, wat)
	}
	if c := g.ToMove(); !g.Ended() && !slices.Equal(g.LegalMoves(c), want.LegalMoves(c)) {
		t.Fatalf("legal moves differ from PlaceHandicap's")
	}
	s, err := g.Score(nil)
	ws, werr := want.Score(nil)
	if err != nil || werr != nil || s.Black != ws.Black || s.White != ws.White {
		t.Fatalf("score %+v %+v (%v), want %+v %+v (%v)", s.Black, s.White, err, ws.Black, ws.White, werr)
	}
}

// TestFreeHandicapRefusals: what StartFreeHandicap, PlaceHandicapStone and
// the other ways to change a game refuse during and around a placement.
// Every refusal leaves the game as it was.
func TestFreeHandicapRefusals(t *testing.T) {
	type op struct {
		name string
		do   func(*goban.Game) error
		err  error // the reason expected; errAny for an error without one
	}
	errAny := errors.New("any error")
	start := func(n int) op {
		return op{"start", func(g *goban.Game) error { return g.StartFreeHandicap(n) }, nil}
	}
	place := func(x, y int, err error) op {
		return op{"place", func(g *goban.Game) error { return g.PlaceHandicapStone(goban.Point{X: x, Y: y}) }, err}
	}
	playOp := func(m goban.Move, err error) op {
		return op{"play " + m.String(), func(g *goban.Game) error { return g.Play(m) }, err}
	}
	refuse := func(o op) op { o.err = errAny; return o }
	for _, tc := range []struct {
		name string
		size int
		ops  []op
	}{
		{"one stone", 9, []op{refuse(start(1))}},
		{"no stone", 9, []op{refuse(start(0))}},
		{"too many", 19, []op{refuse(start(goban.MaxHandicap + 1))}},
		{"board full", 2, []op{refuse(start(4))}},
		{"after a move", 9, []op{playOp(goban.PlayAt(goban.Black, goban.Point{X: 4, Y: 4}), nil), refuse(start(2))}},
		{"after PlaceHandicap", 9, []op{
			{"PlaceHandicap", func(g *goban.Game) error {
				return g.PlaceHandicap([]goban.Point{{X: 2, Y: 2}, {X: 6, Y: 6}})
			}, nil},
			refuse(start(2)),
		}},
		{"twice", 9, []op{start(3), refuse(start(2)), place(0, 0, nil), refuse(start(2))}},
		{"not started", 9, []op{refuse(place(0, 0, nil))}},
		{"off the board", 9, []op{start(2), place(9, 0, goban.ErrOffBoard), place(0, -1, goban.ErrOffBoard), place(8, 8, nil)}},
		{"occupied", 9, []op{start(3), place(4, 4, nil), place(4, 4, goban.ErrOccupied), place(4, 5, nil)}},
		{"after the last stone", 9, []op{start(2), place(0, 0, nil), place(1, 1, nil), refuse(place(2, 2, nil))}},
		{"plays and passes wait", 9, []op{
			start(2),
			playOp(goban.PlayAt(goban.Black, goban.Point{X: 3, Y: 3}), goban.ErrHandicapToPlace),
			playOp(goban.PassMove(goban.Black), goban.ErrHandicapToPlace),
			playOp(goban.PlayAt(goban.White, goban.Point{X: 3, Y: 3}), goban.ErrNotYourTurn),
			playOp(goban.PassMove(goban.White), goban.ErrNotYourTurn),
			{"PlayForced", func(g *goban.Game) error {
				_, err := g.PlayForced(goban.PlayAt(goban.Black, goban.Point{X: 3, Y: 3}))
				return err
			}, goban.ErrHandicapToPlace},
			place(3, 3, nil),
			playOp(goban.PassMove(goban.Black), goban.ErrHandicapToPlace),
			place(5, 5, nil),
			playOp(goban.PlayAt(goban.Black, goban.Point{X: 4, Y: 4}), goban.ErrNotYourTurn),
			playOp(goban.PlayAt(goban.White, goban.Point{X: 4, Y: 4}), nil),
		}},
		{"fixed handicap waits", 9, []op{
			start(2),
			refuse(op{"SetHandicap", func(g *goban.Game) error { return g.SetHandicap(2, false) }, nil}),
			refuse(op{"SetHandicap 0", func(g *goban.Game) error { return g.SetHandicap(0, false) }, nil}),
			refuse(op{"PlaceHandicap", func(g *goban.Game) error {
				return g.PlaceHandicap([]goban.Point{{X: 2, Y: 2}, {X: 6, Y: 6}})
			}, nil}),
		}},
		{"resignation while placing", 9, []op{
			start(2), place(0, 0, nil),
			playOp(goban.ResignMove(goban.Black), nil),
			place(1, 1, goban.ErrGameOver),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := goban.MustNewGame(tc.size, tc.size, goban.MustRuleset("chinese"))
			for i, o := range tc.ops {
				before := g.Clone()
				err := o.do(g)
				switch {
				case o.err == nil && err != nil:
					t.Fatalf("op %d %s: %v", i+1, o.name, err)
				case o.err == nil:
					continue
				case err == nil:
					t.Fatalf("op %d %s: no error, want %v", i+1, o.name, o.err)
				case o.err != errAny && !errors.Is(err, o.err):
					t.Fatalf("op %d %s: %v, want %v", i+1, o.name, err, o.err)
				}
				if o.err == goban.ErrOffBoard || o.err == goban.ErrOccupied || o.err == goban.ErrHandicapToPlace {
					var ill *goban.IllegalMoveError
					if !errors.As(err, &ill) {
						t.Errorf("op %d %s: %T is not an *IllegalMoveError", i+1, o.name, err)
					}
				}
				if g.Board().String() != before.Board().String() || g.ToMove() != before.ToMove() ||
					g.HandicapToPlace() != before.HandicapToPlace() || g.Komi() != before.Komi() || g.MoveNumber() != before.MoveNumber() {
					t.Fatalf("op %d %s: refused, but changed the game", i+1, o.name)
				}
			}
		})
	}
}

// TestFreeHandicapClone: a clone taken during the placement carries it on
// independently of the original.
func TestFreeHandicapClone(t *testing.T) {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("chinese"))
	g.SetToMove(goban.White)
	if err := g.StartFreeHandicap(3); err != nil {
		t.Fatal(err)
	}
	g.SetToMove(goban.White) // as SGF's PL might; placing stays Black's
	if g.ToMove() != goban.Black {
		t.Fatalf("%v to move while placing, want black", g.ToMove())
	}
	if err := g.PlaceHandicapStone(goban.Point{X: 2, Y: 2}); err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	for _, p := range []goban.Point{{X: 6, Y: 6}, {X: 4, Y: 4}} {
		if err := c.PlaceHandicapStone(p); err != nil {
			t.Fatal(err)
		}
	}
	if c.HandicapToPlace() != 0 || c.ToMove() != goban.White || c.Board().Stones(goban.Black) != 3 {
		t.Fatalf("clone: %d to place, %v to move, %d stones", c.HandicapToPlace(), c.ToMove(), c.Board().Stones(goban.Black))
	}
	if _, at := g.Handicap(); g.HandicapToPlace() != 2 || g.ToMove() != goban.Black || g.Board().Stones(goban.Black) != 1 || len(at) != 1 {
		t.Fatalf("original after the clone finished: %d to place, %v to move, %d stones, points %v",
			g.HandicapToPlace(), g.ToMove(), g.Board().Stones(goban.Black), at)
	}
	// The original may still place on the points the clone used.
	if err := g.PlaceHandicapStone(goban.Point{X: 6, Y: 6}); err != nil {
		t.Fatal(err)
	}
	if _, at := c.Handicap(); len(at) != 3 {
		t.Fatalf("the original's stone reached the clone: %v", at)
	}
}
