package browsertest

import (
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tengen"
)

// signup registers a user through the sign-up form.
func (p *person) signup(password string) {
	p.t.Helper()
	p.open("/signup")
	p.do("sign up",
		chromedp.SetValue(chromedp.CSS(`input[name="name"]`), p.name),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), password),
		chromedp.SetValue(chromedp.CSS(`input[name="password2"]`), password),
		chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)),
	)
	p.waitFor("the lobby after sign-up", `location.pathname === "/" && !!document.getElementById("challenge-form")`)
}

// login logs a user in through the log-in form.
func (p *person) login(name, password string) {
	p.t.Helper()
	p.open("/login")
	p.do("log in",
		chromedp.SetValue(chromedp.CSS(`input[name="name"]`), name),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), password),
		chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)),
	)
	p.waitFor("the lobby after log-in", `location.pathname === "/" && !!document.getElementById("challenge-form")`)
}

// gameState reads the server's snapshot of a game over the HTTP API, as a
// spectator, to compare the pages with.
func (s *site) gameState(t *testing.T, id int64) *tengen.GameSnapshot {
	t.Helper()
	resp, err := nethttp.Get(fmt.Sprintf("%s/api/v1/games/%d/state", s.url, id))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("state of game %d: %d %s", id, resp.StatusCode, data)
	}
	var out struct{ State *tengen.GameSnapshot }
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("state: %v in %s", err, data)
	}
	return out.State
}

// clickPoint clicks a point of the game page's board where it is on the
// screen.
func (p *person) clickPoint(x, y int) {
	p.t.Helper()
	p.clickBoardPoint("#board svg", x, y)
}

// clickBoardPoint clicks point (x, y) of the board drawn in the SVG that
// selector finds.
func (p *person) clickBoardPoint(selector string, x, y int) {
	p.t.Helper()
	xy := p.boardPointXY(selector, x, y)
	p.do(fmt.Sprintf("click (%d,%d)", x, y), chromedp.MouseClickXY(xy[0], xy[1]))
}

// tapPoint taps point (x, y) of the game's board as a finger does.
func (p *person) tapPoint(x, y int) {
	p.t.Helper()
	xy := p.boardPointXY("#board svg", x, y)
	p.do(fmt.Sprintf("tap (%d,%d)", x, y), chromedp.TapXY(xy[0], xy[1]))
}

// boardPointXY scrolls the board that selector finds into view and
// returns the page coordinates of point (x, y) on it.
func (p *person) boardPointXY(selector string, x, y int) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => {
		const svg = document.querySelector(%q);
		svg.scrollIntoView({block: "nearest"});
		const m = Number(svg.dataset.margin), cell = Number(svg.dataset.cell);
		const pt = new DOMPoint((m + %d) * cell, (m + %d) * cell).matrixTransform(svg.getScreenCTM());
		return [pt.x, pt.y];
	})()`, selector, x, y))
}

// typePoint enters a coordinate in the board's keyboard field.
func (p *person) typePoint(name string) {
	p.t.Helper()
	p.do("type "+name,
		chromedp.SetValue(chromedp.CSS(".board-entry input"), name),
		chromedp.Click(chromedp.CSS(".board-entry button")),
	)
}

func (p *person) waitMoves(n int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("move %d", n), fmt.Sprintf(`document.getElementById("game").dataset.moveCount === "%d"`, n))
}

// stonesShown returns the points of the stones a page shows, per colour, in
// GTP names.
func (p *person) stonesShown() map[string]string {
	return eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll("#board svg .stone")].map((e) =>
		[e.dataset.point, e.classList.contains("black") ? "B" : "W"]))`)
}

// stonesOf returns the stones of a board in the snapshot's row format.
func stonesOf(rows []string) map[string]string {
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	out := map[string]string{}
	for y, row := range rows {
		for x, c := range row {
			if c == 'B' || c == 'W' {
				out[fmt.Sprintf("%c%d", letters[x], len(rows)-y)] = string(c)
			}
		}
	}
	return out
}

