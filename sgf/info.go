package sgf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// GameInfo is the typed game information of a record. The raw properties stay
// the source of truth; GameInfo is computed from them on each call.
type GameInfo struct {
	Width, Height int // SZ; 19×19 when SZ is missing

	Komi    float64 // KM in points, after the Fox-unit repair (see ParseKomi)
	HasKomi bool    // whether KM is present and readable

	Handicap int    // HA; 0 when missing or invalid
	Rules    string // RU as written ("Japanese", "Chinese", "AGA", ...)

	Result    Result // RE
	HasResult bool   // whether RE is present and readable

	BlackName, WhiteName string // PB, PW
	BlackRank, WhiteRank string // BR, WR
	BlackTeam, WhiteTeam string // BT, WT

	Date  string // DT as written
	Dates []Date // DT read as a list of dates; nil if DT is missing or unreadable

	TimeLimit    float64 // TM in seconds
	HasTimeLimit bool    // whether TM is present and readable
	Overtime     string  // OT as written ("5x30 byo-yomi")

	GameName, Event, Round, Place, Source string // GN, EV, RO, PC, SO
	User, Annotator, Copyright, Opening   string // US, AN, CP, ON
	Application                           string // AP
	GameComment                           string // GC (Text)
}

// GameInfo reads the game information of the game whose root is n. Root
// properties (SZ, AP) come from n; game-info properties come from the first
// node, from n down the main line, that has each of them, not looking past
// the first move. Missing SZ means 19×19. Values that break the specification
// are reported in the returned list with the node's position; the GameInfo
// then holds the best reading (or the zero value).
func (n *Node) GameInfo() (GameInfo, ErrorList) {
	var warns ErrorList
	info := GameInfo{Width: 19, Height: 19}
	warnf := func(node *Node, format string, args ...any) {
		warns.Add(node.Pos, fmt.Sprintf(format, args...))
	}
	if v, ok := n.Value("SZ"); ok {
		w, h, err := ParseSize(v)
		if err != nil {
			warnf(n, "SZ: %v; using 19x19", err)
		} else {
			info.Width, info.Height = w, h
		}
	}
	info.Application = n.SimpleText("AP")

	// find returns the node holding game-info property id.
	find := func(id string) (*Node, string, bool) {
		for x := n; x != nil; x = first(x.Children) {
			if v, ok := x.Value(id); ok {
				return x, v, true
			}
			if x.Has("B") || x.Has("W") {
				break
			}
		}
		return nil, "", false
	}
	text := func(id string) string {
		_, v, _ := find(id)
		return UnescapeSimpleText(v)
	}

	if node, v, ok := find("KM"); ok {
		k, note, err := ParseKomi(UnescapeSimpleText(v))
		switch {
		case err != nil:
			warnf(node, "KM: %v", err)
		default:
			info.Komi, info.HasKomi = k, true
			if note != "" {
				warnf(node, "KM: %s", note)
			}
		}
	}
	if node, v, ok := find("HA"); ok {
		h, err := strconv.Atoi(strings.TrimSpace(UnescapeSimpleText(v)))
		switch {
		case err != nil || h < 0 || h > info.Width*info.Height:
			warnf(node, "HA[%s]: not a handicap", clip(v))
		case h == 1:
			warnf(node, "HA[1]: a handicap of one stone is no handicap; read as 0")
		default:
			info.Handicap = h
		}
	}
	info.Rules = text("RU")
	if node, v, ok := find("RE"); ok {
		r, err := ParseResult(UnescapeSimpleText(v))
		if err != nil {
			warnf(node, "RE: %v", err)
		} else {
			info.Result, info.HasResult = r, true
		}
	}
	info.BlackName, info.WhiteName = text("PB"), text("PW")
	info.BlackRank, info.WhiteRank = text("BR"), text("WR")
	info.BlackTeam, info.WhiteTeam = text("BT"), text("WT")
	if node, v, ok := find("DT"); ok {
		info.Date = UnescapeSimpleText(v)
		ds, err := ParseDates(info.Date)
		if err != nil {
			warnf(node, "DT: %v", err)
		} else {
			info.Dates = ds
		}
	}
	if node, v, ok := find("TM"); ok {
		t, err := parseReal(UnescapeSimpleText(v))
		if err != nil || t < 0 {
			warnf(node, "TM[%s]: not a time in seconds", clip(v))
		} else {
			info.TimeLimit, info.HasTimeLimit = t, true
		}
	}
	info.Overtime = text("OT")
	info.GameName, info.Event, info.Round = text("GN"), text("EV"), text("RO")
	info.Place, info.Source, info.User = text("PC"), text("SO"), text("US")
	info.Annotator, info.Copyright, info.Opening = text("AN"), text("CP"), text("ON")
	if node, _, ok := find("GC"); ok {
		info.GameComment = node.Text("GC")
	}
	return info, warns
}

