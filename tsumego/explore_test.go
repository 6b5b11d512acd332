package tsumego

import (
	"fmt"
	"os"
	"testing"

	"tengen/goban"
)

func TestExplore(t *testing.T) {
	d := os.Getenv("DIAG")
	if d == "" {
		t.Skip()
	}
	b, region := parse(t, d)
	var tx, ty int
	var tm goban.Color = goban.Black
	if os.Getenv("TOMOVE") == "W" {
		tm = goban.White
	}
	fmtSscan(os.Getenv("TARGET"), &tx, &ty)
	s, err := New(Position{Board: b, Region: region, Target: goban.Point{X: tx, Y: ty}, ToMove: tm}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("whole: %v for %v (nodes %d)", s.Evaluate(tm), tm, s.Nodes)
	for _, m := range s.Moves() {
		if err := s.PlayMove(m); err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %v", m, s.Evaluate(tm))
		s.Undo()
	}
	t.Logf("nodes %d", s.Nodes)
}

func fmtSscan(s string, x, y *int) { fmt.Sscan(s, x, y) }
