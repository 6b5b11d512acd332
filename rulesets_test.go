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