// ParseSize reads an SZ value: "19" for a square board or "19:13" for
// columns:rows. Sizes run from 1 to 52, the largest SGF points can name.
func ParseSize(raw string) (w, h int, err error) {
	l, r, composed := SplitCompose(raw)
	w, err = strconv.Atoi(strings.TrimSpace(l))
	if err != nil {
		return 0, 0, fmt.Errorf("size %q is not a number", clip(raw))
	}
	h = w
	if composed {
		h, err = strconv.Atoi(strings.TrimSpace(r))
		if err != nil {
			return 0, 0, fmt.Errorf("size %q is not columns:rows", clip(raw))
		}
	}
	if w < 1 || h < 1 || w > 52 || h > 52 {
		return 0, 0, fmt.Errorf("size %q is outside 1-52", clip(raw))
	}
	return w, h, nil
}

func parseReal(s string) (float64, error) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// Some programs write a decimal comma.
		f, err = strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a number", clip(s))
	}
	return f, nil
}

// MaxPlausibleKomi is the largest komi magnitude (in points) that ParseKomi
// takes at face value. No ruleset or handicap convention comes near it.
const MaxPlausibleKomi = 30

// ParseKomi reads a KM value and repairs the units that the Fox server (and
// programs copying it) write. The rule: a komi whose magnitude is above
// MaxPlausibleKomi is taken to be in hundredths, so it is divided by 100; if
// the result is a quarter (x.25 or x.75) it is a Chinese komi counted in
// stones, which is doubled to give points. So KM[750] and KM[650] are 7.5
// and 6.5 points, KM[375] and KM[325] are 3.75 and 3.25 stones, that is 7.5
// and 6.5 points. When a repair is made, note describes it.
func ParseKomi(raw string) (komi float64, note string, err error) {
	k, err := parseReal(raw)
	if err != nil {
		return 0, "", err
	}
	if math.Abs(k) <= MaxPlausibleKomi {
		return k, "", nil
	}
	v := k / 100
	frac := math.Abs(v - math.Trunc(v))
	if math.Abs(frac-0.25) < 1e-9 || math.Abs(frac-0.75) < 1e-9 {
		v *= 2
		note = fmt.Sprintf("komi %s read as hundredths of stones (Fox units): %g points", clip(raw), v)
	} else {
		note = fmt.Sprintf("komi %s read as hundredths of points (Fox units): %g points", clip(raw), v)
	}
	if math.Abs(v) > MaxPlausibleKomi {
		return 0, "", fmt.Errorf("komi %q is implausible even in hundredths", clip(raw))
	}
	return v, note, nil
}

// ResultKind says how a game ended.
type ResultKind uint8

// The result kinds, following RE's forms.
const (
	ResultUnknown ResultKind = iota // "?": the result is unknown
	ResultScore                     // "B+3.5": won by a score
	ResultResign                    // "W+R" or "W+Resign"
	ResultTime                      // "B+T" or "B+Time"
	ResultForfeit                   // "B+F" or "B+Forfeit"
	ResultWin                       // "B+": won, no reason given
	ResultDraw                      // "0" or "Draw" (jigo)
	ResultVoid                      // "Void": no result, suspended play
)

// Result is a game result as RE writes it.
type Result struct {
	Winner Color      // Empty for draws, void and unknown results
	Kind   ResultKind // how the game ended
	Score  float64    // the margin, for ResultScore
}

