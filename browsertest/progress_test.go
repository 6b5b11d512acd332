package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"

	"tengen/learn"
)

// TestVisitorProgressIntoAccount: a visitor finishes the first lesson and
// solves a problem, which the browser keeps; after signing up, the first
// page sends that record to the account and forgets it, and the lesson list
// and the problem list show both as done from the server's records (the
// browser's copy is gone, so only the account can show them). The same
// happens at log-in with a problem solved while logged out.
func TestVisitorProgressIntoAccount(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "newcomer")
	p.do("desktop viewport", chromedp.EmulateViewport(1280, 900))
	p.doLesson("liberties", nil, "")

	p.open("/problems/p024")
	p.waitFor("the problem page", `document.getElementById("problem").dataset.state === "playing"`)
	p.clickPoint(1, 0)
	p.waitFor("White's answer", `!!document.querySelector('#board svg .stone.white[data-point="B8"]')`)
	p.clickPoint(0, 0)
	p.waitFor("solved", `document.getElementById("problem").dataset.state === "solved"`)
	if got := eval[string](p, `localStorage.getItem("tengen.problems.solved")`); got != `["p024"]` {
		t.Fatalf("the visitor's browser keeps %q", got)
	}

	p.signup("newcomer-password")
	p.waitFor("the record sent and forgotten",
		`localStorage.getItem("tengen.learn") === null && localStorage.getItem("tengen.problems.solved") === null`)

	l, _ := learn.Find("liberties")
	p.open("/learn")
	if got := eval[float64](p, `Number(document.querySelector('#lessons li[data-lesson="liberties"]').dataset.done)`); int(got) != len(l.Steps) {
		t.Errorf("the account has %v steps of liberties, want %d", got, len(l.Steps))
	}
	p.waitFor("liberties shown done", `document.querySelector('#lessons li[data-lesson="liberties"]').classList.contains("done")`)
	t.Logf("lesson list after sign-up, desktop: %s", p.screenshot("tengen-progress-learn-desktop.png"))
	p.open("/problems")
	p.waitFor("p024 shown solved", `document.querySelector('li[data-problem="p024"]').classList.contains("solved")`)
	if eval[bool](p, `document.querySelector('li[data-problem="p014"]').classList.contains("solved")`) {
		t.Error("p014 is shown solved; only p024 was solved so far")
	}

	// Logged out again, the visitor solves p014 (the straight three: B9
	// kills); logging in carries it into the account too.
	p.do("log out", chromedp.Click(chromedp.CSS(`header form[action="/logout"] button`)))
	p.waitFor("logged out", `!document.body.dataset.user`)
	p.open("/problems/p014")
	p.waitFor("the problem page", `document.getElementById("problem").dataset.state === "playing"`)
	p.clickPoint(1, 0)
	p.waitFor("solved", `document.getElementById("problem").dataset.state === "solved"`)
	p.login("newcomer", "newcomer-password")
	p.waitFor("the record sent and forgotten after log-in", `localStorage.getItem("tengen.problems.solved") === null`)
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.open("/problems")
	for _, id := range []string{"p014", "p024"} {
		if !eval[bool](p, `document.querySelector('li[data-problem="`+id+`"]').classList.contains("solved")`) {
			t.Errorf("%s is not shown solved after log-in", id)
		}
	}
	t.Logf("problem list after log-in, phone: %s", p.screenshot("tengen-progress-problems-phone.png"))
}

// TestMasterGamesPage: /learn links the book's master games; the page lists
// both games of Pfaundler's §20, each with why it is not replayed, and fits
// a phone.
func TestMasterGamesPage(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "reader")
	p.do("desktop viewport", chromedp.EmulateViewport(1280, 900))
	p.open("/learn")
	p.do("open the master games", chromedp.Click(chromedp.CSS(`a[href="/learn/masters"]`)))
	// The path changes when the new document is committed, before it is
	// parsed: wait for the whole page.
	p.waitFor("the master games page", `location.pathname === "/learn/masters" && document.readyState === "complete"`)
	if n := eval[float64](p, `document.querySelectorAll("#master-games li .master-why").length`); n != 2 {
		t.Errorf("%v games with a reason, want 2", n)
	}
	t.Logf("master games, desktop: %s", p.screenshot("tengen-masters-desktop.png"))
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.open("/learn/masters")
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %v px wide on a 390 px phone", w)
	}
	t.Logf("master games, phone: %s", p.screenshot("tengen-masters-phone.png"))
}
