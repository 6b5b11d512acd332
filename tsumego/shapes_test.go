package tsumego

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tengen/goban"
)

// parse reads a test diagram: X and O are stones, '.' an empty point of the
// region, ',' an empty point outside it (where nobody plays, so that the
// walls around a problem keep their liberties).
func parse(t testing.TB, diagram string) (*goban.Board, []goban.Point) {
	t.Helper()
	b, err := goban.ParseBoard(diagram)
	if err != nil {
		t.Fatal(err)
	}
	var region []goban.Point
	y := 0
	for _, line := range strings.Split(diagram, "\n") {
		line = strings.ReplaceAll(strings.TrimSpace(line), " ", "")
		if line == "" {
			continue
		}
		for x, r := range line {
			if r == '.' {
				region = append(region, goban.Point{X: x, Y: y})
			}
		}
		y++
	}
	return b, region
}

// The shapes of known status. Corners are at the top left.
const (
	// White's eye space is three points in a row on the edge.
	straightThree = `
. . . O X ,
O O O O X ,
X X X X X ,
, , , , , ,`
	// White's eye space is a square of four with one more point.
	bulkyFive = `
. . . O X ,
. . O O X ,
O O O X X ,
X X X X , ,`
	// The goban/confirm_test.go position: White's eye space is bent four
	// with the bend in the corner and no outside liberties.
	bentFour = `
O O O O X ,
. O O O X ,
. . . O X ,`
	// Black's three stones along each side on the second line, with
	// White's hane on the first line at both ends (GNU Go's owl_attack
	// agrees: dead with White to play).
	lGroup = `
. . . . O ,
. X X X O ,
. X O O O ,
. X O , , ,
O O O , , ,`
	// A ten thousand year ko (mannen ko): a ko that is bad for whoever
	// starts it, so that it may stay on the board to the end of the game.
	// Coordinates are (x,y) from the top left. The target is White's chain
	// W around the corner, (0,1) to (5,0); its liberties are the ko point
	// (0,0), the outside liberty a = (0,3) (shared with Black's wall) and
	// s = (4,0), which it shares with Black's five inner stones B ((2,0),
	// (1,1) to (4,1)). B's liberties are s and e = (3,0). White's stone
	// w = (1,0) is in atari at (0,0), and a black stone that captures it
	// there has the one liberty (1,0): the ko.
	//
	// Neither side starts: the position stays a seki. Black cannot play s
	// or e (B in atari, White captures it at the other point); White cannot
	// connect at (0,0) (W then has a and s only, Black fills a, and W,
	// with no eye, loses the race against B's e and s); the 1989 Japanese
	// rules' commentary counts such an unresolved ko as seki.
	//
	// Black starts: B (0,0) takes w, but W keeps two liberties (a, s), so
	// the capture threatens nothing yet, and connecting the ko at (1,0)
	// would not help either (B with e and s loses the race against W with
	// a and s, White to move). Black needs one more move, the approach at
	// a; only then is W in atari, and White, who had a free move, retakes
	// at (1,0). An approach ko: Black must be two moves ahead (Tempi 2).
	//
	// White starts: White cannot connect, and White's e (or s) puts B in
	// atari, which Black answers by taking the ko at (0,0); so White's
	// start gives Black the first capture, and White needs the first ko
	// threat.
	//
	// In the solver's terms both sides to move get Ko (each wins as ko
	// master, neither without), and passing keeps the Ko.
	tenThousandYearKo = `
. O X . . O X ,
O X X X X O X ,
O O O O O O X ,
. X X X X X X ,
X X , , , , , ,`
	// A seki after H Dia. 10 and P §7: Black's chain and White's stones
	// share the two free points; whoever plays there first is captured.
	// White has three stones, not the two of goban's reconstruction of
	// Dia. 10: with two, White sacrifices three stones by playing in,
	// Black's capture leaves a straight three, and White kills at its
	// middle. Here Black's capture of four leaves a straight four.
	seki = `
O O O O O O O ,
X X X X X X O ,
. O O O . X O ,`
	// The same with two white stones is no seki: White plays in at (3,2),
	// Black captures three stones at (0,2), and White kills at (2,2), the
	// middle of the straight three. (Reading this needs the points of
	// captured stones to be playable.)
	falseSeki = `
O O O O O O ,
X X X X X O ,
. O O . X O ,`
)

