package browsertest

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen/goban"
)

// TestTakeback is issue 17's takeback in two browsers: alice (desktop) asks
// to take back her move, bob (phone) declines; she asks again after her
// next move and bob accepts; both boards show the move gone at once.
func TestTakeback(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob)

	hidden := func(p *person, id string) bool {
		return eval[bool](p, fmt.Sprintf(`document.getElementById(%q).hidden`, id))
	}
	if !hidden(alice, "undo") {
		t.Error("alice sees Undo before any move")
	}
	alice.clickPoint(2, 2)
	alice.waitMoves(1)
	bob.waitMoves(1)
	if hidden(alice, "undo") || !hidden(bob, "undo") {
		t.Errorf("after alice's move: Undo hidden for alice %v, for bob %v", hidden(alice, "undo"), hidden(bob, "undo"))
	}

	// Asked and declined.
	alice.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	bob.waitFor("the request", `!document.getElementById("takeback").hidden && !document.getElementById("takeback-controls").hidden`)
	alice.waitFor("waiting for bob", `!document.getElementById("takeback").hidden && document.getElementById("takeback-controls").hidden`)
	alice.screenshot("tengen-takeback-asked-desktop.png")
	eval[bool](bob, `(document.getElementById("takeback").scrollIntoView({block: "center"}), true)`)
	bob.screenshot("tengen-takeback-asked-phone.png")
	bob.do("decline", chromedp.Click(chromedp.CSS("#takeback-decline")))
	alice.waitFor("the refusal", `document.getElementById("takeback").hidden`)
	bob.waitFor("the refusal", `document.getElementById("takeback").hidden`)
	if st := s.gameState(t, gameID); st.Game.MoveCount != 1 || st.Takeback != nil {
		t.Fatalf("after the refusal: %d moves, pending %+v", st.Game.MoveCount, st.Takeback)
	}

	// Bob moves, alice moves, asks again, bob accepts.
	bob.clickPoint(6, 6)
	alice.waitMoves(2)
	alice.clickPoint(4, 4)
	alice.waitMoves(3)
	bob.waitMoves(3)
	alice.do("undo", chromedp.Click(chromedp.CSS("#undo")))
	bob.waitFor("the request", `!document.getElementById("takeback-controls").hidden`)
	bob.do("accept", chromedp.Click(chromedp.CSS("#takeback-accept")))
	for _, p := range []*person{alice, bob} {
		p.waitMoves(2)
		p.waitFor("the request gone", `document.getElementById("takeback").hidden`)
		if got := p.stonesShown(); len(got) != 2 || got["E5"] != "" {
			t.Errorf("%s sees stones %v after the takeback, want C7 and G3 only", p.name, got)
		}
	}
	alice.screenshot("tengen-takeback-accepted-desktop.png")
	bob.screenshot("tengen-takeback-accepted-phone.png")
	if st := s.gameState(t, gameID); st.Game.MoveCount != 2 || st.Game.ToMove != goban.Black || len(st.Moves) != 2 {
		t.Fatalf("after the takeback: %d moves, %s to move", st.Game.MoveCount, st.Game.ToMove)
	}
	// Alice plays elsewhere instead.
	alice.clickPoint(3, 5)
	alice.waitMoves(3)
	bob.waitMoves(3)
}
