package rating

import (
	"math"
	"testing"
)

func TestRankOf(t *testing.T) {
	tests := []struct {
		rating float64
		want   string
	}{
		{0, "30k"},
		{math.NaN(), "30k"},
		{525, "30k"},
		{1246, "10k"}, // 23.15·ln(1246/525) = 20.008
		{1500, "6k"},  // 24.30
		{1900, "1k"},  // 29.78
		{1919, "1d"},  // 30.007
		{2500, "7d"},  // 36.13
		{2700, "8d"},
		{2720, "9d"}, // 9d starts at 525·e^(38/23.15) = 2710.3
		{5000, "9d"},
	}
	for _, tt := range tests {
		if got := RankOf(tt.rating).String(); got != tt.want {
			t.Errorf("RankOf(%v) = %s, want %s", tt.rating, got, tt.want)
		}
	}
}

func TestRankRoundTrip(t *testing.T) {
	for k := Kyu30; k <= Dan9; k++ {
		if got := RankOf(k.Rating()); got != k {
			t.Errorf("RankOf(%v.Rating() = %v) = %v", k, k.Rating(), got)
		}
		if got, err := ParseRank(k.String()); err != nil || got != k {
			t.Errorf("ParseRank(%q) = %v, %v", k, got, err)
		}
		if NewAt(k).Rank() != k {
			t.Errorf("NewAt(%v).Rank() = %v", k, NewAt(k).Rank())
		}
		if k > Kyu30 && k.Rating() <= (k-1).Rating() {
			t.Errorf("ratings not increasing at %v", k)
		}
	}
	if Kyu(1) != Kyu1 || Dan(1) != Dan1 || Kyu(30) != Kyu30 || Dan(9) != Dan9 {
		t.Error("Kyu/Dan constructors")
	}
}

func TestParseRank(t *testing.T) {
	tests := []struct {
		in   string
		want Rank
		ok   bool
	}{
		{"5k", Kyu(5), true},
		{" 12 kyu ", Kyu(12), true},
		{"1D", Dan(1), true},
		{"9dan", Dan(9), true},
		{"30k", Kyu30, true},
		{"31k", 0, false},
		{"0k", 0, false},
		{"10d", 0, false},
		{"k", 0, false},
		{"5p", 0, false},
		{"", 0, false},
		{"123k", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseRank(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseRank(%q) = %v, %v", tt.in, got, err)
		}
	}
}

func TestRankString(t *testing.T) {
	if s := (Rating{1500, 350, 0.06}).RankString(); s != "6k?" {
		t.Errorf("new player %q, want 6k?", s)
	}
	if s := (Rating{1919, 60, 0.06}).RankString(); s != "1d" {
		t.Errorf("established player %q, want 1d", s)
	}
}

func FuzzParseRank(f *testing.F) {
	for _, s := range []string{"5k", "1d", "12 kyu", "9dan", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseRank(s)
		if err != nil {
			return
		}
		if k < Kyu30 || k > Dan9 {
			t.Fatalf("ParseRank(%q) = %d out of range", s, k)
		}
		if again, err := ParseRank(k.String()); err != nil || again != k {
			t.Fatalf("%q -> %v -> %v, %v", s, k, again, err)
		}
	})
}

// TestRankBoundaries checks every rank's lower boundary, the rating
// 525·e^(k/23.15) that docs/RULES.md tabulates: just below it is the rank
// before, just above it the rank itself.
func TestRankBoundaries(t *testing.T) {
	for k := Kyu30 + 1; k <= Dan9; k++ {
		edge := rankBase * math.Exp(float64(k)/rankSteps)
		if got := RankOf(edge - 0.01); got != k-1 {
			t.Errorf("RankOf(%.2f) = %v, want %v", edge-0.01, got, k-1)
		}
		if got := RankOf(edge + 0.01); got != k {
			t.Errorf("RankOf(%.2f) = %v, want %v", edge+0.01, got, k)
		}
	}
	// The table of docs/RULES.md: the first whole rating of each rank.
	for _, tt := range []struct {
		rank string
		from float64
	}{{"25k", 652}, {"20k", 809}, {"15k", 1004}, {"10k", 1246}, {"6k", 1481}, {"5k", 1546}, {"1k", 1838},
		{"1d", 1919}, {"3d", 2092}, {"5d", 2281}, {"7d", 2487}, {"9d", 2711}} {
		k, err := ParseRank(tt.rank)
		if err != nil {
			t.Fatal(err)
		}
		if edge := rankBase * math.Exp(float64(k)/rankSteps); math.Ceil(edge) != tt.from {
			t.Errorf("%s starts at %.1f, docs/RULES.md says %v", tt.rank, edge, tt.from)
		}
	}
}