func TestShapes(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		target  goban.Point
		toMove  goban.Color
		want    Result // for the side to move
		// moves maps some first moves to their result for the side to
		// move; "pass" is the pass.
		moves map[string]Result
	}{
		{"straight three, Black kills", straightThree, goban.Point{X: 3}, goban.Black, Win,
			map[string]Result{"(1,0)": Win, "(0,0)": Fail, "(2,0)": Fail, "pass": Fail}},
		{"straight three, White lives", straightThree, goban.Point{X: 3}, goban.White, Win,
			map[string]Result{"(1,0)": Win, "(0,0)": Fail, "pass": Fail}},
		{"bulky five, Black kills at the vital point", bulkyFive, goban.Point{X: 3}, goban.Black, Win,
			map[string]Result{"(1,0)": Win, "(1,1)": Fail, "(0,0)": Fail, "(2,0)": Fail, "pass": Fail}},
		{"bulky five, White lives", bulkyFive, goban.Point{X: 3}, goban.White, Win,
			map[string]Result{"(1,0)": Win}},
		{"bent four in the corner, Black starts the ko", bentFour, goban.Point{X: 1, Y: 1}, goban.Black, Ko,
			map[string]Result{"(1,2)": Ko, "(0,1)": Fail, "(2,2)": Fail, "pass": Fail}},
		{"bent four in the corner, White to play lives", bentFour, goban.Point{X: 1, Y: 1}, goban.White, Win, nil},
		{"L group, White kills", lGroup, goban.Point{X: 1, Y: 1}, goban.White, Win, nil},
		{"seki, Black must not play in", seki, goban.Point{X: 0, Y: 1}, goban.Black, Win,
			map[string]Result{"pass": Win, "(0,2)": Fail, "(4,2)": Fail}},
		{"seki, White must not play in", seki, goban.Point{X: 1, Y: 2}, goban.White, Win,
			map[string]Result{"pass": Win, "(0,2)": Fail, "(4,2)": Fail}},
		// White's sacrifice does not kill either: Black's capture of four
		// stones leaves Black a straight four.
		{"seki, White cannot kill", seki, goban.Point{X: 0, Y: 1}, goban.White, Fail,
			map[string]Result{"(4,2)": Fail}},
		{"seki, Black cannot kill", seki, goban.Point{X: 1, Y: 2}, goban.Black, Fail, nil},
		{"two stones, White kills by a sacrifice", falseSeki, goban.Point{X: 0, Y: 1}, goban.White, Win,
			map[string]Result{"(3,2)": Win, "(0,2)": Win, "pass": Win}},
		{"two stones, Black cannot live", falseSeki, goban.Point{X: 0, Y: 1}, goban.Black, Fail,
			map[string]Result{"pass": Fail}},
		{"ten thousand year ko, Black to kill", tenThousandYearKo, goban.Point{X: 0, Y: 1}, goban.Black, Ko,
			map[string]Result{"(0,0)": Ko, "(0,3)": Ko, "(4,0)": Fail, "(3,0)": Fail, "pass": Ko}},
		{"ten thousand year ko, White to live", tenThousandYearKo, goban.Point{X: 0, Y: 1}, goban.White, Ko,
			map[string]Result{"(0,0)": Fail, "(3,0)": Ko, "(4,0)": Ko, "pass": Ko}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, region := parse(t, tt.diagram)
			s, err := New(Position{Board: b, Region: region, Target: tt.target, ToMove: tt.toMove}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Evaluate(tt.toMove); got != tt.want {
				t.Errorf("Evaluate(%v) = %v, want %v", tt.toMove, got, tt.want)
			}
			seen := 0
			for _, m := range s.Moves() {
				want, ok := tt.moves[m.String()]
				if !ok {
					continue
				}
				seen++
				if err := s.PlayMove(m); err != nil {
					t.Fatal(err)
				}
				if got := s.Evaluate(tt.toMove); got != want {
					t.Errorf("after %v: Evaluate(%v) = %v, want %v", m, tt.toMove, got, want)
				}
				s.Undo()
			}
			if seen != len(tt.moves) {
				t.Errorf("%d of the %d moves in the table are legal", seen, len(tt.moves))
			}
		})
	}
}

