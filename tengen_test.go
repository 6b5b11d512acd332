package tengen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

func TestErrorHelpers(t *testing.T) {
	tests := []struct {
		err     error
		code    string
		message string
	}{
		{nil, "", ""},
		{tengen.Errorf(tengen.ENOTFOUND, "User %q not found.", "bob"), tengen.ENOTFOUND, `User "bob" not found.`},
		{fmt.Errorf("wrapped: %w", tengen.Errorf(tengen.ECONFLICT, "taken")), tengen.ECONFLICT, "taken"},
		{errors.New("disk on fire"), tengen.EINTERNAL, "Internal error."},
	}
	for _, tt := range tests {
		if got := tengen.ErrorCode(tt.err); got != tt.code {
			t.Errorf("ErrorCode(%v) = %q, want %q", tt.err, got, tt.code)
		}
		if got := tengen.ErrorMessage(tt.err); got != tt.message {
			t.Errorf("ErrorMessage(%v) = %q, want %q", tt.err, got, tt.message)
		}
	}
}

func TestValidateUserName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"bob", true},
		{"Honinbo_Shusaku-2", true},
		{"ab", false},
		{strings.Repeat("a", 20), true},
		{strings.Repeat("a", 21), false},
		{"1abc", false},
		{"_abc", false},
		{"ab cd", false},
		{"jörg", false},
		{"a/b", false},
		{"", false},
	}
	for _, tt := range tests {
		err := tengen.ValidateUserName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateUserName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
		if err != nil && tengen.ErrorCode(err) != tengen.EINVALID {
			t.Errorf("ValidateUserName(%q) code = %q", tt.name, tengen.ErrorCode(err))
		}
	}
}

func TestValidatePassword(t *testing.T) {
	tests := []struct {
		pw string
		ok bool
	}{
		{"1234567", false},
		{"12345678", true},
		{"äöüäöüäö", true}, // 8 runes, 16 bytes
		{strings.Repeat("x", 72), true},
		{strings.Repeat("x", 73), false},
		{strings.Repeat("ä", 37), false}, // 74 bytes
	}
	for _, tt := range tests {
		if err := tengen.ValidatePassword(tt.pw); (err == nil) != tt.ok {
			t.Errorf("ValidatePassword(%q) = %v, want ok=%v", tt.pw, err, tt.ok)
		}
	}
}

