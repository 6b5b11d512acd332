package goban

import (
	"slices"
	"testing"
)

// TestOfferedRulesetNames checks that the lobby's order names every ruleset
// once and nothing else.
func TestOfferedRulesetNames(t *testing.T) {
	got := slices.Sorted(slices.Values(OfferedRulesetNames()))
	if want := RulesetNames(); !slices.Equal(got, want) {
		t.Errorf("OfferedRulesetNames sorted = %v, RulesetNames = %v", got, want)
	}
}
