package learn

import (
	"slices"
	"strconv"
	"testing"

	"tengen/goban"
)

// TestLessonSteps checks every step of every lesson with goban: the right
// answers are exactly the ones listed (for a play step every point of the
// board is tried), and a wrong answer is refused with the reason given.
func TestLessonSteps(t *testing.T) {
	type want struct {
		right       []string // the right points, the marks, or the count
		wrong       string   // a wrong point (play) or an extra mark (mark) or count
		wrongReason string
	}
	wants := map[string][]want{
		// H Dia. 3: four liberties in the centre, three on the edge, two in
		// the corner, six for the chain of two.
		"liberties": {
			{right: []string{"A5", "B4", "B6", "C5"}, wrong: "A1", wrongReason: "extra"},
			{right: []string{"C1", "D2", "E1"}, wrong: "D3", wrongReason: "extra"},
			{right: []string{"A2", "B1"}, wrong: "B2", wrongReason: "extra"},
			{right: []string{"D4", "E3", "E5", "F3", "F5", "G4"}, wrong: "B5", wrongReason: "extra"},
		},
		// H Dia. 4: E2, D4, A7 capture one, two and three stones.
		"capture": {
			{right: []string{"E2"}, wrong: "F2", wrongReason: "noCapture"},
			{right: []string{"D4"}, wrong: "A1", wrongReason: "noCapture"},
			{right: []string{"A7"}, wrong: "B9", wrongReason: "occupied"},
			{right: []string{"C2", "D3"}, wrong: "B2", wrongReason: "noAtari"},
		},
		"suicide": {
			{right: []string{"C3"}, wrong: "A1", wrongReason: "extra"},
			{right: []string{"D4"}, wrong: "E4", wrongReason: "extra"},
			{right: []string{"D5"}, wrong: "G5", wrongReason: "noCapture"},
		},
		// H Dia. 6 and 7: take the ko, White may not retake at once, but
		// after a ko threat and its answer.
		"ko": {
			{right: []string{"D4"}, wrong: "E3", wrongReason: "noCapture"},
			{right: []string{"C4"}, wrong: "D4", wrongReason: "extra"},
			{right: []string{"C4"}, wrong: "D5", wrongReason: "occupied"},
		},
		"eyes": {
			{right: []string{"A2", "C2"}, wrong: "F1", wrongReason: "extra"},
			{right: []string{"B1", "C1", "D1", "E1", "F1"}, wrong: "A1", wrongReason: "notAlive"},
			{right: []string{"A2"}, wrong: "D3", wrongReason: "noCapture"},
		},
		// H Dia. 9: C1 is false; White takes D1 and then the rest.
		"false-eyes": {
			{right: []string{"C1"}, wrong: "A1", wrongReason: "extra"},
			{right: []string{"C1"}, wrong: "A1", wrongReason: "suicide"},
			{right: []string{"A1"}, wrong: "E2", wrongReason: "noCapture"},
		},
		// H Dia. 10: the stones in seki; whoever fills a shared point first
		// is captured.
		"seki": {
			{right: []string{"A2", "B1", "B2", "C1", "C2", "D1", "D2", "E2", "F1", "F2"}, wrong: "A3", wrongReason: "extra"},
			{right: []string{"E1"}, wrong: "H1", wrongReason: "noCapture"},
			{right: []string{"A1"}, wrong: "H1", wrongReason: "noCapture"},
		},
		"ladder": {
			{right: []string{"E6"}, wrong: "D5", wrongReason: "escapes"},
			{right: []string{"E5"}, wrong: "E6", wrongReason: "escapes"},
		},
		// Schweidler's rule: territory and area give Black the same lead of
		// 7 when both played as many stones.
		"counting": {
			{right: []string{"A4", "G4"}, wrong: "D4", wrongReason: "extra"},
			{right: []string{"7"}, wrong: "21", wrongReason: "count"},
			{right: []string{"7"}, wrong: "28", wrongReason: "count"},
		},
		"handicap": {
			{right: []string{"C3", "C7", "G3", "G7"}, wrong: "E5", wrongReason: "extra"},
			{right: []string{"D4", "D10", "G7", "K4", "K10"}, wrong: "A1", wrongReason: "extra"},
			{right: []string{"0.5"}, wrong: "7", wrongReason: "count"},
		},
		"atari-go": {
			{right: []string{"D3"}, wrong: "D2", wrongReason: "noCapture"},
			{right: []string{"C2"}, wrong: "D2", wrongReason: "unsafe"},
		},
	}
	if len(lessons) < 11 {
		t.Errorf("%d lessons, want at least 11", len(lessons))
	}
	for _, l := range lessons {
		ws, ok := wants[l.ID]
		if !ok || len(ws) != len(l.Steps) {
			t.Errorf("%s: %d steps, the test expects %d", l.ID, len(l.Steps), len(ws))
			continue
		}
		for i, s := range l.Steps {
			w := ws[i]
			name := l.ID + " " + strconv.Itoa(i+1)
			t.Run(name, func(t *testing.T) {
				checkStep(t, &s, w.right, w.wrong, w.wrongReason)
			})
		}
	}
}

