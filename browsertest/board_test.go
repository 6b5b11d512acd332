package browsertest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen/goban"
)

// TestStarPointsMatchGoban compares board.js's star points with
// goban.StarPoints for every board size from 5×5 to 25×25, rectangular ones
// included.
func TestStarPointsMatchGoban(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	got := eval[map[string][][2]int](p, `(async () => {
		const m = await import("/static/js/board.js");
		const out = {};
		for (let w = 5; w <= 25; w++) for (let h = 5; h <= 25; h++) {
			out[w + "x" + h] = m.starPoints(w, h).map((p) => [p.x, p.y]);
		}
		return out;
	})()`)
	for w := 5; w <= 25; w++ {
		for h := 5; h <= 25; h++ {
			var want []string
			for _, pt := range goban.StarPoints(w, h) {
				want = append(want, fmt.Sprint(pt.X, pt.Y))
			}
			var have []string
			for _, pt := range got[fmt.Sprintf("%dx%d", w, h)] {
				have = append(have, fmt.Sprint(pt[0], pt[1]))
			}
			slices.Sort(want)
			slices.Sort(have)
			if !slices.Equal(want, have) {
				t.Errorf("%d×%d: board.js star points %v, goban %v", w, h, have, want)
			}
		}
	}
}

// contrastOfHeaderLinks is the lowest WCAG contrast ratio of the page
// header's links against the header's background.
const contrastOfHeaderLinks = `(() => {
	const lum = (css) => {
		const c = css.match(/[\d.]+/g).slice(0, 3).map((v) => {
			v = Number(v) / 255;
			return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
		});
		return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
	};
	const bg = lum(getComputedStyle(document.querySelector("header.top")).backgroundColor);
	let min = Infinity;
	for (const a of document.querySelectorAll("header.top nav a, header.top nav button")) {
		const fg = lum(getComputedStyle(a).color);
		min = Math.min(min, (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05));
	}
	return min;
})()`

// boardDemo is a 19×19 position: a few stones, a last move, a dead white
// stone and territory marks, as the scoring phase shows them.
const boardDemo = `(async () => {
	const m = await import("/static/js/board.js");
	document.querySelector("main").replaceChildren();
	const holder = document.createElement("div");
	holder.id = "test-board";
	holder.style.maxWidth = "min(600px, 100%%)";
	document.querySelector("main").appendChild(holder);
	window.clicks = [];
	window.invalid = [];
	const rows = [
		"...................",
		"...................",
		"...B...........W...",
		"...............W...",
		"..B............BW..",
		"...................",
		"...................",
		"...................",
		"...................",
		".........B.........",
		"...................",
		"...................",
		"...................",
		"...................",
		"..W.............B..",
		"...W...........B...",
		"...B...........W...",
		"...................",
		"...................",
	];
	const board = new m.Board(holder, {
		width: %d, height: %d, label: "test board",
		onClick: (p) => window.clicks.push(p),
		onInvalid: (msg) => window.invalid.push(msg),
		entry: {label: "Point", button: "Play", invalid: "bad point"},
	});
	window.board = board;
	board.update({
		stones: rows.slice(0, %d).map((r) => r.slice(0, %d)),
		lastMove: {x: 9, y: 9},
		dead: [{x: 15, y: 16}],
		seki: [{x: 2, y: 14}],
		territory: {black: [{x: 0, y: 0}, {x: 1, y: 0}], white: [{x: 18, y: 18}]},
		numbers: [],
	});
	return true;
})()`