// ParseResult reads an RE value. It accepts the FF[4] forms ("B+3.5", "W+R",
// "W+Resign", "B+T", "B+Time", "B+F", "B+Forfeit", "B+", "0", "Draw", "Void",
// "?") and, leniently, lower case, spaces, "Jigo" and "W+Res".
func ParseResult(raw string) (Result, error) {
	s := strings.TrimSpace(raw)
	low := strings.ToLower(s)
	switch low {
	case "?", "":
		return Result{Kind: ResultUnknown}, nil
	case "0", "draw", "jigo", "d":
		return Result{Kind: ResultDraw}, nil
	case "void":
		return Result{Kind: ResultVoid}, nil
	}
	if r, ok := parseCJKResult(s); ok {
		return r, nil
	}
	if len(low) < 2 || (low[0] != 'b' && low[0] != 'w') {
		return Result{}, fmt.Errorf("result %q not understood", clip(raw))
	}
	r := Result{Winner: Black}
	if low[0] == 'w' {
		r.Winner = White
	}
	rest := strings.TrimSpace(low[1:])
	if !strings.HasPrefix(rest, "+") {
		return Result{}, fmt.Errorf("result %q not understood", clip(raw))
	}
	rest = strings.TrimSpace(rest[1:])
	switch rest {
	case "":
		r.Kind = ResultWin
	case "r", "res", "resign":
		r.Kind = ResultResign
	case "t", "time":
		r.Kind = ResultTime
	case "f", "forfeit":
		r.Kind = ResultForfeit
	default:
		f, err := strconv.ParseFloat(rest, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return Result{}, fmt.Errorf("result %q not understood", clip(raw))
		}
		r.Kind, r.Score = ResultScore, f
	}
	return r, nil
}

// parseCJKResult reads the results Chinese, Japanese and Korean programs
// write in words instead of FF[4] form: "黑中盘胜" (Black wins by resignation),
// "白胜" (White wins), "黒中押し勝ち", "백 불계승", "黑超时胜" (on time).
func parseCJKResult(s string) (Result, bool) {
	var r Result
	switch {
	case strings.HasPrefix(s, "黑") || strings.HasPrefix(s, "黒") || strings.HasPrefix(s, "흑"):
		r.Winner = Black
	case strings.HasPrefix(s, "白") || strings.HasPrefix(s, "백"):
		r.Winner = White
	case s == "和棋" || s == "持碁" || s == "무승부" || s == "和":
		return Result{Kind: ResultDraw}, true
	default:
		return r, false
	}
	if !strings.ContainsAny(s, "胜勝승") {
		return r, false
	}
	switch {
	case strings.Contains(s, "中盘") || strings.Contains(s, "中押") || strings.Contains(s, "불계"):
		r.Kind = ResultResign
	case strings.Contains(s, "超时") || strings.Contains(s, "時間") || strings.Contains(s, "시간"):
		r.Kind = ResultTime
	default:
		r.Kind = ResultWin
	}
	return r, true
}

// String returns the result in canonical FF[4] form ("B+3.5", "W+R", "0", ...).
func (r Result) String() string {
	switch r.Kind {
	case ResultDraw:
		return "0"
	case ResultVoid:
		return "Void"
	case ResultUnknown:
		return "?"
	}
	s := r.Winner.String() + "+"
	switch r.Kind {
	case ResultScore:
		return s + strconv.FormatFloat(r.Score, 'f', -1, 64)
	case ResultResign:
		return s + "R"
	case ResultTime:
		return s + "T"
	case ResultForfeit:
		return s + "F"
	}
	return s
}

// Date is one date of DT. Month and Day are 0 when the date gives only a
// year, or a year and month.
type Date struct{ Year, Month, Day int }

