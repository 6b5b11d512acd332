package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tengen/goban"
)

// The game room's browser tests (issue 17): the settings page, vacation,
// conditional moves and browsing a game during play.

// phone gives p a phone's viewport (390 px wide, touch).
func phone(p *person) {
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
}

// roomGame starts a site where alice (desktop) and bob (phone) sign up
// and play a game of startGame with the challenge fields given.
func roomGame(t *testing.T, fields ...string) (s *site, alice, bob *person, gameID int64) {
	t.Helper()
	s = newSite(t)
	alice = s.person(t, "alice")
	bob = s.person(t, "bob")
	phone(bob)
	alice.signup("alice-password")
	bob.signup("bob-password")
	return s, alice, bob, startGame(t, alice, bob, fields...)
}

// coordLabels returns the coordinate labels around the game page's board.
func coordLabels(p *person) []string {
	return eval[[]string](p, `[...document.querySelectorAll("#board svg text.coord")].map((t) => t.textContent)`)
}

// saveSettings opens the settings page, sets the notation and submits.
func (p *person) saveNotation(notation string) {
	p.t.Helper()
	p.open("/settings")
	p.do("choose "+notation, chromedp.Click(chromedp.CSS("#notation-"+notation)),
		chromedp.Click(chromedp.CSS(`#settings-form button[type="submit"]`)))
	p.waitFor("the saved notice", `location.search === "?done=saved" && !!document.getElementById("settings-notice")`)
}

// TestSettings: alice changes the coordinate notation and sees the game
// page's coordinates change (GTP, Korschelt, Japanese); bob on a phone
// changes his password, which refuses a wrong current password, and logs
// in with the new one.
func TestSettings(t *testing.T) {
	s, alice, bob, gameID := roomGame(t)
	game := fmt.Sprintf("/games/%d", gameID)

	has := func(labels []string, want ...string) bool {
		for _, w := range want {
			found := false
			for _, l := range labels {
				found = found || l == w
			}
			if !found {
				return false
			}
		}
		return true
	}
	if l := coordLabels(alice); !has(l, "A", "J", "9") || has(l, "I") {
		t.Fatalf("GTP labels on 9×9: %v", l)
	}
	alice.saveNotation("korschelt")
	alice.screenshot("tengen-settings-desktop.png")
	if eval[string](alice, `document.body.dataset.board`) == "" {
		t.Fatal("the settings page carries no board options")
	}
	alice.open(game)
	alice.waitFor("the board", `document.getElementById("game").dataset.status === "playing"`)
	// Korschelt: a–k without j; the ninth column is i.
	if l := coordLabels(alice); !has(l, "a", "h", "i", "9") || has(l, "J") || has(l, "A") {
		t.Fatalf("Korschelt labels on 9×9: %v", l)
	}
	// Typed coordinates follow the notation too.
	alice.typePoint("c7")
	alice.waitMoves(1)
	if st := s.gameState(t, gameID); st.LastMove == nil || st.LastMove.X != 2 || st.LastMove.Y != 2 {
		t.Fatalf("typed c7 played %+v", st.LastMove)
	}
	alice.screenshot("tengen-settings-korschelt-desktop.png")
	alice.saveNotation("japanese")
	alice.open(game)
	alice.waitFor("the board", `document.getElementById("game").dataset.moveCount === "1"`)
	if l := coordLabels(alice); !has(l, "1", "9", "一", "四", "九") || has(l, "a") {
		t.Fatalf("Japanese labels on 9×9: %v", l)
	}
	// Coordinates off: none drawn.
	alice.open("/settings")
	alice.do("coordinates off", chromedp.Click(chromedp.CSS("#settings-coordinates")),
		chromedp.Click(chromedp.CSS(`#settings-form button[type="submit"]`)))
	alice.waitFor("saved", `location.search === "?done=saved"`)
	alice.open(game)
	alice.waitFor("the board", `document.getElementById("game").dataset.moveCount === "1"`)
	if l := coordLabels(alice); len(l) != 0 {
		t.Errorf("coordinates off, labels shown: %v", l)
	}
	// bob's board is his own: GTP still.
	if l := coordLabels(bob); !has(l, "J") {
		t.Errorf("bob's labels changed with alice's settings: %v", l)
	}

	// The password: a wrong current one is refused on the page.
	bob.allowConsole("status of 403") // the refused password
	bob.open("/settings")
	bob.screenshot("tengen-settings-phone.png")
	bob.do("wrong password",
		chromedp.SetValue(chromedp.CSS("#password-old"), "not-my-password"),
		chromedp.SetValue(chromedp.CSS("#password-new"), "bob-new-password"),
		chromedp.SetValue(chromedp.CSS("#password-repeat"), "bob-new-password"),
		chromedp.Click(chromedp.CSS("#password-submit")))
	bob.waitFor("the refusal", `!!document.getElementById("settings-error") && document.getElementById("settings-error").textContent.includes("current password is wrong") && document.getElementById("settings-error").closest("section").getAttribute("aria-labelledby") === "settings-password"`)
	eval[bool](bob, `(document.getElementById("settings-error").scrollIntoView({block: "start"}), true)`)
	bob.screenshot("tengen-settings-password-refused-phone.png")
	bob.do("change the password",
		chromedp.SetValue(chromedp.CSS("#password-old"), "bob-password"),
		chromedp.SetValue(chromedp.CSS("#password-new"), "bob-new-password"),
		chromedp.SetValue(chromedp.CSS("#password-repeat"), "bob-new-password"),
		chromedp.Click(chromedp.CSS("#password-submit")))
	bob.waitFor("the confirmation", `location.search === "?done=password" && !!document.getElementById("settings-notice")`)
	// Still logged in here; the new password logs in elsewhere, the old one not.
	if !strings.Contains(eval[string](bob, `document.querySelector("header nav").textContent`), "bob") {
		t.Error("bob was logged out of the session that changed the password")
	}
	carol := s.person(t, "carol")
	carol.allowConsole("status of 401") // the old password
	carol.open("/login")
	carol.do("old password", chromedp.SetValue(chromedp.CSS(`input[name="name"]`), "bob"),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), "bob-password"),
		chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)))
	carol.waitFor("the refusal", `location.pathname === "/login" && !!document.querySelector("main .error")`)
	carol.login("bob", "bob-new-password")
}