func TestBoardRendering(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	eval[bool](p, fmt.Sprintf(boardDemo, 19, 19, 19, 19))

	count := func(sel string) int {
		return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	for _, c := range []struct {
		sel  string
		want int
	}{
		{"#test-board svg .stone.black", 7},
		{"#test-board svg .stone.white", 6},
		{"#test-board svg .star", 9},
		{"#test-board svg .last-move", 1},
		{`#test-board svg .last-move[data-point="K10"]`, 1},
		{"#test-board svg .dead-mark", 1},
		{`#test-board svg .seki-mark[data-point="C5"]`, 1},
		{`#test-board svg .dead-mark[data-point="Q3"]`, 1},
		{"#test-board svg .terr-black", 2},
		{"#test-board svg .terr-white", 1},
		{"#test-board svg .coord", 4 * 19},
		{`#test-board svg .stone.black[data-point="D17"]`, 1},
	} {
		if got := count(c.sel); got != c.want {
			t.Errorf("%s: %d elements, want %d", c.sel, got, c.want)
		}
	}
	// Screen readers get the stones from the board's name, not the frame's labels.
	if got := count(`#test-board svg .coord:not([aria-hidden="true"])`); got != 0 {
		t.Errorf("%d coordinate labels visible to screen readers", got)
	}
	const wantName = "test board. Black: D17, C15, Q15, K10, R5, Q4, D3. White: Q17, Q16, R15, C5, D4, Q3"
	if got := eval[string](p, `document.querySelector("#test-board svg").getAttribute("aria-label")`); got != wantName {
		t.Errorf("board's accessible name %q, want %q", got, wantName)
	}
	// Header links on the wood reach WCAG AA contrast (4.5:1).
	if got := eval[float64](p, contrastOfHeaderLinks); got < 4.5 {
		t.Errorf("header links' contrast on the wood %.2f:1, want at least 4.5:1", got)
	}
	letters := eval[string](p, `[...document.querySelectorAll("#test-board svg .coord")].slice(0, 38).filter((_, i) => i % 2 === 0).map((e) => e.textContent).join("")`)
	if letters != "ABCDEFGHJKLMNOPQRST" {
		t.Errorf("column letters %q, want A–T without I", letters)
	}

	// A click on a point's screen position reports that point.
	x, y := pointCenter(t, p, 3, 15) // D4
	p.do("click D4", chromedp.MouseClickXY(x, y))
	if got := eval[string](p, `JSON.stringify(window.clicks)`); got != `[{"x":3,"y":15}]` {
		t.Errorf("clicks after clicking D4: %s", got)
	}

	// Keyboard entry: a valid coordinate acts as a click, a bad one
	// reports the message.
	p.do("type q16", chromedp.SetValue(chromedp.CSS(".board-entry input"), "q16"), chromedp.Click(chromedp.CSS(".board-entry button")))
	p.do("type I5", chromedp.SetValue(chromedp.CSS(".board-entry input"), "I5"), chromedp.Click(chromedp.CSS(".board-entry button")))
	p.do("type Z1", chromedp.SetValue(chromedp.CSS(".board-entry input"), "Z1"), chromedp.Click(chromedp.CSS(".board-entry button")))
	if got := eval[string](p, `JSON.stringify(window.clicks)`); got != `[{"x":3,"y":15},{"x":15,"y":3}]` {
		t.Errorf("clicks after typing q16, I5, Z1: %s", got)
	}
	if got := eval[int](p, `window.invalid.length`); got != 2 {
		t.Errorf("%d invalid entries reported, want 2 (I5, Z1)", got)
	}

	// The coordinates toggle changes the frame, not the stones.
	vb := eval[string](p, `document.querySelector("#test-board svg").getAttribute("viewBox")`)
	eval[bool](p, `(window.board.setCoordinates(false), true)`)
	if got := count("#test-board svg .coord"); got != 0 {
		t.Errorf("%d coordinates after hiding them", got)
	}
	if vb2 := eval[string](p, `document.querySelector("#test-board svg").getAttribute("viewBox")`); vb2 == vb {
		t.Errorf("viewBox %q unchanged after hiding coordinates", vb)
	}
	if got := count("#test-board svg .stone"); got != 13 {
		t.Errorf("%d stones after hiding coordinates, want 13", got)
	}
	eval[bool](p, `(window.board.setCoordinates(true), true)`)

	// Move numbers replace the last-move ring.
	eval[bool](p, `(window.board.update({numbers: Object.assign([], {180: 7})}), window.board.setMoveNumbers(true), true)`)
	if got := eval[string](p, `[...document.querySelectorAll("#test-board svg .number")].map((e) => e.textContent).join(",")`); got != "7" {
		t.Errorf("move numbers shown: %q, want 7", got)
	}
	if got := count("#test-board svg .last-move"); got != 0 {
		t.Errorf("%d last-move rings with move numbers on", got)
	}
	eval[bool](p, `(window.board.setMoveNumbers(false), true)`)

	// The hover stone follows the pointer on empty points only.
	eval[bool](p, `(window.board.update({hoverColor: 2}), true)`)
	hx, hy := pointCenter(t, p, 5, 5)
	p.do("hover", chromedp.MouseEvent("mouseMoved", hx, hy))
	p.waitFor("hover stone", `document.querySelectorAll("#test-board svg .hover-stone").length === 1`)
	sx, sy := pointCenter(t, p, 9, 9)
	p.do("hover stone", chromedp.MouseEvent("mouseMoved", sx, sy))
	p.waitFor("no hover stone on a stone", `document.querySelectorAll("#test-board svg .hover-stone").length === 0`)

	// On a touch screen the first tap shows the stone, the second plays it.
	eval[bool](p, `(window.clicks = [], true)`)
	p.do("touch screen", chromedp.EmulateViewport(1280, 900, chromedp.EmulateTouch))
	tx, ty := pointCenter(t, p, 6, 6)
	p.do("first tap", chromedp.TapXY(tx, ty))
	p.waitFor("the candidate stone", `document.querySelectorAll("#test-board svg .hover-stone").length === 1`)
	if got := eval[string](p, `JSON.stringify(window.clicks)`); got != `[]` {
		t.Errorf("clicks after one tap: %s", got)
	}
	p.do("second tap", chromedp.TapXY(tx, ty))
	p.waitFor("the move", `JSON.stringify(window.clicks) === '[{"x":6,"y":6}]'`)
	// Without a hover stone (not the player's move) a tap acts at once.
	eval[bool](p, `(window.board.update({hoverColor: 0}), true)`)
	p.do("tap", chromedp.TapXY(tx, ty))
	p.waitFor("the click", `window.clicks.length === 2`)

	for _, vp := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		p.do("viewport "+vp.name, chromedp.EmulateViewport(vp.w, vp.h))
		// The board fits the viewport's width.
		bw := eval[float64](p, `document.querySelector("#test-board svg").getBoundingClientRect().width`)
		if bw <= 0 || bw > float64(vp.w) {
			t.Errorf("%s: board %v px wide in a %d px viewport", vp.name, bw, vp.w)
		}
		path := p.screenshot("tengen-board-" + vp.name + ".png")
		t.Logf("%s screenshot: %s", vp.name, path)
	}
}

