package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen"
)

// TestPlaceHandicapAtOnce: Black chooses the free handicap stones on the
// board and places them all with one button (seed 003: "welche er beim
// ersten Zug miteinander setzen kann"); White sees them arrive together and
// moves next.
func TestPlaceHandicapAtOnce(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob, "ruleset=chinese", "handicap=3", "freeHandicap=click")
	st := s.gameState(t, gameID)
	if !st.Handicap.Free || st.Handicap.Stones != 3 {
		t.Fatalf("handicap %+v, want 3 free stones", st.Handicap)
	}
	alice.waitFor("the placement box", `!document.getElementById("handicap-placing").hidden && !document.getElementById("handicap-controls").hidden`)
	bob.waitFor("the placement notice", `!document.getElementById("handicap-placing").hidden && document.getElementById("handicap-controls").hidden`)
	for _, p := range [][2]int{{2, 2}, {6, 6}, {6, 2}} {
		alice.clickPoint(p[0], p[1])
	}
	alice.clickPoint(4, 4) // a fourth point is one too many: ignored
	if got := eval[bool](alice, `document.getElementById("handicap-place").disabled`); got {
		t.Fatal("the place button is disabled with three points chosen")
	}
	if got := eval[string](alice, `document.getElementById("handicap-status").textContent`); got != "Click 3 points for your handicap stones, then place them all at once: 3 chosen." {
		t.Errorf("alice's placement status %q", got)
	}
	if n := s.gameState(t, gameID).Game.MoveCount; n != 0 {
		t.Fatalf("choosing sent moves: the game is at move %d", n)
	}
	if eval[bool](alice, `document.getElementById("pass").hidden`) != true {
		t.Error("alice may pass while she places handicap stones")
	}
	eval[bool](bob, `(document.getElementById("handicap-placing").scrollIntoView(), true)`)
	t.Logf("screenshots while choosing: %s, %s",
		alice.screenshot("tengen-handicap-desktop.png"), bob.screenshot("tengen-handicap-phone.png"))
	alice.do("place", chromedp.Click(chromedp.CSS(`#handicap-place`)))
	alice.waitMoves(3)
	bob.waitMoves(3)
	st = s.gameState(t, gameID)
	want := map[string]string{"C7": "B", "G3": "B", "G7": "B"}
	if got := stonesOf(st.Board); !sameStones(got, want) || st.Game.ToMove.String() != "white" {
		t.Fatalf("after placing: stones %v, %s to move; want %v and White", got, st.Game.ToMove, want)
	}
	for _, p := range []*person{alice, bob} {
		if got := p.stonesShown(); !sameStones(got, want) {
			t.Errorf("%s sees %v, want %v", p.name, got, want)
		}
		p.waitFor("the placement box gone", `document.getElementById("handicap-placing").hidden`)
	}
	bob.clickPoint(4, 4)
	alice.waitMoves(4)
}

// TestRepetitionOffer: a triple ko under the japanese ruleset does not end
// the game; both players see the offer, and the game ends without result
// when both agree (1989 Japanese rules, Art. 12).
func TestRepetitionOffer(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob)

	// goban's triple-ko diagram, built move by move (Black passes once),
	// then its six-move cycle twice.
	black := [][2]int{{1, 0}, {7, 0}, {0, 1}, {6, 1}, {8, 1}, {1, 2}, {7, 2}, {1, 5}, {0, 6}, {1, 7}, {-1, -1}}
	white := [][2]int{{2, 0}, {6, 0}, {1, 1}, {3, 1}, {5, 1}, {2, 2}, {6, 2}, {2, 5}, {1, 6}, {3, 6}, {2, 7}}
	var moves [][2]int
	for i := range black {
		moves = append(moves, black[i], white[i])
	}
	cycle := [][2]int{{2, 1}, {7, 1}, {2, 6}, {1, 1}, {6, 1}, {1, 6}}
	moves = append(moves, cycle...)
	moves = append(moves, cycle...)
	for i, m := range moves {
		p := []*person{alice, bob}[i%2]
		if m[0] < 0 {
			p.do("pass", chromedp.Click(chromedp.CSS(`#pass`)))
		} else {
			p.clickPoint(m[0], m[1])
		}
		alice.waitMoves(i + 1)
		bob.waitMoves(i + 1)
	}
	n := len(moves)
	st := s.gameState(t, gameID)
	if st.Game.Status != tengen.GamePlaying || st.Repetition == nil || st.Repetition.Seq != n {
		t.Fatalf("after the third occurrence: status %s, offer %+v; want play to go on with an offer for move %d", st.Game.Status, st.Repetition, n)
	}
	for _, p := range []*person{alice, bob} {
		p.waitFor("the offer", `!document.getElementById("repetition").hidden && !document.getElementById("repetition-controls").hidden`)
	}
	eval[bool](bob, `(document.getElementById("repetition").scrollIntoView(), true)`)
	t.Logf("screenshots of the offer: %s, %s",
		alice.screenshot("tengen-repetition-desktop.png"), bob.screenshot("tengen-repetition-phone.png"))

	alice.do("agree", chromedp.Click(chromedp.CSS(`#void-agree`)))
	alice.waitFor("her answer recorded", `document.getElementById("repetition-controls").hidden`)
	bob.waitFor("alice's agreement", `document.getElementById("repetition-status").textContent === "Agreed to end without result: Black."`)
	bob.do("agree", chromedp.Click(chromedp.CSS(`#void-agree`)))
	for _, p := range []*person{alice, bob} {
		p.waitFor("the end without result", `document.getElementById("game").dataset.status === "finished" && document.getElementById("repetition").hidden`)
		if got := eval[string](p, `document.getElementById("result").textContent`); got == "" || !strings.Contains(got, "Void") {
			t.Errorf("%s sees result %q", p.name, got)
		}
	}
	if st := s.gameState(t, gameID); st.Game.Result != "Void" {
		t.Errorf("stored result %q, want Void", st.Game.Result)
	}
	t.Logf("screenshots of the end: %s, %s",
		alice.screenshot("tengen-void-desktop.png"), bob.screenshot("tengen-void-phone.png"))
}