func checkStep(t *testing.T, s *Step, right []string, wrong, wrongReason string) {
	t.Helper()
	w, h := s.Size()
	check := func(a Answer) Verdict {
		t.Helper()
		v, err := s.Check(a)
		if err != nil {
			t.Fatalf("check %+v: %v", a, err)
		}
		return v
	}
	switch s.Kind {
	case PlayKind:
		var got []string
		for y := range h {
			for x := range w {
				v := goban.FormatVertex(goban.Point{X: x, Y: y}, h)
				if check(Answer{Point: v}).Right {
					got = append(got, v)
				}
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, right) {
			t.Errorf("right moves %v, want %v", got, right)
		}
		if v := check(Answer{Point: wrong}); v.Right || v.Reason != wrongReason {
			t.Errorf("%s: %+v, want refused as %s", wrong, v, wrongReason)
		}
	case MarkKind:
		if v := check(Answer{Points: right}); !v.Right {
			t.Errorf("%v refused: %+v", right, v)
		}
		if v := check(Answer{Points: append(slices.Clone(right), wrong)}); v.Right || v.Reason != wrongReason {
			t.Errorf("%v+%s: %+v, want refused as %s", right, wrong, v, wrongReason)
		}
		if v := check(Answer{Points: right[1:]}); v.Right || v.Reason != "missing" {
			t.Errorf("%v: %+v, want refused as missing", right[1:], v)
		}
	case CountKind:
		n, _ := strconv.ParseFloat(right[0], 64)
		if v := check(Answer{Count: &n}); !v.Right {
			t.Errorf("%v refused: %+v", n, v)
		}
		m, _ := strconv.ParseFloat(wrong, 64)
		if v := check(Answer{Count: &m}); v.Right || v.Reason != wrongReason {
			t.Errorf("%v: %+v, want refused as %s", m, v, wrongReason)
		}
	default:
		t.Fatalf("kind %q", s.Kind)
	}
}

// TestSchweidler checks the point of the counting lesson: both sides played
// the same number of stones, and territory and area counting agree.
func TestSchweidler(t *testing.T) {
	l, _ := Find("counting")
	terr, area := l.Steps[1], l.Steps[2]
	g, err := terr.Game()
	if err != nil {
		t.Fatal(err)
	}
	b := g.Board()
	if nb, nw := b.Stones(goban.Black), b.Stones(goban.White); nb != nw {
		t.Errorf("Black %d stones, White %d: Schweidler's rule needs the same number", nb, nw)
	}
	ga, _ := area.Game()
	mt, err := terr.margin(g)
	if err != nil {
		t.Fatal(err)
	}
	ma, err := area.margin(ga)
	if err != nil {
		t.Fatal(err)
	}
	if mt != ma {
		t.Errorf("territory margin %v, area margin %v", mt, ma)
	}
}

// TestCaptureGoesFirst: the point of the suicide lesson's last step has no
// liberty before the move, yet the move is legal because it captures.
func TestCaptureGoesFirst(t *testing.T) {
	l, _ := Find("suicide")
	s := l.Steps[2]
	g, err := s.Game()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.point("D5")
	for _, n := range neighbours(g.Board(), p) {
		if g.Board().At(n) == goban.Empty {
			t.Errorf("D5 has the liberty %v", n)
		}
	}
}

func TestFind(t *testing.T) {
	if _, ok := Find("ko"); !ok {
		t.Error("no ko lesson")
	}
	if _, ok := Find("nope"); ok {
		t.Error("found a lesson that does not exist")
	}
}

// FuzzCheck feeds arbitrary answers to every step: Check may refuse them
// but never fails or panics, and a refusal always names its reason.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"A1", "E2", "", "Z99", "pass", " d4 ", "J1", "I5"} {
		f.Add(s, 1.5)
	}
	f.Fuzz(func(t *testing.T, point string, count float64) {
		for _, l := range lessons {
			for i := range l.Steps {
				s := &l.Steps[i]
				if s.Goal == Net || s.Goal == Ladder {
					continue // reading is slow; the unit test tries every point
				}
				a := Answer{Point: point, Points: []string{point}, Count: &count}
				v, err := s.Check(a)
				if err != nil {
					t.Fatalf("%s %d: %q: %v", l.ID, i+1, point, err)
				}
				if !v.Right && v.Reason == "" {
					t.Fatalf("%s %d: %q refused without a reason", l.ID, i+1, point)
				}
			}
		}
	})
}