// TestBoardSizes draws every size from 5×5 to 25×25 and some rectangles and
// checks the grid and the coordinates.
func TestBoardSizes(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	got := eval[[]string](p, `(async () => {
		const m = await import("/static/js/board.js");
		const out = [];
		const sizes = [];
		for (let n = 5; n <= 25; n++) sizes.push([n, n]);
		sizes.push([9, 13], [25, 5], [7, 19]);
		for (const [w, h] of sizes) {
			const div = document.createElement("div");
			document.body.appendChild(div);
			const b = new m.Board(div, {width: w, height: h});
			const svg = div.querySelector("svg");
			const coords = [...svg.querySelectorAll(".coord")].map((e) => e.textContent);
			const [, , vw, vh] = svg.getAttribute("viewBox").split(" ").map(Number);
			out.push(w + "x" + h + ":" + coords.length + ":" + coords.includes(String(h)) + ":" +
				coords.includes(m.COLUMN_LETTERS[w - 1]) + ":" + (Math.abs(vw / vh - (w + 1.6) / (h + 1.6)) < 1e-9));
			div.remove();
		}
		return out;
	})()`)
	var sizes [][2]int
	for n := 5; n <= 25; n++ {
		sizes = append(sizes, [2]int{n, n})
	}
	sizes = append(sizes, [2]int{9, 13}, [2]int{25, 5}, [2]int{7, 19})
	if len(got) != len(sizes) {
		t.Fatalf("%d boards drawn, want %d", len(got), len(sizes))
	}
	for i, sz := range sizes {
		want := fmt.Sprintf("%dx%d:%d:true:true:true", sz[0], sz[1], 2*(sz[0]+sz[1]))
		if got[i] != want {
			t.Errorf("board %d×%d: got %s, want %s", sz[0], sz[1], got[i], want)
		}
	}
}