func sameStones(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// startGame has alice challenge anyone to a 9×9 game with Japanese rules
// in which she takes Black, with ten minutes absolute time; bob accepts in
// the lobby, which opens the game, and alice follows the lobby's notice.
// Both end on the game page; it returns the game's id.
// Fields of the challenge form given as name=value replace those settings;
// name=click clicks a check box.
func startGame(t *testing.T, alice, bob *person, fields ...string) int64 {
	t.Helper()
	alice.open("/")
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="boardSize"]`), "9"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="ruleset"]`), "japanese"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="color"]`), "black"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="tcKind"]`), "absolute"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="mainMinutes"]`), "10"),
	}
	for _, f := range fields {
		name, value, _ := strings.Cut(f, "=")
		sel := chromedp.CSS(fmt.Sprintf(`#challenge-form [name=%q]`, name))
		if value == "click" { // a check box
			steps = append(steps, chromedp.Click(sel))
			continue
		}
		steps = append(steps, chromedp.SetValue(sel, value))
	}
	steps = append(steps, chromedp.Click(chromedp.CSS(`#challenge-form button[type="submit"]`)))
	alice.do("challenge", steps...)
	alice.waitFor("her challenge in the lobby", `!!document.querySelector("#challenge-list form[action$='/cancel']")`)

	// Bob sees it and accepts; the accept form opens the game.
	bob.open("/")
	bob.do("accept", chromedp.Click(chromedp.CSS(`#challenge-list form[action$="/accept"] button`)))
	bob.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && document.getElementById("game").dataset.status === "playing"`)
	loc := eval[string](bob, `location.pathname`)
	gameID, _ := strconv.ParseInt(strings.TrimPrefix(loc, "/games/"), 10, 64)

	// Alice's lobby notices the new game by itself and links to it.
	alice.waitFor("the new-game notice", `!document.getElementById("new-game").hidden`)
	alice.do("open the game", chromedp.Click(chromedp.CSS(`#new-game a`)))
	alice.waitFor("the game page", fmt.Sprintf(`location.pathname === "/games/%d" && document.getElementById("game").dataset.moveCount === "0"`, gameID))
	return gameID
}

