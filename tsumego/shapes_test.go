package tsumego

import (
	"errors"
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
	// H Dia. 10, P §7: Black's chain and White's two stones share the
	// free points; whoever plays there first is captured.
	seki = `
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
			map[string]Result{"pass": Win, "(0,2)": Fail, "(3,2)": Fail}},
		{"seki, White must not play in", seki, goban.Point{X: 1, Y: 2}, goban.White, Win,
			map[string]Result{"pass": Win, "(0,2)": Fail, "(3,2)": Fail}},
		{"seki, Black cannot kill", seki, goban.Point{X: 1, Y: 2}, goban.Black, Fail, nil},
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
	if err := s.Play(goban.Point{X: 3}, false); !errors.Is(err, ErrPosition) {
		t.Errorf("a move on a stone outside the region: %v", err)
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