// pointCenter returns the viewport position of a board point.
func pointCenter(t *testing.T, p *person, x, y int) (float64, float64) {
	t.Helper()
	xy := eval[[2]float64](p, fmt.Sprintf(`(() => {
		const b = window.board;
		const m = b.svg.getScreenCTM();
		const pt = new DOMPoint(b.px(%d), b.py(%d)).matrixTransform(m);
		return [pt.x, pt.y];
	})()`, x, y))
	return xy[0], xy[1]
}

// TestReplayMatchesGoban checks the replay of game.js (used for the move
// navigation of finished games) against goban: random games on 9×9 with
// handicap stones, captures and multi-stone suicides, compared after every
// tenth move, stones and captures.
func TestReplayMatchesGoban(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	type move struct {
		Seq   int    `json:"seq"`
		Color string `json:"color"`
		Kind  string `json:"kind"`
		X     int    `json:"x"`
		Y     int    `json:"y"`
	}
	type check struct {
		Upto     int    `json:"upto"`
		Stones   string `json:"stones"`
		Captures [2]int `json:"captures"`
	}
	const size = 9
	rng := rand.New(rand.NewPCG(4, 9))
	handicap := [][2]int{{2, 6}, {6, 2}}
	for game := 0; game < 4; game++ {
		b := goban.MustNewBoard(size, size)
		if err := b.Setup(goban.Black, goban.Point{X: 2, Y: 6}, goban.Point{X: 6, Y: 2}); err != nil {
			t.Fatal(err)
		}
		var moves []move
		var checks []check
		c := goban.White
		for len(moves) < 400 {
			var pts []goban.Point
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					pt := goban.Point{X: x, Y: y}
					if b.Check(b.Loc(pt), c, true) == nil {
						pts = append(pts, pt)
					}
				}
			}
			if len(pts) == 0 {
				break
			}
			pt := pts[rng.IntN(len(pts))]
			b.Play(b.Loc(pt), c)
			moves = append(moves, move{Seq: len(moves) + 1, Color: map[goban.Color]string{goban.Black: "black", goban.White: "white"}[c], Kind: "play", X: pt.X, Y: pt.Y})
			if rng.IntN(15) == 0 {
				moves = append(moves, move{Seq: len(moves) + 1, Color: map[goban.Color]string{goban.Black: "white", goban.White: "black"}[c], Kind: "pass"})
			} else {
				c = c.Opponent()
			}
			if len(moves)%10 == 0 {
				var sb strings.Builder
				for y := 0; y < size; y++ {
					for x := 0; x < size; x++ {
						sb.WriteString(map[goban.Color]string{goban.Empty: "0", goban.Black: "1", goban.White: "2"}[b.At(goban.Point{X: x, Y: y})])
					}
				}
				checks = append(checks, check{Upto: len(moves), Stones: sb.String(), Captures: [2]int{b.Prisoners(goban.Black), b.Prisoners(goban.White)}})
			}
		}
		data, _ := json.Marshal(map[string]any{"moves": moves, "checks": checks, "handicap": handicap})
		got := eval[[]string](p, fmt.Sprintf(`(async () => {
			const {replay} = await import("/static/js/game.js");
			const d = %s;
			const bad = [];
			for (const c of d.checks) {
				const r = replay(%d, {stones: 2, points: d.handicap, free: false}, d.moves.slice(0, c.upto));
				const stones = r.stones.join("");
				if (stones !== c.stones || r.captures.black !== c.captures[0] || r.captures.white !== c.captures[1]) {
					bad.push(c.upto + ": " + stones + " " + JSON.stringify(r.captures) + " want " + c.stones + " " + c.captures);
				}
			}
			return bad;
		})()`, data, size))
		for _, g := range got {
			t.Errorf("game %d, after move %s", game, g)
		}
		if len(checks) < 10 {
			t.Errorf("game %d: only %d checks", game, len(checks))
		}
	}
}

