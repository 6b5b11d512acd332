package tengen_test

import (
	"testing"

	"tengen"
)

func TestRankValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"30k", 0, true}, {"1k", 29, true}, {"1d", 30, true}, {"9d", 38, true},
		{"12k?", 18, true}, {"25 kyu", 5, true}, {"3 dan", 32, true}, {"3D", 32, true},
		{"?", 0, false}, {"", 0, false}, {"0k", 0, false}, {"31k", 0, false}, {"10d", 0, false},
		{"k", 0, false}, {"5p", 0, false}, {"-3k", 0, false},
	} {
		got, ok := tengen.RankValue(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RankValue(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestRankHandicap: one stone per rank of difference (the rules intro's
// table), up to 9, up to 13 under pfaundler on 19×19, never more than
// fits on the board as fixed stones.
func TestRankHandicap(t *testing.T) {
	for _, tt := range []struct {
		diff    int
		ruleset string
		size    int
		free    bool
		want    int
	}{
		{0, "japanese", 19, false, 0},
		{1, "japanese", 19, false, 1},
		{-1, "japanese", 19, false, 1},
		{5, "japanese", 19, false, 5},
		{9, "japanese", 19, false, 9},
		{15, "japanese", 19, false, 9},
		{12, "pfaundler", 19, false, 12},
		{20, "pfaundler", 19, false, 13},
		{20, "pfaundler", 13, false, 9},
		{7, "japanese", 7, false, 4},
		{3, "japanese", 5, false, 1},
		{15, "chinese", 19, true, 9},
	} {
		set := tengen.GameSettings{BoardSize: tt.size, Ruleset: tt.ruleset, FreeHandicap: tt.free}
		if got := tengen.RankHandicap(tt.diff, set); got != tt.want {
			t.Errorf("RankHandicap(%d, %s %d×%d free=%v) = %d, want %d", tt.diff, tt.ruleset, tt.size, tt.size, tt.free, got, tt.want)
		}
	}
}

// TestForRanks: the weaker player takes Black in a handicap game, even
// ranks keep the colour choice, komi goes back to the default and the
// settings validate.
func TestForRanks(t *testing.T) {
	komi := 6.5
	base := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Komi: &komi, Color: tengen.ChooseNigiri}
	for _, tt := range []struct {
		challenger, opponent string
		keepRated            bool
		handicap             int
		color                tengen.ColorChoice
		rated                bool
	}{
		{"12k", "12k?", false, 0, tengen.ChooseNigiri, true},
		{"12k", "11k", false, 1, tengen.ChooseBlack, false},
		{"3d", "2k", false, 4, tengen.ChooseWhite, false},
		{"25k", "3d", false, 9, tengen.ChooseBlack, false},
		{"12k", "6k", true, 6, tengen.ChooseBlack, true},
	} {
		in := base
		in.Rated = true
		got, ok := in.ForRanks(tt.challenger, tt.opponent, tt.keepRated)
		if !ok || got.Handicap != tt.handicap || got.Color != tt.color || got.Rated != tt.rated || got.Komi != nil ||
			got.HandicapBy != tengen.HandicapByRank {
			t.Errorf("%s vs %s: %+v, %v", tt.challenger, tt.opponent, got, ok)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s vs %s: %v", tt.challenger, tt.opponent, err)
		}
	}
	if _, ok := base.ForRanks("?", "3k", false); ok {
		t.Error("an unreadable rank gave a handicap")
	}
	bad := base
	bad.HandicapBy = "coin"
	if tengen.ErrorCode(bad.Validate()) != tengen.EINVALID {
		t.Error("HandicapBy coin validated")
	}
}

// TestChallengeGameSettings: an open challenge with the handicap from
// rank is settled by the acceptor's rank (rated only if even, unless
// unrated); a direct or ordinary challenge keeps its settings.
func TestChallengeGameSettings(t *testing.T) {
	auto := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseNigiri, HandicapBy: tengen.HandicapByRank, Rated: true}
	open := &tengen.Challenge{ChallengerID: 1, Settings: auto}
	if !open.RankHandicapPending() {
		t.Fatal("an open challenge by rank is not pending")
	}
	for _, tt := range []struct {
		acceptor string
		rated    bool
		handicap int
		color    tengen.ColorChoice
		want     bool
	}{
		{"12k", true, 6, tengen.ChooseWhite, false},
		{"6k", true, 0, tengen.ChooseNigiri, true},
		{"6k", false, 0, tengen.ChooseNigiri, false},
		{"5k", true, 1, tengen.ChooseBlack, false},
	} {
		c := *open
		c.Settings.Rated = tt.rated
		got, err := c.GameSettings("6k", tt.acceptor)
		if err != nil || got.Handicap != tt.handicap || got.Color != tt.color || got.Rated != tt.want {
			t.Errorf("6k vs %s (rated %v): %+v, %v", tt.acceptor, tt.rated, got, err)
		}
	}
	if _, err := open.GameSettings("6k", "?"); tengen.ErrorCode(err) != tengen.EINVALID {
		t.Errorf("unreadable rank: %v", err)
	}
	direct := &tengen.Challenge{ChallengerID: 1, OpponentID: 2, Settings: auto}
	direct.Settings.Handicap = 4
	if got, err := direct.GameSettings("6k", "12k"); direct.RankHandicapPending() || err != nil || !tengen.SameGameSettings(got, direct.Settings) {
		t.Errorf("direct challenge: %+v, %v", got, err)
	}
	k1, k2 := 6.5, 6.5
	a, b := auto, auto
	a.Komi, b.Komi = &k1, &k2
	if !tengen.SameGameSettings(a, b) {
		t.Error("equal komi behind two pointers differ")
	}
	k2 = 7.5
	if tengen.SameGameSettings(a, b) || tengen.SameGameSettings(a, auto) {
		t.Error("different komi are the same")
	}
}