func TestTimeControlValidate(t *testing.T) {
	const s, m, h = time.Second, time.Minute, time.Hour
	tests := []struct {
		name string
		tc   clock.TimeControl
		ok   bool
	}{
		{"none", clock.TimeControl{Kind: clock.None}, true},
		{"none with main time", clock.TimeControl{Kind: clock.None, MainTime: m}, false},
		{"zero value is none", clock.TimeControl{}, true},
		{"unknown kind", clock.TimeControl{Kind: clock.Kind(99), MainTime: m}, false},
		{"absolute", clock.TimeControl{Kind: clock.Absolute, MainTime: 30 * m}, true},
		{"absolute too short", clock.TimeControl{Kind: clock.Absolute, MainTime: 9 * s}, false},
		{"absolute too long", clock.TimeControl{Kind: clock.Absolute, MainTime: 25 * h}, false},
		{"absolute with periods", clock.TimeControl{Kind: clock.Absolute, MainTime: m, Periods: 3}, false},
		{"byoyomi", clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * m, Periods: 5, PeriodTime: 30 * s}, true},
		{"byoyomi without main time", clock.TimeControl{Kind: clock.ByoYomi, Periods: 3, PeriodTime: 30 * s}, true},
		{"byoyomi no periods", clock.TimeControl{Kind: clock.ByoYomi, MainTime: m, PeriodTime: 30 * s}, false},
		{"byoyomi 31 periods", clock.TimeControl{Kind: clock.ByoYomi, MainTime: m, Periods: 31, PeriodTime: 30 * s}, false},
		{"byoyomi period 4s", clock.TimeControl{Kind: clock.ByoYomi, Periods: 3, PeriodTime: 4 * s}, false},
		{"byoyomi negative main", clock.TimeControl{Kind: clock.ByoYomi, MainTime: -1, Periods: 3, PeriodTime: 30 * s}, false},
		{"canadian", clock.TimeControl{Kind: clock.Canadian, MainTime: 20 * m, Stones: 25, PeriodTime: 10 * m}, true},
		{"canadian no stones", clock.TimeControl{Kind: clock.Canadian, MainTime: 20 * m, PeriodTime: 10 * m}, false},
		{"canadian with periods", clock.TimeControl{Kind: clock.Canadian, Stones: 25, PeriodTime: 10 * m, Periods: 1}, false},
		{"fischer", clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 10 * m}, true},
		{"fischer cap equals initial", clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 5 * m}, true},
		{"fischer cap below initial", clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 4 * m}, false},
		{"fischer no cap", clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * m, Increment: 10 * s}, false},
		{"fischer no increment", clock.TimeControl{Kind: clock.Fischer, MainTime: 5 * m, MaxTime: 10 * m}, false},
		{"correspondence", clock.CorrespondenceDays(3, 14), true},
		{"correspondence bank below days", clock.CorrespondenceDays(3, 2), false},
		{"correspondence 31 days", clock.CorrespondenceDays(31, 40), false},
		{"correspondence bank 91", clock.CorrespondenceDays(3, 91), false},
		{"correspondence with main time", clock.TimeControl{Kind: clock.Correspondence, MainTime: h, Increment: 72 * h, MaxTime: 14 * 24 * h}, false},
		{"correspondence in hours", clock.CorrespondenceTime(36*h, 72*h), false},
		{"fractional seconds", clock.AbsoluteTime(30*m + s/2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tengen.ValidateTimeControl(tt.tc); (err == nil) != tt.ok {
				t.Errorf("Validate(%+v) = %v, want ok=%v", tt.tc, err, tt.ok)
			}
		})
	}
}

