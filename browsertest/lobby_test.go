package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestQuickMatch is issue 16's quick match in two browsers: alice
// (desktop) and bob (phone) ask for a 9×9 blitz game; the server pairs
// them over the lobby's socket and both pages open the same game, where
// each sees the other connected. When bob leaves for another page, alice
// sees him online but not on the game.
func TestQuickMatch(t *testing.T) {
	s, alice, bob := desktopAndPhone(t)

	seek := func(p *person) {
		p.open("/")
		p.waitFor("the lobby socket", `document.querySelector("#lobby-online li") !== null`)
		p.do("find a game",
			chromedp.SetValue(chromedp.CSS(`#quick-form select[name="boardSize"]`), "9"),
			chromedp.SetValue(chromedp.CSS(`#quick-form select[name="speed"]`), "blitz"),
			chromedp.Click(chromedp.CSS(`#quick-find`)),
		)
	}
	seek(alice)
	alice.waitFor("searching", `document.getElementById("quick-status").textContent.includes("2")`)
	alice.screenshot("tengen-quick-searching-desktop.png")
	if got := eval[string](alice, `document.getElementById("lobby-online").textContent`); !strings.Contains(got, "bob") {
		t.Errorf("alice's lobby does not list bob as online: %q", got)
	}
	seek(bob)
	for _, p := range []*person{alice, bob} {
		p.waitFor("the game", `/^\/games\/\d+$/.test(location.pathname) && document.getElementById("game").dataset.status === "playing"`)
	}
	ga, gb := eval[string](alice, `location.pathname`), eval[string](bob, `location.pathname`)
	if ga != gb {
		t.Fatalf("alice is on %s, bob on %s", ga, gb)
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(ga, "/games/"), 10, 64)
	st := s.gameState(t, id)
	if st.Game.Settings.BoardSize != 9 || st.Game.Settings.HandicapBy != "rank" || st.Game.Settings.TimeControl.Kind.String() != "byoyomi" {
		t.Errorf("game settings: %+v", st.Game.Settings)
	}
	// Each sees the other connected to the game.
	for _, p := range []*person{alice, bob} {
		p.waitFor("both players here", `document.getElementById("presence-black").dataset.state === "here" && document.getElementById("presence-white").dataset.state === "here"`)
	}
	alice.screenshot("tengen-presence-desktop.png")
	eval[bool](bob, `(document.getElementById("presence-black").scrollIntoView({block: "center"}), true)`)
	bob.screenshot("tengen-presence-phone.png")
	bob.open("/rules")
	other := "white"
	if eval[string](alice, `document.getElementById("game").dataset.you`) == "white" {
		other = "black"
	}
	alice.waitFor("bob elsewhere", fmt.Sprintf(`document.getElementById("presence-%s").dataset.state === "online"`, other))
	if got := eval[string](alice, fmt.Sprintf(`document.getElementById("presence-%s").textContent`, other)); !strings.Contains(got, "bob") {
		t.Errorf("alice's presence line: %q", got)
	}
	// A spectator is counted.
	carol := s.person(t, "carol")
	carol.open(ga)
	alice.waitFor("one spectator", `document.getElementById("spectators").dataset.count === "1"`)
}

// desktopAndPhone starts a site with two signed-up people: alice at
// desktop width, bob on a phone-sized screen.
func desktopAndPhone(t *testing.T) (s *site, alice, bob *person) {
	t.Helper()
	s = newSite(t)
	alice, bob = s.person(t, "alice"), s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password")
	bob.signup("bob-password")
	return s, alice, bob
}

// hideTab makes the page believe its tab is in the background, as a
// browser does when the user switches tabs, and replaces the Notification
// API with a recorder that has permission.
const hideTab = `(() => {
  window.__notes = [];
  window.Notification = class {
    static permission = "granted";
    static requestPermission() { return Promise.resolve("granted"); }
    constructor(title, opts) { window.__notes.push(opts.body); }
  };
  Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
  return true;
})()`

const showTab = `(() => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
  document.dispatchEvent(new Event("visibilitychange"));
  return true;
})()`

