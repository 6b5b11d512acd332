package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// signupAt signs p up through the form with a starting level other than
// the form's default.
func (p *person) signupAt(password, level string) {
	p.t.Helper()
	p.open("/signup")
	p.do("sign up as "+level,
		chromedp.SetValue(chromedp.CSS(`input[name="name"]`), p.name),
		chromedp.SetValue(chromedp.CSS(`input[name="password"]`), password),
		chromedp.SetValue(chromedp.CSS(`input[name="password2"]`), password),
		chromedp.SetValue(chromedp.CSS(`select[name="level"]`), level),
		chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)),
	)
	p.waitFor("the lobby after sign-up", `location.pathname === "/" && !!document.getElementById("challenge-form")`)
}

// TestProfileAndPlayers: after a rated game that ada (a declared dan
// player) loses to bob, bob's profile shows his rank beside his name and a
// rating graph whose rank axis is labelled, ada's profile has a challenge
// button that aims the lobby's form at her, and the players page finds ada
// by the beginning of her name. Screenshots at desktop and phone width.
func TestProfileAndPlayers(t *testing.T) {
	s := newSite(t)
	ada, bob := s.person(t, "ada"), s.person(t, "bob")
	ada.signupAt("ada-password", "dan")
	bob.signup("bob-password")
	startGame(t, ada, bob)
	ada.clickPoint(2, 2)
	bob.waitMoves(1)
	ada.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	bob.waitFor("the result", `document.getElementById("result").dataset.result === "W+R"`)
	rank := s.userRank(t, "bob")

	shots := func(p *person, name string) {
		for _, vp := range []struct {
			name string
			w, h int64
		}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
			p.do("viewport "+vp.name, chromedp.EmulateViewport(vp.w, vp.h))
			t.Logf("%s screenshot: %s", vp.name, p.screenshot("tengen-"+name+"-"+vp.name+".png"))
		}
	}

	// Bob's profile: the rank beside the name, the graph with a line of
	// two points (before and after the game), rank labels on its axis.
	bob.open("/users/bob")
	if got := eval[string](bob, `document.querySelector("h1 .rank").textContent`); got != "["+rank+"]" {
		t.Errorf("rank beside bob's name on his profile: %q, want [%s]", got, rank)
	}
	if got := eval[int](bob, `document.querySelector("#rating-graph polyline").getAttribute("points").trim().split(/\s+/).length`); got != 2 {
		t.Errorf("the rating graph's line has %d points, want 2", got)
	}
	labels := eval[[]string](bob, `[...document.querySelectorAll("#rating-graph .rank-label")].map(e => e.textContent)`)
	if len(labels) == 0 {
		t.Errorf("the rating graph has no rank labels")
	}
	for _, l := range labels {
		if !strings.HasSuffix(l, "k") && !strings.HasSuffix(l, "d") {
			t.Errorf("rank label %q is not a rank", l)
		}
	}
	if w := eval[float64](bob, `document.getElementById("rating-graph").getBoundingClientRect().width`); w < 300 {
		t.Errorf("the rating graph is %v px wide on the desktop", w)
	}
	if got := eval[int](bob, `document.querySelectorAll("#recent-games tbody tr").length`); got != 1 {
		t.Errorf("bob's profile lists %d recent games, want 1", got)
	}
	shots(bob, "profile")
	if w := eval[float64](bob, `document.getElementById("rating-graph").getBoundingClientRect().width`); w > 390 {
		t.Errorf("the rating graph is %v px wide on a 390 px phone", w)
	}

	// The players page finds ada by "AD".
	bob.do("desktop", chromedp.EmulateViewport(1280, 900))
	bob.open("/players")
	if got := eval[string](bob, `document.querySelector("#players tbody tr:first-child a").textContent`); got != "ada" {
		t.Errorf("the strongest active player: %q, want ada (a dan player still, after one loss to a beginner)", got)
	}
	bob.do("search", chromedp.SetValue(chromedp.CSS(`#player-search input[name="q"]`), "AD"),
		chromedp.Click(chromedp.CSS(`#player-search button[type="submit"]`)))
	bob.waitFor("the search result", `location.search === "?q=AD" && !!document.getElementById("players")`)
	if got := eval[[]string](bob, `[...document.querySelectorAll("#players tbody a")].map(e => e.textContent)`); len(got) != 1 || got[0] != "ada" {
		t.Errorf("search AD found %q, want ada", got)
	}
	shots(bob, "players")

	// From ada's profile, the challenge button opens the lobby's form
	// aimed at her.
	bob.do("desktop", chromedp.EmulateViewport(1280, 900))
	bob.do("open ada's profile", chromedp.Click(chromedp.CSS(`#players tbody a`)))
	bob.waitFor("ada's profile", `location.pathname === "/users/ada"`)
	bob.do("challenge ada", chromedp.Click(chromedp.CSS(`#challenge-player`)))
	bob.waitFor("the lobby", `location.pathname === "/" && !!document.getElementById("challenge-form")`)
	if got := eval[string](bob, `document.querySelector('#challenge-form input[name="opponent"]').value`); got != "ada" {
		t.Errorf("the challenge form's opponent: %q, want ada", got)
	}
}