// TestVacation: alice, to move in a correspondence game, starts a
// vacation on the settings page; her clock stops and bob's page says so;
// she ends it early and her clock runs again.
func TestVacation(t *testing.T) {
	s, alice, bob, gameID := roomGame(t, "tcKind=correspondence", "daysPerMove=3", "maxDays=10")
	if st := s.gameState(t, gameID); st.Clock == nil || st.Clock.RunningSince == nil || st.Clock.Running != goban.Black {
		t.Fatalf("before the vacation: clock %+v", st.Clock)
	}
	alice.open("/settings")
	alice.do("start", chromedp.SetValue(chromedp.CSS("#vacation-days"), "5"), chromedp.Click(chromedp.CSS("#vacation-start")))
	alice.waitFor("the vacation", `location.search === "?done=vacationStarted" && !!document.getElementById("vacation-end")`)
	alice.screenshot("tengen-vacation-settings-desktop.png")
	st := s.gameState(t, gameID)
	if st.Clock.RunningSince != nil || st.Vacation == nil || st.Vacation.Black == nil {
		t.Fatalf("on vacation: clock %+v, vacation %+v; want the clock stopped", st.Clock, st.Vacation)
	}
	stopped := st.Clock.Black.MainMs
	bob.waitFor("the vacation note", `!document.getElementById("vacation-note").hidden && document.getElementById("vacation-note").textContent.includes("alice") || document.getElementById("vacation-note").textContent.includes("Black")`)
	eval[bool](bob, `(document.getElementById("vacation-note").scrollIntoView({block: "center"}), true)`)
	bob.screenshot("tengen-vacation-game-phone.png")
	// The stopped clock does not move on the page.
	face := eval[string](bob, `document.getElementById("clock-black").textContent`)
	bob.do("wait", chromedp.Sleep(1200_000_000))
	if again := eval[string](bob, `document.getElementById("clock-black").textContent`); again != face {
		t.Errorf("alice's clock moves on bob's page while she is on vacation: %q, then %q", face, again)
	}
	alice.do("end", chromedp.Click(chromedp.CSS("#vacation-end")))
	alice.waitFor("the end", `location.search === "?done=vacationEnded" && !!document.getElementById("vacation-start")`)
	bob.waitFor("the note gone", `document.getElementById("vacation-note").hidden`)
	st = s.gameState(t, gameID)
	if st.Clock.RunningSince == nil || st.Clock.Running != goban.Black || st.Clock.Black.MainMs != stopped {
		t.Errorf("after the vacation: clock %+v; want Black's running from %d ms", st.Clock, stopped)
	}
}

