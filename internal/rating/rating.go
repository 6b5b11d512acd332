// Package rating computes players' strength with the Glicko-2 system
// (Mark Glickman, "Example of the Glicko-2 system", 2013) and maps ratings
// to Go ranks (30 kyu to 9 dan).
//
// It is a pure package: standard library only. Games with handicap are not
// rated (the online server's rule, seed 003: "Alle Spiele mit Handicap
// werden nicht gewertet"); see Rated and UpdateGame.
package rating

import (
	"errors"
	"fmt"
	"math"
)

// Glicko-2 constants.
const (
	// Scale converts between the Glicko scale (ratings around 1500) and the
	// Glicko-2 scale: μ = (r − 1500) / Scale, φ = RD / Scale.
	Scale = 173.7178
	// DefaultRating, DefaultDeviation and DefaultVolatility describe an
	// unknown new player, as Glickman recommends.
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	// DefaultTau is the system constant τ, which limits how fast the
	// volatility changes; Glickman suggests 0.3 to 1.2.
	DefaultTau = 0.5
	// convergence is the tolerance ε of the volatility iteration.
	convergence = 1e-6
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	// Rating is the estimated strength, 1500 for an average new player.
	Rating float64 `json:"rating"`
	// Deviation (RD) is the uncertainty of Rating; about 95% of the time
	// the true strength lies within two deviations.
	Deviation float64 `json:"deviation"`
	// Volatility (σ) is how erratic the player's results are.
	Volatility float64 `json:"volatility"`
}

// New returns the rating of a new player.
func New() Rating {
	return Rating{DefaultRating, DefaultDeviation, DefaultVolatility}
}

// NewAt returns the rating of a new player who declares rank k: the middle
// of the rank's rating range, with the default (large) deviation.
func NewAt(k Rank) Rating {
	r := New()
	r.Rating = k.Rating()
	return r
}

// Validate reports whether r can be used in an update: finite values, a
// positive deviation and volatility.
func (r Rating) Validate() error {
	for _, v := range []float64{r.Rating, r.Deviation, r.Volatility} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("rating: %v is not a number", r)
		}
	}
	if r.Deviation <= 0 || r.Volatility <= 0 {
		return fmt.Errorf("rating: %+v needs a positive deviation and volatility", r)
	}
	return nil
}

// Scores of a game for the player whose rating is updated.
const (
	Loss = 0.0
	Jigo = 0.5 // a draw
	Win  = 1.0
)

// Result is one game of a rating period from the player's point of view.
type Result struct {
	Opponent Rating
	// Score is Win, Loss or Jigo.
	Score float64
}

// System holds the Glicko-2 system constant. The zero System uses
// DefaultTau.
type System struct {
	// Tau is τ; zero means DefaultTau.
	Tau float64
}

func (s System) tau() float64 {
	if s.Tau <= 0 {
		return DefaultTau
	}
	return s.Tau
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muJ, phiJ float64) float64 { return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ))) }

// Expected returns the expected score of a against b: the probability that
// a wins, counting a jigo as half a win.
func Expected(a, b Rating) float64 {
	return expected((a.Rating-DefaultRating)/Scale, (b.Rating-DefaultRating)/Scale, b.Deviation/Scale)
}

// ErrNoConvergence is returned if the volatility iteration does not
// converge, which does not happen for valid inputs.
var ErrNoConvergence = errors.New("rating: volatility iteration did not converge")

// Update returns r after a rating period in which the player had results
// (Glickman's steps 2 to 8). With no results only the deviation grows,
// as it does for a player who does not play.
func (s System) Update(r Rating, results []Result) (Rating, error) {
	if err := r.Validate(); err != nil {
		return r, err
	}
	mu := (r.Rating - DefaultRating) / Scale
	phi := r.Deviation / Scale
	sigma := r.Volatility
	if len(results) == 0 {
		r.Deviation = math.Sqrt(phi*phi+sigma*sigma) * Scale
		return r, nil
	}
	// Step 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		if err := res.Opponent.Validate(); err != nil {
			return r, err
		}
		if res.Score < 0 || res.Score > 1 || math.IsNaN(res.Score) {
			return r, fmt.Errorf("rating: score %v is not in [0, 1]", res.Score)
		}
		muJ := (res.Opponent.Rating - DefaultRating) / Scale
		phiJ := res.Opponent.Deviation / Scale
		gj := g(phiJ)
		e := expected(mu, muJ, phiJ)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility.
	sigma2, err := newVolatility(sigma, phi, v, delta, s.tau())
	if err != nil {
		return r, err
	}
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	return Rating{Rating: mu2*Scale + DefaultRating, Deviation: phi2 * Scale, Volatility: sigma2}, nil
}

// newVolatility is step 5: it finds the root of f with the Illinois
// variant of regula falsi, as in Glickman's paper.
func newVolatility(sigma, phi, v, delta, tau float64) (float64, error) {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
			if k > 1000 {
				return 0, ErrNoConvergence
			}
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence; i++ {
		if i > 1000 {
			return 0, ErrNoConvergence
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2), nil
}

// Rated reports whether a game with the given handicap counts for the
// ratings: only even games do (seed 003: "Alle Spiele mit Handicap werden
// nicht gewertet").
func Rated(handicap int) bool { return handicap == 0 }

// UpdateGame rates one game between black and white as a rating period of
// its own for each player, blackScore being Win, Loss or Jigo for Black.
// A game with handicap is not rated: both ratings come back unchanged and
// rated is false.
func (s System) UpdateGame(black, white Rating, blackScore float64, handicap int) (newBlack, newWhite Rating, rated bool, err error) {
	if !Rated(handicap) {
		return black, white, false, nil
	}
	newBlack, err = s.Update(black, []Result{{Opponent: white, Score: blackScore}})
	if err != nil {
		return black, white, false, err
	}
	newWhite, err = s.Update(white, []Result{{Opponent: black, Score: 1 - blackScore}})
	if err != nil {
		return black, white, false, err
	}
	return newBlack, newWhite, true, nil
}
