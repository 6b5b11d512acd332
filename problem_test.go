package tengen_test

import (
	"math"
	"testing"

	"tengen"
)

func TestProblemRating(t *testing.T) {
	tests := []struct {
		name       string
		rating     float64
		kyu        int
		solved     bool
		wantChange float64 // rounded to a tenth
	}{
		{"solving an equal problem", 1000, 20, true, 16},
		{"failing an equal problem", 1000, 20, false, -16},
		{"solving a much easier problem gains little", 1500, 30, true, 0.1},
		{"failing a much easier problem costs much", 1500, 30, false, -31.9},
		{"solving a much harder problem gains much", 500, 10, true, 31.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tengen.ProblemRatingUpdate(tt.rating, tengen.ProblemDifficulty(tt.kyu), tt.solved) - tt.rating
			if math.Round(got*10)/10 != tt.wantChange {
				t.Errorf("change %.2f, want %.1f", got, tt.wantChange)
			}
		})
	}
	if d := tengen.ProblemDifficulty(20); d != tengen.InitialProblemRating {
		t.Errorf("a 20 kyu problem is %v, the initial rating %v", d, tengen.InitialProblemRating)
	}
}