// TestNotifications is issue 17's notification test: bob, reading the
// rules on his phone, sees alice's direct challenge there; alice's lobby
// tab is in the background when bob accepts, and the news reaches it: the
// title counts it, the page lists it, and the browser notification is
// made. Looking at the tab clears the count.
func TestNotifications(t *testing.T) {
	_, alice, bob := desktopAndPhone(t)

	bob.open("/rules")
	bob.waitFor("the site socket", `document.getElementById("notify") !== null`)
	alice.open("/")
	alice.do("challenge bob",
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="opponent"]`), "bob"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="boardSize"]`), "9"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="color"]`), "black"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="tcKind"]`), "absolute"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="mainMinutes"]`), "10"),
		chromedp.Click(chromedp.CSS(`#challenge-form button[type="submit"]`)),
	)
	alice.waitFor("her challenge", `!!document.querySelector("#challenge-list form[action$='/cancel']")`)
	bob.waitFor("the challenge on the rules page", `!!document.querySelector('#notify-list li[data-kind="challenged"]')`)
	if got := eval[string](bob, `document.querySelector('#notify-list li[data-kind="challenged"]').textContent`); !strings.Contains(got, "alice") {
		t.Errorf("bob's notice: %q", got)
	}
	bob.screenshot("tengen-notify-challenged-phone.png")

	// Alice switches to another tab; bob accepts from his lobby.
	eval[bool](alice, hideTab)
	title := eval[string](alice, `document.title`)
	bob.do("open the lobby", chromedp.Click(chromedp.CSS(`#notify-list li[data-kind="challenged"] a`)))
	bob.waitFor("the lobby", `!!document.querySelector("#challenge-list form[action$='/accept']")`)
	bob.do("accept", chromedp.Click(chromedp.CSS(`#challenge-list form[action$="/accept"] button`)))
	bob.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname)`)

	alice.waitFor("the title badge", `/^\(\d\) /.test(document.title)`)
	alice.waitFor("the game-started notice", `!!document.querySelector('#notify-list li[data-kind="game-started"]')`)
	alice.waitFor("the browser notification", `window.__notes.length > 0`)
	if notes := eval[[]string](alice, `window.__notes`); !strings.Contains(strings.Join(notes, "|"), "bob") {
		t.Errorf("browser notifications: %q", notes)
	}
	if got := eval[string](alice, `document.title`); !strings.HasSuffix(got, title) {
		t.Errorf("badged title %q does not keep %q", got, title)
	}
	eval[bool](alice, showTab)
	alice.screenshot("tengen-notify-started-desktop.png")
	if got := eval[string](alice, `document.title`); got != title {
		t.Errorf("title after looking: %q, want %q", got, title)
	}
	// The notice links to the game, and the clock is alice's: she is Black.
	alice.do("open the game", chromedp.Click(chromedp.CSS(`#notify-list li[data-kind="game-started"] a`)))
	alice.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && document.getElementById("game").dataset.you === "black"`)
}

// TestChallengeExpired: an open challenge that nobody accepts in time
// leaves the lobby, and its challenger, reading another page, is told so
// in the notification bar (desktop and phone).
func TestChallengeExpired(t *testing.T) {
	s := newSiteWith(t, func(s *site) { s.challengeTTL = 3 * time.Second })
	alice, bob := s.person(t, "alice"), s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	for _, p := range []*person{alice, bob} {
		p.signup(p.name + "-password")
		p.open("/")
		p.do("open challenge",
			chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="boardSize"]`), "9"),
			chromedp.Click(chromedp.CSS(`#challenge-form button[type="submit"]`)),
		)
		p.waitFor("the own challenge", `!!document.querySelector("#challenge-list form[action$='/cancel']")`)
		p.open("/rules")
	}
	for _, p := range []*person{alice, bob} {
		p.waitFor("the expiry notice", `!!document.querySelector('#notify-list li[data-kind="challenge-expired"]')`)
		got := eval[string](p, `document.querySelector('#notify-list li[data-kind="challenge-expired"] a').textContent`)
		if !strings.Contains(got, "expired") {
			t.Errorf("%s's notice: %q", p.name, got)
		}
		if n := eval[int](p, `document.querySelectorAll('#notify-list li[data-kind="challenge-expired"]').length`); n != 1 {
			t.Errorf("%s sees %d expiry notices, want 1", p.name, n)
		}
	}
	alice.screenshot("tengen-notify-expired-desktop.png")
	bob.screenshot("tengen-notify-expired-phone.png")
	alice.open("/")
	alice.waitFor("the lobby", `!!document.getElementById("challenge-form")`)
	if n := eval[int](alice, `document.querySelectorAll("#challenge-list form[action$='/cancel'], #challenge-list form[action$='/accept']").length`); n != 0 {
		t.Errorf("the lobby still lists %d expired challenges", n)
	}
}

// TestAutomaticHandicap: alice (6k) challenges bob (12k) with the
// automatic handicap; the challenge list shows six stones by rank, bob
// takes Black, and the game page says how the handicap was chosen.
func TestAutomaticHandicap(t *testing.T) {
	s := newSite(t)
	alice, bob := s.person(t, "alice"), s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	for _, su := range []struct {
		p     *person
		level string
	}{{alice, "advanced"}, {bob, "intermediate"}} {
		su.p.open("/signup")
		su.p.do("sign up",
			chromedp.SetValue(chromedp.CSS(`input[name="name"]`), su.p.name),
			chromedp.SetValue(chromedp.CSS(`input[name="password"]`), su.p.name+"-password"),
			chromedp.SetValue(chromedp.CSS(`input[name="password2"]`), su.p.name+"-password"),
			chromedp.SetValue(chromedp.CSS(`select[name="level"]`), su.level),
			chromedp.Click(chromedp.CSS(`main form button[type="submit"]`)),
		)
		su.p.waitFor("the lobby", `location.pathname === "/" && !!document.getElementById("challenge-form")`)
	}
	alice.do("challenge bob with the automatic handicap",
		chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="opponent"]`), "bob"),
		chromedp.SetValue(chromedp.CSS(`#challenge-form select[name="tcKind"]`), "none"),
		chromedp.Click(chromedp.CSS(`#challenge-form input[name="autoHandicap"]`)),
		chromedp.Click(chromedp.CSS(`#challenge-form button[type="submit"]`)),
	)
	alice.waitFor("her challenge", `!!document.querySelector("#challenge-list form[action$='/cancel']")`)
	row := eval[string](alice, `document.querySelector("#challenge-list tbody tr").textContent`)
	if !strings.Contains(row, "6 (by rank)") || !strings.Contains(row, "White") {
		t.Errorf("challenge row: %q", strings.Join(strings.Fields(row), " "))
	}
	bob.open("/")
	bob.do("accept", chromedp.Click(chromedp.CSS(`#challenge-list form[action$="/accept"] button`)))
	bob.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && document.getElementById("game").dataset.you === "black"`)
	if got := eval[string](bob, `document.getElementById("handicap-by").textContent`); !strings.Contains(got, "one stone per rank") {
		t.Errorf("game page: %q", got)
	}
	bob.screenshot("tengen-handicap-by-rank-phone.png")
	alice.do("open the game", chromedp.Click(chromedp.CSS(`#new-game a`)))
	alice.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && document.getElementById("game").dataset.you === "white"`)
	alice.screenshot("tengen-handicap-by-rank-desktop.png")
}
