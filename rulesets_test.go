package tengen_test

import (
	"slices"
	"testing"

	"tengen"
	"tengen/goban"
)

// TestRulesetsMatchGoban keeps the root package's list of ruleset names in
// step with the rulesets goban can play.
func TestRulesetsMatchGoban(t *testing.T) {
	got := slices.Sorted(slices.Values(tengen.Rulesets))
	want := goban.RulesetNames()
	if !slices.Equal(got, want) {
		t.Errorf("tengen.Rulesets = %v, goban.RulesetNames() = %v", got, want)
	}
}

// TestFirstToMoveMatchesGoban checks GameSettings.FirstToMove against the
// turn goban gives after the handicap stones, for every ruleset.
func TestFirstToMoveMatchesGoban(t *testing.T) {
	for _, name := range tengen.Rulesets {
		for _, handicap := range []int{0, 1, 2, 4} {
			r := goban.MustRuleset(name)
			g := goban.MustNewGame(19, 19, r)
			if err := g.SetHandicap(handicap, false); err != nil {
				t.Fatalf("%s, %d stones: %v", name, handicap, err)
			}
			want := tengen.Black
			if g.ToMove() == goban.White {
				want = tengen.White
			}
			s := tengen.GameSettings{BoardSize: 19, Ruleset: name, Handicap: handicap}
			if got := s.FirstToMove(); got != want {
				t.Errorf("%s, %d stones: FirstToMove = %s, goban says %s", name, handicap, got, want)
			}
		}
	}
}
