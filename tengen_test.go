package tengen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"tengen"
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
		tc   tengen.TimeControl
		ok   bool
	}{
		{"none", tengen.TimeControl{Kind: tengen.TimeNone}, true},
		{"none with main time", tengen.TimeControl{Kind: tengen.TimeNone, MainTime: m}, false},
		{"empty kind", tengen.TimeControl{}, false},
		{"unknown kind", tengen.TimeControl{Kind: "hourglass", MainTime: m}, false},
		{"absolute", tengen.TimeControl{Kind: tengen.TimeAbsolute, MainTime: 30 * m}, true},
		{"absolute too short", tengen.TimeControl{Kind: tengen.TimeAbsolute, MainTime: 9 * s}, false},
		{"absolute too long", tengen.TimeControl{Kind: tengen.TimeAbsolute, MainTime: 25 * h}, false},
		{"absolute with periods", tengen.TimeControl{Kind: tengen.TimeAbsolute, MainTime: m, Periods: 3}, false},
		{"byoyomi", tengen.TimeControl{Kind: tengen.TimeByoyomi, MainTime: 10 * m, Periods: 5, PeriodTime: 30 * s}, true},
		{"byoyomi without main time", tengen.TimeControl{Kind: tengen.TimeByoyomi, Periods: 3, PeriodTime: 30 * s}, true},
		{"byoyomi no periods", tengen.TimeControl{Kind: tengen.TimeByoyomi, MainTime: m, PeriodTime: 30 * s}, false},
		{"byoyomi 31 periods", tengen.TimeControl{Kind: tengen.TimeByoyomi, MainTime: m, Periods: 31, PeriodTime: 30 * s}, false},
		{"byoyomi period 4s", tengen.TimeControl{Kind: tengen.TimeByoyomi, Periods: 3, PeriodTime: 4 * s}, false},
		{"byoyomi negative main", tengen.TimeControl{Kind: tengen.TimeByoyomi, MainTime: -1, Periods: 3, PeriodTime: 30 * s}, false},
		{"canadian", tengen.TimeControl{Kind: tengen.TimeCanadian, MainTime: 20 * m, Stones: 25, PeriodTime: 10 * m}, true},
		{"canadian no stones", tengen.TimeControl{Kind: tengen.TimeCanadian, MainTime: 20 * m, PeriodTime: 10 * m}, false},
		{"canadian with periods", tengen.TimeControl{Kind: tengen.TimeCanadian, Stones: 25, PeriodTime: 10 * m, Periods: 1}, false},
		{"fischer", tengen.TimeControl{Kind: tengen.TimeFischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 10 * m}, true},
		{"fischer cap equals initial", tengen.TimeControl{Kind: tengen.TimeFischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 5 * m}, true},
		{"fischer cap below initial", tengen.TimeControl{Kind: tengen.TimeFischer, MainTime: 5 * m, Increment: 10 * s, MaxTime: 4 * m}, false},
		{"fischer no cap", tengen.TimeControl{Kind: tengen.TimeFischer, MainTime: 5 * m, Increment: 10 * s}, false},
		{"fischer no increment", tengen.TimeControl{Kind: tengen.TimeFischer, MainTime: 5 * m, MaxTime: 10 * m}, false},
		{"correspondence", tengen.TimeControl{Kind: tengen.TimeCorrespondence, DaysPerMove: 3, MaxDays: 14}, true},
		{"correspondence bank below days", tengen.TimeControl{Kind: tengen.TimeCorrespondence, DaysPerMove: 3, MaxDays: 2}, false},
		{"correspondence 31 days", tengen.TimeControl{Kind: tengen.TimeCorrespondence, DaysPerMove: 31, MaxDays: 40}, false},
		{"correspondence bank 91", tengen.TimeControl{Kind: tengen.TimeCorrespondence, DaysPerMove: 3, MaxDays: 91}, false},
		{"correspondence with main time", tengen.TimeControl{Kind: tengen.TimeCorrespondence, DaysPerMove: 3, MaxDays: 14, MainTime: h}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.tc.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate(%+v) = %v, want ok=%v", tt.tc, err, tt.ok)
			}
		})
	}
}