// TestGameFlow is issue 4's browser test: two people in two browser
// contexts sign up, one challenges on 9×9, the other accepts, they play to
// two passes (with a reload, an illegal move and a move typed on the
// keyboard on the way), mark a dead group, both accept, and the result and
// the SGF are right.
func TestGameFlow(t *testing.T) {
	start := time.Now()
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	// Bob plays on a phone-sized screen.
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")

	gameID := startGame(t, alice, bob)
	if got := eval[string](alice, `document.getElementById("status").textContent`); got != "Your move." {
		t.Errorf("alice's status before the first move: %q", got)
	}
	if a, b := eval[string](alice, `document.title`), eval[string](bob, `document.title`); a != "Your move · alice – bob · Tengen" || b != "alice – bob · Tengen" {
		t.Errorf("titles before the first move: alice %q, bob %q", a, b)
	}
	if got := eval[string](bob, `document.getElementById("status").textContent`); got != "Black to move." {
		t.Errorf("bob's status before the first move: %q", got)
	}
	clockRe := regexp.MustCompile(`^(9:[0-5]\d|10:00)$`)
	for _, p := range []*person{alice, bob} {
		for _, c := range []string{"black", "white"} {
			if got := eval[string](p, fmt.Sprintf(`document.getElementById("clock-%s").textContent`, c)); !clockRe.MatchString(got) {
				t.Errorf("%s sees %s's clock %q, want about 10:00", p.name, c, got)
			}
		}
	}

	// Bob's "my games" page, on a second device, follows the game.
	bob2 := s.person(t, "bob's phone")
	bob2.login("bob", "bob-password")
	bob2.open("/me/games")
	bob2.waitFor("the game, alice to move", fmt.Sprintf(`!!document.querySelector('#mygames tr[data-game-id="%d"]:not(.your-turn)')`, gameID))

	// Black builds a wall on the E line, White on the F line.
	seq := 0
	play := func(p *person, x, y int) {
		t.Helper()
		p.clickPoint(x, y)
		seq++
		alice.waitMoves(seq)
		bob.waitMoves(seq)
	}
	play(alice, 4, 0)
	// White's clock runs now, counted down on the page.
	w0 := eval[string](bob, `document.getElementById("clock-white").textContent`)
	bob.waitFor("white's clock to run", fmt.Sprintf(`document.getElementById("clock-white").textContent !== %q`, w0))
	if b := eval[string](bob, `document.getElementById("clock-black").textContent`); !clockRe.MatchString(b) {
		t.Errorf("black's clock after her move: %q", b)
	}
	bob2.waitFor("bob's turn in my games", fmt.Sprintf(`!!document.querySelector('#mygames tr[data-game-id="%d"].your-turn')`, gameID))

	// A click out of turn is refused on the page; an occupied point by the
	// server, with the reason.
	alice.clickPoint(6, 6)
	alice.waitFor("not your turn", `document.getElementById("game-error").textContent === "It is not your turn."`)
	bob.clickPoint(4, 0)
	bob.waitFor("the illegal move's reason", `!document.getElementById("game-error").hidden && /occupied/.test(document.getElementById("game-error").textContent)`)
	if got := eval[string](bob, `document.getElementById("game").dataset.moveCount`); got != "1" {
		t.Errorf("after the illegal move the page shows %s moves", got)
	}

	// On his phone the first tap shows the stone and says to tap again; the
	// second plays it.
	bob.tapPoint(5, 0)
	bob.waitFor("the tap-again hint", `document.getElementById("status").textContent.includes("Tap F9 again to play there.")`)
	if got := eval[string](bob, `document.getElementById("game").dataset.moveCount`); got != "1" {
		t.Errorf("one tap played a move: %s moves", got)
	}
	bob.tapPoint(5, 0)
	seq++
	alice.waitMoves(seq)
	bob.waitMoves(seq)
	if got := eval[string](bob, `document.getElementById("status").textContent`); strings.Contains(got, "Tap") {
		t.Errorf("the hint stays after the move: %q", got)
	}
	for y := 1; y < 9; y++ {
		if y == 4 {
			// The keyboard field plays too: E5 is (4, 4).
			alice.typePoint("e5")
			seq++
			alice.waitMoves(seq)
			bob.waitMoves(seq)
		} else {
			play(alice, 4, y)
		}
		if y == 5 {
			// A reload in the middle of the game shows the same board.
			bob.do("reload", chromedp.Reload())
			bob.waitMoves(seq)
		}
		play(bob, 5, y)
	}
	st := s.gameState(t, gameID)
	if got := bob.stonesShown(); !sameStones(got, stonesOf(st.Board)) || len(got) != 18 {
		t.Errorf("bob's board after the walls: %v, server: %v", got, st.Board)
	}
	if got := eval[string](alice, `document.querySelector("#board svg .last-move").dataset.point`); got != "F1" {
		t.Errorf("last-move marker on %s, want F1", got)
	}

	// White invades with a two-stone group at B5–B6 that cannot live;
	// Black passes in between. Then two passes start the counting.
	pass := func(p *person) {
		t.Helper()
		p.do("pass", chromedp.Click(chromedp.CSS("#pass")))
		seq++
		alice.waitMoves(seq)
		bob.waitMoves(seq)
	}
	pass(alice)
	play(bob, 1, 4)
	pass(alice)
	play(bob, 1, 3)
	pass(alice)
	pass(bob)
	for _, p := range []*person{alice, bob} {
		p.waitFor("the scoring phase", `document.getElementById("game").dataset.status === "scoring" && !document.getElementById("scoring").hidden`)
	}
	// Bob asks to resume; under Japanese rules his opponent moves first.
	// Two more passes bring the counting back.
	bob.do("resume", chromedp.Click(chromedp.CSS("#resume")))
	for _, p := range []*person{alice, bob} {
		p.waitFor("play again", `document.getElementById("game").dataset.status === "playing" && document.getElementById("scoring").hidden`)
	}
	if got := eval[string](alice, `document.getElementById("status").textContent`); got != "Your move." {
		t.Errorf("after bob's resume alice's status is %q, want her move", got)
	}
	pass(alice)
	if got := eval[string](bob, `document.getElementById("status").textContent`); got != "Black passed. Your move." {
		t.Errorf("bob's status after alice's pass: %q", got)
	}
	pass(bob)
	for _, p := range []*person{alice, bob} {
		p.waitFor("the scoring phase again", `document.getElementById("game").dataset.status === "scoring" && !document.getElementById("scoring").hidden`)
	}

	// Mark the white group dead. The server's own estimate may have marked
	// it already; then the first click brings it back to life and the
	// second marks it again. Either way each click toggles the whole group.
	deadMarks := func(p *person) string {
		return eval[string](p, `[...document.querySelectorAll("#board svg .dead-mark")].map((e) => e.dataset.point).sort().join(",")`)
	}
	proposalSeq := func(p *person) int {
		return eval[int](p, `Number(document.getElementById("accept").dataset.seq)`)
	}
	for round := 0; round < 2 && deadMarks(bob) != "B5,B6"; round++ {
		before, seqBefore := deadMarks(bob), proposalSeq(bob)
		bob.clickPoint(1, 4)
		bob.waitFor("a new proposal", fmt.Sprintf(`Number(document.getElementById("accept").dataset.seq) === %d`, seqBefore+1))
		alice.waitFor("the new proposal", fmt.Sprintf(`Number(document.getElementById("accept").dataset.seq) === %d`, seqBefore+1))
		after := deadMarks(bob)
		if (before == "" && after != "B5,B6") || (before == "B5,B6" && after != "") {
			t.Fatalf("toggling B5: dead marks %q → %q; the whole group must change", before, after)
		}
		// Alice is told what her opponent changed; bob, who made the change,
		// is not told it as news.
		want := "dead"
		if after == "" {
			want = "alive again"
		}
		alice.waitFor("the explanation of bob's change", fmt.Sprintf(`/^Your opponent marked the stones at B[56] %s; this is proposal %d\./.test(document.getElementById("proposal-status").textContent)`, want, seqBefore+1))
		if got := eval[string](bob, `document.getElementById("proposal-status").textContent`); strings.Contains(got, "Your opponent") {
			t.Errorf("bob is told of his own change: %q", got)
		}
	}
	if got := deadMarks(alice); got != "B5,B6" {
		t.Fatalf("alice sees dead stones %q, want B5,B6", got)
	}

	for _, p := range []*person{alice, bob} {
		if !eval[bool](p, `document.querySelector(".board-entry").hidden`) {
			t.Error("the coordinate field is shown during the counting")
		}
	}
	t.Logf("screenshots of the scoring phase: %s, %s",
		alice.screenshot("tengen-game-desktop.png"), bob.screenshot("tengen-game-phone.png"))

	// The count: Black has the 36 points of columns A–D (two of them under
	// the dead stones) and the two dead stones; White the 27 points of
	// columns G–J and komi.
	st = s.gameState(t, gameID)
	margin := 36 + 2 - (27 + st.Komi)
	wantResult := "B+" + strconv.FormatFloat(margin, 'f', -1, 64)
	if st.Score == nil || st.Score.Result != wantResult {
		t.Fatalf("server's count %+v, want %s", st.Score, wantResult)
	}
	total := eval[string](alice, `[...document.querySelectorAll('#score-rows tr[data-row="total"] td')].map((e) => e.textContent).join("|")`)
	if want := fmt.Sprintf("Total|38|%s", strconv.FormatFloat(27+st.Komi, 'f', -1, 64)); total != want {
		t.Errorf("score total row %q, want %q", total, want)
	}
	if got := eval[int](alice, `document.querySelectorAll("#board svg .terr-black").length`); got != 36 {
		t.Errorf("%d black territory marks, want 36", got)
	}

	// Both accept the same proposal; the game ends with the count.
	alice.do("accept", chromedp.Click(chromedp.CSS("#accept")))
	bob.waitFor("alice's acceptance", `/accepted by: Black/.test(document.getElementById("proposal-status").textContent)`)
	bob.do("accept", chromedp.Click(chromedp.CSS("#accept")))
	for _, p := range []*person{alice, bob} {
		p.waitFor("the result", fmt.Sprintf(`document.getElementById("result").dataset.result === %q && !document.getElementById("result").hidden`, wantResult))
	}
	if got := eval[string](alice, `document.getElementById("result").textContent`); !strings.Contains(got, "Black wins by") {
		t.Errorf("result text %q", got)
	}
	if got := eval[string](bob, `document.getElementById("status").textContent`); strings.Contains(got, "passed") {
		t.Errorf("status line after the end %q still words the last move", got)
	}

	// The SGF download has the players, the moves and the result.
	href := eval[string](alice, `document.getElementById("sgf-link").getAttribute("href")`)
	sgfText := eval[string](alice, fmt.Sprintf(`fetch(%q).then((r) => r.text())`, href))
	for _, want := range []string{"SZ[9]", "PB[alice]", "PW[bob]", "RE[" + wantResult + "]", ";B[ea]", ";W[fa]", ";W[be]", ";W[bd]"} {
		if !strings.Contains(sgfText, want) {
			t.Errorf("SGF lacks %s:\n%s", want, sgfText)
		}
	}

	// The finished game replays: back to the start, forward one move.
	if got := eval[bool](alice, `document.querySelector(".board-entry").hidden`); !got {
		t.Error("the coordinate field is shown after the end")
	}
	alice.do("first move", chromedp.Click(chromedp.CSS("#nav-first")))
	if got := eval[int](alice, `document.querySelectorAll("#board svg .stone").length`); got != 0 {
		t.Errorf("%d stones at the start of the replay", got)
	}
	// The replay's clocks show the time as it was.
	if b, w := eval[string](alice, `document.getElementById("clock-black").textContent`), eval[string](alice, `document.getElementById("clock-white").textContent`); b != "10:00" || w != "10:00" {
		t.Errorf("clocks at the start of the replay: %q, %q", b, w)
	}
	alice.do("next move", chromedp.Click(chromedp.CSS("#nav-next")))
	if got := alice.stonesShown(); len(got) != 1 || got["E9"] != "B" {
		t.Errorf("after one move the replay shows %v, want a black stone on E9", got)
	}
	// Screen readers hear the stones in the board's name and the slider's name.
	if got := eval[string](alice, `document.querySelector("#board svg").getAttribute("aria-label")`); !strings.HasSuffix(got, ". Black: E9") {
		t.Errorf("board's accessible name after one move: %q, want it to end in %q", got, ". Black: E9")
	}
	if got := eval[string](alice, `document.getElementById("nav-slider").getAttribute("aria-label")`); got == "" {
		t.Error("the replay slider has no accessible name")
	}
	alice.do("move numbers", chromedp.Click(chromedp.CSS("#opt-numbers")))
	t.Logf("replay screenshot: %s", alice.screenshot("tengen-replay-desktop.png"))
	alice.do("no move numbers", chromedp.Click(chromedp.CSS("#opt-numbers")))
	alice.do("last move", chromedp.Click(chromedp.CSS("#nav-last")))
	if got := alice.stonesShown(); len(got) != 20 {
		t.Errorf("at the end the replay shows %d stones, want 20", len(got))
	}

	t.Logf("game flow took %v", time.Since(start).Round(time.Millisecond))
}