func TestTimeControlJSON(t *testing.T) {
	tc := clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second}
	data, err := json.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"byoyomi","mainTime":600,"periods":5,"periodTime":30}`; string(data) != want {
		t.Errorf("Marshal = %s, want %s", data, want)
	}
	var back clock.TimeControl
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back != tc {
		t.Errorf("round trip = %+v, want %+v", back, tc)
	}
	// Absurd values must not overflow into something valid.
	back = clock.TimeControl{}
	if err := json.Unmarshal([]byte(`{"kind":"absolute","mainTime":9223372036854775807}`), &back); err == nil && tengen.ValidateTimeControl(back) == nil {
		t.Errorf("huge main time %v validated", back.MainTime)
	}
	// Correspondence games are written in days, as the API documents.
	data, err = json.Marshal(clock.CorrespondenceDays(3, 14))
	if want := `{"kind":"correspondence","daysPerMove":3,"maxDays":14}`; err != nil || string(data) != want {
		t.Errorf("Marshal = %s, %v; want %s", data, err, want)
	}
}

func komi(k float64) *float64 { return &k }

func TestGameSettingsValidate(t *testing.T) {
	base := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}
	tests := []struct {
		name   string
		change func(*tengen.GameSettings)
		ok     bool
	}{
		{"base", func(*tengen.GameSettings) {}, true},
		{"size 5", func(s *tengen.GameSettings) { s.BoardSize = 5 }, true},
		{"size 4", func(s *tengen.GameSettings) { s.BoardSize = 4 }, false},
		{"size 25", func(s *tengen.GameSettings) { s.BoardSize = 25 }, true},
		{"size 26", func(s *tengen.GameSettings) { s.BoardSize = 26 }, false},
		{"atari ruleset", func(s *tengen.GameSettings) { s.Ruleset = "atari" }, true},
		{"unknown ruleset", func(s *tengen.GameSettings) { s.Ruleset = "ing" }, false},
		{"empty ruleset", func(s *tengen.GameSettings) { s.Ruleset = "" }, false},
		{"komi 6.5", func(s *tengen.GameSettings) { s.Komi = komi(6.5) }, true},
		{"komi 0", func(s *tengen.GameSettings) { s.Komi = komi(0) }, true},
		{"komi -3", func(s *tengen.GameSettings) { s.Komi = komi(-3) }, true},
		{"komi 6.25", func(s *tengen.GameSettings) { s.Komi = komi(6.25) }, false},
		{"komi 151", func(s *tengen.GameSettings) { s.Komi = komi(151) }, false},
		{"handicap 9 fixed", func(s *tengen.GameSettings) { s.Handicap = 9 }, true},
		{"handicap 10", func(s *tengen.GameSettings) { s.Handicap = 10 }, false},
		{"handicap -1", func(s *tengen.GameSettings) { s.Handicap = -1 }, false},
		{"handicap 1", func(s *tengen.GameSettings) { s.Handicap = 1 }, true},
		{"handicap 5 fixed on 13", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap = 13, 5 }, true},
		{"handicap 5 fixed on 8", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap = 8, 5 }, false},
		{"handicap 4 fixed on 7", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap = 7, 4 }, true},
		{"handicap 5 fixed on 7", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap = 7, 5 }, false},
		{"handicap 2 fixed on 6", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap = 6, 2 }, false},
		{"handicap 9 free on 6", func(s *tengen.GameSettings) {
			s.Ruleset, s.BoardSize, s.Handicap, s.FreeHandicap = "chinese", 6, 9, true
		}, true},
		// S: "ein bis neun zusätzliche schwarze Steine": one free stone is
		// Black's first move (handicap 1), under every ruleset.
		{"free handicap of 1", func(s *tengen.GameSettings) { s.Handicap, s.FreeHandicap = 1, true }, true},
		{"free handicap of 9 under chinese", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap, s.FreeHandicap = "chinese", 9, true }, true},
		{"free handicap under japanese", func(s *tengen.GameSettings) { s.Handicap, s.FreeHandicap = 4, true }, false},
		{"free handicap under pfaundler", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap, s.FreeHandicap = "pfaundler", 4, true }, false},
		{"pfaundler handicap 10", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap = "pfaundler", 10 }, true},
		{"pfaundler handicap 13", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap = "pfaundler", 13 }, true},
		{"pfaundler handicap 14", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap = "pfaundler", 14 }, false},
		{"pfaundler handicap 10 on 13", func(s *tengen.GameSettings) { s.Ruleset, s.BoardSize, s.Handicap = "pfaundler", 13, 10 }, false},
		{"chinese handicap 10 free", func(s *tengen.GameSettings) { s.Ruleset, s.Handicap, s.FreeHandicap = "chinese", 10, true }, false},
		{"nigiri even", func(s *tengen.GameSettings) { s.Color = tengen.ChooseNigiri }, true},
		{"nigiri handicap 1", func(s *tengen.GameSettings) { s.Color, s.Handicap = tengen.ChooseNigiri, 1 }, false},
		{"nigiri handicap 4", func(s *tengen.GameSettings) { s.Color, s.Handicap = tengen.ChooseNigiri, 4 }, false},
		{"white handicap 4", func(s *tengen.GameSettings) { s.Color, s.Handicap = tengen.ChooseWhite, 4 }, true},
		{"colour black", func(s *tengen.GameSettings) { s.Color = tengen.ChooseBlack }, true},
		{"colour red", func(s *tengen.GameSettings) { s.Color = "red" }, false},
		{"bad time control", func(s *tengen.GameSettings) { s.TimeControl = clock.TimeControl{Kind: clock.Absolute} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.change(&s)
			if err := s.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate(%+v) = %v, want ok=%v", s, err, tt.ok)
			}
		})
	}
}

func TestAssignColors(t *testing.T) {
	tests := []struct {
		choice       tengen.ColorChoice
		handicap     int
		coin         bool
		black, white int64
	}{
		{tengen.ChooseBlack, 0, false, 1, 2},
		{tengen.ChooseBlack, 0, true, 1, 2},
		{tengen.ChooseWhite, 0, true, 2, 1},
		{tengen.ChooseWhite, 0, false, 2, 1},
		{tengen.ChooseNigiri, 0, true, 1, 2},
		{tengen.ChooseNigiri, 0, false, 2, 1},
		// A nigiri handicap challenge stored before Validate refused it:
		// the challenger offered the stones, the acceptor takes Black.
		{tengen.ChooseNigiri, 3, true, 2, 1},
		{tengen.ChooseNigiri, 1, true, 2, 1},
		{tengen.ChooseBlack, 3, false, 1, 2},
	}
	for _, tt := range tests {
		s := tengen.GameSettings{Color: tt.choice, Handicap: tt.handicap}
		b, w := s.AssignColors(1, 2, func() bool { return tt.coin })
		if b != tt.black || w != tt.white {
			t.Errorf("%s coin=%v: black=%d white=%d, want %d %d", tt.choice, tt.coin, b, w, tt.black, tt.white)
		}
	}
}

func TestFirstToMove(t *testing.T) {
	tests := []struct {
		handicap int
		free     bool
		want     goban.Color
	}{
		{0, false, goban.Black},
		{1, false, goban.Black},
		{2, false, goban.White},
		{9, false, goban.White},
		{2, true, goban.Black},
	}
	for _, tt := range tests {
		s := tengen.GameSettings{Handicap: tt.handicap, FreeHandicap: tt.free}
		if got := s.FirstToMove(); got != tt.want {
			t.Errorf("handicap %d free=%v: %s, want %s", tt.handicap, tt.free, got, tt.want)
		}
	}
}

func TestValidateMove(t *testing.T) {
	tests := []struct {
		name string
		m    tengen.GameMove
		ok   bool
	}{
		{"play", tengen.GameMove{Seq: 1, Color: goban.Black, Kind: tengen.MovePlay, X: 3, Y: 15}, true},
		{"corner", tengen.GameMove{Seq: 1, Color: goban.White, Kind: tengen.MovePlay, X: 18, Y: 18}, true},
		{"off board x", tengen.GameMove{Seq: 1, Color: goban.Black, Kind: tengen.MovePlay, X: 19, Y: 0}, false},
		{"negative y", tengen.GameMove{Seq: 1, Color: goban.Black, Kind: tengen.MovePlay, X: 0, Y: -1}, false},
		{"pass", tengen.GameMove{Seq: 2, Color: goban.Black, Kind: tengen.MovePass}, true},
		{"pass with point", tengen.GameMove{Seq: 2, Color: goban.Black, Kind: tengen.MovePass, X: 3}, false},
		{"resign", tengen.GameMove{Seq: 9, Color: goban.White, Kind: tengen.MoveResign}, true},
		{"seq 0", tengen.GameMove{Seq: 0, Color: goban.Black, Kind: tengen.MovePass}, false},
		{"no colour", tengen.GameMove{Seq: 1, Kind: tengen.MovePass}, false},
		{"bad kind", tengen.GameMove{Seq: 1, Color: goban.Black, Kind: "undo"}, false},
		{"negative time", tengen.GameMove{Seq: 1, Color: goban.Black, Kind: tengen.MovePass, TimeUsed: -1}, false},
	}
	for _, tt := range tests {
		if err := tengen.ValidateMove(tt.m, 19); (err == nil) != tt.ok {
			t.Errorf("%s: ValidateMove = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestValidateResult(t *testing.T) {
	tests := []struct {
		r  string
		ok bool
	}{
		{"B+3.5", true}, {"W+R", true}, {"B+T", true}, {"W+Resign", true}, {"B+F", true},
		{"Void", true}, {"0", true}, {"Draw", true}, {"?", true}, {"W+12", true}, {"B+", true},
		{"", false}, {"X+1", false}, {"B+3.", false}, {"b+r", false}, {"B+R ", false},
	}
	for _, tt := range tests {
		if err := tengen.ValidateResult(tt.r); (err == nil) != tt.ok {
			t.Errorf("ValidateResult(%q) = %v, want ok=%v", tt.r, err, tt.ok)
		}
	}
}

func TestNextState(t *testing.T) {
	tests := []struct {
		name     string
		m        tengen.GameMove
		prevPass bool
		want     tengen.GameUpdate
	}{
		{"black plays", tengen.GameMove{Color: goban.Black, Kind: tengen.MovePlay}, false, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}},
		{"white plays after pass", tengen.GameMove{Color: goban.White, Kind: tengen.MovePlay}, true, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying}},
		{"first pass", tengen.GameMove{Color: goban.White, Kind: tengen.MovePass}, false, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying}},
		{"second pass", tengen.GameMove{Color: goban.Black, Kind: tengen.MovePass}, true, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameScoring}},
		{"black resigns", tengen.GameMove{Color: goban.Black, Kind: tengen.MoveResign}, false, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+R"}},
		{"white resigns", tengen.GameMove{Color: goban.White, Kind: tengen.MoveResign}, true, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GameFinished, Result: "B+R"}},
	}
	for _, tt := range tests {
		got := tengen.NextState(tt.m, tt.prevPass)
		if got != tt.want {
			t.Errorf("%s: NextState = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestGameIsTurnOf(t *testing.T) {
	tests := []struct {
		status tengen.GameStatus
		toMove goban.Color
		user   int64
		want   bool
	}{
		{tengen.GamePlaying, goban.Black, 1, true},
		{tengen.GamePlaying, goban.Black, 2, false},
		{tengen.GamePlaying, goban.White, 2, true},
		{tengen.GamePlaying, goban.Black, 3, false},
		{tengen.GamePlaying, goban.Black, 0, false},
		{tengen.GameScoring, goban.Black, 2, true},
		{tengen.GameScoring, goban.Black, 3, false},
		{tengen.GameFinished, goban.Black, 1, false},
	}
	for _, tt := range tests {
		g := &tengen.Game{BlackID: 1, WhiteID: 2, Status: tt.status, ToMove: tt.toMove}
		if got := g.IsTurnOf(tt.user); got != tt.want {
			t.Errorf("%s to move %s, user %d: IsTurnOf = %v, want %v", tt.status, tt.toMove, tt.user, got, tt.want)
		}
	}
}

func TestChallengeCanAccept(t *testing.T) {
	tests := []struct {
		name     string
		c        tengen.Challenge
		user     int64
		wantCode string
	}{
		{"open by other", tengen.Challenge{ChallengerID: 1, Status: tengen.ChallengeOpen}, 2, ""},
		{"open by self", tengen.Challenge{ChallengerID: 1, Status: tengen.ChallengeOpen}, 1, tengen.EFORBIDDEN},
		{"direct by opponent", tengen.Challenge{ChallengerID: 1, OpponentID: 2, Status: tengen.ChallengeOpen}, 2, ""},
		{"direct by third", tengen.Challenge{ChallengerID: 1, OpponentID: 2, Status: tengen.ChallengeOpen}, 3, tengen.EFORBIDDEN},
		{"accepted", tengen.Challenge{ChallengerID: 1, Status: tengen.ChallengeAccepted}, 2, tengen.ECONFLICT},
		{"cancelled", tengen.Challenge{ChallengerID: 1, Status: tengen.ChallengeCancelled}, 2, tengen.ECONFLICT},
	}
	for _, tt := range tests {
		if got := tengen.ErrorCode(tt.c.CanAccept(tt.user)); got != tt.wantCode {
			t.Errorf("%s: code %q, want %q", tt.name, got, tt.wantCode)
		}
	}
}

func TestTimeControlMessages(t *testing.T) {
	err := tengen.ValidateTimeControl(clock.TimeControl{Kind: clock.Absolute, MainTime: time.Second})
	if got, want := tengen.ErrorMessage(err), "Main time must be between 10s and 24h."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	err = tengen.ValidateTimeControl(clock.TimeControl{Kind: clock.ByoYomi, Periods: 1, PeriodTime: 2 * time.Hour})
	if got, want := tengen.ErrorMessage(err), "Byo-yomi period time must be between 5s and 1h."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