// TestClockFaces checks what clock.js shows for every kind of time control,
// at given moments of the server's clock.
func TestClockFaces(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	type side struct {
		MainMs   int64 `json:"mainMs"`
		Overtime bool  `json:"overtime"`
		Periods  int   `json:"periods"`
		PeriodMs int64 `json:"periodMs"`
		Stones   int   `json:"stones"`
		TimedOut bool  `json:"timedOut"`
	}
	type tc struct {
		PeriodTime int `json:"periodTime"`
		Stones     int `json:"stones"`
	}
	const day = 86400000
	for _, c := range []struct {
		name    string
		kind    string
		running bool // the clock runs for the side shown
		elapsed int64
		side    side
		tc      tc
		want    string
		low     bool
	}{
		{"absolute running", "absolute", true, 1500, side{MainMs: 600000}, tc{}, "9:59", false},
		{"absolute waiting", "absolute", false, 5000, side{MainMs: 600000}, tc{}, "10:00", false},
		{"absolute hours", "absolute", false, 0, side{MainMs: 3723000}, tc{}, "1:02:03", false},
		{"absolute low", "absolute", true, 595000, side{MainMs: 600000}, tc{}, "0:05", true},
		{"absolute past zero", "absolute", true, 700000, side{MainMs: 600000}, tc{}, "0:00", true},
		{"fischer bank", "fischer", true, 0, side{MainMs: 65000}, tc{}, "1:05", false},
		{"byo-yomi main time", "byoyomi", true, 4000, side{MainMs: 10000, Periods: 5, PeriodMs: 30000}, tc{PeriodTime: 30}, "0:06 | 5 × 0:30", false},
		{"byo-yomi into the first period", "byoyomi", true, 15000, side{MainMs: 10000, Periods: 5, PeriodMs: 30000}, tc{PeriodTime: 30}, "0:25 | (5)", false},
		{"byo-yomi a period used up", "byoyomi", true, 45000, side{MainMs: 10000, Periods: 5, PeriodMs: 30000}, tc{PeriodTime: 30}, "0:25 | (4)", false},
		{"byo-yomi last period", "byoyomi", true, 3000, side{Overtime: true, Periods: 1, PeriodMs: 8000}, tc{PeriodTime: 30}, "0:05 | (1)", true},
		{"byo-yomi last period over", "byoyomi", true, 9000, side{Overtime: true, Periods: 1, PeriodMs: 8000}, tc{PeriodTime: 30}, "0:00 | (1)", true},
		{"byo-yomi waiting in overtime", "byoyomi", false, 9000, side{Overtime: true, Periods: 3, PeriodMs: 30000}, tc{PeriodTime: 30}, "0:30 | (3)", false},
		{"canadian in overtime", "canadian", true, 60000, side{Overtime: true, PeriodMs: 300000, Stones: 10}, tc{PeriodTime: 600, Stones: 25}, "4:00 | / 10", false},
		{"canadian into overtime", "canadian", true, 7000, side{MainMs: 5000, PeriodMs: 600000}, tc{PeriodTime: 600, Stones: 25}, "9:58 | / 25", false},
		{"canadian main time", "canadian", true, 1000, side{MainMs: 5000, PeriodMs: 600000}, tc{PeriodTime: 600, Stones: 25}, "0:04", false},
		{"correspondence", "correspondence", false, 0, side{MainMs: 3*day + 3600000}, tc{}, "3 d 1:00:00", false},
		{"correspondence last hour", "correspondence", true, 3*day + 1800000, side{MainMs: 3*day + 3600000}, tc{}, "0 d 0:30:00", true},
		{"correspondence a day less half a second", "correspondence", true, 500, side{MainMs: day}, tc{}, "1 d 0:00:00", false},
		{"timed out", "byoyomi", false, 0, side{TimedOut: true}, tc{PeriodTime: 30}, "T/O", true},
	} {
		since := "2026-11-21T06:00:00Z"
		clock := map[string]any{"kind": c.kind, "running": "", "black": c.side, "white": side{}}
		if c.running {
			clock["running"] = "black"
			clock["runningSince"] = since
		}
		cj, _ := json.Marshal(clock)
		tj, _ := json.Marshal(c.tc)
		got := eval[map[string]any](p, fmt.Sprintf(`(async () => {
			const {clockFace} = await import("/static/js/clock.js");
			const T = {clockPeriods: "%%d × %%s", clockOvertime: "(%%d)", clockStones: "/ %%d", clockDays: "%%d d %%s", timedOut: "T/O"};
			const r = clockFace(T, %s, "black", %s, Date.parse(%q) + %d);
			return {text: r.detail ? r.text + " | " + r.detail : r.text, low: r.low};
		})()`, cj, tj, since, c.elapsed))
		if got["text"] != c.want || got["low"] != c.low {
			t.Errorf("%s: shows %v (low %v), want %q (low %v)", c.name, got["text"], got["low"], c.want, c.low)
		}
	}
}