// TestReconnect stops the server in the middle of a game and starts it
// again: the pages say that the connection is lost, reconnect by themselves,
// show the same board from the new snapshot, and play goes on.
func TestReconnect(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	alice.signup("alice-password")
	bob.signup("bob-password")
	// Bob reads German.
	bob.open("/lang/de?next=/")
	gameID := startGame(t, alice, bob)
	if got := eval[string](bob, `document.getElementById("status").textContent`); got != "Schwarz ist am Zug." {
		t.Errorf("bob's German status: %q", got)
	}
	// Carol watches without an account.
	carol := s.person(t, "carol")
	carol.open(fmt.Sprintf("/games/%d", gameID))
	carol.waitFor("the game", `document.getElementById("game").dataset.moveCount === "0"`)
	if got := eval[bool](carol, `document.getElementById("play-controls").hidden && document.querySelector(".board-entry").hidden`); !got {
		t.Error("a spectator sees the play controls")
	}

	alice.clickPoint(2, 2)
	bob.waitMoves(1)
	carol.waitMoves(1)
	// The server's reasons come in the connection's language.
	bob.clickPoint(2, 2)
	bob.waitFor("the German reason", `document.getElementById("game-error").textContent === "Unzulässiger Zug: Der Punkt ist besetzt."`)
	bob.clickPoint(6, 6)
	alice.waitMoves(2)

	// The pages' attempts to connect while the server is away fail.
	for _, p := range []*person{alice, bob, carol} {
		p.allowConsole("WebSocket connection to")
	}
	s.stop()
	for _, p := range []*person{alice, bob} {
		p.waitFor("the lost connection", `!document.getElementById("connection").hidden && document.getElementById("game").dataset.connected === "false"`)
	}
	// A click while the server is away says so and sends nothing.
	alice.clickPoint(6, 2)
	alice.waitFor("the offline message", `/Not connected/.test(document.getElementById("game-error").textContent)`)
	s.start(t)
	for _, p := range []*person{alice, bob} {
		p.waitFor("the new connection", `document.getElementById("connection").hidden && document.getElementById("game").dataset.connected === "true"`)
	}
	st := s.gameState(t, gameID)
	for _, p := range []*person{alice, bob} {
		if got := p.stonesShown(); !sameStones(got, stonesOf(st.Board)) || len(got) != 2 {
			t.Errorf("%s's board after the restart: %v, server: %v", p.name, got, st.Board)
		}
	}
	alice.clickPoint(6, 2)
	bob.waitMoves(3)
	carol.waitMoves(3)
	if got := bob.stonesShown()["G7"]; got != "B" {
		t.Errorf("bob does not see alice's move G7 after the restart: %v", bob.stonesShown())
	}

	// Bob resigns, after the page asked him; the first time he thinks
	// better of it.
	bob.do("resign?", chromedp.Click(chromedp.CSS("#resign")))
	bob.waitFor("the question", `!document.getElementById("resign-confirm").hidden`)
	bob.do("no", chromedp.Click(chromedp.CSS("#resign-no")))
	bob.waitFor("no question", `document.getElementById("resign-confirm").hidden`)
	bob.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	for _, c := range []struct {
		p    *person
		want string
	}{{alice, "Black wins by resignation."}, {bob, "Schwarz gewinnt durch Aufgabe."}, {carol, "Black wins by resignation."}} {
		c.p.waitFor("the result", fmt.Sprintf(`document.getElementById("result").dataset.result === "B+R" && document.getElementById("result").textContent.includes(%q)`, c.want))
	}
	if st := s.gameState(t, gameID); st.Game.Result != "B+R" || st.Game.MoveCount != 4 {
		t.Errorf("after the resignation the server has result %q after %d moves", st.Game.Result, st.Game.MoveCount)
	}
	// A finished game opened afresh is a replay.
	carol.do("reload", chromedp.Reload())
	carol.waitFor("the finished game", `document.getElementById("game").dataset.status === "finished" && !document.getElementById("replay").hidden`)
	if got := eval[string](carol, `document.getElementById("nav-pos").textContent`); got != "4 of 4" {
		t.Errorf("replay position %q, want 4 of 4", got)
	}
	carol.do("previous", chromedp.Click(chromedp.CSS("#nav-prev")), chromedp.Click(chromedp.CSS("#nav-prev")))
	if got := carol.stonesShown(); len(got) != 2 || got["C7"] != "B" || got["G3"] != "W" {
		t.Errorf("two moves back the replay shows %v", got)
	}
}