func TestTimeControlJSON(t *testing.T) {
	tc := tengen.TimeControl{Kind: tengen.TimeByoyomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second}
	data, err := json.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"byoyomi","mainTime":600,"periods":5,"periodTime":30}`; string(data) != want {
		t.Errorf("Marshal = %s, want %s", data, want)
	}
	var back tengen.TimeControl
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back != tc {
		t.Errorf("round trip = %+v, want %+v", back, tc)
	}
	// Absurd values must not overflow into something valid.
	if err := json.Unmarshal([]byte(`{"kind":"absolute","mainTime":9223372036854775807}`), &back); err != nil {
		t.Fatal(err)
	}
	if back.Validate() == nil {
		t.Errorf("huge main time %v validated", back.MainTime)
	}
}

func komi(k float64) *float64 { return &k }

func TestGameSettingsValidate(t *testing.T) {
	base := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseNigiri, TimeControl: tengen.TimeControl{Kind: tengen.TimeNone}}
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
		{"handicap 9 free on 6", func(s *tengen.GameSettings) { s.BoardSize, s.Handicap, s.FreeHandicap = 6, 9, true }, true},
		{"free handicap of 1", func(s *tengen.GameSettings) { s.Handicap, s.FreeHandicap = 1, true }, false},
		{"colour black", func(s *tengen.GameSettings) { s.Color = tengen.ChooseBlack }, true},
		{"colour red", func(s *tengen.GameSettings) { s.Color = "red" }, false},
		{"bad time control", func(s *tengen.GameSettings) { s.TimeControl = tengen.TimeControl{Kind: tengen.TimeAbsolute} }, false},
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
		coin         bool
		black, white int64
	}{
		{tengen.ChooseBlack, false, 1, 2},
		{tengen.ChooseBlack, true, 1, 2},
		{tengen.ChooseWhite, true, 2, 1},
		{tengen.ChooseWhite, false, 2, 1},
		{tengen.ChooseNigiri, true, 1, 2},
		{tengen.ChooseNigiri, false, 2, 1},
	}
	for _, tt := range tests {
		s := tengen.GameSettings{Color: tt.choice}
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
		want     tengen.Color
	}{
		{0, false, tengen.Black},
		{1, false, tengen.Black},
		{2, false, tengen.White},
		{9, false, tengen.White},
		{2, true, tengen.Black},
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
		{"play", tengen.GameMove{Seq: 1, Color: tengen.Black, Kind: tengen.MovePlay, X: 3, Y: 15}, true},
		{"corner", tengen.GameMove{Seq: 1, Color: tengen.White, Kind: tengen.MovePlay, X: 18, Y: 18}, true},
		{"off board x", tengen.GameMove{Seq: 1, Color: tengen.Black, Kind: tengen.MovePlay, X: 19, Y: 0}, false},
		{"negative y", tengen.GameMove{Seq: 1, Color: tengen.Black, Kind: tengen.MovePlay, X: 0, Y: -1}, false},
		{"pass", tengen.GameMove{Seq: 2, Color: tengen.Black, Kind: tengen.MovePass}, true},
		{"pass with point", tengen.GameMove{Seq: 2, Color: tengen.Black, Kind: tengen.MovePass, X: 3}, false},
		{"resign", tengen.GameMove{Seq: 9, Color: tengen.White, Kind: tengen.MoveResign}, true},
		{"seq 0", tengen.GameMove{Seq: 0, Color: tengen.Black, Kind: tengen.MovePass}, false},
		{"no colour", tengen.GameMove{Seq: 1, Kind: tengen.MovePass}, false},
		{"bad kind", tengen.GameMove{Seq: 1, Color: tengen.Black, Kind: "undo"}, false},
		{"negative time", tengen.GameMove{Seq: 1, Color: tengen.Black, Kind: tengen.MovePass, TimeUsed: -1}, false},
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
		{"black plays", tengen.GameMove{Color: tengen.Black, Kind: tengen.MovePlay}, false, tengen.GameUpdate{ToMove: tengen.White, Status: tengen.GamePlaying}},
		{"white plays after pass", tengen.GameMove{Color: tengen.White, Kind: tengen.MovePlay}, true, tengen.GameUpdate{ToMove: tengen.Black, Status: tengen.GamePlaying}},
		{"first pass", tengen.GameMove{Color: tengen.White, Kind: tengen.MovePass}, false, tengen.GameUpdate{ToMove: tengen.Black, Status: tengen.GamePlaying}},
		{"second pass", tengen.GameMove{Color: tengen.Black, Kind: tengen.MovePass}, true, tengen.GameUpdate{ToMove: tengen.White, Status: tengen.GameScoring}},
		{"black resigns", tengen.GameMove{Color: tengen.Black, Kind: tengen.MoveResign}, false, tengen.GameUpdate{ToMove: tengen.White, Status: tengen.GameFinished, Result: "W+R"}},
		{"white resigns", tengen.GameMove{Color: tengen.White, Kind: tengen.MoveResign}, true, tengen.GameUpdate{ToMove: tengen.Black, Status: tengen.GameFinished, Result: "B+R"}},
	}
	for _, tt := range tests {
		got := tengen.NextState(tt.m, tt.prevPass)
		if got != tt.want {
			t.Errorf("%s: NextState = %+v, want %+v", tt.name, got, tt.want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: result does not validate: %v", tt.name, err)
		}
	}
}

func TestGameIsTurnOf(t *testing.T) {
	tests := []struct {
		status tengen.GameStatus
		toMove tengen.Color
		user   int64
		want   bool
	}{
		{tengen.GamePlaying, tengen.Black, 1, true},
		{tengen.GamePlaying, tengen.Black, 2, false},
		{tengen.GamePlaying, tengen.White, 2, true},
		{tengen.GamePlaying, tengen.Black, 3, false},
		{tengen.GamePlaying, tengen.Black, 0, false},
		{tengen.GameScoring, tengen.Black, 2, true},
		{tengen.GameScoring, tengen.Black, 3, false},
		{tengen.GameFinished, tengen.Black, 1, false},
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
	err := tengen.TimeControl{Kind: tengen.TimeAbsolute, MainTime: time.Second}.Validate()
	if got, want := tengen.ErrorMessage(err), "Main time must be between 10s and 24h."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	err = tengen.TimeControl{Kind: tengen.TimeByoyomi, Periods: 1, PeriodTime: 2 * time.Hour}.Validate()
	if got, want := tengen.ErrorMessage(err), "Byo-yomi period time must be between 5s and 1h."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
