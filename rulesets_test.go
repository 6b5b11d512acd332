package tengen_test

import (
	"testing"

	"tengen"
	"tengen/goban"
)

// TestFirstToMoveMatchesGoban checks GameSettings.FirstToMove against the
// turn goban gives after the handicap stones, for every ruleset.
func TestFirstToMoveMatchesGoban(t *testing.T) {
	for _, name := range tengen.Rulesets() {
		for _, handicap := range []int{0, 1, 2, 4} {
			r := goban.MustRuleset(name)
			g := goban.MustNewGame(19, 19, r)
			if err := g.SetHandicap(handicap, false); err != nil {
				t.Fatalf("%s, %d stones: %v", name, handicap, err)
			}
			want := g.ToMove()
			s := tengen.GameSettings{BoardSize: 19, Ruleset: name, Handicap: handicap}
			if got := s.FirstToMove(); got != want {
				t.Errorf("%s, %d stones: FirstToMove = %s, goban says %s", name, handicap, got, want)
			}
		}
	}
}