// TestPastClockFaces checks the clocks the replay shows: the time stored with
// each player's last move so far, or the starting time.
func TestPastClockFaces(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "viewer")
	p.open("/login")
	got := eval[[]string](p, `(async () => {
		const {pastClockFace} = await import("/static/js/clock.js");
		const T = {clockPeriods: "%d × %s", clockOvertime: "(%d)", clockStones: "/ %d", clockDays: "%d d %s", timedOut: "T/O"};
		const moves = [
			{color: "black", clock: {mainTime: 55.5, overtime: false, periods: 3, periodLeft: 30, stones: 0}},
			{color: "white", clock: {mainTime: 0, overtime: true, periods: 2, periodLeft: 12.25, stones: 0}},
			{color: "black", kind: "pass"},
		];
		const tc = {kind: "byoyomi", mainTime: 60, periods: 3, periodTime: 30};
		const show = (r) => r.detail ? r.text + " | " + r.detail : r.text;
		return [
			show(pastClockFace(T, "byoyomi", tc, [], "black")),
			show(pastClockFace(T, "byoyomi", tc, moves.slice(0, 1), "black")),
			show(pastClockFace(T, "byoyomi", tc, moves.slice(0, 1), "white")),
			show(pastClockFace(T, "byoyomi", tc, moves, "white")),
			show(pastClockFace(T, "byoyomi", tc, moves, "black")),
			show(pastClockFace(T, "correspondence", {daysPerMove: 3, maxDays: 10}, [], "black")),
			show(pastClockFace(T, "canadian", {mainTime: 0, stones: 25, periodTime: 600}, [{color: "white", clock: {mainTime: 0, overtime: true, periodLeft: 300, stones: 7}}], "white")),
		];
	})()`)
	want := []string{"1:00 | 3 × 0:30", "0:56 | 3 × 0:30", "1:00 | 3 × 0:30", "0:13 | (2)", "0:56 | 3 × 0:30", "3 d 0:00:00", "5:00 | / 7"}
	if !slices.Equal(got, want) {
		t.Errorf("past clocks:\n got %q\nwant %q", got, want)
	}
}
