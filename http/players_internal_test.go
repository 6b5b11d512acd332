package http

import (
	"strings"
	"testing"
	"time"

	"tengen"
)

// TestRatingGraph checks the layout of the profile's rating graph: one
// point more than changes (the rating before the first), higher ratings
// higher up, rank labels in order from the top, dates without repeats, and
// no graph without history.
func TestRatingGraph(t *testing.T) {
	summary := func(first, last *tengen.RatingChange) string { return "summary" }
	if g := newRatingGraph(nil, summary); g != nil {
		t.Errorf("graph without history: %+v", g)
	}
	day := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		changes []*tengen.RatingChange // oldest first
		dates   []string
	}{
		{"one game", []*tengen.RatingChange{{GameID: 1, Rating: 1550, RatingBefore: 1500, Rank: "5k?", CreatedAt: day}}, []string{"2026-11-01"}},
		{"three games in a minute", []*tengen.RatingChange{
			{GameID: 1, Rating: 1550, RatingBefore: 1500, CreatedAt: day},
			{GameID: 2, Rating: 1500, RatingBefore: 1550, CreatedAt: day.Add(time.Second)},
			{GameID: 3, Rating: 1600, RatingBefore: 1500, CreatedAt: day.Add(2 * time.Second)},
		}, []string{"2026-11-01"}},
		{"a month", []*tengen.RatingChange{
			{GameID: 1, Rating: 1100, RatingBefore: 1000, CreatedAt: day},
			{GameID: 2, Rating: 1400, RatingBefore: 1100, CreatedAt: day.Add(10 * 24 * time.Hour)},
			{GameID: 3, Rating: 2000, RatingBefore: 1400, CreatedAt: day.Add(30 * 24 * time.Hour)},
		}, []string{"2026-11-01", "2026-11-16", "2026-12-01"}},
	}
	for _, tt := range tests {
		h := make([]*tengen.RatingChange, len(tt.changes))
		for i, c := range tt.changes {
			h[len(h)-1-i] = c // most recent first, as FindRatingHistory
		}
		g := newRatingGraph(h, summary)
		pts := strings.Fields(g.Line)
		if len(pts) != len(h)+1 {
			t.Errorf("%s: %d points, want %d", tt.name, len(pts), len(h)+1)
		}
		if len(g.Dots) != len(h) {
			t.Errorf("%s: %d dots", tt.name, len(g.Dots))
		}
		for i := 1; i < len(g.Dots); i++ {
			a, b := g.Dots[i-1], g.Dots[i]
			if b.X <= a.X {
				t.Errorf("%s: dot %d at x %v left of the one before (%v)", tt.name, i, b.X, a.X)
			}
			if ra, rb := tt.changes[i-1].Rating, tt.changes[i].Rating; (rb > ra) != (b.Y < a.Y) {
				t.Errorf("%s: dot %d (rating %v) at y %v, the one before (rating %v) at y %v", tt.name, i, rb, b.Y, ra, a.Y)
			}
		}
		for _, d := range g.Dots {
			if d.X < g.Left || d.X > g.Right || d.Y < g.Top || d.Y > g.Bottom {
				t.Errorf("%s: dot %+v outside the plot", tt.name, d)
			}
		}
		if len(g.Ranks) == 0 {
			t.Errorf("%s: no rank labels", tt.name)
		}
		for i := 1; i < len(g.Ranks); i++ {
			if g.Ranks[i].At >= g.Ranks[i-1].At {
				t.Errorf("%s: rank %s not above %s", tt.name, g.Ranks[i].Label, g.Ranks[i-1].Label)
			}
		}
		var dates []string
		for _, d := range g.Dates {
			dates = append(dates, d.Label)
		}
		if strings.Join(dates, " ") != strings.Join(tt.dates, " ") {
			t.Errorf("%s: dates %v, want %v", tt.name, dates, tt.dates)
		}
	}
	// A month from 1000 to 2000: from about 16k to 1d, every second or
	// third rank labelled, no more than 8 labels.
	h := []*tengen.RatingChange{{Rating: 2000, RatingBefore: 1000, CreatedAt: day}}
	if g := newRatingGraph(h, summary); len(g.Ranks) > 8 || len(g.Ranks) < 4 {
		t.Errorf("1000 to 2000: %d rank labels %+v", len(g.Ranks), g.Ranks)
	}
}
