package browsertest

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// mouseButtons sets the buttons held during a mouse event (1: the left
// one), which a move needs to count as a drag.
func mouseButtons(b int64) chromedp.MouseOption {
	return func(p *input.DispatchMouseEventParams) { p.Buttons = b }
}

// TestGameAnalysis is issue 19's engine analysis on a finished game's page:
// the panel is not there for the players while the game runs; after the
// resignation alice (desktop) analyses the game at low playouts, sees the
// graph fill, jumps to a move from the graph, sees the best moves with a
// variation and the ownership overlay; bob (phone) sees the same panel.
func TestGameAnalysis(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob)

	moves := [][2]int{{2, 2}, {6, 6}, {6, 2}, {2, 6}, {4, 4}, {4, 6}, {3, 5}}
	for i, m := range moves {
		p := alice
		if i%2 == 1 {
			p = bob
		}
		p.clickPoint(m[0], m[1])
		alice.waitMoves(i + 1)
		bob.waitMoves(i + 1)
	}
	if !eval[bool](alice, `document.getElementById("analysis").hidden`) {
		t.Error("the analysis panel shows for a player while the game runs")
	}
	bob.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	for _, p := range []*person{alice, bob} {
		p.waitFor("the finished game", `document.getElementById("game").dataset.status === "finished"`)
		p.waitFor("the analysis panel", `!document.getElementById("analysis").hidden && !!document.querySelector(".analysis-start")`)
	}

	alice.do("analyse", chromedp.SetValue(chromedp.CSS(".analysis-playouts select"), "50"),
		chromedp.Click(chromedp.CSS(".analysis-start")))
	alice.waitFor("the analysis to finish", `document.getElementById("analysis").dataset.state === "done"`)
	total := len(moves) + 1
	if n := eval[string](alice, `document.querySelector(".analysis-graph-svg").dataset.points`); n != fmt.Sprint(total) {
		t.Errorf("the graph has %s points, want %d", n, total)
	}
	if !eval[bool](alice, `!!document.querySelector(".analysis-graph-svg .graph-winrate") && !!document.querySelector(".analysis-graph-svg .graph-score")`) {
		t.Error("the graph lacks the win-rate or the score line")
	}
	// A click on the graph's left end goes to the start of the game.
	alice.do("graph click", chromedp.Click(chromedp.CSS(".analysis-graph-svg")))
	pos := eval[string](alice, `document.getElementById("nav-pos").textContent`)
	xy := eval[[2]float64](alice, `(() => { const r = document.querySelector(".analysis-graph-svg").getBoundingClientRect(); return [r.left + 2, r.top + r.height / 2]; })()`)
	alice.do("graph click at the start", chromedp.MouseClickXY(xy[0], xy[1]))
	alice.waitFor("move 0", `document.getElementById("nav-slider").value === "0"`)
	if p := eval[string](alice, `document.getElementById("nav-pos").textContent`); p == pos {
		t.Errorf("the graph click did not move the replay (still %q)", p)
	}
	// A press held down scrubs along the game: the board follows the
	// pointer before the button is released (at the right end: the last
	// position, move 7, since the resignation is no position).
	box := eval[[2]float64](alice, `(() => { const r = document.querySelector(".analysis-graph-svg").getBoundingClientRect(); return [r.left, r.width]; })()`)
	at := func(move int) float64 { return box[0] + box[1]*float64(move)/float64(len(moves)) }
	alice.do("press on the graph", chromedp.MouseEvent(chromedp.MousePressed, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	alice.do("drag to move 3", chromedp.MouseEvent(chromedp.MouseMoved, at(3), xy[1], chromedp.ButtonLeft, mouseButtons(1)))
	alice.waitFor("move 3 while dragging", `document.getElementById("nav-slider").value === "3"`)
	alice.do("drag to the end", chromedp.MouseEvent(chromedp.MouseMoved, at(len(moves))-2, xy[1], chromedp.ButtonLeft, mouseButtons(1)),
		chromedp.MouseEvent(chromedp.MouseReleased, at(len(moves))-2, xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	alice.waitFor("the last move after the drag", fmt.Sprintf(`document.getElementById("nav-slider").value === "%d"`, len(moves)))
	alice.do("graph click at the start again", chromedp.MouseClickXY(xy[0], xy[1]))
	alice.waitFor("move 0 again", `document.getElementById("nav-slider").value === "0"`)
	// Move 4 by the replay's buttons: its best moves are drawn.
	for range 4 {
		alice.do("next", chromedp.Click(chromedp.CSS("#nav-next")))
	}
	alice.waitFor("the best moves at move 4", `document.querySelectorAll("#board svg .analysis-best").length > 0`)
	if s := eval[string](alice, `document.querySelector(".analysis-summary").textContent`); s == "" {
		t.Error("no score estimate shown")
	}
	// Every mark is on an empty point.
	occupied := eval[[]string](alice, `[...document.querySelectorAll("#board svg .analysis-best")].map((e) => e.dataset.point)
		.filter((p) => document.querySelector('#board svg .stone[data-point="' + p + '"]'))`)
	if len(occupied) > 0 {
		t.Errorf("best moves drawn on stones: %v", occupied)
	}
	// The variation of the first candidate, from the list.
	alice.do("pick the best move", chromedp.Click(chromedp.CSS(".analysis-best-list li")))
	alice.waitFor("the variation", `document.querySelectorAll("#board svg .analysis-pv").length > 0 && document.querySelector(".analysis-pv-line").textContent !== ""`)
	alice.do("ownership", chromedp.Click(chromedp.CSS(".analysis-owner-toggle")))
	alice.waitFor("the ownership overlay", `document.querySelectorAll("#board svg .owner-black, #board svg .owner-white").length > 10`)
	eval[bool](alice, `(window.scrollTo(0, 0), true)`)
	alice.screenshot("tengen-analysis-desktop.png")
	alice.do("ownership off", chromedp.Click(chromedp.CSS(".analysis-owner-toggle")))
	alice.waitFor("no ownership overlay", `document.querySelectorAll("#board svg .owner-black, #board svg .owner-white").length === 0`)

	// Bob analyses on his phone: the positions come from the cache.
	bob.do("analyse", chromedp.SetValue(chromedp.CSS(".analysis-playouts select"), "50"),
		chromedp.Click(chromedp.CSS(".analysis-start")))
	bob.waitFor("the analysis to finish", `document.getElementById("analysis").dataset.state === "done"`)
	bob.do("ownership", chromedp.Click(chromedp.CSS(".analysis-owner-toggle")))
	bob.waitFor("the overlay at the last move", `document.querySelectorAll("#board svg .owner-black, #board svg .owner-white").length > 10`)
	if w := eval[float64](bob, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the game page is %v px wide on a 390 px phone", w)
	}
	eval[bool](bob, `(document.getElementById("board").scrollIntoView({block: "start"}), true)`)
	bob.screenshot("tengen-analysis-phone-board.png")
	eval[bool](bob, `(document.getElementById("analysis").scrollIntoView({block: "start"}), true)`)
	bob.screenshot("tengen-analysis-phone.png")
	_ = gameID
}