// TestConditionalMove: in a correspondence game alice plans a reply to the
// move she expects from bob on a scratch board; bob plays it and her reply
// appears at once on both pages. Then alice browses back during play, and
// bob's next move brings her view back to the present.
func TestConditionalMove(t *testing.T) {
	s, alice, bob, gameID := roomGame(t, "tcKind=correspondence", "daysPerMove=3", "maxDays=10")
	hidden := func(p *person, id string) bool {
		return eval[bool](p, fmt.Sprintf(`document.getElementById(%q).hidden`, id))
	}
	if !hidden(alice, "conditional") {
		t.Error("the plan panel shows on alice's own turn")
	}
	alice.clickPoint(4, 4)
	alice.waitMoves(1)
	bob.waitMoves(1)
	alice.waitFor("the plan panel", `!document.getElementById("conditional").hidden`)
	if !hidden(bob, "conditional") {
		t.Error("bob, to move, sees the plan panel")
	}
	alice.do("plan", chromedp.Click(chromedp.CSS("#conditional-plan")))
	alice.clickPoint(2, 6) // bob's expected move: C3
	alice.clickPoint(6, 2) // alice's reply: G7
	alice.waitFor("the plan text", `document.getElementById("conditional-status").textContent.includes("C3") && document.getElementById("conditional-status").textContent.includes("G7")`)
	alice.screenshot("tengen-conditional-plan-desktop.png")
	if st := s.gameState(t, gameID); st.Game.MoveCount != 1 {
		t.Fatalf("planning played a move: %d moves", st.Game.MoveCount)
	}
	alice.do("save", chromedp.Click(chromedp.CSS("#conditional-save")))
	alice.waitFor("the stored plan", `!document.getElementById("conditional-clear").hidden && document.getElementById("conditional-status").textContent.includes("G7")`)

	bob.clickPoint(2, 6)
	bob.waitMoves(3)
	alice.waitMoves(3)
	st := s.gameState(t, gameID)
	if st.LastMove.Color != goban.Black || st.LastMove.X != 6 || st.LastMove.Y != 2 {
		t.Fatalf("after bob's expected move the last move is %+v, want alice's G7", st.LastMove)
	}
	for _, p := range []*person{alice, bob} {
		if got := p.stonesShown(); got["G7"] != "B" || got["C3"] != "W" {
			t.Errorf("%s sees %v, want the reply at G7", p.name, got)
		}
	}
	bob.screenshot("tengen-conditional-played-phone.png")

	// Browsing during play: alice steps back two moves with the keys.
	alice.do("back", chromedp.KeyEvent(kb.ArrowLeft))
	alice.do("back", chromedp.KeyEvent(kb.ArrowLeft))
	alice.waitFor("the past", `document.getElementById("status").textContent.includes("move 1 of 3")`)
	if got := alice.stonesShown(); len(got) != 1 || got["E5"] != "B" {
		t.Errorf("alice browsing at move 1 sees %v", got)
	}
	alice.screenshot("tengen-browse-desktop.png")
	bob.clickPoint(7, 7)
	alice.waitMoves(4)
	alice.waitFor("the present", `!document.getElementById("status").textContent.includes("of 4")`)
	if got := alice.stonesShown(); len(got) != 4 || got["H2"] != "W" {
		t.Errorf("after bob's move alice sees %v, want the present position", got)
	}
}
