package browsertest

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen"
)

// TestAdmin is issue 14's browser test of the admin role: the first person
// to sign up is the admin; on the admin page they disable a player, whose
// open game page loses its session at once and who cannot log in again,
// and cancel a game, which the other player's page shows as ended without
// a result. Screenshots of the admin page at desktop and phone width.
func TestAdmin(t *testing.T) {
	s := newSite(t)
	root := s.person(t, "root")
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	root.signup("root-password")
	alice.signup("alice-password")
	bob.signup("bob-password")
	id := startGame(t, alice, bob)
	alice.clickPoint(4, 4)
	alice.waitMoves(1)
	bob.waitMoves(1)
	// An open challenge of bob's, for the admin to remove.
	if got := eval[float64](bob, `fetch("/api/v1/challenges", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({settings: {boardSize: 13, ruleset: "chinese", color: "nigiri", timeControl: {kind: "none"}}})}).then(r => r.status)`); got != 201 {
		t.Fatalf("bob's challenge: status %v", got)
	}

	// Only the admin has the link to the admin page.
	if eval[bool](alice, `!!document.querySelector('header nav a[href="/admin"]')`) {
		t.Error("alice, not an admin, sees the admin link")
	}
	root.open("/")
	root.do("open the admin page", chromedp.Click(chromedp.CSS(`header nav a[href="/admin"]`)))
	root.waitFor("the admin page", `location.pathname === "/admin" && document.querySelectorAll("#admin-user-list tbody tr").length >= 3`)
	root.waitFor("the game and the challenge", fmt.Sprintf(`!!document.querySelector('#admin-game-list tr[data-game-id="%d"]') && !!document.querySelector("#admin-challenge-list tbody tr")`, id))
	t.Logf("admin page, desktop: %s", root.screenshot("tengen-admin-desktop.png"))

	// Disable alice: her game page loses its session at once.
	alice.waitFor("alice connected", `document.getElementById("game").dataset.connected === "true"`)
	root.do("disable alice", chromedp.Click(chromedp.CSS(`#admin-user-list tr[data-user="alice"] form[action$="/disable"] button`)))
	root.waitFor("alice disabled", `!!document.querySelector('#admin-user-list tr[data-user="alice"] form[action$="/enable"]')`)
	alice.waitFor("the session-ended notice", `document.getElementById("game").dataset.connected === "false" && document.getElementById("connection").textContent.includes("session has ended")`)
	t.Logf("alice's game page after her session ended: %s", alice.screenshot("tengen-admin-session-ended.png"))
	alice.open("/login")
	alice.do("log in again",
		chromedp.SetValue(chromedp.CSS(`input[name="name"]`), "alice"),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), "alice-password"),
		chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)),
	)
	alice.waitFor("the refusal", `location.pathname === "/login" && document.querySelector(".error").textContent.includes("disabled by an admin")`)
	alice.allowConsole("403") // the refused log-in form's answer

	// Cancel the game: bob's page shows it ended without a result.
	root.do("cancel the game", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#admin-game-list tr[data-game-id="%d"] form button`, id))))
	root.waitFor("the game gone from the list", fmt.Sprintf(`location.pathname === "/admin" && !document.querySelector('#admin-game-list tr[data-game-id="%d"]')`, id))
	bob.waitFor("the void result", `document.getElementById("game").dataset.status === "finished" && document.getElementById("result").dataset.result === "Void"`)
	if st := s.gameState(t, id); st.Game.Result != tengen.ResultVoid || st.Clock.RunningSince != nil {
		t.Errorf("the cancelled game: %+v, clock %+v", st.Game, st.Clock)
	}

	// Remove bob's challenge.
	root.do("remove the challenge", chromedp.Click(chromedp.CSS(`#admin-challenge-list tbody tr form button`)))
	root.waitFor("no open challenges", `location.pathname === "/admin" && !document.getElementById("admin-challenge-list")`)

	root.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	root.open("/admin")
	root.waitFor("the admin page", `document.querySelectorAll("#admin-user-list tbody tr").length >= 3`)
	if w := eval[float64](root, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the admin page is %v px wide on a 390 px phone", w)
	}
	t.Logf("admin page, phone: %s", root.screenshot("tengen-admin-phone.png"))
	t.Logf("cancelled game, bob: %s", bob.screenshot("tengen-admin-cancelled-game.png"))
}
