package sgf

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseKomi(t *testing.T) {
	tests := []struct {
		raw  string
		want float64
		note bool
		err  bool
	}{
		{"6.5", 6.5, false, false},
		{"7", 7, false, false},
		{"-3.5", -3.5, false, false},
		{"0", 0, false, false},
		{" 0.5 ", 0.5, false, false},
		{"30", 30, false, false},
		{"6,5", 6.5, false, false},
		{"375", 7.5, true, false},
		{"750", 7.5, true, false},
		{"325", 6.5, true, false},
		{"650", 6.5, true, false},
		{"275", 5.5, true, false},
		{"50", 0.5, true, false},
		{"-750", -7.5, true, false},
		{"99999", 0, false, true},
		{"abc", 0, false, true},
		{"", 0, false, true},
		{"NaN", 0, false, true},
	}
	for _, tt := range tests {
		k, note, err := ParseKomi(tt.raw)
		if k != tt.want || (note != "") != tt.note || (err != nil) != tt.err {
			t.Errorf("ParseKomi(%q) = %g, %q, %v; want %g, note %v, error %v", tt.raw, k, note, err, tt.want, tt.note, tt.err)
		}
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		raw, want string
		kind      ResultKind
		winner    Color
	}{
		{"B+3.5", "B+3.5", ResultScore, Black},
		{"W+0.5", "W+0.5", ResultScore, White},
		{"W+R", "W+R", ResultResign, White},
		{"W+Resign", "W+R", ResultResign, White},
		{"b+res", "B+R", ResultResign, Black},
		{"B+T", "B+T", ResultTime, Black},
		{"B+Time", "B+T", ResultTime, Black},
		{"B+F", "B+F", ResultForfeit, Black},
		{"W+Forfeit", "W+F", ResultForfeit, White},
		{"B+", "B+", ResultWin, Black},
		{"0", "0", ResultDraw, Empty},
		{"Draw", "0", ResultDraw, Empty},
		{"Jigo", "0", ResultDraw, Empty},
		{"Void", "Void", ResultVoid, Empty},
		{"?", "?", ResultUnknown, Empty},
		{" W + 12 ", "W+12", ResultScore, White},
		{"黑中盘胜", "B+R", ResultResign, Black},
		{"白胜", "W+", ResultWin, White},
		{"黒中押し勝ち", "B+R", ResultResign, Black},
		{"백 시간승", "W+T", ResultTime, White},
		{"和棋", "0", ResultDraw, Empty},
	}
	for _, tt := range tests {
		r, err := ParseResult(tt.raw)
		if err != nil || r.String() != tt.want || r.Kind != tt.kind || r.Winner != tt.winner {
			t.Errorf("ParseResult(%q) = %+v (%s), %v; want %s", tt.raw, r, r, err, tt.want)
		}
	}
	for _, bad := range []string{"white wins", "B+x", "B-3", "X+R", "B+-1", "B+Inf", "黑"} {
		if r, err := ParseResult(bad); err == nil {
			t.Errorf("ParseResult(%q) = %v, want an error", bad, r)
		}
	}
}

func TestParseDates(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"1996-05-06", "[1996-05-06]"},
		{"1996", "[1996]"},
		{"1996-05", "[1996-05]"},
		{"1996-05-06,07,08", "[1996-05-06 1996-05-07 1996-05-08]"},
		{"1996-05,06", "[1996-05 1996-06]"},
		{"1996,1997", "[1996 1997]"},
		{"1996-05-06,11-12", "[1996-05-06 1996-11-12]"},
		{"1996-12-27,28,1997-01-03,04", "[1996-12-27 1996-12-28 1997-01-03 1997-01-04]"},
	}
	for _, tt := range tests {
		ds, err := ParseDates(tt.raw)
		if err != nil || fmt.Sprint(ds) != tt.want {
			t.Errorf("ParseDates(%q) = %v, %v; want %s", tt.raw, ds, err, tt.want)
		}
	}
	for _, bad := range []string{"05-06", "1996/05/06", "96-05-06", "1996-13-01", "1996-05-32", "1996,05", "", "1996-5-6", "1996-05-06,2"} {
		if ds, err := ParseDates(bad); err == nil {
			t.Errorf("ParseDates(%q) = %v, want an error", bad, ds)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		raw  string
		w, h int
		err  bool
	}{
		{"19", 19, 19, false}, {"9", 9, 9, false}, {"19:13", 19, 13, false}, {" 13 ", 13, 13, false},
		{"52", 52, 52, false}, {"53", 0, 0, true}, {"0", 0, 0, true}, {"x", 0, 0, true}, {"19:", 0, 0, true},
	}
	for _, tt := range tests {
		w, h, err := ParseSize(tt.raw)
		if w != tt.w || h != tt.h || (err != nil) != tt.err {
			t.Errorf("ParseSize(%q) = %d, %d, %v", tt.raw, w, h, err)
		}
	}
}

func TestGameInfoWarnings(t *testing.T) {
	tests := []struct {
		sgf  string
		want string // the warnings, joined by "|"
	}{
		{"(;SZ[19]KM[6.5]HA[2]RE[B+R]DT[2000-01-01]TM[60])", ""},
		{"(;SZ[abc])", "1:2: SZ: size \"abc\" is not a number; using 19x19"},
		{"(;KM[abc])", "1:2: KM: \"abc\" is not a number"},
		{"(;KM[375])", "1:2: KM: komi 375 read as hundredths of stones (Fox units): 7.5 points"},
		{"(;HA[1])", "1:2: HA[1]: a handicap of one stone is no handicap; read as 0"},
		{"(;HA[x])", "1:2: HA[x]: not a handicap"},
		{"(;RE[won])", "1:2: RE: result \"won\" not understood"},
		{"(;DT[yesterday])", "1:2: DT: date \"yesterday\" is not YYYY-MM-DD"},
		{"(;TM[-1])", "1:2: TM[-1]: not a time in seconds"},
		{"(;GM[1]\n;HA[x];B[aa];KM[zz])", "2:1: HA[x]: not a handicap"}, // KM after the first move is not game info
	}
	for _, tt := range tests {
		c, err := Parse([]byte(tt.sgf))
		if err != nil {
			t.Fatal(err)
		}
		_, ws := c.Games[0].GameInfo()
		var got []string
		for _, w := range ws {
			got = append(got, w.Error())
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%s: warnings %q, want %q", tt.sgf, got, tt.want)
		}
	}
}

func TestSetGameInfoDates(t *testing.T) {
	n := NewNode()
	n.SetGameInfo(GameInfo{Dates: []Date{{2026, 11, 21}, {2026, 11, 22}}})
	if v, _ := n.Value("DT"); v != "2026-11-21,2026-11-22" {
		t.Errorf("DT[%s]", v)
	}
}

func TestSetGameInfo(t *testing.T) {
	in := GameInfo{Width: 19, Height: 13, Komi: 6.5, HasKomi: true, Handicap: 3, Rules: "Japanese",
		Result: Result{Winner: White, Kind: ResultScore, Score: 2.5}, HasResult: true,
		BlackName: "A]b", WhiteName: "C\\d", Date: "2026-11-21", TimeLimit: 600, HasTimeLimit: true,
		GameComment: "two\nlines"}
	n := NewNode()
	n.SetGameInfo(in)
	out, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	got, ws := c.Games[0].GameInfo()
	if len(ws) > 0 {
		t.Errorf("warnings %v", ws)
	}
	in.Dates = []Date{{2026, 11, 21}}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", in) {
		t.Errorf("read back\n%+v\nwant\n%+v\n%s", got, in, out)
	}
}
