package rating

import (
	"encoding/json"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// glickmanExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500 player with deviation 200 and volatility 0.06
// beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300),
// with τ = 0.5.
var (
	glickmanPlayer  = Rating{1500, 200, 0.06}
	glickmanResults = []Result{
		{Rating{1400, 30, 0.06}, Win},
		{Rating{1550, 100, 0.06}, Loss},
		{Rating{1700, 300, 0.06}, Loss},
	}
)

func TestGlickmanExample(t *testing.T) {
	got, err := System{Tau: 0.5}.Update(glickmanPlayer, glickmanResults)
	if err != nil {
		t.Fatal(err)
	}
	// The paper's results as printed there. The paper rounds its
	// intermediate values (v, Δ) to four places, which moves its printed
	// rating by about 0.01 from the exact computation (1464.0507), hence
	// the tolerances.
	if !near(got.Rating, 1464.06, 0.02) || !near(got.Deviation, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("Update = %+v, want rating 1464.06, deviation 151.52, volatility 0.05999", got)
	}
}

func TestGlickmanIntermediates(t *testing.T) {
	mu := (glickmanPlayer.Rating - DefaultRating) / Scale
	tests := []struct{ g, e float64 }{{0.9955, 0.639}, {0.9531, 0.432}, {0.7242, 0.303}}
	var vInv, sum float64
	for i, tt := range tests {
		o := glickmanResults[i].Opponent
		gj := g(o.Deviation / Scale)
		e := expected(mu, (o.Rating-DefaultRating)/Scale, o.Deviation/Scale)
		if !near(gj, tt.g, 0.00005) || !near(e, tt.e, 0.0005) {
			t.Errorf("opponent %d: g = %.4f, E = %.3f; want %.4f, %.3f", i, gj, e, tt.g, tt.e)
		}
		if !near(Expected(glickmanPlayer, o), e, 1e-12) {
			t.Errorf("Expected disagrees with E for opponent %d", i)
		}
		vInv += gj * gj * e * (1 - e)
		sum += gj * (glickmanResults[i].Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// The paper computes v and Δ from g and E rounded as printed; exactly
	// they are 1.7790 and -0.4839.
	if !near(v, 1.7785, 0.001) || !near(delta, -0.4834, 0.001) {
		t.Errorf("v = %.4f, Δ = %.4f; want 1.7785, -0.4834", v, delta)
	}
	sigma, err := newVolatility(0.06, 200/Scale, v, delta, 0.5)
	if err != nil || !near(sigma, 0.05999, 0.00001) {
		t.Errorf("σ' = %v, %v; want 0.05999", sigma, err)
	}
}

func TestNoGamesWidensDeviation(t *testing.T) {
	got, err := System{}.Update(glickmanPlayer, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(200*200/(Scale*Scale)+0.06*0.06) * Scale
	if got.Rating != 1500 || got.Volatility != 0.06 || !near(got.Deviation, want, 1e-9) || got.Deviation <= 200 {
		t.Errorf("Update without games = %+v, want deviation %v", got, want)
	}
}

func TestUpdateGame(t *testing.T) {
	a, b := New(), Rating{1600, 80, 0.06}
	tests := []struct {
		name       string
		score      float64
		handicap   int
		rated      bool
		blackMoves int // sign of Black's rating change
		whiteMoves int
	}{
		{"black wins", Win, 0, true, +1, -1},
		{"black loses", Loss, 0, true, -1, +1},
		{"jigo against a stronger player", Jigo, 0, true, +1, -1},
		{"handicap game unrated", Win, 2, false, 0, 0},
		{"nine stones unrated", Loss, 9, false, 0, 0},
	}
	for _, tt := range tests {
		nb, nw, rated, err := System{}.UpdateGame(a, b, tt.score, tt.handicap)
		if err != nil || rated != tt.rated {
			t.Errorf("%s: rated %v, %v", tt.name, rated, err)
			continue
		}
		sign := func(x float64) int {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			}
			return 0
		}
		if sign(nb.Rating-a.Rating) != tt.blackMoves || sign(nw.Rating-b.Rating) != tt.whiteMoves {
			t.Errorf("%s: black %v→%v, white %v→%v", tt.name, a.Rating, nb.Rating, b.Rating, nw.Rating)
		}
		if rated && (nb.Deviation >= a.Deviation || nw.Deviation >= b.Deviation) {
			t.Errorf("%s: a rated game did not reduce the deviations: %+v %+v", tt.name, nb, nw)
		}
		if !rated && (nb != a || nw != b) {
			t.Errorf("%s: an unrated game changed the ratings", tt.name)
		}
	}
	// Jigo between equals changes no rating.
	nb, nw, _, _ := System{}.UpdateGame(New(), New(), Jigo, 0)
	if !near(nb.Rating, 1500, 1e-9) || !near(nw.Rating, 1500, 1e-9) {
		t.Errorf("jigo between equals: %v %v", nb.Rating, nw.Rating)
	}
}

func TestInvalidInputs(t *testing.T) {
	bad := []struct {
		r   Rating
		res []Result
	}{
		{Rating{math.NaN(), 200, 0.06}, nil},
		{Rating{1500, 0, 0.06}, nil},
		{Rating{1500, 200, 0}, nil},
		{Rating{1500, math.Inf(1), 0.06}, nil},
		{New(), []Result{{Rating{1500, -1, 0.06}, Win}}},
		{New(), []Result{{New(), 2}}},
		{New(), []Result{{New(), math.NaN()}}},
	}
	for _, tt := range bad {
		if got, err := (System{}).Update(tt.r, tt.res); err == nil {
			t.Errorf("Update(%+v, %+v) = %+v, want an error", tt.r, tt.res, got)
		}
	}
}

// TestManyGamesConverge rates a long series of games against a fixed
// 1900 opponent won 3 times in 4: the rating must settle near the strength
// that predicts that score, and the deviation must shrink.
func TestManyGamesConverge(t *testing.T) {
	r, opp := New(), Rating{1900, 50, 0.06}
	for i := range 400 {
		score := Win
		if i%4 == 3 {
			score = Loss
		}
		var err error
		if r, err = (System{}).Update(r, []Result{{opp, score}}); err != nil {
			t.Fatal(err)
		}
	}
	if e := Expected(r, opp); !near(e, 0.75, 0.1) {
		t.Errorf("after 400 games rating %+v expects %.2f against the opponent, want about 0.75", r, e)
	}
	if r.Deviation > 100 {
		t.Errorf("deviation still %v", r.Deviation)
	}
}

func TestRatingJSON(t *testing.T) {
	b, err := json.Marshal(Rating{1464.5, 151.25, 0.06})
	want := `{"rating":1464.5,"deviation":151.25,"volatility":0.06}`
	if err != nil || string(b) != want {
		t.Errorf("Marshal = %s, %v; want %s", b, err, want)
	}
}
