package rating

import "testing"

func TestBlackScore(t *testing.T) {
	for _, tt := range []struct {
		result string
		score  float64
		ok     bool
	}{
		{"B+R", Win, true}, {"B+3.5", Win, true}, {"W+T", Loss, true}, {"W+F", Loss, true},
		{"0", Jigo, true}, {"Draw", Jigo, true}, {"Void", 0, false}, {"?", 0, false}, {"", 0, false},
	} {
		if score, ok := BlackScore(tt.result); score != tt.score || ok != tt.ok {
			t.Errorf("BlackScore(%q) = %v, %v; want %v, %v", tt.result, score, ok, tt.score, tt.ok)
		}
	}
}

func TestLabelAndStarting(t *testing.T) {
	r, err := Starting("12k")
	if err != nil || r.Rank() != Kyu(12) {
		t.Fatalf("Starting(12k) = %+v, %v", r, err)
	}
	if got := Label(false, false, r.Rating, r.Deviation); got != "12k?" {
		t.Errorf("Label of a new 12k = %q, want 12k?", got)
	}
	if got := Label(true, true, r.Rating, 60); got != "12k" {
		t.Errorf("Label of an anchored bot = %q, want 12k", got)
	}
	if got := Label(true, false, r.Rating, 60); got != "" {
		t.Errorf("Label of a bot without anchor = %q, want empty", got)
	}
	if _, err := Starting("40k"); err == nil {
		t.Errorf("Starting(40k) accepted")
	}
	if d, err := Starting(""); err != nil || d != New() {
		t.Errorf("Starting(\"\") = %+v, %v", d, err)
	}
}