// TestBounds: a search that runs out of its bounds answers Unknown, never a
// result it has not proven.
func TestBounds(t *testing.T) {
	b, region := parse(t, lGroup)
	for _, lim := range []Limits{{MaxNodes: 1}, {MaxDepth: 1}, {MaxNodes: 50}} {
		s, err := New(Position{Board: b, Region: region, Target: goban.Point{X: 1, Y: 1}, ToMove: goban.White}, lim)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Evaluate(goban.White); got != Unknown && got != Win {
			t.Errorf("limits %+v: %v; the L group is dead with White to play, so only Win or Unknown are true", lim, got)
		}
		if got := s.Evaluate(goban.White); lim.MaxNodes == 1 && got != Unknown {
			t.Errorf("limits %+v: %v with one node, want unknown", lim, got)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	b, region := parse(t, straightThree)
	tests := []struct {
		name string
		pos  Position
	}{
		{"no board", Position{Region: region, Target: goban.Point{X: 3}, ToMove: goban.Black}},
		{"no stone at the target", Position{Board: b, Region: region, Target: goban.Point{X: 0}, ToMove: goban.Black}},
		{"target off the board", Position{Board: b, Region: region, Target: goban.Point{X: 30}, ToMove: goban.Black}},
		{"nobody to move", Position{Board: b, Region: region, Target: goban.Point{X: 3}}},
		{"region off the board", Position{Board: b, Region: []goban.Point{{X: -1}}, Target: goban.Point{X: 3}, ToMove: goban.Black}},
	}
	for _, tt := range tests {
		if _, err := New(tt.pos, Limits{}); !errors.Is(err, ErrPosition) {
			t.Errorf("%s: %v, want ErrPosition", tt.name, err)
		}
	}
}

// TestPlayOutsideRegion: the solver's own Play keeps to the region and the
// rules.
func TestPlayOutsideRegion(t *testing.T) {
	b, region := parse(t, straightThree)
	s, err := New(Position{Board: b, Region: region, Target: goban.Point{X: 3}, ToMove: goban.Black}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Play(goban.Point{X: 5, Y: 3}, false); err == nil {
		t.Error("a move outside the region was played")
	}
	if err := s.Play(goban.Point{X: 3}, false); !errors.Is(err, goban.ErrOccupied) {
		t.Errorf("a move on a stone of the wall: %v", err)
	}
	if err := s.Play(goban.Point{X: 1}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(goban.Point{X: 1}, false); !errors.Is(err, goban.ErrOccupied) {
		t.Errorf("a move on a stone: %v", err)
	}
	s.Undo()
	if err := s.Play(goban.Point{X: 1}, false); err != nil || s.ToMove() != goban.White {
		t.Fatalf("B (1,0): %v, %v to move", err, s.ToMove())
	}
	s.Undo()
	if s.ToMove() != goban.Black || s.Board().At(goban.Point{X: 1}) != goban.Empty {
		t.Error("Undo did not take the move back")
	}
}

// TestTenThousandYearKo plays the lines of the tenThousandYearKo comment
// move by move under the rules of goban (legality, captures, the simple ko
// rule) and checks the liberties they rest on, then the solver's tempi.
func TestTenThousandYearKo(t *testing.T) {
	type step struct {
		move string // "B(x,y)", "W(x,y)", "Bpass" or "Wpass"
		err  error  // the move's error, for a move that must be illegal
		// The liberties of W (at (0,1)) and of B (at (1,1)) after the
		// move; 0 means the chain has been captured.
		w, b int
	}
	lines := []struct {
		name  string
		steps []step
	}{
		{"Black's capture is no atari, the approach is", []step{
			{"B(0,0)", nil, 2, 3}, {"W(1,0)", goban.ErrKo, 2, 3},
			{"B(0,3)", nil, 1, 3}, {"W(1,0)", nil, 2, 2}, {"B(0,0)", goban.ErrKo, 2, 2}}},
		{"connecting the ko loses the race", []step{
			{"B(0,0)", nil, 2, 3}, {"Wpass", nil, 2, 3}, {"B(1,0)", nil, 2, 2},
			{"W(3,0)", nil, 2, 1}, {"B(0,3)", nil, 1, 1}, {"W(4,0)", nil, 6, 0}}},
		{"White connects and dies", []step{
			{"W(0,0)", nil, 2, 2}, {"B(0,3)", nil, 1, 2}, {"W(3,0)", nil, 1, 1}, {"B(4,0)", nil, 0, 9}}},
		{"White's start gives Black the first capture", []step{
			{"W(3,0)", nil, 3, 1}, {"B(0,0)", nil, 2, 2}, {"W(1,0)", goban.ErrKo, 2, 2}}},
		{"Black filling the shared liberty is captured", []step{
			{"B(4,0)", nil, 2, 1}, {"W(3,0)", nil, 7, 0}}},
		{"Black filling the inner liberty is captured", []step{
			{"B(3,0)", nil, 3, 1}, {"W(4,0)", nil, 7, 0}}},
		{"neither starts", []step{{"Bpass", nil, 3, 2}, {"Wpass", nil, 3, 2}}},
	}
	b, region := parse(t, tenThousandYearKo)
	target, inner := goban.Point{X: 0, Y: 1}, goban.Point{X: 1, Y: 1}
	libs := func(s *Solver, p goban.Point, c goban.Color) int {
		if s.Board().At(p) != c {
			return 0
		}
		return s.Board().Liberties(s.Board().Loc(p))
	}
	for _, line := range lines {
		t.Run(line.name, func(t *testing.T) {
			first := goban.Black
			if line.steps[0].move[0] == 'W' {
				first = goban.White
			}
			s, err := New(Position{Board: b, Region: region, Target: target, ToMove: first}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range line.steps {
				if c := map[byte]goban.Color{'B': goban.Black, 'W': goban.White}[st.move[0]]; c != s.ToMove() {
					t.Fatalf("step %d %s: %v to move", i, st.move, s.ToMove())
				}
				m := Move{Pass: st.move[1:] == "pass"}
				if !m.Pass {
					if _, err := fmt.Sscanf(st.move[1:], "(%d,%d)", &m.Point.X, &m.Point.Y); err != nil {
						t.Fatal(err)
					}
				}
				err := s.PlayMove(m)
				if st.err != nil {
					if !errors.Is(err, st.err) {
						t.Fatalf("step %d %s: %v, want %v", i, st.move, err, st.err)
					}
					// The illegal move is not played: that side plays
					// elsewhere (a pass here) and the line goes on.
					if err := s.Play(goban.Point{}, true); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d %s: %v", i, st.move, err)
				}
				if w, bl := libs(s, target, goban.White), libs(s, inner, goban.Black); w != st.w || bl != st.b {
					t.Errorf("after step %d %s: W has %d liberties, B %d; want %d and %d\n%v", i, st.move, w, bl, st.w, st.b, s.Board())
				}
			}
		})
	}
}

// TestTempi: how many moves ahead a side must be tells a direct ko from an
// approach ko, which Evaluate (Ko for both) does not.
func TestTempi(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		target  goban.Point
		toMove  goban.Color
		c       goban.Color
		want    int
	}{
		{"straight three, Black kills outright", straightThree, goban.Point{X: 3}, goban.Black, goban.Black, 0},
		{"bent four, Black's direct ko", bentFour, goban.Point{X: 1, Y: 1}, goban.Black, goban.Black, 1},
		// Black's capture at (0,0) is no threat; Black needs the approach
		// at (0,3) as well, and only then the capture at (4,0).
		{"ten thousand year ko, Black's approach ko", tenThousandYearKo, goban.Point{X: 0, Y: 1}, goban.Black, goban.Black, 2},
		// White's (3,0) puts B in atari and the next White move captures
		// it; in a game Black answers the atari by taking the ko.
		{"ten thousand year ko, White's atari", tenThousandYearKo, goban.Point{X: 0, Y: 1}, goban.White, goban.White, 1},
		// With Black to move, White needs Black to pass first as well.
		{"ten thousand year ko, White a move behind", tenThousandYearKo, goban.Point{X: 0, Y: 1}, goban.Black, goban.White, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, region := parse(t, tt.diagram)
			s, err := New(Position{Board: b, Region: region, Target: tt.target, ToMove: tt.toMove}, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			before := s.Board().Hash()
			if n, ok := s.Tempi(tt.c, 4); !ok || n != tt.want {
				t.Errorf("Tempi(%v) = %d, %v; want %d", tt.c, n, ok, tt.want)
			}
			if s.Board().Hash() != before || s.ToMove() != tt.toMove {
				t.Error("Tempi changed the position")
			}
		})
	}
	b, region := parse(t, tenThousandYearKo)
	s, err := New(Position{Board: b, Region: region, Target: goban.Point{X: 0, Y: 1}, ToMove: goban.Black}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := s.Tempi(goban.Black, 1); ok {
		t.Errorf("Tempi(black, 1) = %d, true; Black needs two moves ahead", n)
	}
}