// String formats the date as ISO 8601 (YYYY, YYYY-MM or YYYY-MM-DD).
func (d Date) String() string {
	switch {
	case d.Month == 0:
		return fmt.Sprintf("%04d", d.Year)
	case d.Day == 0:
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
}

// ParseDates reads a DT value: a comma-separated list of ISO dates where, as
// FF[4] allows, later entries may leave out what they share with the entry
// before ("1996-05-06,07,08" is three days, "1996-05,06" two months,
// "1996-12-27,1997-01-03" two full dates, "1996-05-06,11-12" May 6 and
// November 12).
func ParseDates(raw string) ([]Date, error) {
	var ds []Date
	var prev Date
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		fields := strings.Split(part, "-")
		nums := make([]int, len(fields))
		for i, f := range fields {
			v, err := strconv.Atoi(f)
			if err != nil || f == "" || f[0] == '+' {
				return ds, fmt.Errorf("date %q is not YYYY-MM-DD", clip(raw))
			}
			nums[i] = v
			want := 2
			if i == 0 && len(f) == 4 {
				want = 4
			}
			if len(f) != want {
				return ds, fmt.Errorf("date %q is not YYYY-MM-DD", clip(raw))
			}
		}
		var d Date
		year := len(fields[0]) == 4
		switch {
		case year && len(nums) == 1:
			d = Date{Year: nums[0]}
		case year && len(nums) == 2:
			d = Date{Year: nums[0], Month: nums[1]}
		case year && len(nums) == 3:
			d = Date{nums[0], nums[1], nums[2]}
		case !year && prev.Year == 0:
			return ds, fmt.Errorf("date %q: a shortened date needs a full one before it", clip(raw))
		case !year && len(nums) == 2 && prev.Day != 0:
			d = Date{prev.Year, nums[0], nums[1]}
		case !year && len(nums) == 1 && prev.Day != 0:
			d = Date{prev.Year, prev.Month, nums[0]}
		case !year && len(nums) == 1 && prev.Month != 0:
			d = Date{Year: prev.Year, Month: nums[0]}
		default:
			return ds, fmt.Errorf("date %q: %q does not follow from the date before", clip(raw), part)
		}
		if d.Month < 0 || d.Month > 12 || d.Day < 0 || d.Day > 31 || (d.Month == 0 && d.Day != 0) {
			return ds, fmt.Errorf("date %q: month or day out of range", clip(raw))
		}
		if len(fields) > 1 && d.Month == 0 {
			return ds, fmt.Errorf("date %q: month or day out of range", clip(raw))
		}
		ds = append(ds, d)
		prev = d
	}
	return ds, nil
}

// TimeLeft returns the time left for colour c after the move in n (BL or WL,
// in seconds) and whether n records it.
func (n *Node) TimeLeft(c Color) (float64, bool) {
	id := "BL"
	if c == White {
		id = "WL"
	}
	v, ok := n.Value(id)
	if !ok {
		return 0, false
	}
	f, err := parseReal(UnescapeSimpleText(v))
	return f, err == nil
}

// OvertimeLeft returns the moves (or periods) left for colour c in the
// current overtime period (OB or OW) and whether n records it.
func (n *Node) OvertimeLeft(c Color) (int, bool) {
	id := "OB"
	if c == White {
		id = "OW"
	}
	v, ok := n.Value(id)
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(strings.TrimSpace(UnescapeSimpleText(v)))
	return k, err == nil
}

// SetGameInfo writes info into root n as SGF properties, replacing those
// present. Empty strings and zero values leave a property out, except SZ
// (always written) and KM (written when HasKomi). DT is Date, or Dates in
// full ISO form when Date is empty.
func (n *Node) SetGameInfo(info GameInfo) {
	n.Set("GM", "1")
	w, h := info.Width, info.Height
	if w == 0 {
		w, h = 19, 19
	}
	if w == h {
		n.Set("SZ", strconv.Itoa(w))
	} else {
		n.Set("SZ", strconv.Itoa(w)+":"+strconv.Itoa(h))
	}
	if info.HasKomi {
		n.Set("KM", strconv.FormatFloat(info.Komi, 'f', -1, 64))
	}
	if info.Handicap >= 2 {
		n.Set("HA", strconv.Itoa(info.Handicap))
	}
	if info.HasResult {
		n.Set("RE", info.Result.String())
	}
	if info.Date == "" && len(info.Dates) > 0 {
		ds := make([]string, len(info.Dates))
		for i, d := range info.Dates {
			ds[i] = d.String()
		}
		info.Date = strings.Join(ds, ",")
	}
	if info.HasTimeLimit {
		n.Set("TM", strconv.FormatFloat(info.TimeLimit, 'f', -1, 64))
	}
	for _, kv := range []struct{ id, v string }{
		{"AP", info.Application}, {"RU", info.Rules},
		{"PB", info.BlackName}, {"BR", info.BlackRank}, {"BT", info.BlackTeam},
		{"PW", info.WhiteName}, {"WR", info.WhiteRank}, {"WT", info.WhiteTeam},
		{"DT", info.Date}, {"OT", info.Overtime}, {"GN", info.GameName},
		{"EV", info.Event}, {"RO", info.Round}, {"PC", info.Place}, {"SO", info.Source},
		{"US", info.User}, {"AN", info.Annotator}, {"CP", info.Copyright}, {"ON", info.Opening},
	} {
		if kv.v != "" {
			n.SetSimpleText(kv.id, kv.v)
		}
	}
	if info.GameComment != "" {
		n.SetText("GC", info.GameComment)
	}
}