// TestHandicapGame plays a game with two handicap stones: they are on the
// board from the start, White moves first, and the replay starts from them.
func TestHandicapGame(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	alice.signup("alice-password")
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob, "handicap=2", "tcKind=none")
	// Two stones on 9×9 go to the upper right and lower left 3-3 points.
	want := map[string]string{"G7": "B", "C3": "B"}
	for _, p := range []*person{alice, bob} {
		if got := p.stonesShown(); !sameStones(got, want) {
			t.Errorf("%s sees %v at the start, want the handicap stones %v", p.name, got, want)
		}
		if got := eval[string](p, `document.getElementById("clock-black").textContent`); got != "–" {
			t.Errorf("%s sees a clock %q in a game without one", p.name, got)
		}
	}
	if got := eval[string](bob, `document.getElementById("status").textContent`); got != "Your move." {
		t.Errorf("white's status at the start of a handicap game: %q", got)
	}
	bob.clickPoint(4, 4)
	alice.waitMoves(1)
	if got := alice.stonesShown()["E5"]; got != "W" {
		t.Errorf("alice does not see white's first move on E5: %v", alice.stonesShown())
	}
	alice.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	bob.waitFor("the result", `document.getElementById("result").dataset.result === "W+R"`)
	bob.do("first move", chromedp.Click(chromedp.CSS("#nav-first")))
	if got := bob.stonesShown(); !sameStones(got, want) {
		t.Errorf("the replay starts with %v, want the handicap stones %v", got, want)
	}
	if st := s.gameState(t, gameID); st.Handicap.Stones != 2 || len(st.Handicap.Points) != 2 {
		t.Errorf("server's handicap: %+v", st.Handicap)
	}
}
